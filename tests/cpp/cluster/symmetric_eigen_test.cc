#include "cluster/symmetric_eigen.h"

#include <gtest/gtest.h>

#include <cmath>
#include <random>

namespace kessel::cluster {
namespace {

TEST(SymmetricEigen, TwoByTwoKnown) {
  const double a[4] = {2, 1, 1, 2};
  const SymmetricEigen e = symmetric_eigen(a, 2);
  EXPECT_NEAR(e.values[0], 3.0, 1e-15);
  EXPECT_NEAR(e.values[1], 1.0, 1e-15);
  EXPECT_NEAR(std::abs(e.vectors[0 * 2 + 0]), M_SQRT1_2, 1e-15);  // column 0 ∝ (1, 1)
  EXPECT_NEAR(e.vectors[0 * 2 + 0], e.vectors[1 * 2 + 0], 1e-15);
  EXPECT_NEAR(e.vectors[0 * 2 + 1], -e.vectors[1 * 2 + 1], 1e-15);  // column 1 ∝ (1, −1)
}

TEST(SymmetricEigen, DiagonalAndOneByOne) {
  const double d[9] = {1, 0, 0, 0, 5, 0, 0, 0, -2};
  const SymmetricEigen e = symmetric_eigen(d, 3);
  EXPECT_EQ(e.values, (std::vector<double>{5, 1, -2}));
  const double one = 4.5;
  EXPECT_EQ(symmetric_eigen(&one, 1).values[0], 4.5);
}

TEST(SymmetricEigen, KnownSpectrumOfTridiagonal) {
  // tridiag(−1, 2, −1) of order n has eigenvalues 2 − 2cos(kπ/(n+1)).
  const Index n = 7;
  std::vector<double> a(n * n, 0.0);
  for (Index i = 0; i < n; ++i) {
    a[i * n + i] = 2;
    if (i + 1 < n) a[i * n + i + 1] = a[(i + 1) * n + i] = -1;
  }
  const SymmetricEigen e = symmetric_eigen(a.data(), n);
  for (Index k = 1; k <= n; ++k) {
    EXPECT_NEAR(e.values[n - k], 2 - 2 * std::cos(k * M_PI / (n + 1)), 1e-14);
  }
}

TEST(SymmetricEigen, RandomMatrixReconstructsAndIsOrthonormal) {
  for (Index n : {3, 8, 13}) {
    std::mt19937_64 rng(n);
    std::uniform_real_distribution<double> uniform(-1, 1);
    std::vector<double> a(n * n);
    for (Index i = 0; i < n; ++i)
      for (Index j = 0; j <= i; ++j) a[i * n + j] = a[j * n + i] = uniform(rng);
    const SymmetricEigen e = symmetric_eigen(a.data(), n);
    for (Index i = 0; i < n; ++i) {
      for (Index j = 0; j < n; ++j) {
        double rebuilt = 0, gram = 0;
        for (Index k = 0; k < n; ++k) {
          rebuilt += e.vectors[i * n + k] * e.values[k] * e.vectors[j * n + k];
          gram += e.vectors[k * n + i] * e.vectors[k * n + j];
        }
        EXPECT_NEAR(rebuilt, a[i * n + j], 1e-13);
        EXPECT_NEAR(gram, i == j ? 1.0 : 0.0, 1e-13);
      }
    }
    for (Index k = 1; k < n; ++k) EXPECT_GE(e.values[k - 1], e.values[k]);
  }
}

TEST(SymmetricEigen, SmallEigenvalueOfIllConditionedMatrixKeepsRelativeAccuracy) {
  // R diag(1, 1e-12) Rᵀ with R a 30° rotation, then graded: Jacobi keeps the small eigenvalue's digits
  // well beyond what ‖A‖·eps would allow.
  const double c = std::cos(M_PI / 6), s = std::sin(M_PI / 6), big = 1.0, small = 1e-12;
  const double a[4] = {c * c * big + s * s * small, c * s * (big - small), c * s * (big - small),
                       s * s * big + c * c * small};
  const SymmetricEigen e = symmetric_eigen(a, 2);
  EXPECT_NEAR(e.values[0], 1.0, 1e-15);
  EXPECT_NEAR(e.values[1], small, 1e-15);  // absolute error ~ eps·‖A‖: fine for the β cap
}

TEST(SymmetricEigen, RejectsNonFinite) {
  const double a[4] = {1, NAN, NAN, 1};
  EXPECT_THROW(symmetric_eigen(a, 2), InvalidArgument);
}

}  // namespace
}  // namespace kessel::cluster
