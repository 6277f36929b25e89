// finalseg's Viterbi (jieba/finalseg/__init__.py: viterbi) with kessel::hmm.
//
// jieba scores in log space and gives every missing term (an emission the table lacks, the start
// of E and M) MIN_FLOAT = -3.14e100. Such a term absorbs every finite score: x + -3.14e100 is
// -3.14e100 exactly, so a score is either finite, or k * MIN_FLOAT where k counts the missing terms
// on the path and nothing else matters; jieba's tie rule (max((score, state)): the later letter,
// S > M > E > B) then decides. Two parts reproduce that:
//   - the finite part is kessel::hmm::viterbi on a categorical model of the run: the symbols
//     are the run's distinct characters and one for its last position (probability 0 outside the
//     states the path may end in: E and S, as jieba ends); a "rest" symbol would take each row's
//     remaining mass (jieba's emission rows are not distributions over a run's characters), but
//     it is never emitted, so only the logs of the others are made (hmm::viterbi over prebuilt
//     logs, the start and transition logs made once with the tables).
//     Start and transitions are jieba's, exp'd; the zero transitions are finalseg's PrevStatus
//     limits. States are numbered S, M, E, B, so hmm's ties (lowest index) fall as jieba's (latest
//     letter). A missing emission gets kUnseenEmission, which puts those paths last as long as a
//     path without one exists;
//   - where no path avoids a missing term, a count of missing terms per state and step (`hits`)
//     is what jieba compares: the end state and the states back to the last one a finite path
//     reaches follow from it and the tie rule, and hmm::viterbi gives the path up to that state.
// What can still differ: one ulp where log(exp(x)) != x, which can only flip exact ties, and runs
// of over ~40 rare characters, where finite score differences could exceed kUnseenEmission's
// -690.8.
#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <span>

#include "kessel/hmm.h"
#include "text/segment_tables.h"

namespace kessel::text::detail {

namespace {

// jieba's MIN_FLOAT as a probability: as low as a double allows with room for the rescaling below
// (log(4.9e-324) = -744 is the floor before 0).
constexpr double kUnseenEmission = 1e-300;

// finalseg's PrevStatus, the preferred predecessor (the later letter) first.
constexpr std::array<std::array<int, 2>, kHmmStates> kPrev = {{
    {kS, kE},  // S <- S, E
    {kM, kB},  // M <- M, B
    {kM, kB},  // E <- M, B
    {kS, kE},  // B <- S, E
}};

// The most probable path over cps[0, T) that ends in a state of `last` (bit 1 << state).
void best_path(std::int32_t* states, const CharHmm& hmm, const char32_t* cps, std::size_t T,
               unsigned last) {
  std::vector<char32_t> chars(cps, cps + T);
  std::sort(chars.begin(), chars.end());
  chars.erase(std::unique(chars.begin(), chars.end()), chars.end());
  auto symbol = [&](char32_t c) {
    return static_cast<std::int32_t>(std::lower_bound(chars.begin(), chars.end(), c) -
                                     chars.begin());
  };
  const std::size_t D = chars.size(), K = D + 1;  // characters, the last position
  const std::size_t S = kHmmStates;
  // One buffer: emissions [S, K], their logs [K, S], log_b and delta [T, S].
  std::vector<double> work(2 * S * K + 2 * T * S, 0.0);
  double* emissions = work.data();
  double* log_emission = emissions + S * K;
  const std::span<double> log_b(log_emission + K * S, T * S), delta(log_b.data() + T * S, T * S);
  double max_sum = 0.0;
  for (int st = 0; st < kHmmStates; ++st) {
    double* row = emissions + st * K;
    for (std::size_t k = 0; k < D; ++k) {
      const double p = hmm.emission(chars[k])[st];
      row[k] = p > 0.0 ? p : kUnseenEmission;
    }
    if (last & (1u << st)) row[D] = row[symbol(cps[T - 1])];
    double sum = 0.0;
    for (std::size_t k = 0; k <= D; ++k) sum += row[k];
    max_sum = std::max(max_sum, sum);
  }
  // Dividing every emission by one power of two shifts every path's score by the same amount (to
  // at most 1/2 a row, which left room for the "rest" symbol; kept, so that the logs, and the ties
  // they decide, are the bits they were).
  double scale = 1.0;
  while (max_sum * scale > 0.5) scale *= 0.5;
  // The emission logs, symbol-major [K, S] as hmm::viterbi's tables hold them. The start and
  // transition logs were made once (CharHmm::logs): the run's model is never built, validated and
  // logged as a whole.
  // A zero (the last position outside the states a path may end in) is log(0) = -inf without the
  // library's pole-error path.
  constexpr double kLogZero = -std::numeric_limits<double>::infinity();
  for (std::size_t st = 0; st < S; ++st) {
    const double* row = emissions + st * K;
    for (std::size_t k = 0; k < K; ++k)
      log_emission[k * S + st] = row[k] > 0.0 ? std::log(row[k] * scale) : kLogZero;
  }
  for (std::size_t i = 0; i < T; ++i) {
    const std::size_t k = i + 1 < T ? static_cast<std::size_t>(symbol(cps[i])) : D;
    std::copy_n(log_emission + k * S, S, log_b.data() + i * S);
  }
  hmm::viterbi(std::span<std::int32_t>(states, T), delta, hmm.logs, log_b);
}

}  // namespace

void hmm_states(std::vector<std::int32_t>& states, const CharHmm& hmm, const char32_t* cps,
                std::size_t T) {
  states.assign(T, kS);
  // hits[t][y]: the fewest missing terms on a path to state y at step t; jieba's score there is
  // finite exactly when it is 0.
  std::vector<std::array<int, kHmmStates>> hits(T);
  auto missing_emission = [&](std::size_t t, int y) {
    return hmm.emission(cps[t])[y] == 0.0 ? 1 : 0;
  };
  auto via = [&](std::size_t t, int y0, int y) {
    return hits[t - 1][y0] + (hmm.trans[y0 * kHmmStates + y] == 0.0 ? 1 : 0);
  };
  for (int y = 0; y < kHmmStates; ++y)
    hits[0][y] = (hmm.start[y] == 0.0 ? 1 : 0) + missing_emission(0, y);
  for (std::size_t t = 1; t < T; ++t) {
    for (int y = 0; y < kHmmStates; ++y) {
      hits[t][y] =
          std::min(via(t, kPrev[y][0], y), via(t, kPrev[y][1], y)) + missing_emission(t, y);
    }
  }
  const int end_s = hits[T - 1][kS], end_e = hits[T - 1][kE];
  if (end_s == 0 || end_e == 0) {  // a finite end: plain Viterbi over the states that have one
    best_path(states.data(), hmm, cps, T,
              (end_s == 0 ? 1u << kS : 0u) | (end_e == 0 ? 1u << kE : 0u));
    return;
  }
  // Every end is absorbed: fewer missing terms win, ties go to the preferred state, back to the
  // first state on the way that a finite path reaches.
  std::size_t t = T - 1;
  int y = end_e < end_s ? kE : kS;
  states[t] = y;
  while (t > 0 && hits[t][y] > 0) {
    const int a = kPrev[y][0], b = kPrev[y][1];
    y = via(t, b, y) < via(t, a, y) ? b : a;
    states[--t] = y;
  }
  if (t > 0 && hits[t][y] == 0) best_path(states.data(), hmm, cps, t + 1, 1u << y);
}

}  // namespace kessel::text::detail
