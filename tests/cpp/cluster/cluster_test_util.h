// Shared fixtures for the cluster tests: Iris from tests/data, seeded synthetic blobs.
#pragma once

#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "kessel/cluster.h"

namespace kessel::cluster::testing {

inline CsvMatrix load_iris() {
  return read_csv_matrix(std::string(KESSEL_SOURCE_DIR) + "/tests/data/iris.csv",
                         {"sepal_length", "sepal_width", "petal_length", "petal_width"});
}

// n points per cluster around `centres` [C, 2], each an ellipse with axes (major, minor) rotated
// by angles_deg[j]. Returns X [C*n, 2].
inline std::vector<double> elongated_blobs(const std::vector<double>& centres,
                                           const std::vector<double>& angles_deg, Index n,
                                           double major, double minor, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::normal_distribution<double> normal(0.0, 1.0);
  std::vector<double> x;
  for (size_t j = 0; j < angles_deg.size(); ++j) {
    const double a = angles_deg[j] * M_PI / 180.0;
    for (Index i = 0; i < n; ++i) {
      const double s = major * normal(rng), t = minor * normal(rng);
      x.push_back(centres[2 * j] + std::cos(a) * s - std::sin(a) * t);
      x.push_back(centres[2 * j + 1] + std::sin(a) * s + std::cos(a) * t);
    }
  }
  return x;
}

// Angle in degrees of the principal axis of a symmetric 2x2 matrix, folded into [0, 180).
inline double principal_angle_deg(const double* f) {
  const double angle = 0.5 * std::atan2(2.0 * f[1], f[0] - f[3]) * 180.0 / M_PI;
  return angle < 0 ? angle + 180.0 : angle;
}

inline double angle_gap_deg(double a, double b) {
  const double g = std::fmod(std::abs(a - b), 180.0);
  return std::min(g, 180.0 - g);
}

}  // namespace kessel::cluster::testing
