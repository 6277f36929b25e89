// The faithfulness probes over every summary of the real validation sets (../shared/data or
// $KESSEL_DATA; skipped when absent): the default summarizer (the unsupervised centrality ranker with
// the default decode settings, as `kessel summarize` builds it) and Lead-3. Any finding fails, with
// the counts per kind and the first findings printed.
#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <string>

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

// Runs the probes over every dialogue of `path` summarized by `options`; returns the findings' total
// after printing the counts per kind and the first `show` findings.
std::size_t probe_file(const std::string& path, const std::string& label, const SummarizerOptions& options,
                       int show = 8) {
  const text::Lexicon& lexicon = testing::default_lexicon();
  const Summarizer summarizer = make_summarizer(options, lexicon);
  const WordBoundaries boundaries = words();
  const text::ReadResult input = text::read_dialogues(path);
  std::array<std::size_t, kFaithKinds> counts{};
  std::size_t sentences = 0, total = 0;
  int shown = 0;
  for (const auto& d : input.dialogues) {
    const Summarized s = summarizer.run(d, lexicon);
    const FaithReport r = check_faithfulness(s.prepared, s.summary, boundaries);
    sentences += static_cast<std::size_t>(r.sentences);
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
  std::printf("\n");
  return total;
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
}

}  // namespace
}  // namespace kessel::summarize
