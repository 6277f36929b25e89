#include "kessel/text/dialogue.h"

#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "kessel/error.h"
#include "kessel/text/utf8.h"
#include "text/odd_text.h"
#include "text/test_paths.h"

namespace kessel::text {
namespace {

std::string expect_parse_error(const std::string& content, const ReadOptions& o = {}) {
  try {
    read_dialogues_from_string(content, "mem.jsonl", o);
  } catch (const ParseError& e) {
    return e.what();
  }
  ADD_FAILURE() << "expected ParseError for: " << content;
  return "";
}

TEST(Dialogue, ReadsCsdsPreferringRecoveredUtterances) {
  const std::string line =
      R"({"tods_index": 3, "Dialogue": [{"speaker": "Q", "role": "用户", "utterance": "我的快递没到", "truncated": false},)"
      R"( {"speaker": "A", "role": "客服", "utterance": "本来想给您带来阳光般的服务，却", "truncated": true, "utterance_recovered": "本来想给您带来阳光般的服务，却不小心给了您一片乌云。"},)"
      R"( {"speaker": "A", "utterance": "请稍等", "truncated": true}],)"
      R"( "TopicSumm": [{"Topic": "物流", "QASumm": "用户询问快递。"}, {"Topic": "x", "QASumm": "客服道歉。"}]})";
  const ReadResult r = read_dialogues_from_string(line + "\n", "mem.jsonl");
  EXPECT_EQ(r.format, DialogueFormat::csds);
  ASSERT_EQ(r.dialogues.size(), 1u);
  const Dialogue& d = r.dialogues[0];
  EXPECT_EQ(d.id, "3");
  ASSERT_EQ(d.turns.size(), 3u);
  EXPECT_EQ(d.turns[0].speaker, Speaker::customer);
  EXPECT_EQ(d.turns[1].speaker, Speaker::agent);
  EXPECT_EQ(d.turns[1].text, "本来想给您带来阳光般的服务，却不小心给了您一片乌云。");
  EXPECT_FALSE(d.turns[1].truncated);
  EXPECT_TRUE(d.turns[2].truncated);
  ASSERT_EQ(d.references.size(), 1u);
  EXPECT_EQ(d.references[0], (std::vector<std::string>{"用户询问快递。", "客服道歉。"}));
}

TEST(Dialogue, ReadsCsdsTestSplitFields) {
  const std::string line =
      R"({"Dialogue": [{"speaker": "Q", "utterance": "a"}, {"speaker": "A", "utterance": "b"}], "FinalSumm": ["用户问。", "客服答。"],)"
      R"( "UserSumm": "用户问。", "AgentSumm": ["客服答。"], "ExtGoldTurnIDs": [0, 1]})";
  const Dialogue d = read_dialogues_from_string(line, "m").dialogues.at(0);
  EXPECT_EQ(d.references.at(0).size(), 2u);
  EXPECT_EQ(d.user_references.at(0), std::vector<std::string>{"用户问。"});
  EXPECT_EQ(d.key_turns, (std::vector<int>{0, 1}));
  EXPECT_NE(expect_parse_error(
                R"({"Dialogue": [{"speaker": "Q", "utterance": "a"}], "ExtGoldTurnIDs": [5]})")
                .find("ExtGoldTurnIDs[0]"),
            std::string::npos);
}

// CSDS writes some line breaks as a backslash and an n: they end a sentence, and no "n" is left in
// the text a summary shows.
TEST(Dialogue, CsdsEscapedLineBreaksEndSentences) {
  const std::string line =
      R"({"tods_index": 77, "Dialogue": [{"speaker": "Q", "utterance": "这个明天能到吗，\\n明后天，您给我准信"}]})";
  const Dialogue d = read_dialogues_from_string(line, "m").dialogues.at(0);
  EXPECT_EQ(d.turns.at(0).text, "这个明天能到吗，\n明后天，您给我准信");
  EXPECT_EQ(d.turns.at(0).sentences, (std::vector<std::string>{"这个明天能到吗，", "明后天，您给我准信"}));
}

TEST(Dialogue, ReadsTweetSumm) {
  const std::string line =
      R"({"conversation_id": "c1", "turns": [{"tweet_id": 1, "is_agent": false, "sentences": ["@Co my app crashes :(", "Help!"]},)"
      R"( {"tweet_id": 2, "is_agent": true, "sentences": ["@123 Sorry! Settings &gt; Apps &amp; more &lt;3 &copy;"]}],)"
      R"( "extractive_summaries": [[{"turn": 0, "sentence": 0, "text": "x"}, {"turn": 1, "sentence": 0}]],)"
      R"( "abstractive_summaries": [["Customer's app crashes.", "Agent apologizes."], ["App crash."]]})";
  const ReadResult r = read_dialogues_from_string(line, "m");
  EXPECT_EQ(r.format, DialogueFormat::tweetsumm);
  const Dialogue& d = r.dialogues.at(0);
  EXPECT_EQ(d.id, "c1");
  EXPECT_EQ(d.turns[0].sentences.size(), 2u);
  EXPECT_EQ(d.turns[0].text, "@Co my app crashes :( Help!");
  EXPECT_EQ(d.turns[1].speaker, Speaker::agent);
  // Twitter's HTML escapes are undone; other entities stay as written.
  EXPECT_EQ(d.turns[1].text, "@123 Sorry! Settings > Apps & more <3 &copy;");
  ASSERT_EQ(d.extractive.size(), 1u);
  EXPECT_EQ(d.extractive[0][1].turn, 1);
  EXPECT_EQ(d.references.size(), 2u);
  const std::string bad =
      R"({"turns": [{"is_agent": false, "sentences": ["a"]}], "extractive_summaries": [[{"turn": 0, "sentence": 3}]]})";
  EXPECT_NE(expect_parse_error(bad).find("extractive_summaries[0][0].sentence"), std::string::npos);
}

TEST(Dialogue, ReadsKesselSchemaWithTimes) {
  const std::string content =
      R"({"id": "a", "turns": [{"speaker": "customer", "text": "太慢了！怎么还没到？", "time": 12.5},)"
      R"( {"speaker": "agent", "text": "马上处理。", "time": "1970-01-01T00:01:00Z"},)"
      R"( {"speaker": "customer", "text": "好", "time": "2024-03-01T10:00:00+08:00"}, {"speaker": "agent", "text": "嗯"}],)"
      R"( "reference": ["用户催单。"]})";
  const Dialogue d = read_dialogues_from_string(content, "m").dialogues.at(0);
  EXPECT_EQ(d.format, DialogueFormat::kessel);
  EXPECT_DOUBLE_EQ(*d.turns[0].time, 12.5);
  EXPECT_DOUBLE_EQ(*d.turns[1].time, 60.0);
  EXPECT_DOUBLE_EQ(*d.turns[2].time, 1709258400.0);  // 2024-03-01T02:00:00Z
  EXPECT_FALSE(d.turns[3].time.has_value());
  EXPECT_EQ(d.turns[0].sentences, (std::vector<std::string>{"太慢了！", "怎么还没到？"}));
  EXPECT_EQ(d.references.at(0), std::vector<std::string>{"用户催单。"});
}

TEST(Dialogue, Iso8601) {
  EXPECT_DOUBLE_EQ(*parse_iso8601("1970-01-02"), 86400.0);
  EXPECT_DOUBLE_EQ(*parse_iso8601("2000-03-01T00:00:00.250Z"), 951868800.25);
  EXPECT_DOUBLE_EQ(*parse_iso8601("2000-03-01 01:00:00-0130"), 951868800.0 + 3600 + 5400);
  // Impossible calendar dates and offsets are not times.
  EXPECT_FALSE(parse_iso8601("2024-02-30T10:00:00Z").has_value());
  EXPECT_FALSE(parse_iso8601("2023-02-29T10:00:00Z").has_value());
  EXPECT_FALSE(parse_iso8601("2024-04-31T10:00:00Z").has_value());
  EXPECT_FALSE(parse_iso8601("2024-03-01T10:00:00+25:00").has_value());
  EXPECT_TRUE(parse_iso8601("2024-02-29T10:00:00Z").has_value());  // a leap day
  EXPECT_TRUE(parse_iso8601("2000-02-29").has_value());
  EXPECT_FALSE(parse_iso8601("yesterday").has_value());
  EXPECT_FALSE(parse_iso8601("2024-13-01T00:00:00Z").has_value());
  EXPECT_FALSE(parse_iso8601("2024-01-01T00:00:00Zjunk").has_value());
}

TEST(Dialogue, ErrorsNameFileLineAndField) {
  const std::string good = R"({"id": "g", "turns": [{"speaker": "customer", "text": "hi"}]})";
  struct Case {
    std::string line, expect;
  };
  const Case cases[] = {
      {R"({"id": "x", "turns": [{"speaker": "bot", "text": "hi"}]})", "turns[0].speaker"},
      {R"({"id": "x", "turns": [{"speaker": "customer"}]})", "turns[0].text: missing"},
      {R"({"id": "x", "turns": [{"speaker": "customer", "text": 5}]})",
       "turns[0].text: expected a string"},
      {R"({"id": "x", "turns": [{"speaker": "customer", "text": "a", "time": "soon"}]})",
       "turns[0].time"},
      {R"({"id": "x", "turns": [{"speaker": "customer", "text": "a", "time": [1]}]})",
       "turns[0].time"},
      // Far beyond any date (their differences would overflow the time features), and epoch
      // milliseconds, which the error names.
      {R"({"id": "x", "turns": [{"speaker": "customer", "text": "a", "time": 1e308}]})",
       "turns[0].time: 1e+308 s is out of range"},
      {R"({"id": "x", "turns": [{"speaker": "customer", "text": "a", "time": -2e11}]})",
       "turns[0].time: -2e+11 s is out of range"},
      {R"({"id": "x", "turns": [{"speaker": "customer", "text": "a", "time": 1709258400000}]})",
       "divide milliseconds by 1000"},
      {R"({"id": "x", "turns": "hello"})", "turns: expected a list"},
      {R"({"id": "x", "turns": []})", "turns: empty dialogue"},
      {R"({"turns": [{"speaker": "customer", "text": "a"}]})", "id: missing"},
      {R"({"id": "x", "turns": [{"speaker": "customer", "text": "a"}], "reference": 3})",
       "reference"},
      {R"({"id": "x", "turns": [)", "invalid JSON"},
      // A repeated key is refused: the JSON library would keep the last one and say nothing.
      {R"({"id": "x", "turns": [{"speaker": "customer", "text": "a"}], "turns": []})",
       "record: duplicate key \"turns\""},
      {R"({"id": "x", "turns": [{"speaker": "customer", "text": "a", "text": "b"}]})",
       "turns[0]: duplicate key \"text\""},
      // Nesting that no dialogue needs is refused before it is built (a million levels used to
      // exhaust the memory, and with an invalid byte inside, the stack).
      {R"({"id": "x", "turns": )" + std::string(100000, '[') + std::string(100000, ']') + "}",
       "record: nested deeper than 256 levels"},
      {R"({"id": "x", "turns": )" + std::string(100000, '[') + "\"\xFF\"" + std::string(100000, ']') + "}",
       "record: invalid UTF-8 at byte offset 100022 of the line (0xFF)"},
      {R"([1, 2])", "expected a JSON object"},
      // A NUL ended the record for the JSON library: the rest of the line was dropped, exit 0.
      {std::string(R"({"id": "x", "turns": [{"speaker": "customer", "text": "a"}]})") + '\0' +
           R"({"id": "y", "turns": [{"speaker": "customer", "text": "b"}]})",
       "record: NUL byte (0x00) at byte offset 60"},
      {R"({"id": 1.5, "turns": [{"speaker": "customer", "text": "a"}]})",
       "id: expected a string or an integer, got number 1.5"},
      {std::string(R"({"id": "x", "turns": [{"speaker": "customer", "text": ")") + "\xC3\x28" +
           R"("}]})",
       "invalid UTF-8 at byte offset 55"},
  };
  for (const auto& c : cases) {
    const std::string msg = expect_parse_error(good + "\n" + c.line + "\n");
    EXPECT_NE(msg.find("mem.jsonl:2:"), std::string::npos) << msg;
    EXPECT_NE(msg.find(c.expect), std::string::npos) << "got: " << msg << "\nwant: " << c.expect;
  }
}

