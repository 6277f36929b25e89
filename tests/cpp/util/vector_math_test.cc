#include "util/vector_math.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <vector>

namespace kessel {
namespace {

// count + 1 evenly spaced points from lo to hi.
std::vector<float> sweep(float lo, float hi, int count) {
  std::vector<float> xs;
  for (int i = 0; i <= count; ++i) xs.push_back(lo + (hi - lo) * static_cast<float>(i) / static_cast<float>(count));
  return xs;
}

double relative_error(double got, double want) { return std::fabs(got - want) / std::fabs(want); }

TEST(VectorMath, ExpWithinOneEpsilonOnTheNormalRange) {
  double worst = 0.0;
  for (float x : sweep(-87.0f, 88.0f, 400000)) worst = std::max(worst, relative_error(exp_approx(x), std::exp(double{x})));
  for (float x : sweep(-1e-3f, 1e-3f, 10000)) worst = std::max(worst, relative_error(exp_approx(x), std::exp(double{x})));
  EXPECT_LT(worst, 1.0 * std::numeric_limits<float>::epsilon()) << "worst relative error " << worst;
  EXPECT_EQ(exp_approx(0.0f), 1.0f);
}

TEST(VectorMath, ExpClampsOutsideTheNormalRange) {
  constexpr float kInf = std::numeric_limits<float>::infinity();
  EXPECT_NEAR(exp_approx(-kInf) / std::exp(-87.0), 1.0, 1e-6);
  EXPECT_NEAR(exp_approx(kInf) / std::exp(88.0), 1.0, 1e-6);
  EXPECT_TRUE(std::isfinite(exp_approx(1000.0f)));
}

TEST(VectorMath, SigmoidAndTanhMatchDoublePrecision) {
  std::vector<float> xs = sweep(-30.0f, 30.0f, 300000);
  for (float x : sweep(-1e-4f, 1e-4f, 2000)) xs.push_back(x);
  for (float x : {0.55f, -0.55f, std::nextafter(0.55f, 0.0f), 1e-30f, -1e-30f, 0.0f}) xs.push_back(x);
  std::vector<float> sig = xs, th = xs;
  sigmoid_inplace(sig.data(), sig.size());
  tanh_inplace(th.data(), th.size());
  double worst_sig = 0.0, worst_tanh = 0.0;
  for (std::size_t i = 0; i < xs.size(); ++i) {
    const double x = xs[i];
    worst_sig = std::max(worst_sig, relative_error(sig[i], 1.0 / (1.0 + std::exp(-x))));
    if (x != 0.0) worst_tanh = std::max(worst_tanh, relative_error(th[i], std::tanh(x)));
    else EXPECT_EQ(th[i], 0.0f);
  }
  EXPECT_LT(worst_sig, 2.5e-7) << "sigmoid";
  EXPECT_LT(worst_tanh, 2.5e-7) << "tanh";
}

TEST(VectorMath, LimitsAtInfinity) {
  constexpr float kInf = std::numeric_limits<float>::infinity();
  float v[4] = {kInf, -kInf, 100.0f, -100.0f};
  sigmoid_inplace(v, 4);
  EXPECT_EQ(v[0], 1.0f);
  EXPECT_LT(v[1], 1e-37f);
  EXPECT_GE(v[1], 0.0f);
  EXPECT_EQ(v[2], 1.0f);
  EXPECT_LT(v[3], 1e-37f);
  float t[4] = {kInf, -kInf, 20.0f, -20.0f};
  tanh_inplace(t, 4);
  EXPECT_EQ(t[0], 1.0f);
  EXPECT_EQ(t[1], -1.0f);
  EXPECT_EQ(t[2], 1.0f);
  EXPECT_EQ(t[3], -1.0f);
}

TEST(VectorMath, NanPropagates) {
  // As from libm: a NaN activation must reach the loss, where training reports divergence.
  constexpr float kNan = std::numeric_limits<float>::quiet_NaN();
  EXPECT_TRUE(std::isnan(exp_approx(kNan)));
  float v[2] = {kNan, -kNan};
  sigmoid_inplace(v, 2);
  EXPECT_TRUE(std::isnan(v[0]) && std::isnan(v[1]));
  float t[2] = {kNan, -kNan};
  tanh_inplace(t, 2);
  EXPECT_TRUE(std::isnan(t[0]) && std::isnan(t[1]));
}

}  // namespace
}  // namespace kessel
