#include "summarize/eaca_rule_channel.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "kessel/attention.h"
#include "kessel/error.h"
#include "kessel/text/utf8.h"
#include "summarize/faith_cues.h"

namespace kessel::summarize {

const char* rule_name(Rule rule) {
  switch (rule) {
    case Rule::kEmotion:
      return "emotion";
    case Rule::kQuestion:
      return "question";
    case Rule::kWindow:
      return "window";
  }
  return "?";
}

namespace {

// What the key-side rules say of each unit: the emotion term (empty: none) and whether it is a
// customer question.
struct KeyFacts {
  std::vector<std::string> emotion_term;  // [U]
  std::vector<char> emotion;              // [U]
  std::vector<char> question;             // [U]
};

bool is_customer(const Prepared& p, int turn) {
  return p.dialogue->turns[static_cast<std::size_t>(turn)].speaker == text::Speaker::customer;
}

KeyFacts key_facts(const Prepared& p) {
  const std::size_t U = p.units.size();
  KeyFacts f{std::vector<std::string>(U), std::vector<char>(U, 0), std::vector<char>(U, 0)};
  std::vector<float> best(U, -1.0f);
  for (std::size_t m = 0; m < p.mentions.size(); ++m) {
    const auto& mention = p.mentions[m];
    const int u = p.mention_unit[m];
    if (!mention.expressed || u < 0 || !is_customer(p, mention.turn)) continue;
    const auto uu = static_cast<std::size_t>(u);
    f.emotion[uu] = 1;
    if (mention.strength > best[uu]) {
      best[uu] = mention.strength;
      f.emotion_term[uu] = mention.expression;
    }
  }
  for (std::size_t u = 0; u < U; ++u) {
    if (p.units[u].speaker != text::Speaker::customer) continue;
    const auto cps = text::decode_utf8(p.units[u].text, text::Utf8Mode::lossy).cps;
    f.question[u] = faith::question_clauses(cps, p.lang).empty() ? 0 : 1;
  }
  return f;
}

bool all_turns_timed(const Prepared& p) {
  if (p.dialogue->turns.empty()) return false;
  for (const auto& t : p.dialogue->turns)
    if (!t.time) return false;
  return true;
}

bool within_window(const Prepared& p, bool by_time, const RuleChannelOptions& o, int turn_a,
                   int turn_b) {
  if (by_time) {
    const double ta = *p.dialogue->turns[static_cast<std::size_t>(turn_a)].time;
    const double tb = *p.dialogue->turns[static_cast<std::size_t>(turn_b)].time;
    return std::fabs(ta - tb) <= o.window_seconds;
  }
  return std::abs(turn_a - turn_b) <= o.window_turns;
}

// The heaviest keys a rule fired on, and its mass.
RuleReason reason_of(Rule rule, float nats, const RuleRow& row, const Prepared& p,
                     const KeyFacts& facts) {
  RuleReason r{rule, nats, 0.0f, 0, {}};
  const unsigned char bit = static_cast<unsigned char>(1u << static_cast<int>(rule));
  std::vector<int> keys;
  for (std::size_t j = 0; j < row.weights.size(); ++j) {
    if (!(row.fired[j] & bit)) continue;
    r.mass += row.weights[j];
    keys.push_back(static_cast<int>(j));
  }
  r.fired = static_cast<int>(keys.size());
  std::stable_sort(keys.begin(), keys.end(), [&](int a, int b) {
    return row.weights[static_cast<std::size_t>(a)] > row.weights[static_cast<std::size_t>(b)];
  });
  if (keys.size() > static_cast<std::size_t>(kMaxRuleKeys)) keys.resize(kMaxRuleKeys);
  for (int j : keys) {
    const auto uj = static_cast<std::size_t>(j);
    r.keys.push_back({j, p.units[uj].turn, row.weights[uj],
                      rule == Rule::kEmotion ? facts.emotion_term[uj] : ""});
  }
  return r;
}

std::string fixed2(float x) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.2f", static_cast<double>(x));
  return buf;
}

std::string window_words(const RuleChannel& rc) {
  if (rc.by_time) {
    char buf[48];
    std::snprintf(buf, sizeof buf, "%g s", rc.options.window_seconds);
    return buf;
  }
  return std::to_string(rc.options.window_turns) +
         (rc.options.window_turns == 1 ? " turn" : " turns");
}

// The key rules on the query's own key, and for each key rule not among them its heaviest key
// j != i inside the query's window.
void self_and_near(RuleRow& row, const Prepared& p, const KeyFacts& facts) {
  const auto ui = static_cast<std::size_t>(row.unit);
  row.self_weight = row.weights[ui];
  if (facts.emotion[ui]) {
    row.self_rules.push_back(Rule::kEmotion);
    row.self_term = facts.emotion_term[ui];
  }
  if (facts.question[ui]) row.self_rules.push_back(Rule::kQuestion);
  constexpr auto kNear = static_cast<unsigned char>(1u << static_cast<int>(Rule::kWindow));
  for (Rule rule : {Rule::kEmotion, Rule::kQuestion}) {
    if (std::find(row.self_rules.begin(), row.self_rules.end(), rule) != row.self_rules.end())
      continue;
    const auto bit = static_cast<unsigned char>(1u << static_cast<int>(rule));
    int best = -1;
    for (std::size_t j = 0; j < row.weights.size(); ++j) {
      if (j == ui || (row.fired[j] & (bit | kNear)) != (bit | kNear)) continue;
      if (best < 0 || row.weights[j] > row.weights[static_cast<std::size_t>(best)])
        best = static_cast<int>(j);
    }
    if (best < 0) continue;
    const auto ub = static_cast<std::size_t>(best);
    row.near.push_back({rule,
                        {best, p.units[ub].turn, row.weights[ub],
                         rule == Rule::kEmotion ? facts.emotion_term[ub] : ""}});
  }
}

std::string because_of(const RuleRow& row, const RuleChannel& rc) {
  if (row.self_rules.empty() && row.near.empty())
    return "no rule on or near this sentence: chosen by the learned channel alone";
  std::string s = "rules: ";
  if (!row.self_rules.empty()) {
    for (std::size_t k = 0; k < row.self_rules.size(); ++k) {
      if (k > 0) s += " and ";
      s += row.self_rules[k] == Rule::kEmotion
               ? "holds the customer's emotion '" + row.self_term + "'"
               : std::string("is a customer question");
    }
    s += " (" + fixed2(row.self_weight) + ")";
  }
  for (std::size_t k = 0; k < row.near.size(); ++k) {
    if (k > 0 || !row.self_rules.empty()) s += "; ";
    const auto& n = row.near[k];
    s += "within " + window_words(rc) + " of " +
         (n.rule == Rule::kEmotion ? "the customer's emotion '" + n.key.term + "'"
                                   : std::string("a customer question")) +
         " (turn " + std::to_string(n.key.turn) + ", " + fixed2(n.key.weight) + ")";
  }
  return s;
}

}  // namespace