TEST(Dialogue, CsdsErrorsNameTheMember) {
  const std::pair<std::string, std::string> cases[] = {
      {R"({"tods_index": 0, "Dialogue": [{"speaker": 5, "utterance": "a"}]})",
       "mem.jsonl:1: Dialogue[0].speaker: expected a string, got number"},
      {R"({"tods_index": 0, "Dialogue": [{"speaker": "Q", "utterance": 7}]})",
       "mem.jsonl:1: Dialogue[0].utterance: expected a string, got number"},
      {R"({"tods_index": 0, "Dialogue": [{"speaker": "Q"}]})", "mem.jsonl:1: Dialogue[0].utterance: missing"},
      {R"({"tods_index": 0, "Dialogue": [{"speaker": "Q", "utterance": "a"}], "TopicSumm": [{"QASumm": 3}]})",
       "mem.jsonl:1: TopicSumm[0].QASumm: expected a string, got number"},
  };
  for (const auto& [line, expect] : cases) {
    const std::string msg = expect_parse_error(line + "\n");
    EXPECT_NE(msg.find(expect), std::string::npos) << "got: " << msg << "\nwant: " << expect;
  }
}

TEST(Dialogue, CsdsIdsAndIndicesAreCheckedNotDefaulted) {
  const std::string turns =
      R"("Dialogue": [{"speaker": "Q", "utterance": "hi"}, {"speaker": "A", "utterance": "yes"}])";
  // tods_index "abc" became the id "line1" without a word.
  EXPECT_NE(expect_parse_error("{\"tods_index\": \"abc\", " + turns + "}\n")
                .find("mem.jsonl:1: tods_index: expected an integer, got string \"abc\""),
            std::string::npos);
  EXPECT_EQ(
      read_dialogues_from_string("{\"tods_index\": 18446744073709551615, " + turns + "}\n", "m")
          .dialogues[0]
          .id,
      "18446744073709551615");
  // An unsigned 64-bit turn index was read as long long: "turn -1".
  const std::string msg =
      expect_parse_error("{" + turns + R"(, "ExtGoldTurnIDs": [0, 18446744073709551615]})" + "\n");
  EXPECT_NE(msg.find("ExtGoldTurnIDs[1]: turn 18446744073709551615 is outside [0, 2)"),
            std::string::npos)
      << msg;
  const std::string tweet =
      R"({"conversation_id": "c", "turns": [{"is_agent": false, "sentences": ["a"]}], "extractive_summaries": [[{"turn": 18446744073709551615, "sentence": 0}]]})";
  const std::string tmsg = expect_parse_error(tweet + "\n");
  EXPECT_NE(tmsg.find("extractive_summaries[0][0].turn: turn 18446744073709551615 out of range"),
            std::string::npos)
      << tmsg;
  const std::string tweet2 =
      R"({"conversation_id": "c", "turns": [{"is_agent": false, "sentences": ["a"]}], "extractive_summaries": [[{"turn": 0, "sentence": 9223372036854775808}]]})";
  EXPECT_NE(expect_parse_error(tweet2 + "\n")
                .find("sentence 9223372036854775808 out of range for turn 0"),
            std::string::npos);
}

