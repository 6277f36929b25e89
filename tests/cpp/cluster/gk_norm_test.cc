// GK's per-cluster norms: the dsyevd route and the low-rank (wide data) route against the Jacobi
// reference, on odd sizes, with and without the shrinkage and with the condition cap active.
#include "cluster/gk_norm.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <vector>

#include "cluster/symmetric_eigen.h"
#include "kessel/error.h"

namespace kessel::cluster {
namespace {

// W [n, d] of normal entries with a few scaled columns (an elongated cloud).
std::vector<double> random_rows(Index n, Index d, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::normal_distribution<double> normal(0.0, 1.0);
  std::vector<double> w(static_cast<size_t>(n * d));
  for (Index i = 0; i < n; ++i)
    for (Index k = 0; k < d; ++k)
      w[i * d + k] = normal(rng) * (k % 3 == 0 ? 3.0 : 0.5) / std::sqrt(double(n));
  return w;
}

// WᵀW [d, d] by plain loops.
std::vector<double> gram_of_columns(const std::vector<double>& w, Index n, Index d) {
  std::vector<double> s(static_cast<size_t>(d * d), 0.0);
  for (Index p = 0; p < d; ++p)
    for (Index q = 0; q < d; ++q)
      for (Index i = 0; i < n; ++i) s[p * d + q] += w[i * d + p] * w[i * d + q];
  return s;
}

double max_abs(const std::vector<double>& v) {
  double m = 0;
  for (double x : v) m = std::max(m, std::abs(x));
  return m;
}

// max |x − y| / max |y|
double relative_gap(const std::vector<double>& x, const std::vector<double>& y) {
  double m = 0;
  for (size_t i = 0; i < x.size(); ++i) m = std::max(m, std::abs(x[i] - y[i]));
  return m / max_abs(y);
}

struct Routes {
  std::vector<double> f_ref, a_ref, f, a;
};

Routes run_dense(const std::vector<double>& s, Index d, const GkNormParams& p) {
  Routes r{s, std::vector<double>(s.size()), s, std::vector<double>(s.size())};
  gk_norm_reference(r.f_ref.data(), r.a_ref.data(), d, p);
  gk_norm_dense(r.f.data(), r.a.data(), d, p);
  return r;
}

TEST(GkNorm, DenseMatchesReferenceOnOddSizes) {
  for (Index d : {1, 2, 7, 33, 65}) {
    for (double gamma : {0.0, 0.05}) {
      for (double beta : {1e15, 50.0}) {  // 50: the cap raises most of the spectrum
        const Index n = d + 4;
        const auto w = random_rows(n, d, static_cast<std::uint64_t>(d) * 7 + 1);
        const auto s = gram_of_columns(w, n, d);
        const GkNormParams p{gamma, 0.7, beta, 2.0, 0};
        const Routes r = run_dense(s, d, p);
        EXPECT_LT(relative_gap(r.f, r.f_ref), 1e-11)
            << "D=" << d << " gamma=" << gamma << " beta=" << beta;
        EXPECT_LT(relative_gap(r.a, r.a_ref), 1e-10)
            << "D=" << d << " gamma=" << gamma << " beta=" << beta;
        for (Index q = 0; q < d; ++q)
          for (Index k = 0; k < d; ++k)
            EXPECT_EQ(r.a[q * d + k], r.a[k * d + q]);  // symmetric exactly
      }
    }
  }
}

// N < D: the covariance has rank N, the rest of its spectrum is the shrinkage's γ s₀ (or the cap).
TEST(GkNorm, LowRankMatchesReferenceOnOddSizes) {
  for (Index d : {2, 7, 33, 70}) {
    for (Index n : {1, 3, 6}) {
      if (n >= d) continue;
      for (double gamma : {0.0, 0.2}) {
        for (double data_scale : {0.0, 0.4}) {
          const auto w = random_rows(n, d, static_cast<std::uint64_t>(d * 31 + n));
          const auto s = gram_of_columns(w, n, d);
          // β = 1e4 keeps the comparison about the method: the reference's zero eigenvalues are
          // rounding noise (±1e-16 λ_max) that a cap of 1e-15 would let through unequal.
          const GkNormParams p{gamma, data_scale, 1e4, 1.5, 0};
          std::vector<double> f_ref = s, a_ref(s.size()), f(s.size()), a(s.size());
          gk_norm_reference(f_ref.data(), a_ref.data(), d, p);
          gk_norm_low_rank(f.data(), a.data(), w.data(), n, d, p);
          const std::string at = "D=" + std::to_string(d) + " n=" + std::to_string(n) +
                                 " gamma=" + std::to_string(gamma) +
                                 " s0=" + std::to_string(data_scale);
          EXPECT_LT(relative_gap(f, f_ref), 1e-11) << at;
          EXPECT_LT(relative_gap(a, a_ref), 1e-10) << at;
        }
      }
    }
  }
  // Wide data with the default cap: both routes give the same F. (A is not compared: the cap's
  // 1e-15 λ_max sits below the reference's rounding noise in the null space, D·eps·λ_max, so its
  // determinant and inverse there are the noise's; the low-rank route has exact zeros there.)
  const Index n = 5, d = 40;
  const auto w = random_rows(n, d, 3);
  const auto s = gram_of_columns(w, n, d);
  const GkNormParams p{0.0, 0.0, 1e15, 1.0, 0};
  std::vector<double> f_ref = s, a_ref(s.size()), f(s.size()), a(s.size());
  gk_norm_reference(f_ref.data(), a_ref.data(), d, p);
  gk_norm_low_rank(f.data(), a.data(), w.data(), n, d, p);
  EXPECT_LT(relative_gap(f, f_ref), 1e-12);
  for (Index q = 0; q < d; ++q)
    for (Index k = 0; k < d; ++k) {
      EXPECT_TRUE(std::isfinite(a[q * d + k]));
      EXPECT_EQ(a[q * d + k], a[k * d + q]);
    }
}

TEST(GkNorm, ZeroCovarianceWithoutShrinkageThrowsNamingTheCluster) {
  const Index d = 4;
  std::vector<double> f(d * d, 0.0), a(d * d), w(2 * d, 0.0);
  const GkNormParams p{0.0, 0.0, 1e15, 1.0, 3};
  for (auto call :
       {+[](double*f, double*a, const double*, const GkNormParams&p) {
          gk_norm_reference(f, a, 4, p);
        },
        +[](double*f, double*a, const double*, const GkNormParams&p) { gk_norm_dense(f, a, 4, p); },
        +[](double*f, double*a, const double*w, const GkNormParams&p) {
          gk_norm_low_rank(f, a, w, 2, 4, p);
        }}) {
    std::fill(f.begin(), f.end(), 0.0);
    try {
      call(f.data(), a.data(), w.data(), p);
      FAIL() << "expected InvalidArgument";
    } catch (const InvalidArgument& e) {
      EXPECT_NE(std::string(e.what()).find("cluster 3 has a zero fuzzy covariance"),
                std::string::npos)
          << e.what();
    }
  }
}

TEST(SymmetricEigenLapack, MatchesJacobiOnOddSizes) {
  for (Index n : {1, 3, 8, 13, 41}) {
    std::mt19937_64 rng(static_cast<std::uint64_t>(n));
    std::uniform_real_distribution<double> uniform(-1, 1);
    std::vector<double> a(static_cast<size_t>(n * n));
    for (Index i = 0; i < n; ++i)
      for (Index j = 0; j <= i; ++j) a[i * n + j] = a[j * n + i] = uniform(rng);
    const SymmetricEigen ref = symmetric_eigen(a.data(), n),
                         fast = symmetric_eigen_lapack(a.data(), n);
    const SymmetricEigen values_only = symmetric_eigen_lapack(a.data(), n, false);
    EXPECT_TRUE(values_only.vectors.empty());
    for (Index k = 0; k < n; ++k) {
      EXPECT_NEAR(fast.values[k], ref.values[k], 1e-13) << n << " " << k;
      EXPECT_NEAR(values_only.values[k], ref.values[k], 1e-13);
      // Eigenvectors agree up to sign (the random spectrum has no repeated values).
      double dot = 0;
      for (Index i = 0; i < n; ++i) dot += fast.vectors[i * n + k] * ref.vectors[i * n + k];
      EXPECT_NEAR(std::abs(dot), 1.0, 1e-10) << n << " " << k;
    }
  }
  const double bad[4] = {1, NAN, NAN, 1};
  EXPECT_THROW(symmetric_eigen_lapack(bad, 2), InvalidArgument);
}

TEST(SymmetricEigenLapack, CholeskyLogDetMatchesTheSpectrumAndRefusesIndefinite) {
  for (Index n : {1, 5, 17}) {
    const auto w = random_rows(n + 3, n, static_cast<std::uint64_t>(n));
    const auto s = gram_of_columns(w, n + 3, n);
    double expected = 0;
    for (double lambda : symmetric_eigen(s.data(), n).values) expected += std::log(lambda);
    const auto got = log_det_cholesky(s.data(), n);
    ASSERT_TRUE(got.has_value());
    EXPECT_NEAR(*got, expected, 1e-10 * std::max(1.0, std::abs(expected)));
  }
  const double indefinite[4] = {1, 2, 2, 1};
  EXPECT_FALSE(log_det_cholesky(indefinite, 2).has_value());
}

}  // namespace
}  // namespace kessel::cluster