RuleChannel rule_channel(const Prepared& p, const std::vector<int>& queries,
                         const RuleChannelOptions& options) {
  KESSEL_CHECK_ARG(p.dialogue != nullptr, "rule_channel: the prepared dialogue has no dialogue");
  KESSEL_CHECK_ARG(options.window_seconds > 0 && options.window_turns >= 0,
                   "rule_channel: window_seconds must be > 0 ", "and window_turns >= 0, got ",
                   options.window_seconds, " and ", options.window_turns);
  const Index U = static_cast<Index>(p.units.size());
  for (int q : queries)
    KESSEL_CHECK_ARG(q >= 0 && q < U, "rule_channel: query unit ", q, " is out of range [0, ", U,
                     ")");
  RuleChannel rc;
  rc.options = options;
  rc.by_time = all_turns_timed(p);
  const Index S = static_cast<Index>(queries.size());
  if (S == 0 || U == 0) return rc;

  const KeyFacts facts = key_facts(p);
  std::vector<float> boost(static_cast<std::size_t>(U)), bias(static_cast<std::size_t>(S * U));
  std::vector<unsigned char> fired(static_cast<std::size_t>(S * U), 0);
  for (Index j = 0; j < U; ++j) {
    const auto uj = static_cast<std::size_t>(j);
    boost[uj] = (facts.emotion[uj] ? options.emotion_nats : 0.0f) +
                (facts.question[uj] ? options.question_nats : 0.0f);
  }
  for (Index i = 0; i < S; ++i) {
    const int qturn = p.units[static_cast<std::size_t>(queries[static_cast<std::size_t>(i)])].turn;
    for (Index j = 0; j < U; ++j) {
      const auto uj = static_cast<std::size_t>(j), ij = static_cast<std::size_t>(i * U + j);
      const bool near = within_window(p, rc.by_time, options, qturn, p.units[uj].turn);
      bias[ij] = near ? options.window_nats : 0.0f;
      fired[ij] = static_cast<unsigned char>((facts.emotion[uj] ? 1u : 0u) |
                                             (facts.question[uj] ? 2u : 0u) | (near ? 4u : 0u));
    }
  }

  // The engine call: zero queries and keys, so the logits are the rule terms alone.
  const std::vector<float> q(static_cast<std::size_t>(S), 0.0f),
      kv(static_cast<std::size_t>(U), 0.0f);
  AttentionInputs in;
  in.B = 1, in.H = 1, in.Lq = S, in.Lk = U, in.D = 1, in.Dv = 1;
  in.q = q.data(), in.k = kv.data(), in.v = kv.data();
  in.key_boost = boost.data();
  in.bias = Strided4<float>::contiguous(bias.data(), {1, 1, S, U});
  AttentionSpec spec;
  spec.threads = 1;
  std::vector<float> w(static_cast<std::size_t>(S * U));
  attention_weights(w.data(), in, spec);

  const float nats[kNumRules] = {options.emotion_nats, options.question_nats, options.window_nats};
  for (Index i = 0; i < S; ++i) {
    RuleRow row;
    row.unit = queries[static_cast<std::size_t>(i)];
    row.turn = p.units[static_cast<std::size_t>(row.unit)].turn;
    row.weights.assign(w.begin() + i * U, w.begin() + (i + 1) * U);
    row.fired.assign(fired.begin() + i * U, fired.begin() + (i + 1) * U);
    for (int r = 0; r < kNumRules; ++r) {
      RuleReason reason = reason_of(static_cast<Rule>(r), nats[r], row, p, facts);
      if (reason.fired > 0) row.reasons.push_back(std::move(reason));
    }
    self_and_near(row, p, facts);
    row.because = because_of(row, rc);
    rc.rows.push_back(std::move(row));
  }
  return rc;
}

RuleChannel rule_channel(const Prepared& p, const Summary& s, const RuleChannelOptions& options) {
  std::vector<int> queries;
  for (const auto& sent : s.sentences) queries.push_back(sent.unit);
  return rule_channel(p, queries, options);
}

}  // namespace kessel::summarize
