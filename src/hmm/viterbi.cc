// Viterbi decoding in log space. Ties go to the lowest state index, both in the max over
// predecessors and in the final state.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <string>

#include "hmm/kernels.h"
#include "kessel/error.h"
#include "util/parallel.h"

namespace kessel::hmm {
namespace detail {

namespace {
// Eight doubles as one GCC vector (explicit lanes: g++ 12 left the plain-array form scalar).
using V8 = double __attribute__((vector_size(64)));
inline V8 load8(const double* p) {
  V8 v;
  std::memcpy(&v, p, sizeof v);
  return v;
}
inline V8 vmax(V8 a, V8 b) { return a > b ? a : b; }
inline double hmax(V8 v) {
  const double a = std::max(std::max(v[0], v[1]), std::max(v[2], v[3]));
  const double b = std::max(std::max(v[4], v[5]), std::max(v[6], v[7]));
  return std::max(a, b);
}

// nd[j0 + 8q + l] = max_i (prev[i] + log A[i, j0 + 8q + l]) for Q blocks of eight destinations:
// the maxima stay in registers across the whole loop over predecessors i (one broadcast of prev[i],
// Q row loads). max is exact, so the value is that of any other evaluation order; there are no NaNs
// (log-probabilities are finite or -inf, and -inf + finite = -inf).
template <int Q>
void max_plus_rows(double* nd, const double* __restrict prev, const double* __restrict log_trans,
                   Index S, Index j0) {
  constexpr double kNegInf = -std::numeric_limits<double>::infinity();
  V8 m[Q];
  for (int q = 0; q < Q; ++q)
    m[q] = V8{kNegInf, kNegInf, kNegInf, kNegInf, kNegInf, kNegInf, kNegInf, kNegInf};
  for (Index i = 0; i < S; ++i) {
    const double p = prev[i];
    const double* row = log_trans + i * S + j0;
    for (int q = 0; q < Q; ++q) m[q] = vmax(p + load8(row + 8 * q), m[q]);
  }
  for (int q = 0; q < Q; ++q) std::memcpy(nd + j0 + 8 * q, &m[q], sizeof m[q]);
}

// max_i (prev[i] + col[i]) for one destination whose column col = log A[:, j] is contiguous (the
// fewer-than-eight destinations left over).
double max_plus(const double* __restrict prev, const double* __restrict col, Index S) {
  constexpr double kNegInf = -std::numeric_limits<double>::infinity();
  V8 m = {kNegInf, kNegInf, kNegInf, kNegInf, kNegInf, kNegInf, kNegInf, kNegInf};
  Index i = 0;
  for (; i + 8 <= S; i += 8) m = vmax(load8(prev + i) + load8(col + i), m);
  double r = hmax(m);
  for (; i < S; ++i) r = std::max(r, prev[i] + col[i]);
  return r;
}
}  // namespace

// The forward sweep keeps only the running maxima: blocks of eight destinations j held in registers
// over the loop on predecessors i (rows of log A), the leftover destinations as a max over their
// contiguous column of log A transposed; no back pointers to select and store. The backtrack then
// recomputes, for the one state chosen at t, which predecessor attained its maximum.
// delta[t-1, i] + log A[i, j] is the same double in both places, so the first i that equals the
// maximum is exactly the strict-> argmax.
double viterbi(std::int32_t* path, double* delta, const Tables& tab, const double* log_b, Index T) {
  constexpr double kNegInf = -std::numeric_limits<double>::infinity();
  const Index S = tab.S;
  const double* log_trans = tab.log_trans.data();
  const double* log_trans_t = tab.log_trans_t.data();
  for (Index s = 0; s < S; ++s) delta[s] = tab.log_start[s] + log_b[s];
  for (Index t = 1; t < T; ++t) {
    const double* __restrict prev = delta + (t - 1) * S;
    double* __restrict nd = delta + t * S;
    const double* __restrict lb = log_b + t * S;
    Index j = 0;
    for (; j + 32 <= S; j += 32) max_plus_rows<4>(nd, prev, log_trans, S, j);
    for (; j + 8 <= S; j += 8) max_plus_rows<1>(nd, prev, log_trans, S, j);
    for (; j < S; ++j) nd[j] = max_plus(prev, log_trans_t + j * S, S);
    for (j = 0; j < S; ++j) nd[j] += lb[j];
  }
  const double* last = delta + (T - 1) * S;
  Index best = 0;
  for (Index s = 1; s < S; ++s) {
    if (last[s] > last[best]) best = s;
  }
  const double score = last[best];
  path[T - 1] = static_cast<std::int32_t>(best);
  for (Index t = T - 1; t > 0; --t) {
    const double* prev = delta + (t - 1) * S;
    const Index j = path[t];
    const double* col = log_trans_t + j * S;  // the same doubles as log A[:, j], contiguous
    Index arg = 0;
    double m = kNegInf;
    for (Index i = 0; i < S; ++i) {
      if (prev[i] == kNegInf) continue;
      const double c = prev[i] + col[i];
      if (c > m) {
        m = c;
        arg = i;
      }
    }
    path[t - 1] = static_cast<std::int32_t>(arg);
  }
  return score;
}

}  // namespace detail

namespace {
void check_finite_score(double score, const char* where, Index n) {
  KESSEL_CHECK_ARG(score != -std::numeric_limits<double>::infinity(), where, ": sequence ", n,
                   " has probability 0 under the model; no Viterbi path exists");
}
}  // namespace

double viterbi(std::span<std::int32_t> path, const Model& model, SequenceView seq) {
  const char* where = "hmm::viterbi";
  model.validate(where);
  const auto tab = detail::make_tables(model);
  detail::check_sequence(tab, seq, where);
  KESSEL_CHECK_ARG(static_cast<Index>(path.size()) == seq.length, where, ": path has ", path.size(),
                   " entries, expected T=", seq.length);
  detail::Workspace ws;
  ws.reserve(seq.length, tab.S);
  detail::emission_log_prob(ws.log_b.data(), tab, seq);
  const double score =
      detail::viterbi(path.data(), ws.alpha.data(), tab, ws.log_b.data(), seq.length);
  check_finite_score(score, where, 0);
  return score;
}

std::vector<ViterbiResult> viterbi(const Model& model, std::span<const SequenceView> seqs,
                                   int threads) {
  const char* where = "hmm::viterbi";
  model.validate(where);
  const auto tab = detail::make_tables(model);
  const Index N = static_cast<Index>(seqs.size());
  for (Index n = 0; n < N; ++n) detail::check_sequence(tab, seqs[n], where, n);
  std::vector<ViterbiResult> out(N);
#pragma omp parallel num_threads(detail::batch_threads(threads, N, detail::batch_flops(tab, seqs)))
  {
    detail::Workspace ws;
#pragma omp for schedule(dynamic, 1)
    for (Index n = 0; n < N; ++n) {
      const Index T = seqs[n].length;
      ws.reserve(T, tab.S);
      detail::emission_log_prob(ws.log_b.data(), tab, seqs[n]);
      out[n].path.resize(T);
      out[n].log_score =
          detail::viterbi(out[n].path.data(), ws.alpha.data(), tab, ws.log_b.data(), T);
    }
  }
  for (Index n = 0; n < N; ++n) check_finite_score(out[n].log_score, where, n);
  return out;
}

}  // namespace kessel::hmm
