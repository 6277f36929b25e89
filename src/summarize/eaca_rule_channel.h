// The rule channel of EACA's dual-channel attention (seed 004 §3.3 pit 3): beside the learned
// channel (the EACA customer attention, which alone scores and selects), a second attention whose
// weights come from explicit rules, shown as the reason for each selected sentence. It has no
// parameters and runs after decoding, on the dialogue and the selection only, so it can change
// neither the selection nor any learned weight (docs/eaca.md, "Dual-channel attention", has the
// isolation tests).
//
// One engine call (B = H = 1, Lq = the query units, Lk = U, D = Dv = 1, q = k = v = 0, so the dot
// similarity is 0 and the logits are the rule terms alone):
//   logit_ij = emotion_nats  * [unit j holds an expressed customer emotion]     (key_boost[j])
//            + question_nats * [unit j is a customer question]                  (key_boost[j])
//            + window_nats   * [unit j lies within the window of query unit i]   (bias[i, j])
//   w_ij     = softmax_j(logit_ij)
// The window is window_seconds when every turn has a time, else window_turns turns. A rule's share
// of a weight is exact: logit_ij is the sum of the rules that fire on (i, j), and each reason
// records them.
// The emotion and question rules are properties of the keys, the same in every row, so a row's
// heaviest emotion key says nothing of the query. The wording (`because`) is therefore about the
// query sentence itself: the key rules on its own key j = i (w_ii), else the heaviest emotion and
// question keys j != i inside its window, else that no rule is on or near it.
#pragma once

#include <string>
#include <vector>

#include "kessel/summarize/summary.h"

namespace kessel::summarize {

struct RuleChannelOptions {
  float emotion_nats =
      2.0f;  // a key with an expressed customer emotion weighs e^2 ~ 7.4x a plain one
  float question_nats = 1.0f;  // a customer question: e^1 ~ 2.7x
  float window_nats = 1.0f;    // a key near the query: e^1 ~ 2.7x
  double window_seconds = 60.0;
  int window_turns = 2;
};

enum class Rule { kEmotion, kQuestion, kWindow };
inline constexpr int kNumRules = 3;
const char* rule_name(Rule rule);  // "emotion", "question", "window"

// One key a rule fired on, for one query.
struct RuleKey {
  int unit = 0;
  int turn = 0;
  float weight = 0.0f;  // the rule channel's weight w_ij on this key
  std::string term;     // emotion: the strongest expressed expression of the unit; else empty
};

// One rule's part in a query's row: the keys it fired on (the heaviest first, at most kMaxRuleKeys)
// and its mass, the sum of w_ij over every key it fired on.
struct RuleReason {
  Rule rule = Rule::kEmotion;
  float nats = 0.0f;
  float mass = 0.0f;
  int fired = 0;  // keys it fired on
  std::vector<RuleKey> keys;
};
inline constexpr int kMaxRuleKeys = 3;

// A key rule (emotion or question) on a key j != i inside the query's window.
struct NearRule {
  Rule rule = Rule::kEmotion;
  RuleKey key;  // the heaviest such key
};

struct RuleRow {
  int unit = 0;  // the query unit
  int turn = 0;
  std::vector<float> weights;        // [U] w_ij
  std::vector<unsigned char> fired;  // [U] bit r set when rule r fires on key j
  std::vector<RuleReason> reasons;   // the rules that fired on some key, in Rule order
  std::vector<Rule> self_rules;      // the key rules on the query's own key (emotion, question)
  float self_weight = 0.0f;          // w_ii
  std::string self_term;             // the query's own emotion term when self_rules holds kEmotion
  std::vector<NearRule> near;  // per key rule not in self_rules, its heaviest key in the window
  // "rules: holds the customer's emotion '失望' (0.31); within 2 turns of a customer question
  // (turn 2, 0.12)", or "no rule on or near this sentence: chosen by the learned channel alone".
  // Turns count from 0, as in the records.
  std::string because;
};

struct RuleChannel {
  RuleChannelOptions options;
  bool by_time = false;  // the window is in seconds (every turn has a time), else in turns
  std::vector<RuleRow> rows;
};

// The rule channel's rows for the query units `queries` (indices into p.units); InvalidArgument for
// an index out of range or a non-positive window.
RuleChannel rule_channel(const Prepared& p, const std::vector<int>& queries,
                         const RuleChannelOptions& options = {});
// The same for a summary's selected sentences, in summary order.
RuleChannel rule_channel(const Prepared& p, const Summary& s,
                         const RuleChannelOptions& options = {});

}  // namespace kessel::summarize
