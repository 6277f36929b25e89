// Fast kernels against their plain reference versions over odd sizes, for every SIMD variant.
#include <gtest/gtest.h>

#include <random>
#include <string>

#include "cluster/distances.h"
#include "cluster/fuzzy_iteration.h"
#include "cluster/membership.h"
#include "cluster/sweep_kernels.h"
#include "hwy/highway.h"
#include "kessel/cluster.h"
#include "kessel/cpu.h"
#include "util/simd.h"

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

// The fused sweep's SIMD kernels (sweep_kernels.h): every variant this CPU runs against the plain
// reference table, then the whole sweep of every variant against the generic one.
namespace kessel::cluster {
namespace {

// Every variant this CPU runs, "scalar" (the reference) last.
std::vector<std::int64_t> variants() { return simd::available_targets(); }

std::string name_of(std::int64_t target) { return simd::target_name(target); }

TEST(SweepKernels, EachTableIsTheVariantAskedFor) {
  for (const std::string& name : cpu_variants_available()) {
    ScopedCpuVariant scoped(name);
    EXPECT_EQ(std::string(sweep_kernels(simd::active_target()).variant), name);
    EXPECT_EQ(std::string(sweep_kernels_f32(simd::active_target()).variant), name);
  }
  EXPECT_EQ(std::string(sweep_kernels(simd::kScalarReference).variant), "scalar");
  std::int64_t missing = 1;  // a target bit this build did not compile
  while ((missing & HWY_TARGETS) != 0) missing <<= 1;
  EXPECT_THROW(sweep_kernels(missing), InvalidArgument);
  EXPECT_THROW(sweep_kernels_f32(missing), InvalidArgument);
  EXPECT_THROW(sweep_kernels((HWY_TARGETS & -HWY_TARGETS) | missing), InvalidArgument);
}

TEST(SweepKernels, DistancesMatchReferenceAndDoNotDependOnTheBlock) {
  const SweepKernels& ref = sweep_kernels(simd::kScalarReference);
  for (std::int64_t target : variants()) {
    const SweepKernels& fast = sweep_kernels(target);
    for (Index b : {1, 7, 9, 129}) {
      for (Index c : {1, 3, 5, 8}) {
        for (Index d : {1, 5, 17}) {
          const Index ld = b + 3;  // a row stride that is no multiple of any vector
          const auto xt = random_values(ld * d, 31 + b + d, 20.0);
          const auto v = random_values(c * d, 32 + c, 20.0);
          std::vector<double> got(b * c), want(b * c);
          fast.squared_distances(got.data(), xt.data(), ld, b, v.data(), c, d);
          ref.squared_distances(want.data(), xt.data(), ld, b, v.data(), c, d);
          for (Index e = 0; e < b * c; ++e) {
            EXPECT_NEAR(got[e], want[e], 1e-13 * want[e])
                << name_of(target) << " b=" << b << " c=" << c << " d=" << d;
          }
          // The block from point 1 on: every point keeps its distances bit for bit (so fcm_predict,
          // with other blocks, reproduces the fit).
          if (b < 2) continue;
          std::vector<double> shifted((b - 1) * c);
          fast.squared_distances(shifted.data(), xt.data() + 1, ld, b - 1, v.data(), c, d);
          for (Index j = 0; j < c; ++j)
            for (Index i = 1; i < b; ++i)
              ASSERT_EQ(shifted[j * (b - 1) + i - 1], got[j * b + i])
                  << name_of(target) << " b=" << b;
        }
      }
    }
  }
}

TEST(SweepKernels, MembershipsEqualFuzzyMembershipsBitForBit) {
  for (std::int64_t target : variants()) {
    const SweepKernels& fast = sweep_kernels(target);
    for (double m : {1.3, 2.0, 3.7}) {
      for (Index b : {1, 7, 9, 128}) {
        for (Index c : {1, 2, 9}) {
          for (bool on_centre : {false, true}) {
            auto d2 = random_values(b * c, 51 + b + c, 3.5);  // in (0.5, 6.5)
            if (on_centre) d2[(c - 1) * b + b / 2] = 0.0;     // the crisp rule for one point
            const Index ld = round_up(b, kSweepLanes) + 8;
            std::vector<double> u(b * c), um(ld * c, -1.0), want(b * c);
            fast.memberships(u.data(), um.data(), ld, d2.data(), b, c, m);
            fuzzy_memberships(want.data(), d2.data(), b, c, m);
            ASSERT_EQ(u, want) << name_of(target) << " m=" << m << " b=" << b << " c=" << c;
            for (Index j = 0; j < c; ++j) {
              for (Index i = 0; i < b; ++i)
                ASSERT_EQ(um[j * ld + i], fuzzy_power(want[j * b + i], m));
              for (Index i = b; i < round_up(b, kSweepLanes); ++i) ASSERT_EQ(um[j * ld + i], 0.0);
            }
          }
        }
      }
    }
  }
}

TEST(SweepKernels, BlockSumsMatchReference) {
  const SweepKernels& ref = sweep_kernels(simd::kScalarReference);
  for (std::int64_t target : variants()) {
    const SweepKernels& fast = sweep_kernels(target);
    for (Index b : {1, 7, 9, 128}) {
      for (Index c : {1, 3, 8}) {
        for (Index d : {1, 5, 17}) {
          const Index bp = round_up(b, kSweepLanes), ld = bp + 8;
          auto xt = random_values(ld * d, 41 + b, 2.0);
          auto um = random_values(ld * c, 42 + c, 3.0);  // in (0, 6)
          for (Index i = b; i < bp; ++i) {               // the padding the kernels rely on
            for (Index k = 0; k < d; ++k) xt[k * ld + i] = 0.0;
            for (Index j = 0; j < c; ++j) um[j * ld + i] = 0.0;
          }
          const auto d2 = random_values(b * c, 43 + d, 4.0);
          std::vector<double> sums(c * d * kSweepLanes, 0.5), weights(c * kSweepLanes, 0.25);
          std::vector<double> ref_sums = sums, ref_weights = weights;
          const double obj = fast.block_sums(sums.data(), weights.data(), um.data(), ld, d2.data(),
                                             b, xt.data(), ld, c, d);
          const double ref_obj = ref.block_sums(ref_sums.data(), ref_weights.data(), um.data(), ld,
                                                d2.data(), b, xt.data(), ld, c, d);
          const auto total = [](const std::vector<double>& lanes, Index e) {
            double s = 0;
            for (Index l = 0; l < kSweepLanes; ++l) s += lanes[e * kSweepLanes + l];
            return s;
          };
          EXPECT_NEAR(obj, ref_obj, 1e-13 * ref_obj) << name_of(target);
          for (Index j = 0; j < c; ++j) {
            EXPECT_NEAR(total(weights, j), total(ref_weights, j), 1e-13 * total(ref_weights, j))
                << name_of(target) << " b=" << b << " c=" << c;
          }
          for (Index e = 0; e < c * d; ++e) {
            EXPECT_NEAR(total(sums, e), total(ref_sums, e),
                        1e-12 * (1 + std::abs(total(ref_sums, e))))
                << name_of(target) << " b=" << b << " c=" << c << " d=" << d;
          }
        }
      }
    }
  }
}

TEST(EuclideanSweep, MatchesGenericSweepWithReferenceDistancesOnOddSizes) {
  // 1100 points span several blocks and a ragged last one; d = 17 and c = 3 are not lane multiples.
  for (std::int64_t target : variants()) {
    const SweepKernels& kernels = sweep_kernels(target);
    for (double m : {1.4, 2.0, 3.1}) {
      for (Index n : {1, 9, 1100}) {
        for (Index c : {1, 3, 8}) {
          const Index d = n == 1100 ? 17 : 5;
          if (c > n) continue;
          const auto x = random_values(n * d, 100 + n + d, 1.0);
          auto v = random_values(c * d, 200 + c);
          std::copy(x.begin(), x.begin() + d,
                    v.begin());  // one point sits on a centre: crisp column
          const MatrixView xv{x.data(), n, d};
          const BlockDistances reference = [&](double* d2, Index row0, Index rows, double*) {
            squared_distances_reference(d2, x.data() + row0 * d, rows, v.data(), c, d);
          };
          std::vector<double> u_fast(n * c), u_ref(n * c);
          const SweepResult fast = euclidean_sweep(kernels, xv, v.data(), c, m, u_fast.data(), 1);
          const SweepResult ref = membership_sweep(xv, c, m, reference, 0, u_ref.data(), 1);
          const auto where = [&] {
            return ::testing::Message()
                   << name_of(target) << " m=" << m << " n=" << n << " c=" << c;
          };
          EXPECT_NEAR(fast.objective, ref.objective, 1e-11 * ref.objective) << where();
          for (Index j = 0; j < c; ++j) {
            EXPECT_NEAR(fast.weights[j], ref.weights[j], 1e-11 * (1 + ref.weights[j])) << where();
            for (Index k = 0; k < d; ++k) {
              EXPECT_NEAR(fast.centre_sums[j * d + k], ref.centre_sums[j * d + k],
                          1e-11 * (1 + std::abs(ref.centre_sums[j * d + k])))
                  << where();
            }
          }
          for (Index e = 0; e < n * c; ++e) EXPECT_NEAR(u_fast[e], u_ref[e], 1e-13) << where();
          EXPECT_EQ(u_fast[0], 1.0) << "the point on centre 0 belongs to it crisply; " << where();
        }
      }
    }
  }
}

TEST(EuclideanSweep, BitIdenticalForAnyThreadCountInEveryVariant) {
  const Index n = 70'001, d = 6, c = 5;  // more than one chunk, ragged tail
  const auto x = random_values(n * d, 7);
  const auto v = random_values(c * d, 8);
  const MatrixView xv{x.data(), n, d};
  for (std::int64_t target : variants()) {
    const SweepKernels& kernels = sweep_kernels(target);
    std::vector<double> u1(n * c), u3(n * c);
    const SweepResult one = euclidean_sweep(kernels, xv, v.data(), c, 2.0, u1.data(), 1);
    const SweepResult two = euclidean_sweep(kernels, xv, v.data(), c, 2.0, nullptr, 2);
    const SweepResult three = euclidean_sweep(kernels, xv, v.data(), c, 2.0, u3.data(), 3);
    EXPECT_EQ(one.objective, two.objective) << name_of(target);
    EXPECT_EQ(one.objective, three.objective) << name_of(target);
    EXPECT_EQ(one.centre_sums, two.centre_sums) << name_of(target);
    EXPECT_EQ(one.centre_sums, three.centre_sums) << name_of(target);
    EXPECT_EQ(one.weights, three.weights) << name_of(target);
    EXPECT_EQ(u1, u3) << name_of(target);
  }
}

// The cross-variant tolerance documented in docs/clustering.md ("SIMD variants"): a double fit of
// any variant against the scalar reference's, same data and start.
TEST(FuzzyCMeans, EveryVariantCloseToScalarAndThreadInvariantAndPredictsItsFit) {
  std::mt19937_64 rng(5);
  std::normal_distribution<double> normal;
  const Index n = 3001, d = 5, c = 4;
  std::vector<double> x(static_cast<size_t>(n * d));
  for (Index i = 0; i < n; ++i)
    for (Index k = 0; k < d; ++k) x[i * d + k] = 4.0 * static_cast<double>(i % c) + normal(rng);
  FcmOptions o;
  o.clusters = c;
  o.init = Init::kKMeansPlusPlus;
  o.seed = 11;
  o.max_iter = 30;
  o.tol = 0;
  FcmResult scalar;
  {
    ScopedCpuVariant scoped("scalar");
    scalar = fuzzy_c_means({x.data(), n, d}, o);
  }
  for (const std::string& name : cpu_variants_available()) {
    ScopedCpuVariant scoped(name);
    o.threads = 1;
    const FcmResult one = fuzzy_c_means({x.data(), n, d}, o);
    o.threads = 3;
    const FcmResult three = fuzzy_c_means({x.data(), n, d}, o);
    EXPECT_EQ(one.centres, three.centres) << name;
    EXPECT_EQ(one.memberships, three.memberships) << name;
    EXPECT_EQ(one.objective_history, three.objective_history) << name;
    EXPECT_EQ(fcm_predict({x.data(), n, d}, {one.centres.data(), c, d}, o.m, 2), one.memberships)
        << name << ": predict on the training data reproduces the fit";
    EXPECT_NEAR(one.objective, scalar.objective, 1e-12 * scalar.objective) << name;
    for (size_t e = 0; e < one.centres.size(); ++e)
      EXPECT_NEAR(one.centres[e], scalar.centres[e], 1e-11) << name;
    for (size_t e = 0; e < one.memberships.size(); ++e)
      EXPECT_NEAR(one.memberships[e], scalar.memberships[e], 1e-12) << name;
  }
}

}  // namespace
}  // namespace kessel::cluster
