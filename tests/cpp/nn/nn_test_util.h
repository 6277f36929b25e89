// Helpers for the nn tests: seeded random buffers and a central finite-difference gradient check.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <functional>
#include <random>
#include <vector>

namespace kessel::nn_test {

inline std::vector<float> random_vector(size_t n, std::uint64_t seed, float scale = 1.0f,
                                        float shift = 0.0f) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<float> u(-1.0f, 1.0f);
  std::vector<float> v(n);
  for (float& x : v) x = shift + scale * u(rng);
  return v;
}

// Checks the analytic gradient `grad` of the scalar loss(param) at every entry of `param` (or at
// `max_checks` evenly spread entries) by central differences in float with step h, accumulating the
// loss in double. Tolerance: |num - ana| <= atol + rtol * |ana|.
inline void expect_gradient(const char* what, std::vector<float>& param, const std::vector<float>& grad,
                            const std::function<double()>& loss, float h = 1e-2f, double atol = 2e-3,
                            double rtol = 2e-2, size_t max_checks = 64) {
  ASSERT_EQ(param.size(), grad.size()) << what;
  const size_t stride = std::max<size_t>(1, param.size() / max_checks);
  for (size_t i = 0; i < param.size(); i += stride) {
    const float saved = param[i];
    param[i] = saved + h;
    const double up = loss();
    param[i] = saved - h;
    const double down = loss();
    param[i] = saved;
    const double num = (up - down) / (2.0 * h);
    EXPECT_NEAR(num, grad[i], atol + rtol * std::abs(grad[i])) << what << "[" << i << "]";
  }
}

// sum_i w[i] * y[i] in double: the scalar loss whose gradient w.r.t. y is w.
inline double weighted_sum(const std::vector<float>& w, const std::vector<float>& y) {
  double s = 0.0;
  for (size_t i = 0; i < y.size(); ++i) s += double{w[i]} * y[i];
  return s;
}

inline float max_abs_diff(const std::vector<float>& a, const std::vector<float>& b) {
  float m = 0.0f;
  for (size_t i = 0; i < a.size(); ++i) m = std::max(m, std::abs(a[i] - b[i]));
  return m;
}

}  // namespace kessel::nn_test
