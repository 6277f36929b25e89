// What EACA training fits and chooses for decoding, after the networks are trained: the per-dialogue
// length budget fitted on the training summaries, and the budget factor and form and the token-deletion
// threshold chosen on dev ROUGE-L (docs/eaca.md, "Length budget").
#pragma once

#include <vector>

#include "kessel/summarize/eaca.h"
#include "kessel/text/lexicon.h"
#include "summarize/eaca_model.h"

namespace kessel::summarize {

// The q-quantile (nearest rank) of v; 0 for an empty v.
float quantile(std::vector<int> v, float q);

// Least squares of the oracle summary length y on the dialogue length x, clamped to the 5th..95th
// percentile of y, written into c's budget_* fields. Returns the correlation of x and y (0 when either
// is constant), for the log.
double fit_length_budget(EacaConfig& c, const std::vector<long>& x, const std::vector<int>& y);

// The char budget of c: `factor` times the fitted one, fixed or per dialogue.
void set_budget(EacaConfig& c, const EacaConfig& fitted, float factor, bool per_dialogue);

// A model and dev dialogues it never trained on: the ensemble and the dev split, or (cross-fitting)
// member k and fold k. The decoding choices are scored on all parts together.
struct DevPart {
  EacaModel* model;
  const std::vector<text::Dialogue>* dialogues;
};

// Dialogue-weighted mean dev ROUGE-L over the parts, each decoded with its model's own settings.
// `threads`: dialogues scored and decoded in parallel (the same result for any count).
double dev_rougeL(const std::vector<DevPart>& parts, const text::Lexicon& lexicon, int threads = 1);

// The standard error of the mean of the paired differences a[i] - b[i] (the first min(|a|, |b|)); 0 for
// fewer than two pairs.
double paired_standard_error(const std::vector<double>& a, const std::vector<double>& b);

// Chooses the expected-F1 stop's prior length (a multiple of `base_chars`, the base char budget, or off)
// and the sentence budget (around `fitted_sentences`) on the parts' dev ROUGE-L: of the settings within
// ROUGE's noise of the best (1.96 paired standard errors), the one that shows the most. Applies them to every part's model
// and returns the chosen setting's score. scored[i]: part i's dev dialogues scored and rendered under its
// model's current config (neither setting changes them).
double choose_f1_stop(const std::vector<DevPart>& parts, const std::vector<ScoredDialogues>& scored,
                      int fitted_sentences, int base_chars, bool verbose, int threads = 1);

// Chooses the budget factor and form and (with a compressor) the deletion threshold on the parts'
// dev ROUGE-L, then the expected-F1 stop (choose_f1_stop), applies them to every part's model and
// returns the chosen score.
double choose_decoding(const std::vector<DevPart>& parts, const text::Lexicon& lexicon, const EacaConfig& fitted,
                       bool compressor, bool verbose, int threads = 1);

}  // namespace kessel::summarize
