// The dialogue's outcome (decode_parts.h, outcome_unit): what the agent last did or promised for the
// customer is shown when the sentence budget has room, so that a summary does not end on the question.
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

bool reports(std::u32string_view text) { return decoding::reports_an_action(text); }

TEST(Outcome, AnActionTakenOrPromisedIsAnOutcome) {
  EXPECT_TRUE(reports(U"已经帮您提交了售后申请"));
  EXPECT_TRUE(reports(U"小妹已为您催促站点"));
  EXPECT_TRUE(reports(U"专员会在[数字]小时给您回电"));
  EXPECT_TRUE(reports(U"这边会尽快为您处理的呢"));
  EXPECT_TRUE(reports(U"这边帮您反馈下吧"));
  EXPECT_TRUE(reports(U"咱们升级到专员处理"));
  // A change made or a document issued (CSDS val 727, 392).
  EXPECT_TRUE(reports(U"已经帮您改好了呢"));
  EXPECT_TRUE(reports(U"增值税发票已经开具了"));
  EXPECT_FALSE(reports(U"这个是改不了的呢"));
  // A change reported done with no marker (te157 761), not a promise, a condition nor a failure.
  EXPECT_TRUE(reports(U"亲，操作完成哦了直接用刚刚绑定的手机号码登录就可以了哦"));
  EXPECT_TRUE(reports(U"绑定成功啦，您可以登录查看账户了哦"));
  EXPECT_FALSE(reports(U"申请成功会有短信告知您的"));
  EXPECT_FALSE(reports(U"[数字]-[数字]个工作日修改完成"));
  EXPECT_FALSE(reports(U"操作完成后会有短信通知"));
  EXPECT_FALSE(reports(U"系统没有操作成功"));
}

TEST(Outcome, NothingDoneIsNoOutcome) {
  // A negation before the marker or between it and the verb: nothing was done.
  EXPECT_FALSE(reports(U"就没给您发货"));
  EXPECT_FALSE(reports(U"我暂时无法帮您处理"));
  EXPECT_FALSE(reports(U"也不能帮您联系"));
  EXPECT_FALSE(reports(U"已经不能取消了"));
  // The customer's step, reported back to them.
  EXPECT_FALSE(reports(U"我看您已经申请了"));
  EXPECT_FALSE(reports(U"您自己已经申请了么"));
  EXPECT_FALSE(reports(U"您这边已经提交了"));
  // Two clauses: the marker's clause ends before the verb.
  EXPECT_FALSE(reports(U"已经，申请"));
  // No action at all, or a specialist who is not taking the case.
  EXPECT_FALSE(reports(U"商品是正品"));
  EXPECT_FALSE(reports(U"我不是专员的哦"));
  EXPECT_FALSE(reports(U"专员不在线"));
}

TEST(Outcome, TheAgentsNoToWhatTheSummaryShowsIsShown) {
  // te157 650: the summary showed the customer's wish to return and not 您的商品已经出库超过[数字]天，无法退货了呢, so it
  // read as if the return went through.
  auto d = make_dialogue({{Speaker::customer, {"这个订单我要退货"}},
                          {Speaker::agent, {"还请您稍等，马上为您查询"}},
                          {Speaker::customer, {"厂家已经同意退货了"}},
                          {Speaker::agent, {"您的商品已经出库超过[数字]天，无法退货了呢"}},
                          {Speaker::customer, {"那能开个退货权限吗"}},
                          {Speaker::agent, {"这个权限是不能开的呢"}},
                          {Speaker::agent, {"请问还有其他可以帮您的吗?"}}});
  Prepared p = prepare(d, lexicon());
  ASSERT_EQ(p.units.size(), 7u);
  UnitScores s;
  s.salience = {1.0f, 0.1f, 0.9f, 0.2f, 0.3f, 0.2f, 0.0f};
  const DecodeOptions four = options(4);
  const decoding::Context c(p, s, four);
  EXPECT_TRUE(decoding::refuses(U"您的商品已经出库超过[数字]天，无法退货了呢"));
  EXPECT_FALSE(decoding::refuses(U"不行的话可以联系商家"));
  // The last no refuses 那能开个退货权限吗, which this summary does not show; the one before refuses what it shows.
  decoding::ConstrainedSelection selection;
  selection.units = {0, 2};
  EXPECT_EQ(decoding::refusal_unit(c, selection.units), 3);
  decoding::add_refusal(c, selection);
  EXPECT_EQ(selection.units, (std::vector<int>{0, 2, 3}));
  // With the later request shown, its no is the one; and once an agent's no is shown, none is added.
  EXPECT_EQ(decoding::refusal_unit(c, {0, 4}), 5);
  decoding::ConstrainedSelection refused;
  refused.units = {0, 2, 5};
  decoding::add_refusal(c, refused);
  EXPECT_EQ(refused.units, (std::vector<int>{0, 2, 5}));
}

