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
  return viterbi(path, delta, k, tab.S, tab.log_start.data(), tab.log_trans.data(),
                 tab.log_trans_t.data(), log_b, T);
}

double viterbi(std::int32_t* path, double* delta, const HmmKernels& k, Index S,
               const double* log_start, const double* log_trans, const double* log_trans_t,
               const double* log_b, Index T) {
  constexpr double kNegInf = -std::numeric_limits<double>::infinity();
  for (Index s = 0; s < S; ++s) delta[s] = log_start[s] + log_b[s];
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

TransitionLogs transition_logs(std::span<const double> start, std::span<const double> transitions) {
  // Checked and logged as a model's are: a categorical model of these whose one symbol every state
  // emits surely.
  Model m;
  m.type = EmissionType::categorical;
  m.n_states = static_cast<Index>(start.size());
  m.n_symbols = 1;
  m.start.assign(start.begin(), start.end());
  m.transitions.assign(transitions.begin(), transitions.end());
  m.emissions.assign(start.size(), 1.0);
  m.validate("hmm::transition_logs");
  detail::Tables tab = detail::make_tables(m);
  return {tab.S, std::move(tab.log_start), std::move(tab.log_trans), std::move(tab.log_trans_t)};
}

double viterbi(std::span<std::int32_t> path, std::span<double> delta, const TransitionLogs& logs,
               std::span<const double> log_b) {
  const char* where = "hmm::viterbi";
  const Index S = logs.n_states, T = static_cast<Index>(path.size());
  KESSEL_CHECK_ARG(S >= 1 && static_cast<Index>(logs.log_start.size()) == S &&
                       static_cast<Index>(logs.log_trans.size()) == S * S &&
                       static_cast<Index>(logs.log_trans_t.size()) == S * S,
                   where, ": the transition logs are not those of an S=", S,
                   "-state model (make them with transition_logs)");
  KESSEL_CHECK_ARG(T >= 1, where, ": the sequence is empty (T=", T, ")");
  KESSEL_CHECK_ARG(static_cast<Index>(log_b.size()) == T * S, where, ": log_b has ", log_b.size(),
                   " entries, expected T*S=", T * S);
  KESSEL_CHECK_ARG(static_cast<Index>(delta.size()) >= T * S, where, ": delta has ", delta.size(),
                   " entries, expected at least T*S=", T * S);
  for (Index i = 0; i < T * S; ++i) {
    KESSEL_CHECK_ARG(!std::isnan(log_b[i]), where, ": log_b[", i / S, ", ", i % S, "] is NaN");
  }
  const double score =
      detail::viterbi(path.data(), delta.data(), detail::active_kernels(), S, logs.log_start.data(),
                      logs.log_trans.data(), logs.log_trans_t.data(), log_b.data(), T);
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
