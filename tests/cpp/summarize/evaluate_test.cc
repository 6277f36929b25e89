#include "kessel/summarize/evaluate.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <vector>

#include "kessel/error.h"
#include "kessel/summarize/eaca.h"
#include "kessel/summarize/scorers.h"
#include "test_dialogues.h"

namespace kessel::summarize {
namespace {

// n values spread evenly over [0, 100): mean 50 - 50/n, variance close to 100^2 / 12.
std::vector<double> spread(int n) {
  std::vector<double> v;
  for (int i = 0; i < n; ++i) v.push_back(100.0 * ((i * 7919) % n) / n);
  return v;
}

TEST(BootstrapInterval, ConstantValuesGiveAPointInterval) {
  const Interval ci = bootstrap_mean_interval(std::vector<double>(30, 41.5), 200, 0.95, 1);
  EXPECT_DOUBLE_EQ(ci.lo, 41.5);
  EXPECT_DOUBLE_EQ(ci.hi, 41.5);
}

TEST(BootstrapInterval, AgreesWithTheNormalApproximationForALargeSample) {
  // For n = 400 the sampling distribution of the mean is close to normal: the 95% interval is about
  // mean +- 1.96 sd / sqrt(n) (the bootstrap uses the plug-in sd, with divisor n).
  const auto v = spread(400);
  double mean = 0.0, var = 0.0;
  for (double x : v) mean += x / v.size();
  for (double x : v) var += (x - mean) * (x - mean) / v.size();
  const double half = 1.959964 * std::sqrt(var / v.size());
  const Interval ci = bootstrap_mean_interval(v, 4000, 0.95, 3);
  EXPECT_NEAR(ci.hi - ci.lo, 2.0 * half, 0.1 * 2.0 * half);
  EXPECT_NEAR(0.5 * (ci.lo + ci.hi), mean, 0.1 * half);
  EXPECT_LT(ci.lo, mean);
  EXPECT_GT(ci.hi, mean);
}

TEST(BootstrapInterval, HigherLevelsGiveWiderIntervals) {
  const auto v = spread(50);
  const Interval i80 = bootstrap_mean_interval(v, 2000, 0.80, 5);
  const Interval i99 = bootstrap_mean_interval(v, 2000, 0.99, 5);
  EXPECT_LT(i99.lo, i80.lo);
  EXPECT_GT(i99.hi, i80.hi);
}

TEST(BootstrapInterval, IsDeterministicForASeed) {
  const auto v = spread(37);
  const Interval a = bootstrap_mean_interval(v, 500, 0.95, 9);
  const Interval b = bootstrap_mean_interval(v, 500, 0.95, 9);
  const Interval c = bootstrap_mean_interval(v, 500, 0.95, 10);
  EXPECT_EQ(a.lo, b.lo);
  EXPECT_EQ(a.hi, b.hi);
  EXPECT_TRUE(a.lo != c.lo || a.hi != c.hi);
}

TEST(BootstrapInterval, PairedDifferencesOfIdenticalSystemsAreZero) {
  const auto a = spread(25);
  std::vector<double> diff(a.size());
  for (std::size_t i = 0; i < a.size(); ++i) diff[i] = a[i] - a[i];
  const Interval ci = bootstrap_mean_interval(diff, 300, 0.95, 1);
  EXPECT_EQ(ci.lo, 0.0);
  EXPECT_EQ(ci.hi, 0.0);
}

TEST(BootstrapInterval, BadArgumentsAreNamed) {
  const auto v = spread(10);
  auto message = [](auto&& call) {
    try {
      call();
    } catch (const InvalidArgument& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_NE(message([] { bootstrap_mean_interval({}, 10, 0.95, 1); }).find("no values"), std::string::npos);
  EXPECT_NE(message([&] { bootstrap_mean_interval(v, 0, 0.95, 1); }).find("resamples must be >= 1"), std::string::npos);
  EXPECT_NE(message([&] { bootstrap_mean_interval(v, 10, 1.0, 1); }).find("level must be in (0, 1)"), std::string::npos);
  auto bad = v;
  bad[3] = std::numeric_limits<double>::quiet_NaN();
  EXPECT_NE(message([&] { bootstrap_mean_interval(bad, 10, 0.95, 1); }).find("values[3] is not finite"),
            std::string::npos);
}

TEST(Evaluate, CountsFaithfulnessFindingsAndTheStrongestEmotion) {
  using text::Speaker;
  auto d = testing::make_dialogue({{Speaker::customer, {"什么时候发货？"}},
                                   {Speaker::agent, {"今天下午发货。"}},
                                   {Speaker::customer, {"气死我了！"}}},
                                  "d1");
  d.references = {{"用户询问发货时间。", "客服回答今天下午。"}};
  DecodeOptions o;
  o.redundancy = 0.0f;
  o.emotion_constraint = false;
  EmotionLabelSet labels;
  labels.dialogues.push_back({"d1", {{2, 0, 4, text::Emotion::anger, 3, true}}, "labels.jsonl", 1});
  labels.by_id["d1"] = 0;
  const WordBoundaries words = per_character_words();
  const EvalRow row = evaluate({d}, testing::default_lexicon(), LeadScorer(), o, "Lead", {&words, &labels});
  EXPECT_EQ(row.faith_sentences, 3u);
  EXPECT_EQ(row.faith(FaithFinding::Kind::question_asserted), 0u);  // the renderer keeps 什么时候发货？
  EXPECT_EQ(row.faith(FaithFinding::Kind::cross_turn_merge), 0u);
  EXPECT_EQ(row.labelled_with_emotion, 1u);
  EXPECT_DOUBLE_EQ(row.strongest_kept, 1.0);
  o.max_sentences = 2;  // Lead-2 leaves the emotion out
  EXPECT_DOUBLE_EQ(evaluate({d}, testing::default_lexicon(), LeadScorer(), o, "Lead-2", {&words, &labels}).strongest_kept,
                   0.0);
}

TEST(Evaluate, DevRougeReportsHowLongTheScoredSummariesAre) {
  // The expected-F1 stop's tie-break takes the setting whose dev summaries are longest
  // (eaca_decoding_choice.cc): DevRouge::shown_chars is their mean length in code points.
  using text::Speaker;
  auto one = testing::make_dialogue({{Speaker::customer, {"什么时候发货？"}}, {Speaker::agent, {"今天下午发货。"}}}, "d1");
  auto two = testing::make_dialogue({{Speaker::customer, {"退款到账了吗？"}}, {Speaker::agent, {"已经退回原卡。"}}}, "d2");
  one.references = {{"用户询问发货时间。"}};
  two.references = {{"用户询问退款。"}};
  DecodeOptions o;
  o.redundancy = 0.0f;
  o.emotion_constraint = false;
  o.max_sentences = 1;  // Lead-1: "用户:询问什么时候发货。" and "用户:询问退款到账了吗。", 12 code points each
  const std::vector<text::Dialogue> dialogues{one, two};
  const DevRouge lead1 = evaluate_rouge(dialogues, testing::default_lexicon(), LeadScorer(), o);
  ASSERT_EQ(lead1.dialogues, 2);
  o.max_sentences = 2;
  const DevRouge lead2 = evaluate_rouge(dialogues, testing::default_lexicon(), LeadScorer(), o);
  EXPECT_GT(lead1.shown_chars, 0.0);
  EXPECT_GT(lead2.shown_chars, lead1.shown_chars);
  const ScoredDialogues scored = score_dialogues(dialogues, testing::default_lexicon(), LeadScorer());
  EXPECT_DOUBLE_EQ(decoded_rouge(scored, o).shown_chars, lead2.shown_chars);
}

}  // namespace
}  // namespace kessel::summarize
