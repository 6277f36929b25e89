// The plain-text transcript format (DialogueFormat::transcript): labels, timestamps, separators,
// continuation lines, errors that name the line, and detection beside the JSONL formats.
#include <gtest/gtest.h>

#include <string>

#include "kessel/error.h"
#include "kessel/text/dialogue.h"

namespace kessel::text {
namespace {

ReadResult read(const std::string& content, const ReadOptions& o = {}) {
  return read_dialogues_from_string(content, "t.txt", o);
}

std::string parse_error(const std::string& content, const ReadOptions& o = {}) {
  try {
    read(content, o);
  } catch (const ParseError& e) {
    return e.what();
  }
  ADD_FAILURE() << "expected ParseError for: " << content;
  return "";
}

TEST(Transcript, ReadsChineseAndEnglishLabelsWithBothColons) {
  const ReadResult r = read("用户: 我的快递三天了还没到，气死我了！\n客服：非常抱歉，请提供订单号。\ncustomer: ok\nAGENT:  Thanks.\n");
  EXPECT_EQ(r.format, DialogueFormat::transcript);
  ASSERT_EQ(r.dialogues.size(), 1u);
  const Dialogue& d = r.dialogues[0];
  EXPECT_EQ(d.id, "line1");
  EXPECT_EQ(d.format, DialogueFormat::transcript);
  ASSERT_EQ(d.turns.size(), 4u);
  EXPECT_EQ(d.turns[0].speaker, Speaker::customer);
  EXPECT_EQ(d.turns[0].text, "我的快递三天了还没到，气死我了！");
  EXPECT_EQ(d.turns[0].role, "用户");
  EXPECT_EQ(d.turns[1].speaker, Speaker::agent);
  EXPECT_EQ(d.turns[1].text, "非常抱歉，请提供订单号。");
  EXPECT_EQ(d.turns[2].speaker, Speaker::customer);
  EXPECT_EQ(d.turns[3].speaker, Speaker::agent);
  EXPECT_EQ(d.turns[3].text, "Thanks.");
  EXPECT_EQ(d.turns[3].role, "AGENT");
  EXPECT_FALSE(d.turns[0].time.has_value());
  EXPECT_FALSE(d.turns[0].sentences.empty());
}

TEST(Transcript, ReadsTheAliases) {
  const ReadResult r = read(
      "顾客: a\n坐席: b\n客户: c\n商家: d\nUser: e\nSupport: f\nClient: g\nStaff: h\n买家: i\n卖家: j\n"
      "Caller: k\nCustomer Service: l\ncUsToMeR: m\n人工客服: n\nUSER: o\nOperator: p\n用户: q\nSeller: r\n");
  ASSERT_EQ(r.dialogues.size(), 1u);
  const auto& t = r.dialogues[0].turns;
  ASSERT_EQ(t.size(), 18u);
  for (std::size_t i = 0; i < t.size(); ++i)
    EXPECT_EQ(t[i].speaker, i % 2 == 0 ? Speaker::customer : Speaker::agent) << "turn " << i << ": " << t[i].role;
}

TEST(Transcript, ALabelMayNameThePersonInBrackets) {
  const ReadResult r = read("用户(张三): 在吗\n客服（小王）：在的\nAgent [Sam]: hi\n客服【小李】: 好\n");
  const auto& t = r.dialogues.at(0).turns;
  ASSERT_EQ(t.size(), 4u);
  EXPECT_EQ(t[0].speaker, Speaker::customer);
  EXPECT_EQ(t[0].role, "用户(张三)");
  EXPECT_EQ(t[1].speaker, Speaker::agent);
  EXPECT_EQ(t[1].text, "在的");
  EXPECT_EQ(t[2].speaker, Speaker::agent);
  EXPECT_EQ(t[3].speaker, Speaker::agent);
  EXPECT_NE(parse_error("# id: a\nBot (Sam): hi\n").find("\"Bot (Sam)\" is not a speaker label"), std::string::npos);
}

TEST(Transcript, ReadsTimestamps) {
  const ReadResult r = read("[10:32] 用户: 在吗\n[10:32:30] 客服: 在的\n10:33 用户: 好\n");
  const auto& t = r.dialogues.at(0).turns;
  ASSERT_EQ(t.size(), 3u);
  EXPECT_DOUBLE_EQ(*t[0].time, 10 * 3600 + 32 * 60);
  EXPECT_DOUBLE_EQ(*t[1].time, 10 * 3600 + 32 * 60 + 30);
  EXPECT_DOUBLE_EQ(*t[2].time, 10 * 3600 + 33 * 60);
  EXPECT_EQ(t[2].text, "好");

  const ReadResult dated = read(
      "2024-01-01 10:32:05 Customer: hi\n[2024-01-01 10:33] Agent: hello\n2024-01-01T10:34:00Z Customer: bye\n");
  const auto& u = dated.dialogues.at(0).turns;
  ASSERT_EQ(u.size(), 3u);
  EXPECT_DOUBLE_EQ(*u[0].time, *parse_iso8601("2024-01-01T10:32:05Z"));
  EXPECT_DOUBLE_EQ(*u[1].time, *parse_iso8601("2024-01-01T10:33:00Z"));
  EXPECT_DOUBLE_EQ(*u[2].time, *parse_iso8601("2024-01-01T10:34:00Z"));
  EXPECT_EQ(u[0].text, "hi");
}

TEST(Transcript, ATimeOfDayThatGoesBackIsTheNextDay) {
  const ReadResult r = read("[23:59] 用户: 在吗\n[00:01] 客服: 在的\n");
  const auto& t = r.dialogues.at(0).turns;
  EXPECT_DOUBLE_EQ(*t[1].time - *t[0].time, 120.0);
}

TEST(Transcript, DatedAndUndatedTurnsInOneDialogueAreAnError) {
  EXPECT_NE(parse_error("[10:32] 用户: a\n[2024-01-01 10:33] 客服: b\n").find("t.txt:2: time:"), std::string::npos);
}

TEST(Transcript, UnlabelledLinesContinueTheTurnAbove) {
  const ReadResult r = read("Customer: My order\nnever arrived.\n\nOrder: 12345\nAgent: Sorry.\n");
  const auto& t = r.dialogues.at(0).turns;
  ASSERT_EQ(t.size(), 2u);
  EXPECT_EQ(t[0].text, "My order\nnever arrived.\nOrder: 12345");
  EXPECT_EQ(t[1].text, "Sorry.");
}

TEST(Transcript, ALabelWithNoTextTakesTheLinesBelow) {
  const ReadResult r = read("用户:\n  我的快递没到\n客服: 抱歉\n");
  const auto& t = r.dialogues.at(0).turns;
  EXPECT_EQ(t.at(0).text, "我的快递没到");
}

TEST(Transcript, SeparatorsAndHeadersSplitDialogues) {
  const ReadResult r = read(
      "# id: zh-1\n用户: 在吗\n客服: 在的\n---\nCustomer: hi\nAgent: hello\n-----\n#ID： en-2\nCustomer: a\nAgent: b\n");
  ASSERT_EQ(r.dialogues.size(), 3u);
  EXPECT_EQ(r.dialogues[0].id, "zh-1");
  EXPECT_EQ(r.dialogues[0].line, 1);
  EXPECT_EQ(r.dialogues[1].id, "line5");
  EXPECT_EQ(r.dialogues[1].line, 5);
  EXPECT_EQ(r.dialogues[2].id, "en-2");
  EXPECT_EQ(r.dialogues[2].turns.size(), 2u);
  EXPECT_EQ(r.lines, 10);  // non-blank lines
}

TEST(Transcript, ErrorsNameTheLine) {
  EXPECT_NE(parse_error("Customer: hi\n---\nhello there\nAgent: x\n").find("t.txt:3: label: no speaker label"),
            std::string::npos);
  const std::string unknown = parse_error("# id: a\nBot: hi\n");
  EXPECT_NE(unknown.find("t.txt:2: label: \"Bot\" is not a speaker label"), std::string::npos) << unknown;
  EXPECT_NE(unknown.find("用户"), std::string::npos);
  EXPECT_NE(parse_error("# id: a\n# id: b\n用户: x\n").find("t.txt:1: turns: empty dialogue"), std::string::npos);
  EXPECT_NE(parse_error("#id:\n用户: x\n").find("t.txt:1: id:"), std::string::npos);
  EXPECT_NE(parse_error("用户: a\n客服:\n").find("t.txt:2: text: the turn has no text"), std::string::npos);
  EXPECT_NE(parse_error("# id: a\n用户: x\n# id: a\n用户: y\n").find("t.txt:3: id: \"a\" is also the id of line 1"),
            std::string::npos);
  EXPECT_NE(parse_error("用户: a\n\xff\n").find("t.txt:2: text: invalid UTF-8 at byte offset 0"), std::string::npos);
}

TEST(Transcript, SkipDropsTheBadDialogueOnly) {
  ReadOptions o;
  o.on_error = OnError::skip;
  const ReadResult r = read("# id: a\nBot: hi\nCustomer: x\n---\nCustomer: ok\nAgent: fine\n", o);
  ASSERT_EQ(r.dialogues.size(), 1u);
  EXPECT_EQ(r.dialogues[0].id, "line5");
  ASSERT_EQ(r.skipped.size(), 1u);
  EXPECT_EQ(r.skipped[0].line, 2);
}

TEST(Transcript, DetectionLeavesJsonlAlone) {
  EXPECT_EQ(detect_dialogue_format("\xEF\xBB\xBF\n[10:32] 用户: 在吗\n", "m"), DialogueFormat::transcript);
  EXPECT_EQ(detect_dialogue_format("---\nCustomer: hi\n", "m"), DialogueFormat::transcript);
  EXPECT_EQ(detect_dialogue_format("# id: x\nCustomer: hi\n", "m"), DialogueFormat::transcript);
  EXPECT_EQ(detect_dialogue_format(R"({"id": "a", "turns": [{"speaker": "customer", "text": "用户: x"}]})", "m"),
            DialogueFormat::kessel);
  EXPECT_EQ(detect_dialogue_format("\n{\"Dialogue\": []}\n", "m"), DialogueFormat::csds);
  // Prose is no transcript: the JSONL reader's error stands.
  EXPECT_THROW(detect_dialogue_format("hello there\n", "m"), ParseError);
  EXPECT_NE(parse_error("Bot: hi\n").find("nor is it a plain-text transcript"), std::string::npos);
  EXPECT_EQ(parse_error("{\"id\": 1,\n").find("transcript"), std::string::npos);
  EXPECT_EQ(parse_dialogue_format("transcript"), DialogueFormat::transcript);
  EXPECT_STREQ(to_string(DialogueFormat::transcript), "transcript");
}

TEST(Transcript, ANamedFormatIsReadAsTranscript) {
  ReadOptions o;
  o.format = DialogueFormat::transcript;
  EXPECT_EQ(read("Customer: hi\n", o).dialogues.at(0).turns.at(0).text, "hi");
  EXPECT_NE(parse_error(R"({"id": "a"})", o).find("t.txt:1: label:"), std::string::npos);
}

}  // namespace
}  // namespace kessel::text
