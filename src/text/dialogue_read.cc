#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <nlohmann/json.hpp>
#include <optional>
#include <sstream>
#include <unordered_map>
#include <utility>

#include "kessel/error.h"
#include "kessel/text/dialogue.h"
#include "kessel/text/utf8.h"
#include "text/dialogue_jsonl.h"
#include "text/dialogue_read_text.h"
#include "util/json_strict.h"

namespace kessel::text {

using nlohmann::json;

const char* to_string(Speaker s) { return s == Speaker::customer ? "customer" : "agent"; }

const char* to_string(DialogueFormat f) {
  switch (f) {
    case DialogueFormat::csds:
      return "csds";
    case DialogueFormat::tweetsumm:
      return "tweetsumm";
    case DialogueFormat::kessel:
      return "kessel";
    case DialogueFormat::transcript:
      return "transcript";
  }
  return "kessel";
}

DialogueFormat parse_dialogue_format(std::string_view name) {
  if (name == "csds") return DialogueFormat::csds;
  if (name == "tweetsumm") return DialogueFormat::tweetsumm;
  if (name == "kessel") return DialogueFormat::kessel;
  if (name == "transcript") return DialogueFormat::transcript;
  throw InvalidArgument("parse_dialogue_format: format='" + std::string(name) +
                        "' is not one of csds, tweetsumm, kessel, transcript");
}

OnError parse_on_error(std::string_view name) {
  if (name == "fail") return OnError::fail;
  if (name == "skip") return OnError::skip;
  throw InvalidArgument("parse_on_error: on_error='" + std::string(name) + "' is not fail or skip");
}

std::optional<double> parse_iso8601(std::string_view s) {
  // YYYY-MM-DD[T| ]hh:mm[:ss[.fff]][Z|+hh:mm|-hh:mm|+hhmm]
  auto digits = [&](std::size_t pos, std::size_t count, int* value) {
    if (pos + count > s.size()) return false;
    int v = 0;
    for (std::size_t i = pos; i < pos + count; ++i) {
      if (s[i] < '0' || s[i] > '9') return false;
      v = v * 10 + (s[i] - '0');
    }
    *value = v;
    return true;
  };
  int y, mo, d, h = 0, mi = 0, sec = 0;
  if (!digits(0, 4, &y) || s.size() < 10 || s[4] != '-' || !digits(5, 2, &mo) || s[7] != '-' ||
      !digits(8, 2, &d)) {
    return std::nullopt;
  }
  if (mo < 1 || mo > 12 || d < 1) return std::nullopt;
  const bool leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
  static constexpr int kDaysIn[12] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  if (d > kDaysIn[mo - 1] + (mo == 2 && leap ? 1 : 0)) return std::nullopt;  // 2024-02-30, 2023-02-29
  std::size_t p = 10;
  double frac = 0.0;
  double offset = 0.0;
  if (p < s.size()) {
    if (s[p] != 'T' && s[p] != ' ') return std::nullopt;
    if (!digits(p + 1, 2, &h) || p + 3 >= s.size() || s[p + 3] != ':' || !digits(p + 4, 2, &mi)) {
      return std::nullopt;
    }
    p += 6;
    if (p < s.size() && s[p] == ':') {
      if (!digits(p + 1, 2, &sec)) return std::nullopt;
      p += 3;
      if (p < s.size() && (s[p] == '.' || s[p] == ',')) {
        double scale = 0.1;
        ++p;
        const std::size_t begin = p;
        while (p < s.size() && s[p] >= '0' && s[p] <= '9') {
          frac += (s[p] - '0') * scale;
          scale /= 10;
          ++p;
        }
        if (p == begin) return std::nullopt;
      }
    }
    if (h > 24 || mi > 59 || sec > 60) return std::nullopt;
    if (p < s.size()) {
      if (s[p] == 'Z' && p + 1 == s.size()) {
        p += 1;
      } else if (s[p] == '+' || s[p] == '-') {
        int oh, om = 0;
        const int sign = s[p] == '+' ? 1 : -1;
        if (!digits(p + 1, 2, &oh)) return std::nullopt;
        std::size_t q = p + 3;
        if (q < s.size() && s[q] == ':') ++q;
        if (q < s.size() && !digits(q, 2, &om)) return std::nullopt;
        if (q < s.size()) q += 2;
        if (q != s.size()) return std::nullopt;
        if (oh > 23 || om > 59) return std::nullopt;  // +25:00 is no offset
        offset = sign * (oh * 3600.0 + om * 60.0);
        p = s.size();
      } else {
        return std::nullopt;
      }
    }
  }
  if (p != s.size()) return std::nullopt;
  // Days from civil (Howard Hinnant's algorithm).
  const int yy = y - (mo <= 2);
  const int era = (yy >= 0 ? yy : yy - 399) / 400;
  const unsigned yoe = static_cast<unsigned>(yy - era * 400);
  const unsigned doy = (153 * (mo + (mo > 2 ? -3 : 9)) + 2) / 5 + d - 1;
  const unsigned doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  const double days = era * 146097.0 + doe - 719468.0;
  return days * 86400.0 + h * 3600.0 + mi * 60.0 + sec + frac - offset;
}

namespace {

struct Ctx {
  const std::string& file;
  long line;
  std::vector<SkippedRecord>* ignored = nullptr;
  [[noreturn]] void fail(const std::string& field, const std::string& what) const {
    throw ParseError(file, line, field + ": " + what);
  }
};

std::string type_name(const json& j) { return j.type_name(); }

const json& need(const Ctx& c, const json& obj, const char* key, const std::string& field) {
  auto it = obj.find(key);
  if (it == obj.end()) c.fail(field.empty() ? key : field + "." + key, "missing");
  return *it;
}

std::string need_string(const Ctx& c, const json& j, const std::string& field) {
  if (!j.is_string()) c.fail(field, "expected a string, got " + type_name(j));
  return j.get<std::string>();
}

// obj[key], which must be a string; `field` names obj ("turns[3]"), and the member's name
// ("turns[3].text") is only spelled out for an error.
const std::string& need_member_string(const Ctx& c, const json& obj, const char* key, const std::string& field) {
  const json& j = need(c, obj, key, field);
  if (!j.is_string()) c.fail(field + "." + key, "expected a string, got " + type_name(j));
  return j.get_ref<const std::string&>();
}

// `j[key]` must be a list of objects; body(field, turn) runs on each, field = "key[i]".
template <typename Body>
void for_each_turn(const Ctx& c, const json& j, const char* key, Body body) {
  const json& turns = need(c, j, key, "");
  if (!turns.is_array()) c.fail(key, "expected a list of turns, got " + type_name(turns));
  for (std::size_t i = 0; i < turns.size(); ++i) {
    const std::string f = std::string(key) + "[" + std::to_string(i) + "]";
    const json& t = turns[i];
    if (!t.is_object()) c.fail(f, "expected an object, got " + type_name(t));
    body(f, t);
  }
}

// The turn's "speaker" string, which must be `customer` or `agent` (the format's two spellings).
Speaker need_speaker(const Ctx& c, const json& t, const std::string& f, const char* customer, const char* agent) {
  const std::string& speaker = need_member_string(c, t, "speaker", f);
  if (speaker == customer) return Speaker::customer;
  if (speaker != agent)
    c.fail(f + ".speaker", std::string("expected \"") + customer + "\" or \"" + agent + "\", got \"" + speaker + "\"");
  return Speaker::agent;
}

// Tweets keep Twitter's HTML escapes (&amp; &lt; &gt; &quot; &#39;): a reader sees "&gt;", ROUGE sees
// "gt". Only these five, which Twitter produces; anything else stays as written.
std::string unescape_html(const std::string& s) {
  if (s.find('&') == std::string::npos) return s;
  static const std::pair<const char*, const char*> kEntities[] = {
      {"&amp;", "&"}, {"&lt;", "<"}, {"&gt;", ">"}, {"&quot;", "\""}, {"&#39;", "'"}};
  std::string out;
  for (std::size_t i = 0; i < s.size();) {
    bool replaced = false;
    if (s[i] == '&')
      for (const auto& [from, to] : kEntities)
        if (s.compare(i, std::strlen(from), from) == 0) {
          out += to;
          i += std::strlen(from);
          replaced = true;
          break;
        }
    if (!replaced) out += s[i++];
  }
  return out;
}

// A summary given as a string or a list of strings -> its sentences.
std::vector<std::string> summary_sentences(const Ctx& c, const json& j, const std::string& field) {
  std::vector<std::string> out;
  if (j.is_string()) return split_sentences(j.get<std::string>());
  if (!j.is_array()) c.fail(field, "expected a string or a list of strings, got " + type_name(j));
  for (std::size_t i = 0; i < j.size(); ++i) {
    const std::string s = need_string(c, j[i], field + "[" + std::to_string(i) + "]");
    for (auto& piece : split_sentences(s)) out.push_back(std::move(piece));
  }
  return out;
}

// j as an index in [0, size), or nothing when it is not an integer in that range. Unsigned values
// are compared as such: 18446744073709551615 read as long long was "turn -1".
std::optional<std::size_t> index_below(const json& j, std::size_t size) {
  if (j.is_number_unsigned()) {
    const auto v = j.get<std::uint64_t>();
    if (v < size) return static_cast<std::size_t>(v);
    return std::nullopt;
  }
  if (!j.is_number_integer()) return std::nullopt;
  const auto v = j.get<std::int64_t>();
  if (v < 0 || static_cast<std::uint64_t>(v) >= size) return std::nullopt;
  return static_cast<std::size_t>(v);
}

// "string \"abc\"" for a short value, its type alone for a long or structured one.
std::string describe(const json& j) {
  if (j.is_structured()) return type_name(j);
  const std::string text = j.dump(-1, ' ', false, json::error_handler_t::replace);
  return text.size() <= 40 ? type_name(j) + " " + text : type_name(j);
}

// A record's "id": a string, or an integer written as in the file (an unsigned 64-bit one
// included).
std::string id_text(const Ctx& c, const json& id) {
  if (id.is_string()) return id.get<std::string>();
  if (!id.is_number_integer()) c.fail("id", "expected a string or an integer, got " + describe(id));
  return id.dump();
}

// A CSDS utterance writes some line breaks as the two characters backslash and n (这个明天能到吗，\n明后天):
// they are line breaks, which end a sentence, not text (a summary would show the n).
std::string with_line_breaks(std::string text) {
  for (std::size_t at = 0; (at = text.find("\\n", at)) != std::string::npos;) text.replace(at, 2, "\n");
  return text;
}

void finish_turn(Turn& t) {
  if (t.sentences.empty()) t.sentences = split_sentences(t.text);
}

Dialogue parse_csds(const Ctx& c, const json& j) {
  Dialogue d;
  d.format = DialogueFormat::csds;
  // The id: "id" (a string), else "tods_index" (CSDS's integer), else the line. A field that is
  // there but of another type is an error, not a fallback to "line<N>".
  if (j.contains("id")) {
    d.id = id_text(c, j["id"]);
  } else if (j.contains("tods_index")) {
    const json& index = j["tods_index"];
    if (!index.is_number_integer())
      c.fail("tods_index", "expected an integer, got " + describe(index));
    d.id = index.dump();
  } else {
    d.id = "line" + std::to_string(c.line);
  }
  for_each_turn(c, j, "Dialogue", [&](const std::string& f, const json& t) {
    Turn turn;
    turn.speaker = need_speaker(c, t, f, "Q", "A");
    turn.text = with_line_breaks(need_member_string(c, t, "utterance", f));
    if (t.contains("utterance_recovered") && !t["utterance_recovered"].is_null()) {
      turn.text = need_string(c, t["utterance_recovered"], f + ".utterance_recovered");
    } else if (t.contains("truncated")) {
      if (!t["truncated"].is_boolean()) c.fail(f + ".truncated", "expected a boolean");
      turn.truncated = t["truncated"].get<bool>();
    }
    if (t.contains("role") && t["role"].is_string()) turn.role = t["role"].get<std::string>();
    finish_turn(turn);
    d.turns.push_back(std::move(turn));
  });
  if (j.contains("FinalSumm")) {
    d.references.push_back(summary_sentences(c, j["FinalSumm"], "FinalSumm"));
  } else if (j.contains("TopicSumm")) {
    const json& ts = j["TopicSumm"];
    if (!ts.is_array()) c.fail("TopicSumm", "expected a list, got " + type_name(ts));
    std::string all;
    for (std::size_t i = 0; i < ts.size(); ++i) {
      const std::string f = "TopicSumm[" + std::to_string(i) + "]";
      if (!ts[i].is_object()) c.fail(f, "expected an object, got " + type_name(ts[i]));
      all += need_member_string(c, ts[i], "QASumm", f);
    }
    d.references.push_back(split_sentences(all));
  }
  if (j.contains("UserSumm"))
    d.user_references.push_back(summary_sentences(c, j["UserSumm"], "UserSumm"));
  if (j.contains("AgentSumm")) {
    d.agent_references.push_back(summary_sentences(c, j["AgentSumm"], "AgentSumm"));
  }
  if (j.contains("ExtGoldTurnIDs")) {
    const json& ids = j["ExtGoldTurnIDs"];
    if (!ids.is_array()) c.fail("ExtGoldTurnIDs", "expected a list of integers");
    for (std::size_t i = 0; i < ids.size(); ++i) {
      const std::string f = "ExtGoldTurnIDs[" + std::to_string(i) + "]";
      const auto v = index_below(ids[i], d.turns.size());
      if (!v) {
        if (!ids[i].is_number_integer()) c.fail(f, "expected an integer, got " + type_name(ids[i]));
        c.fail(f,
               "turn " + ids[i].dump() + " is outside [0, " + std::to_string(d.turns.size()) + ")");
      }
      d.key_turns.push_back(static_cast<int>(*v));
    }
  }
  return d;
}

Dialogue parse_tweetsumm(const Ctx& c, const json& j) {
  Dialogue d;
  d.format = DialogueFormat::tweetsumm;
  if (j.contains("conversation_id") && j["conversation_id"].is_string()) {
    d.id = j["conversation_id"].get<std::string>();
  } else {
    d.id = "line" + std::to_string(c.line);
  }
  for_each_turn(c, j, "turns", [&](const std::string& f, const json& t) {
    const json& agent = need(c, t, "is_agent", f);
    if (!agent.is_boolean()) c.fail(f + ".is_agent", "expected a boolean, got " + type_name(agent));
    Turn turn;
    turn.speaker = agent.get<bool>() ? Speaker::agent : Speaker::customer;
    const json& sents = need(c, t, "sentences", f);
    if (!sents.is_array())
      c.fail(f + ".sentences", "expected a list of strings, got " + type_name(sents));
    for (std::size_t k = 0; k < sents.size(); ++k) {
      std::string s = unescape_html(need_string(c, sents[k], f + ".sentences[" + std::to_string(k) + "]"));
      if (!turn.text.empty()) turn.text += " ";
      turn.text += s;
      turn.sentences.push_back(std::move(s));
    }
    turn.role = turn.speaker == Speaker::agent ? "agent" : "customer";
    d.turns.push_back(std::move(turn));
  });
  if (j.contains("extractive_summaries")) {
    const json& ex = j["extractive_summaries"];
    if (!ex.is_array()) c.fail("extractive_summaries", "expected a list");
    for (std::size_t s = 0; s < ex.size(); ++s) {
      const std::string fs = "extractive_summaries[" + std::to_string(s) + "]";
      if (!ex[s].is_array()) c.fail(fs, "expected a list, got " + type_name(ex[s]));
      std::vector<SentenceRef> refs;
      for (std::size_t k = 0; k < ex[s].size(); ++k) {
        const std::string f = fs + "[" + std::to_string(k) + "]";
        const json& item = ex[s][k];
        if (!item.is_object()) c.fail(f, "expected an object");
        const json& tt = need(c, item, "turn", f);
        const json& ss = need(c, item, "sentence", f);
        if (!tt.is_number_integer())
          c.fail(f + ".turn", "expected an integer, got " + type_name(tt));
        if (!ss.is_number_integer())
          c.fail(f + ".sentence", "expected an integer, got " + type_name(ss));
        const auto ti = index_below(tt, d.turns.size());
        if (!ti) c.fail(f + ".turn", "turn " + tt.dump() + " out of range");
        const auto si = index_below(ss, d.turns[*ti].sentences.size());
        if (!si)
          c.fail(f + ".sentence",
                 "sentence " + ss.dump() + " out of range for turn " + std::to_string(*ti));
        refs.push_back(SentenceRef{static_cast<int>(*ti), static_cast<int>(*si)});
      }
      d.extractive.push_back(std::move(refs));
    }
  }
  if (j.contains("abstractive_summaries")) {
    const json& ab = j["abstractive_summaries"];
    if (!ab.is_array()) c.fail("abstractive_summaries", "expected a list");
    for (std::size_t s = 0; s < ab.size(); ++s) {
      const std::string f = "abstractive_summaries[" + std::to_string(s) + "]";
      if (ab[s].is_null()) {
        if (c.ignored != nullptr)
          c.ignored->push_back(SkippedRecord{c.line, f + ": null, ignored"});
        continue;
      }
      if (!ab[s].is_array()) c.fail(f, "expected a list of strings, got " + type_name(ab[s]));
      std::vector<std::string> sents;
      for (std::size_t k = 0; k < ab[s].size(); ++k) {
        sents.push_back(need_string(c, ab[s][k], f + "[" + std::to_string(k) + "]"));
      }
      d.references.push_back(std::move(sents));
    }
  }
  return d;
}

Dialogue parse_kessel(const Ctx& c, const json& j) {
  Dialogue d;
  d.format = DialogueFormat::kessel;
  d.id = id_text(c, need(c, j, "id", ""));
  for_each_turn(c, j, "turns", [&](const std::string& f, const json& t) {
    Turn turn;
    turn.speaker = need_speaker(c, t, f, "customer", "agent");
    turn.role = turn.speaker == Speaker::customer ? "customer" : "agent";
    turn.text = need_member_string(c, t, "text", f);
    if (t.contains("time") && !t["time"].is_null()) {
      const json& tm = t["time"];
      if (tm.is_number()) {
        const double v = tm.get<double>();
        if (!std::isfinite(v)) c.fail(f + ".time", "not a finite number");
        if (std::fabs(v) > kMaxTimeSeconds)
          c.fail(f + ".time", detail::concat(v, " s is out of range (|time| <= ", kMaxTimeSeconds,
                                             " s); times are seconds, so divide milliseconds by 1000"));
        turn.time = v;
      } else if (tm.is_string()) {
        const auto v = parse_iso8601(tm.get<std::string>());
        if (!v)
          c.fail(f + ".time", "\"" + tm.get<std::string>() + "\" is not an ISO 8601 date-time");
        turn.time = *v;
      } else {
        c.fail(f + ".time",
               "expected seconds (number) or an ISO 8601 string, got " + type_name(tm));
      }
    }
    finish_turn(turn);
    d.turns.push_back(std::move(turn));
  });
  if (j.contains("reference") && !j["reference"].is_null()) {
    d.references.push_back(summary_sentences(c, j["reference"], "reference"));
  }
  return d;
}

DialogueFormat detect_from_json(const json& j, const Ctx& c) {
  if (!j.is_object()) c.fail("record", "expected a JSON object, got " + type_name(j));
  if (j.contains("Dialogue")) return DialogueFormat::csds;
  if (j.contains("turns") && j["turns"].is_array()) {
    for (const auto& t : j["turns"]) {
      if (t.is_object() && (t.contains("is_agent") || t.contains("sentences"))) {
        return DialogueFormat::tweetsumm;
      }
      if (t.is_object() && (t.contains("speaker") || t.contains("text")))
        return DialogueFormat::kessel;
    }
    if (j.contains("conversation_id") || j.contains("abstractive_summaries")) {
      return DialogueFormat::tweetsumm;
    }
    return DialogueFormat::kessel;
  }
  c.fail("record",
         "cannot tell the format: no \"Dialogue\" (csds) or \"turns\" (tweetsumm, kessel) key");
}

// The field of a record that holds its first malformed UTF-8 byte, as a path ("turns[2].text"):
// a copy of the line with each bad byte replaced by U+FFFD is parsed, and the first string (or key)
// with more U+FFFD than the line had is the one. "record" when the bad byte is not inside a string
// (the line is then not JSON either).
std::string field_of_invalid_utf8(std::string_view line) {
  static const std::string kReplacement = "\xEF\xBF\xBD";
  auto count = [](std::string_view s) {
    std::size_t n = 0;
    for (std::size_t at = s.find(kReplacement); at != std::string_view::npos; at = s.find(kReplacement, at + 1)) ++n;
    return n;
  };
  const std::size_t already = count(line);
  // Strict parsing bounds the depth, so the walk below cannot recurse a million levels.
  json j;
  try {
    j = util::parse_json_strict(sanitize_utf8(line));
  } catch (const std::exception&) {
    return "record";
  }
  std::string found;
  auto visit = [&](auto&& self, const json& v, const std::string& path) -> void {
    if (!found.empty()) return;
    if (v.is_string()) {
      if (count(v.get_ref<const std::string&>()) > already) found = path;
    } else if (v.is_array()) {
      for (std::size_t i = 0; i < v.size(); ++i) self(self, v[i], path + "[" + std::to_string(i) + "]");
    } else if (v.is_object()) {
      for (auto it = v.begin(); it != v.end(); ++it) {
        const std::string child = path.empty() ? it.key() : path + "." + it.key();
        if (count(it.key()) > already) found = child + " (key)";
        self(self, it.value(), child);
      }
    }
  };
  visit(visit, j, "");
  return found.empty() ? "record" : found;
}

// "invalid UTF-8 at byte offset N of the line (0xXX)" for the record's first malformed byte, as
// the ParseError (the field holding it, else "record"); returns when the line is valid.
void check_utf8(const Ctx& c, std::string_view line) {
  const auto bad = find_invalid_utf8(line);
  if (!bad) return;
  char hex[8];
  std::snprintf(hex, sizeof hex, "0x%02X", static_cast<unsigned>(static_cast<unsigned char>(line[static_cast<std::size_t>(*bad)])));
  c.fail(field_of_invalid_utf8(line), detail::concat("invalid UTF-8 at byte offset ", *bad, " of the line (", hex, ")"));
}

// The next line of `content` from `pos` (without its '\n' and a trailing '\r'), advancing pos and the
// 1-based line_no; false at the end.
bool next_line(std::string_view content, std::size_t& pos, long& line_no, std::string_view& line) {
  if (pos >= content.size()) return false;
  std::size_t end = content.find('\n', pos);
  if (end == std::string_view::npos) end = content.size();
  ++line_no;
  line = content.substr(pos, end - pos);
  pos = end + 1;
  if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
  return true;
}

// A dialogue id seen before: summaries, evaluations and reports are keyed by id, so two dialogues
// of one id would be confused downstream. Refused (ParseError on the second one's line) under
// OnError::fail; under skip both are kept and a warning is added.
void check_unique_id(const Ctx& c, const std::string& id, OnError on_error,
                     std::unordered_map<std::string, long>& first_line_of_id,
                     std::vector<SkippedRecord>& warnings) {
  const auto [it, inserted] = first_line_of_id.emplace(id, c.line);
  if (inserted) return;
  const std::string what =
      "\"" + sanitize_utf8(id) + "\" is also the id of line " + std::to_string(it->second);
  if (on_error == OnError::fail)
    c.fail("id", what + " (ids must be unique; under on-error skip both are kept, with a warning)");
  warnings.push_back(
      SkippedRecord{c.line, c.file + ":" + std::to_string(c.line) + ": id: " + what});
}

// One JSONL line as JSON: invalid UTF-8, a structure the strict parser refuses and invalid JSON
// are ParseErrors naming the line; `invalid_json` words the last.
template <typename Message>
json parse_record_json(const Ctx& c, std::string_view line, Message invalid_json) {
  check_utf8(c, line);
  try {
    return util::parse_json_strict(line);
  } catch (const util::JsonStructureError& e) {
    c.fail(e.path().empty() ? "record" : e.path(), e.reason());
  } catch (const json::parse_error& e) {
    c.fail("record", invalid_json(e));
  }
}

constexpr const char* kNotATranscript =
    "; nor is it a plain-text transcript, whose first line is a turn with a speaker label (用户: / 客服: / "
    "Customer: / Agent: ..., docs/text.md), a `# id:` header or `---`";

}  // namespace

namespace internal {

JsonlRecords::JsonlRecords(std::string name, DialogueFormat format, const ReadOptions& options)
    : name_(std::move(name)), format_(format), options_(options) {}

void JsonlRecords::add(std::string_view line, long line_no, ReadResult& into, json* parsed) {
  if (line.find_first_not_of(" \t\r") == std::string_view::npos) return;
  ++into.lines;
  std::vector<SkippedRecord> ignored;
  const Ctx c{name_, line_no, &ignored};
  try {
    const json j = parsed ? std::move(*parsed) : parse_record_json(c, line, [](const json::parse_error& e) {
      return std::string("invalid JSON: ") + e.what();
    });
    if (!j.is_object()) c.fail("record", "expected a JSON object, got " + type_name(j));
    Dialogue d;
    switch (format_) {
      case DialogueFormat::csds:
        d = parse_csds(c, j);
        break;
      case DialogueFormat::tweetsumm:
        d = parse_tweetsumm(c, j);
        break;
      case DialogueFormat::kessel:
        d = parse_kessel(c, j);
        break;
      case DialogueFormat::transcript:  // read whole by read_transcript, never line by line
        throw InvalidArgument("JsonlRecords: a transcript is not JSONL");
    }
    if (d.turns.empty() && !options_.allow_empty)
      c.fail(format_ == DialogueFormat::csds ? "Dialogue" : "turns", "empty dialogue");
    d.line = line_no;
    check_unique_id(c, d.id, options_.on_error, first_line_of_id_, into.warnings);
    into.dialogues.push_back(std::move(d));
    for (auto& i : ignored) into.ignored.push_back(std::move(i));
  } catch (const ParseError& e) {
    if (options_.on_error == OnError::fail) throw;
    into.skipped.push_back(SkippedRecord{line_no, e.what()});
  }
}

namespace {

// detect_record_format, keeping the record's JSON in `record`.
DialogueFormat detect_record_format_keeping(std::string_view line, const std::string& name, long line_no,
                                            json& record) {
  while (!line.empty() && (line.back() == '\r' || line.back() == ' ' || line.back() == '\t')) line.remove_suffix(1);
  const Ctx c{name, line_no};
  record = parse_record_json(c, line, [&](const json::parse_error& e) {
    // Text that is not JSON was perhaps meant as a transcript: say what starts one.
    const std::size_t first = line.find_first_not_of(" \t");
    // A line of blanks and carriage returns only is trimmed to nothing here: not JSON-like either.
    const bool json_like = first != std::string_view::npos && (line[first] == '{' || line[first] == '[');
    return std::string("cannot detect the format: invalid JSON: ") + e.what() + (json_like ? "" : kNotATranscript);
  });
  return detect_from_json(record, c);
}

}  // namespace

DialogueFormat detect_record_format(std::string_view line, const std::string& name, long line_no) {
  json record;
  return detect_record_format_keeping(line, name, line_no, record);
}

DetectedFormat detect_format_keeping_record(std::string_view content, const std::string& name) {
  // The first record that tells its format decides. Records before it that cannot (bad JSON, not an
  // object, no known key) do not stop detection: the reader then reports each of them under
  // --on-error. When no record tells, the first one's problem is the error. A plain-text transcript
  // tells from its first line (a speaker label, `# id:` or `---`), which no JSONL line is.
  DetectedFormat out;
  if (looks_like_transcript(content)) {
    out.format = DialogueFormat::transcript;
    return out;
  }
  long line_no = 0;
  std::size_t pos = 0;
  std::string_view line;
  std::optional<ParseError> first_problem;
  while (next_line(content, pos, line_no, line)) {
    if (line.find_first_not_of(" \t\r") == std::string_view::npos) continue;
    try {
      out.format = detect_record_format_keeping(line, name, line_no, out.record);
      out.line_no = line_no;
      return out;
    } catch (const ParseError& e) {
      if (!first_problem) first_problem = e;
    }
  }
  if (first_problem) throw *first_problem;
  throw ParseError(name, 0, "record: cannot detect the format of an empty file");
}

}  // namespace internal

DialogueFormat detect_dialogue_format(std::string_view content, const std::string& name) {
  return internal::detect_format_keeping_record(content, name).format;
}

ReadResult read_dialogues_from_string(std::string_view content, const std::string& name,
                                      const ReadOptions& options) {
  ReadResult result;
  result.path = name;
  bool any = content.find_first_not_of(" \t\r\n") != std::string_view::npos;
  if (!any) {
    result.format = options.format.value_or(DialogueFormat::kessel);
    return result;
  }
  internal::DetectedFormat detected;  // the record that told the format, parsed once
  if (options.format) {
    result.format = *options.format;
  } else {
    try {
      detected = internal::detect_format_keeping_record(content, name);
      result.format = detected.format;
    } catch (const ParseError&) {
      // No record tells its format, so none can be read whatever the format: with skip, each is
      // reported and counted below (under any format, here kessel); with fail, the first one's
      // problem is the error.
      if (options.on_error == OnError::fail) throw;
      result.format = DialogueFormat::kessel;
    }
  }
  if (result.format == DialogueFormat::transcript) {
    if (options.first_line != 1)
      throw InvalidArgument("read_dialogues: " + name + ": first_line=" + std::to_string(options.first_line) +
                            " is for a shard of a JSONL file; a transcript's dialogues span lines and "
                            "cannot be read from a shard");
    return internal::read_transcript(content, name, options);
  }
  long line_no = options.first_line - 1;
  std::size_t pos = 0;
  std::string_view line;
  internal::JsonlRecords records(name, result.format, options);
  // Detection numbers the content's lines from 1, the reader from options.first_line.
  const long detected_line = detected.line_no > 0 ? detected.line_no + options.first_line - 1 : -1;
  while (next_line(content, pos, line_no, line))
    records.add(line, line_no, result, line_no == detected_line ? &detected.record : nullptr);
  return result;
}

ReadResult read_dialogues(const std::string& path, const ReadOptions& options) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw IoError("read_dialogues: cannot open '" + path + "'");
  std::stringstream ss;
  ss << in.rdbuf();
  return read_dialogues_from_string(ss.str(), path, options);
}

}  // namespace kessel::text