TEST(Dialogue, RepeatedIdsAreRefusedOrWarnedAbout) {
  const std::string a = R"({"id": "a", "turns": [{"speaker": "customer", "text": "one"}]})";
  const std::string b = R"({"id": "b", "turns": [{"speaker": "customer", "text": "two"}]})";
  const std::string content = a + "\n" + b + "\n" + a + "\n";
  const std::string msg = expect_parse_error(content);
  EXPECT_NE(msg.find("mem.jsonl:3: id: \"a\" is also the id of line 1"), std::string::npos) << msg;
  ReadOptions skip;
  skip.on_error = OnError::skip;
  const ReadResult r = read_dialogues_from_string(content, "mem.jsonl", skip);
  ASSERT_EQ(r.dialogues.size(), 3u);  // nothing dropped
  EXPECT_TRUE(r.skipped.empty());
  ASSERT_EQ(r.warnings.size(), 1u);
  EXPECT_EQ(r.warnings[0].line, 3);
  EXPECT_EQ(r.warnings[0].reason, "mem.jsonl:3: id: \"a\" is also the id of line 1");
  // An integer id and the same digits as a string are the same id (both print as "7").
  EXPECT_NE(expect_parse_error(R"({"id": 7, "turns": [{"speaker": "customer", "text": "x"}]})"
                               "\n"
                               R"({"id": "7", "turns": [{"speaker": "customer", "text": "y"}]})"
                               "\n")
                .find("mem.jsonl:2: id"),
            std::string::npos);
}

