// The customer's decision (decode_parts.h, decision_unit): how the customer chose to go on once the agent
// had answered (那不换了) is shown where the sentence budget has room.
#include <gtest/gtest.h>

#include "kessel/summarize/summary.h"
#include "summarize/decode_parts.h"
#include "test_dialogues.h"

namespace kessel::summarize {
namespace {

using text::Speaker;
using testing::make_dialogue;
const text::Lexicon& lexicon() { return testing::default_lexicon(); }

int decision_of(const text::Dialogue& d) {
  Prepared p = prepare(d, lexicon());
  UnitScores s = testing::same_salience(p);
  const DecodeOptions o = testing::sentence_budget(6);
  const decoding::Context c(p, s, o);
  return decoding::decision_unit(c);
}

text::Dialogue ending_on(const char* last) {
  return make_dialogue({{Speaker::customer, {"可以换成极光色吗"}},
                        {Speaker::agent, {"已经出单号的商品是无法更改颜色的呢"}},
                        {Speaker::agent, {"您可以取消订单后重新下单哦"}},
                        {Speaker::customer, {last}},
                        {Speaker::agent, {"请问还有其他还可以帮到您的吗?"}}});
}

TEST(Decision, TheCustomersLastChoiceIsADecision) {
  EXPECT_EQ(decision_of(ending_on("那不换了")), 3);
  EXPECT_EQ(decision_of(ending_on("那我再考虑下")), 3);
  EXPECT_EQ(decision_of(ending_on("那我先不支付定金了")), 3);
  EXPECT_EQ(decision_of(ending_on("那就拒收吧")), 3);
}

TEST(Decision, AQuestionAnAcknowledgementOrAThingIsNone) {
  EXPECT_EQ(decision_of(ending_on("那我怎么重新下单呢")), -1);
  EXPECT_EQ(decision_of(ending_on("那就好")), -1);
  EXPECT_EQ(decision_of(ending_on("那就行，谢谢")), -1);
  EXPECT_EQ(decision_of(ending_on("那个颜色还有货吗")), -1);
  EXPECT_EQ(decision_of(ending_on("那么贵的手机")), -1);
  EXPECT_EQ(decision_of(ending_on("那不行")), -1);  // too few letters to say what was chosen
}

TEST(Decision, OnlyTheCustomersLastWordsCount) {
  // A choice the customer went on from is no decision.
  auto d = make_dialogue({{Speaker::customer, {"可以换成极光色吗"}},
                          {Speaker::agent, {"已经出单号的商品是无法更改颜色的呢"}},
                          {Speaker::customer, {"那我再考虑下"}},
                          {Speaker::customer, {"极光色什么时候有货呢"}}});
  EXPECT_EQ(decision_of(d), -1);
}

TEST(Decision, ShownAfterTheAgentsWordsWhereThereIsRoom) {
  const text::Dialogue d = ending_on("那不换了");
  Prepared p = prepare(d, lexicon());
  UnitScores s = testing::same_salience(p);
  const DecodeOptions room = testing::sentence_budget(6), two = testing::sentence_budget(2);
  const decoding::Context c(p, s, room);
  decoding::ConstrainedSelection shown;
  shown.units = {0, 1};
  decoding::add_decision(c, shown);
  EXPECT_EQ(shown.units, (std::vector<int>{0, 1, 3}));
  // Without the agent's words before it, the choice would be about nothing the reader sees.
  decoding::ConstrainedSelection customer_only;
  customer_only.units = {0};
  decoding::add_decision(c, customer_only);
  EXPECT_EQ(customer_only.units, (std::vector<int>{0}));
  // At the cap it stays out.
  const decoding::Context full(p, s, two);
  decoding::ConstrainedSelection at_cap;
  at_cap.units = {0, 1};
  decoding::add_decision(full, at_cap);
  EXPECT_EQ(at_cap.units, (std::vector<int>{0, 1}));
}

}  // namespace
}  // namespace kessel::summarize
