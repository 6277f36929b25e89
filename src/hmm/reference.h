// Plain reference versions of the HMM kernels, written straight from the textbook recursions on the
// Model (no precomputed tables, no scaling, no layout tricks). Tests compare the fast paths with them.
#pragma once

#include <cstdint>
#include <vector>

#include "kessel/hmm.h"

namespace kessel::hmm::reference {

// log p(x_t | s) [T, S], one state and one dimension at a time.
std::vector<double> emission_log_prob(const Model& model, SequenceView seq);
// Log-space forward over log p values: log_alpha [T, S]; returns log p(x).
double forward_log(std::vector<double>& log_alpha, const Model& model, SequenceView seq);
// Log-space Viterbi with predecessor loop inside; path [T]; returns log p(x, path).
double viterbi(std::vector<std::int32_t>& path, const Model& model, SequenceView seq);

}  // namespace kessel::hmm::reference
