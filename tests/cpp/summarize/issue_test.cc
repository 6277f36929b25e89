// The customer's issue (decode_parts.h, issue_unit): a summary that opens on the agent's words first
// says what the customer came about, when the sentence budget has room.
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

decoding::ConstrainedSelection selection_of(std::vector<int> units) {
  decoding::ConstrainedSelection s;
  s.units = std::move(units);
  return s;
}

TEST(Issue, ASummaryOpeningOnTheAgentGainsTheCustomersIssue) {
  auto d = make_dialogue({{Speaker::customer, {"你好"}},
                          {Speaker::customer, {"我的快递三天了还没到，还在广州吗"}},
                          {Speaker::agent, {"预计明天会为您送达"}},
                          {Speaker::customer, {"物流信息一直没有更新"}},
                          {Speaker::agent, {"物流信息会在[数字]小时内更新"}}});
  Prepared p = prepare(d, lexicon());
  ASSERT_EQ(p.units.size(), 5u);
  const UnitScores s = testing::same_salience(p);
  const DecodeOptions four = options(4);
  const decoding::Context c(p, s, four);
  EXPECT_EQ(decoding::issue_unit(c, {2, 3, 4}), 1);
  auto opens_on_agent = selection_of({2, 3, 4});
  decoding::add_issue(c, opens_on_agent);
  EXPECT_EQ(opens_on_agent.units, (std::vector<int>{2, 3, 4, 1}));
  // A customer unit shown before the agent's: the issue is said already.
  EXPECT_EQ(decoding::issue_unit(c, {1, 2}), -1);
  EXPECT_EQ(decoding::issue_unit(c, {3, 4}), -1);
  // A full budget: the least salient unit that no other needs makes room (add_within_budget). The
  // agent's first reply is the least salient here.
  UnitScores ranked = s;
  ranked.salience = {0.1f, 0.5f, 0.2f, 0.6f, 0.7f};
  const DecodeOptions three = options(3);
  const decoding::Context full(p, ranked, three);
  auto at_cap = selection_of({2, 3, 4});
  decoding::add_issue(full, at_cap);
  EXPECT_EQ(at_cap.units, (std::vector<int>{3, 4, 1}));
  // A character budget the user set holds: the issue (16 code points) does not fit 30.
  DecodeOptions thirty = options(4);
  thirty.max_chars = 30;
  const decoding::Context budgeted(p, s, thirty);
  auto within_chars = selection_of({2, 3, 4});
  decoding::add_issue(budgeted, within_chars);
  EXPECT_EQ(within_chars.units, (std::vector<int>{2, 3, 4}));
}

TEST(Issue, ASummaryOpeningOnABareCustomerLineGainsTheIssue) {
  // te157 635 opened on 用户:低低[数字]。, a user name sent before the agent asked for it.
  auto d = make_dialogue({{Speaker::customer, {"小号登不上了"}},
                          {Speaker::agent, {"有什么问题我可以帮您处理或解决呢?"}},
                          {Speaker::customer, {"低低[数字]"}},
                          {Speaker::agent, {"说下之前的手机号和现在的手机号"}},
                          {Speaker::customer, {"之前的号早就不用了"}}});
  Prepared p = prepare(d, lexicon());
  ASSERT_EQ(p.units.size(), 5u);
  const UnitScores s = testing::same_salience(p);
  const decoding::Context c(p, s, options(4));
  EXPECT_EQ(decoding::issue_unit(c, {2, 3}), 0);
  // A customer line that says something (more than kBareOpeningLetters letters) before any agent line, or
  // the issue itself, shown.
  EXPECT_EQ(decoding::issue_unit(c, {2, 4}), -1);
  EXPECT_EQ(decoding::issue_unit(c, {0, 3}), -1);
}

TEST(Issue, AQuestionSentTwiceIsNoIssueBesideItsRepeat) {
  // 用户:询问怎么使用京东E卡。客服:首先绑定在账户。用户:询问怎么使用京东E卡。 (CSDS val 445, a model without
  // redundancy n-grams).
  auto d = make_dialogue({{Speaker::customer, {"你好，怎么使用京东E卡?"}},
                          {Speaker::agent, {"首先绑定在账户"}},
                          {Speaker::customer, {"怎么使用京东E卡?"}},
                          {Speaker::agent, {"提交订单前，商品只能是自营的商品"}}});
  Prepared p = prepare(d, lexicon());
  ASSERT_EQ(p.units.size(), 4u);
  const UnitScores s = testing::same_salience(p);
  const DecodeOptions four = options(4);
  const decoding::Context c(p, s, four);
  EXPECT_EQ(decoding::issue_unit(c, {1, 2, 3}), -1);
  EXPECT_EQ(decoding::issue_unit(c, {1, 3}), 0);
}

