// The HMM kernel family: the inner loops of Viterbi, the scaled forward–backward, the Gaussian
// emission densities and Baum–Welch's statistics, as one table of function pointers per SIMD
// variant (util/simd.h). hmm_kernels.cc is one Highway source compiled for every target; the
// "scalar" table is the plain loops, kept as the reference the others are tested against. An op
// fetches its table once, at its public entry, and passes it down: the loops make plain indirect
// calls and never look at the CPU.
//
// Pointer-plus-count kernels; none reads or writes past the counts it is given. Within a variant
// every result is a fixed sequence of operations (no dependence on threads or alignment). Across
// variants: max_of and max_plus_step are exact and identical everywhere; the sums and exp differ in
// the last bits (lane order, FMA, Highway's Exp against std::exp; docs/hmm.md gives the tolerance).
#pragma once

#include <cstdint>

#include "kessel/tensor.h"

namespace kessel::hmm::detail {

struct HmmKernels {
  const char* variant;  // simd::target_name of the variant this table was compiled for

  // Viterbi step [S]: nd[j] = max_i (prev[i] + log_trans[i, j]) + lb[j]. log_trans_t [S, S] holds
  // the same doubles as log_trans by column (log_trans_t[j, i] = log_trans[i, j]).
  void (*max_plus_step)(double* nd, const double* prev, const double* log_trans,
                        const double* log_trans_t, const double* lb, Index S);
  // max_i x[i]; -inf when n = 0.
  double (*max_of)(const double* x, Index n);
  // out[s] = p[s] * exp(lb[s] - m) with m >= every lb[s] (lb may hold -inf); returns sum_s out[s].
  double (*mul_exp_sum)(double* out, const double* p, const double* lb, double m, Index n);
  // x[i] *= c.
  void (*scale)(double* x, double c, Index n);
  // out[j] = sum_i x[i] M[i, j] for row-major M [S, S], summed in order of i; M_t = M transposed
  // (the same doubles by column). Rows with x[i] = 0 contribute nothing.
  void (*vec_mat)(double* out, const double* x, const double* M, const double* M_t, Index S);
  // *z = sum_i a[i] b[i]; *mx = max(0, max_i b[i]).
  void (*dot_and_max)(double* z, double* mx, const double* a, const double* b, Index n);
  // ADDS INTO xi [S, S]: xi[i, j] += (a[i] * inv_z) * w[j]; rows with a[i] = 0 are skipped.
  void (*outer_add)(double* xi, const double* a, double inv_z, const double* w, Index S);
  // carry[i] = row[i] * inv_mx, then row[i] *= inv_z.
  void (*rescale_pair)(double* carry, double* row, double inv_mx, double inv_z, Index n);
  // out[i] = a[i] * b[i].
  void (*mul)(double* out, const double* a, const double* b, Index n);
  // ADDS INTO acc: acc[i] += x[i].
  void (*add)(double* acc, const double* x, Index n);
  // Gaussian log-densities of T steps of x [T, D]: log_b[t, s] = norm[s] + sum_d (x[t, d] -
  // mu_t[d, s])^2 * nhiv_t[d, s], with nhiv_t = -1 / (2 var) dimension-major [D, S].
  void (*gaussian_log_prob)(double* log_b, const double* x, const double* mu_t,
                            const double* nhiv_t, const double* norm, Index T, Index S, Index D);
  // Baum–Welch Gaussian statistics of one step x [D] with posterior g [S]; ADDS INTO s1, s2 [D, S]:
  // diff = x[d] - mu_t[d, s]; s1[d, s] += g[s] diff; s2[d, s] += g[s] diff^2.
  void (*gaussian_stats)(double* s1, double* s2, const double* g, const double* x,
                         const double* mu_t, Index S, Index D);
};

// The table of a variant: simd::kScalarReference gives the plain loops, a Highway target bit
// (simd::available_targets()) its compiled kernels. Throws InvalidArgument for a target this build
// did not compile.
const HmmKernels& hmm_kernels(std::int64_t target);

}  // namespace kessel::hmm::detail
