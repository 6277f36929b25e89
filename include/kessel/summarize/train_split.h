// How `kessel train` and kessel.train_eaca divide their data into training and dev dialogues, and
// the fixed character budget they can impose on a trained model. One implementation, so that the
// two front ends write the same model file for the same options and seed.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "kessel/summarize/eaca.h"
#include "kessel/text/dialogue.h"

namespace kessel::summarize {

// A seeded permutation of 0..n-1 (Fisher-Yates on splitmix64: the same on every platform).
std::vector<std::size_t> seeded_permutation(std::size_t n, std::uint64_t seed);

// The seeded split: round(fraction * n) dialogues of a seeded permutation go to dev, the rest to
// train (appended, in permutation order). InvalidArgument "<what> <fraction> of <n> dialogues
// leaves an empty train or dev split" when either side would be empty; `what` names the option
// ("train: --dev-fraction").
void split_train_dev(const std::vector<text::Dialogue>& all, double fraction, std::uint64_t seed,
                     std::vector<text::Dialogue>& train, std::vector<text::Dialogue>& dev,
                     const std::string& what);

// `kessel train --max-chars N`: a fixed budget of N chars replaces the model's per-dialogue budget
// and its expected-F1 stop (as an explicit max_chars does in kessel summarize).
void set_fixed_char_budget(EacaModel& model, int max_chars);

}  // namespace kessel::summarize
