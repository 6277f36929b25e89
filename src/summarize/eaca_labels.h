// EACA training labels for one dialogue: the greedy ROUGE oracle (mixed with the human extractive
// selections when the data set has them) as salience targets, and the emotion targets (a mention is
// "kept" when a reference repeats its term).
#pragma once

#include <string>
#include <vector>

#include "kessel/summarize/summary.h"
#include "kessel/text/lexicon.h"
#include "summarize/eaca_features.h"
#include "summarize/eaca_model.h"

namespace kessel::summarize {

// One training dialogue, prepared once: units, features, targets and what the length budget is fitted on.
struct TrainingExample {
  Prepared prepared;
  UnitFeatures features;
  EacaTargets targets;
  std::vector<int> oracle;
  std::vector<std::string> references;
  int oracle_chars = 0;
  long dialogue_chars = 0;  // sum of Unit::chars: the length the per-dialogue budget is fitted on
};

// Labels `dialogue` (which must outlive the example: `prepared` points into it). `human_weight` in
// [0, 1] mixes the human extractive selections into the oracle targets; targets.has_emotion is -1 when
// the dialogue has no reference summary.
TrainingExample make_example(const text::Dialogue& dialogue, const text::Lexicon& lexicon, const EacaDims& dims,
                             float human_weight);

}  // namespace kessel::summarize
