// The faithfulness probes over every summary of the real validation sets (../shared/data or
// $KESSEL_DATA; skipped when absent): the default summarizer (the unsupervised centrality ranker with
// the default decode settings, as `kessel summarize` builds it) and Lead-3. Any finding fails, with
// the counts per kind and the first findings printed; so does a summary that breaks the emotion
// constraint where it is on.
#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <string>

#include "kessel/summarize/eaca.h"
#include "kessel/summarize/faithfulness.h"
#include "kessel/summarize/summarizer.h"
#include "test_dialogues.h"
#include "text/test_paths.h"

namespace kessel::summarize {
namespace {

std::string data_file(const std::string& rel) {
  const std::string dir = text::testing::shared_data_dir();
  if (dir.empty() || !std::filesystem::exists(dir + "/" + rel)) return "";
  return dir + "/" + rel;
}

// Chinese word boundaries for word_cut: the default segmenter's (jieba's dictionary when installed).
WordBoundaries words() { return segmenter_words(text::Segmenter::default_segmenter()); }

// Runs the probes over every dialogue of `path` summarized by `summarizer`; returns the findings'
// total after printing the counts per kind and the first `show` findings.
std::size_t probe_with(const std::string& path, const std::string& label, const Summarizer& summarizer,
                       int show = 8) {
  const text::Lexicon& lexicon = testing::default_lexicon();
  const WordBoundaries boundaries = words();
  const text::ReadResult input = text::read_dialogues(path);
  std::array<std::size_t, kFaithKinds> counts{};
  std::size_t sentences = 0, total = 0, unsatisfied = 0;
  int shown = 0;
  for (const auto& d : input.dialogues) {
    const Summarized s = summarizer.run(d, lexicon);
    const FaithReport r = check_faithfulness(s.prepared, s.summary, boundaries);
    sentences += static_cast<std::size_t>(r.sentences);
    // With the constraint on, every summary keeps the customer's strongest feeling: no later step (a
    // bare answer leaving with its question) may undo what the constraint added.
    if (summarizer.decode.emotion_constraint && !s.summary.constraint_satisfied) {
      ++unsatisfied;
      ++total;
      if (shown++ < show) std::printf("  %s %s: constraint not satisfied: %s\n", label.c_str(), d.id.c_str(), s.summary.summary.c_str());
    }
    for (const auto& f : r.findings) {
      ++counts[static_cast<std::size_t>(f.kind)];
      ++total;
      if (shown++ < show)
        std::printf("  %s %s sentence %d (unit %d): %s: %s\n", label.c_str(), d.id.c_str(), f.sentence, f.unit,
                    to_string(f.kind), f.detail.c_str());
    }
  }
  std::printf("%s: %zu dialogues, %zu sentences, word boundaries %s:", label.c_str(), input.dialogues.size(),
              sentences, boundaries.source.c_str());
  for (FaithFinding::Kind k : kAllFaithKinds) std::printf(" %s %zu", to_string(k), counts[static_cast<std::size_t>(k)]);
  std::printf(", constraint unsatisfied %zu\n", unsatisfied);
  return total;
}

std::size_t probe_file(const std::string& path, const std::string& label, const SummarizerOptions& options) {
  return probe_with(path, label, make_summarizer(options, testing::default_lexicon()));
}

// A small EACA model (one network, a few epochs) trained on the first `n` dialogues of `path`: the
// summaries it gives exercise what the unsupervised rankers never do, token deletion (zh) and
// reported speech (en), so that the probes see the renderer's guards at work on every dialogue.
Summarizer small_eaca(const std::string& path, std::size_t n) {
  const text::ReadResult input = text::read_dialogues(path);
  std::vector<text::Dialogue> train(input.dialogues.begin(),
                                    input.dialogues.begin() + static_cast<long>(std::min(n, input.dialogues.size())));
  EacaConfig config;
  config.members = 1;
  TrainOptions options;
  options.epochs = 3;
  options.verbose = false;
  const std::vector<text::Dialogue> dev(train.end() - static_cast<long>(train.size() / 5), train.end());
  train.resize(train.size() - dev.size());
  auto model = std::make_unique<EacaModel>(train_eaca(train, dev, testing::default_lexicon(), config, options));
  Summarizer s;
  s.decode = model->decode_options();
  s.scorer = std::move(model);
  return s;
}

// Lead-3 as kessel eval's Lead row decodes it: the first three units, no redundancy control, no constraint.
SummarizerOptions lead3() {
  SummarizerOptions o;
  o.ranker = "lead";
  o.max_sentences = 3;
  o.constraint = false;
  return o;
}

TEST(FaithfulnessRealData, NoFindingOnTheValidationSets) {
  const std::string csds = data_file("csds/val.jsonl"), tweetsumm = data_file("tweetsumm/valid.jsonl");
  if (csds.empty() || tweetsumm.empty()) GTEST_SKIP() << "shared data not found; set KESSEL_DATA";
  EXPECT_EQ(probe_file(csds, "csds val, centrality (default)", SummarizerOptions{}), 0u);
  EXPECT_EQ(probe_file(csds, "csds val, Lead-3", lead3()), 0u);
  EXPECT_EQ(probe_file(tweetsumm, "tweetsumm valid, centrality (default)", SummarizerOptions{}), 0u);
  EXPECT_EQ(probe_file(tweetsumm, "tweetsumm valid, Lead-3", lead3()), 0u);
  EXPECT_EQ(probe_with(csds, "csds val, EACA (1 network, 3 epochs, first 300)", small_eaca(csds, 300)), 0u);
  EXPECT_EQ(probe_with(tweetsumm, "tweetsumm valid, EACA (1 network, 3 epochs, all 110)", small_eaca(tweetsumm, 110)),
            0u);
}

}  // namespace
}  // namespace kessel::summarize
