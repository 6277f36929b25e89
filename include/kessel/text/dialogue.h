// Customer-service dialogues: one struct for the four input formats, readers with error policies,
// and sentence splitting (the summary units).
//
// Formats (three JSONL, one dialogue per line, and plain-text transcripts; detected from the first
// non-empty line unless the caller names one):
//   csds       {"Dialogue": [{"speaker": "Q"|"A", "utterance", "truncated"?,
//   "utterance_recovered"?,
//               "role"?}], "TopicSumm"?: [{"Topic", "QASumm"}], "FinalSumm"?, "UserSumm"?,
//               "AgentSumm"?, "ExtGoldTurnIDs"?}. Q = customer, A = agent. utterance_recovered is
//               preferred when present. References: FinalSumm when present (string or list of
//               strings, joined), else the concatenation of the QASumm strings in order; UserSumm /
//               AgentSumm go to user_references / agent_references; ExtGoldTurnIDs to key_turns.
//               id: "id" if present, else "tods_index", else "line<N>".
//   tweetsumm  {"conversation_id", "turns": [{"is_agent", "sentences": [str]}],
//               "extractive_summaries"?: [[{"turn", "sentence"}]], "abstractive_summaries"?:
//               [[str]]}. Turn text = sentences joined by a space; the given sentences are kept as
//               the units. Each abstractive summary is a reference; each extractive summary an
//               extractive label set. A null summary entry (12 in the public splits) is not a
//               reference: it is listed in ReadResult::ignored.
//   kessel     {"id", "turns": [{"speaker": "customer"|"agent", "text", "time"?}], "reference"?:
//               [str] | str}. time: seconds (number) or an ISO 8601 string (2024-03-01T10:15:30Z,
//               with optional fraction and +hh:mm offset; without an offset it is read as UTC),
//               stored as seconds since 1970-01-01 UTC. "reference" is one reference summary given
//               as its list of sentences (or one string, split into sentences).
//   transcript plain text, one turn per line: `[timestamp] label: text` (docs/text.md). Labels,
//               before ':' or '：', ASCII ones in any case: customer = 用户 顾客 客户 买家 Customer
//               User Client Caller; agent = 客服 坐席 商家 卖家 人工客服 Agent Support Staff Seller
//               Operator "Customer service"; a name in brackets may follow (客服(小王), Agent [Sam],
//               用户【张三】). Timestamp, optional, before the label: `[..]` holding
//               one, or a bare `YYYY-MM-DD hh:mm[:ss]`, ISO 8601 (`2024-01-01T10:32:05Z`) or
//               `hh:mm[:ss]` token; a time of day is seconds since midnight, a day added when it
//               goes back (past midnight); dated and undated turns in one dialogue are an error. A
//               line with no label continues the turn above (joined by '\n'); before any turn it is
//               an error naming the line. Blank lines are ignored. Dialogues are separated by a
//               line of three or more '-' or begin at a `# id: X` header (X is the id; else
//               "line<N>", N the first turn's line). role = the label as written.
// Errors name the file, line and field: "data.jsonl:12: turns[3].speaker: expected "customer" or
// "agent", got "bot"". Policy on_error = fail throws the first ParseError; skip records the reason
// and goes on (ReadResult::skipped). A dialogue with no turns is an error ("turns: empty dialogue")
// unless allow_empty is set. Invalid UTF-8 in a line is an error naming the byte offset.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace kessel::text {

enum class Speaker { customer, agent };
const char* to_string(Speaker s);

enum class DialogueFormat { csds, tweetsumm, kessel, transcript };
const char* to_string(DialogueFormat f);
// "csds" | "tweetsumm" | "kessel" | "transcript"; throws InvalidArgument otherwise.
DialogueFormat parse_dialogue_format(std::string_view name);

// The largest |time| a reader accepts, in seconds (about 3,200 years from 1970). Beyond it the
// differences the time features take would lose all precision in float, or overflow; epoch
// milliseconds (1.7e12 today) land here too, and the error says so.
inline constexpr double kMaxTimeSeconds = 1e11;

