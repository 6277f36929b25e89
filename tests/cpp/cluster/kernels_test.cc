// Fast kernels against their plain reference versions over odd sizes.
#include <gtest/gtest.h>

#include <random>

#include "cluster/distances.h"
#include "cluster/fuzzy_iteration.h"
#include "cluster/membership.h"

namespace kessel::cluster {
namespace {

std::vector<double> random_values(Index count, std::uint64_t seed, double offset = 0.0) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> uniform(-3.0, 3.0);
  std::vector<double> v(static_cast<size_t>(count));
  for (double& value : v) value = offset + uniform(rng);
  return v;
}

TEST(SquaredDistances, GemmMatchesReferenceOnOddSizes) {
  for (Index b : {1, 7, 129}) {
    for (Index c : {1, 3, 8}) {
      for (Index d : {1, 5, 17}) {
        // Offset data stresses the cancellation in ‖x‖² + ‖v‖² − 2x·v.
        const auto x = random_values(b * d, 1 + b, 50.0);
        const auto v = random_values(c * d, 2 + c, 50.0);
        std::vector<double> xn(b), vn(c), fast(b * c), ref(b * c);
        squared_row_norms(xn.data(), x.data(), b, d);
        squared_row_norms(vn.data(), v.data(), c, d);
        squared_distances_gemm(fast.data(), x.data(), xn.data(), b, v.data(), vn.data(), c, d);
        squared_distances_reference(ref.data(), x.data(), b, v.data(), c, d);
        for (Index e = 0; e < b * c; ++e) {
          EXPECT_NEAR(fast[e], ref[e], 1e-9 * (1 + ref[e])) << "b=" << b << " c=" << c << " d=" << d;
        }
      }
    }
  }
}

TEST(SquaredDistances, PointOnCentreIsExactlyZero) {
  const std::vector<double> x = {1e3 + 0.1, -7.3, 2.2, 1e3 + 0.1, -7.3, 2.2000001};
  const std::vector<double> v = {1e3 + 0.1, -7.3, 2.2};
  std::vector<double> xn(2), vn(1), d2(2);
  squared_row_norms(xn.data(), x.data(), 2, 3);
  squared_row_norms(vn.data(), v.data(), 1, 3);
  squared_distances_gemm(d2.data(), x.data(), xn.data(), 2, v.data(), vn.data(), 1, 3);
  EXPECT_EQ(d2[0], 0.0);
  EXPECT_NEAR(d2[1], 1e-14, 1e-20);  // recomputed directly, not lost to cancellation
}

TEST(Memberships, FastMatchesReference) {
  for (double m : {1.3, 2.0, 3.7}) {
    for (Index b : {1, 7, 129}) {
      for (Index c : {1, 2, 9}) {
        auto d2 = random_values(b * c, 11 + b + c, 3.5);  // in (0.5, 6.5)
        std::vector<double> fast(b * c), ref(b * c);
        fuzzy_memberships(fast.data(), d2.data(), b, c, m);
        fuzzy_memberships_reference(ref.data(), d2.data(), b, c, m);
        for (Index e = 0; e < b * c; ++e) EXPECT_NEAR(fast[e], ref[e], 1e-13) << "m=" << m;
      }
    }
  }
}

TEST(Memberships, ExponentIsOneOverMMinusOneOnSquaredDistances) {
  // m = 2: weights 1/d², so d² = (1, 4) gives u = (4/5, 1/5). The seed article's exponent 2/(m−1) on
  // d² would give (16/17, 1/17).
  const double d2[2] = {1.0, 4.0};
  double u[2];
  fuzzy_memberships(u, d2, 1, 2, 2.0);
  EXPECT_DOUBLE_EQ(u[0], 0.8);
  EXPECT_DOUBLE_EQ(u[1], 0.2);
}

TEST(Memberships, ExactMatchesAreCrispAndShared) {
  // d2 is cluster-major [C = 3, B = 2]: point 0 has (0, 2, 0), point 1 has (3, 5, 7).
  const double d2[6] = {0.0, 3.0, 2.0, 5.0, 0.0, 7.0};
  double u[6], ref[6];
  fuzzy_memberships(u, d2, 2, 3, 2.0);
  fuzzy_memberships_reference(ref, d2, 2, 3, 2.0);
  EXPECT_EQ(u[0], 0.5);
  EXPECT_EQ(u[2], 0.0);
  EXPECT_EQ(u[4], 0.5);
  EXPECT_NEAR(u[1] + u[3] + u[5], 1.0, 1e-15);
  for (int e = 0; e < 6; ++e) EXPECT_DOUBLE_EQ(u[e], ref[e]);
}

TEST(Memberships, NoOverflowForTinyDistancesAndSmallM) {
  const double d2[3] = {1e-300, 2e-300, 1e-200};
  double u[3];
  fuzzy_memberships(u, d2, 1, 3, 1.05);  // exponent 20: (1e-300)^-20 would overflow
  EXPECT_TRUE(std::isfinite(u[0]) && std::isfinite(u[1]) && std::isfinite(u[2]));
  EXPECT_NEAR(u[0] + u[1] + u[2], 1.0, 1e-15);
  EXPECT_NEAR(u[0], 1.0 / (1.0 + std::pow(0.5, 20.0)), 1e-12);
}

TEST(MahalanobisDistances, GemmMatchesReference) {
  for (Index b : {1, 7, 129}) {
    for (Index d : {1, 3, 6}) {
      const Index c = 3;
      const auto x = random_values(b * d, 21 + b);
      const auto v = random_values(c * d, 22 + d);
      // A_j = I + L Lᵀ: symmetric positive definite.
      const auto l = random_values(c * d * d, 23);
      std::vector<double> a(c * d * d, 0.0);
      for (Index j = 0; j < c; ++j)
        for (Index p = 0; p < d; ++p)
          for (Index q = 0; q < d; ++q) {
            double s = p == q ? 1.0 : 0.0;
            for (Index k = 0; k < d; ++k) s += l[j * d * d + p * d + k] * l[j * d * d + q * d + k];
            a[j * d * d + p * d + q] = s;
          }
      std::vector<double> fast(b * c), ref(b * c), scratch(2 * b * d);
      mahalanobis_distances(fast.data(), x.data(), b, v.data(), a.data(), c, d, scratch.data());
      mahalanobis_distances_reference(ref.data(), x.data(), b, v.data(), a.data(), c, d);
      for (Index e = 0; e < b * c; ++e) EXPECT_NEAR(fast[e], ref[e], 1e-10 * (1 + ref[e]));
    }
  }
}

}  // namespace
}  // namespace kessel::cluster

