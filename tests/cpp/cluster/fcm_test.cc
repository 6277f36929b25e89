#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "cluster/cluster_test_util.h"
#include "kessel/cluster.h"

namespace kessel::cluster {
namespace {

using testing::load_iris;

// Sorts centres [C, D] by their first coordinate so runs can be compared regardless of label order.
std::vector<std::vector<double>> sorted_centres(const std::vector<double>& v, Index c, Index d) {
  std::vector<std::vector<double>> rows;
  for (Index j = 0; j < c; ++j) rows.emplace_back(v.begin() + j * d, v.begin() + (j + 1) * d);
  std::sort(rows.begin(), rows.end());
  return rows;
}

TEST(FuzzyCMeans, IrisMatchesPublishedAndNumpyCentres) {
  const CsvMatrix iris = load_iris();
  ASSERT_EQ(iris.rows, 150);
  ASSERT_EQ(iris.cols, 4);
  FcmOptions o;
  o.clusters = 3;
  o.m = 2.0;
  o.tol = 1e-9;
  o.max_iter = 1000;
  o.init = Init::kGivenCentres;
  for (Index row : {0, 50, 100}) {  // first flower of each species
    for (Index k = 0; k < 4; ++k) o.init_centres.push_back(iris.values[row * 4 + k]);
  }
  const FcmResult r = fuzzy_c_means(iris.view(), o);
  EXPECT_TRUE(r.converged);
  const double published[3][4] = {
      {5.00, 3.40, 1.48, 0.25}, {5.89, 2.76, 4.36, 1.40}, {6.77, 3.05, 5.65, 2.05}};
  // tests/python/fcm_numpy.py, same initial centres, tol 1e-9: 42 iterations, J = 60.50571062948856.
  const double numpy[3][4] = {{5.0039659606, 3.4140888587, 1.4828155327, 0.2535463175},
                              {5.8889323615, 2.7610693635, 4.3639516444, 1.3973150414},
                              {6.7750112248, 3.0523822713, 5.6467817832, 2.0535466590}};
  for (int j = 0; j < 3; ++j) {
    for (int k = 0; k < 4; ++k) {
      EXPECT_NEAR(r.centres[j * 4 + k], published[j][k], 2e-2) << "centre " << j << " dim " << k;
      EXPECT_NEAR(r.centres[j * 4 + k], numpy[j][k], 1e-7) << "centre " << j << " dim " << k;
    }
  }
  EXPECT_EQ(r.iterations, 42);
  EXPECT_NEAR(r.objective, 60.50571062948856, 1e-9);
}

TEST(FuzzyCMeans, ObjectiveNeverIncreasesAndRowsSumToOne) {
  const CsvMatrix iris = load_iris();
  for (Init init : {Init::kRandomMemberships, Init::kKMeansPlusPlus}) {
    for (double m : {1.5, 2.0, 3.0}) {
      FcmOptions o;
      o.clusters = 4;
      o.m = m;
      o.tol = 0;
      o.max_iter = 60;
      o.seed = 7;
      o.init = init;
      const FcmResult r = fuzzy_c_means(iris.view(), o);
      ASSERT_EQ(r.objective_history.size(), 60u);
      EXPECT_FALSE(r.converged);
      for (size_t t = 1; t < r.objective_history.size(); ++t) {
        EXPECT_LE(r.objective_history[t], r.objective_history[t - 1] * (1 + 1e-12)) << "m=" << m;
      }
      EXPECT_EQ(r.objective, r.objective_history.back());
      for (Index i = 0; i < r.points; ++i) {
        double s = 0;
        for (Index j = 0; j < 4; ++j) {
          const double u = r.memberships[i * 4 + j];
          EXPECT_TRUE(u >= 0 && u <= 1);
          s += u;
        }
        EXPECT_NEAR(s, 1.0, 1e-12);
      }
    }
  }
}

TEST(FuzzyCMeans, PointsOnCentresGetCrispMemberships) {
  // Three isolated points with c = 3: each ends up as a centre and its own crisp cluster.
  const std::vector<double> x = {0, 0, 10, 0, 0, 10, 0.1, 0.1};
  FcmOptions o;
  o.clusters = 3;
  o.init = Init::kGivenCentres;
  o.init_centres = {0, 0, 10, 0, 0, 10};
  o.max_iter = 1;
  const FcmResult r = fuzzy_c_means({x.data(), 4, 2}, o);
  // After one iteration the centres move; predicting at the centres must be crisp.
  const auto u = fcm_predict({r.centres.data(), 3, 2}, {r.centres.data(), 3, 2}, 2.0);
  for (Index i = 0; i < 3; ++i)
    for (Index j = 0; j < 3; ++j) EXPECT_EQ(u[i * 3 + j], i == j ? 1.0 : 0.0);
  // Two coincident centres share a point on them equally.
  const std::vector<double> twin = {1, 2, 1, 2, 5, 5};
  const std::vector<double> p = {1, 2};
  const auto shared = fcm_predict({p.data(), 1, 2}, {twin.data(), 3, 2}, 2.0);
  EXPECT_EQ(shared[0], 0.5);
  EXPECT_EQ(shared[1], 0.5);
  EXPECT_EQ(shared[2], 0.0);
}

TEST(FuzzyCMeans, RestartsKeepTheLowestObjective) {
  const CsvMatrix iris = load_iris();
  FcmOptions o;
  o.clusters = 6;
  o.tol = 1e-7;
  o.seed = 3;
  std::vector<double> singles;
  for (int r = 0; r < 5; ++r) {
    FcmOptions one = o;
    one.seed = o.seed + r;
    singles.push_back(fuzzy_c_means(iris.view(), one).objective);
  }
  o.n_init = 5;
  const FcmResult best = fuzzy_c_means(iris.view(), o);
  const auto lowest = std::min_element(singles.begin(), singles.end());
  EXPECT_EQ(best.objective, *lowest);
  EXPECT_EQ(best.best_restart, lowest - singles.begin());
}

TEST(FuzzyCMeans, DeterministicForSeedAndThreadCount) {
  std::mt19937_64 rng(5);
  std::normal_distribution<double> normal;
  std::vector<double> x(3001 * 5);  // several chunks, odd tail
  for (double& v : x) v = normal(rng);
  FcmOptions o;
  o.clusters = 5;
  o.seed = 11;
  o.max_iter = 20;
  o.tol = 0;
  o.threads = 1;
  const FcmResult one = fuzzy_c_means({x.data(), 3001, 5}, o);
  o.threads = 2;
  const FcmResult two = fuzzy_c_means({x.data(), 3001, 5}, o);
  o.threads = 3;
  const FcmResult three = fuzzy_c_means({x.data(), 3001, 5}, o);
  EXPECT_EQ(one.centres, two.centres);
  EXPECT_EQ(one.memberships, three.memberships);
  EXPECT_EQ(one.objective_history, two.objective_history);
  o.seed = 12;
  EXPECT_NE(fuzzy_c_means({x.data(), 3001, 5}, o).centres, one.centres);
}

TEST(FuzzyCMeans, PredictReproducesTrainingMemberships) {
  const CsvMatrix iris = load_iris();
  FcmOptions o;
  o.clusters = 3;
  o.init = Init::kKMeansPlusPlus;
  const FcmResult r = fuzzy_c_means(iris.view(), o);
  const auto u = fcm_predict(iris.view(), {r.centres.data(), 3, 4}, 2.0);
  // Same distance and membership kernels, same blocks: the same doubles.
  for (size_t e = 0; e < u.size(); ++e) EXPECT_EQ(u[e], r.memberships[e]);
  const auto sorted = sorted_centres(r.centres, 3, 4);
  EXPECT_NEAR(sorted[0][2], 1.48, 2e-2);  // setosa petal length
}

TEST(FuzzyCMeans, BadInputsThrowWithMessages) {
  const std::vector<double> x = {1, 2, 3, 4, 5, 6};
  const MatrixView view{x.data(), 3, 2};
  auto message_of = [&](FcmOptions o) -> std::string {
    try {
      fuzzy_c_means(view, o);
    } catch (const InvalidArgument& e) {
      return e.what();
    }
    return "no exception";
  };
  FcmOptions o;
  o.clusters = 4;
  EXPECT_NE(message_of(o).find("clusters = 4 exceeds the 3 points"), std::string::npos);
  o.clusters = 0;
  EXPECT_NE(message_of(o).find("clusters must be >= 1, got 0"), std::string::npos);
  o.clusters = 2;
  o.m = 1.0;
  EXPECT_NE(message_of(o).find("fuzzifier m must be finite and > 1, got 1"), std::string::npos);
  o.m = 2.0;
  o.max_iter = 0;
  EXPECT_NE(message_of(o).find("max_iter"), std::string::npos);
  o.max_iter = 10;
  o.init = Init::kGivenCentres;
  o.init_centres = {1, 2, 3};
  EXPECT_NE(message_of(o).find("init centres have 3 values, expected"), std::string::npos);
  o.init_centres = {1, 2, 3, 4};
  o.n_init = 2;
  EXPECT_NE(message_of(o).find("n_init = 2"), std::string::npos);
  const std::vector<double> bad = {1, NAN, 3, 4};
  EXPECT_THROW(fuzzy_c_means({bad.data(), 2, 2}, FcmOptions{}), InvalidArgument);
  const std::vector<double> c3 = {1, 2, 3};
  EXPECT_THROW(fcm_predict(view, {c3.data(), 1, 3}, 2.0), InvalidArgument);
}

}  // namespace
}  // namespace kessel::cluster