TEST(Dialogue, SkipPolicyCountsEveryBadRecord) {
  const std::string content =
      "{\"id\": \"1\", \"turns\": [{\"speaker\": \"customer\", \"text\": \"a\"}]}\n"
      "{\"id\": \"2\", \"turns\": []}\n"
      "\n"
      "not json\n"
      "{\"id\": \"3\", \"turns\": [{\"speaker\": \"agent\", \"text\": \"\xFF\"}]}\n"
      "{\"id\": \"4\", \"turns\": [{\"speaker\": \"agent\", \"text\": \"b\"}]}\n";
  ReadOptions o;
  o.on_error = OnError::skip;
  const ReadResult r = read_dialogues_from_string(content, "mem.jsonl", o);
  ASSERT_EQ(r.dialogues.size(), 2u);
  EXPECT_EQ(r.dialogues[1].id, "4");
  EXPECT_EQ(r.dialogues[1].line, 6);
  ASSERT_EQ(r.skipped.size(), 3u);
  EXPECT_EQ(r.skipped[0].line, 2);
  EXPECT_EQ(r.skipped[1].line, 4);
  EXPECT_EQ(r.skipped[2].line, 5);
  EXPECT_EQ(r.lines, 5);
  EXPECT_EQ(r.lines, static_cast<long>(r.dialogues.size() + r.skipped.size()));
  o.allow_empty = true;
  EXPECT_EQ(read_dialogues_from_string(content, "mem.jsonl", o).dialogues.size(), 3u);
}

