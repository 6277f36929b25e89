#include "kessel/text/emotion.h"

#include <gtest/gtest.h>

#include <cmath>

#include "kessel/error.h"
#include "kessel/text/lexicon.h"
#include "text/test_paths.h"

namespace kessel::text {
namespace {

const Lexicon& default_lexicon() {
  static const Lexicon lex = load_default_lexicon(testing::lexicon_dir());
  return lex;
}

const EmotionMention* find(const std::vector<EmotionMention>& ms, const std::string& term) {
  for (const auto& m : ms) {
    if (m.term == term) return &m;
  }
  return nullptr;
}

TEST(Wheel, CoordinatesFollowTheDocumentedOrder) {
  const WheelPoint joy = wheel_coordinate(Emotion::joy, 1.0f);
  EXPECT_NEAR(joy.x, 1.0f, 1e-6);
  EXPECT_NEAR(joy.y, 0.0f, 1e-6);
  const WheelPoint fear = wheel_coordinate(Emotion::fear, 0.5f);  // 90 degrees
  EXPECT_NEAR(fear.x, 0.0f, 1e-6);
  EXPECT_NEAR(fear.y, 0.5f, 1e-6);
  const WheelPoint disgust = wheel_coordinate(Emotion::disgust, 1.0f);  // 225 degrees
  EXPECT_NEAR(disgust.x, -std::sqrt(0.5f), 1e-6);
  EXPECT_NEAR(disgust.y, -std::sqrt(0.5f), 1e-6);
  for (Emotion e : kAllEmotions) {
    const WheelPoint a = wheel_coordinate(e, 0.8f), b = wheel_coordinate(opposite(e), 0.8f);
    EXPECT_NEAR(a.x + b.x, 0.0f, 1e-6) << to_string(e);
    EXPECT_NEAR(a.y + b.y, 0.0f, 1e-6) << to_string(e);
    EXPECT_EQ(parse_emotion(to_string(e)), e);
  }
  EXPECT_THROW(wheel_coordinate(Emotion::joy, 1.5f), InvalidArgument);
  EXPECT_THROW(wheel_coordinate(Emotion::joy, NAN), InvalidArgument);
  EXPECT_FALSE(parse_emotion("love").has_value());
}

TEST(DefaultLexicon, LoadsAllThreeFilesWithSlang) {
  const Lexicon& lex = default_lexicon();
  EXPECT_GT(lex.size(), 700u);
  for (const char* t : {"栓Q",
                        "芭比Q了",
                        "气死我了",
                        "无语",
                        "服了",
                        "坑人",
                        "垃圾",
                        "太慢了",
                        "急死了",
                        "失望",
                        "投诉",
                        "smh",
                        "wtf",
                        "ugh",
                        "ridiculous",
                        "furious",
                        "disappointed",
                        "unacceptable",
                        "😡",
                        "😭",
                        "🙄",
                        "👍",
                        "🙏",
                        "❤️",
                        "😤",
                        "💔",
                        ":(",
                        "T_T"}) {
    EXPECT_TRUE(lex.contains(t)) << t;
  }
  EXPECT_EQ(lex.primary("气死我了")->emotion, Emotion::anger);
  EXPECT_EQ(lex.primary("❤")->emotion, Emotion::joy);  // variation selector ignored
  EXPECT_EQ(lex.primary("SMH")->emotion, lex.primary("smh")->emotion);
  EXPECT_NE(lex.identity().find("default:"), std::string::npos);
}

TEST(Detect, ChineseSlangWithOffsetsAndWheel) {
  const std::string text = "快递三天没到，气死我了😡";
  const auto ms = detect_emotions(text, default_lexicon(), 4);
  const EmotionMention* m = find(ms, "气死我了");
  ASSERT_NE(m, nullptr);
  EXPECT_EQ(m->turn, 4);
  EXPECT_EQ(m->char_start, 7);
  EXPECT_EQ(m->char_end, 11);
  EXPECT_EQ(text.substr(static_cast<std::size_t>(m->byte_start),
                        static_cast<std::size_t>(m->byte_end - m->byte_start)),
            "气死我了");
  EXPECT_EQ(m->emotion, Emotion::anger);
  EXPECT_TRUE(m->expressed);
  EXPECT_EQ(m->source, "default");
  const WheelPoint w = wheel_coordinate(Emotion::anger, m->intensity);
  EXPECT_FLOAT_EQ(m->wheel.x, w.x);
  EXPECT_FLOAT_EQ(m->wheel.y, w.y);
  const EmotionMention* e = find(ms, "😡");
  ASSERT_NE(e, nullptr);
  EXPECT_EQ(e->emotion, Emotion::anger);
  EXPECT_EQ(e->char_start, 11);
}

TEST(Detect, NegatorsDoNotNegateEmoji) {
  // "nobody" is a negator for words ("nobody is happy") but an emoji after it still shows anger.
  const auto ms = detect_emotions("nobody told me 😡 and I am not happy", default_lexicon(), 0);
  bool emoji = false, flipped = false;
  for (const auto& m : ms) {
    if (m.term == "😡") emoji = m.expressed && !m.negated && m.emotion == Emotion::anger;
    if (m.term == "happy") flipped = m.negated && m.emotion == Emotion::sadness;
  }
  EXPECT_TRUE(emoji);
  EXPECT_TRUE(flipped);
}

TEST(Detect, PositiveTermsBesideThanksAreCourtesy) {
  Lexicon lex;
  lex.add("great", LexiconEntry{Emotion::joy, 0.7f, Polarity::positive, "test"});
  lex.add("useless", LexiconEntry{Emotion::disgust, 0.7f, Polarity::negative, "test"});
  lex.add("开心", LexiconEntry{Emotion::joy, 0.7f, Polarity::positive, "default"});
  lex.add(":)", LexiconEntry{Emotion::joy, 0.5f, Polarity::positive, "test"});
  auto expressed = [&](std::string_view text) {
    std::vector<std::string> out;
    for (const auto& m : detect_emotions(text, lex, 0))
      if (m.expressed) out.push_back(m.term);
    return out;
  };
  using V = std::vector<std::string>;
  EXPECT_EQ(expressed("Great, thanks!"), V{});
  EXPECT_EQ(expressed("thank you :)"), V{});
  EXPECT_EQ(expressed("好的谢谢，开心"), V{});
  // Another sentence, a negative term, or a positive term negated into a negative one still count.
  EXPECT_EQ(expressed("Great. Thanks"), V{"Great"});
  EXPECT_EQ(expressed("thanks for nothing, useless"), V{"useless"});
  EXPECT_EQ(expressed("not great, thanks"), V{"great"});
  EXPECT_EQ(expressed("开心！谢谢"), V{"开心"});
}

TEST(Detect, PoliteFormulasNeverCount) {
  Lexicon lex;
  lex.add("谢谢", LexiconEntry{Emotion::joy, 0.7f, Polarity::positive, "test"});
  lex.add("thanks", LexiconEntry{Emotion::joy, 0.7f, Polarity::positive, "test"});
  lex.add("sorry", LexiconEntry{Emotion::sadness, 0.6f, Polarity::negative, "test"});
  lex.add("愉快", LexiconEntry{Emotion::joy, 0.7f, Polarity::positive, "test"});
  const auto ms = detect_emotions("谢谢 thanks, sorry", lex, 0);
  ASSERT_EQ(ms.size(), 3u);
  EXPECT_TRUE(ms[0].polite);
  EXPECT_FALSE(ms[0].expressed);
  EXPECT_FALSE(ms[1].expressed);
  EXPECT_TRUE(ms[2].polite);  // an apology is courtesy from either side ("sorry for the late reply")
  EXPECT_FALSE(ms[2].expressed);
  DetectOptions agent;
  agent.customer_turn = false;
  const auto ma = detect_emotions("sorry", lex, 1, agent);
  ASSERT_EQ(ma.size(), 1u);
  EXPECT_TRUE(ma[0].polite);
  EXPECT_FALSE(ma[0].expressed);
  // The closing formula is consumed whole, so 愉快 inside it is not a mention.
  EXPECT_TRUE(detect_emotions("祝您生活愉快", lex, 2).empty());
}

TEST(Detect, NegationFlipsPositiveAndDropsNegative) {
  const Lexicon& lex = default_lexicon();
  const auto happy = detect_emotions("I am not happy at all", lex);
  ASSERT_EQ(happy.size(), 1u);
  EXPECT_TRUE(happy[0].negated);
  EXPECT_EQ(happy[0].emotion, Emotion::sadness);
  EXPECT_EQ(happy[0].polarity, Polarity::negative);
  EXPECT_FLOAT_EQ(happy[0].intensity, lex.primary("happy")->intensity * 0.5f);
  EXPECT_TRUE(detect_emotions("I'm not angry", lex).empty());
  EXPECT_TRUE(detect_emotions("don't worry", lex).empty());
  const auto zh = detect_emotions("一点也不开心", lex);
  ASSERT_EQ(zh.size(), 1u);
  EXPECT_EQ(zh[0].emotion, Emotion::sadness);
  // A negator beyond punctuation does not reach the term.
  const auto far = detect_emotions("not now. happy", lex);
  ASSERT_EQ(far.size(), 1u);
  EXPECT_FALSE(far[0].negated);
  // Negators inside a lexicon term are part of it.
  const auto inner = detect_emotions("真的不满意", lex);
  ASSERT_EQ(inner.size(), 1u);
  EXPECT_EQ(inner[0].term, "不满意");
  EXPECT_FALSE(inner[0].negated);
}

TEST(Detect, ThresholdAndNeutralPolarity) {
  Lexicon lex;
  lex.add("meh", LexiconEntry{Emotion::disgust, 0.2f, Polarity::negative, "test"});
  lex.add("whoa", LexiconEntry{Emotion::surprise, 0.9f, Polarity::neutral, "test"});
  const auto ms = detect_emotions("meh whoa", lex);
  ASSERT_EQ(ms.size(), 2u);
  EXPECT_FALSE(ms[0].expressed);  // below min_intensity
  EXPECT_FALSE(ms[1].expressed);  // neutral polarity
  DetectOptions low;
  low.min_intensity = 0.1f;
  EXPECT_TRUE(detect_emotions("meh", lex, 0, low)[0].expressed);
  low.negation_window = -1;
  EXPECT_THROW(detect_emotions("meh", lex, 0, low), InvalidArgument);
}

TEST(Detect, EmojiWithSkinToneFallsBackToBase) {
  const auto ms = detect_emotions("ok 👍🏽", default_lexicon());
  ASSERT_EQ(ms.size(), 1u);
  EXPECT_EQ(ms[0].term, "👍🏽");
  EXPECT_EQ(ms[0].emotion, Emotion::trust);
}

TEST(Detect, EmojiOnlyAndWeiboAndEmoticons) {
  const auto ms = detect_emotions("😭😭💔 [怒] :( T_T", default_lexicon());
  ASSERT_EQ(ms.size(), 6u);
  EXPECT_EQ(ms[3].term, "[怒]");
  EXPECT_EQ(ms[3].emotion, Emotion::anger);
  EXPECT_EQ(ms[4].emotion, Emotion::sadness);
  for (const auto& m : ms) EXPECT_TRUE(m.expressed) << m.term;
}

TEST(Detect, InvalidUtf8Throws) {
  EXPECT_THROW(detect_emotions("bad \xFF", default_lexicon()), ParseError);
}

TEST(LexiconTsv, MalformedLinesNameFileLineAndField) {
  const std::string path = ::testing::TempDir() + "/bad_lexicon.tsv";
  auto write = [&](const std::string& content) {
    FILE* f = std::fopen(path.c_str(), "wb");
    std::fputs(content.c_str(), f);
    std::fclose(f);
  };
  Lexicon lex;
  write("# comment\nok\tjoy\t0.5\tpos\nbad\tlove\t0.5\tpos\n");
  try {
    add_lexicon_tsv(lex, path, "t");
    FAIL();
  } catch (const ParseError& e) {
    EXPECT_EQ(e.line(), 3);
    EXPECT_NE(std::string(e.what()).find("emotion"), std::string::npos);
  }
  write("x\tjoy\t1.5\tpos\n");
  EXPECT_THROW(add_lexicon_tsv(lex, path, "t"), ParseError);
  write("x\tjoy\t0.5\n");
  EXPECT_THROW(add_lexicon_tsv(lex, path, "t"), ParseError);
  write("x\tjoy\t0.5\tsideways\n");
  EXPECT_THROW(add_lexicon_tsv(lex, path, "t"), ParseError);
  write("\xFF\tjoy\t0.5\tpos\n");
  EXPECT_THROW(add_lexicon_tsv(lex, path, "t"), ParseError);
  EXPECT_THROW(add_lexicon_tsv(lex, path + ".missing", "t"), IoError);
  EXPECT_THROW(lex.add("", LexiconEntry{Emotion::joy, 0.5f, Polarity::positive, "t"}),
               InvalidArgument);
  EXPECT_THROW(lex.add("x", LexiconEntry{Emotion::joy, -0.1f, Polarity::positive, "t"}),
               InvalidArgument);
}

}  // namespace
}  // namespace kessel::text
