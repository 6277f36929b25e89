// The single-precision FCM sweep against the double one (its reference) on odd sizes, its thread
// determinism, and Precision::kFloat32 fits against kDouble fits.
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "cluster/fuzzy_iteration.h"
#include "kessel/cluster.h"

namespace kessel::cluster {
namespace {

std::vector<double> random_values(Index count, std::uint64_t seed, double offset = 0.0) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> uniform(-3.0, 3.0);
  std::vector<double> v(static_cast<size_t>(count));
  for (double& value : v) value = offset + uniform(rng);
  return v;
}

TEST(EuclideanSweepF32, MatchesDoubleSweepOnOddSizes) {
  // 1100 points: several blocks and a ragged last one; c = 3, 5 and d = 5, 17 are not lane multiples.
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
        const SweepResult single = euclidean_sweep_f32(xf.data(), n, d, v.data(), c, m,
                                                       u_single.data(), 1);
        const SweepResult ref = euclidean_sweep(xv, v.data(), c, m, u_double.data(), 1);
        const auto where = [&] { return ::testing::Message() << "m=" << m << " n=" << n << " c=" << c; };
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
        EXPECT_EQ(u_single[0], 1.0) << "the point on centre 0 belongs to it crisply";
      }
    }
  }
}

TEST(EuclideanSweepF32, BitIdenticalForAnyThreadCount) {
  const Index n = 70'001, d = 16, c = 8;  // more than one chunk, ragged tail
  const auto x = random_values(n * d, 17);
  const auto v = random_values(c * d, 18);
  const std::vector<float> xf = pack_float_blocks("test", {x.data(), n, d});
  std::vector<double> u1(n * c), u3(n * c);
  const SweepResult one = euclidean_sweep_f32(xf.data(), n, d, v.data(), c, 2.0, u1.data(), 1);
  const SweepResult two = euclidean_sweep_f32(xf.data(), n, d, v.data(), c, 2.0, nullptr, 2);
  const SweepResult three = euclidean_sweep_f32(xf.data(), n, d, v.data(), c, 2.0, u3.data(), 3);
  EXPECT_EQ(one.objective, two.objective);
  EXPECT_EQ(one.objective, three.objective);
  EXPECT_EQ(one.centre_sums, two.centre_sums);
  EXPECT_EQ(one.centre_sums, three.centre_sums);
  EXPECT_EQ(one.weights, three.weights);
  EXPECT_EQ(u1, u3);
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
  const FcmResult ref = fuzzy_c_means({x.data(), n, d}, o);
  o.precision = Precision::kFloat32;
  o.threads = 1;
  const FcmResult one = fuzzy_c_means({x.data(), n, d}, o);
  o.threads = 2;
  const FcmResult two = fuzzy_c_means({x.data(), n, d}, o);
  EXPECT_EQ(one.centres, two.centres);
  EXPECT_EQ(one.memberships, two.memberships);
  EXPECT_NEAR(one.objective, ref.objective, 1e-5 * ref.objective);
  for (size_t e = 0; e < ref.centres.size(); ++e) EXPECT_NEAR(one.centres[e], ref.centres[e], 1e-4);
  for (size_t e = 0; e < ref.memberships.size(); ++e)
    EXPECT_NEAR(one.memberships[e], ref.memberships[e], 1e-5);
  for (Index i = 0; i < n; ++i) {
    double total = 0;
    for (Index j = 0; j < c; ++j) total += one.memberships[i * c + j];
    EXPECT_NEAR(total, 1.0, 1e-6);
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
