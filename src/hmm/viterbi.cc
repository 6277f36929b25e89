// Viterbi decoding in log space. Ties go to the lowest state index, both in the max over
// predecessors and in the final state.
#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include "hmm/kernels.h"
#include "kessel/error.h"
#include "util/parallel.h"

namespace kessel::hmm {
namespace detail {

// The forward sweep keeps only the running maxima (k.max_plus_step: blocks of destinations j held
// in registers over the loop on predecessors i, leftover destinations as a max over their
// contiguous column of log A transposed); no back pointers to select and store. The backtrack then
// recomputes, for the one state chosen at t, which predecessor attained its maximum. delta[t-1, i]
// + log A[i, j] is the same double in both places, so the first i that equals the maximum is
// exactly the strict-> argmax. max is exact, so every variant gives the same scores and paths from
// the same log_b (Gaussian log-densities themselves differ in the last bits across variants).
double viterbi(std::int32_t* path, double* delta, const HmmKernels& k, const Tables& tab,
               const double* log_b, Index T) {
  constexpr double kNegInf = -std::numeric_limits<double>::infinity();
  const Index S = tab.S;
  const double* log_trans = tab.log_trans.data();
  const double* log_trans_t = tab.log_trans_t.data();
  for (Index s = 0; s < S; ++s) delta[s] = tab.log_start[s] + log_b[s];
  for (Index t = 1; t < T; ++t) {
    k.max_plus_step(delta + t * S, delta + (t - 1) * S, log_trans, log_trans_t, log_b + t * S, S);
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
  const auto& k = detail::active_kernels();
  detail::Workspace ws;
  ws.reserve(seq.length, tab.S);
  detail::emission_log_prob(ws.log_b.data(), k, tab, seq);
  const double score =
      detail::viterbi(path.data(), ws.alpha.data(), k, tab, ws.log_b.data(), seq.length);
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
  const auto& k = detail::active_kernels();
  std::vector<ViterbiResult> out(N);
#pragma omp parallel num_threads(detail::batch_threads(threads, N, detail::batch_flops(tab, seqs)))
  {
    detail::Workspace ws;
#pragma omp for schedule(dynamic, 1)
    for (Index n = 0; n < N; ++n) {
      const Index T = seqs[n].length;
      ws.reserve(T, tab.S);
      detail::emission_log_prob(ws.log_b.data(), k, tab, seqs[n]);
      out[n].path.resize(T);
      out[n].log_score =
          detail::viterbi(out[n].path.data(), ws.alpha.data(), k, tab, ws.log_b.data(), T);
    }
  }
  for (Index n = 0; n < N; ++n) check_finite_score(out[n].log_score, where, n);
  return out;
}

}  // namespace kessel::hmm
