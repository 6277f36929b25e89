// Small seeded models and sequences shared by the HMM tests.
#pragma once

#include <cmath>
#include <random>
#include <vector>

#include "kessel/hmm.h"

namespace kessel::hmm::testing {

inline std::vector<double> random_rows(std::mt19937_64& rng, Index rows, Index cols) {
  std::uniform_real_distribution<double> u(0.05, 1.0);
  std::vector<double> m(rows * cols);
  for (Index r = 0; r < rows; ++r) {
    double sum = 0.0;
    for (Index c = 0; c < cols; ++c) sum += m[r * cols + c] = u(rng);
    for (Index c = 0; c < cols; ++c) m[r * cols + c] /= sum;
  }
  return m;
}

inline Model random_categorical(std::uint64_t seed, Index S, Index K) {
  std::mt19937_64 rng(seed);
  auto start = random_rows(rng, 1, S);
  auto trans = random_rows(rng, S, S);
  auto emis = random_rows(rng, S, K);
  return Model::categorical(start, trans, emis);
}

inline Model random_gaussian(std::uint64_t seed, Index S, Index D) {
  std::mt19937_64 rng(seed);
  auto start = random_rows(rng, 1, S);
  auto trans = random_rows(rng, S, S);
  std::normal_distribution<double> n(0.0, 2.0);
  std::uniform_real_distribution<double> v(0.3, 2.0);
  std::vector<double> means(S * D), vars(S * D);
  for (auto& x : means) x = n(rng);
  for (auto& x : vars) x = v(rng);
  return Model::gaussian(start, trans, means, vars);
}

// The occasionally dishonest casino (Durbin, Eddy, Krogh & Mitchison 1998, ch. 3): state 0 fair die,
// state 1 loaded die that shows a six with probability 1/2; switch fair->loaded 0.05,
// loaded->fair 0.1. Symbols 0..5 stand for faces 1..6.
inline Model casino() {
  const double f = 1.0 / 6.0, l = 0.1;
  return Model::categorical({0.5, 0.5}, {0.95, 0.05, 0.1, 0.9},
                            {f, f, f, f, f, f, l, l, l, l, l, 0.5});
}

}  // namespace kessel::hmm::testing