TEST(Issue, TheMostSalientCustomerUnitBeforeTheAgentIsTheIssue) {
  auto d = make_dialogue({{Speaker::customer, {"我买的蓝牙耳机有点问题"}},
                          {Speaker::customer, {"左边的耳机一直没有声音"}},
                          {Speaker::agent, {"可以点击返修退换货提交申请"}}});
  Prepared p = prepare(d, lexicon());
  ASSERT_EQ(p.units.size(), 3u);
  UnitScores s;
  s.salience = {0.4f, 0.9f, 0.5f};
  const DecodeOptions three = options(3);
  const decoding::Context c(p, s, three);
  EXPECT_EQ(decoding::issue_unit(c, {2}), 1);
}

// The issue unit of a dialogue of one customer unit and the agent's reply, the summary showing the reply.
int issue_before_reply(const char* customer) {
  auto d = make_dialogue({{Speaker::customer, {customer}}, {Speaker::agent, {"订单预计[数字]月[数字]日送达"}}});
  Prepared p = prepare(d, lexicon());
  const UnitScores s = testing::same_salience(p);
  const DecodeOptions three = options(3);
  const decoding::Context c(p, s, three);
  return decoding::issue_unit(c, {static_cast<int>(p.units.size()) - 1});
}

TEST(Issue, AMenuEntryAPlaceholderOrAContinuationIsNoIssue) {
  EXPECT_EQ(issue_before_reply("我想问下周末单位不上班能送吗"), 0);
  // A menu entry the customer clicked names a topic.
  EXPECT_EQ(issue_before_reply("账户与财务咨询"), -1);
  // Five Chinese letters outside the placeholder.
  EXPECT_EQ(issue_before_reply("咨询订单号[订单编号]"), -1);
  // Pasted text: an order form's labels, a system notice.
  EXPECT_EQ(issue_before_reply("订单编号[数字]，订单金额，下单时间"), -1);
  EXPECT_EQ(issue_before_reply("顾客通过点击网页链接发送了订单信息"), -1);
  // It goes on with something said before.
  EXPECT_EQ(issue_before_reply("但是周末我们单位不上班"), -1);
}

TEST(Issue, AnEnglishSummaryOpeningOnTheAgentGainsTheCustomersTweet) {
  auto d = make_dialogue({{Speaker::customer, {"@Tesco do you sell this in your aylesbury store?"}},
                          {Speaker::agent, {"@jane This product is not available in that store."}}});
  Prepared p = prepare(d, lexicon());
  ASSERT_EQ(p.units.size(), 2u);
  const UnitScores s = testing::same_salience(p);
  const DecodeOptions two = options(2);
  const decoding::Context c(p, s, two);
  EXPECT_EQ(decoding::issue_unit(c, {1}), 0);
}

TEST(Issue, EnglishCustomerLinesThatOnlyVentGainTheIssue) {
  // TweetSumm valid 3af258a3: "Customer: Disgraceful." and the agent's advice, without what the customer
  // wanted.
  auto d = make_dialogue({{Speaker::customer, {"I want to buy some things but they are not shipping to my address."}},
                          {Speaker::agent, {"I'm sorry the products are not available here. Which were they?"}},
                          {Speaker::customer, {"Disgraceful."}},
                          {Speaker::customer, {"My zip is 80593"}},
                          {Speaker::agent, {"Please keep checking our website for the availability of the same."}}});
  Prepared p = prepare(d, lexicon());
  ASSERT_EQ(p.units.size(), 5u);
  UnitScores s = testing::same_salience(p);
  s.salience[3] = 0.9f;  // four words say too little (kEnglishIssueMinWords), however salient
  const DecodeOptions three = options(3);
  const decoding::Context c(p, s, three);
  EXPECT_EQ(decoding::english_issue_unit(c, {2, 4}), 0);
  auto vents = selection_of({2, 4});
  decoding::add_english_issue(c, vents);
  EXPECT_EQ(vents.units, (std::vector<int>{2, 4, 0}));
  // A shown customer line that says something: nothing to add.
  EXPECT_EQ(decoding::english_issue_unit(c, {0, 2, 4}), -1);
  // At the cap nothing makes room.
  const DecodeOptions two = options(2);
  const decoding::Context full(p, s, two);
  auto at_cap = selection_of({2, 4});
  decoding::add_english_issue(full, at_cap);
  EXPECT_EQ(at_cap.units, (std::vector<int>{2, 4}));
}

}  // namespace
}  // namespace kessel::summarize
