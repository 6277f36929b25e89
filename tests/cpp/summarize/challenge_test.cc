// A customer's challenge (decode_parts.h, answered_unit): 为什么啊, 谁说的, 那钱呢 mean nothing without
// what the agent just said, and come with it or not at all.
#include <gtest/gtest.h>

#include "kessel/summarize/summary.h"
#include "summarize/decode_parts.h"
#include "test_dialogues.h"

namespace kessel::summarize {
namespace {

using text::Speaker;
using testing::make_dialogue;
const text::Lexicon& lexicon() { return testing::default_lexicon(); }

DecodeOptions options(int max_sentences) { return testing::sentence_budget(max_sentences); }

TEST(Challenge, AChallengeComesWithWhatTheAgentSaid) {
  auto d = make_dialogue({{Speaker::customer, {"我想更换收货地点"}},
                          {Speaker::agent, {"订单一旦下单成功，地址是不支持修改的"}},
                          {Speaker::customer, {"谁说的?"}}});
  Prepared p = prepare(d, lexicon());
  ASSERT_EQ(p.units.size(), 3u);
  UnitScores s;
  s.salience = {0.2f, 0.1f, 0.9f};
  const DecodeOptions two = options(2);
  const decoding::Context c(p, s, two);
  EXPECT_EQ(c.answers[2], 1);
  // Alone the challenge and the request would be chosen; it brings the refusal it challenges instead.
  Summary out = decode(p, s, two);
  ASSERT_EQ(out.sentences.size(), 2u) << out.summary;
  EXPECT_EQ(out.sentences[0].unit, 1);
  EXPECT_EQ(out.sentences[1].unit, 2);
}

TEST(Challenge, WhatAChallengeIs) {
  auto answered = [](const std::string& words) {
    auto d = make_dialogue({{Speaker::customer, {"我的订单能退吗"}},
                            {Speaker::agent, {"这个订单已经无法取消了"}},
                            {Speaker::customer, {words}}});
    Prepared p = prepare(d, lexicon());
    UnitScores s = testing::same_salience(p);
    const DecodeOptions o = options(3);
    const decoding::Context c(p, s, o);
    return c.answers.back();
  };
  EXPECT_EQ(answered("为什么啊"), 1);
  EXPECT_EQ(answered("那钱呢?"), 1);
  EXPECT_EQ(answered("什么意思"), 1);
  EXPECT_EQ(answered("那怎么办"), 1);
  // A question of its own says what it asks.
  EXPECT_EQ(answered("保修多久"), -1);
  EXPECT_EQ(answered("可以换吗"), -1);
  // 那…呢 about more than a thing or two is a question of its own.
  EXPECT_EQ(answered("那我的另一个订单呢"), -1);
}

TEST(Challenge, AfterTheCustomersOwnWordsItChallengesNothing) {
  // 怎么办 after the customer's own statement refers to it, not to the agent's earlier reply.
  auto d = make_dialogue({{Speaker::agent, {"上门取件的时间不能修改"}},
                          {Speaker::customer, {"明天家里没有人"}},
                          {Speaker::customer, {"怎么办"}}});
  Prepared p = prepare(d, lexicon());
  UnitScores s = testing::same_salience(p);
  const DecodeOptions o = options(3);
  const decoding::Context c(p, s, o);
  EXPECT_EQ(c.answers.back(), -1);
}

}  // namespace
}  // namespace kessel::summarize
