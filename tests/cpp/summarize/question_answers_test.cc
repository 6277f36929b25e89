// What a shown question brings with it so that a reader can follow it (decode_direct_answers.cc,
// decode_open_answers.cc): the agent's direct answer to a yes/no question, its refusal of a request, its
// reply to an open question or a doubted fact, the customer's reply to an agent's question, and the question
// an answer shown under another one answers. What a bare answer needs beside it is answer_context_test.cc's.
#include <gtest/gtest.h>

#include <algorithm>

#include "kessel/summarize/summary.h"
#include "summarize/decode_parts.h"
#include "test_dialogues.h"

namespace kessel::summarize {
namespace {

using text::Speaker;
using testing::make_dialogue;
const text::Lexicon& lexicon() { return testing::default_lexicon(); }

DecodeOptions options(int max_sentences) { return testing::sentence_budget(max_sentences); }

TEST(QuestionAnswers, ASelectedAgentQuestionBringsTheCustomersReply) {
  // 客服:是申请的维修吗。 followed by the agent's next sentence left the question unanswered; the
  // customer's reply comes with it. An order number is no reply to a yes/no question.
  auto d = make_dialogue({{Speaker::customer, {"运费谁出?"}},
                          {Speaker::agent, {"是申请的维修吗"}},
                          {Speaker::customer, {"还没有申请"}},
                          {Speaker::agent, {"如果是商品质量问题是不需要承担运费的"}}});
  Prepared p = prepare(d, lexicon());
  ASSERT_EQ(p.units.size(), 4u);
  UnitScores s;
  s.salience = {1.0f, 0.8f, 0.1f, 0.9f};
  const DecodeOptions three = options(3), four = options(4);  // the Context keeps a reference
  const decoding::Context c(p, s, three);
  EXPECT_EQ(decoding::customer_reply(c, 1, {0, 1, 3}), 2);
  EXPECT_EQ(decoding::customer_reply(c, 1, {0, 1, 2, 3}), -1);  // shown already
  EXPECT_EQ(decoding::customer_reply(c, 3, {0, 1, 3}), -1);     // no question
  const decoding::Context room(p, s, four);
  decoding::ConstrainedSelection selection;
  selection.units = {0, 1, 3};
  decoding::add_direct_answers(room, selection);
  EXPECT_EQ(selection.units, (std::vector<int>{0, 1, 3, 2}));
  // With the budget full the least salient unit but the question makes room: 3 (0.9) goes, the
  // customer's 运费谁出? (1.0) stays.
  selection.units = {0, 1, 3};
  decoding::add_direct_answers(c, selection);
  EXPECT_EQ(selection.units, (std::vector<int>{0, 1, 2}));

  auto order = make_dialogue({{Speaker::customer, {"我要退货"}},
                              {Speaker::agent, {"买的是抽纸吗"}},
                              {Speaker::customer, {"[订单编号]"}},
                              {Speaker::agent, {"可以申请售后"}}});
  Prepared po = prepare(order, lexicon());
  ASSERT_EQ(po.units.size(), 4u);
  const decoding::Context co(po, s, three);
  EXPECT_EQ(decoding::customer_reply(co, 1, {0, 1, 3}), -1);
}

TEST(QuestionAnswers, ATurnsQuestionsAreOneAsking) {
  // te157 727: 您的发票抬头是从化安城山庄吗? / 税号是[数字]W吗? / 用户:不是 — the no answers both; shown under
  // the first alone, the agent's question read as confirmed.
  auto d = make_dialogue({{Speaker::customer, {"我要换开增值税普通发票"}},
                          {Speaker::agent, {"您的发票抬头是从化安城山庄吗?", "税号是[数字]W吗?"}},
                          {Speaker::customer, {"不是"}},
                          {Speaker::agent, {"您再确认一下"}}});
  Prepared p = prepare(d, lexicon());
  ASSERT_EQ(p.units.size(), 5u);
  const UnitScores s = testing::same_salience(p);
  const DecodeOptions four = options(4);
  const decoding::Context c(p, s, four);
  EXPECT_EQ(decoding::customer_reply(c, 1, {0, 1}), 3);
  EXPECT_EQ(decoding::customer_reply(c, 2, {0, 2}), 3);
  // A question the agent asks in a later turn is asked again: what follows answers that one.
  auto again = make_dialogue({{Speaker::agent, {"您的发票抬头是从化安城山庄吗?"}},
                              {Speaker::agent, {"税号是[数字]W吗?"}},
                              {Speaker::customer, {"不是"}}});
  Prepared pa = prepare(again, lexicon());
  const UnitScores sa = testing::same_salience(pa);
  const decoding::Context ca(pa, sa, four);
  EXPECT_EQ(decoding::customer_reply(ca, 0, {0}), -1);
}

TEST(QuestionAnswers, ACustomersBareNoComesWithTheStatementItDenies) {
  // te157 691: 客服:您的订单预计…送达您手中 shown without the customer's 不是 read as if the missing order
  // were on its way.
  EXPECT_TRUE(decoding::is_bare_denial(U"不是"));
  EXPECT_TRUE(decoding::is_bare_denial(U"不是的哦"));
  EXPECT_TRUE(decoding::is_bare_denial(U"没有。"));
  EXPECT_FALSE(decoding::is_bare_denial(U"不是我的责任"));
  EXPECT_FALSE(decoding::is_bare_denial(U"是的"));
  auto d = make_dialogue({{Speaker::customer, {"我下了一个订单后来怎么看不到订单"}},
                          {Speaker::agent, {"您的订单预计明天送达您手中"}},
                          {Speaker::customer, {"不是"}},
                          {Speaker::customer, {"我下的是另一个单，当时付过钱了"}}});
  Prepared p = prepare(d, lexicon());
  ASSERT_EQ(p.units.size(), 4u);
  const UnitScores s = testing::same_salience(p);
  const DecodeOptions four = options(4);
  const decoding::Context c(p, s, four);
  EXPECT_EQ(c.answers[2], 1);
  EXPECT_EQ(decoding::customer_denial(c, 1, {0, 1}), 2);
  EXPECT_EQ(decoding::customer_denial(c, 1, {0, 1, 2}), -1);  // shown already
  decoding::ConstrainedSelection selection;
  selection.units = {0, 1, 3};
  decoding::add_direct_answers(c, selection);
  EXPECT_EQ(selection.units, (std::vector<int>{0, 1, 3, 2}));
  // With a question earlier in the agent's run, the no answers it (te157 691: not this order), and the
  // statement shown brings both.
  auto asked = make_dialogue({{Speaker::customer, {"我下了一个订单后来怎么看不到订单"}},
                              {Speaker::agent, {"[订单编号]此单是吗", "您的订单预计明天送达您手中"}},
                              {Speaker::customer, {"不是"}},
                              {Speaker::customer, {"我下的是另一个单，当时付过钱了"}}});
  Prepared pq = prepare(asked, lexicon());
  ASSERT_EQ(pq.units.size(), 5u);
  const UnitScores sq = testing::same_salience(pq);
  const decoding::Context cq(pq, sq, four);
  EXPECT_EQ(cq.answers[3], 1);
  EXPECT_EQ(decoding::customer_denial(cq, 2, {0, 2}), 3);
  decoding::ConstrainedSelection both;
  both.units = {0, 2};
  decoding::add_direct_answers(cq, both);
  EXPECT_EQ(both.units, (std::vector<int>{0, 2, 1, 3}));
  // A yes confirms: the statement reads true without it, and nothing is added.
  auto yes = make_dialogue({{Speaker::customer, {"我下了一个订单后来怎么看不到订单"}},
                            {Speaker::agent, {"您的订单预计明天送达您手中"}},
                            {Speaker::customer, {"是的"}}});
  Prepared py = prepare(yes, lexicon());
  const UnitScores sy = testing::same_salience(py);
  const decoding::Context cy(py, sy, four);
  EXPECT_EQ(decoding::customer_denial(cy, 1, {0, 1}), -1);
}

TEST(QuestionAnswers, TheAgentsReplyToAShownQuestionDoesNotMakeRoom) {
  // te157 727 made room for the customer's 不是 by dropping the agent's reply to the question the summary
  // ended on; the least salient unit that no question needs goes instead.
  auto d = make_dialogue({{Speaker::customer, {"我要换开增值税普通发票"}},
                          {Speaker::agent, {"您的发票抬头是从化安城山庄吗?"}},
                          {Speaker::customer, {"不是"}},
                          {Speaker::agent, {"已经帮您改好了呢"}},
                          {Speaker::customer, {"大概什么时间能开好?"}},
                          {Speaker::agent, {"[数字]小时内会有提醒的呢"}}});
  Prepared p = prepare(d, lexicon());
  ASSERT_EQ(p.units.size(), 6u);
  UnitScores s;
  s.salience = {1.0f, 0.8f, 0.1f, 0.6f, 0.9f, 0.5f};
  const DecodeOptions five = options(5);
  const decoding::Context c(p, s, five);
  decoding::ConstrainedSelection selection;
  selection.units = {0, 1, 3, 4, 5};
  decoding::add_direct_answers(c, selection);
  EXPECT_EQ(selection.units, (std::vector<int>{0, 1, 4, 5, 2}));
}

TEST(QuestionAnswers, AnAnswerShownUnderAnotherQuestionBringsTheOneItAnswered) {
  // 用户:询问能送到门口吗。客服:…可以申请价格保护 read as an answer to 能送到门口吗; the agent had
  // answered that, and the customer asked something else before this reply.
  auto d = make_dialogue({{Speaker::customer, {"能送到门口吗"}},
                          {Speaker::agent, {"您看一下您选购的商品是否包邮"}},
                          {Speaker::customer, {"是到[数字]那天活动更大吗"}},
                          {Speaker::agent, {"现在降价的话自营商品可以申请价格保护"}}});
  Prepared p = prepare(d, lexicon());
  ASSERT_EQ(p.units.size(), 4u);
  UnitScores s;
  s.salience = {1.0f, 0.5f, 0.2f, 0.9f};
  const DecodeOptions four = options(4), two = options(2);
  const decoding::Context c(p, s, four);
  decoding::ConstrainedSelection selection;
  selection.units = {0, 3};
  decoding::add_direct_answers(c, selection);
  EXPECT_EQ(selection.units, (std::vector<int>{0, 3, 2}));
  // With the agent's first reply shown too, 3 still reads as more of the answer to 0.
  selection.units = {0, 1, 3};
  decoding::add_direct_answers(c, selection);
  EXPECT_EQ(selection.units, (std::vector<int>{0, 1, 3, 2}));
  // The same question asked again, or no reply between, adds nothing.
  auto again = make_dialogue({{Speaker::customer, {"能送到门口吗"}},
                              {Speaker::agent, {"您看一下您选购的商品是否包邮"}},
                              {Speaker::customer, {"能送到门口吗"}},
                              {Speaker::agent, {"现在降价的话自营商品可以申请价格保护"}}});
  Prepared pa = prepare(again, lexicon());
  const decoding::Context ca(pa, s, four);
  selection.units = {0, 3};
  decoding::add_direct_answers(ca, selection);
  EXPECT_EQ(selection.units, (std::vector<int>{0, 3}));
  // A full budget makes room with the least salient unit that is neither a customer question nor the
  // answer: here there is none, and the selection stays as it was.
  const decoding::Context full(p, s, two);
  selection.units = {0, 3};
  decoding::add_direct_answers(full, selection);
  EXPECT_EQ(selection.units, (std::vector<int>{0, 3}));
  const DecodeOptions three = options(3);
  const decoding::Context room(p, s, three);
  selection.units = {0, 1, 3};
  decoding::add_direct_answers(room, selection);
  EXPECT_EQ(selection.units, (std::vector<int>{0, 3, 2}));  // 1 (0.5) made room
  // The question brought also brings its own direct answer when that came before the answer shown.
  auto first = make_dialogue({{Speaker::customer, {"能送到门口吗"}},
                              {Speaker::agent, {"您看一下您选购的商品是否包邮"}},
                              {Speaker::customer, {"明天会不会还到不了"}},
                              {Speaker::agent, {"不会的", "这是准确到货时间哦"}}});
  Prepared pf = prepare(first, lexicon());
  ASSERT_EQ(pf.units.size(), 5u);
  UnitScores sf;
  sf.salience = {1.0f, 0.5f, 0.2f, 0.1f, 0.9f};
  const DecodeOptions five = options(5);
  const decoding::Context cf(pf, sf, five);
  selection.units = {0, 4};
  decoding::add_direct_answers(cf, selection);
  EXPECT_EQ(selection.units, (std::vector<int>{0, 4, 2, 3}));
  // With no customer unit shown before it, the answer brings the question it answers; a statement the
  // customer made after the question is what it replies to, and brings nothing.
  selection.units = {3};
  decoding::add_direct_answers(c, selection);
  EXPECT_EQ(selection.units, (std::vector<int>{3, 2}));
  auto stated = make_dialogue({{Speaker::customer, {"能送到门口吗"}},
                               {Speaker::agent, {"您看一下您选购的商品是否包邮"}},
                               {Speaker::customer, {"是到[数字]那天活动更大吗", "我计算的和白条不太一致"}},
                               {Speaker::agent, {"实际已支付金额[金额]"}}});
  Prepared pst = prepare(stated, lexicon());
  ASSERT_EQ(pst.units.size(), 5u);
  UnitScores s5;
  s5.salience = {1.0f, 0.5f, 0.2f, 0.2f, 0.9f};
  const decoding::Context cst(pst, s5, four);
  selection.units = {0, 4};
  decoding::add_direct_answers(cst, selection);
  EXPECT_EQ(selection.units, (std::vector<int>{0, 4}));
}

TEST(QuestionAnswers, AnAnswerUnderTheCustomersStatementBringsTheQuestionAskedJustBeforeIt) {
  // CSDS val 654: 用户:没有在京东上买过。客服:自营的找京东售后 answered 出问题了售后找谁, the message before
  // the statement, with no agent reply between them.
  auto d = make_dialogue({{Speaker::customer, {"你好我想买个刮胡刀配个礼品卡"}},
                          {Speaker::agent, {"这个是以商品详情页面的信息为准"}},
                          {Speaker::customer, {"出问题了售后找谁"}},
                          {Speaker::customer, {"我没有在京东上买过"}},
                          {Speaker::agent, {"自营的找京东售后，这个页面有售后保障说明"}}});
  Prepared p = prepare(d, lexicon());
  ASSERT_EQ(p.units.size(), 5u);
  UnitScores s;
  s.salience = {1.0f, 0.5f, 0.2f, 0.6f, 0.9f};
  const DecodeOptions five = options(5);  // the context keeps a reference: a named object
  const decoding::Context c(p, s, five);
  decoding::ConstrainedSelection selection;
  selection.units = {0, 3, 4};
  decoding::add_direct_answers(c, selection);
  EXPECT_EQ(selection.units, (std::vector<int>{0, 3, 4, 2}));
  // A message that goes on from an earlier one (还是…) is a fragment alone, and is not brought.
  auto on = make_dialogue({{Speaker::customer, {"你好我想买个刮胡刀配个礼品卡"}},
                           {Speaker::agent, {"这个是以商品详情页面的信息为准"}},
                           {Speaker::customer, {"还是先申请售后吗"}},
                           {Speaker::customer, {"我没有在京东上买过"}},
                           {Speaker::agent, {"自营的找京东售后，这个页面有售后保障说明"}}});
  Prepared po = prepare(on, lexicon());
  const decoding::Context co(po, s, five);
  selection.units = {0, 3, 4};
  decoding::add_direct_answers(co, selection);
  EXPECT_EQ(selection.units, (std::vector<int>{0, 3, 4}));
}

TEST(QuestionAnswers, ACustomersRequestBringsTheAgentsRefusal) {
  // 用户:想更改地址。 without 自提无法修改的 reads as if the address were changed.
  auto d = make_dialogue({{Speaker::customer, {"我想更改地址"}},
                          {Speaker::agent, {"亲爱的自提无法修改的抱歉了", "如果不方便取货可以给您取消订单"}},
                          {Speaker::customer, {"好的那取消吧"}}});
  Prepared p = prepare(d, lexicon());
  ASSERT_EQ(p.units.size(), 4u);
  UnitScores s;
  s.salience = {1.0f, 0.2f, 0.9f, 0.5f};
  const DecodeOptions four = options(4);
  const decoding::Context c(p, s, four);
  EXPECT_EQ(decoding::refusal_of(c, 0), 1);
  EXPECT_EQ(decoding::refusal_of(c, 3), -1);  // no agent reply after it
  decoding::ConstrainedSelection selection;
  selection.units = {0, 2};
  decoding::add_direct_answers(c, selection);
  EXPECT_EQ(selection.units, (std::vector<int>{0, 2, 1}));
  // A supposition is no refusal (不行的话…), and a refusal after the customer said more refuses that.
  auto suppose = make_dialogue({{Speaker::customer, {"我想更改地址"}},
                                {Speaker::agent, {"不行的话您可以取消订单"}},
                                {Speaker::customer, {"那我的优惠券呢"}},
                                {Speaker::agent, {"优惠券无法返还"}}});
  Prepared ps = prepare(suppose, lexicon());
  ASSERT_EQ(ps.units.size(), 4u);
  const decoding::Context cs(ps, s, four);
  EXPECT_EQ(decoding::refusal_of(cs, 0), -1);
  EXPECT_EQ(decoding::refusal_of(cs, 2), 3);
  // A no past an apology refuses too (能否帮忙打个折 / 非常抱歉了亲没有的哦).
  auto no = make_dialogue({{Speaker::customer, {"购买分数较多，能否帮忙打个折"}},
                           {Speaker::agent, {"非常抱歉了亲没有的哦"}},
                           {Speaker::customer, {"好吧"}}});
  Prepared pn = prepare(no, lexicon());
  const decoding::Context cn(pn, s, four);
  EXPECT_EQ(decoding::refusal_of(cn, 0), 1);
  // So does a verb that cannot be done (明天送不了哦), not 不了解.
  auto cannot = make_dialogue({{Speaker::customer, {"可以安排明天送货吗"}},
                               {Speaker::agent, {"亲，明天送不了哦"}},
                               {Speaker::customer, {"我不太了解这个流程"}},
                               {Speaker::agent, {"您是不了解这个流程吗"}}});
  Prepared pc = prepare(cannot, lexicon());
  const decoding::Context cc(pc, s, four);
  EXPECT_EQ(decoding::refusal_of(cc, 0), 1);
  auto understand = make_dialogue({{Speaker::customer, {"这个流程怎么走"}},
                                   {Speaker::agent, {"这边也不了解具体流程"}}});
  Prepared pu = prepare(understand, lexicon());
  const decoding::Context cu(pu, s, four);
  EXPECT_EQ(decoding::refusal_of(cu, 0), -1);
}

TEST(QuestionAnswers, AQuestionOfWhenBringsTheReplyThatTellsWhen) {
  // 这边看到已经认款成功了 shown after 什么时候发货呢 does not say when; 订单已经进入出库环节了呢 does (CSDS val 722).
  // Where no reply tells when, the first reply is the answer (啥时候有货 / 所在区域暂时无货).
  auto d = make_dialogue({{Speaker::customer, {"好的，什么时候发货呢?"}},
                          {Speaker::agent, {"这边看到已经认款成功了"}},
                          {Speaker::agent, {"订单已经进入出库环节了呢"}}});
  Prepared p = prepare(d, lexicon());
  ASSERT_EQ(p.units.size(), 3u);
  const UnitScores s = testing::same_salience(p);
  const DecodeOptions three = options(3);
  const decoding::Context c(p, s, three);
  EXPECT_EQ(decoding::open_answer(c, 0, {0}), 2);
  EXPECT_EQ(decoding::open_answer(c, 0, {0, 2}), -1);  // told in the summary already
  auto none = make_dialogue({{Speaker::customer, {"这个啥时候有货呢?"}},
                             {Speaker::agent, {"非常抱歉，您看中的商品所在区域暂时无货"}},
                             {Speaker::agent, {"建议您关注一下商品页面的信息"}}});
  Prepared pn = prepare(none, lexicon());
  const decoding::Context cn(pn, testing::same_salience(pn), three);
  EXPECT_EQ(decoding::open_answer(cn, 0, {0}), 1);
}

TEST(QuestionAnswers, ADoubtedFactBringsTheAgentsCorrection) {
  // 不是三十天吗 has no question word and its answer no yes or no (te157 749): the reply corrects it.
  auto d = make_dialogue({{Speaker::customer, {"月初买的，现在降价了，有没有保价服务?"}},
                          {Speaker::agent, {"价保周期是[数字]天哦"}},
                          {Speaker::customer, {"不是三十天吗?"}},
                          {Speaker::agent, {"大家电是[数字]天"}}});
  Prepared p = prepare(d, lexicon());
  ASSERT_EQ(p.units.size(), 4u);
  const UnitScores s = testing::same_salience(p);
  const DecodeOptions four = options(4);
  const decoding::Context c(p, s, four);
  EXPECT_EQ(decoding::direct_answer(c, 2), -1);
  EXPECT_EQ(decoding::open_answer(c, 2, {0, 1, 2}), 3);
  // A yes/no question that names no fact in 不是 stays direct_answer's.
  auto polar = make_dialogue({{Speaker::customer, {"三十天内可以退吗?"}}, {Speaker::agent, {"大家电是[数字]天"}}});
  Prepared pp = prepare(polar, lexicon());
  const decoding::Context cp(pp, testing::same_salience(pp), four);
  EXPECT_EQ(decoding::open_answer(cp, 0, {0}), -1);
}

TEST(QuestionAnswers, AnOpenQuestionBringsTheAgentsReply) {
  // 用户:询问如何申请开通京东货到付款 ended a summary as if unanswered; a hold (稍等, 帮您查一下) or a
  // request for the order number is no answer.
  auto d = make_dialogue({{Speaker::customer, {"如何申请开通京东货到付款?"}},
                          {Speaker::agent, {"您稍等，这边帮您查一下", "还请提供下订单号", "专员会在[数字]个工作日内联系您"}},
                          {Speaker::customer, {"好的谢谢"}}});
  Prepared p = prepare(d, lexicon());
  ASSERT_EQ(p.units.size(), 5u);
  UnitScores s;
  s.salience = {1.0f, 0.2f, 0.2f, 0.3f, 0.1f};
  const DecodeOptions four = options(4);
  const decoding::Context c(p, s, four);
  EXPECT_EQ(decoding::open_answer(c, 0, {0}), 3);
  EXPECT_EQ(decoding::open_answer(c, 0, {0, 3}), -1);  // answered in the summary already
  decoding::ConstrainedSelection selection;
  selection.units = {0};
  decoding::add_direct_answers(c, selection);
  EXPECT_EQ(selection.units, (std::vector<int>{0, 3}));
  // A yes/no question is direct_answer's; a statement asks nothing; after the customer said more, the
  // reply answers that.
  auto polar = make_dialogue({{Speaker::customer, {"可以开通货到付款吗?"}},
                              {Speaker::agent, {"专员会在[数字]个工作日内联系您"}}});
  Prepared pp = prepare(polar, lexicon());
  const decoding::Context cp(pp, s, four);
  EXPECT_EQ(decoding::open_answer(cp, 0, {0}), -1);
  auto more = make_dialogue({{Speaker::customer, {"什么时候发货?"}},
                             {Speaker::customer, {"我要送人的，生日是下周三"}},
                             {Speaker::agent, {"预计明天上午从仓库发出"}}});
  Prepared pm = prepare(more, lexicon());
  const decoding::Context cm(pm, s, four);
  EXPECT_EQ(decoding::open_answer(cm, 0, {0}), -1);
  // A question for a number is not answered by words without one, nor by a greeting; a "why" asked as a
  // complaint brings nothing.
  auto number = make_dialogue({{Speaker::customer, {"客服电话是多少哈"}},
                               {Speaker::agent, {"您好，客服小蜜很高兴为您服务", "引导客户手机APP我的订单申请售后",
                                                 "热线电话是[数字]转人工"}}});
  Prepared pnum = prepare(number, lexicon());
  ASSERT_EQ(pnum.units.size(), 4u);
  const decoding::Context cnum(pnum, s, four);
  EXPECT_EQ(decoding::open_answer(cnum, 0, {0}), 3);
  auto why = make_dialogue({{Speaker::customer, {"为什么不能今天上门取件?"}},
                            {Speaker::agent, {"取件师傅明天上午会联系您的"}}});
  Prepared pwhy = prepare(why, lexicon());
  const decoding::Context cwhy(pwhy, s, four);
  EXPECT_EQ(decoding::open_answer(cwhy, 0, {0}), -1);
  // A few words beside a placeholder say when; a form's field pasted does not.
  auto when = make_dialogue({{Speaker::customer, {"什么时候能回复我"}},
                             {Speaker::agent, {"申请时间:[日期][时间]", "[时间]前联系您"}}});
  Prepared pwhen = prepare(when, lexicon());
  ASSERT_EQ(pwhen.units.size(), 3u);
  const decoding::Context cwhen(pwhen, s, four);
  EXPECT_EQ(decoding::open_answer(cwhen, 0, {0}), 2);
  // A number alone answers 多久 (and 多少, 几, 电话); 很快就可以到账的 answers 多久 too.
  auto how_long = make_dialogue({{Speaker::customer, {"价保期多久呢?"}}, {Speaker::agent, {"[数字]天呢"}}});
  Prepared plong = prepare(how_long, lexicon());
  const decoding::Context clong(plong, s, four);
  EXPECT_EQ(decoding::open_answer(clong, 0, {0}), 1);
  auto soon = make_dialogue({{Speaker::customer, {"退款多久能到?"}}, {Speaker::agent, {"很快就可以到账的"}}});
  Prepared psoon = prepare(soon, lexicon());
  const decoding::Context csoon(psoon, s, four);
  EXPECT_EQ(decoding::open_answer(csoon, 0, {0}), 1);
}

TEST(QuestionAnswers, ASelectedYesNoQuestionBringsItsDirectAnswer) {
  // 会不会影响… was answered by 这个是不会的哈; the agent's 是的呢直接拒收就好哦 after it answered something else.
  auto d = make_dialogue({{Speaker::customer, {"订单要取消"}},
                          {Speaker::agent, {"您看您是否有时间直接联系快递小哥拒收呢?"}},
                          {Speaker::customer, {"会不会影响小哥绩效考核"}},
                          {Speaker::agent, {"是的呢直接拒收就好哦"}},
                          {Speaker::agent, {"这个是不会的哈"}}});
  Prepared p = prepare(d, lexicon());
  ASSERT_EQ(p.units.size(), 5u);
  UnitScores s;
  s.salience = {0.5f, 0.1f, 1.0f, 0.9f, 0.0f};
  Summary out = decode(p, s, options(3));
  ASSERT_EQ(out.sentences.size(), 3u);
  EXPECT_EQ(out.sentences[0].unit, 2);
  EXPECT_EQ(out.sentences[1].unit, 3);
  EXPECT_EQ(out.sentences[2].unit, 4);
  // With room for two, the answer takes the place of the less salient unit: the question and its
  // answer, not an answer to something else between them.
  out = decode(p, s, options(2));
  ASSERT_EQ(out.sentences.size(), 2u);
  EXPECT_EQ(out.sentences[0].unit, 2);
  EXPECT_EQ(out.sentences[1].unit, 4);
  // The baselines show what they select.
  DecodeOptions plain = options(2);
  plain.skip_fillers = false;
  EXPECT_EQ(decode(p, s, plain).sentences.size(), 2u);
}

TEST(QuestionAnswers, TwoQuestionsInARowTakeTheirAnswersInOrder) {
  // CSDS val 746: 直接和他说拒收是吧 / 会不会影响小哥绩效考核 / 客服:是的呢直接拒收就好哦 / 这个是不会的哈. The first reply
  // answers the first question; the second question's answer reads after it as the second reply.
  auto d = make_dialogue({{Speaker::customer, {"订单要取消"}},
                          {Speaker::agent, {"您看您是否有时间直接联系快递小哥拒收呢?"}},
                          {Speaker::customer, {"直接和他说拒收是吧", "会不会影响小哥绩效考核"}},
                          {Speaker::agent, {"是的呢直接拒收就好哦", "这个是不会的哈"}}});
  Prepared p = prepare(d, lexicon());
  ASSERT_EQ(p.units.size(), 6u);
  UnitScores s;
  s.salience = {0.5f, 0.1f, 0.9f, 1.0f, 0.8f, 0.0f};
  const Summary out = decode(p, s, options(4));
  // The answer to the second question takes the place of the least salient unit (订单要取消).
  ASSERT_EQ(out.sentences.size(), 4u) << out.summary;
  EXPECT_EQ(out.sentences[3].unit, 5) << out.summary;
  EXPECT_EQ(out.summary, "用户:直接和他说拒收是吧？会不会影响小哥绩效考核。客服:是的呢，直接拒收就好哦，这个是不会的哈。");
}

TEST(QuestionAnswers, TheReplyAfterTheAgentsQuestionBackAnswers) {
  // te157 709: 打开之后呢 / 客服:亲亲遇到了什么问题了吗? / the customer's reply / 客服:点击优惠券. The exchange the
  // agent opens with a question is no new question of the customer's: the reply after it answers q.
  auto d = make_dialogue({{Speaker::customer, {"这个怎么退货?"}},
                          {Speaker::agent, {"请问是哪个订单呢?"}},
                          {Speaker::customer, {"昨天买的那个电饭锅"}},
                          {Speaker::agent, {"在我的订单里点申请售后就可以退货"}}});
  Prepared p = prepare(d, lexicon());
  ASSERT_EQ(p.units.size(), 4u);
  const UnitScores s = testing::same_salience(p);
  const DecodeOptions four = options(4);
  const decoding::Context c(p, s, four);
  EXPECT_EQ(decoding::open_answer(c, 0, {0}), 3);
  // A statement of the customer's own, with no question of the agent's before it, still ends the search.
  auto own = make_dialogue({{Speaker::customer, {"这个怎么退货?"}},
                            {Speaker::customer, {"昨天买的那个电饭锅"}},
                            {Speaker::agent, {"在我的订单里点申请售后就可以退货"}}});
  Prepared po = prepare(own, lexicon());
  const UnitScores so = testing::same_salience(po);
  const decoding::Context co(po, so, four);
  EXPECT_EQ(decoding::open_answer(co, 0, {0}), -1);
}

TEST(QuestionAnswers, AReplyThatAsksBackBringsItsOwnAnswer) {
  // te157 746, in separate turns: the agent's question brought the customer's reply 直接和他说拒收是吧 (a tag
  // question), whose own answer 是的呢直接拒收就好哦 came after a second question and was left out: the
  // summary showed only 是不会的, the second question's answer.
  auto d = make_dialogue({{Speaker::customer, {"订单要取消"}},
                          {Speaker::agent, {"您看您是否有时间直接联系快递小哥拒收呢?"}},
                          {Speaker::customer, {"直接和他说拒收是吧"}},
                          {Speaker::customer, {"会不会影响小哥绩效考核"}},
                          {Speaker::agent, {"是的呢直接拒收就好哦"}},
                          {Speaker::agent, {"这个是不会的哈"}}});
  Prepared p = prepare(d, lexicon());
  ASSERT_EQ(p.units.size(), 6u);
  UnitScores s;
  s.salience = {1.0f, 0.6f, 0.0f, 0.9f, 0.0f, 0.8f};
  const DecodeOptions six = options(6);
  const decoding::Context c(p, s, six);
  // Paired by place, the first reply answers the first question though the customer asked again.
  EXPECT_EQ(decoding::direct_answer(c, 2), 4);
  decoding::ConstrainedSelection selection;
  selection.units = {0, 1, 3, 5};
  decoding::add_direct_answers(c, selection);
  std::sort(selection.units.begin(), selection.units.end());
  EXPECT_EQ(selection.units, (std::vector<int>{0, 1, 2, 3, 4, 5}));
}

TEST(QuestionAnswers, AnAlternativeQuestionComesWithItsOtherOption) {
  // CSDS val 306: 这个是补充胶原蛋白的? / 还是护发的? was shown as 用户:询问是补充胶原蛋白的, a yes/no question.
  auto d = make_dialogue({{Speaker::customer, {"这个是补充胶原蛋白的?"}},
                          {Speaker::customer, {"还是护发的?"}},
                          {Speaker::agent, {"是补充胶原蛋白的哦"}}});
  Prepared p = prepare(d, lexicon());
  ASSERT_EQ(p.units.size(), 3u);
  UnitScores s;
  s.salience = {1.0f, 0.0f, 0.5f};
  const DecodeOptions four = options(4);
  const decoding::Context c(p, s, four);
  EXPECT_EQ(decoding::alternative_of(c, 0), 1);
  decoding::ConstrainedSelection selection;
  selection.units = {0, 2};
  decoding::add_alternatives(c, selection);
  std::sort(selection.units.begin(), selection.units.end());
  EXPECT_EQ(selection.units, (std::vector<int>{0, 1, 2}));
  // 还是 meaning "still" in a question of its own is no other option (628: 就不用改了是吗 / 还是[数字]号是吧).
  auto still = make_dialogue({{Speaker::agent, {"就不用改了是吗?"}}, {Speaker::agent, {"还是原来的时间是吧"}}});
  Prepared ps = prepare(still, lexicon());
  const UnitScores ss = testing::same_salience(ps);
  EXPECT_EQ(decoding::alternative_of(decoding::Context(ps, ss, four), 0), -1);
}

TEST(QuestionAnswers, TheCustomersBareYesAnswersTheAgentsYesNoQuestion) {
  // CSDS val 25: 客服:是要解绑换绑新的手机号吗? was shown without the customer's 对; a bare yes is no content
  // alone, but it is the answer. It comes where the budget has room, taking no unit's place.
  EXPECT_TRUE(decoding::is_bare_yes_or_no(U"对的呀"));
  EXPECT_TRUE(decoding::is_bare_yes_or_no(U"不用了"));
  EXPECT_FALSE(decoding::is_bare_yes_or_no(U"对的，昨天买的"));
  auto d = make_dialogue({{Speaker::customer, {"忘记登录密码，绑定的手机号不用了"}},
                          {Speaker::agent, {"这边是要解绑换绑新的手机号吗?"}},
                          {Speaker::customer, {"对"}},
                          {Speaker::agent, {"您在哪个页面呢?"}},
                          {Speaker::customer, {"对"}}});
  Prepared p = prepare(d, lexicon());
  ASSERT_EQ(p.units.size(), 5u);
  const UnitScores s = testing::same_salience(p);
  const DecodeOptions four = options(4);
  const decoding::Context c(p, s, four);
  EXPECT_EQ(decoding::customer_reply(c, 1, {0, 1}), 2);
  // A yes answers no question of which or where.
  EXPECT_EQ(decoding::customer_reply(c, 3, {0, 3}), -1);
  // add_direct_answers leaves it to add_bare_replies, which runs after the outcome and the last reply.
  decoding::ConstrainedSelection selection;
  selection.units = {0, 1};
  decoding::add_direct_answers(c, selection);
  EXPECT_EQ(selection.units, (std::vector<int>{0, 1}));
  decoding::add_bare_replies(c, selection);
  EXPECT_EQ(selection.units, (std::vector<int>{0, 1, 2}));
  // At the cap it stays out.
  const DecodeOptions two = options(2);
  const decoding::Context full(p, s, two);
  decoding::ConstrainedSelection at_cap;
  at_cap.units = {0, 1};
  decoding::add_bare_replies(full, at_cap);
  EXPECT_EQ(at_cap.units, (std::vector<int>{0, 1}));
}

TEST(QuestionAnswers, AnAgentsYesNoQuestionWhoseReplyHasNoRoomLeaves) {
  // te157 625 (unsupervised, at its four sentences) showed 客服:请问是这个商品吗？ without the customer's 对.
  auto d = make_dialogue({{Speaker::customer, {"这个为什么要下个月才送货"}},
                          {Speaker::agent, {"请问是这个商品吗"}},
                          {Speaker::customer, {"对"}},
                          {Speaker::agent, {"您选择的是一款预售的商品呢"}},
                          {Speaker::agent, {"帮您联系采销试试能否安排上门"}}});
  Prepared p = prepare(d, lexicon());
  ASSERT_EQ(p.units.size(), 5u);
  const UnitScores s = testing::same_salience(p);
  const DecodeOptions three = options(3);
  const decoding::Context c(p, s, three);
  decoding::ConstrainedSelection full;
  full.units = {0, 1, 3};
  decoding::add_bare_replies(c, full);  // no room
  EXPECT_TRUE(decoding::drop_unanswered_agent_questions(c, full));
  EXPECT_EQ(full.units, (std::vector<int>{0, 3}));
  // With its reply shown it stays; so does the summary's only agent unit.
  decoding::ConstrainedSelection answered;
  answered.units = {0, 1, 2};
  EXPECT_FALSE(decoding::drop_unanswered_agent_questions(c, answered));
  EXPECT_EQ(answered.units, (std::vector<int>{0, 1, 2}));
  decoding::ConstrainedSelection only_agent;
  only_agent.units = {0, 1};
  EXPECT_FALSE(decoding::drop_unanswered_agent_questions(c, only_agent));
  EXPECT_EQ(only_agent.units, (std::vector<int>{0, 1}));
  // An offer that holds 能否 is no question the reader waits to see answered.
  auto offer = make_dialogue({{Speaker::customer, {"跑步机坏了没人来修"}},
                              {Speaker::agent, {"帮您联系采销试试能否安排上门维修"}},
                              {Speaker::customer, {"好的"}},
                              {Speaker::agent, {"四个小时内回电"}}});
  Prepared po = prepare(offer, lexicon());
  ASSERT_EQ(po.units.size(), 4u);
  const decoding::Context co(po, testing::same_salience(po), three);
  decoding::ConstrainedSelection with_offer;
  with_offer.units = {0, 1, 3};
  EXPECT_FALSE(decoding::drop_unanswered_agent_questions(co, with_offer));
  EXPECT_EQ(with_offer.units, (std::vector<int>{0, 1, 3}));
}

TEST(QuestionAnswers, TheAgentsBareYesAnswersTheCustomersYesNoQuestion) {
  // te157 712 ended on 用户:询问保价[数字]天是吧。 though the agent had said 嗯呢; a statement gets no such reply.
  auto d = make_dialogue({{Speaker::customer, {"只要价保周期内降价都可以申请"}},
                          {Speaker::agent, {"嗯呢"}},
                          {Speaker::customer, {"保价[数字]天是吧"}},
                          {Speaker::agent, {"嗯呢"}}});
  Prepared p = prepare(d, lexicon());
  ASSERT_EQ(p.units.size(), 4u);
  const UnitScores s = testing::same_salience(p);
  const DecodeOptions four = options(4);
  const decoding::Context c(p, s, four);
  EXPECT_EQ(decoding::agent_bare_reply(c, 2, {0, 2}), 3);
  EXPECT_EQ(decoding::agent_bare_reply(c, 0, {0, 2}), -1);
  decoding::ConstrainedSelection selection;
  selection.units = {0, 2};
  decoding::add_bare_replies(c, selection);
  EXPECT_EQ(selection.units, (std::vector<int>{0, 2, 3}));
}

}  // namespace
}  // namespace kessel::summarize
