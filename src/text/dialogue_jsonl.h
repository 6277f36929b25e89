// The per-line half of the JSONL readers: one record at a time into a ReadResult. read_dialogues
// (whole content) and DialogueStream (a stream, in bounded memory) both read through it, so they give
// the same dialogues, errors, skips and warnings.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <unordered_map>

#include "kessel/text/dialogue.h"

namespace kessel::text::internal {

// The format one non-blank JSONL line tells (detect_dialogue_format's step per record); ParseError
// "name:line_no: ..." when it tells none (bad JSON, not an object, no known key).
DialogueFormat detect_record_format(std::string_view line, const std::string& name, long line_no);

// detect_dialogue_format's answer with the JSON of the record that told it and that record's line
// (from 1; 0 for a transcript), so that the reader parses that record once, not twice: a one-dialogue
// request is one record, and parsing it was a tenth of the server's time outside the summary.
struct DetectedFormat {
  DialogueFormat format = DialogueFormat::kessel;
  long line_no = 0;
  nlohmann::json record;
};
DetectedFormat detect_format_keeping_record(std::string_view content, const std::string& name);

class JsonlRecords {
 public:
  // `format` is a JSONL one (csds, tweetsumm, kessel); `name` labels errors.
  JsonlRecords(std::string name, DialogueFormat format, const ReadOptions& options);
  // One line (without its newline) numbered line_no: ignored when blank; otherwise counted in
  // into.lines and appended to into.dialogues, or (OnError::skip) to into.skipped; ParseError under
  // OnError::fail. A repeated id is checked against every id this reader has seen.
  // `parsed`, when given, is the line's JSON as the caller already parsed it without error (format
  // detection); it is moved from instead of parsing the line again.
  void add(std::string_view line, long line_no, ReadResult& into, nlohmann::json* parsed = nullptr);

 private:
  std::string name_;
  DialogueFormat format_;
  ReadOptions options_;
  std::unordered_map<std::string, long> first_line_of_id_;
};

}  // namespace kessel::text::internal