TEST(Outcome, TheLastActionOfTheAgentIsShownWhenThereIsRoom) {
  auto d = make_dialogue({{Speaker::customer, {"我的电脑一直很卡，想申请售后"}},
                          {Speaker::agent, {"已经帮您提交了售后申请"}},
                          {Speaker::customer, {"大概多久能处理好"}},
                          {Speaker::agent, {"售后会在[数字]个工作日内审核处理"}},
                          {Speaker::agent, {"请问还有其他可以帮您的吗?"}}});
  Prepared p = prepare(d, lexicon());
  ASSERT_EQ(p.units.size(), 5u);
  UnitScores s;
  s.salience = {1.0f, 0.2f, 0.9f, 0.1f, 0.0f};
  const DecodeOptions three = options(3);
  const decoding::Context c(p, s, three);
  // The closing question asks; the last unit that reports an action is the agent's promise.
  EXPECT_EQ(decoding::outcome_unit(c), 3);
  decoding::ConstrainedSelection selection;
  selection.units = {0, 2};
  decoding::add_outcome(c, selection);
  EXPECT_EQ(selection.units, (std::vector<int>{0, 2, 3}));
  // Shown already: nothing added.
  decoding::add_outcome(c, selection);
  EXPECT_EQ(selection.units, (std::vector<int>{0, 2, 3}));
  // A full budget: no unit makes room for it.
  const DecodeOptions two = options(2);
  const decoding::Context full(p, s, two);
  decoding::ConstrainedSelection two_units;
  two_units.units = {0, 2};
  decoding::add_outcome(full, two_units);
  EXPECT_EQ(two_units.units, (std::vector<int>{0, 2}));
  // A length the user set holds (--max-chars, no budget of the scorer's): the outcome does not fit 20.
  DecodeOptions twenty = options(3);
  twenty.max_chars = 20;
  const decoding::Context short_budget(p, s, twenty);
  decoding::ConstrainedSelection budgeted;
  budgeted.units = {0, 2};
  decoding::add_outcome(short_budget, budgeted);
  EXPECT_EQ(budgeted.units, (std::vector<int>{0, 2}));
}

