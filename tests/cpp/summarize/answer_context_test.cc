// A bare answer comes with its question or not at all (decode_parts.h, answered_question): "用户:白条。"
// means nothing to a reader who has not seen "储蓄卡还是信用卡呢？".
#include <gtest/gtest.h>

#include "kessel/summarize/summary.h"
#include "test_dialogues.h"

namespace kessel::summarize {
namespace {

using text::Speaker;
using testing::make_dialogue;
const text::Lexicon& lexicon() { return testing::default_lexicon(); }

DecodeOptions options(int max_sentences) {
  DecodeOptions o;
  o.max_sentences = max_sentences;
  o.redundancy = 0.0f;
  return o;
}

TEST(AnswerContext, AShortAnswerBringsItsQuestionFirst) {
  auto d = make_dialogue({{Speaker::customer, {"我要退款，钱退到哪里？"}},
                          {Speaker::agent, {"请问您支付用的是储蓄卡还是信用卡呢？"}},
                          {Speaker::customer, {"白条"}},
                          {Speaker::agent, {"白条退款会在一个工作日内恢复额度。"}}});
  Prepared p = prepare(d, lexicon());
  ASSERT_EQ(p.units.size(), 4u);
  UnitScores s;
  // The answer ranks first and its question second: the pair, worth the mean of the two, leads.
  s.salience = {0.3f, 0.6f, 1.0f, 0.5f};
  Summary out = decode(p, s, options(2));
  ASSERT_EQ(out.sentences.size(), 2u);
  EXPECT_EQ(out.sentences[0].unit, 1);
  EXPECT_EQ(out.sentences[1].unit, 2);
  EXPECT_EQ(out.summary, "客服:请问您支付用的是储蓄卡还是信用卡呢？用户:白条。");
  // With room for one sentence the pair does not fit: the answer is not shown alone, while its
  // question, which says something alone, may be.
  out = decode(p, s, options(1));
  ASSERT_EQ(out.sentences.size(), 1u);
  EXPECT_EQ(out.sentences[0].unit, 1);
  // The published baselines rank every sentence as it is (skip_fillers off): no pairing.
  DecodeOptions plain = options(1);
  plain.skip_fillers = false;
  EXPECT_EQ(decode(p, s, plain).sentences[0].unit, 2);
}

TEST(AnswerContext, EnglishCountsWordsAndNotTheHandle) {
  auto d = make_dialogue({{Speaker::customer, {"@AppleSupport my phone keeps restarting"}},
                          {Speaker::agent, {"@123 Which iOS version are you on?"}},
                          {Speaker::customer, {"@AppleSupport iOS 11"}}});
  Prepared p = prepare(d, lexicon());
  ASSERT_EQ(p.units.size(), 3u);
  UnitScores s;
  s.salience = {0.3f, 0.6f, 1.0f};
  Summary out = decode(p, s, options(2));
  ASSERT_EQ(out.sentences.size(), 2u);
  EXPECT_EQ(out.sentences[0].unit, 1);
  EXPECT_EQ(out.sentences[1].unit, 2);
}

TEST(AnswerContext, WhatSaysSomethingOnItsOwnStandsAlone) {
  UnitScores s;
  s.salience = {0.5f, 0.1f, 1.0f};
  // A longer turn carries its own context.
  auto longer = make_dialogue({{Speaker::customer, {"我要退款"}},
                               {Speaker::agent, {"请问您支付用的是储蓄卡还是信用卡呢？"}},
                               {Speaker::customer, {"用的白条，但是一直显示审核中"}}});
  Prepared p = prepare(longer, lexicon());
  ASSERT_EQ(p.units.size(), 3u);
  EXPECT_EQ(decode(p, s, options(1)).sentences[0].unit, 2);
  // A question answers nothing.
  auto asks = make_dialogue({{Speaker::customer, {"我要退款"}},
                             {Speaker::agent, {"请问您支付用的是储蓄卡还是信用卡呢？"}},
                             {Speaker::customer, {"有区别吗？"}}});
  p = prepare(asks, lexicon());
  EXPECT_EQ(decode(p, s, options(1)).sentences[0].unit, 2);
  // An opening formula is no question a reader needs ("有什么问题我可以帮您处理或解决呢?" is a courtesy).
  auto opener = make_dialogue({{Speaker::customer, {"你好"}},
                               {Speaker::agent, {"有什么问题我可以帮您处理或解决呢?"}},
                               {Speaker::customer, {"退货"}}});
  p = prepare(opener, lexicon());
  EXPECT_EQ(decode(p, s, options(1)).sentences[0].unit, 2);
  // The customer's feeling is theirs, whatever was asked.
  auto feeling = make_dialogue({{Speaker::customer, {"快递还没到"}},
                                {Speaker::agent, {"请问您联系配送员了吗？"}},
                                {Speaker::customer, {"气死我了"}}});
  p = prepare(feeling, lexicon());
  EXPECT_EQ(decode(p, s, options(1)).sentences[0].unit, 2);
}

TEST(AnswerContext, TheEmotionConstraintNeverLeavesAnAnswerWithoutItsQuestion) {
  // The greedy pair (question, answer) fills the two sentences; the constraint makes room for the
  // customer's anger by letting the weakest unit, the question, go. Its answer goes with it.
  auto d = make_dialogue({{Speaker::customer, {"气死我了！"}},
                          {Speaker::agent, {"请问您支付用的是储蓄卡还是信用卡呢？"}},
                          {Speaker::customer, {"白条"}}});
  Prepared p = prepare(d, lexicon());
  ASSERT_TRUE(p.customer_expressed_emotion());
  UnitScores s;
  s.salience = {0.0f, 0.2f, 1.0f};
  Summary out = decode(p, s, options(2));
  for (const auto& sentence : out.sentences) EXPECT_NE(sentence.unit, 2) << out.summary;
  EXPECT_NE(out.summary.find("气死我了"), std::string::npos) << out.summary;
}

}  // namespace
}  // namespace kessel::summarize