TEST(Dialogue, FormatDetectionAndOverride) {
  EXPECT_EQ(detect_dialogue_format("\n\n{\"Dialogue\": []}\n", "m"), DialogueFormat::csds);
  EXPECT_EQ(detect_dialogue_format(R"({"turns": [{"is_agent": true, "sentences": []}]})", "m"),
            DialogueFormat::tweetsumm);
  EXPECT_EQ(
      detect_dialogue_format(R"({"id": 1, "turns": [{"speaker": "agent", "text": ""}]})", "m"),
      DialogueFormat::kessel);
  EXPECT_THROW(detect_dialogue_format(R"({"foo": 1})", "m"), ParseError);
  EXPECT_THROW(detect_dialogue_format("", "m"), ParseError);
  ReadOptions o;
  {
    // A first record that cannot tell its format does not decide it: the next one does, and the
    // reader then reports the bad record itself (skipped here, with its line).
    const std::string content = "{\"turns\": [\"oops\"\n{\"foo\": 1}\n{\"Dialogue\": [{\"speaker\": \"Q\", \"utterance\": \"你好\"}]}\n";
    EXPECT_EQ(detect_dialogue_format(content, "m"), DialogueFormat::csds);
    ReadOptions skip;
    skip.on_error = OnError::skip;
    const ReadResult r = read_dialogues_from_string(content, "m", skip);
    EXPECT_EQ(r.format, DialogueFormat::csds);
    ASSERT_EQ(r.dialogues.size(), 1u);
    ASSERT_EQ(r.skipped.size(), 2u);
    EXPECT_EQ(r.skipped[0].line, 1);
    EXPECT_NE(r.skipped[0].reason.find("m:1: record: invalid JSON"), std::string::npos) << r.skipped[0].reason;
    // No record tells: the first one's problem is the error.
    try {
      detect_dialogue_format("[1]\n{\"foo\": 1}\n", "m");
      ADD_FAILURE() << "expected a ParseError";
    } catch (const ParseError& e) {
      EXPECT_EQ(e.line(), 1);
      EXPECT_NE(std::string(e.what()).find("expected a JSON object"), std::string::npos) << e.what();
    }
  }
  o.format = DialogueFormat::csds;  // explicit format wins, so a kessel record fails as csds
  const std::string msg =
      expect_parse_error(R"({"id": "x", "turns": [{"speaker": "customer", "text": "a"}]})", o);
  EXPECT_NE(msg.find("Dialogue: missing"), std::string::npos) << msg;
  EXPECT_THROW(parse_dialogue_format("json"), InvalidArgument);
  EXPECT_TRUE(read_dialogues_from_string("", "m").dialogues.empty());
  EXPECT_THROW(read_dialogues("/nonexistent/x.jsonl"), IoError);
}

