// Gustafson–Kessel fuzzy clustering (1979) with the covariance safeguards of Babuška, van der Veen and
// Kaymak, "Improved covariance estimation for Gustafson–Kessel clustering" (FUZZ-IEEE 2002).
//
// Iteration t, from memberships U_{t−1}:
//   V_t   = (U^m)ᵀX / Σ U^m
//   F_i   = Σ_k u_ki^m (x_k − v_i)(x_k − v_i)ᵀ / Σ_k u_ki^m                     fuzzy covariance
//   F_i  ← (1−γ) F_i + γ (det F_0)^(1/D) I                                       shrink towards a sphere
//   F_i  ← Φ max(Λ, λ_max/β) Φᵀ                                                  cap the condition number
//   A_i   = (ρ_i det F_i)^(1/D) F_i⁻¹,  d²_ki = (x_k − v_i)ᵀ A_i (x_k − v_i)     volume-ρ_i norm
//   U_t   = memberships(d²)
// until max |V_t − V_{t−1}| < tol·σ or max_iter, as in fcm.cc.
// Without the safeguards a cluster whose points lie on a line has det F_i = 0 and A_i is 0·∞.
#include <cblas.h>

#include <cmath>
#include <optional>

#include "cluster/distances.h"
#include "cluster/fuzzy_iteration.h"
#include "cluster/gk_norm.h"
#include "cluster/membership.h"
#include "cluster/symmetric_eigen.h"
#include "kessel/cluster.h"
#include "util/parallel.h"

