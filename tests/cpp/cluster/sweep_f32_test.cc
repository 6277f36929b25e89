// The single-precision FCM sweep, for every SIMD variant: its kernels against the plain reference
// table, the sweep against the double one on odd sizes, its thread determinism, and
// Precision::kFloat32 fits against the scalar kDouble fit.
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <string>

#include "cluster/fuzzy_iteration.h"
#include "cluster/sweep_kernels.h"
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

std::string name_of(std::int64_t target) { return simd::target_name(target); }

// A packed block xt [D, kF32Rows] with b points (zero padding after them) and centres v [C, D].
struct Block {
  std::vector<float> xt, v;
  Block(Index b, Index c, Index d, std::uint64_t seed)
      : xt(static_cast<size_t>(d * kF32Rows), 0.0f) {
    const auto x = random_values(b * d, seed, 1.0);
    for (Index i = 0; i < b; ++i)
      for (Index k = 0; k < d; ++k) xt[k * kF32Rows + i] = static_cast<float>(x[i * d + k]);
    for (double value : random_values(c * d, seed + 1)) v.push_back(static_cast<float>(value));
  }
};

TEST(SweepKernelsF32, EveryVariantMatchesReferenceOnOddSizes) {
  const SweepKernelsF32& ref = sweep_kernels_f32(simd::kScalarReference);
  for (std::int64_t target : simd::available_targets()) {
    const SweepKernelsF32& fast = sweep_kernels_f32(target);
    for (Index b : {1, 7, 17, 256}) {
      for (Index c : {1, 3, 5, 8, 13}) {
        for (Index d : {1, 5, 17}) {
          const auto where = [&] {
            return ::testing::Message()
                   << name_of(target) << " b=" << b << " c=" << c << " d=" << d;
          };
          const Index b16 = round_up(b, kF32Lanes);
          const Block blk(b, c, d, 500 + b + c + d);
          std::vector<float> d2(c * kF32Rows), ref_d2(c * kF32Rows);
          // `next` is only prefetched: the block itself is a valid address.
          fast.block_distances(d2.data(), blk.xt.data(), b16, blk.v.data(), c, d, blk.xt.data());
          ref.block_distances(ref_d2.data(), blk.xt.data(), b16, blk.v.data(), c, d, nullptr);
          for (Index j = 0; j < c; ++j)
            for (Index i = 0; i < b16; ++i)
              EXPECT_NEAR(d2[j * kF32Rows + i], ref_d2[j * kF32Rows + i],
                          1e-5f * ref_d2[j * kF32Rows + i])
                  << where();

          std::vector<float> u(c * kF32Rows), um(c * kF32Rows), ref_u(c * kF32Rows),
              ref_um(c * kF32Rows);
          ASSERT_TRUE(fast.memberships_m2(u.data(), um.data(), ref_d2.data(), b16, c)) << where();
          ASSERT_TRUE(ref.memberships_m2(ref_u.data(), ref_um.data(), ref_d2.data(), b16, c))
              << where();
          for (Index j = 0; j < c; ++j) {
            for (Index i = 0; i < b16; ++i) {
              EXPECT_NEAR(u[j * kF32Rows + i], ref_u[j * kF32Rows + i], 1e-6f) << where();
              EXPECT_NEAR(um[j * kF32Rows + i], ref_um[j * kF32Rows + i], 1e-6f) << where();
            }
          }
          std::vector<float> zero_d2 = ref_d2;  // a point on a centre needs the crisp rule
          zero_d2[(c - 1) * kF32Rows + (b - 1)] = 0.0f;
          EXPECT_FALSE(fast.memberships_m2(nullptr, um.data(), zero_d2.data(), b16, c)) << where();

          for (Index j = 0; j < c; ++j)  // padding points carry no weight
            for (Index i = b; i < b16; ++i) ref_um[j * kF32Rows + i] = 0.0f;
          std::vector<double> sums(c * d * kF32Lanes, 1.0), weights(c * kF32Lanes, 1.0),
              obj(kF32Lanes, 1.0);
          auto ref_sums = sums, ref_weights = weights, ref_obj = obj;
          fast.block_sums(sums.data(), weights.data(), obj.data(), ref_um.data(), ref_d2.data(),
                          blk.xt.data(), b16, c, d);
          ref.block_sums(ref_sums.data(), ref_weights.data(), ref_obj.data(), ref_um.data(),
                         ref_d2.data(), blk.xt.data(), b16, c, d);
          const auto total = [](const std::vector<double>& lanes, Index e) {
            double s = 0;
            for (Index l = 0; l < kF32Lanes; ++l) s += lanes[e * kF32Lanes + l];
            return s;
          };
          // Float sums of up to 256 terms in another order: a few float ulps of the sum of |terms|.
          EXPECT_NEAR(total(obj, 0), total(ref_obj, 0), 1e-5 * total(ref_obj, 0)) << where();
          for (Index j = 0; j < c; ++j)
            EXPECT_NEAR(total(weights, j), total(ref_weights, j), 1e-5 * total(ref_weights, j))
                << where();
          for (Index e = 0; e < c * d; ++e) {
            double scale = 0;  // Σ um·|x| of the entry
            for (Index i = 0; i < b; ++i)
              scale += ref_um[(e / d) * kF32Rows + i] * std::abs(blk.xt[(e % d) * kF32Rows + i]);
            EXPECT_NEAR(total(sums, e), total(ref_sums, e), 1e-5 * (1 + scale)) << where();
          }
        }
      }
    }
  }
}

