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
      {"我平时不在家，一直联系也没人来修", "一直联系也没", "cue:duration", Emotion::anger},
      {"都不敢在你们京东买了。", "不敢在你们京东买", "cue:boycott", Emotion::anger},
      {"不会要到明年吧", "不会要到明年吧", "cue:worry", Emotion::fear},
      {"我是怕不够", "怕不够", "cue:worry", Emotion::fear},
      {"就是因为颜色不一样就便宜那么多啊?", "那么多", "cue:size", Emotion::surprise},
      {"等也不是，退款也不是", "等也不是，退款也不是", "cue:dilemma", Emotion::anger},
      {"到底什么时候发货", "到底什么时候发货", "cue:rhetorical", Emotion::anger},
      {"这个订单都三天了", "都三天了", "cue:elapsed", Emotion::anger},
      {"买了才[数字]天", "才[数字]天", "cue:elapsed", Emotion::anger},
      {"我问了半天", "问了半天", "cue:waited", Emotion::anger},
      {"这个赠品有什么用", "有什么用", "cue:useless", Emotion::anger},
      {"运费的事你们也没通知", "也没通知", "cue:not_told", Emotion::anger},
      {"这个结果我不接受", "不接受", "cue:refuse", Emotion::anger},
      {"再不发货那我就退了", "那我就退", "cue:threat", Emotion::anger},
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

}  // namespace
}  // namespace kessel::text
