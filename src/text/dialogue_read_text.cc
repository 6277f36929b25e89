// Plain-text transcripts: `用户: …` / `客服: …` / `Customer: …` / `Agent: …` lines, one turn each, with
// optional timestamps; `---` or `# id: …` between dialogues; unlabelled lines continue the turn above.
// The rules, aliases included, are listed in include/kessel/text/dialogue.h and docs/text.md.
#include "text/dialogue_read_text.h"

#include <cstdio>
#include <optional>
#include <unordered_map>
#include <utility>
#include <vector>

#include "kessel/error.h"
#include "kessel/text/utf8.h"

namespace kessel::text::internal {
namespace {

struct Label {
  std::string_view name;  // ASCII names in lower case: they match case-insensitively
  Speaker speaker;
};

constexpr Label kLabels[] = {
    {"用户", Speaker::customer},     {"顾客", Speaker::customer},     {"客户", Speaker::customer},
    {"买家", Speaker::customer},     {"customer", Speaker::customer}, {"user", Speaker::customer},
    {"client", Speaker::customer},   {"caller", Speaker::customer},   {"客服", Speaker::agent},
    {"坐席", Speaker::agent},        {"商家", Speaker::agent},        {"卖家", Speaker::agent},
    {"人工客服", Speaker::agent},    {"agent", Speaker::agent},       {"support", Speaker::agent},
    {"staff", Speaker::agent},       {"seller", Speaker::agent},      {"operator", Speaker::agent},
    {"customer service", Speaker::agent},
};

constexpr std::string_view kBom = "\xEF\xBB\xBF";
constexpr std::string_view kFullWidthColon = "\xEF\xBC\x9A";  // ：
constexpr std::string_view kIdeographicSpace = "\xE3\x80\x80";
constexpr std::size_t kMaxLabelBytes = 40;  // a colon further in is part of the text, not a label's

std::string_view trim(std::string_view s) {
  for (;;) {
    if (!s.empty() && (s.front() == ' ' || s.front() == '\t')) {
      s.remove_prefix(1);
    } else if (s.substr(0, 3) == kIdeographicSpace) {
      s.remove_prefix(3);
    } else {
      break;
    }
  }
  for (;;) {
    if (!s.empty() && (s.back() == ' ' || s.back() == '\t')) {
      s.remove_suffix(1);
    } else if (s.size() >= 3 && s.substr(s.size() - 3) == kIdeographicSpace) {
      s.remove_suffix(3);
    } else {
      break;
    }
  }
  return s;
}

std::optional<Speaker> known_label(std::string_view label) {
  const std::string lower = ascii_lower(label);
  for (const Label& l : kLabels)
    if (lower == l.name) return l.speaker;
  return std::nullopt;
}

// A label, or a label followed by a name in brackets: `客服(小王)`, `Agent [Sam]`, `用户【张三】`,
// `客服（小王）` (chat exports name the person).
std::optional<Speaker> speaker_of(std::string_view label) {
  if (const auto s = known_label(label)) return s;
  static constexpr std::pair<std::string_view, std::string_view> kBrackets[] = {
      {"(", ")"}, {"[", "]"}, {"\xEF\xBC\x88", "\xEF\xBC\x89"}, {"\xE3\x80\x90", "\xE3\x80\x91"}};  // （） 【】
  for (const auto& [open, close] : kBrackets) {
    if (label.size() <= close.size() || label.substr(label.size() - close.size()) != close) continue;
    const std::size_t at = label.find(open);
    if (at == std::string_view::npos || at == 0) continue;
    return known_label(trim(label.substr(0, at)));
  }
  return std::nullopt;
}

std::string label_list() {
  std::string customer, agent;
  for (const Label& l : kLabels) {
    std::string& list = l.speaker == Speaker::customer ? customer : agent;
    list += (list.empty() ? "" : ", ") + std::string(l.name);
  }
  return "customer: " + customer + "; agent: " + agent;
}

struct Stamp {
  double seconds = 0.0;
  bool time_of_day = false;  // hh:mm[:ss]: seconds since midnight; else seconds since 1970 UTC
};

// "h:mm", "hh:mm" or "hh:mm:ss" as seconds since midnight.
std::optional<double> parse_time_of_day(std::string_view s) {
  int field[3] = {0, 0, 0};
  int fields = 0;
  std::size_t digits = 0;
  for (char ch : s) {
    if (ch >= '0' && ch <= '9' && digits < 2) {
      field[fields] = field[fields] * 10 + (ch - '0');
      ++digits;
    } else if (ch == ':' && digits > 0 && fields < 2) {
      ++fields;
      digits = 0;
    } else {
      return std::nullopt;
    }
  }
  if (fields == 0 || digits != 2 || field[0] > 23 || field[1] > 59 || field[2] > 59) return std::nullopt;
  return field[0] * 3600.0 + field[1] * 60.0 + field[2];
}

std::optional<Stamp> parse_stamp(std::string_view s) {
  if (const auto t = parse_time_of_day(s)) return Stamp{*t, true};
  if (s.size() >= 16) {  // a date alone is no timestamp: the turn's time needs hh:mm
    if (const auto v = parse_iso8601(s)) return Stamp{*v, false};
  }
  return std::nullopt;
}

// A timestamp at the start of `line`: "[...]" holding one, a date-time "YYYY-MM-DD hh:mm[:ss]", or
// a single token (ISO 8601 with 'T', or hh:mm[:ss]) followed by white space. `rest` is what follows.
struct TakenStamp {
  std::optional<Stamp> stamp;
  std::string_view rest;
};

TakenStamp take_timestamp(std::string_view line) {
  if (!line.empty() && line.front() == '[') {
    const std::size_t close = line.find(']');
    if (close == std::string_view::npos) return {std::nullopt, line};
    const auto stamp = parse_stamp(trim(line.substr(1, close - 1)));
    if (!stamp) return {std::nullopt, line};
    return {stamp, trim(line.substr(close + 1))};
  }
  const std::size_t first_end = line.find_first_of(" \t");
  if (first_end == std::string_view::npos) return {std::nullopt, line};
  const std::size_t second_end = line.find_first_of(" \t", first_end + 1);
  if (first_end == 10 && second_end != std::string_view::npos) {  // "2024-01-01 10:32:05 ..."
    if (const auto stamp = parse_stamp(line.substr(0, second_end))) return {stamp, trim(line.substr(second_end))};
  }
  if (const auto stamp = parse_stamp(line.substr(0, first_end))) return {stamp, trim(line.substr(first_end))};
  return {std::nullopt, line};
}

// The text before the first ':' or '：' within kMaxLabelBytes, and what follows the colon.
std::optional<std::pair<std::string_view, std::string_view>> split_label(std::string_view s) {
  const std::size_t ascii = s.find(':');
  const std::size_t wide = s.find(kFullWidthColon);
  const std::size_t at = std::min(ascii, wide);
  if (at == std::string_view::npos || at > kMaxLabelBytes) return std::nullopt;
  const std::size_t colon = at == ascii ? 1 : kFullWidthColon.size();
  const std::string_view label = trim(s.substr(0, at));
  if (label.empty()) return std::nullopt;
  return std::make_pair(label, trim(s.substr(at + colon)));
}

struct TurnLine {
  Speaker speaker = Speaker::customer;
  std::string_view label;
  std::optional<Stamp> stamp;
  std::string_view text;
};

std::optional<TurnLine> turn_line(std::string_view line) {
  const TakenStamp taken = take_timestamp(line);
  const auto split = split_label(taken.rest);
  if (!split) return std::nullopt;
  const auto speaker = speaker_of(split->first);
  if (!speaker) return std::nullopt;
  return TurnLine{*speaker, split->first, taken.stamp, split->second};
}

bool is_separator(std::string_view trimmed) {
  return trimmed.size() >= 3 && trimmed.find_first_not_of('-') == std::string_view::npos;
}

// `# id: X` (also `#id：X`, any case of "id"): X, which may be empty (an error the reader names).
std::optional<std::string_view> header_id(std::string_view trimmed) {
  if (trimmed.empty() || trimmed.front() != '#') return std::nullopt;
  const std::string_view rest = trim(trimmed.substr(1));
  if (ascii_lower(rest.substr(0, 2)) != "id") return std::nullopt;
  const std::string_view after = trim(rest.substr(2));
  if (after.substr(0, 1) == ":") return trim(after.substr(1));
  if (after.substr(0, kFullWidthColon.size()) == kFullWidthColon) return trim(after.substr(kFullWidthColon.size()));
  return std::nullopt;
}

// The lines of `content` (BOM dropped, '\r' before '\n' dropped), numbered from 1.
template <typename Body>
void for_each_line(std::string_view content, Body body) {
  if (content.substr(0, kBom.size()) == kBom) content.remove_prefix(kBom.size());
  long line_no = 0;
  std::size_t pos = 0;
  while (pos < content.size()) {
    std::size_t end = content.find('\n', pos);
    if (end == std::string_view::npos) end = content.size();
    std::string_view line = content.substr(pos, end - pos);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    pos = end + 1;
    if (!body(++line_no, line)) return;
  }
}

// Reads line by line; a dialogue is finished at a separator, a header or the end. Under
// OnError::skip a dialogue with an error is dropped up to the next separator or header.
class TranscriptReader {
 public:
  TranscriptReader(const std::string& name, const ReadOptions& options, ReadResult& result)
      : name_(name), options_(options), result_(result) {}