TEST(Outcome, AtAFullBudgetTheOutcomeTakesTheWeakestAgentLinesPlace) {
  // te157 708, unsupervised: a summary at its four sentences ended on 客服:不好意思，打错了 and left out 已经在
  // 审核中了，预计…到账. The agent's least salient statement gives way; the customer's lines, the reply shown
  // under a customer's question and an agent line that reports an action or refuses do not.
  auto d = make_dialogue({{Speaker::customer, {"自助申请价保不成功"}},
                          {Speaker::agent, {"您的这个订单没有付款呢"}},
                          {Speaker::customer, {"原订单不是告诉你了吗?"}},
                          {Speaker::agent, {"不好意思，打错了"}},
                          {Speaker::customer, {"申请到哪儿了"}},
                          {Speaker::agent, {"已经在审核中了，预计[数字]个工作日到账"}}});
  Prepared p = prepare(d, lexicon());
  ASSERT_EQ(p.units.size(), 6u);
  UnitScores s;
  s.salience = {1.0f, 0.3f, 0.9f, 0.5f, 0.8f, 0.1f};
  const DecodeOptions four = options(4);
  const decoding::Context c(p, s, four);
  ASSERT_EQ(decoding::outcome_unit(c), 5);
  // 不好意思，打错了 is the reply shown under the customer's question; 您的这个订单没有付款呢 is the weakest other.
  decoding::ConstrainedSelection full;
  full.units = {0, 1, 2, 3};
  decoding::add_outcome(c, full);
  EXPECT_EQ(full.units, (std::vector<int>{0, 2, 3, 5}));
  // With only customer lines and that reply shown, nothing gives way and the outcome stays out.
  decoding::ConstrainedSelection protected_units;
  protected_units.units = {0, 2, 3, 4};
  decoding::add_outcome(c, protected_units);
  EXPECT_EQ(protected_units.units, (std::vector<int>{0, 2, 3, 4}));
}

TEST(Outcome, AnOutcomeThatAShownStatementAlreadyTellsIsNotAdded) {
  // CSDS val 774 and 56, unsupervised: 款项会安排原路退支付白条 after 这个退款会原路退支付白条 and 这个给您升级
  // after 转接不成功，只能升级处理的亲 said again what was shown.
  const auto added = [](const std::string& shown_line, const std::string& outcome_line) {
    auto d = make_dialogue({{Speaker::customer, {"我要退货退款"}},
                            {Speaker::agent, {shown_line}},
                            {Speaker::agent, {outcome_line}}});
    Prepared p = prepare(d, lexicon());
    UnitScores s = testing::same_salience(p);
    const DecodeOptions five = options(5);
    const decoding::Context c(p, s, five);
    EXPECT_EQ(decoding::outcome_unit(c), 2) << outcome_line;
    decoding::ConstrainedSelection selection;
    selection.units = {0, 1};
    decoding::add_outcome(c, selection);
    return selection.units.size() == 3;
  };
  EXPECT_FALSE(added("这个退款会原路退支付白条", "款项会安排原路退支付白条"));
  EXPECT_FALSE(added("专员会在[数字]小时给您回电", "这边专员会在[数字]小时给您回电，不好意思"));
  // What the shown line only advises, the outcome tells was done; a result (成功) or a deed done (已) is news.
  EXPECT_TRUE(added("可以取消订单的", "给您取消订单"));
  EXPECT_TRUE(added("为您申请价保", "已经为您申请价保成功了"));
  EXPECT_TRUE(added("帮您联系站点核实，站点核实后会电话联系您", "已帮您向站点核实明日回电您"));
}

TEST(Outcome, AnOutcomeThatSaysNoToAnUnshownQuestionStaysOut) {
  // CSDS te157 700: 客服:不需要，专员…联系 ended a summary whose customer had asked 还需要别的吗, which it did not
  // show: it read as a refusal of the request shown before it.
  auto d = make_dialogue({{Speaker::customer, {"你好，如何申请开通京东货到付款"}},
                          {Speaker::agent, {"请提供一下商家ID和联系人"}},
                          {Speaker::customer, {"联系人:[姓名]联系电话:[电话]"}},
                          {Speaker::customer, {"还需要别的吗"}},
                          {Speaker::agent, {"不需要了呢，专员[数字]个工作日内跟您联系的"}}});
  Prepared p = prepare(d, lexicon());
  ASSERT_EQ(p.units.size(), 5u);
  const UnitScores s = testing::same_salience(p);
  const DecodeOptions four = options(4);
  const decoding::Context c(p, s, four);
  ASSERT_EQ(decoding::outcome_unit(c), 4);
  ASSERT_EQ(c.answers[4], 3);
  decoding::ConstrainedSelection without_question;
  without_question.units = {0, 2};
  decoding::add_outcome(c, without_question);
  EXPECT_EQ(without_question.units, (std::vector<int>{0, 2}));
  // With its question shown it is the outcome.
  decoding::ConstrainedSelection with_question;
  with_question.units = {0, 3};
  decoding::add_outcome(c, with_question);
  EXPECT_EQ(with_question.units, (std::vector<int>{0, 3, 4}));
}

