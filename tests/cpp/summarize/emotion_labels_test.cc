#include "kessel/summarize/emotion_labels.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "kessel/error.h"
#include "kessel/text/dialogue.h"
#include "test_dialogues.h"
#include "text/test_paths.h"

namespace kessel::summarize {
namespace {

using text::Speaker;
using testing::make_dialogue;

std::string write_labels(const std::string& name, const std::string& content) {
  const std::string path = ::testing::TempDir() + "/emotion_labels_" + name + ".jsonl";
  std::ofstream(path) << content;
  return path;
}

// The message of the ParseError that loading `content` throws ("" when none is thrown).
std::string load_error(const std::string& name, const std::string& content) {
  const std::string path = write_labels(name, content);
  try {
    load_emotion_labels(path);
  } catch (const ParseError& e) {
    EXPECT_EQ(e.file(), path);
    return e.what();
  }
  return "";
}

const std::string kGood =
    R"({"id": "d1", "expressions": [{"turn": 0, "start": 9, "end": 13, "emotion": "anger", "intensity": 3, "strongest": true},)"
    R"( {"turn": 2, "start": 0, "end": 4, "emotion": "anger", "intensity": 3, "strongest": false}]})"
    "\n\n"
    R"({"id": 7, "expressions": []})"
    "\n";

TEST(EmotionLabels, LoadsRecordsInOrder) {
  const EmotionLabelSet set = load_emotion_labels(write_labels("good", kGood));
  ASSERT_EQ(set.dialogues.size(), 2u);
  const DialogueLabels* d1 = set.find("d1");
  ASSERT_NE(d1, nullptr);
  ASSERT_EQ(d1->expressions.size(), 2u);
  EXPECT_EQ(d1->expressions[0].emotion, text::Emotion::anger);
  EXPECT_EQ(d1->expressions[0].start, 9);
  EXPECT_EQ(d1->strongest(), &d1->expressions[0]);
  EXPECT_EQ(d1->line, 1);
  ASSERT_NE(set.find("7"), nullptr);  // a numeric id reads as its digits
  EXPECT_EQ(set.find("7")->line, 3);
  EXPECT_EQ(set.find("7")->strongest(), nullptr);
  EXPECT_EQ(set.find("nope"), nullptr);
}

TEST(EmotionLabels, BadFilesNameFileLineAndField) {
  EXPECT_THROW(load_emotion_labels(::testing::TempDir() + "/no_such_labels.jsonl"), IoError);
  const std::string expr = R"("turn": 0, "start": 1, "end": 3, "emotion": "anger")";
  auto one = [&](const std::string& fields) { return R"({"id": "a", "expressions": [{)" + fields + "}]}\n"; };
  std::string e = load_error("json", "{\"id\": \"a\", \"expressions\": [\n");
  EXPECT_NE(e.find(":1: record: bad JSON"), std::string::npos) << e;
  e = load_error("missing", "\n" + one(expr + R"(, "strongest": true)"));
  EXPECT_NE(e.find(":2: expressions[0].intensity: missing"), std::string::npos) << e;
  e = load_error("no_id", R"({"expressions": []})");
  EXPECT_NE(e.find(":1: id: missing"), std::string::npos) << e;
  e = load_error("range", one(expr + R"(, "intensity": 4, "strongest": true)"));
  EXPECT_NE(e.find("expressions[0].intensity: must be 1, 2 or 3, got 4"), std::string::npos) << e;
  e = load_error("none_strongest", one(expr + R"(, "intensity": 2, "strongest": false)"));
  EXPECT_NE(e.find("exactly one expression must be the strongest, 0 are"), std::string::npos) << e;
  e = load_error("two_strongest", R"({"id": "a", "expressions": [{)" + expr + R"(, "intensity": 2, "strongest": true}, {)" +
                                      expr + R"(, "intensity": 1, "strongest": true}]})");
  EXPECT_NE(e.find("exactly one expression must be the strongest, 2 are"), std::string::npos) << e;
  e = load_error("emotion", one(R"("turn": 0, "start": 1, "end": 3, "emotion": "rage", "intensity": 2, "strongest": true)"));
  EXPECT_NE(e.find("expressions[0].emotion: 'rage'"), std::string::npos) << e;
  e = load_error("span", one(R"("turn": 0, "start": 3, "end": 3, "emotion": "anger", "intensity": 2, "strongest": true)"));
  EXPECT_NE(e.find("expressions[0].end: must be > start"), std::string::npos) << e;
  e = load_error("twice", R"({"id": "a", "expressions": []})" "\n" R"({"id": "a", "expressions": []})");
  EXPECT_NE(e.find(":2: id: dialogue 'a' is labelled twice"), std::string::npos) << e;
}

// turn 0: "我的快递三天没到，气死我了！" (气死我了 at code points 9..13); turn 2: "太失望了".
text::Dialogue labelled_dialogue() {
  return make_dialogue({{Speaker::customer, {"我的快递三天没到，", "气死我了！"}},
                        {Speaker::agent, {"非常抱歉，马上为您查询。"}},
                        {Speaker::customer, {"太失望了。"}}},
                       "d1");
}

Summary with_bodies(const Prepared& p, const std::vector<std::pair<int, std::string>>& bodies) {
  Summary s;
  for (const auto& [unit, body] : bodies) {
    SummarySentence x;
    x.unit = unit;
    x.turn = p.units[static_cast<std::size_t>(unit)].turn;
    x.body = body;
    s.sentences.push_back(x);
  }
  return s;
}

TEST(EmotionLabels, StrongestKeptByItsWordsOrAnEqualExpression) {
  const text::Dialogue d = labelled_dialogue();
  const Prepared p = prepare(d, testing::default_lexicon());
  const EmotionLabelSet set = load_emotion_labels(write_labels("kept", kGood));
  const DialogueLabels& labels = *set.find("d1");
  // The strongest's words, with the renderer's 。 for ！.
  EXPECT_TRUE(strongest_kept(p, with_bodies(p, {{1, "气死我了。"}}), labels));
  // The same words from another turn do not count.
  EXPECT_FALSE(strongest_kept(p, with_bodies(p, {{0, "我的快递三天没到。"}, {3, "气死我了。"}}), labels));
  // An expression of the same emotion and intensity counts as kept.
  EXPECT_TRUE(strongest_kept(p, with_bodies(p, {{3, "太失望了。"}}), labels));
  // Not when it is weaker.
  const std::string weaker =
      R"({"id": "d1", "expressions": [{"turn": 0, "start": 9, "end": 13, "emotion": "anger", "intensity": 3, "strongest": true},)"
      R"( {"turn": 2, "start": 0, "end": 4, "emotion": "anger", "intensity": 2, "strongest": false}]})";
  const EmotionLabelSet w = load_emotion_labels(write_labels("weaker", weaker));
  EXPECT_FALSE(strongest_kept(p, with_bodies(p, {{3, "太失望了。"}}), *w.find("d1")));
  EXPECT_THROW(strongest_kept(p, with_bodies(p, {{1, "气死我了。"}}), *set.find("7")), InvalidArgument);
}

TEST(EmotionLabels, TheSameMessageSentAgainKeepsItsExpression) {
  // The labeller marks the first 怎么把我的京豆给吃了?; the summary may show the one sent again.
  const text::Dialogue d = make_dialogue({{Speaker::customer, {"怎么把我的京豆给吃了?"}},
                                          {Speaker::agent, {"您好"}},
                                          {Speaker::customer, {"怎么把我的京豆给吃了?"}},
                                          {Speaker::agent, {"怎么把我的京豆给吃了?"}},
                                          {Speaker::customer, {"怎么把我的京豆给吃了？？"}}},
                                         "r");
  const Prepared p = prepare(d, testing::default_lexicon());
  const EmotionLabelSet set = load_emotion_labels(write_labels(
      "repeat", R"({"id": "r", "expressions": [{"turn": 0, "start": 0, "end": 10, "emotion": "anger", "intensity": 1, "strongest": true}]})"));
  const DialogueLabels& labels = *set.find("r");
  EXPECT_TRUE(strongest_kept(p, with_bodies(p, {{2, "询问怎么把我的京豆给吃了。"}}), labels));
  // Not the agent's echo, nor a message that differs (even in its marks).
  EXPECT_FALSE(strongest_kept(p, with_bodies(p, {{3, "怎么把我的京豆给吃了？"}}), labels));
  EXPECT_FALSE(strongest_kept(p, with_bodies(p, {{4, "怎么把我的京豆给吃了？"}}), labels));
}

// An expression over two units is kept when the summary shows both, one after the other; an
// emoticon, all punctuation, is kept when the summary shows its marks.
TEST(EmotionLabels, AnExpressionOverTwoUnitsOrOfMarksOnly) {
  // turn 0: "不是说是自营吗?" (0..8) "还这么慢" (8..12); turn 2: "where is the album :(" (:( at 19..21).
  const text::Dialogue d = make_dialogue({{Speaker::customer, {"不是说是自营吗?", "还这么慢"}},
                                          {Speaker::agent, {"您好"}},
                                          {Speaker::customer, {"where is the album :("}}},
                                         "m");
  const Prepared p = prepare(d, testing::default_lexicon());
  ASSERT_EQ(p.units[0].turn, 0);
  ASSERT_EQ(p.units[1].turn, 0);
  const EmotionLabelSet set = load_emotion_labels(write_labels(
      "marks",
      R"({"id": "m", "expressions": [{"turn": 0, "start": 0, "end": 12, "emotion": "anger", "intensity": 2, "strongest": true}]})"
      "\n"
      R"({"id": "e", "expressions": [{"turn": 2, "start": 19, "end": 21, "emotion": "sadness", "intensity": 1, "strongest": true}]})"));
  const DialogueLabels& both = *set.find("m");
  EXPECT_TRUE(strongest_kept(p, with_bodies(p, {{0, "询问不是说是自营吗，"}, {1, "还这么慢。"}}), both));
  EXPECT_FALSE(strongest_kept(p, with_bodies(p, {{1, "还这么慢。"}}), both));
  EXPECT_FALSE(strongest_kept(p, with_bodies(p, {{0, "询问不是说是自营吗。"}, {2, "您好。"}, {1, "还这么慢。"}}), both));
  const DialogueLabels& emoticon = *set.find("e");
  EXPECT_TRUE(strongest_kept(p, with_bodies(p, {{3, "where is the album :("}}), emoticon));
  EXPECT_FALSE(strongest_kept(p, with_bodies(p, {{3, "where is the album."}}), emoticon));
}

// English reported speech names the person: the customer's words, reported, are still kept.
TEST(EmotionLabels, AnEnglishReportKeepsTheWordsWithThePersonNamed) {
  // "I worried why you didn't ship" at code points 0..29; "my phone is so messed up" at 0..24.
  const text::Dialogue d = make_dialogue({{Speaker::customer, {"I worried why you didn't ship."}},
                                          {Speaker::agent, {"We will check."}},
                                          {Speaker::customer, {"my phone is so messed up"}},
                                          {Speaker::customer, {"I wish it wasn't so slow"}}},
                                         "e1");
  const Prepared p = prepare(d, testing::default_lexicon());
  const std::string labels_text =
      R"({"id": "e1", "expressions": [{"turn": 0, "start": 0, "end": 29, "emotion": "fear", "intensity": 2, "strongest": true}]})"
      "\n"
      R"({"id": "e2", "expressions": [{"turn": 2, "start": 0, "end": 24, "emotion": "anger", "intensity": 2, "strongest": true}]})"
      "\n"
      R"({"id": "e3", "expressions": [{"turn": 3, "start": 0, "end": 24, "emotion": "anger", "intensity": 2, "strongest": true}]})";
  const EmotionLabelSet set = load_emotion_labels(write_labels("reported", labels_text));
  auto reported = [&](int unit, const std::string& body, bool is_report = true) {
    Summary s = with_bodies(p, {{unit, body}});
    s.sentences[0].reported = is_report;
    return s;
  };
  EXPECT_TRUE(strongest_kept(p, reported(0, "They worried why the company didn't ship."), *set.find("e1")));
  const DialogueLabels& e2 = *set.find("e2");
  EXPECT_TRUE(strongest_kept(p, reported(2, "The customer's phone is so messed up."), e2));
  // Other words are not the expression, and a sentence that is no report must keep them as written.
  EXPECT_FALSE(strongest_kept(p, reported(2, "The customer's phone is broken."), e2));
  EXPECT_FALSE(strongest_kept(p, reported(2, "The customer's phone is so messed up.", false), e2));
  EXPECT_FALSE(strongest_kept(p, reported(0, "They worried why the company shipped."), *set.find("e1")));
  // A verb after a hiss takes -es: "The customer wishes" is "I wish" (TweetSumm train 2d41a1e2).
  EXPECT_TRUE(strongest_kept(p, reported(3, "The customer wishes it wasn't so slow."), *set.find("e3")));
}

TEST(EmotionLabels, LabelsThatDoNotFitTheDialogueAreParseErrors) {
  const text::Dialogue d = labelled_dialogue();
  const Prepared p = prepare(d, testing::default_lexicon());
  for (const std::string expr : {R"("turn": 5, "start": 0, "end": 2)", R"("turn": 1, "start": 0, "end": 2)",
                                 R"("turn": 0, "start": 10, "end": 40)"}) {
    const EmotionLabelSet set = load_emotion_labels(write_labels(
        "fit", R"({"id": "d1", "expressions": [{)" + expr + R"(, "emotion": "anger", "intensity": 2, "strongest": true}]})"));
    EXPECT_THROW(strongest_kept(p, with_bodies(p, {{1, "气死我了。"}}), set.dialogues[0]), ParseError) << expr;
  }
}

TEST(EmotionLabels, DetectionPrecisionAndRecall) {
  const text::Dialogue d = labelled_dialogue();
  const Prepared p = prepare(d, testing::default_lexicon());
  std::size_t expressed = 0;
  bool found = false;
  for (const auto& m : p.mentions)
    if (m.expressed) {
      ++expressed;
      found = found || (m.turn == 0 && m.char_start < 13 && m.char_end > 9);
    }
  ASSERT_TRUE(found) << "the detector no longer finds 气死我了";
  // 气死我了 (detected) and a span of turn 0 the detector is not expected to find: 三天.
  const EmotionLabelSet set = load_emotion_labels(write_labels(
      "detect",
      R"({"id": "d1", "expressions": [{"turn": 0, "start": 9, "end": 13, "emotion": "anger", "intensity": 3, "strongest": true},)"
      R"( {"turn": 0, "start": 4, "end": 6, "emotion": "sadness", "intensity": 1, "strongest": false}]})"));
  DetectionCounts c;
  add_detection(p, set.dialogues[0], c);
  EXPECT_EQ(c.dialogues, 1u);
  EXPECT_EQ(c.labelled, 2u);
  EXPECT_EQ(c.detected, expressed);
  std::size_t in_34 = 0;  // a mention overlapping 三天 would make it found
  for (const auto& m : p.mentions) in_34 += m.expressed && m.turn == 0 && m.char_start < 6 && m.char_end > 4;
  EXPECT_EQ(c.labelled_found, in_34 ? 2u : 1u);
  EXPECT_GE(c.detected_matched, 1u);
  EXPECT_DOUBLE_EQ(c.recall(), static_cast<double>(c.labelled_found) / 2.0);
  EXPECT_DOUBLE_EQ(c.precision(), static_cast<double>(c.detected_matched) / static_cast<double>(expressed));
  // score_detection counts only the dialogues the labels have.
  const DetectionCounts all = score_detection({d, make_dialogue({{Speaker::customer, {"气死了"}}}, "other")},
                                              testing::default_lexicon(), set);
  EXPECT_EQ(all.dialogues, 1u);
  EXPECT_EQ(all.detected, c.detected);
}

// The shipped label files (tests/data/emotion_labels/README.md): the development sets never label an
// evaluation dialogue or one another's, csds_val_dev2.jsonl only labels dialogues of the EACA split's training
// part (the first 620 lines of val.jsonl, whose tods_index is the line number), and every label fits
// its dialogue where the data is present.
TEST(EmotionLabels, ShippedDevSetsAreDisjointAndFitTheData) {
  const std::string dir = text::testing::source_dir() + "/tests/data/emotion_labels/";
  const EmotionLabelSet eval = load_emotion_labels(dir + "csds_val.jsonl");
  const EmotionLabelSet dev = load_emotion_labels(dir + "csds_val_dev.jsonl");
  const EmotionLabelSet dev2 = load_emotion_labels(dir + "csds_val_dev2.jsonl");
  EXPECT_EQ(eval.dialogues.size(), 200u);
  EXPECT_EQ(dev.dialogues.size(), 100u);
  ASSERT_EQ(dev2.dialogues.size(), 150u);
  int with_emotion = 0;
  for (const DialogueLabels& d : dev2.dialogues) {
    EXPECT_EQ(eval.find(d.id), nullptr) << d.id;
    EXPECT_EQ(dev.find(d.id), nullptr) << d.id;
    EXPECT_LT(std::stoi(d.id), 620) << d.id;
    with_emotion += d.strongest() != nullptr;
  }
  EXPECT_EQ(with_emotion, 76);
  for (const DialogueLabels& d : dev.dialogues) EXPECT_EQ(eval.find(d.id), nullptr) << d.id;
  const EmotionLabelSet ts_dev = load_emotion_labels(dir + "tweetsumm_train_dev.jsonl");
  const EmotionLabelSet ts_dev2 = load_emotion_labels(dir + "tweetsumm_train_dev2.jsonl");
  ASSERT_EQ(ts_dev2.dialogues.size(), 60u);
  int ts_with_emotion = 0;
  for (const DialogueLabels& d : ts_dev2.dialogues) {
    EXPECT_EQ(ts_dev.find(d.id), nullptr) << d.id;
    ts_with_emotion += d.strongest() != nullptr;
  }
  EXPECT_EQ(ts_with_emotion, 59);

  const std::string data = text::testing::shared_data_dir();
  if (data.empty() || !std::filesystem::exists(data + "/csds/val.jsonl"))
    GTEST_SKIP() << "shared data not found; set KESSEL_DATA";
  int fitted = 0;
  for (const auto& dlg : text::read_dialogues(data + "/csds/val.jsonl").dialogues)
    if (const DialogueLabels* l = dev2.find(dlg.id)) {
      EXPECT_NO_THROW(check_labels_fit(*l, dlg)) << dlg.id;
      ++fitted;
    }
  EXPECT_EQ(fitted, 150);
}

}  // namespace
}  // namespace kessel::summarize
