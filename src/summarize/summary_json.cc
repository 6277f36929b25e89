#include "kessel/summarize/summary_json.h"

#include <string>

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

}  // namespace

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
