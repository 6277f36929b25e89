// The customer's repeats (decode_parts.h, drop_customer_repeats): a question the customer sent twice
// before the agent replied is shown once; what differs in a negator or a number is no repeat.
#include <gtest/gtest.h>

#include "kessel/summarize/summary.h"
#include "summarize/decode_parts.h"
#include "test_dialogues.h"

namespace kessel::summarize {
namespace {

using text::Speaker;
using testing::make_dialogue;
const text::Lexicon& lexicon() { return testing::default_lexicon(); }

std::vector<int> after_dropping(const text::Dialogue& d, std::vector<int> units) {
  Prepared p = prepare(d, lexicon());
  UnitScores s = testing::same_salience(p);
  DecodeOptions o;
  o.max_sentences = 9;
  o.redundancy = 0.3f;
  const decoding::Context c(p, s, o);
  decoding::ConstrainedSelection selection;
  selection.units = std::move(units);
  decoding::drop_customer_repeats(c, selection);
  return selection.units;
}

TEST(CustomerRepeats, AQuestionAskedTwiceBeforeTheReplyIsShownOnce) {
  auto d = make_dialogue({{Speaker::customer, {"空调坏了，不制冷了"}},
                          {Speaker::customer, {"是上门维修吗"}},
                          {Speaker::customer, {"师傅，是上门维修吗"}},
                          {Speaker::agent, {"工作人员会联系您协商的"}}});
  // The one with more letters stays.
  EXPECT_EQ(after_dropping(d, {0, 1, 2, 3}), (std::vector<int>{0, 2, 3}));
  // A longer first asking stays in its place.
  auto longer_first = make_dialogue({{Speaker::customer, {"保价协议什么时候退款"}},
                                     {Speaker::customer, {"什么时候退款"}},
                                     {Speaker::agent, {"退款预计在[数字]个工作日内原路退回到您的账户"}}});
  EXPECT_EQ(after_dropping(longer_first, {0, 1, 2}), (std::vector<int>{0, 2}));
  // A short reply right after the second asking answers it (answered_unit): that asking stays.
  auto answered = make_dialogue({{Speaker::customer, {"保价协议什么时候退款"}},
                                 {Speaker::customer, {"什么时候退款"}},
                                 {Speaker::agent, {"明天退款"}}});
  EXPECT_EQ(after_dropping(answered, {0, 1, 2}), (std::vector<int>{0, 1, 2}));
}

TEST(CustomerRepeats, AskingAgainAfterTheReplyStays) {
  auto d = make_dialogue({{Speaker::customer, {"大概多长时间能退款"}},
                          {Speaker::agent, {"已经帮您重新提交了"}},
                          {Speaker::customer, {"大概多长时间能退款"}}});
  EXPECT_EQ(after_dropping(d, {0, 1, 2}), (std::vector<int>{0, 1, 2}));
  // Only the reply counts: a hold between the two askings is none.
  auto hold = make_dialogue({{Speaker::customer, {"订单今天还能到吗"}},
                             {Speaker::agent, {"您稍等，我帮您查一下"}},
                             {Speaker::customer, {"订单还能到吗"}}});
  EXPECT_EQ(after_dropping(hold, {0, 2}), (std::vector<int>{0}));
}

TEST(CustomerRepeats, ANegatorOrANumberMakesItNoRepeat) {
  auto negated = make_dialogue({{Speaker::customer, {"在线付款"}}, {Speaker::customer, {"不支持在线付款"}}});
  EXPECT_EQ(after_dropping(negated, {0, 1}), (std::vector<int>{0, 1}));
  auto products = make_dialogue({{Speaker::customer, {"咨询订单号:[订单编号]商品ID:11951382"}},
                                 {Speaker::customer, {"咨询订单号:[订单编号]商品ID:12065668"}}});
  EXPECT_EQ(after_dropping(products, {0, 1}), (std::vector<int>{0, 1}));
}

TEST(CustomerRepeats, AUnitWithAnEmotionStays) {
  // The second asking has fewer letters and leaves; with the customer's feeling in it, it stays.
  auto plain = make_dialogue({{Speaker::customer, {"我的快递怎么还没到呢"}}, {Speaker::customer, {"快递怎么还没到啊"}}});
  EXPECT_EQ(after_dropping(plain, {0, 1}), (std::vector<int>{0}));
  auto angry = make_dialogue({{Speaker::customer, {"我的快递怎么还没到呢"}}, {Speaker::customer, {"快递怎么还没到气死"}}});
  EXPECT_EQ(after_dropping(angry, {0, 1}), (std::vector<int>{0, 1}));
}

}  // namespace
}  // namespace kessel::summarize
