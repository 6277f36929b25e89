#include "kessel/summarize/summary_json.h"

#include <charconv>
#include <cmath>
#include <string>
#include <string_view>

#include "kessel/text/dialogue.h"
#include "summarize/eaca_rule_channel.h"

namespace kessel::summarize {

namespace {

// "rule_channel" of an explain record: the rule channel of the dual-channel attention
// (eaca_rule_channel.h), the reason shown for each selected sentence, in summary order:
// {"rules": {"emotion_nats", "question_nats", "window_nats", "window_seconds" | "window_turns"},
//  "sentences": [{"unit", "turn", "because", "self_rules": ["emotion" | "question"], "self_weight",
//  "self_term"?, "near": [{"rule", "unit", "turn", "weight", "term"?}], "reasons": [{"rule",
//  "nats", "mass", "fired", "keys": [{"unit", "turn", "weight", "term"?}]}], "weights"?: [U]}]}.
// self_rules: the key rules on the sentence's own key, self_weight its w_ii, self_term its emotion
// term when self_rules has "emotion"; near: for each key rule not in self_rules, its heaviest key
// j != i within the sentence's window. `because` words self_rules and near (turns from 0); reasons
// are each rule's mass and heaviest keys over the whole row. The weights over all units are given
// up to kMaxExplainUnits units.
nlohmann::json rule_channel_json(const Prepared& p, const Summary& s) {
  const RuleChannel rc = rule_channel(p, s);
  const auto& o = rc.options;
  nlohmann::json rules = {{"emotion_nats", o.emotion_nats}, {"question_nats", o.question_nats}, {"window_nats", o.window_nats}};
  if (rc.by_time)
    rules["window_seconds"] = o.window_seconds;
  else
    rules["window_turns"] = o.window_turns;
  nlohmann::json rows = nlohmann::json::array();
  for (const auto& row : rc.rows) {
    nlohmann::json reasons = nlohmann::json::array();
    for (const auto& r : row.reasons) {
      nlohmann::json keys = nlohmann::json::array();
      for (const auto& k : r.keys) {
        nlohmann::json key = {{"unit", k.unit}, {"turn", k.turn}, {"weight", k.weight}};
        if (r.rule == Rule::kEmotion) key["term"] = k.term;
        keys.push_back(std::move(key));
      }
      reasons.push_back({{"rule", rule_name(r.rule)}, {"nats", r.nats}, {"mass", r.mass}, {"fired", r.fired}, {"keys", keys}});
    }
    nlohmann::json self_rules = nlohmann::json::array(), near = nlohmann::json::array();
    for (Rule r : row.self_rules) self_rules.push_back(rule_name(r));
    for (const auto& n : row.near) {
      nlohmann::json k = {{"rule", rule_name(n.rule)},
                          {"unit", n.key.unit},
                          {"turn", n.key.turn},
                          {"weight", n.key.weight}};
      if (n.rule == Rule::kEmotion) k["term"] = n.key.term;
      near.push_back(std::move(k));
    }
    nlohmann::json j = {{"unit", row.unit},       {"turn", row.turn},
                        {"because", row.because}, {"self_rules", self_rules},
                        {"self_weight", row.self_weight}, {"near", near},
                        {"reasons", reasons}};
    if (!row.self_rules.empty() && row.self_rules.front() == Rule::kEmotion)
      j["self_term"] = row.self_term;
    if (p.units.size() <= static_cast<std::size_t>(kMaxExplainUnits)) j["weights"] = row.weights;
    rows.push_back(std::move(j));
  }
  return {{"rules", rules}, {"sentences", rows}};
}

// ---- summary_json_text -----------------------------------------------------------------------

// The length of the well-formed UTF-8 sequence at s[i] (Unicode 15, table 3-7: no overlong form, no
// surrogate, nothing past U+10FFFF: what nlohmann's decoder accepts), or 0 when there is none.
std::size_t utf8_sequence(std::string_view s, std::size_t i) {
  const auto b = [&](std::size_t k) { return static_cast<unsigned char>(s[i + k]); };
  const auto in = [](unsigned char c, unsigned char lo, unsigned char hi) {
    return c >= lo && c <= hi;
  };
  const unsigned char c = b(0);
  const std::size_t left = s.size() - i;
  if (c < 0x80) return 1;
  if (in(c, 0xC2, 0xDF)) return left >= 2 && in(b(1), 0x80, 0xBF) ? 2 : 0;
  if (in(c, 0xE0, 0xEF)) {
    if (left < 3 || !in(b(2), 0x80, 0xBF)) return 0;
    const unsigned char lo = c == 0xE0 ? 0xA0 : 0x80, hi = c == 0xED ? 0x9F : 0xBF;
    return in(b(1), lo, hi) ? 3 : 0;
  }
  if (in(c, 0xF0, 0xF4)) {
    if (left < 4 || !in(b(2), 0x80, 0xBF) || !in(b(3), 0x80, 0xBF)) return 0;
    const unsigned char lo = c == 0xF0 ? 0x90 : 0x80, hi = c == 0xF4 ? 0x8F : 0xBF;
    return in(b(1), lo, hi) ? 4 : 0;
  }
  return 0;
}

// s as a JSON string, escaped as nlohmann's dump() escapes it (ensure_ascii off); false, with `out`
// partly written, when s is not valid UTF-8.
bool append_string(std::string& out, std::string_view s) {
  static constexpr char kHex[] = "0123456789abcdef";
  out += '"';
  for (std::size_t i = 0; i < s.size();) {
    const std::size_t n = utf8_sequence(s, i);
    if (n == 0) return false;
    const char c = s[i];
    if (n > 1 || (c >= 0x20 && c != '"' && c != '\\')) {
      out.append(s.data() + i, n);
    } else if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (c == '\b') {
      out += "\\b";
    } else if (c == '\t') {
      out += "\\t";
    } else if (c == '\n') {
      out += "\\n";
    } else if (c == '\f') {
      out += "\\f";
    } else if (c == '\r') {
      out += "\\r";
    } else {
      out += "\\u00";
      out += kHex[static_cast<unsigned char>(c) >> 4];
      out += kHex[static_cast<unsigned char>(c) & 15];
    }
    i += n;
  }
  out += '"';
  return true;
}

// A number as dump() writes it: a double through nlohmann's to_chars (a float is widened first, as
// assigning it to a json value does), null when not finite; an integer in decimal.
void append_number(std::string& out, double x) {
  if (!std::isfinite(x)) {
    out += "null";
    return;
  }
  char buffer[64];
  const char* end = nlohmann::detail::to_chars(buffer, buffer + sizeof buffer, x);
  out.append(buffer, static_cast<std::size_t>(end - buffer));
}
void append_integer(std::string& out, long long x) {
  char buffer[24];
  const auto r = std::to_chars(buffer, buffer + sizeof buffer, x);
  out.append(buffer, static_cast<std::size_t>(r.ptr - buffer));
}

// The record of summary_json_text; false at the first string that is not valid UTF-8.
bool append_record(std::string& out, const Summary& s) {
  // Keys in std::map order, as the tree holds them.
  out += "{\"constraint_bound\":";
  out += s.constraint_bound ? "true" : "false";
  out += ",\"constraint_cost\":";
  append_number(out, s.constraint_cost);
  out += ",\"constraint_satisfied\":";
  out += s.constraint_satisfied ? "true" : "false";
  out += ",\"emotions\":[";
  for (std::size_t k = 0; k < s.emotions.size(); ++k) {
    const SummaryEmotion& e = s.emotions[k];
    out += k == 0 ? "{\"emotion\":" : ",{\"emotion\":";
    if (!append_string(out, e.emotion)) return false;
    out += ",\"end\":";
    append_integer(out, e.end);
    out += ",\"in_summary\":";
    out += e.in_summary ? "true" : "false";
    out += ",\"kind\":";
    if (!append_string(out, e.kind)) return false;
    out += ",\"source\":";
    if (!append_string(out, e.source)) return false;
    out += ",\"start\":";
    append_integer(out, e.start);
    out += ",\"strength\":";
    append_number(out, e.strength);
    out += ",\"term\":";
    if (!append_string(out, e.term)) return false;
    out += ",\"turn\":";
    append_integer(out, e.turn);
    out += '}';
  }
  out += "],\"id\":";
  if (!append_string(out, s.id)) return false;
  out += ",\"sentences\":[";
  for (std::size_t k = 0; k < s.sentences.size(); ++k) {
    const SummarySentence& sent = s.sentences[k];
    out += k == 0 ? "{\"score\":" : ",{\"score\":";
    append_number(out, sent.score);
    out += ",\"text\":";
    if (!append_string(out, sent.text)) return false;
    out += ",\"turn\":";
    append_integer(out, sent.turn);
    out += '}';
  }
  out += "],\"summary\":";
  if (!append_string(out, s.summary)) return false;
  if (!s.unsupported_languages.empty()) {
    out += ",\"unsupported_languages\":[";
    for (std::size_t k = 0; k < s.unsupported_languages.size(); ++k) {
      if (k > 0) out += ',';
      if (!append_string(out, s.unsupported_languages[k])) return false;
    }
    out += ']';
  }
  out += '}';
  return true;
}

}  // namespace

std::string summary_json_text(const Prepared& p, const Summary& s) {
  std::string out;
  out.reserve(512);
  if (append_record(out, s)) return out;
  return summary_to_json(p, s, nullptr).dump();  // throws dump()'s error on the bad string
}

nlohmann::json summary_to_json(const Prepared& p, const Summary& s, const UnitScores* explain) {
  nlohmann::json j;
  j["id"] = s.id;
  j["summary"] = s.summary;
  j["sentences"] = nlohmann::json::array();
  for (const auto& sent : s.sentences)
    j["sentences"].push_back({{"text", sent.text}, {"turn", sent.turn}, {"score", sent.score}});
  j["emotions"] = nlohmann::json::array();
  for (const auto& e : s.emotions)
    j["emotions"].push_back({{"term", e.term},
                             {"turn", e.turn},
                             {"start", e.start},
                             {"end", e.end},
                             {"emotion", e.emotion},
                             {"kind", e.kind},
                             {"strength", e.strength},
                             {"source", e.source},
                             {"in_summary", e.in_summary}});
  j["constraint_satisfied"] = s.constraint_satisfied;
  j["constraint_bound"] = s.constraint_bound;
  j["constraint_cost"] = s.constraint_cost;
  if (!s.unsupported_languages.empty()) j["unsupported_languages"] = s.unsupported_languages;
  if (explain && p.dialogue != nullptr) {
    // The dialogue as read, so that a reader of the record (the review page) can show the turns that
    // sentences, emotions and the map point into.
    nlohmann::json turns = nlohmann::json::array();
    for (const auto& t : p.dialogue->turns) turns.push_back({{"speaker", text::to_string(t.speaker)}, {"text", t.text}});
    j["turns"] = std::move(turns);
    j["rule_channel"] = rule_channel_json(p, s);
  }
  if (explain && !explain->attention_kernel.empty()) j["attention_kernel"] = explain->attention_kernel;
  if (explain && explain->attention.size() > 0) {
    const auto& a = explain->attention;
    nlohmann::json units = nlohmann::json::array();
    for (const auto& u : p.units) units.push_back({{"turn", u.turn}, {"text", u.text}});
    nlohmann::json rows = nlohmann::json::array();
    for (Index r = 0; r < a.dim(0); ++r) {
      std::vector<float> row(a.data() + r * a.dim(1), a.data() + (r + 1) * a.dim(1));
      rows.push_back(row);
    }
    j["attention"] = {{"units", units}, {"queries", explain->attention_queries}, {"weights", rows}};
  } else if (explain) {
    // Asked for and not there: say why rather than leave the reader to guess.
    j["attention_omitted"] =
        p.units.size() > static_cast<std::size_t>(kMaxExplainUnits)
            ? "the dialogue has " + std::to_string(p.units.size()) + " sentences; maps are given for at most " +
                  std::to_string(kMaxExplainUnits)
            : std::string("the ranker has no attention map, or the dialogue has no customer sentence");
  }
  return j;
}

}  // namespace kessel::summarize