TEST(EuclideanSweepF32, MatchesDoubleSweepOnOddSizes) {
  // 1100 points: several blocks and a ragged last one; c = 3, 5 and d = 5, 17 are not lane multiples.
  const SweepKernels& reference = sweep_kernels(simd::kScalarReference);
  for (std::int64_t target : simd::available_targets()) {
    const SweepKernelsF32& kernels = sweep_kernels_f32(target);
    for (double m : {1.4, 2.0, 3.1}) {
      for (Index n : {1, 9, 1100}) {
        for (Index c : {1, 3, 5, 8}) {
          const Index d = n == 1100 ? 17 : 5;
          if (c > n) continue;
          // Values exactly representable in float, so both sweeps see the same data.
          auto x = random_values(n * d, 300 + n + d, 1.0);
          for (double& value : x) value = static_cast<float>(value);
          auto v = random_values(c * d, 400 + c);
          std::copy(x.begin(), x.begin() + d, v.begin());  // point 0 on centre 0: the crisp path
          const MatrixView xv{x.data(), n, d};
          const std::vector<float> xf = pack_float_blocks("test", xv);
          std::vector<double> u_single(n * c), u_double(n * c);
          const SweepResult single =
              euclidean_sweep_f32(kernels, xf.data(), n, d, v.data(), c, m, u_single.data(), 1);
          const SweepResult ref =
              euclidean_sweep(reference, xv, v.data(), c, m, u_double.data(), 1);
          const auto where = [&] {
            return ::testing::Message()
                   << name_of(target) << " m=" << m << " n=" << n << " c=" << c;
          };
          EXPECT_NEAR(single.objective, ref.objective, 1e-5 * ref.objective) << where();
          for (Index j = 0; j < c; ++j) {
            EXPECT_NEAR(single.weights[j], ref.weights[j], 1e-5 * (1 + ref.weights[j])) << where();
            for (Index k = 0; k < d; ++k) {
              EXPECT_NEAR(single.centre_sums[j * d + k], ref.centre_sums[j * d + k],
                          1e-5 * (1 + std::abs(ref.centre_sums[j * d + k])))
                  << where();
            }
          }
          // u_single is point-major [N, C]; u_double is cluster-major [C, N].
          for (Index i = 0; i < n; ++i)
            for (Index j = 0; j < c; ++j)
              EXPECT_NEAR(u_single[i * c + j], u_double[j * n + i], 1e-5) << where();
          EXPECT_EQ(u_single[0], 1.0) << "the point on centre 0 belongs to it crisply; " << where();
        }
      }
    }
  }
}