  void line(long no, std::string_view raw) {
    const std::string_view trimmed = trim(raw);
    if (trimmed.empty()) return;
    ++result_.lines;
    const auto id = header_id(trimmed);
    if (id || is_separator(trimmed)) {
      guarded(no, [&] { end_dialogue(); });
      skipping_ = false;
      if (id) guarded(no, [&] { start_dialogue(no, *id); });
      return;
    }
    if (skipping_) return;
    guarded(no, [&] { content_line(no, raw, trimmed); });
  }

  void finish(long last_line) { guarded(last_line, [&] { end_dialogue(); }); }

 private:
  [[noreturn]] void fail(long no, const std::string& field, const std::string& what) const {
    throw ParseError(name_, no, field + ": " + what);
  }

  template <typename Step>
  void guarded(long no, Step step) {
    try {
      step();
    } catch (const ParseError& e) {
      if (options_.on_error == OnError::fail) throw;
      result_.skipped.push_back(SkippedRecord{e.line() > 0 ? e.line() : no, e.what()});
      current_.reset();
      skipping_ = true;
    }
  }

  void start_dialogue(long no, std::string_view id) {
    if (id.empty()) fail(no, "id", "the `# id:` header names no id");
    current_.emplace();
    current_->id = std::string(id);
    current_->line = no;
    current_->format = DialogueFormat::transcript;
    header_line_ = no;
  }