struct Turn {
  Speaker speaker = Speaker::customer;
  std::string text;
  std::optional<double> time;          // seconds; absent when the source has none
  std::vector<std::string> sentences;  // summary units, in order; their concatenation covers text
  std::string role;                    // source label (CSDS role 用户/客服, ...), may be empty
  bool truncated = false;              // CSDS: the utterance was cut and could not be recovered
};

struct SentenceRef {
  int turn = 0;
  int sentence = 0;
};

struct Dialogue {
  std::string id;
  std::vector<Turn> turns;
  // Reference summaries, each a list of sentences.
  std::vector<std::vector<std::string>> references;
  std::vector<std::vector<std::string>> user_references;   // CSDS UserSumm
  std::vector<std::vector<std::string>> agent_references;  // CSDS AgentSumm
  std::vector<std::vector<SentenceRef>> extractive;        // TweetSumm extractive summaries
  std::vector<int> key_turns;                              // CSDS ExtGoldTurnIDs
  DialogueFormat format = DialogueFormat::kessel;
  long line = 0;  // 1-based line in the source file
};

enum class OnError { fail, skip };
OnError parse_on_error(std::string_view name);  // "fail" | "skip"

struct ReadOptions {
  std::optional<DialogueFormat> format;  // detected from content when empty
  OnError on_error = OnError::fail;
  bool allow_empty = false;  // accept dialogues with no turns
  // The number of the content's first line: a shard of a larger JSONL file starting at that line
  // reads with the whole file's line numbers (Dialogue::line, errors, skips). A transcript must
  // start at line 1 (its dialogues span lines; InvalidArgument otherwise).
  long first_line = 1;
};

struct SkippedRecord {
  long line = 0;
  std::string reason;  // the ParseError message
};

struct ReadResult {
  std::string path;
  DialogueFormat format = DialogueFormat::kessel;
  std::vector<Dialogue> dialogues;
  std::vector<SkippedRecord> skipped;
  // Parts of kept records that were ignored (TweetSumm has null entries in abstractive_summaries).
  std::vector<SkippedRecord> ignored;
  // What was kept but is worth a word: a dialogue id repeated under OnError::skip (under fail it is
  // an error). `reason` is the whole message, file and line included.
  std::vector<SkippedRecord> warnings;
  long lines = 0;  // non-empty lines seen
};

// Reads a JSONL file. Throws IoError when it cannot be opened, ParseError (fail policy) on a bad
// record.
ReadResult read_dialogues(const std::string& path, const ReadOptions& options = {});
// The same over in-memory content; `name` labels error messages.
ReadResult read_dialogues_from_string(std::string_view content, const std::string& name,
                                      const ReadOptions& options = {});
// Format of a document: transcript when its first non-empty line is a transcript line (a labelled
// turn, `# id:` or `---`); else from the keys of the first JSONL record that tells: "Dialogue" ->
// csds, turns with "is_agent"/"sentences" -> tweetsumm, turns with "speaker"/"text" -> kessel.
DialogueFormat detect_dialogue_format(std::string_view content, const std::string& name);

// Seconds since 1970-01-01T00:00:00Z for an ISO 8601 date-time; nullopt when it is not one.
std::optional<double> parse_iso8601(std::string_view s);

// ---- sentences
// ----------------------------------------------------------------------------------- Splits text
// into sentences, keeping each terminator with its sentence and trimming white space. Breaks: after
// a run of 。！？!?；… (plus closing quotes/brackets that follow), after newlines, and after
// '.' when it ends the text or is followed by white space and the word before it is not an
// abbreviation (Mr. Dr. e.g. etc. U.S. a.m. single initials ...). Decimals (3.5), URLs and
// emoticons never break. Empty results are dropped.
std::vector<std::string> split_sentences(std::string_view text);

}  // namespace kessel::text
