// One Gustafson–Kessel cluster's safeguarded covariance F_i and norm-inducing matrix A_i from its
// fuzzy covariance (docs/clustering.md, steps 1–3):
//   F ← (1−γ) F + γ s₀ I,   F ← Φ max(Λ, λ_max/β) Φᵀ,   A = (ρ det F)^(1/D) F⁻¹.
// Three routes to the same F and A:
//   gk_norm_reference  Jacobi and plain loops (the original code, kept to test the others against);
//   gk_norm_dense      dsyevd, and F, A rebuilt by dsyrk: O(D³) in level-3 BLAS;
//   gk_norm_low_rank   for N < D (wide data): the fuzzy covariance is WᵀW for the N weighted
//                      differences W [N, D], so its spectrum is that of the N×N Gram matrix W Wᵀ
//                      plus D − N zeros. F and A are a multiple of I plus a rank-≤N term: O(N²D +
//                      ND²).
// Internal to the cluster area.
#pragma once

#include "kessel/tensor.h"

namespace kessel::cluster {

struct GkNormParams {
  double gamma = 0;       // shrinkage towards the sphere
  double data_scale = 0;  // s₀ = (det F_0)^(1/D)
  double beta = 1e15;     // condition-number cap
  double volume = 1;      // ρ_i
  Index cluster = 0;      // for the error message
};

// f [D, D]: the fuzzy covariance on entry, the safeguarded F_i on return; a [D, D] ← A_i.
// InvalidArgument when F_i is zero after the shrinkage (γ s₀ = 0 and all weight on one point).
void gk_norm_reference(double* f, double* a, Index d, const GkNormParams& p);
void gk_norm_dense(double* f, double* a, Index d, const GkNormParams& p);

// w [n, D] with the fuzzy covariance WᵀW and n < D; writes f ← F_i and a ← A_i [D, D].
void gk_norm_low_rank(double* f, double* a, const double* w, Index n, Index d,
                      const GkNormParams& p);

}  // namespace kessel::cluster
