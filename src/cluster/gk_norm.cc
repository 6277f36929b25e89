#include "cluster/gk_norm.h"

#include <cblas.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "cluster/symmetric_eigen.h"
#include "kessel/error.h"

namespace kessel::cluster {

namespace {

// Shrinks the spectrum λ ← (1−γ)λ + γ s₀, checks it is not all zero, raises it to λ_max/β and
// returns the volume factor (ρ det F)^(1/D). `values` is descending; `null_count` more eigenvalues
// equal to 0 before the shrinkage (the low-rank route's D − N) become *null_value.
double safeguard_spectrum(std::vector<double>& values, Index null_count, double* null_value,
                          Index d, const GkNormParams& p) {
  for (double& lambda : values) lambda = (1.0 - p.gamma) * lambda + p.gamma * p.data_scale;
  *null_value = p.gamma * p.data_scale;
  const double lambda_max = values.empty() ? *null_value : std::max(values[0], *null_value);
  if (!(lambda_max > 0)) {
    throw InvalidArgument(detail::concat(
        "gustafson_kessel: cluster ", p.cluster,
        " has a zero fuzzy covariance (all its weight on one "
        "point) and gamma = ",
        p.gamma, " with data covariance scale ", p.data_scale,
        " cannot regularise it; use gamma > 0 on data that span all ", d, " dimensions"));
  }
  double log_det = 0;
  for (double& lambda : values) {
    lambda = std::max(lambda, lambda_max / p.beta);
    log_det += std::log(lambda);
  }
  *null_value = std::max(*null_value, lambda_max / p.beta);
  if (null_count > 0) log_det += static_cast<double>(null_count) * std::log(*null_value);
  return std::exp((std::log(p.volume) + log_det) / static_cast<double>(d));
}

// out [D, D] = diagonal·I + sign · B Bᵀ for B [D, k] row-major, both triangles written.
void identity_plus_gram(double* out, Index d, double diagonal, double sign, const double* b,
                        Index k) {
  std::fill(out, out + d * d, 0.0);
  for (Index p = 0; p < d; ++p) out[p * d + p] = diagonal;
  if (k > 0)
    cblas_dsyrk(CblasRowMajor, CblasUpper, CblasNoTrans, static_cast<int>(d), static_cast<int>(k),
                sign, b, static_cast<int>(k), 1.0, out, static_cast<int>(d));
  for (Index p = 0; p < d; ++p)
    for (Index q = p + 1; q < d; ++q) out[q * d + p] = out[p * d + q];
}

}  // namespace

void gk_norm_reference(double* f, double* a, Index d, const GkNormParams& p) {
  for (Index e = 0; e < d * d; ++e) f[e] *= 1.0 - p.gamma;
  for (Index q = 0; q < d; ++q) f[q * d + q] += p.gamma * p.data_scale;
  SymmetricEigen eig = symmetric_eigen(f, d);
  const double lambda_max = eig.values[0];
  if (!(lambda_max > 0)) {
    throw InvalidArgument(detail::concat(
        "gustafson_kessel: cluster ", p.cluster,
        " has a zero fuzzy covariance (all its weight on one "
        "point) and gamma = ",
        p.gamma, " with data covariance scale ", p.data_scale,
        " cannot regularise it; use gamma > 0 on data that span all ", d, " dimensions"));
  }
  double log_det = 0;
  for (double& lambda : eig.values) {
    lambda = std::max(lambda, lambda_max / p.beta);
    log_det += std::log(lambda);
  }
  const double scale = std::exp((std::log(p.volume) + log_det) / static_cast<double>(d));
  const std::vector<double>& phi = eig.vectors;
  for (Index r = 0; r < d; ++r) {
    for (Index q = 0; q < d; ++q) {
      double fs = 0, as = 0;
      for (Index k = 0; k < d; ++k) {
        const double pq = phi[r * d + k] * phi[q * d + k];
        fs += pq * eig.values[k];
        as += pq / eig.values[k];
      }
      f[r * d + q] = fs;
      a[r * d + q] = scale * as;
    }
  }
}

void gk_norm_dense(double* f, double* a, Index d, const GkNormParams& p) {
  // The shrinkage's γ s₀ I commutes with everything: it is applied to the eigenvalues.
  SymmetricEigen eig = symmetric_eigen_lapack(f, d);
  double unused = 0;
  const double scale = safeguard_spectrum(eig.values, 0, &unused, d, p);
  // F = (Φ√Λ)(Φ√Λ)ᵀ and A = scale (Φ/√Λ)(Φ/√Λ)ᵀ: one dsyrk each, symmetric by construction.
  std::vector<double> b(static_cast<size_t>(d * d));
  for (Index r = 0; r < d; ++r)
    for (Index k = 0; k < d; ++k) b[r * d + k] = eig.vectors[r * d + k] * std::sqrt(eig.values[k]);
  identity_plus_gram(f, d, 0.0, 1.0, b.data(), d);
  for (Index r = 0; r < d; ++r)
    for (Index k = 0; k < d; ++k) b[r * d + k] = eig.vectors[r * d + k] / std::sqrt(eig.values[k]);
  identity_plus_gram(a, d, 0.0, scale, b.data(), d);
}

void gk_norm_low_rank(double* f, double* a, const double* w, Index n, Index d,
                      const GkNormParams& p) {
  KESSEL_CHECK_ARG(n >= 1 && n < d, "gk_norm_low_rank: needs 1 <= n < D, got n = ", n, ", D = ", d);
  // Gram matrix G = W Wᵀ [n, n]: WᵀW and W Wᵀ share their nonzero eigenvalues σ², and the
  // eigenvector of WᵀW for σ² is q = Wᵀ p / σ with p that of G.
  std::vector<double> gram(static_cast<size_t>(n * n));
  identity_plus_gram(gram.data(), n, 0.0, 1.0, w, d);
  SymmetricEigen eig = symmetric_eigen_lapack(gram.data(), n);
  std::vector<double> sigma2 = eig.values;
  double null_value = 0;
  const double scale = safeguard_spectrum(eig.values, d - n, &null_value, d, p);
  // F = λ₀ I + Σ (λ_k − λ₀) q qᵀ and A = scale (I/λ₀ − Σ (1/λ₀ − 1/λ_k) q qᵀ) over the directions
  // whose eigenvalue stayed above the null space's λ₀; the others are part of λ₀ I.
  Index kept = 0;
  while (kept < n && eig.values[kept] > null_value && sigma2[kept] > 0) ++kept;
  std::vector<double> coef(static_cast<size_t>(n * std::max<Index>(kept, 1)), 0.0),
      b(static_cast<size_t>(d * std::max<Index>(kept, 1)));
  auto rank_update = [&](double* out, double diagonal, double sign, auto weight) {
    // b [D, kept] = Wᵀ P diag(weight_k / σ_k): the directions q_k scaled by √weight_k.
    for (Index i = 0; i < n; ++i)
      for (Index k = 0; k < kept; ++k)
        coef[i * kept + k] = eig.vectors[i * n + k] * std::sqrt(weight(k) / sigma2[k]);
    if (kept > 0)
      cblas_dgemm(CblasRowMajor, CblasTrans, CblasNoTrans, static_cast<int>(d),
                  static_cast<int>(kept), static_cast<int>(n), 1.0, w, static_cast<int>(d),
                  coef.data(), static_cast<int>(kept), 0.0, b.data(), static_cast<int>(kept));
    identity_plus_gram(out, d, diagonal, sign, b.data(), kept);
  };
  rank_update(f, null_value, 1.0, [&](Index k) { return eig.values[k] - null_value; });
  rank_update(a, scale / null_value, -scale,
              [&](Index k) { return 1.0 / null_value - 1.0 / eig.values[k]; });
}

}  // namespace kessel::cluster
