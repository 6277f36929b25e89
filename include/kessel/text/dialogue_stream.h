// Dialogues read from a stream a batch at a time, in bounded memory: `kessel summarize` reads its
// input so (a file or standard input), and can sit in a pipe (Spark's RDD.pipe, Hadoop Streaming,
// GNU parallel) on millions of records.
//
// The records, errors, skips and warnings are those read_dialogues gives for the whole content, in
// the same order; memory holds one batch, plus one entry per dialogue id for the duplicate-id check
// (ids must be unique within one input, as in read_dialogues). Two cases are read whole, because
// their format makes them so:
//   - a plain-text transcript (its dialogues span lines and are told apart by headers);
//   - the lines before the format is known, when it is detected and the first records do not tell
//     it (malformed ones): at most kMaxDetectLines lines, then the format must be given.
#pragma once

#include <cstddef>
#include <deque>
#include <istream>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "kessel/text/dialogue.h"

namespace kessel::text {

namespace internal {
class JsonlRecords;
}

class DialogueStream {
 public:
  static constexpr long kMaxDetectLines = 10000;

  // `in` must outlive the stream; `name` labels errors ("<stdin>", a path).
  DialogueStream(std::istream& in, std::string name, const ReadOptions& options = {});
  ~DialogueStream();
  DialogueStream(const DialogueStream&) = delete;
  DialogueStream& operator=(const DialogueStream&) = delete;

  // Reads until `max_dialogues` (>= 1) dialogues are read or the input ends. The batch holds them
  // and the records skipped, ignored and warned about on the way (lines: its non-empty lines).
  // ParseError under OnError::fail on the first bad record; IoError when the stream fails.
  ReadResult next(std::size_t max_dialogues);
  // True once the input is exhausted and every dialogue handed out.
  bool done() const;
  // The format read (detected or given); meaningful once next() has returned.
  DialogueFormat format() const { return format_.value_or(DialogueFormat::kessel); }

 private:
  bool read_line(std::string& line);
  void detect_format(ReadResult& batch);

  std::istream& in_;
  std::string name_;
  ReadOptions options_;
  std::optional<DialogueFormat> format_;
  long line_no_ = 0;
  bool eof_ = false;
  std::deque<Dialogue> pending_;  // read but not yet handed out (detection, transcripts)
  std::unique_ptr<internal::JsonlRecords> records_;
};

}  // namespace kessel::text
