// Reads the real data in ../shared/data (or $KESSEL_DATA); every test skips when it is absent.
#include <gtest/gtest.h>

#include <filesystem>

#include "kessel/text/dialogue.h"
#include "kessel/text/emotion.h"
#include "kessel/text/lexicon.h"
#include "text/test_paths.h"

namespace kessel::text {
namespace {

std::string data_file(const std::string& rel) {
  const std::string dir = testing::shared_data_dir();
  if (dir.empty() || !std::filesystem::exists(dir + "/" + rel)) return "";
  return dir + "/" + rel;
}

#define REQUIRE_DATA(var, rel)            \
  const std::string var = data_file(rel); \
  if (var.empty()) GTEST_SKIP() << "shared data not found (" << rel << "); set KESSEL_DATA"

TEST(RealData, CsdsValidation) {
  REQUIRE_DATA(path, "csds/val.jsonl");
  const ReadResult r = read_dialogues(path);
  EXPECT_EQ(r.format, DialogueFormat::csds);
  EXPECT_EQ(r.dialogues.size(), 777u);
  EXPECT_TRUE(r.skipped.empty());
  std::size_t turns = 0, truncated = 0;
  for (const auto& d : r.dialogues) {
    ASSERT_EQ(d.references.size(), 1u) << d.id;
    EXPECT_FALSE(d.references[0].empty()) << d.id;
    turns += d.turns.size();
    for (const auto& t : d.turns) truncated += t.truncated;
  }
  EXPECT_GT(turns, 777u * 10);
  EXPECT_LT(truncated, turns / 10);  // ~8.6% were cut, part of them recovered
}

TEST(RealData, TweetSummSplits) {
  REQUIRE_DATA(train, "tweetsumm/train.jsonl");
  REQUIRE_DATA(valid, "tweetsumm/valid.jsonl");
  const ReadResult t = read_dialogues(train);
  const ReadResult v = read_dialogues(valid);
  EXPECT_EQ(t.format, DialogueFormat::tweetsumm);
  EXPECT_EQ(t.dialogues.size(), 879u);
  EXPECT_EQ(v.dialogues.size(), 110u);
  EXPECT_EQ(t.ignored.size() + v.ignored.size(), 12u);  // null abstractive summaries, reported
  for (const auto& d : v.dialogues) {
    EXPECT_FALSE(d.references.empty()) << d.id;
    EXPECT_FALSE(d.extractive.empty()) << d.id;
  }
}

TEST(RealData, ExternalLexicons) {
  REQUIRE_DATA(dutir, "lexicons/dutir_zh/dutir_emotion_ontology.csv");
  REQUIRE_DATA(nrc, "lexicons/nrc_emolex_en/NRC-Emotion-Lexicon-Wordlevel-v0.92.txt");
  REQUIRE_DATA(esr, "lexicons/emoji/Emoji_Sentiment_Data_v1.0.csv");
  REQUIRE_DATA(ee, "lexicons/emoji/emoji-emotion-3.0.1.json");
  REQUIRE_DATA(emoticon, "lexicons/emoji/emoticon-4.1.0.json");
  Lexicon lex;
  LoadReport rd, rn, rs, re, rm;
  add_dutir(lex, dutir, &rd);
  add_nrc_emolex(lex, nrc, &rn);
  add_emoji_emotion_json(lex, ee, &re);
  add_emoji_sentiment(lex, esr, &rs);
  add_emoticon_json(lex, emoticon, &rm);
  EXPECT_GT(rd.loaded, 27000);
  EXPECT_GT(rn.loaded, 8000);
  EXPECT_EQ(re.loaded, 118);
  EXPECT_GT(rs.loaded, 700);
  EXPECT_GT(rm.loaded, 50);
  // Nothing vanishes silently: every record is loaded or counted with a reason.
  for (const LoadReport* r : {&rd, &rn, &rs, &re, &rm}) {
    std::int64_t reasons = 0;
    for (const auto& [why, n] : r->skip_reasons) reasons += n;
    EXPECT_EQ(reasons, r->skipped) << r->path;
  }
  EXPECT_EQ(lex.primary("愤怒")->emotion, Emotion::anger);
  EXPECT_EQ(lex.primary("angry")->source, "nrc");
  EXPECT_EQ(lex.primary("😠")->emotion, Emotion::anger);    // emoji-emotion name rule
  EXPECT_EQ(lex.primary(">:(")->emotion, Emotion::anger);  // emoticon -> its emoji's entry
  const auto ms = detect_emotions("我非常愤怒，I am furious 😠", lex);
  ASSERT_GE(ms.size(), 3u);
  for (const auto& m : ms) EXPECT_TRUE(m.expressed) << m.term;
}

}  // namespace
}  // namespace kessel::text
