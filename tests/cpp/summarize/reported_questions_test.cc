// How a customer's question is reported (render_questions.cc): 用户:询问… as the CSDS references write it,
// a complaint asked in the customer's words, a question asked again, a tag that asks to be confirmed, and
// the questions asked without a mark.
#include <gtest/gtest.h>

#include <string>

#include "kessel/summarize/summary.h"
#include "summarize/render.h"
#include "test_dialogues.h"

namespace kessel::summarize {
namespace {

using text::Speaker;

using testing::make_dialogue;
const text::Lexicon& lexicon() { return testing::default_lexicon(); }

// Every unit the test scores shown, up to `max_sentences`, customers' questions reported: no redundancy
// control and no emotion constraint, so that the saliences and the rule under test decide.
DecodeOptions reported(int max_sentences) {
  DecodeOptions o = testing::sentence_budget(max_sentences);
  o.emotion_constraint = false;
  o.report_questions = true;
  return o;
}

TEST(ReportedQuestions, AComplaintAskedStaysInTheCustomersWords) {
  // A question that holds a complaint the customer expressed is no neutral inquiry (te157 reading, 24 to 4:
  // 用户:询问不是三十天吗。 read as flattened push-back): it stays in the customer's words, asking.
  auto d = make_dialogue({{Speaker::customer, {"想申请退货"}},
                          {Speaker::agent, {"这个商品是七天无理由退货的"}},
                          {Speaker::customer, {"原订单不是告诉你了吗"}},
                          {Speaker::customer, {"什么时候能到"}}});
  Prepared p = prepare(d, lexicon());
  UnitScores s;
  s.salience = {1.0f, 0.9f, 0.8f, 0.7f};
  const DecodeOptions o = reported(4);
  EXPECT_EQ(decode(p, s, o).summary, "用户:想申请退货。客服:这个商品是七天无理由退货的。用户:原订单不是告诉你了吗？询问什么时候能到。");
}

TEST(ReportedQuestions, AQuestionAskedAgainAfterTheReplySaysSo) {
  // CSDS val 733 showed 用户:询问无界面单怎么开通。 twice, around the agent's reply.
  auto d = make_dialogue({{Speaker::customer, {"无界面单怎么开通"}},
                          {Speaker::agent, {"服务入口在商家后台的配送页面"}},
                          {Speaker::customer, {"无界面单怎么开通"}},
                          {Speaker::agent, {"填写发货的联系人即可"}}});
  Prepared p = prepare(d, lexicon());
  UnitScores s;
  s.salience = {1.0f, 0.9f, 0.8f, 0.7f};
  const DecodeOptions o = reported(4);
  EXPECT_EQ(decode(p, s, o).summary,
            "用户:询问无界面单怎么开通。客服:服务入口在商家后台的配送页面。用户:再次询问无界面单怎么开通。客服:填写发货的联系人即可。");
}

// A customer's statement that presumes and asks to be confirmed (是吧, 对吧; or 吧 that the agent answers
// yes or no) is a question: reported, it asks whether (CSDS val 279: "用户:退到原支付卡上是吧。" read as the
// customer telling the agent). A 吧 that asks for something (直接退吧) gets no yes or no and stays, and one
// after an action proposes it (到时候联系快递吧, CSDS val 428), whatever the agent answers.
TEST(ReportedQuestions, ATagQuestionAsksWhether) {
  auto d = make_dialogue({{Speaker::customer, {"就是退到原支付卡上是吧"}},
                          {Speaker::agent, {"是的呢"}},
                          {Speaker::customer, {"明天能到吧"}},
                          {Speaker::agent, {"可以的"}},
                          {Speaker::customer, {"那直接退吧"}},
                          {Speaker::agent, {"是的"}},
                          {Speaker::customer, {"到时候联系快递吧"}},
                          {Speaker::agent, {"好的，已经为您提交"}}});
  Prepared p = prepare(d, lexicon());
  UnitScores s;
  s.salience = {1.0f, 0.9f, 0.8f, 0.7f, 0.6f, 0.55f, 0.52f, 0.5f};
  DecodeOptions o = reported(8);
  EXPECT_EQ(decode(p, s, o).summary,
            "用户:询问是否退到原支付卡上。客服:是的呢。用户:询问是否明天能到。客服:可以的。用户:那直接退吧。客服:是的。"
            "用户:到时候联系快递吧。客服:好的，已经为您提交。");
  // Not reported, the customer's words stay and ask.
  o.report_questions = false;
  EXPECT_EQ(decode(p, s, o).summary,
            "用户:就是退到原支付卡上是吧？客服:是的呢。用户:明天能到吧？客服:可以的。用户:那直接退吧。客服:是的。"
            "用户:到时候联系快递吧。客服:好的，已经为您提交。");
  // The tag goes only where it is a word of its own; a clause that goes on from the one before keeps it.
  EXPECT_EQ(render::reported_question("京东白条买的，就退到白条账户是吧。"), "询问京东白条买的，是否就退到白条账户。");
  EXPECT_EQ(render::reported_question("可以提现的吧。"), "询问是否可以提现。");
  EXPECT_EQ(render::reported_question("我可以再注册一个，然后再注册别人的吧。"), "询问我可以再注册一个，然后再注册别人的吧。");
  // A pronoun that opens the clause comes before 是否; a clause that negates keeps its tag (blind readers of
  // CSDS val 217 and 473 read 是否…不是 as a double negative).
  EXPECT_EQ(render::reported_question("你们会自动改的对吧。"), "询问你们是否会自动改。");
  EXPECT_EQ(render::reported_question("意思是还有退款吧。"), "询问是否还有退款。");
  EXPECT_EQ(render::reported_question("发票地址不是东海世家吧。"), "询问发票地址不是东海世家吧。");
  // A tag after 的 presumes a fact and asks, whatever the agent replies (CSDS val 424 showed 用户:系统会自动生成的吧。);
  // without 的 it needs the reply's yes or no, as above.
  auto de = make_dialogue({{Speaker::customer, {"系统会自动生成的吧"}},
                           {Speaker::agent, {"您在订单详情页查看"}},
                           {Speaker::customer, {"明天能到吧"}},
                           {Speaker::agent, {"您在订单详情页查看"}}});
  Prepared pd = prepare(de, lexicon());
  UnitScores sd;
  sd.salience = {1.0f, 0.1f, 0.9f, 0.1f};
  EXPECT_EQ(decode(pd, sd, reported(2)).summary, "用户:询问是否系统会自动生成。用户:明天能到吧。");
}

TEST(ReportedQuestions, CustomerQuestionsAreReportedWhenAsked) {
  auto d = make_dialogue({{Speaker::customer, {"你好，想问下这款冰箱有货吗"}},
                          {Speaker::agent, {"有货的呢？"}},
                          {Speaker::customer, {"亲开专用票是等货到了再开吗？"}}});
  Prepared p = prepare(d, lexicon());
  UnitScores s;
  s.salience = {1.0f, 0.9f, 0.8f};
  DecodeOptions o = reported(3);
  o.report_questions = false;
  // As written (but the greeting that opens the line): a question mark stays, a particle question ends
  // where the CSDS protocol splits.
  EXPECT_EQ(decode(p, s, o).summary, "用户:想问下这款冰箱有货吗。客服:有货的呢？用户:亲开专用票是等货到了再开吗？");
  // Reported as the references report it: greetings and "may I ask" go, only where a word ends (亲开
  // is one word), and the agent's sentence is not a customer question.
  o.report_questions = true;
  EXPECT_EQ(decode(p, s, o).summary, "用户:询问这款冰箱有货吗。客服:有货的呢？用户:询问亲开专用票是等货到了再开吗。");
  // A bare 问 that deletion left of 问下 goes too (CSDS val 648: "询问问是不是…"); 问题 is a word of its own.
  EXPECT_EQ(render::reported_question("问是不是就会退款给我"), "询问是不是就会退款给我");
  EXPECT_EQ(render::reported_question("问题能解决吗"), "询问问题能解决吗");
  // 想问 before a word the segmenter's unknown-word model joined to its 问 (想|问京豆) goes too; before a
  // dictionary word (想|问题) it is no opener (CSDS val 243 read "询问想问京豆是…").
  EXPECT_EQ(render::reported_question("想问京豆是你们承担还是商家自己承担"), "询问京豆是你们承担还是商家自己承担");
  EXPECT_EQ(render::reported_question("想问题怎么解决"), "询问想问题怎么解决");
  // Acknowledgements and interjections before the question say nothing once reported (CSDS val: 询问哦，对了，
  // 为什么白条还需要航班信息呢; te157 744: 询问哦，哦，谢谢，那到时候…).
  EXPECT_EQ(render::reported_question("哦，对了，为什么白条还需要航班信息呢"), "询问为什么白条还需要航班信息呢");
  EXPECT_EQ(render::reported_question("哦，哦，谢谢，那到时候直接是返还白条额度吗"), "询问那到时候直接是返还白条额度吗");
  EXPECT_EQ(render::reported_question("好的，什么时候发货呢"), "询问什么时候发货呢");
  // "Check for me" before the question (te157 683: 询问请查东西在哪里); 请查询 is one word and stays.
  EXPECT_EQ(render::reported_question("请查东西在哪里"), "询问东西在哪里");
  EXPECT_EQ(render::reported_question("帮我查是退货吗"), "询问是退货吗");
  EXPECT_EQ(render::reported_question("请查询物流到哪里了"), "询问请查询物流到哪里了");
  EXPECT_EQ(render::reported_question("告诉我，现在谁有修改地址的权限"), "询问现在谁有修改地址的权限");
  EXPECT_EQ(render::reported_question("麻烦问下这个产品有什么包换服务"), "询问这个产品有什么包换服务");
  EXPECT_EQ(render::reported_question("想知道啥时候发出来"), "询问啥时候发出来");
  // So is "look for me", and the 看 deletion leaves of it (te157 740: 用户:看什么时候会有货。); 看法 is a word.
  EXPECT_EQ(render::reported_question("帮我看下什么时候会有货"), "询问什么时候会有货");
  EXPECT_EQ(render::reported_question("看什么时候会有货"), "询问什么时候会有货");
  EXPECT_EQ(render::reported_question("看法是什么"), "询问看法是什么");
  // A bare 看 or 查 goes only before a question word: 查过 and 查到 are what is asked about (CSDS val 82, 441).
  EXPECT_EQ(render::reported_question("查到方法了吗"), "询问查到方法了吗");
  EXPECT_EQ(render::reported_question("查过确实是中奖了"), "询问查过确实是中奖了");
  // Thanks in either script open nothing a report keeps.
  EXPECT_EQ(render::reported_question("謝謝你大概什么时间能开好"), "询问大概什么时间能开好");
  EXPECT_EQ(render::reported_question("谢谢，几号能到"), "询问几号能到");
  // A clause that opens with a question word asks without a mark or particle; one marked as a
  // statement, or a question word inside a statement, does not.
  auto wh = make_dialogue({{Speaker::customer, {"那什么时候发货"}},
                           {Speaker::customer, {"余额无法使用，为什么总是没反应啊"}},
                           {Speaker::customer, {"我不知道什么原因"}},
                           {Speaker::customer, {"什么时候都可以。"}},
                           {Speaker::customer, {"如何申请开通分期付款"}}});
  Prepared pw = prepare(wh, lexicon());
  s.salience = {1.0f, 0.9f, 0.8f, 0.7f, 0.6f};
  o.max_sentences = 5;
  // 为什么总是没反应啊 is a complaint the customer expressed: it stays in their words, asking
  // (ReportedQuestions.AComplaintAskedStaysInTheCustomersWords).
  EXPECT_EQ(decode(pw, s, o).summary,
            "用户:询问那什么时候发货，余额无法使用，为什么总是没反应啊？我不知道什么原因，什么时候都可以，"
            "询问如何申请开通分期付款。");
  // A clause that ends in a question word asks too; after a negation or 才, or where the customer says
  // they cannot find or do not know, the word is indefinite.
  auto end_wh = make_dialogue({{Speaker::customer, {"那个卡有什么用"}},
                               {Speaker::customer, {"上门取件多少钱"}},
                               {Speaker::customer, {"这个没有什么用"}},
                               {Speaker::customer, {"这才几天"}},
                               {Speaker::customer, {"今天找不到在哪里呀"}}});
  Prepared pe = prepare(end_wh, lexicon());
  const Summary ends = decode(pe, s, o);
  // Joined under one label, a second reported question says 询问 once; its own sentence reports it.
  EXPECT_EQ(ends.summary, "用户:询问那个卡有什么用，上门取件多少钱，这个没有什么用，这才几天，今天找不到在哪里呀。");
  ASSERT_GE(ends.sentences.size(), 2u);
  EXPECT_EQ(ends.sentences[1].text, "用户:询问上门取件多少钱。");
  // "How many" inside a clause asks after a verb that counts; "several" and "these days" do not.
  auto many = make_dialogue({{Speaker::customer, {"这个订单应该有几个赠品"}},
                             {Speaker::customer, {"买了好几个赠品"}},
                             {Speaker::customer, {"这几天都在家"}}});
  Prepared pm = prepare(many, lexicon());
  s.salience = {1.0f, 0.9f, 0.8f};
  o.max_sentences = 3;
  EXPECT_EQ(decode(pm, s, o).summary, "用户:询问这个订单应该有几个赠品，买了好几个赠品，这几天都在家。");
  // "How" inside a clause asks; after 不知道 it is indefinite.
  auto how = make_dialogue({{Speaker::customer, {"买家电怎样分期付款"}},
                            {Speaker::customer, {"我不知道怎么弄"}},
                            {Speaker::customer, {"您有开通白条吗亲"}}});
  Prepared ph = prepare(how, lexicon());
  EXPECT_EQ(decode(ph, s, o).summary, "用户:询问买家电怎样分期付款，我不知道怎么弄，询问您有开通白条吗亲。");
  s.salience = {1.0f, 0.9f, 0.8f, 0.7f, 0.6f};
  o.max_sentences = 5;
  // A customer's bare noun with 呢 asks "what about it?"; a call or a softened statement does not.
  auto about = make_dialogue({{Speaker::customer, {"手机呢"}},
                              {Speaker::customer, {"我在等呢"}},
                              {Speaker::customer, {"人呢"}},
                              {Speaker::customer, {"还没呢"}}});
  Prepared pa = prepare(about, lexicon());
  s.salience = {1.0f, 0.9f, 0.8f, 0.7f};
  o.max_sentences = 4;
  EXPECT_EQ(decode(pa, s, o).summary, "用户:询问手机呢，我在等呢，人呢，还没呢。");
  s.salience = {1.0f, 0.9f, 0.8f, 0.7f, 0.6f};
  o.max_sentences = 5;
  // A question whose 吗 came as a turn of its own asks; the tail alone is never shown.
  auto tail = make_dialogue({{Speaker::customer, {"这个手表二代的可以放副卡"}},
                             {Speaker::customer, {"吗?"}},
                             {Speaker::agent, {"不建议使用副卡"}}});
  Prepared pt = prepare(tail, lexicon());
  s.salience = {0.8f, 1.0f, 0.7f};
  o.max_sentences = 3;
  EXPECT_EQ(decode(pt, s, o).summary, "用户:询问这个手表二代的可以放副卡。客服:不建议使用副卡。");
  o.report_questions = false;
  EXPECT_EQ(decode(pt, s, o).summary, "用户:这个手表二代的可以放副卡？客服:不建议使用副卡。");
  o.report_questions = true;
  // "May I?" after a space in the same turn makes the statement before it ask (it had read as done:
  // 用户:退货申请取消。); the tail alone is never shown.
  auto permission = make_dialogue({{Speaker::customer, {"那我把退货申请取消 ", "可以吗"}},
                                   {Speaker::agent, {"目前操作不了了"}}});
  Prepared pp = prepare(permission, lexicon());
  ASSERT_EQ(pp.units.size(), 3u);
  EXPECT_TRUE(render::is_question_tail(std::string("可以吗")));
  EXPECT_TRUE(render::is_question_tail(std::string("行吗?")));
  EXPECT_FALSE(render::is_question_tail(std::string("退吗")));
  EXPECT_TRUE(render::asked_by_next_unit(pp, 0));
  EXPECT_EQ(decode(pp, s, o).summary.find("用户:那我把退货申请取消。"), std::string::npos) << decode(pp, s, o).summary;
  EXPECT_NE(decode(pp, s, o).summary.find("询问"), std::string::npos) << decode(pp, s, o).summary;
  // "And then?": a 呢 after 之后 / 然后 / 其他的 asks with no question word; a 呢 after a statement
  // only softens it.
  auto next = make_dialogue({{Speaker::customer, {"打开之后呢"}}, {Speaker::agent, {"这个没有办法修改呢"}}});
  Prepared pn = prepare(next, lexicon());
  s.salience = {1.0f, 0.9f};
  o.max_sentences = 2;
  EXPECT_EQ(decode(pn, s, o).summary, "用户:询问打开之后呢。客服:这个没有办法修改呢。");
}

TEST(ReportedQuestions, AQuestionInAnEarlierClauseAsks) {
  // CSDS val 78, 686, 763 showed questions followed by why they were asked as statements.
  EXPECT_TRUE(render::asks_without_mark("啥时候能完成退款，我想现在拍那个大尺寸的", false));
  EXPECT_TRUE(render::asks_in_an_earlier_clause("那咋办，显示还在充值"));
  EXPECT_FALSE(render::asks_in_an_earlier_clause("那咋办"));                    // the last clause asks
  EXPECT_FALSE(render::asks_in_an_earlier_clause("那咋办。显示还在充值"));      // the writer ended the question
  // In a turn the data cut off, whose last clause may be anything (…就用一), an earlier clause asks only
  // plainly: opening with why, how or when, or ending in 吗, 呢 or 么 (CSDS val 53, 342, 526).
  EXPECT_TRUE(render::asks_without_mark("可是冰糕为啥不用呢，就用一", true));
  EXPECT_TRUE(render::asks_without_mark("为什么我这个手机没有电话打来，什么也没有，就发个提醒", true));
  EXPECT_TRUE(render::asks_without_mark("拒收的现在还可以签收吗，卖家说要是签收了", true));
  EXPECT_FALSE(render::asks_without_mark("说已经退了，但没有地方查我当时怎么支付的了，我也无法确", true));
  // Shown in the customer's words, the ？ ends the clause that asks.
  EXPECT_EQ(render::with_mark_after_asking_clause("为什么我还没收到货，订单就已经完成。"), "为什么我还没收到货？订单就已经完成。");
  EXPECT_EQ(render::with_mark_after_asking_clause("订单就已经完成。"), "订单就已经完成。");
}

TEST(ReportedQuestions, AQuestionInTheCustomersWordsDropsItsOpeningInterjection) {
  // CSDS val 168 showed 用户:哦，对了，为什么白条还需要航班信息呢？ (a report drops them already).
  EXPECT_EQ(render::without_opening_interjection("哦，对了，为什么白条还需要航班信息呢？"), "为什么白条还需要航班信息呢？");
  EXPECT_EQ(render::without_opening_interjection("哦。"), "哦。");
  EXPECT_EQ(render::without_opening_interjection("哦好的，为什么呢？"), "哦好的，为什么呢？");
}

TEST(ReportedQuestions, AnAgentsQuestionWithoutAMarkEndsWithOne) {
  // CSDS: 客服:订单有吗。 and 客服:要换成单位信息的吗。 read as statements.
  // A closing address after a comma is no clause of its own (te157 630 showed 客服:现在是在哪个界面呢。 from
  // 您现在是在哪个界面呢，亲). An agent asks what happened (te157 642 showed 客服:商品怎么了。), unless it
  // says it does not know or is looking into it.
  for (const char* asks : {"订单有吗", "要换成单位信息的吗亲", "帮升级专员好么", "会员是开通了自动续费是嘛", "服务单号是多少呢", "哪款商品呢", "亲您是要退货",
                           "请问是需要京豆还是京券", "您现在是在哪个界面呢，亲", "可以留一个联系方式吗，亲爱的",
                           "亲亲，这个商品怎么了", "您遇到什么问题了", "订单是什么情况",
                           // an amount, place or time asked at the end, or a cleft that asks when or why (CSDS
                           // val 151, 429, 506, 754 showed 客服:什么原因退款的。, 客服:运费是多少。)
                           "运费是多少", "需要多少，发货哪里", "什么原因退款的", "商品什么时候交给配送的恩"})
    EXPECT_TRUE(render::agent_asks_without_mark(asks)) << asks;
  // An agent's statements end in 呢 and hold embedded questions.
  for (const char* says : {"退货的话扣不扣费用是要看备件库同事的意见", "怎么支付的就怎么返回的", "那建议您到时候拒收重新下过订单呢",
                           "什么时候发的可能要完一点才能看呢", "需要联系看是换新还是退货", "这个是什么", "订单有吗。", "预计呢",
                           "毕竟是专业的客服嘛", "已经为您申请了，亲",
                           "这边帮您核实一下是什么情况", "不清楚是怎么回事", "运费取决寄什么快递",
                           "一直按，什么时候闪烁什么时候搜索", "没有显示具体扣多少"})
    EXPECT_FALSE(render::agent_asks_without_mark(says)) << says;
  auto d = make_dialogue({{Speaker::customer, {"我要开发票"}}, {Speaker::agent, {"订单有吗"}}});
  Prepared p = prepare(d, lexicon());
  UnitScores s;
  s.salience = {0.5f, 1.0f};
  DecodeOptions o;
  o.max_sentences = 1;
  o.redundancy = 0.0f;
  o.emotion_constraint = false;
  EXPECT_EQ(decode(p, s, o).summary, "客服:订单有吗？");
}

}  // namespace
}  // namespace kessel::summarize