// The record that tells the format is parsed once and handed to the reader (DetectedFormat): what
// is read must be what a reader given the format reads, whichever line told it and from whatever
// first_line the lines are numbered.
TEST(Dialogue, DetectedRecordReadsAsWithAGivenFormat) {
  const std::string content =
      "\n{not json\n"
      "{\"id\": \"a\", \"turns\": [{\"speaker\": \"customer\", \"text\": \"hi\"}]}\r\n"
      "{\"id\": \"a\", \"turns\": [{\"speaker\": \"agent\", \"text\": \"again\"}]}\n"
      "{\"id\": \"c\", \"turns\": [{\"speaker\": \"agent\", \"text\": \"end\"}]}";
  for (long first_line : {1L, 101L}) {
    ReadOptions detect;
    detect.on_error = OnError::skip;
    detect.first_line = first_line;
    ReadOptions given = detect;
    given.format = DialogueFormat::kessel;
    const ReadResult a = read_dialogues_from_string(content, "m", detect);
    const ReadResult b = read_dialogues_from_string(content, "m", given);
    EXPECT_EQ(a.format, DialogueFormat::kessel);
    ASSERT_EQ(a.dialogues.size(), 3u);
    ASSERT_EQ(a.dialogues.size(), b.dialogues.size());
    for (std::size_t i = 0; i < a.dialogues.size(); ++i) {
      EXPECT_EQ(a.dialogues[i].id, b.dialogues[i].id);
      EXPECT_EQ(a.dialogues[i].line, b.dialogues[i].line);
      ASSERT_EQ(a.dialogues[i].turns.size(), b.dialogues[i].turns.size());
      EXPECT_EQ(a.dialogues[i].turns[0].text, b.dialogues[i].turns[0].text);
    }
    EXPECT_EQ(a.dialogues[0].line, first_line + 2);
    ASSERT_EQ(a.skipped.size(), 1u);
    EXPECT_EQ(a.skipped[0].line, b.skipped[0].line);
    EXPECT_EQ(a.skipped[0].reason, b.skipped[0].reason);
    ASSERT_EQ(a.warnings.size(), 1u);  // the repeated id, first seen on the detected record's line
    ASSERT_EQ(b.warnings.size(), 1u);
    EXPECT_EQ(a.warnings[0].reason, b.warnings[0].reason);
    EXPECT_EQ(a.lines, b.lines);
  }
}

