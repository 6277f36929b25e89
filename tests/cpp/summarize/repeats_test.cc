// The customer's repeats (decode_parts.h, drop_customer_repeats): a question the customer sent twice
// before the agent replied is shown once; what differs in a negator or a number is no repeat. A unit
// whose words another shown unit of its speaker says (said_within) is not shown.
#include <gtest/gtest.h>

#include "kessel/summarize/summary.h"
#include "summarize/decode_parts.h"
#include "test_dialogues.h"

namespace kessel::summarize {
namespace {

using text::Speaker;
using testing::make_dialogue;
const text::Lexicon& lexicon() { return testing::default_lexicon(); }

using Drop = void (*)(const decoding::Context&, decoding::ConstrainedSelection&);

// `units` of dialogue d after the pass `drop`, every unit of the same salience.
std::vector<int> after(Drop drop, const text::Dialogue& d, std::vector<int> units) {
  Prepared p = prepare(d, lexicon());
  UnitScores s = testing::same_salience(p);
  DecodeOptions o;
  o.max_sentences = 9;
  o.redundancy = 0.3f;
  const decoding::Context c(p, s, o);
  decoding::ConstrainedSelection selection;
  selection.units = std::move(units);
  drop(c, selection);
  return selection.units;
}

std::vector<int> after_dropping(const text::Dialogue& d, std::vector<int> units) {
  return after(decoding::drop_customer_repeats, d, std::move(units));
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

std::vector<int> after_dropping_said(const text::Dialogue& d, std::vector<int> units) {
  return after(decoding::drop_units_said_within, d, std::move(units));
}

TEST(SaidWithin, AUnitWhoseWordsAnotherOfItsSpeakerSaysLeaves) {
  // 提交售后申请了哦 says nothing the earlier line does not: the closing particle does not count.
  auto d = make_dialogue({{Speaker::customer, {"电脑一直很卡，怎么申请售后"}},
                          {Speaker::agent, {"已经帮您提交售后申请了，请注意接听电话"}},
                          {Speaker::customer, {"需要多久"}},
                          {Speaker::agent, {"提交售后申请了哦"}},
                          {Speaker::agent, {"具体的时间以审核意见为准"}}});
  EXPECT_EQ(after_dropping_said(d, {0, 1, 3, 4}), (std::vector<int>{0, 1, 4}));
  // The customer's first word, said again in their question.
  auto customer = make_dialogue({{Speaker::customer, {"发票"}},
                                 {Speaker::customer, {"已付款订单如何修改发票信息呢"}},
                                 {Speaker::agent, {"之前的个人抬头电子发票开具出来后反馈修改"}}});
  EXPECT_EQ(after_dropping_said(customer, {0, 1, 2}), (std::vector<int>{1, 2}));
}

TEST(SaidWithin, TheSelectionPassesItBy) {
  // The contained line ranks second; the selection takes the next one in its place.
  auto d = make_dialogue({{Speaker::customer, {"电脑一直很卡，不停要更新"}},
                          {Speaker::agent, {"已经帮您提交售后申请了，请注意接听电话"}},
                          {Speaker::agent, {"提交售后申请了哦"}},
                          {Speaker::agent, {"专员会在两天内联系您"}}});
  Prepared p = prepare(d, lexicon());
  UnitScores s = testing::same_salience(p);
  s.salience = {0.6f, 0.9f, 0.8f, 0.5f};
  DecodeOptions o;
  o.max_sentences = 3;
  o.redundancy = 0.05f;
  const decoding::Context c(p, s, o);
  EXPECT_EQ(decoding::greedy_selection(c), (std::vector<int>{1, 0, 3}));
  o.skip_fillers = false;  // the baselines take the ranking as it is
  const decoding::Context plain(p, s, o);
  EXPECT_EQ(decoding::greedy_selection(plain), (std::vector<int>{1, 2, 0}));
}

TEST(SaidWithin, AReplyShownBetweenKeepsIt) {
  // 好哒通知站点 answers the request shown before it, though 通知站点安排 came earlier.
  auto d = make_dialogue({{Speaker::customer, {"此件明天上午帮我安排配送一下"}},
                          {Speaker::agent, {"好哒通知站点安排哦"}},
                          {Speaker::customer, {"允许开箱验货哦"}},
                          {Speaker::agent, {"好哒通知站点哦"}}});
  EXPECT_EQ(after_dropping_said(d, {0, 1, 2, 3}), (std::vector<int>{0, 1, 2, 3}));
  // Without the request shown, it says nothing new.
  EXPECT_EQ(after_dropping_said(d, {0, 1, 3}), (std::vector<int>{0, 1}));
}

TEST(SaidWithin, ANegatorOrAQuestionMakesItMore) {
  auto negated = make_dialogue({{Speaker::agent, {"这个是需要预约的"}}, {Speaker::agent, {"不需要预约的"}}});
  EXPECT_EQ(after_dropping_said(negated, {0, 1}), (std::vector<int>{0, 1}));
  // A question is not said within a statement.
  auto asked = make_dialogue({{Speaker::customer, {"明天上午能到吗"}}, {Speaker::customer, {"说明天上午能到"}}});
  EXPECT_EQ(after_dropping_said(asked, {0, 1}), (std::vector<int>{0, 1}));
  // The shorter statement within a question leaves.
  auto statement = make_dialogue({{Speaker::customer, {"上门取件"}}, {Speaker::customer, {"是上门取件吗"}}});
  EXPECT_EQ(after_dropping_said(statement, {0, 1}), (std::vector<int>{1}));
}

TEST(SaidWithin, AFeelingStays) {
  auto d = make_dialogue({{Speaker::customer, {"太慢了"}}, {Speaker::customer, {"物流太慢了，三天都没动"}}});
  Prepared p = prepare(d, lexicon());
  ASSERT_FALSE(p.units.empty());
  EXPECT_EQ(after_dropping_said(d, {0, 1}), (std::vector<int>{0, 1}));
}

}  // namespace
}  // namespace kessel::summarize
