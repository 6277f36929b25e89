// Internal HMM kernels: tables precomputed once per model, and allocation-free per-sequence passes
// that the public functions, the batch loops and Baum–Welch share. The passes run their inner loops
// through the HmmKernels table (hmm_kernels.h) of one SIMD variant, which the public entry fetches
// once (active_kernels()) and passes down. reference.h holds the textbook versions they are tested
// against.
#pragma once

#include <cstdint>
#include <vector>

#include "hmm/hmm_kernels.h"
#include "kessel/hmm.h"
#include "util/simd.h"

namespace kessel::hmm::detail {

// Everything the inner loops need, laid out so that the innermost loop runs over states j with unit
// stride (vectorizable without reassociating sums).
struct Tables {
  EmissionType type;
  Index S = 0, K = 0, D = 0;
  std::vector<double> start;            // [S]
  std::vector<double> log_start;        // [S]
  std::vector<double> trans;            // [S, S]  A[i, j]
  std::vector<double> trans_t;          // [S, S]  A[j, i] (backward: beta[i] = sum_j A[i,j] w[j])
  std::vector<double> log_trans;        // [S, S]
  std::vector<double> log_trans_t;      // [S, S]  log A[j, i] (Viterbi: max over predecessors i)
  std::vector<double> log_emis_t;       // [K, S]  categorical: log b_s(k), symbol-major
  std::vector<double> means_t;          // [D, S]
  std::vector<double> neg_half_inv_var_t;  // [D, S]  -1 / (2 var)
  std::vector<double> log_norm;            // [S]  -(D log 2pi + log det Sigma) / 2
  std::vector<double> means;               // [S, D]  gaussian_full
  std::vector<double> chol_inv;            // [S, D, D]  gaussian_full: L^-1, Sigma = L L^T
};
Tables make_tables(const Model& model);

// The kernel table of the variant in use now (simd::active_target()); call it once per op entry.
inline const HmmKernels& active_kernels() { return hmm_kernels(simd::active_target()); }

// Grow-only scratch for one thread; reused across sequences so the inner loops never allocate.
struct Workspace {
  std::vector<double> log_b;      // [T, S]
  std::vector<double> alpha;      // [T, S]
  std::vector<double> beta;       // [T, S]
  std::vector<double> log_scale;  // [T]
  std::vector<double> tmp;        // [S] * 2
  void reserve(Index T, Index S);
};

// Threads for a batch of `items` independent items costing about `flops` in total: OpenMP's team
// start and barrier cost more than small batches take, and idle spinning threads hurt a loaded
// machine, so small batches run serially. Never more threads than items.
int batch_threads(int threads, Index items, double flops);
double batch_flops(const Tables& tab, std::span<const SequenceView> seqs);

// Checks that seq fits the model (pointer, length >= 1, symbol range, finite values).
void check_sequence(const Tables& tab, SequenceView seq, const char* where, Index index = -1);

// log_b [T, S] of a full-covariance model for x [T, D].
void full_gaussian_log_prob(double* log_b, const Tables& tab, const double* x, Index T);
// log_b [T, S]
void emission_log_prob(double* log_b, const HmmKernels& k, const Tables& tab, SequenceView seq);
// Scaled forward from log_b; writes alpha [T, S] and log_scale [T], returns log p(x).
double forward_scaled(double* alpha, double* log_scale, double* tmp, const HmmKernels& k,
                      const Tables& tab, const double* log_b, Index T);
// Scaled backward: beta [T, S] with sum_s alpha[t,s] beta[t,s] = 1; tmp needs 2S doubles. When
// xi_acc [S, S] is given, ADDS INTO it sum_t alpha[t,i] w[t+1,j] / z_t, which times A[i,j] is the
// expected number of i->j transitions (A is applied once, after the reduction). Returns false if some
// step has z_t == 0 (p(x) == 0 or underflow).
bool backward_scaled(double* beta, double* tmp, const HmmKernels& k, const Tables& tab,
                     const double* log_b, const double* alpha, Index T, double* xi_acc = nullptr);
// Log-space passes (log_alpha / log_beta [T, S]); return log p(x).
double forward_log(double* log_alpha, const Tables& tab, const double* log_b, Index T);
double backward_log(double* log_beta, const Tables& tab, const double* log_b, Index T);
// Viterbi from log_b; path [T], delta [T, S] scratch; returns log p(x, path).
double viterbi(std::int32_t* path, double* delta, const HmmKernels& k, const Tables& tab,
               const double* log_b, Index T);
// The same from the start and transition logs alone (log_start [S], log_trans and log_trans_t
// [S, S]), as Tables holds them.
double viterbi(std::int32_t* path, double* delta, const HmmKernels& k, Index S,
               const double* log_start, const double* log_trans, const double* log_trans_t,
               const double* log_b, Index T);

}  // namespace kessel::hmm::detail
