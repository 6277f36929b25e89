// DialogueStream gives what read_dialogues gives for the whole content, batch by batch: the same
// dialogues, skips, warnings and errors, for any batch size, on clean, dirty and real inputs.
#include "kessel/text/dialogue_stream.h"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "kessel/error.h"
#include "text/test_paths.h"

namespace kessel::text {
namespace {

std::string slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// The stream's batches concatenated, for comparison with one read_dialogues.
ReadResult read_streamed(const std::string& content, std::size_t batch, const ReadOptions& o = {}) {
  std::istringstream in(content);
  DialogueStream stream(in, "mem.jsonl", o);
  ReadResult all;
  while (!stream.done()) {
    ReadResult b = stream.next(batch);
    EXPECT_LE(b.dialogues.size(), batch);
    for (auto& d : b.dialogues) all.dialogues.push_back(std::move(d));
    for (auto& s : b.skipped) all.skipped.push_back(std::move(s));
    for (auto& s : b.ignored) all.ignored.push_back(std::move(s));
    for (auto& s : b.warnings) all.warnings.push_back(std::move(s));
    all.lines += b.lines;
  }
  all.format = stream.format();
  return all;
}

void expect_same(const ReadResult& a, const ReadResult& b) {
  EXPECT_EQ(a.format, b.format);
  EXPECT_EQ(a.lines, b.lines);
  ASSERT_EQ(a.dialogues.size(), b.dialogues.size());
  for (std::size_t i = 0; i < a.dialogues.size(); ++i) {
    EXPECT_EQ(a.dialogues[i].id, b.dialogues[i].id);
    EXPECT_EQ(a.dialogues[i].line, b.dialogues[i].line);
    ASSERT_EQ(a.dialogues[i].turns.size(), b.dialogues[i].turns.size());
    for (std::size_t t = 0; t < a.dialogues[i].turns.size(); ++t)
      EXPECT_EQ(a.dialogues[i].turns[t].text, b.dialogues[i].turns[t].text);
    EXPECT_EQ(a.dialogues[i].references, b.dialogues[i].references);
  }
  auto reasons = [](const std::vector<SkippedRecord>& v) {
    std::vector<std::string> out;
    for (const auto& s : v) out.push_back(std::to_string(s.line) + " " + s.reason);
    return out;
  };
  EXPECT_EQ(reasons(a.skipped), reasons(b.skipped));
  EXPECT_EQ(reasons(a.ignored), reasons(b.ignored));
  EXPECT_EQ(reasons(a.warnings), reasons(b.warnings));
}

const char* kDirty =
    "\n{not json\n"
    "{\"id\": \"a\", \"turns\": [{\"speaker\": \"customer\", \"text\": \"hi\"}]}\r\n"
    "   \n"
    "{\"id\": \"b\", \"turns\": [{\"speaker\": \"bot\", \"text\": \"hi\"}]}\n"
    "{\"id\": \"a\", \"turns\": [{\"speaker\": \"agent\", \"text\": \"again\"}]}\n"
    "{\"id\": \"c\", \"turns\": [{\"speaker\": \"agent\", \"text\": \"no newline at the end\"}]}";

TEST(DialogueStream, SameAsReadDialoguesForEveryBatchSizeUnderSkip) {
  ReadOptions o;
  o.on_error = OnError::skip;
  const ReadResult whole = read_dialogues_from_string(kDirty, "mem.jsonl", o);
  ASSERT_EQ(whole.dialogues.size(), 3u);
  ASSERT_EQ(whole.skipped.size(), 2u);
  ASSERT_EQ(whole.warnings.size(), 1u);  // the repeated id "a"
  for (std::size_t batch : {1u, 2u, 3u, 100u}) expect_same(read_streamed(kDirty, batch, o), whole);
}

TEST(DialogueStream, UnderFailTheFirstBadRecordIsTheSameError) {
  std::string whole_error, stream_error;
  try {
    read_dialogues_from_string(kDirty, "mem.jsonl");
  } catch (const ParseError& e) {
    whole_error = e.what();
  }
  try {
    read_streamed(kDirty, 1);
  } catch (const ParseError& e) {
    stream_error = e.what();
  }
  EXPECT_EQ(stream_error, whole_error);
  EXPECT_NE(stream_error.find("mem.jsonl:2:"), std::string::npos) << stream_error;
}

TEST(DialogueStream, FirstLineNumbersAShardAsTheWholeFile) {
  ReadOptions o;
  o.on_error = OnError::skip;
  o.first_line = 101;
  const ReadResult r = read_streamed(kDirty, 2, o);
  ASSERT_EQ(r.dialogues.size(), 3u);
  EXPECT_EQ(r.dialogues[0].line, 103);
  EXPECT_EQ(r.skipped[0].line, 102);
  EXPECT_NE(r.skipped[0].reason.find("mem.jsonl:102:"), std::string::npos);
  EXPECT_EQ(read_dialogues_from_string(kDirty, "mem.jsonl", o).dialogues[2].line, 107);
}

TEST(DialogueStream, EmptyInputHasNoDialoguesAndGivenFormatsAreKept) {
  EXPECT_TRUE(read_streamed("", 4).dialogues.empty());
  EXPECT_TRUE(read_streamed("\n\n  \n", 4).dialogues.empty());
  ReadOptions o;
  o.format = DialogueFormat::csds;
  o.on_error = OnError::skip;
  const ReadResult r = read_streamed(kDirty, 4, o);
  EXPECT_EQ(r.format, DialogueFormat::csds);
  EXPECT_TRUE(r.dialogues.empty());  // kessel records are not CSDS ones
  EXPECT_EQ(r.skipped.size(), 5u);
}

TEST(DialogueStream, LinesOfBlanksAndCarriageReturnsAreBlank) {
  // A CRLF file's blank line with stray blanks ("\r \t") is blank for format detection and for the
  // records alike (it once reached the detector, which trimmed it to nothing and read past its end).
  const std::string content =
      " \t\n\r \t\n\r\n{\"id\":\"a\",\"turns\":[{\"speaker\":\"customer\",\"text\":\"hi\"}]}\r\n";
  const ReadResult r = read_streamed(content, 4);
  EXPECT_EQ(r.format, DialogueFormat::kessel);
  ASSERT_EQ(r.dialogues.size(), 1u);
  EXPECT_EQ(r.dialogues[0].id, "a");
  EXPECT_TRUE(r.skipped.empty());
  EXPECT_TRUE(read_streamed("\r \t\n\r\n", 4).dialogues.empty());
}

TEST(DialogueStream, TranscriptsAreReadWholeAndCannotBeShards) {
  const std::string content = slurp(testing::samples_dir() + "/transcript_zh_en.txt");
  expect_same(read_streamed(content, 1), read_dialogues_from_string(content, "mem.jsonl"));
  ReadOptions o;
  o.first_line = 5;
  EXPECT_THROW(read_streamed(content, 1, o), InvalidArgument);
}

TEST(DialogueStream, UndetectableHeadIsBoundedAndNamesTheFix) {
  std::string content;
  for (long i = 0; i < DialogueStream::kMaxDetectLines + 5; ++i) content += "{bad\n";
  try {
    read_streamed(content, 1);
    ADD_FAILURE() << "expected ParseError";
  } catch (const ParseError& e) {
    EXPECT_NE(std::string(e.what()).find("--format"), std::string::npos) << e.what();
  }
}

TEST(DialogueStream, RealDataSameAsWhole) {
  const std::string dir = testing::shared_data_dir();
  if (dir.empty()) GTEST_SKIP() << "no shared data";
  for (const char* file : {"/csds/val.jsonl", "/tweetsumm/valid.jsonl"}) {
    const std::string content = slurp(dir + file);
    if (content.empty()) continue;
    expect_same(read_streamed(content, 64), read_dialogues_from_string(content, "mem.jsonl"));
  }
}

}  // namespace
}  // namespace kessel::text