namespace kessel::cluster {

namespace {

// (det F_0)^(1/D) of the population covariance of all data; 0 if the data span fewer than D
// dimensions: always when N <= D (N centred points span at most N − 1), otherwise when the Cholesky
// factorisation of F_0 breaks down.
double data_covariance_scale(MatrixView x) {
  const Index n = x.rows, d = x.cols;
  if (n <= d) return 0.0;
  std::vector<double> mean(static_cast<size_t>(d), 0.0), centred(static_cast<size_t>(n * d)),
      cov(static_cast<size_t>(d * d), 0.0);
  for (Index i = 0; i < n; ++i)
    for (Index k = 0; k < d; ++k) mean[k] += x.at(i, k);
  for (double& value : mean) value /= static_cast<double>(n);
  for (Index i = 0; i < n; ++i)
    for (Index k = 0; k < d; ++k) centred[i * d + k] = x.at(i, k) - mean[k];
  cblas_dsyrk(CblasRowMajor, CblasUpper, CblasTrans, static_cast<int>(d), static_cast<int>(n),
              1.0 / static_cast<double>(n), centred.data(), static_cast<int>(d), 0.0, cov.data(),
              static_cast<int>(d));
  for (Index p = 0; p < d; ++p)
    for (Index q = p + 1; q < d; ++q) cov[q * d + p] = cov[p * d + q];
  const std::optional<double> log_det = log_det_cholesky(cov.data(), d);
  return log_det ? std::exp(*log_det / static_cast<double>(d)) : 0.0;
}

// u [C, N]; cov [C, D, D] = Σ_k u_ki^m (x_k − v_i)(x_k − v_i)ᵀ / weights_i, by dsyrk on √(u^m)-weighted
// differences, with per-chunk partials added in chunk order.
void fuzzy_covariances(double* cov, MatrixView x, const double* u, const double* centres,
                       const std::vector<double>& weights, Index c, double m, int threads) {
  const Index d = x.cols;
  const Chunks chunks(x.rows);
  std::vector<double> partial(static_cast<size_t>(chunks.count * c * d * d), 0.0);
#pragma omp parallel num_threads(std::min<Index>(resolve_threads(threads), chunks.count))
  {
    std::vector<double> weighted(static_cast<size_t>(kBlockRows * d));
#pragma omp for schedule(dynamic, 1)
    for (Index k = 0; k < chunks.count; ++k) {
      for (Index row0 = chunks.begin(k); row0 < chunks.end(k); row0 += kBlockRows) {
        const Index b = std::min(kBlockRows, chunks.end(k) - row0);
        for (Index j = 0; j < c; ++j) {
          for (Index i = 0; i < b; ++i) {
            const double w = std::sqrt(fuzzy_power(u[j * x.rows + row0 + i], m));
            for (Index q = 0; q < d; ++q) {
              weighted[i * d + q] = w * (x.at(row0 + i, q) - centres[j * d + q]);
            }
          }
          cblas_dsyrk(CblasRowMajor, CblasUpper, CblasTrans, static_cast<int>(d), static_cast<int>(b),
                      1.0, weighted.data(), static_cast<int>(d), 1.0, &partial[(k * c + j) * d * d],
                      static_cast<int>(d));
        }
      }
    }
  }
  std::fill(cov, cov + c * d * d, 0.0);
  for (Index k = 0; k < chunks.count; ++k)
    for (Index e = 0; e < c * d * d; ++e) cov[e] += partial[k * c * d * d + e];
  for (Index j = 0; j < c; ++j) {
    double* f = cov + j * d * d;
    const double w = weights[static_cast<size_t>(j)];
    for (Index p = 0; p < d; ++p) {
      for (Index q = p; q < d; ++q) {
        const double value = w > 0 ? f[p * d + q] / w : 0.0;
        f[p * d + q] = f[q * d + p] = value;  // dsyrk filled only the upper triangle
      }
    }
  }
}

// Wide data (N < D): W [N, D] with rows √(u_kj^m / Σ_k u_kj^m) (x_k − v_j), so that the fuzzy
// covariance of cluster j is WᵀW (gk_norm_low_rank works from W, never forming the D×D product).
void weighted_differences(double* w, MatrixView x, const double* u, const double* centre,
                          double weight, double m) {
  const Index n = x.rows, d = x.cols;
  for (Index k = 0; k < n; ++k) {
    const double s = weight > 0 ? std::sqrt(fuzzy_power(u[k], m) / weight) : 0.0;
    for (Index q = 0; q < d; ++q) w[k * d + q] = s * (x.at(k, q) - centre[q]);
  }
}

// The safeguarded F_j and A_j of every cluster into r.covariances and r.norm_matrices.
void cluster_norms(GkResult& r, MatrixView x, const double* u, const SweepResult& sums,
                   const GkOptions& o, double data_scale) {
  const Index n = x.rows, d = x.cols, c = o.clusters;
  auto params = [&](Index j) {
    return GkNormParams{o.gamma, data_scale, o.beta, o.volumes.empty() ? 1.0 : o.volumes[j], j};
  };
  if (n < d) {
    std::vector<double> w(static_cast<size_t>(n * d));
    for (Index j = 0; j < c; ++j) {
      weighted_differences(w.data(), x, u + j * n, &r.centres[j * d],
                           sums.weights[static_cast<size_t>(j)], o.m);
      gk_norm_low_rank(&r.covariances[j * d * d], &r.norm_matrices[j * d * d], w.data(), n, d,
                       params(j));
    }
    return;
  }
  fuzzy_covariances(r.covariances.data(), x, u, r.centres.data(), sums.weights, c, o.m, o.threads);
  for (Index j = 0; j < c; ++j)
    gk_norm_dense(&r.covariances[j * d * d], &r.norm_matrices[j * d * d], d, params(j));
}

BlockDistances mahalanobis_block_distances(MatrixView x, const double* centres, const double* norms,
                                           Index c) {
  return [=](double* d2, Index row0, Index rows, double* scratch) {
    mahalanobis_distances(d2, x.data + row0 * x.cols, rows, centres, norms, c, x.cols, scratch);
  };
}

GkResult run_once(MatrixView x, const GkOptions& o, double data_scale, double spread, int restart) {
  const Index n = x.rows, d = x.cols, c = o.clusters;
  GkResult r;
  r.points = n;
  r.dims = d;
  r.clusters = c;
  std::vector<double> u(static_cast<size_t>(n * c), 0.0);  // [C, N] while iterating
  r.centres.assign(static_cast<size_t>(c * d), 0.0);
  r.covariances.assign(static_cast<size_t>(c * d * d), 0.0);
  r.norm_matrices.assign(static_cast<size_t>(c * d * d), 0.0);
  std::mt19937_64 rng(o.seed + static_cast<std::uint64_t>(restart));

  SweepResult sums;
  if (o.init == Init::kRandomMemberships) {
    random_memberships(u.data(), n, c, rng);
    sums = centre_sums_from_memberships(x, u.data(), c, o.m, o.threads);
  } else {
    // Initial centres give U_0 through Euclidean memberships (GK with every A_i = I).
    r.centres = o.init == Init::kGivenCentres ? o.init_centres : kmeans_plus_plus(x, c, rng);
    std::vector<double> x_norms(static_cast<size_t>(n)), v_norms(static_cast<size_t>(c));
    squared_row_norms(x_norms.data(), x.data, n, d);
    squared_row_norms(v_norms.data(), r.centres.data(), c, d);
    const double* centres = r.centres.data();
    sums = membership_sweep(
        x, c, o.m,
        [&](double* d2, Index row0, Index rows, double*) {
          squared_distances_gemm(d2, x.data + row0 * d, x_norms.data() + row0, rows, centres,
                                 v_norms.data(), c, d);
        },
        0, u.data(), o.threads);
  }
  // GK needs U at every step (the covariances), so every sweep stores it.
  alternate(r, sums, o.init != Init::kRandomMemberships, o, spread, restart,
            [&](bool, const SweepResult& current) {
              cluster_norms(r, x, u.data(), current, o, data_scale);
              return membership_sweep(
                  x, c, o.m,
                  mahalanobis_block_distances(x, r.centres.data(), r.norm_matrices.data(), c),
                  2 * d, u.data(), o.threads);
            });
  r.memberships = to_point_major(u, n, c);
  return r;
}

}  // namespace

GkResult gustafson_kessel(MatrixView x, const GkOptions& options) {
  check_fuzzy_options("gustafson_kessel", x, options);
  KESSEL_CHECK_ARG(options.precision == Precision::kDouble,
                   "gustafson_kessel: precision must be double (float32 is FCM only)");
  KESSEL_CHECK_ARG(options.gamma >= 0 && options.gamma <= 1,
                   "gustafson_kessel: gamma must be in [0, 1], got ", options.gamma);
  KESSEL_CHECK_ARG(std::isfinite(options.beta) && options.beta >= 1,
                   "gustafson_kessel: beta must be finite and >= 1, got ", options.beta);
  KESSEL_CHECK_ARG(options.volumes.empty() ||
                       static_cast<Index>(options.volumes.size()) == options.clusters,
                   "gustafson_kessel: volumes has ", options.volumes.size(),
                   " entries but clusters = ", options.clusters);
  for (size_t j = 0; j < options.volumes.size(); ++j) {
    KESSEL_CHECK_ARG(std::isfinite(options.volumes[j]) && options.volumes[j] > 0,
                     "gustafson_kessel: volumes[", j, "] must be finite and > 0, got ",
                     options.volumes[j]);
  }
  const double data_scale = data_covariance_scale(x);
  const double spread = data_spread(x);
  return best_of_restarts<GkResult>(options.n_init,
                                    [&](int restart) { return run_once(x, options, data_scale, spread, restart); });
}

std::vector<double> gk_predict(MatrixView x, MatrixView centres, std::span<const double> norm_matrices,
                               double m, int threads) {
  check_data("gk_predict", x);
  check_fuzzifier("gk_predict", m);
  KESSEL_CHECK_ARG(centres.rows >= 1 && centres.data != nullptr,
                   "gk_predict: centres must be a non-empty [C, D] matrix, got [", centres.rows, ", ",
                   centres.cols, "]");
  KESSEL_CHECK_ARG(centres.cols == x.cols, "gk_predict: x has D=", x.cols, " but centres have D=",
                   centres.cols);
  check_data("gk_predict (centres)", centres);
  const Index c = centres.rows, d = x.cols;
  KESSEL_CHECK_ARG(static_cast<Index>(norm_matrices.size()) == c * d * d, "gk_predict: norm_matrices has ",
                   norm_matrices.size(), " values, expected C*D*D = ", c, "*", d, "*", d);
  for (double value : norm_matrices) {
    KESSEL_CHECK_ARG(std::isfinite(value), "gk_predict: norm_matrices contain ", value);
  }
  // d² = (x − v)ᵀ A (x − v) is a distance only for a symmetric positive definite A; with another
  // matrix the distances go negative or zero and the memberships mean nothing (a negated fit's
  // matrices gave 1/C everywhere). The smallest eigenvalue of each symmetric part tells.
  std::vector<double> sym(static_cast<size_t>(d * d));
  for (Index j = 0; j < c; ++j) {
    const double* a = norm_matrices.data() + j * d * d;
    for (Index r = 0; r < d; ++r)
      for (Index k = 0; k < d; ++k)
        sym[static_cast<size_t>(r * d + k)] = 0.5 * (a[r * d + k] + a[k * d + r]);
    const double smallest =
        symmetric_eigen_lapack(sym.data(), d, false).values.back();  // descending
    KESSEL_CHECK_ARG(smallest > 0.0, "gk_predict: norm_matrices[", j,
                     "] is not positive definite (smallest eigenvalue ", smallest, ")");
  }
  std::vector<double> u(static_cast<size_t>(x.rows * c));
  predict_memberships(u.data(), x.rows, c, m,
                      mahalanobis_block_distances(x, centres.data, norm_matrices.data(), c), 2 * d,
                      threads);
  return u;
}

}  // namespace kessel::cluster
