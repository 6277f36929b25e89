#include <gtest/gtest.h>

#include <cmath>

#include "kessel/cluster.h"

namespace kessel::cluster {
namespace {

TEST(Validity, CrispAndUniformPartitions) {
  const std::vector<double> crisp = {1, 0, 0, 1, 1, 0};
  EXPECT_DOUBLE_EQ(partition_coefficient({crisp.data(), 3, 2}), 1.0);
  EXPECT_DOUBLE_EQ(partition_entropy({crisp.data(), 3, 2}), 0.0);
  const std::vector<double> uniform(4 * 3, 1.0 / 3.0);
  EXPECT_NEAR(partition_coefficient({uniform.data(), 4, 3}), 1.0 / 3.0, 1e-15);
  EXPECT_NEAR(partition_entropy({uniform.data(), 4, 3}), std::log(3.0), 1e-15);
}

TEST(Validity, XieBeniByHand) {
  // Points 0, 1, 4, 5 on a line; centres 0.5 and 4.5; memberships (0.9, 0.1) / (0.1, 0.9).
  const std::vector<double> x = {0, 1, 4, 5};
  const std::vector<double> v = {0.5, 4.5};
  const std::vector<double> u = {0.9, 0.1, 0.9, 0.1, 0.1, 0.9, 0.1, 0.9};
  // d² to the own centre is 0.25; to the other 20.25 (x = 0, 5) or 12.25 (x = 1, 4).
  const double exact = 4 * 0.81 * 0.25 + 0.01 * (20.25 + 12.25 + 12.25 + 20.25);
  EXPECT_NEAR(xie_beni({x.data(), 4, 1}, {u.data(), 4, 2}, {v.data(), 2, 1}, 2.0),
              exact / (4 * 16.0), 1e-14);
}

TEST(Validity, XieBeniEdgeCases) {
  const std::vector<double> x = {0, 1};
  const std::vector<double> v = {0.5, 0.5};
  const std::vector<double> u = {0.5, 0.5, 0.5, 0.5};
  EXPECT_EQ(xie_beni({x.data(), 2, 1}, {u.data(), 2, 2}, {v.data(), 2, 1}, 2.0), INFINITY);
  const std::vector<double> one = {1, 1};
  EXPECT_THROW(xie_beni({x.data(), 2, 1}, {one.data(), 2, 1}, {v.data(), 1, 1}, 2.0), InvalidArgument);
  const std::vector<double> bad = {1.5, -0.5};
  EXPECT_THROW(partition_coefficient({bad.data(), 1, 2}), InvalidArgument);
}

}  // namespace
}  // namespace kessel::cluster