namespace kessel::cluster {
namespace {

TEST(EuclideanSweep, MatchesGenericSweepWithReferenceDistancesOnOddSizes) {
  // 1100 points span several blocks and a ragged last one; d = 17 and c = 3 are not lane multiples.
  for (double m : {1.4, 2.0, 3.1}) {
    for (Index n : {1, 9, 1100}) {
      for (Index c : {1, 3, 8}) {
        const Index d = n == 1100 ? 17 : 5;
        if (c > n) continue;
        const auto x = random_values(n * d, 100 + n + d, 1.0);
        auto v = random_values(c * d, 200 + c);
        std::copy(x.begin(), x.begin() + d, v.begin());  // one point sits on a centre: crisp column
        const MatrixView xv{x.data(), n, d};
        const BlockDistances reference = [&](double* d2, Index row0, Index rows, double*) {
          squared_distances_reference(d2, x.data() + row0 * d, rows, v.data(), c, d);
        };
        std::vector<double> u_fast(n * c), u_ref(n * c);
        const SweepResult fast = euclidean_sweep(xv, v.data(), c, m, u_fast.data(), 1);
        const SweepResult ref = membership_sweep(xv, c, m, reference, 0, u_ref.data(), 1);
        EXPECT_NEAR(fast.objective, ref.objective, 1e-11 * ref.objective) << "m=" << m << " n=" << n;
        for (Index j = 0; j < c; ++j) {
          EXPECT_NEAR(fast.weights[j], ref.weights[j], 1e-11 * (1 + ref.weights[j]));
          for (Index k = 0; k < d; ++k) {
            EXPECT_NEAR(fast.centre_sums[j * d + k], ref.centre_sums[j * d + k],
                        1e-11 * (1 + std::abs(ref.centre_sums[j * d + k])));
          }
        }
        for (Index e = 0; e < n * c; ++e) EXPECT_NEAR(u_fast[e], u_ref[e], 1e-13);
        EXPECT_EQ(u_fast[0], 1.0) << "the point on centre 0 belongs to it crisply";
      }
    }
  }
}

TEST(EuclideanSweep, BitIdenticalForAnyThreadCount) {
  const Index n = 70'000, d = 6, c = 4;  // more than one chunk
  const auto x = random_values(n * d, 7);
  const auto v = random_values(c * d, 8);
  const MatrixView xv{x.data(), n, d};
  const SweepResult one = euclidean_sweep(xv, v.data(), c, 2.0, nullptr, 1);
  const SweepResult two = euclidean_sweep(xv, v.data(), c, 2.0, nullptr, 2);
  const SweepResult three = euclidean_sweep(xv, v.data(), c, 2.0, nullptr, 3);
  EXPECT_EQ(one.objective, two.objective);
  EXPECT_EQ(one.objective, three.objective);
  EXPECT_EQ(one.centre_sums, two.centre_sums);
  EXPECT_EQ(one.centre_sums, three.centre_sums);
  EXPECT_EQ(one.weights, three.weights);
}

}  // namespace
}  // namespace kessel::cluster