TEST(Outcome, APolicyOrAHoldIsNoOutcome) {
  auto d = make_dialogue({{Speaker::customer, {"东西坏了能退吗"}},
                          {Speaker::agent, {"如果商品有质量问题会为您退款的"}},
                          {Speaker::agent, {"稍等，这边帮您核实一下"}},
                          {Speaker::agent, {"感谢您的耐心等待，会尽快为您处理"}}});
  Prepared p = prepare(d, lexicon());
  UnitScores s = testing::same_salience(p);
  const DecodeOptions three = options(3);
  const decoding::Context c(p, s, three);
  EXPECT_EQ(decoding::outcome_unit(c), -1);
}

TEST(Outcome, APurposeClauseOrWhatIsShownAlreadyIsNoOutcome) {
  // 以便更快帮处理退款 is the purpose of a longer sentence, not what was done.
  auto purpose = make_dialogue({{Speaker::customer, {"我要退款"}},
                                {Speaker::agent, {"请提供订单号，"}},
                                {Speaker::agent, {"以便更快帮您处理退款"}}});
  Prepared p = prepare(purpose, lexicon());
  UnitScores s = testing::same_salience(p);
  const DecodeOptions three = options(3);
  EXPECT_EQ(decoding::outcome_unit(decoding::Context(p, s, three)), -1);
  auto done = make_dialogue({{Speaker::customer, {"我要退款"}},
                             {Speaker::agent, {"请提供订单号，"}},
                             {Speaker::agent, {"已经帮您处理退款"}}});
  Prepared q = prepare(done, lexicon());
  EXPECT_EQ(decoding::outcome_unit(decoding::Context(q, s, three)), 2);
  // A shown agent unit that tells it: nothing added. One that lacks what was filed, or that it was
  // done: the outcome is added.
  auto told = [](const std::string& shown_line) {
    auto d = make_dialogue({{Speaker::customer, {"东西一直没到"}},
                            {Speaker::agent, {shown_line}},
                            {Speaker::agent, {"已经帮您申请交易纠纷了"}}});
    Prepared p = prepare(d, lexicon());
    UnitScores s = testing::same_salience(p);
    const DecodeOptions five = options(5);
    const decoding::Context c(p, s, five);
    EXPECT_EQ(decoding::outcome_unit(c), 2);
    decoding::ConstrainedSelection selection;
    selection.units = {0, 1};
    decoding::add_outcome(c, selection);
    return selection.units.size() == 3;
  };
  EXPECT_FALSE(told("这边已经申请交易纠纷"));
  EXPECT_TRUE(told("这边已经申请好了"));
  EXPECT_TRUE(told("我来申请交易纠纷"));
  // A suggestion reports nothing done: the agent's own step is news.
  EXPECT_TRUE(told("建议申请交易纠纷可以吗"));
}

TEST(Outcome, EnglishHasNone) {
  // TweetSumm's three-tweet summaries have no room to give (add_direct_answers); the rule is Chinese.
  auto d = make_dialogue({{Speaker::customer, {"My order never arrived."}},
                          {Speaker::agent, {"I have escalated this to our delivery team."}}});
  Prepared p = prepare(d, lexicon());
  UnitScores s = testing::same_salience(p);
  const DecodeOptions three = options(3);
  const decoding::Context c(p, s, three);
  EXPECT_EQ(decoding::outcome_unit(c), -1);
}