TEST(EuclideanSweepF32, BitIdenticalForAnyThreadCountInEveryVariant) {
  const Index n = 70'001, d = 16, c = 8;  // more than one chunk, ragged tail
  const auto x = random_values(n * d, 17);
  const auto v = random_values(c * d, 18);
  const std::vector<float> xf = pack_float_blocks("test", {x.data(), n, d});
  for (std::int64_t target : simd::available_targets()) {
    const SweepKernelsF32& k = sweep_kernels_f32(target);
    std::vector<double> u1(n * c), u3(n * c);
    const SweepResult one = euclidean_sweep_f32(k, xf.data(), n, d, v.data(), c, 2.0, u1.data(), 1);
    const SweepResult two = euclidean_sweep_f32(k, xf.data(), n, d, v.data(), c, 2.0, nullptr, 2);
    const SweepResult three =
        euclidean_sweep_f32(k, xf.data(), n, d, v.data(), c, 2.0, u3.data(), 3);
    EXPECT_EQ(one.objective, two.objective) << name_of(target);
    EXPECT_EQ(one.objective, three.objective) << name_of(target);
    EXPECT_EQ(one.centre_sums, two.centre_sums) << name_of(target);
    EXPECT_EQ(one.centre_sums, three.centre_sums) << name_of(target);
    EXPECT_EQ(one.weights, three.weights) << name_of(target);
    EXPECT_EQ(u1, u3) << name_of(target);
  }
}

TEST(FuzzyCMeansF32, CloseToDoubleFitAndThreadInvariant) {
  std::mt19937_64 rng(21);
  std::normal_distribution<double> normal;
  const Index n = 5003, d = 7, c = 4;
  std::vector<double> x(static_cast<size_t>(n * d));
  for (Index i = 0; i < n; ++i)
    for (Index k = 0; k < d; ++k) x[i * d + k] = 5.0 * static_cast<double>(i % c) + normal(rng);
  FcmOptions o;
  o.clusters = c;
  o.init = Init::kKMeansPlusPlus;
  o.seed = 3;
  o.max_iter = 40;
  o.tol = 0;
  FcmResult ref;
  {
    ScopedCpuVariant scoped("scalar");
    ref = fuzzy_c_means({x.data(), n, d}, o);
  }
  o.precision = Precision::kFloat32;
  for (const std::string& name : cpu_variants_available()) {
    ScopedCpuVariant scoped(name);
    o.threads = 1;
    const FcmResult one = fuzzy_c_means({x.data(), n, d}, o);
    o.threads = 2;
    const FcmResult two = fuzzy_c_means({x.data(), n, d}, o);
    EXPECT_EQ(one.centres, two.centres) << name;
    EXPECT_EQ(one.memberships, two.memberships) << name;
    // The float32 tolerance of docs/clustering.md, against the double fit of the scalar reference.
    EXPECT_NEAR(one.objective, ref.objective, 1e-5 * ref.objective) << name;
    for (size_t e = 0; e < ref.centres.size(); ++e)
      EXPECT_NEAR(one.centres[e], ref.centres[e], 1e-4) << name;
    for (size_t e = 0; e < ref.memberships.size(); ++e)
      EXPECT_NEAR(one.memberships[e], ref.memberships[e], 1e-5) << name;
    for (Index i = 0; i < n; ++i) {
      double total = 0;
      for (Index j = 0; j < c; ++j) total += one.memberships[i * c + j];
      EXPECT_NEAR(total, 1.0, 1e-6) << name;
    }
  }
}

TEST(FuzzyCMeansF32, RejectsValuesTooLargeForFloatAndGustafsonKessel) {
  const std::vector<double> x = {1, 2, 1e19, 4, 5, 6};
  FcmOptions o;
  o.clusters = 2;
  o.precision = Precision::kFloat32;
  try {
    fuzzy_c_means({x.data(), 3, 2}, o);
    ADD_FAILURE() << "no exception";
  } catch (const InvalidArgument& e) {
    EXPECT_NE(std::string(e.what()).find("x[1, 0] = 1e+19 is not finite or beyond"), std::string::npos) << e.what();
  }
  const std::vector<double> nan = {1, 2, 3, NAN, 5, 6};
  EXPECT_THROW(fuzzy_c_means({nan.data(), 3, 2}, o), InvalidArgument);
  const std::vector<double> ok = {1, 2, 3, 4, 5, 6};
  GkOptions g;
  g.clusters = 2;
  g.precision = Precision::kFloat32;
  EXPECT_THROW(gustafson_kessel({ok.data(), 3, 2}, g), InvalidArgument);
}

}  // namespace
}  // namespace kessel::cluster
