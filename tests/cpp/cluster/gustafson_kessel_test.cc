#include <gtest/gtest.h>

#include <cmath>

#include "cluster/cluster_test_util.h"
#include "kessel/cluster.h"

namespace kessel::cluster {
namespace {

using testing::angle_gap_deg;
using testing::elongated_blobs;
using testing::principal_angle_deg;

bool all_finite(const std::vector<double>& v) {
  for (double value : v)
    if (!std::isfinite(value)) return false;
  return true;
}

TEST(GustafsonKessel, RecoversOrientationOfElongatedClusters) {
  const std::vector<double> true_centres = {0, 0, 12, 4};
  const std::vector<double> true_angles = {30, 125};
  const auto x = elongated_blobs(true_centres, true_angles, 400, 3.0, 0.3, 42);
  GkOptions o;
  o.clusters = 2;
  o.seed = 1;
  o.init = Init::kKMeansPlusPlus;
  o.tol = 1e-8;
  const GkResult r = gustafson_kessel({x.data(), 800, 2}, o);
  EXPECT_TRUE(r.converged);
  for (int j = 0; j < 2; ++j) {
    // Match each found cluster to the nearer true centre.
    const double* v = &r.centres[2 * j];
    const int t = std::hypot(v[0] - 0, v[1] - 0) < std::hypot(v[0] - 12, v[1] - 4) ? 0 : 1;
    EXPECT_NEAR(v[0], true_centres[2 * t], 0.3);
    EXPECT_NEAR(v[1], true_centres[2 * t + 1], 0.3);
    const double angle = principal_angle_deg(&r.covariances[4 * j]);
    EXPECT_LT(angle_gap_deg(angle, true_angles[t]), 3.0) << "cluster " << j << " angle " << angle;
    // det A_j = ρ_j = 1: the norm fixes each cluster's volume.
    const double* a = &r.norm_matrices[4 * j];
    EXPECT_NEAR(a[0] * a[3] - a[1] * a[2], 1.0, 1e-9);
  }
}

TEST(GustafsonKessel, CollinearClusterStaysFinite) {
  // Cluster 1: points exactly on the line y = 2x; cluster 2: a round blob. Without the safeguards the
  // first covariance is singular and A = (det F)^(1/2) F⁻¹ is 0·∞.
  std::vector<double> x;
  for (int i = 0; i < 60; ++i) {
    const double t = -1.0 + 2.0 * i / 59.0;
    x.push_back(t);
    x.push_back(2.0 * t);
  }
  const auto blob = elongated_blobs({20, 20}, {0}, 60, 1.0, 1.0, 9);
  x.insert(x.end(), blob.begin(), blob.end());
  for (double gamma : {0.0, 0.01}) {
    GkOptions o;
    o.clusters = 2;
    o.gamma = gamma;
    o.init = Init::kGivenCentres;
    o.init_centres = {0, 0, 20, 20};
    const GkResult r = gustafson_kessel({x.data(), 120, 2}, o);
    EXPECT_TRUE(all_finite(r.centres) && all_finite(r.memberships) && all_finite(r.covariances) &&
                all_finite(r.norm_matrices) && all_finite(r.objective_history))
        << "gamma " << gamma;
    EXPECT_TRUE(std::isfinite(r.objective));
    const int line = r.centres[0] < 10 ? 0 : 1;
    EXPECT_LT(angle_gap_deg(principal_angle_deg(&r.covariances[4 * line]),
                            std::atan(2.0) * 180.0 / M_PI),
              1.0);  // the far blob's small memberships tilt it slightly
  }
  // All data on one line: F_0 is singular too, only the condition cap keeps the norms finite.
  std::vector<double> line;
  for (int i = 0; i < 50; ++i) {
    line.push_back(i % 25);
    line.push_back(-0.5 * (i % 25));
  }
  GkOptions o;
  o.clusters = 2;
  o.seed = 4;
  const GkResult r = gustafson_kessel({line.data(), 50, 2}, o);
  EXPECT_TRUE(all_finite(r.memberships) && all_finite(r.norm_matrices) && all_finite(r.covariances));
}

TEST(GustafsonKessel, ConditionNumberIsCappedAtBeta) {
  const auto x = elongated_blobs({0, 0, 30, 0}, {10, 80}, 200, 5.0, 1e-9, 3);
  GkOptions o;
  o.clusters = 2;
  o.gamma = 0.0;
  o.beta = 1e4;
  o.init = Init::kGivenCentres;
  o.init_centres = {0, 0, 30, 0};
  const GkResult r = gustafson_kessel({x.data(), 400, 2}, o);
  for (int j = 0; j < 2; ++j) {
    const double* f = &r.covariances[4 * j];
    const double tr = f[0] + f[3], det = f[0] * f[3] - f[1] * f[2];
    const double disc = std::sqrt(tr * tr / 4 - det);
    const double hi = tr / 2 + disc, lo = tr / 2 - disc;
    EXPECT_NEAR(hi / lo, 1e4, 1e4 * 1e-5) << "cluster " << j;
  }
}

TEST(GustafsonKessel, PredictReproducesTrainingMemberships) {
  const auto x = elongated_blobs({0, 0, 8, 8, -6, 7}, {0, 45, 90}, 100, 2.0, 0.5, 17);
  GkOptions o;
  o.clusters = 3;
  o.seed = 2;
  o.n_init = 2;
  const GkResult r = gustafson_kessel({x.data(), 300, 2}, o);
  const auto u = gk_predict({x.data(), 300, 2}, {r.centres.data(), 3, 2}, r.norm_matrices, 2.0);
  for (size_t e = 0; e < u.size(); ++e) EXPECT_NEAR(u[e], r.memberships[e], 1e-12);
}

TEST(GustafsonKessel, DeterministicAcrossThreads) {
  const auto x = elongated_blobs({0, 0, 8, 8, -6, 7}, {0, 45, 90}, 1000, 2.0, 0.5, 5);
  GkOptions o;
  o.clusters = 3;
  o.max_iter = 15;
  o.threads = 1;
  const GkResult one = gustafson_kessel({x.data(), 3000, 2}, o);
  o.threads = 2;
  const GkResult two = gustafson_kessel({x.data(), 3000, 2}, o);
  EXPECT_EQ(one.memberships, two.memberships);
  EXPECT_EQ(one.covariances, two.covariances);
}

TEST(GustafsonKessel, BadOptionsThrowWithMessages) {
  const std::vector<double> x = {0, 0, 1, 0, 0, 1, 1, 1};
  GkOptions o;
  o.clusters = 2;
  o.gamma = 1.5;
  try {
    gustafson_kessel({x.data(), 4, 2}, o);
    ADD_FAILURE() << "no exception";
  } catch (const InvalidArgument& e) {
    EXPECT_NE(std::string(e.what()).find("gamma must be in [0, 1], got 1.5"), std::string::npos);
  }
  o.gamma = 0.01;
  o.beta = 0.5;
  EXPECT_THROW(gustafson_kessel({x.data(), 4, 2}, o), InvalidArgument);
  o.beta = 1e15;
  o.volumes = {1.0};
  EXPECT_THROW(gustafson_kessel({x.data(), 4, 2}, o), InvalidArgument);
  o.volumes = {1.0, -2.0};
  EXPECT_THROW(gustafson_kessel({x.data(), 4, 2}, o), InvalidArgument);
  const std::vector<double> a = {1, 0, 0, 1};
  EXPECT_THROW(gk_predict({x.data(), 4, 2}, {x.data(), 2, 2}, a, 2.0), InvalidArgument);
}

}  // namespace
}  // namespace kessel::cluster