TEST(Outcome, AnEnglishCustomerSayingItWorksIsTheResolution) {
  EXPECT_TRUE(decoding::reports_resolution("Power reset it. Working now."));
  EXPECT_TRUE(decoding::reports_resolution("Problem solved. Thank you!"));
  EXPECT_TRUE(decoding::reports_resolution("It worked, thanks!"));
  EXPECT_TRUE(decoding::reports_resolution("Changed it and it works now"));
  EXPECT_TRUE(decoding::reports_resolution("Thank you! That seems to have done the trick."));
  // TweetSumm valid 64210bab ended without "That did it, thanks"; 90b0d02d without "the problem is okay now".
  EXPECT_TRUE(decoding::reports_resolution("That did it, thanks"));
  EXPECT_TRUE(decoding::reports_resolution("the problem is okay now my dad helped me"));
  EXPECT_TRUE(decoding::reports_resolution("nvm I fixed it. thank you"));
  EXPECT_TRUE(decoding::reports_resolution("Two factor authentication issue. All set now. Thanks."));
  EXPECT_FALSE(decoding::reports_resolution("ok now what?"));  // a discourse "ok now" is no state
  EXPECT_FALSE(decoding::reports_resolution("You still haven't fixed it"));
  // Denied, taken back, or a past that no longer holds.
  EXPECT_FALSE(decoding::reports_resolution("It's still not working now"));
  EXPECT_FALSE(decoding::reports_resolution("All good now, but the bill is wrong"));
  EXPECT_FALSE(decoding::reports_resolution("It worked perfectly before and now it's a mess"));
  EXPECT_FALSE(decoding::reports_resolution("It worked for a little bit and now it's down again"));
  EXPECT_FALSE(decoding::reports_resolution("my fireworks now"));  // not a whole word

  // TweetSumm valid bb8743de: the agent's step ended the summary, and "Working now." was left out.
  auto d = make_dialogue({{Speaker::customer, {"The game is frozen on one channel."}},
                          {Speaker::agent, {"Please reseat the coax and unplug the power cord."}},
                          {Speaker::customer, {"Power reset it. Working now.", "Thanks."}},
                          {Speaker::agent, {"Great to hear!"}}});
  Prepared p = prepare(d, lexicon());
  UnitScores s = testing::same_salience(p);
  const DecodeOptions three = options(3);
  const decoding::Context c(p, s, three);
  EXPECT_EQ(decoding::resolution_unit(c), 2);
  decoding::ConstrainedSelection selection;
  selection.units = {0, 1};
  decoding::add_resolution(c, selection);
  EXPECT_EQ(selection.units, (std::vector<int>{0, 1, 2}));
  // No room below the cap: it stays out.
  const DecodeOptions two = options(2);
  const decoding::Context full(p, s, two);
  selection.units = {0, 1};
  decoding::add_resolution(full, selection);
  EXPECT_EQ(selection.units, (std::vector<int>{0, 1}));
  // A later message of the customer's takes it back (TweetSumm train: "Issue resolved yesterday", then
  // the network down again); a question is none.
  auto back = make_dialogue({{Speaker::customer, {"The network is down."}},
                             {Speaker::agent, {"Please restart the router."}},
                             {Speaker::customer, {"Issue resolved yesterday."}},
                             {Speaker::customer, {"Today the network is down again."}}});
  Prepared pb = prepare(back, lexicon());
  const decoding::Context cb(pb, testing::same_salience(pb), three);
  EXPECT_EQ(decoding::resolution_unit(cb), -1);
  auto asked = make_dialogue({{Speaker::customer, {"The network is down."}},
                              {Speaker::agent, {"Please restart the router."}},
                              {Speaker::customer, {"Is it working now?"}}});
  Prepared pa = prepare(asked, lexicon());
  const decoding::Context ca(pa, testing::same_salience(pa), three);
  EXPECT_EQ(decoding::resolution_unit(ca), -1);
  // A denial with a curly apostrophe takes it back as a straight one does.
  auto curly = make_dialogue({{Speaker::customer, {"The network is down."}},
                              {Speaker::agent, {"Please restart the router."}},
                              {Speaker::customer, {"Issue resolved yesterday."}},
                              {Speaker::customer, {"Today it doesn’t connect at all."}}});
  Prepared pc = prepare(curly, lexicon());
  const decoding::Context cc(pc, testing::same_salience(pc), three);
  EXPECT_EQ(decoding::resolution_unit(cc), -1);
}

