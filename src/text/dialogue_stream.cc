#include "kessel/text/dialogue_stream.h"

#include <iterator>
#include <utility>

#include "kessel/error.h"
#include "text/dialogue_jsonl.h"
#include "text/dialogue_read_text.h"

namespace kessel::text {

namespace {

bool blank(const std::string& line) { return line.find_first_not_of(" \t\r") == std::string::npos; }

}  // namespace

DialogueStream::DialogueStream(std::istream& in, std::string name, const ReadOptions& options)
    : in_(in), name_(std::move(name)), options_(options), format_(options.format),
      line_no_(options.first_line - 1) {}

DialogueStream::~DialogueStream() = default;

bool DialogueStream::done() const { return eof_ && pending_.empty(); }

bool DialogueStream::read_line(std::string& line) {
  if (eof_) return false;
  if (!std::getline(in_, line)) {
    if (in_.bad()) throw IoError(name_ + ": read failed after line " + std::to_string(line_no_));
    eof_ = true;
    return false;
  }
  ++line_no_;
  if (!line.empty() && line.back() == '\r') line.pop_back();
  return true;
}

// The format from the first lines that tell it, as detect_dialogue_format finds it (the first
// non-blank line says whether it is a transcript, then the first record that tells decides); those
// lines, then, are read as records into pending_ and `batch`. A transcript is read whole.
void DialogueStream::detect_format(ReadResult& batch) {
  const long first = line_no_ + 1;
  std::string head, line;
  long lines = 0;
  std::optional<ParseError> problem;
  std::optional<bool> transcript;  // the first line that tells (not blank) says whether it is one
  while (!format_ && read_line(line)) {
    head += line;
    head += '\n';
    if (!transcript) {
      transcript = internal::transcript_verdict(head);
      if (transcript == true) {
        format_ = DialogueFormat::transcript;
        break;
      }
    }
    if (blank(line)) continue;
    try {
      format_ = internal::detect_record_format(line, name_, line_no_);
    } catch (const ParseError& e) {
      if (!problem) problem = e;
      if (++lines >= kMaxDetectLines)
        throw ParseError(name_, first,
                         "record: none of the first " + std::to_string(kMaxDetectLines) +
                             " records tells the format (csds, tweetsumm or kessel): give it "
                             "(--format); the first one's problem: " + problem->what());
    }
  }
  if (!format_) {  // the input ended before a record told its format
    if (problem && options_.on_error == OnError::fail) throw *problem;
    format_ = DialogueFormat::kessel;  // skip: every record below is reported, as read_dialogues does
  }
  if (*format_ == DialogueFormat::transcript) {
    head.append(std::istreambuf_iterator<char>(in_), std::istreambuf_iterator<char>());
    eof_ = true;
    ReadOptions o = options_;
    o.format = DialogueFormat::transcript;
    ReadResult all = read_dialogues_from_string(head, name_, o);
    for (auto& d : all.dialogues) pending_.push_back(std::move(d));
    batch.skipped = std::move(all.skipped);
    batch.warnings = std::move(all.warnings);
    batch.lines = all.lines;
    return;
  }
  records_ = std::make_unique<internal::JsonlRecords>(name_, *format_, options_);
  ReadResult first_records;
  std::size_t pos = 0;
  for (long n = first; pos < head.size(); ++n) {
    const std::size_t end = head.find('\n', pos);
    records_->add(std::string_view(head).substr(pos, end - pos), n, first_records);
    pos = end + 1;
  }
  for (auto& d : first_records.dialogues) pending_.push_back(std::move(d));
  batch.skipped = std::move(first_records.skipped);
  batch.ignored = std::move(first_records.ignored);
  batch.warnings = std::move(first_records.warnings);
  batch.lines = first_records.lines;
}

ReadResult DialogueStream::next(std::size_t max_dialogues) {
  KESSEL_CHECK_ARG(max_dialogues >= 1, "DialogueStream::next: max_dialogues must be >= 1");
  ReadResult batch;
  batch.path = name_;
  if (!records_ && pending_.empty() && !eof_) {  // the first call
    if (!format_ || *format_ == DialogueFormat::transcript) detect_format(batch);
    else records_ = std::make_unique<internal::JsonlRecords>(name_, *format_, options_);
  }
  batch.format = format();
  while (!pending_.empty() && batch.dialogues.size() < max_dialogues) {
    batch.dialogues.push_back(std::move(pending_.front()));
    pending_.pop_front();
  }
  std::string line;
  while (records_ && batch.dialogues.size() < max_dialogues && read_line(line))
    records_->add(line, line_no_, batch);
  return batch;
}

}  // namespace kessel::text