TEST(Dialogue, HugeDialogueAndEmojiOnlyTurns) {
  std::string line = R"({"id": "huge", "turns": [)";
  for (int i = 0; i < 10000; ++i) {
    if (i) line += ",";
    line += i % 2 ? R"({"speaker": "agent", "text": "请稍等。我查一下。"})"
                  : R"({"speaker": "customer", "text": "😡😭👍🏽"})";
  }
  line += "]}";
  const ReadResult r = read_dialogues_from_string(line, "m");
  const Dialogue& d = r.dialogues.at(0);
  ASSERT_EQ(d.turns.size(), 10000u);
  EXPECT_EQ(d.turns[0].sentences, std::vector<std::string>{"😡😭👍🏽"});
  EXPECT_EQ(d.turns[1].sentences.size(), 2u);
}

TEST(Sentences, ChineseAndEnglishRules) {
  EXPECT_EQ(split_sentences("太慢了！！怎么回事？我要投诉。好吧……算了\n下一行"),
            (std::vector<std::string>{"太慢了！！", "怎么回事？", "我要投诉。", "好吧……", "算了",
                                      "下一行"}));
  EXPECT_EQ(split_sentences("Mr. Smith paid $3.50 at www.shop.com. It broke! Why? e.g. this"),
            (std::vector<std::string>{"Mr. Smith paid $3.50 at www.shop.com.", "It broke!", "Why?",
                                      "e.g. this"}));
  EXPECT_EQ(split_sentences("I waited... and waited. \"Done.\" Ok"),
            (std::vector<std::string>{"I waited...", "and waited.", "\"Done.\"", "Ok"}));
  EXPECT_EQ(split_sentences("今天到吗?到不了就退款;可以吗"),
            (std::vector<std::string>{"今天到吗?", "到不了就退款;可以吗"}));
  EXPECT_TRUE(split_sentences("   ").empty());
  EXPECT_EQ(split_sentences("😡😡"), std::vector<std::string>{"😡😡"});
}

// A well-formed text's sentences are slices of it, a malformed one's are its code points encoded
// with U+FFFD in place of each bad byte: the two give the same sentences for a text and its
// sanitized copy.
TEST(Sentences, SlicesMatchTheEncodedCodePoints) {
  std::mt19937_64 rng(17);
  std::vector<std::string> texts = {"好\xFF。坏\xE4\xB8", "a.\xC0 b! c", "\xEF\xBF\xBD。x"};
  for (int k = 0; k < 3000; ++k) texts.push_back(testing::odd_text(rng));
  for (const auto& s : texts) EXPECT_EQ(split_sentences(s), split_sentences(sanitize_utf8(s))) << s;
}

TEST(Dialogue, BundledSamplesParse) {
  for (const char* name : {"dialogues_zh.jsonl", "dialogues_en.jsonl"}) {
    const ReadResult r = read_dialogues(testing::samples_dir() + "/" + name);
    EXPECT_EQ(r.format, DialogueFormat::kessel);
    EXPECT_EQ(r.dialogues.size(), 6u) << name;
    EXPECT_TRUE(r.skipped.empty());
    int timed = 0;
    for (const auto& d : r.dialogues) {
      EXPECT_FALSE(d.references.empty()) << d.id;
      for (const auto& t : d.turns) timed += t.time.has_value();
    }
    EXPECT_GT(timed, 0) << name;
  }
}

}  // namespace
}  // namespace kessel::text
