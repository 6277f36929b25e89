#include "kessel/summarize/summarizer.h"

#include <gtest/gtest.h>

#include <filesystem>

#include "kessel/error.h"
#include "kessel/summarize/eaca.h"
#include "kessel/summarize/scorers.h"
#include "test_dialogues.h"

namespace kessel::summarize {
namespace {

TEST(Summarizer, DefaultsFollowTheRanker) {
  const auto& lex = testing::default_lexicon();
  SummarizerOptions o;
  Summarizer centrality = make_summarizer(o, lex);
  EXPECT_EQ(centrality.decode.max_sentences, 4);
  EXPECT_EQ(centrality.decode.max_chars, 0);
  EXPECT_FLOAT_EQ(centrality.decode.redundancy, 0.5f);
  EXPECT_TRUE(centrality.decode.emotion_constraint);
  o.ranker = "lead";
  Summarizer lead = make_summarizer(o, lex);
  EXPECT_EQ(lead.scorer->name(), LeadScorer().name());
  EXPECT_FLOAT_EQ(lead.decode.redundancy, 0.0f);  // the published baselines: no MMR
}

TEST(Summarizer, RunIsPrepareScoreDecode) {
  const auto& lex = testing::default_lexicon();
  const auto d = testing::make_dialogue({{text::Speaker::customer, {"我的快递三天没到。", "气死我了！"}},
                                         {text::Speaker::agent, {"非常抱歉。", "包裹今天下午会送到。"}}});
  SummarizerOptions o;
  o.max_sentences = 2;
  const Summarizer s = make_summarizer(o, lex);
  const Summarized r = s.run(d, lex);
  const Prepared p = prepare(d, lex);
  const UnitScores scores = s.scorer->score(p);
  const Summary expected = decode(p, scores, s.decode);
  EXPECT_EQ(r.prepared.dialogue, &d);
  EXPECT_EQ(r.prepared.units.size(), p.units.size());
  EXPECT_EQ(r.scores.salience, scores.salience);
  EXPECT_EQ(r.summary.summary, expected.summary);
  EXPECT_EQ(r.summary.constraint_satisfied, expected.constraint_satisfied);
}

TEST(Summarizer, ALengthOverrideTurnsTheModelsExpectedF1StopOff) {
  const auto& lex = testing::default_lexicon();
  EacaConfig c = testing::small_eaca_config();
  c.members = 1;
  c.max_chars = 300;
  c.f1_stop_chars = 100.0f;
  EacaModel model(c, 1);
  model.metadata()["lexicon"] = lex.identity();
  const auto path = (std::filesystem::temp_directory_path() / "kessel_summarizer_f1_stop.safetensors").string();
  model.save(path);
  SummarizerOptions o;
  o.model = path;
  EXPECT_EQ(make_summarizer(o, lex).decode.f1_stop_chars, 100.0f);  // the model's choice by default
  o.max_sentences = 3;  // the user's length wins: N sentences, not fewer
  EXPECT_EQ(make_summarizer(o, lex).decode.f1_stop_chars, 0.0f);
  o.max_sentences.reset();
  o.max_chars = 200;
  EXPECT_EQ(make_summarizer(o, lex).decode.f1_stop_chars, 0.0f);
  std::filesystem::remove(path);
}

TEST(Summarizer, OverridesApplyAndBadOptionsAreNamed) {
  const auto& lex = testing::default_lexicon();
  SummarizerOptions o;
  o.ranker = "lexrank";
  o.max_sentences = 2;
  o.max_chars = 50;
  o.redundancy = 0.25f;
  o.constraint = false;
  const Summarizer s = make_summarizer(o, lex);
  EXPECT_EQ(s.decode.max_sentences, 2);
  EXPECT_EQ(s.decode.max_chars, 50);
  EXPECT_FLOAT_EQ(s.decode.redundancy, 0.25f);
  EXPECT_FALSE(s.decode.emotion_constraint);
  auto fails = [&](SummarizerOptions bad, const char* name) {
    try {
      make_summarizer(bad, lex);
      ADD_FAILURE() << "no error for " << name;
    } catch (const InvalidArgument& e) {
      EXPECT_NE(std::string(e.what()).find(name), std::string::npos) << e.what();
    }
  };
  SummarizerOptions bad;
  bad.ranker = "magic";
  fails(bad, "ranker");
  bad = {};
  bad.max_sentences = 0;
  fails(bad, "max_sentences");
  bad = {};
  bad.redundancy = 1.5f;
  fails(bad, "redundancy");
  bad = {};
  bad.model = "/nonexistent/model.safetensors";
  EXPECT_THROW(make_summarizer(bad, lex), Error);
}

}  // namespace
}  // namespace kessel::summarize