  void content_line(long no, std::string_view raw, std::string_view trimmed) {
    if (const auto bad = find_invalid_utf8(raw)) {
      char hex[8];
      std::snprintf(hex, sizeof hex, "0x%02X", static_cast<unsigned>(static_cast<unsigned char>(raw[static_cast<std::size_t>(*bad)])));
      fail(no, "text", "invalid UTF-8 at byte offset " + std::to_string(*bad) + " of the line (" + hex + ")");
    }
    if (const auto turn = turn_line(trimmed)) return add_turn(no, *turn);
    if (current_ && !current_->turns.empty()) {
      std::string& text = current_->turns.back().text;
      text += (text.empty() ? "" : "\n") + std::string(trimmed);
      return;
    }
    const auto split = split_label(take_timestamp(trimmed).rest);
    if (split) fail(no, "label", "\"" + std::string(split->first) + "\" is not a speaker label (" + label_list() + ")");
    fail(no, "label",
         "no speaker label before the first turn: a turn line starts with a label and a colon, such as "
         "\"用户: \", \"客服：\", \"Customer: \" or \"Agent: \" (docs/text.md)");
  }

  void add_turn(long no, const TurnLine& line) {
    if (!current_) {
      current_.emplace();
      current_->id = "line" + std::to_string(no);
      current_->line = no;
      current_->format = DialogueFormat::transcript;
    }
    Turn turn;
    turn.speaker = line.speaker;
    turn.role = std::string(line.label);
    turn.text = std::string(line.text);
    if (line.stamp) turn.time = turn_time(no, *line.stamp);
    current_->turns.push_back(std::move(turn));
    turn_lines_.push_back(no);
  }

