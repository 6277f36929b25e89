#include "summarize/content.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "kessel/summarize/summary.h"
#include "kessel/text/utf8.h"
#include "test_dialogues.h"

namespace kessel::summarize {
namespace {

using testing::make_dialogue;
using text::Speaker;

// What classify_unit says of one sentence said alone by `speaker`, in a dialogue of the language
// the sentence is in (a second, plain turn keeps short English units from being detected as
// anything else).
UnitContent kind_of(const std::string& sentence, Speaker speaker = Speaker::customer) {
  const bool zh = text::decode_utf8(sentence, text::Utf8Mode::lossy).size() != sentence.size();
  auto d = make_dialogue(
      {{speaker, {sentence}},
       {Speaker::agent, {zh ? "这是一句中文的回答。" : "This is a plain English answer."}}});
  const Prepared p = prepare(d, testing::default_lexicon());
  return classify_unit(p, 0);
}

TEST(Content, ChineseFillersAreNotContent) {
  for (const char* s :
       {"在吗", "好的", "嗯嗯", "哦", "好吧", "是的", "对的", "亲", "您好", "谢谢", "没了",
        "好的，谢谢！", "嗯嗯好的", "没有了，谢谢", "好的[姓名]", "ok", "😂", "？？？", "请问在吗", "在不在"})
    EXPECT_EQ(kind_of(s), UnitContent::filler) << s;
  // What the customer sends the service's bot to reach an agent, or copies from its prompt: no CSDS
  // reference mentions it, and readers preferred summaries without it (9 to 1, te157).
  for (const char* s : {"我要转人工", "人工", "转人工客服", "请选择咨询订单"}) EXPECT_EQ(kind_of(s), UnitContent::filler) << s;
  // Where the same turn says something else, that is content.
  EXPECT_EQ(kind_of("我要转人工，快递三天没到"), UnitContent::content);
}

TEST(Content, ChineseAgentFormulasAreCourtesies) {
  for (const char* s : {"您好，请问有什么可以帮您？", "请问还有其他还可以帮到您的吗?",
                        "感谢您对京东的支持，祝您生活愉快，再见!", "还请您稍等，正在为您查询~",
                        "给您带来不便，还请您见谅", "有什么问题我可以帮您处理或解决呢？",
                        "亲爱哒，还请稍后点击小红心对我的服务做出评价哦!", "再见"})
    EXPECT_EQ(kind_of(s, Speaker::agent), UnitContent::courtesy) << s;
}

// The closing compliments and the rating request's directions: 54 lines of CSDS val's centrality summaries
// were these or the formulas above.
TEST(Content, ChineseAgentComplimentsAndRatingDirectionsAreCourtesies) {
  for (const char* s : {"很高兴遇到您这么善解人意的客户，请问还有其他还可以帮", "遇到像您这样善解人意的客户，真是我们莫大的荣幸呢~",
                        "遇到您这样善解人意的客户真是我们的福分的呢", "还辛苦您给小妹打个评价呢~点击表情栏旁边的“+”哦。",
                        "请挥一挥您的小手，给我一个小小的评价哦~谢谢您哦。", "不客气的哦，这是我的份内事，也感谢您对我服务的认可",
                        "您真是太客气啦，这些都是我们应该做的呢"})
    EXPECT_EQ(kind_of(s, Speaker::agent), UnitContent::courtesy) << s;
  // Their glue words alone, or beside no formula, are content: 京东支持吗, 客户理解一下.
  for (const char* s : {"京东支持吗", "客户理解一下", "遇到这样的问题"}) EXPECT_EQ(kind_of(s), UnitContent::content) << s;
}

// An agent's opening, clause by clause: pleasantries, an offer of help or a request to state the
// problem, a request for the order number, a hold. CSDS val's centrality summaries showed 107 of them.
TEST(Content, ChineseAgentOpeningsAreCourtesies) {
  for (const char* s : {"小丸子很热情的哦，请问有什么可以帮到您的吗？", "您好，京东客服[数字]号很高兴为您服务!",
                        "亲爱的，一定是缘分让我们相遇，请问有什么问题我可以帮您", "您方便简单描述下您的问题吗？",
                        "您好，您是遇到什么问题了呢？", "您方便的提供一下您的订单号哦，小妹为您看下的恩",
                        "欢迎咨询京东物流商家在线客服~", "请您稍等，小秘书给您查看一下哈", "尊敬的用户，请问有什么妹子可以帮您的吗？",
                        "小妹这边帮您查询一下呢", "这边正在为您积极查询哟", "亲爱的请您稍等，这边妹子帮您查询一下，您看可以吗？",
                        "麻烦亲提供一下您的订单号码，我这边帮你查询一下哈", "妹子尽力为您解答的哦",
                        "您好，请提供一下订单号，帮您查询一下，好吗？",
                        // A hold that waits "a little while", or says how long (CSDS val 346, 40).
                        "正在为您查询，还请您稍微等待一小会。", "正在为您查询，还请您稍等[数字]-[数字]分钟哦。"})
    EXPECT_EQ(kind_of(s, Speaker::agent), UnitContent::courtesy) << s;
  // What the agent does meanwhile, a wrong order number, a number of the case: content.
  for (const char* s : {"这边反馈了请您稍等一下", "我帮您联系一下站点您稍等", "亲亲，您提供得订单号错了哦",
                        "您好，订单[订单编号]很高兴为您服务", "稍等，您的订单已经发货了，预计明天送达",
                        "您好，为您看了这个是厂家进行安装的",
                        // A time that is not the hold's wait: the case's.
                        "请您稍等，[数字]小时内会有专员联系您", "退款[数字]分钟到账"})
    EXPECT_EQ(kind_of(s, Speaker::agent), UnitContent::content) << s;
  // The customer's words are never an agent's opening.
  EXPECT_EQ(kind_of("请问有什么活动吗，很高兴", Speaker::customer), UnitContent::content);
}

// An invitation to come back or a wish closes the conversation and says nothing of the case (CSDS te157
// showed 客服:有任何疑问的可以随时联系。 and 客服:家大卖订单接到手软么么mua。 as a summary's sentences); what the
// customer may still do is content.
TEST(Content, ChineseAgentInvitationsToComeBackAndWishesAreCourtesies) {
  for (const char* s : {"亲爱的，有任何疑问的哈话可以随时与我们联系的哦", "有什么需要随时咨询哦",
                        "亲亲，后续有商品方面问题可以随时联系小妹哦", "好的后期若有问题随时联系我们哦",
                        "祝您家大卖订单接到手软~么么哒~", "妹子祝您身体健康，天天开心哦", "祝您合家幸福，心情美美哒，钱包鼓鼓哒!",
                        "如果今后再遇到什么疑问，请亲亲随时来问妹子哦~妹子随时"})
    EXPECT_EQ(kind_of(s, Speaker::agent), UnitContent::courtesy) << s;
  for (const char* s : {"有新订单随时可以申请的", "已经为您申请退款了，后续有问题可以随时联系", "您可以随时关注的亲",
                        "在客户服务-帮助中心-自助祝福中是可以进入注销的", "如果是商品质量问题是不需要承担运费的",
                        "如果还有问题，可以申请售后"})
    EXPECT_EQ(kind_of(s, Speaker::agent), UnitContent::content) << s;
}

TEST(Content, ACustomersMenuEntryIsNoContent) {
  for (const char* s : {"订单业务咨询", "返修退换货咨询", "账户与财务咨询", "会员权益咨询"})
    EXPECT_EQ(kind_of(s), UnitContent::menu) << s;
  // Words of the customer's own: content (我有问题要咨询 asks for an agent, 两个都咨询 answers).
  for (const char* s : {"我有问题要咨询", "两个都咨询", "我想咨询一下发票的问题怎么开", "咨询订单号:[订单编号]，怎么还没发货"})
    EXPECT_NE(kind_of(s), UnitContent::menu) << s;
  // The header the chat system sends from an order is one too.
  EXPECT_EQ(kind_of("咨询订单号:[订单编号]商品ID:2194131526"), UnitContent::menu);
  EXPECT_EQ(kind_of("咨询订单号:[订单编号]"), UnitContent::menu);
  // So is an order form's labels pasted with nothing filled in but placeholders (te157 750), or an order
  // number alone under its label; a label with the customer's words is content.
  EXPECT_EQ(kind_of("[订单编号:[数字]，订单金额:，下单时间:]"), UnitContent::menu);
  EXPECT_EQ(kind_of("订单号:[订单编号]"), UnitContent::menu);
  EXPECT_NE(kind_of("订单号:[订单编号]还没发货"), UnitContent::menu);
  EXPECT_NE(kind_of("订单金额不对"), UnitContent::menu);
  // The agent's words are never a menu entry; its paste of the order form's fields is details (te157 716's
  // 下单时间[日期][时间] read as the answer to 要多久送达), its words beside a label content.
  EXPECT_NE(kind_of("欢迎您的咨询", Speaker::agent), UnitContent::menu);
  EXPECT_EQ(kind_of("下单时间[日期][时间]", Speaker::agent), UnitContent::details);
  EXPECT_EQ(kind_of("订单编号:[订单编号]", Speaker::agent), UnitContent::details);
  EXPECT_EQ(kind_of("订单号:[订单编号]已经出库了", Speaker::agent), UnitContent::content);
}

TEST(Content, ShortChineseUnitsThatMeanSomethingStayContent) {
  for (const char* s : {"不行", "退货", "没有", "不是", "为什么", "可以吗？", "请问还有什么",
                        "怎么办", "不用了", "[数字]件", "VB[数字]还没到"})
    EXPECT_EQ(kind_of(s), UnitContent::content) << s;
  // Details alone say nothing to a reader: a placeholder, digits.
  for (const char* s : {"[订单编号]", "[姓名]", "[数字]", "[订单编号]，[订单编号]", "[数字]。。"})
    EXPECT_EQ(kind_of(s), UnitContent::details) << s;
  // An agent's sentence with a fact in it is content, however polite.
  EXPECT_EQ(kind_of("您好，已经为您申请退款了", Speaker::agent), UnitContent::content);
  EXPECT_EQ(kind_of("请问是这个商品吗", Speaker::agent), UnitContent::content);
}

TEST(Content, EnglishFillersAndCourtesies) {
  for (const char* s : {"ok", "Okay.", "Thanks!", "Thank you so much!", "@AppleSupport hi", "Yes",
                        "You're welcome!", "No problem.", "Got it, thanks!", "Oh no!", "Sent.", "Thanks for the info.",
                        "😊", "https://t.co/abc", "Our pleasure.", "@573230 What's up SimultaneousEquation?",
                        "How are you doing?", "Thanks Jane!", "You are welcome.", "You're most welcome!"})
    EXPECT_EQ(kind_of(s), UnitContent::filler) << s;
  for (const char* s : {"Is there anything else I can help with?", "Have a great day!",
                        "Thanks for reaching out.", "@181 Hi there, thanks for reaching out to us.",
                        "Sorry for the inconvenience.", "Let us know if you need anything else.",
                        "We appreciate your patience.", "We're glad to hear that."})
    EXPECT_EQ(kind_of(s, Speaker::agent), UnitContent::courtesy) << s;
}

TEST(Content, ShortEnglishUnitsThatMeanSomethingStayContent) {
  for (const char* s : {"No", "No.", "Why?", "Can you help?", "Yes, I do.", "Still frozen",
                        "Please DM us your order number.", "Let us know your order number.",
                        "Can you help me with anything else?", "NICE TRY!", "Great, Amazon 20"})
    EXPECT_EQ(kind_of(s), UnitContent::content) << s;
}

TEST(Content, AgentSignOffs) {
  auto d = make_dialogue({{Speaker::customer, {"My order never arrived."}},
                          {Speaker::agent, {"We are looking into it.", "-Rach"}},
                          {Speaker::agent, {"It ships tomorrow.", "^JK"}},
                          {Speaker::agent, {"Your refund is on its way.", "Phil."}},
                          {Speaker::agent, {"Please check your email.", "/MT 2/2"}},
                          {Speaker::agent, {"The fix is in the next update.", "Ty - Darren"}},
                          {Speaker::agent, {"We checked.", "No."}},
                          {Speaker::agent, {"Phil"}},
                          {Speaker::agent, {"We checked it twice.", "However,"}},
                          {Speaker::customer, {"It works now.", "Phil."}},
                          {Speaker::agent, {"We will check.", "Thanks ^lp"}},
                          {Speaker::agent, {"Pls provide the number.", "Rgds, Idea Care"}}});
  const Prepared p = prepare(d, testing::default_lexicon());
  ASSERT_EQ(p.units.size(), 22u);
  for (std::size_t u : {2u, 4u, 6u, 8u, 10u, 19u, 21u})
    EXPECT_EQ(classify_unit(p, u), UnitContent::signoff) << p.units[u].text;
  EXPECT_EQ(classify_unit(p, 12), UnitContent::content);  // "No." answers
  EXPECT_EQ(classify_unit(p, 13), UnitContent::content);  // a lone word that is the whole turn
  EXPECT_EQ(classify_unit(p, 15), UnitContent::content);  // a comma joins it to what follows
  EXPECT_EQ(classify_unit(p, 17), UnitContent::content);  // customers do not sign off
}

TEST(Content, AnAgentsSurveyOrRatingRequestIsASignOff) {
  EXPECT_EQ(kind_of("Help us improve our Twitter support by answering our survey on this link:", Speaker::agent),
            UnitContent::signoff);
  EXPECT_EQ(kind_of("Please rate your experience with us today.", Speaker::agent), UnitContent::signoff);
  EXPECT_EQ(kind_of("Let us know how we did!", Speaker::agent), UnitContent::signoff);
  // A customer's words about a survey, and an agent's about a rate, are content.
  EXPECT_EQ(kind_of("Your survey link is broken.", Speaker::customer), UnitContent::content);
  EXPECT_EQ(kind_of("The exchange rate is set by your bank.", Speaker::agent), UnitContent::content);
  // The sentence that leads into the survey in the same tweet is its part (TweetSumm train 4e5958ca kept "The
  // agent would like to know about the customer's experience with the support…" over the agent's answer).
  auto d = make_dialogue({{Speaker::agent, {"We would like to know about your experience with the support you received.",
                                            "Please respond to this survey: https://t.co/x"}},
                          {Speaker::agent, {"Tell us about your experience with the update.", "We will pass it on."}}});
  const Prepared p = prepare(d, testing::default_lexicon());
  ASSERT_EQ(p.units.size(), 4u);
  EXPECT_EQ(classify_unit(p, 0), UnitContent::signoff);
  EXPECT_EQ(classify_unit(p, 2), UnitContent::content);  // no survey after it
}

TEST(Content, MaskKeepsAFillerThatHoldsTheCustomersEmotion) {
  auto d = make_dialogue(
      {{Speaker::customer, {"好的😡", "我的快递三天没到。"}}, {Speaker::agent, {"好的。"}}});
  const Prepared p = prepare(d, testing::default_lexicon());
  ASSERT_TRUE(p.customer_expressed_emotion());
  EXPECT_EQ(classify_unit(p, 0), UnitContent::filler);
  EXPECT_EQ(content_mask(p), (std::vector<char>{1, 1, 0}));
}

TEST(Content, DecoderSkipsFillersUnlessAskedNotTo) {
  auto d = make_dialogue({{Speaker::customer, {"在吗？", "我的快递三天没到。"}},
                          {Speaker::agent, {"好的。", "今天下午送到。"}}});
  const Prepared p = prepare(d, testing::default_lexicon());
  UnitScores s;
  s.salience = {0.9f, 0.5f, 0.8f, 0.4f};
  DecodeOptions o;
  o.max_sentences = 2;
  o.redundancy = 0.0f;
  o.emotion_constraint = false;
  EXPECT_EQ(decode(p, s, o).summary, "用户:我的快递三天没到。客服:今天下午送到。");
  o.skip_fillers = false;  // the published baselines rank every sentence
  EXPECT_EQ(decode(p, s, o).summary, "用户:在吗？客服:好的。");
}

}  // namespace
}  // namespace kessel::summarize
