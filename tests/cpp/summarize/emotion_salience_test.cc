#include "../../../src/summarize/emotion_salience.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>

#include "kessel/summarize/summary.h"
#include "test_dialogues.h"

namespace kessel::summarize {
namespace {

using testing::make_dialogue;
using text::Speaker;

// Index of a feature by name (the table's order is the weight file's).
std::size_t at(const char* name) {
  const auto& names = salience::feature_names();
  const auto it = std::find_if(names.begin(), names.end(),
                               [&](const char* n) { return std::string(n) == name; });
  EXPECT_NE(it, names.end()) << name;
  return static_cast<std::size_t>(it - names.begin());
}

TEST(EmotionSalience, FeaturesReadTheUnitItsMentionsAndTheAgentTurnBefore) {
  auto d = make_dialogue({{Speaker::customer, {"我的快递到哪了？"}},
                          {Speaker::agent, {"抱歉，这个无法修改。"}},
                          {Speaker::customer, {"好吧。。。"}},
                          {Speaker::customer, {"气死我了！"}}});
  const Prepared p = prepare(d, testing::default_lexicon());
  ASSERT_EQ(p.units.size(), 4u);
  const auto q = salience::unit_features(p, 0);
  EXPECT_EQ(q[at("bias")], 1.0f);
  EXPECT_EQ(q[at("question")], 1.0f);
  EXPECT_EQ(q[at("first_customer")], 1.0f);
  EXPECT_EQ(q[at("after_refusal")], 0.0f);
  const auto agent = salience::unit_features(p, 1);
  EXPECT_EQ(std::accumulate(agent.begin(), agent.end(), 0.0f), 1.0f);  // the bias only
  const auto resigned = salience::unit_features(p, 2);
  EXPECT_EQ(resigned[at("after_refusal")], 1.0f);
  EXPECT_EQ(resigned[at("resignation")], 1.0f);
  EXPECT_EQ(resigned[at("repeated_marks")], 1.0f);
  EXPECT_EQ(resigned[at("short")], 1.0f);
  const auto angry = salience::unit_features(p, 3);
  EXPECT_GT(angry[at("mention_strength")], 0.8f);
  EXPECT_EQ(angry[at("feeling")], 1.0f);
  EXPECT_EQ(angry[at("dialogue_top")], 1.0f);
  EXPECT_EQ(angry[at("exclamation")], 1.0f);
  EXPECT_EQ(angry[at("after_refusal")], 0.0f);  // its turn follows a customer turn
}

TEST(EmotionSalience, ProbabilitiesAreAChoiceAmongCustomerUnitsAndNone) {
  auto d = make_dialogue({{Speaker::customer, {"My order never arrived.", "I am furious!"}},
                          {Speaker::agent, {"Sorry, we will resend it."}}});
  const Prepared p = prepare(d, testing::default_lexicon());
  salience::Weights w;
  w.w[at("mention_strength")] = 4.0f;
  w.threshold = 0.5f;
  const auto pr = salience::unit_probabilities(p, w);
  ASSERT_EQ(pr.size(), 3u);
  EXPECT_EQ(pr[2], 0.0);  // the agent's
  EXPECT_GT(pr[1], pr[0]);
  EXPECT_LT(pr[0] + pr[1], 1.0);  // "none" keeps the rest
  EXPECT_EQ(salience::target_unit(p, w), 1);
  EXPECT_EQ(salience::target_unit(p, w, {1, 0, 1}), pr[0] >= 0.5 ? 0 : -1);  // unit 1 not eligible
  w.threshold = 0.99f;
  EXPECT_EQ(salience::target_unit(p, w), -1);  // not confident enough
}

TEST(EmotionSalience, TheConstraintKeepsTheLearnedTargetEvenWithoutADetectedMention) {
  // The agent's answers are the most salient; the customer's units have no lexicon word. Whatever
  // the built-in table chooses, the constrained summary holds it and says it is satisfied.
  auto d = make_dialogue({{Speaker::customer, {"我的快递到哪了？"}},
                          {Speaker::agent, {"抱歉，这个订单无法修改地址。"}},
                          {Speaker::customer, {"那我还要等多久啊，都一个星期了。。。"}},
                          {Speaker::agent, {"预计明天送达。"}}});
  const Prepared p = prepare(d, testing::default_lexicon());
  UnitScores s;
  s.salience = {0.2f, 0.9f, 0.1f, 0.8f};
  DecodeOptions o;
  o.max_sentences = 2;
  o.redundancy = 0.0f;
  const int target = salience::target_unit(p, salience::builtin_weights(p.lang));
  ASSERT_EQ(target, 2) << "the table no longer picks the week-long wait: choose another example";
  const Summary out = decode(p, s, o);
  EXPECT_TRUE(out.constraint_bound);
  EXPECT_TRUE(out.constraint_satisfied);
  EXPECT_TRUE(std::any_of(out.sentences.begin(), out.sentences.end(),
                          [](const SummarySentence& x) { return x.unit == 2; }));
  o.emotion_constraint = false;
  const Summary free = decode(p, s, o);
  EXPECT_FALSE(free.constraint_bound);
  EXPECT_FALSE(free.constraint_satisfied);
}

TEST(EmotionSalience, ACourtesyIsNoFeeling) {
  EXPECT_TRUE(salience::is_courtesy("好的，谢啦，没别的问题了"));
  EXPECT_TRUE(salience::is_courtesy("Thanks a lot!"));
  EXPECT_FALSE(salience::is_courtesy("没别的方法了?"));  // resignation, not a closing
  EXPECT_FALSE(salience::is_courtesy("找不到啊，只有申请退款"));
}

}  // namespace
}  // namespace kessel::summarize