  // A time of day earlier than the turn before it is read as the next day (the dialogue ran past
  // midnight). Times of day and dated times in one dialogue cannot be ordered, so they are an error.
  double turn_time(long no, const Stamp& stamp) {
    if (kind_ && *kind_ != stamp.time_of_day)
      fail(no, "time", stamp.time_of_day ? "a time of day after turns with a date: give every turn a date, or none"
                                         : "a date after turns with a time of day only: give every turn a date, or none");
    kind_ = stamp.time_of_day;
    if (!stamp.time_of_day) return stamp.seconds;
    if (last_time_of_day_ && stamp.seconds < *last_time_of_day_) day_offset_ += 86400.0;
    last_time_of_day_ = stamp.seconds;
    return stamp.seconds + day_offset_;
  }

  void end_dialogue() {
    std::optional<Dialogue> d = std::move(current_);
    std::vector<long> lines = std::move(turn_lines_);
    current_.reset();
    turn_lines_.clear();
    kind_.reset();
    last_time_of_day_.reset();
    day_offset_ = 0.0;
    if (!d) return;
    if (d->turns.empty() && !options_.allow_empty) fail(header_line_, "turns", "empty dialogue");
    for (std::size_t i = 0; i < d->turns.size(); ++i) {
      Turn& t = d->turns[i];
      if (t.text.empty()) fail(lines[i], "text", "the turn has no text after its label");
      t.sentences = split_sentences(t.text);
    }
    check_unique_id(*d);
    result_.dialogues.push_back(std::move(*d));
  }

  // As for JSONL: under fail a repeated id is an error, under skip both are kept with a warning.
  void check_unique_id(const Dialogue& d) {
    const auto [it, inserted] = first_line_of_id_.emplace(d.id, d.line);
    if (inserted) return;
    const std::string what = "\"" + sanitize_utf8(d.id) + "\" is also the id of line " + std::to_string(it->second);
    if (options_.on_error == OnError::fail)
      fail(d.line, "id", what + " (ids must be unique; under on-error skip both are kept, with a warning)");
    result_.warnings.push_back(SkippedRecord{d.line, name_ + ":" + std::to_string(d.line) + ": id: " + what});
  }

  const std::string& name_;
  const ReadOptions& options_;
  ReadResult& result_;
  std::optional<Dialogue> current_;
  std::vector<long> turn_lines_;
  long header_line_ = 0;
  bool skipping_ = false;
  std::optional<bool> kind_;  // the dialogue's timestamps: time of day (true) or dated (false)
  std::optional<double> last_time_of_day_;
  double day_offset_ = 0.0;
  std::unordered_map<std::string, long> first_line_of_id_;
};

}  // namespace

std::optional<bool> transcript_verdict(std::string_view content) {
  std::optional<bool> found;
  for_each_line(content, [&](long, std::string_view raw) {
    const std::string_view trimmed = trim(raw);
    if (trimmed.empty()) return true;
    found = trimmed.front() != '{' &&
            (is_separator(trimmed) || header_id(trimmed).has_value() || turn_line(trimmed).has_value());
    return false;
  });
  return found;
}

bool looks_like_transcript(std::string_view content) { return transcript_verdict(content).value_or(false); }

ReadResult read_transcript(std::string_view content, const std::string& name, const ReadOptions& options) {
  ReadResult result;
  result.path = name;
  result.format = DialogueFormat::transcript;
  TranscriptReader reader(name, options, result);
  long last = 0;
  for_each_line(content, [&](long no, std::string_view raw) {
    reader.line(no, raw);
    last = no;
    return true;
  });
  reader.finish(last);
  return result;
}

}  // namespace kessel::text::internal
