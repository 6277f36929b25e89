// Implicit emotion (emotion_cues.h): the constructions found, their spans, and what they never do.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "kessel/text/emotion.h"
#include "kessel/text/lexicon.h"
#include "text/test_paths.h"

namespace kessel::text {
namespace {

const Lexicon& default_lexicon() {
  static const Lexicon lex = load_default_lexicon(testing::lexicon_dir());
  return lex;
}

std::vector<EmotionMention> cues_in(const std::string& text, bool customer = true) {
  DetectOptions o;
  o.customer_turn = customer;
  o.implicit_cues_english = true;  // off by default (emotion.h); tested here
  std::vector<EmotionMention> out;
  for (EmotionMention& m : detect_emotions(text, default_lexicon(), 3, o))
    if (m.source.rfind("cue:", 0) == 0) out.push_back(std::move(m));
  return out;
}

TEST(EmotionCues, ChineseConstructionsAreFoundWithTheirClause) {
  struct Case {
    const char* text;
    const char* expression;
    const char* source;
    Emotion emotion;
  };
  const std::vector<Case> cases = {
      {"你好，为什么完全走错了地方", "为什么完全走错了地方", "cue:rhetorical", Emotion::anger},
      {"原订单不是告诉你了吗", "不是告诉你了吗", "cue:rhetorical_negative", Emotion::anger},
      {"我平时不在家，一直联系也没人来修", "一直联系也没人来", "cue:duration", Emotion::anger},
      {"都不敢在你们京东买了。", "不敢在你们京东买", "cue:boycott", Emotion::anger},
      {"不会要到明年吧", "不会要到明年吧", "cue:worry", Emotion::fear},
      {"我是怕不够", "怕不够", "cue:worry", Emotion::fear},
      {"就是因为颜色不一样就便宜那么多啊?", "那么多", "cue:size", Emotion::surprise},
      {"等也不是，退款也不是", "等也不是，退款也不是", "cue:dilemma", Emotion::anger},
      {"说十三号送货咋取消了", "咋取消了", "cue:sudden_change", Emotion::surprise},
      {"以前是一罐，怎么升价啦?", "怎么升价啦", "cue:sudden_change", Emotion::surprise},
      {"那买来有何用?", "有何用", "cue:pointless", Emotion::anger},
      {"买了这个有什么用", "买了这个有什么用", "cue:pointless", Emotion::anger},
      {"现在退了还有啥用", "还有啥用", "cue:pointless", Emotion::anger},
      {"到底是哪个支付方式?", "到底是哪个支付方式", "cue:after_all", Emotion::anger},
      {"一点变化都没有", "一点变化都没有", "cue:not_even", Emotion::anger},
      {"这都不可以啊", "这都不可以啊", "cue:not_even", Emotion::anger},
      {"这才几天", "这才几天", "cue:only_days", Emotion::anger},
      {"之前的问题还没解决啊?", "还没解决啊?", "cue:still_unsolved", Emotion::anger},
      {"都两天了", "都两天了", "cue:duration", Emotion::anger},
      {"聊了半天还是机器", "半天还是", "cue:duration", Emotion::anger},
      // A match that ends inside a word takes the whole word (te157 653 traced 一直很卡然后不, cutting 不停).
      {"使用一直很卡然后不停要更新", "一直很卡然后不停", "cue:duration", Emotion::anger},
      {"怎么回事", "怎么回事", "cue:what_is_going_on", Emotion::anger},
      {"冰糕都化了，什么情况啊?", "什么情况啊", "cue:what_is_going_on", Emotion::anger},
      {"额不会吧", "额不会吧", "cue:dismay", Emotion::surprise},
      {"你们这个客服的入口也太不科学了", "太不科学了", "cue:too_un", Emotion::anger},
      {"你好，我刚买的空调又降价了", "又降价", "cue:again", Emotion::anger},
      {"订单被取消了，您是不是又得帮我转专员了", "又得", "cue:again", Emotion::anger},
      {"现在下单七号送没有搞错呀", "没有搞错呀", "cue:mistaken", Emotion::anger},
      {"有没有搞错", "有没有搞错", "cue:mistaken", Emotion::anger},
      {"希望是好的结果不然你知道网络影响力的", "不然你知道网络影响力的", "cue:threat", Emotion::anger},
      {"你们这也没说明", "你们这也没说明", "cue:not_told", Emotion::anger},
      {"总之，我不接受扣款的", "我不接受", "cue:not_accepted", Emotion::anger},
      {"早知道你们没货，我就不定了", "早知道你们没货", "cue:regret", Emotion::sadness},
  };
  for (const Case& c : cases) {
    const auto ms = cues_in(c.text);
    ASSERT_EQ(ms.size(), 1u) << c.text;
    EXPECT_EQ(ms[0].expression, c.expression) << c.text;
    EXPECT_EQ(ms[0].source, c.source) << c.text;
    EXPECT_EQ(ms[0].emotion, c.emotion) << c.text;
    EXPECT_EQ(ms[0].kind, MentionKind::report) << c.text;
    EXPECT_TRUE(ms[0].expressed) << c.text;
    EXPECT_EQ(ms[0].turn, 3);
  }
}

TEST(EmotionCues, ChineseLookAlikesAreNoCue) {
  // "How is it going" and "what to do" are questions, "these two days" a time, "that does not
  // matter" a reassurance; "what is that card for" asks in earnest, and so does "how do I repay"
  // (怎么还款: 还 is "repay", not "still").
  for (const char* text : {"现在怎么样了", "那怎么办了", "这两天会到吗", "这都没关系的", "咋样了", "那个卡有什么用",
                           "那保修卡有什么用", "白条怎么还款", "怎么还钱给你们",
                           // Asked about, not exclaimed: "as long as I know what happened", "or what is it",
                           // "in what case".
                           "算了，知道怎么回事就行了", "是重新发了一个，还是怎么回事", "什么情况下配送能给你回应",
                           "不会吧你们下午到",
                           // A fact, not a complaint: the address is right; "or else I collect it myself".
                           "地址没搞错", "不然我自己去取吧"})
    EXPECT_TRUE(cues_in(text).empty()) << text;
}

TEST(EmotionCues, EnglishConstructionsIgnoreCaseAndCurlyApostrophes) {
  const auto why = cues_in("Why does it take 3 weeks to refund me?");
  ASSERT_EQ(why.size(), 1u);
  EXPECT_EQ(why[0].expression, "Why does it take 3 weeks to refund me?");
  const auto still = cues_in("I STILL haven’t received my parcel");
  ASSERT_EQ(still.size(), 1u);
  EXPECT_EQ(still[0].source, "cue:still_not");
  const auto heard = cues_in("I have not heard back from anyone");
  ASSERT_EQ(heard.size(), 1u);
  EXPECT_EQ(heard[0].source, "cue:no_answer");
}

TEST(EmotionCues, RankBelowNamedFeelingsAndAboveRequests) {
  const auto ms = detect_emotions("为什么还不发货，气死我了，快点", default_lexicon());
  float cue = -1, feeling = -1, request = -1;
  for (const auto& m : ms) {
    if (m.source.rfind("cue:", 0) == 0) cue = m.strength;
    else if (m.kind == MentionKind::feeling) feeling = m.strength;
    else if (m.kind == MentionKind::request) request = m.strength;
  }
  ASSERT_GT(cue, 0.0f);
  EXPECT_GT(feeling, cue);
  EXPECT_GT(cue, request);
}

TEST(EmotionCues, EnglishCuesAreOffByDefault) {
  for (const auto& m : detect_emotions("Why does it take 3 weeks to refund me?", default_lexicon()))
    EXPECT_NE(m.source.rfind("cue:", 0), 0u);
}

TEST(EmotionCues, NeverInAgentTurnsOrOtherLanguagesOrOverALexiconExpression) {
  EXPECT_TRUE(cues_in("为什么还没发货", /*customer=*/false).empty());
  EXPECT_TRUE(cues_in("¿Por qué no llega mi pedido? ¿Cuándo?").empty());
  EXPECT_TRUE(cues_in("恐怕要明天").empty());  // 恐怕 hedges; it is not 怕
  // 还没收到 is a lexicon report: the rhetorical cue around it is not added on top.
  const auto ms = detect_emotions("怎么还没收到", default_lexicon());
  for (std::size_t i = 0; i + 1 < ms.size(); ++i) EXPECT_LE(ms[i].char_end, ms[i + 1].char_start);
  DetectOptions off;
  off.implicit_cues = false;
  for (const auto& m : detect_emotions("为什么完全走错了地方", default_lexicon(), -1, off))
    EXPECT_NE(m.source.rfind("cue:", 0), 0u);
}

// Rule 8: the resignation mention of a customer turn after an agent turn (after_other_turn).
std::vector<EmotionMention> resigned_in(const std::string& text, const std::string& agent_turn,
                                        bool customer = true) {
  DetectOptions o;
  o.customer_turn = customer;
  o.after_other_turn = agent_turn;
  std::vector<EmotionMention> out;
  for (EmotionMention& m : detect_emotions(text, default_lexicon(), 5, o))
    if (m.source == "cue:resigned") out.push_back(std::move(m));
  return out;
}

TEST(EmotionCues, GivingInAfterARefusalIsMildSadness) {
  const std::string refusal = "这个没有办法修改呢";
  struct Case {
    const char* text;
    const char* expression;
  };
  for (const Case& c : {Case{"好吧", "好吧"}, Case{"哦，好吧", "好吧"}, Case{"好吧没事咯", "好吧"},
                        Case{"那只能这样了，我去别家买", "那只能这样"}, Case{"。。好吧", "好吧"}}) {
    const auto ms = resigned_in(c.text, refusal);
    ASSERT_EQ(ms.size(), 1u) << c.text;
    EXPECT_EQ(ms[0].expression, c.expression) << c.text;
    EXPECT_EQ(ms[0].emotion, Emotion::sadness);
    EXPECT_TRUE(ms[0].expressed);
    EXPECT_EQ(ms[0].kind, MentionKind::report);
    EXPECT_EQ(ms[0].turn, 5);
    // Below a mild cue: a worry or a rhetorical question elsewhere says more of what the customer feels.
    EXPECT_LT(ms[0].strength, cues_in("为什么还没发货")[0].strength) << c.text;
  }
  // The polite 好吧 it replaces is not returned beside it.
  DetectOptions o;
  o.after_other_turn = refusal;
  EXPECT_EQ(detect_emotions("好吧", default_lexicon(), 5, o).size(), 1u);
}

TEST(EmotionCues, NewsNotAskedForIsGivenInToToo) {
  // The labelled sets mark 好吧 after such turns as sadness 1, not only after a refusal.
  for (const char* news : {"预计明天会为您送达哦", "这个地址是商家仓发货哦", "价格受市场影响会有所波动呢，还请您理解"})
    EXPECT_EQ(resigned_in("好吧", news).size(), 1u) << news;
}

TEST(EmotionCues, NoResignationWithoutSomethingToGiveInTo) {
  EXPECT_TRUE(resigned_in("好吧", "您看可以吗？").empty());           // after a question it consents
  EXPECT_TRUE(resigned_in("好吧", "亲爱的").empty());                 // addressing tells nothing
  EXPECT_TRUE(resigned_in("好吧", "对的呢").empty());                 // nor does a yes
  EXPECT_TRUE(resigned_in("好吧", "http://help.jd.com/user").empty());  // nor a link
  EXPECT_TRUE(resigned_in("好吧那我能申请取消吗", "这个没有办法修改呢").empty());  // a new question
  EXPECT_TRUE(resigned_in("我再等等吧", "这个没有办法修改呢").empty());  // no resignation word opens it
  EXPECT_TRUE(resigned_in("好吧", "这个没有办法修改呢", /*customer=*/false).empty());
  DetectOptions first;  // no agent turn before it: an acknowledgement
  for (const auto& m : detect_emotions("好吧", default_lexicon(), 0, first)) EXPECT_NE(m.source, "cue:resigned");
  // The lexicon's own resignations (judgements, stronger) are not found again.
  DetectOptions o;
  o.after_other_turn = std::string_view("这个没有办法修改呢");
  for (const char* judgement : {"算了", "行吧", "那好吧"}) {
    const auto ms = detect_emotions(judgement, default_lexicon(), 0, o);
    ASSERT_EQ(ms.size(), 1u) << judgement;
    EXPECT_TRUE(ms[0].expressed) << judgement;
    EXPECT_EQ(ms[0].kind, MentionKind::judgement) << judgement;
  }
}

// Rule 9: praise said in sarcasm is anger.
const EmotionMention* praise_in(const std::vector<EmotionMention>& ms, const std::string& term) {
  for (const EmotionMention& m : ms)
    if (m.term == term) return &m;
  return nullptr;
}

std::vector<EmotionMention> detect_after(const std::string& text, const std::string& agent_turn = "") {
  DetectOptions o;
  o.customer_turn = true;
  if (!agent_turn.empty()) o.after_other_turn = agent_turn;
  return detect_emotions(text, default_lexicon(), 4, o);
}

TEST(EmotionCues, SarcasticPraiseIsAnger) {
  // Beside a complaint in the same turn.
  auto ms = detect_after("@nationalrailenq Great the 9:11 has been cancelled anyways \U0001F62D");
  const EmotionMention* m = praise_in(ms, "Great");
  ASSERT_NE(m, nullptr);
  EXPECT_EQ(m->emotion, Emotion::anger);
  EXPECT_EQ(m->polarity, Polarity::negative);
  EXPECT_TRUE(m->expressed);
  // Alone, after the agent's bad news.
  ms = detect_after("@nationalrailenq Fabulous", "Unfortunately we have now received reports of a signalling issue");
  m = praise_in(ms, "Fabulous");
  ASSERT_NE(m, nullptr);
  EXPECT_EQ(m->emotion, Emotion::anger);
  ms = detect_after("Software that updates and you loose all your settings, they fucking suck. Well done #Adobe.");
  m = praise_in(ms, "Well done");
  ASSERT_NE(m, nullptr);
  EXPECT_EQ(m->emotion, Emotion::anger);
  // Loving *how* something is done, with no other complaint in the turn (TweetSumm train c472e3f7).
  ms = detect_after("I love how @TMobileHelp can not help their customer out");
  m = praise_in(ms, "love");
  ASSERT_NE(m, nullptr);
  EXPECT_EQ(m->emotion, Emotion::anger);
  EXPECT_EQ(m->polarity, Polarity::negative);
  // Loving a thing stays love.
  ms = detect_after("I love the new app");
  ASSERT_NE(praise_in(ms, "love"), nullptr);
  EXPECT_NE(praise_in(ms, "love")->emotion, Emotion::anger);
}

TEST(EmotionCues, PraiseStaysJoyWithoutAComplaintOrWhenItPraisesSomething) {
  // No complaint, and an agent's "Sorry for the delay" is no bad news.
  auto ms = detect_after("@British_Airways Fabulous", "Sorry for the delay, your refund has been processed");
  ASSERT_NE(praise_in(ms, "Fabulous"), nullptr);
  EXPECT_EQ(praise_in(ms, "Fabulous")->emotion, Emotion::joy);
  // A noun it praises: genuine, whatever else the turn says.
  ms = detect_after("Great service at the store but my order is late and I'm furious");
  ASSERT_NE(praise_in(ms, "Great"), nullptr);
  EXPECT_EQ(praise_in(ms, "Great")->emotion, Emotion::joy);
  // Not opening its sentence.
  ms = detect_after("The staff were fabulous, the train was awful");
  ASSERT_NE(praise_in(ms, "fabulous"), nullptr);
  EXPECT_EQ(praise_in(ms, "fabulous")->emotion, Emotion::joy);
}

}  // namespace
}  // namespace kessel::text
