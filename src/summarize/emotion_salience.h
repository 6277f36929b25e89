// A small learned scorer of which customer unit holds the customer's strongest feeling (issue 22:
// "the customer's emotion, not the cheapest"). A conditional logit over interpretable features of a
// unit: what the detector found in it (its strongest expressed mention's strength and kind), its
// marks (！！ ？？ 。。。, a question, an emoji), its words (negators, degree words, "why",
// "still", resignation), its length and place, and whether it answers an agent's refusal. The
// weights are a built-in table per language (emotion_salience_weights.inc), fitted on the
// development emotion labels only (tests/data/emotion_labels/*_dev.jsonl) by
// tools/train_emotion_salience.cc; docs/eaca.md, "A learned choice of the strongest feeling", has
// the command and the figures.
#pragma once

#include <array>
#include <string_view>
#include <vector>

#include "kessel/summarize/summary.h"

namespace kessel::summarize::salience {

inline constexpr int kNumFeatures = 24;
using Features = std::array<float, kNumFeatures>;
// The features' names, in order (the weight table's comments and the trainer's report use them).
const std::array<const char*, kNumFeatures>& feature_names();

// The features of unit u (a customer unit of p; the agent's get all zeros but the bias).
Features unit_features(const Prepared& p, std::size_t u);

// One language's fitted model, a conditional logit over the dialogue's customer units and "none":
// unit u has logit s_u = w . features(u), "none" has 0, so P(u) = exp(s_u) / (1 + sum_v exp(s_v)).
// The best unit is the constraint's target when its probability reaches `threshold`. With
// `when_undetected` false the choice is made only in dialogues where the detector found an
// expressed customer mention (elsewhere the summary is not constrained, as before).
struct Weights {
  std::array<float, kNumFeatures> w{};
  float threshold = 1.0f;
  bool when_undetected = false;
};
const Weights& builtin_weights(Lang lang);

double logit(const Weights& weights, const Features& f);

// [U] the probability that each unit holds the customer's strongest feeling (0 for the agent's).
std::vector<double> unit_probabilities(const Prepared& p, const Weights& weights);

// The unit the emotion constraint keeps: the customer unit of highest probability among those with
// `eligible[u]` (any when empty; the probabilities are over all customer units), when it reaches
// weights.threshold; -1 otherwise.
int target_unit(const Prepared& p, const Weights& weights, const std::vector<char>& eligible = {});

// Whether a unit's text thanks or closes the conversation (谢, 好的, 没有了, 没啦, 没别的问题,
// 不客气 / thank, thanks, thx): such a unit is courtesy, not feeling, unless the detector found an
// expressed mention in it.
bool is_courtesy(std::string_view text);

}  // namespace kessel::summarize::salience
