// The marks of a Chinese summary line (render_marks.cc): the commas a chat message left out, and the mark
// of a cut only where the words stop mid-clause.
#include <gtest/gtest.h>

#include <string>

#include "kessel/summarize/summary.h"
#include "summarize/render.h"
#include "test_dialogues.h"

namespace kessel::summarize {
namespace {

using render::stops_mid_clause;
using render::with_run_ons_punctuated;
using text::Speaker;

TEST(RunOns, AClosingParticleEndsItsClause) {
  // CSDS val 626, 207, 252, 301: agents write clause after clause without a mark.
  EXPECT_EQ(with_run_ons_punctuated("已经操作完成啦马上发货。"), "已经操作完成啦，马上发货。");
  EXPECT_EQ(with_run_ons_punctuated("绑定成功啦可以登录查看账户了。"), "绑定成功啦，可以登录查看账户了。");
  // A yes inside the message answers a second question; 是的话 (if so) and 不是的 are no such yes.
  EXPECT_EQ(with_run_ons_punctuated("马上发货是的不需要。"), "马上发货，是的，不需要。");
  EXPECT_EQ(with_run_ons_punctuated("如果是的话可以退。"), "如果是的话可以退。");
  EXPECT_EQ(with_run_ons_punctuated("这个颜色不是的。"), "这个颜色不是的。");
  EXPECT_EQ(with_run_ons_punctuated("在的哦您是要改为公司抬头是吗？"), "在的哦，您是要改为公司抬头是吗？");
  EXPECT_EQ(with_run_ons_punctuated("抱歉哈今天无法保证呢。"), "抱歉哈，今天无法保证呢。");
  // The address after the particle stays with it.
  EXPECT_EQ(with_run_ons_punctuated("对的呢亲您申请售后之后会为您处理的呢。"), "对的呢亲，您申请售后之后会为您处理的呢。");
  EXPECT_EQ(with_run_ons_punctuated("已经为您操作完成啦亲马上为您发货。"), "已经为您操作完成啦亲，马上为您发货。");
  // A run of particles is one end (哦哦，好吧), and nothing follows a particle at the end.
  EXPECT_EQ(with_run_ons_punctuated("哦哦好吧。"), "哦哦，好吧。");
  // 吧 ends a clause when a pronoun opens the next; elsewhere it may stand inside one.
  EXPECT_EQ(with_run_ons_punctuated("那就取消吧我看说今天到。"), "那就取消吧，我看说今天到。");
  EXPECT_EQ(with_run_ons_punctuated("你先试试吧。"), "你先试试吧。");
  EXPECT_EQ(with_run_ons_punctuated("联系客户吧行么？"), "联系客户吧行么？");
  EXPECT_EQ(with_run_ons_punctuated("是的呢亲亲。"), "是的呢亲亲。");
}

TEST(RunOns, AnOpeningReplyIsSetOffFromWhatItSays) {
  EXPECT_EQ(with_run_ons_punctuated("是的已帮您操作退款了。"), "是的，已帮您操作退款了。");
  EXPECT_EQ(with_run_ons_punctuated("不是的是可以在下单时选定地址。"), "不是的，是可以在下单时选定地址。");
  EXPECT_EQ(with_run_ons_punctuated("好的已提交申请。"), "好的，已提交申请。");
  EXPECT_EQ(with_run_ons_punctuated("是的[数字]元取件费用。"), "是的，[数字]元取件费用。");
  // After a comma too, and after a reply set off already (嗯嗯，好的，…).
  EXPECT_EQ(with_run_ons_punctuated("您好，没有的预计[金额]后有货的。"), "您好，没有的，预计[金额]后有货的。");
  EXPECT_EQ(with_run_ons_punctuated("嗯嗯好的这边帮您申请。"), "嗯嗯，好的，这边帮您申请。");
}

TEST(RunOns, AConjunctionAfterALongRunOpensAClause) {
  // CSDS val 150, 224, 653.
  EXPECT_EQ(with_run_ons_punctuated("运动裤的订单退货选择的京东上门取件但是现在…。"), "运动裤的订单退货选择的京东上门取件，但是现在…。");
  EXPECT_EQ(with_run_ons_punctuated("是不同仓库发货所以会有差异。"), "是不同仓库发货，所以会有差异。");
  EXPECT_EQ(with_run_ons_punctuated("你好我在贵店买了电脑然后使用一直很卡然后不停要更新。"),
            "你好我在贵店买了电脑，然后使用一直很卡，然后不停要更新。");
  // A short lead is the clause's own opening; 之所以 is one word.
  EXPECT_EQ(with_run_ons_punctuated("询问所以帮我提交吗。"), "询问所以帮我提交吗。");
  EXPECT_EQ(with_run_ons_punctuated("是但是收到一个包裹。"), "是但是收到一个包裹。");
  EXPECT_EQ(with_run_ons_punctuated("这个价格之所以便宜是因为活动。"), "这个价格之所以便宜是因为活动。");
}

TEST(RunOns, WordsAndConditionsStayWhole) {
  // A condition (没有的话, 是的话), a particle after the reply (好的吧), a noun after 好的.
  EXPECT_EQ(with_run_ons_punctuated("没有的话就是系统已经处理了。"), "没有的话就是系统已经处理了。");
  EXPECT_EQ(with_run_ons_punctuated("好的吧。"), "好的吧。");
  EXPECT_EQ(with_run_ons_punctuated("好的东西不便宜。"), "好的东西不便宜。");
  // A particle letter inside a word ends no clause: 哈尔滨, 呢子.
  EXPECT_EQ(with_run_ons_punctuated("寄到哈尔滨要几天。"), "寄到哈尔滨要几天。");
  EXPECT_EQ(with_run_ons_punctuated("这件呢子大衣能退吗？"), "这件呢子大衣能退吗？");
  // 吧, 嘛 and 了 stand inside clauses too (干嘛要退, 买了三种): no comma after them.
  EXPECT_EQ(with_run_ons_punctuated("干嘛要退。"), "干嘛要退。");
  EXPECT_EQ(with_run_ons_punctuated("我买了三种水果。"), "我买了三种水果。");
}

TEST(RunOns, ASummaryLineReadsWithItsCommas) {
  auto d = testing::make_dialogue({{Speaker::customer, {"我不需要自己承担运费是吧"}},
                                   {Speaker::agent, {"是的已帮您操作退款了"}}});
  Prepared p = prepare(d, testing::default_lexicon());
  UnitScores s = testing::same_salience(p);
  DecodeOptions o = testing::sentence_budget(2);
  o.emotion_constraint = false;
  EXPECT_NE(decode(p, s, o).summary.find("客服:是的，已帮您操作退款了。"), std::string::npos);
}

TEST(NameVocatives, ANameThatOnlyAddressesGoes) {
  // CSDS val 757, 445, 632 (the data writes every name as [姓名]).
  EXPECT_EQ(render::without_name_vocative("[姓名]，是的，这款是非常适合公司会议使用的。"), "是的，这款是非常适合公司会议使用的。");
  EXPECT_EQ(render::without_name_vocative("我再试试，[姓名]。"), "我再试试。");
  EXPECT_EQ(render::without_name_vocative("您提供一下订单号哦，[姓名]。"), "您提供一下订单号哦。");
  // A name the sentence is about stays; so does a line that is nothing but the name.
  EXPECT_EQ(render::without_name_vocative("[姓名]的订单改为[姓名]的订单。"), "[姓名]的订单改为[姓名]的订单。");
  EXPECT_EQ(render::without_name_vocative("[姓名]。"), "[姓名]。");
}

TEST(OpeningGreetings, AGreetingThatOpensALineGoes) {
  // te157 653, CSDS val 406 and 447: the customer's first message opens with its greeting.
  EXPECT_EQ(render::without_opening_greeting("你好，我想问下这个加湿器为啥不能定时了？"), "我想问下这个加湿器为啥不能定时了？");
  EXPECT_EQ(render::without_opening_greeting("你好我在贵店买了电脑，然后使用一直很卡。"), "我在贵店买了电脑，然后使用一直很卡。");
  EXPECT_EQ(render::without_opening_greeting("您好呢~请问您是什么时候看到的这个消息呢。"), "请问您是什么时候看到的这个消息呢。");
  EXPECT_EQ(render::without_opening_greeting("询问你好，能帮我尽快安排发件吗。"), "询问能帮我尽快安排发件吗。");
  // 你好 that is no greeting (你好慢, 你好像), a greeting inside the line, or a greeting alone stays.
  EXPECT_EQ(render::without_opening_greeting("你好慢啊。"), "你好慢啊。");
  EXPECT_EQ(render::without_opening_greeting("你好像没发货。"), "你好像没发货。");
  EXPECT_EQ(render::without_opening_greeting("我说你好。"), "我说你好。");
  EXPECT_EQ(render::without_opening_greeting("您好。"), "您好。");
}

TEST(OpeningYes, AYesGoesWithItsCommaAndNothingElse) {
  EXPECT_EQ(render::without_opening_yes("是的，想七号送达。"), "想七号送达。");
  EXPECT_EQ(render::without_opening_yes("好的呢亲，小妹联系一下站点看看呢。"), "小妹联系一下站点看看呢。");
  EXPECT_EQ(render::without_opening_yes("对，我要重新买。"), "我要重新买。");
  // Without a comma after it the yes is part of the sentence; alone it is all there is; a no stays.
  EXPECT_EQ(render::without_opening_yes("是的是可以的。"), "是的是可以的。");
  EXPECT_EQ(render::without_opening_yes("是的。"), "是的。");
  EXPECT_EQ(render::without_opening_yes("不是的，是可以在下单时选定地址。"), "不是的，是可以在下单时选定地址。");
  EXPECT_EQ(render::without_opening_yes("对于这个问题，我们会反馈。"), "对于这个问题，我们会反馈。");
}

TEST(OpeningYes, AYesToNothingShownGoesAndAYesToAShownQuestionStays) {
  // CSDS val 728: 用户:是的，想七号送达。 answered the agent's left-out 如果需要晚一天的话.
  auto d = testing::make_dialogue({{Speaker::customer, {"订单可以推迟一天配送吗"}},
                                   {Speaker::agent, {"如果需要晚一天的话"}},
                                   {Speaker::customer, {"是的，想七号送达"}}});
  Prepared p = prepare(d, testing::default_lexicon());
  UnitScores s;
  s.salience = {1.0f, 0.1f, 0.9f};
  DecodeOptions o = testing::sentence_budget(2);
  o.emotion_constraint = false;
  EXPECT_EQ(decode(p, s, o).summary, "用户:订单可以推迟一天配送吗。用户:想七号送达。");
  // A yes run on into what it says, without a comma, goes too once the comma is put back (CSDS val 658:
  // 客服:可以的现在帮您提交 after a left-out 尽量是明天过来可以吗).
  auto run_on = testing::make_dialogue({{Speaker::customer, {"订单可以推迟一天配送吗"}},
                                        {Speaker::agent, {"如果需要晚一天的话"}},
                                        {Speaker::customer, {"是的想七号送达"}}});
  Prepared r = prepare(run_on, testing::default_lexicon());
  EXPECT_EQ(decode(r, s, o).summary, "用户:订单可以推迟一天配送吗。用户:想七号送达。");
  // Shown, the agent's question is what the yes answers.
  auto asked = testing::make_dialogue({{Speaker::customer, {"订单可以推迟一天配送吗"}},
                                       {Speaker::agent, {"是需要晚一天送达吗"}},
                                       {Speaker::customer, {"是的，想七号送达"}}});
  Prepared q = prepare(asked, testing::default_lexicon());
  s.salience = {1.0f, 0.95f, 0.9f};
  o = testing::sentence_budget(3);
  o.emotion_constraint = false;
  const std::string with_prompt = decode(q, s, o).summary;
  EXPECT_NE(with_prompt.find("用户:是的，想七号送达。"), std::string::npos) << with_prompt;
}

TEST(CutTurns, TheCutShowsWhereTheWordsStopMidClause) {
  // te157: a word the next one completes, a negated verb, a pronoun, a measure, a broken word.
  EXPECT_TRUE(stops_mid_clause("帮您和采销核实，专员会在[数字]小时给。"));
  EXPECT_TRUE(stops_mid_clause("有快递小哥在送，但是却没收。"));
  EXPECT_TRUE(stops_mid_clause("搞得我天天电脑放在办公室不能随身携带，还想着等一两天你。"));
  EXPECT_TRUE(stops_mid_clause("已经通过半兽后退回单的了但是想把那个那个。"));
  EXPECT_TRUE(stops_mid_clause("今天有个派送的订单买重，之后发现还有一个。"));
  EXPECT_TRUE(stops_mid_clause("订单一旦生成就无法修改了，若订单信息。"));
  EXPECT_TRUE(stops_mid_clause("关于金融问题白条小金库京东钱包保险。"));
  EXPECT_TRUE(stops_mid_clause("顾客通过点击web咚咚[站点]信息发送:[订单编号。"));
  EXPECT_TRUE(stops_mid_clause("您这边可以需要留一下您以前的。"));
  // Words that end a clause: a particle, a verb or noun, a placeholder.
  EXPECT_FALSE(stops_mid_clause("产品原厂标配是没有包的，需要单独购置的。"));
  EXPECT_FALSE(stops_mid_clause("手提包是自己的，我装了电脑。"));
  EXPECT_FALSE(stops_mid_clause("商品到达站点后尽快配送的。"));
  EXPECT_FALSE(stops_mid_clause("建议您把商品拍照，然后申请售后服务单，提交图片。"));
  EXPECT_FALSE(stops_mid_clause("刚取消的订单付款了[金额]，但是只退回来[金额]。"));
  EXPECT_FALSE(stops_mid_clause("直接用刚刚绑定的手机号码登录就可以。"));  // te157 761
  // A count whose measure the cut took (te157 723: 专员[数字]小时), not a number that is what is given.
  EXPECT_TRUE(stops_mid_clause("电话给我，内部催促退款，专员[数字]。"));
  EXPECT_FALSE(stops_mid_clause("我的电话是[数字]。"));
  EXPECT_FALSE(stops_mid_clause("我们已受理了您的服务单[数字]。"));
  EXPECT_FALSE(stops_mid_clause("退款[金额]。"));
}

TEST(CutTurns, ATurnTheDataCutOffShowsItsCutOnlyMidClause) {
  // CSDS cuts an utterance at 30 characters (`truncated`). Where the words left end a clause the line reads
  // as the sentence it is; where they stop mid-clause the reader sees the cut.
  auto d = testing::make_dialogue({{Speaker::customer, {"这个包有吗"}},
                                   {Speaker::agent, {"产品原厂标配是没有包的，需要单独购置的"}},
                                   {Speaker::customer, {"那什么时候"}},
                                   {Speaker::agent, {"专员会在[数字]小时给"}}});
  d.turns[1].truncated = true;
  d.turns[3].truncated = true;
  Prepared p = prepare(d, testing::default_lexicon());
  UnitScores s = testing::same_salience(p);
  DecodeOptions o = testing::sentence_budget(4);
  o.emotion_constraint = false;
  const std::string summary = decode(p, s, o).summary;
  EXPECT_NE(summary.find("客服:产品原厂标配是没有包的，需要单独购置的。"), std::string::npos) << summary;
  // Its last word of one character goes as a broken word (render::without_cut_clause); the cut shows.
  EXPECT_NE(summary.find("客服:专员会在[数字]小时…。"), std::string::npos) << summary;
}

}  // namespace
}  // namespace kessel::summarize