TEST(Outcome, AnEnglishCustomersLastWordThatItDidNotWorkEndsTheSummary) {
  // TweetSumm valid 9ea6c23a ended on the agent's Delay Repay offer; the customer's last word, that the
  // delay was too short to claim, was left out.
  auto d = make_dialogue({{Speaker::customer, {"The platform is jammed and the train is heavily delayed."}},
                          {Speaker::agent, {"Delay Repay is available to those delayed by over 30 minutes."}},
                          {Speaker::customer, {"Can’t claim delay repay as the train was only 25 minutes late."}}});
  Prepared p = prepare(d, lexicon());
  ASSERT_EQ(p.units.size(), 3u);
  const UnitScores s = testing::same_salience(p);
  const DecodeOptions three = options(3);
  const decoding::Context c(p, s, three);
  EXPECT_EQ(decoding::unresolved_unit(c, {0, 1}), 2);
  EXPECT_EQ(decoding::unresolved_unit(c, {0}), -1);  // no agent unit shown before it: nothing it answers
  decoding::ConstrainedSelection selection;
  selection.units = {0, 1};
  decoding::add_unresolved(c, selection);
  EXPECT_EQ(selection.units, (std::vector<int>{0, 1, 2}));
  // The agent spoke last, or the customer's last word says it worked or asks: none.
  auto agent_last = make_dialogue({{Speaker::customer, {"The platform is jammed and the train is heavily delayed."}},
                                   {Speaker::agent, {"Delay Repay is available to those delayed by over 30 minutes."}},
                                   {Speaker::customer, {"I can't claim it, the train was only 25 minutes late."}},
                                   {Speaker::agent, {"We have passed your feedback on to the station team."}}});
  Prepared pa = prepare(agent_last, lexicon());
  const decoding::Context ca(pa, testing::same_salience(pa), three);
  EXPECT_EQ(decoding::unresolved_unit(ca, {0, 1}), -1);
  auto asks = make_dialogue({{Speaker::customer, {"The platform is jammed and the train is heavily delayed."}},
                             {Speaker::agent, {"Delay Repay is available to those delayed by over 30 minutes."}},
                             {Speaker::customer, {"Why can't I claim it for 25 minutes?"}}});
  Prepared pq = prepare(asks, lexicon());
  const decoding::Context cq(pq, testing::same_salience(pq), three);
  EXPECT_EQ(decoding::unresolved_unit(cq, {0, 1}), -1);
  // A long last word is left out, unless it answers the agent's question shown last (TweetSumm valid
  // bac42a2e: "The agent asks: Is the screen still functional?").
  const char* long_no = "Yeah it's just going to stay broken because device protection will cost 175 dollars that I don't have";
  auto answered = make_dialogue({{Speaker::customer, {"My phone screen is cracked and I'm not paying to fix it."}},
                                 {Speaker::agent, {"A claim through Device Protection is the cheapest option.", "Is the screen still functional?"}},
                                 {Speaker::customer, {long_no}}});
  Prepared pl = prepare(answered, lexicon());
  ASSERT_EQ(pl.units.size(), 4u);
  const decoding::Context cl(pl, testing::same_salience(pl), three);
  EXPECT_EQ(decoding::unresolved_unit(cl, {0, 2}), 3);
  EXPECT_EQ(decoding::unresolved_unit(cl, {0, 1}), -1);  // the question is not shown: too long a last word
}

}  // namespace
}  // namespace kessel::summarize
