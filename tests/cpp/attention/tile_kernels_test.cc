// The fused path's micro-kernels: the vector variant against the plain scalar one on odd sizes and
// strides, and the vectorized exp/log against std::exp/std::log over a wide range (ulp error).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "attention/tile_kernels.h"
#include "kessel/attention.h"
#include "kessel/cpu.h"
#include "kessel/error.h"
#include "util/simd.h"

namespace kessel::attention_detail::tile {
namespace {

std::vector<float> random_vector(size_t n, std::uint32_t seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> u(-1.0f, 1.0f);
  std::vector<float> x(n);
  for (float& e : x) e = u(rng);
  return x;
}

// |a - b| relative to the summed magnitudes of the terms (products are reassociated).
void expect_close(const std::vector<float>& got, const std::vector<float>& want, double scale) {
  ASSERT_EQ(got.size(), want.size());
  for (size_t e = 0; e < got.size(); ++e)
    ASSERT_NEAR(got[e], want[e], 1e-6 * scale) << "element " << e;
}

// Every SIMD variant this CPU runs; each test runs them all against the scalar versions.
using Variant = Kernels;
std::vector<Variant> variants() {
  std::vector<Variant> v;
  for (std::int64_t t : simd::available_targets())
    if (t != simd::kScalarReference) v.push_back(kernels_for(t));
  return v;
}
const Kernels& ref() { return scalar_kernels(); }

TEST(TileKernels, TransposeBytes8x8) {
  std::uint64_t x[8];
  for (int r = 0; r < 8; ++r) {
    x[r] = 0;
    for (int c = 0; c < 8; ++c) x[r] |= static_cast<std::uint64_t>(16 * r + c + 1) << (8 * c);  // byte (r, c)
  }
  tile::transpose_bytes_8x8(x);
  for (int r = 0; r < 8; ++r)
    for (int c = 0; c < 8; ++c) EXPECT_EQ((x[r] >> (8 * c)) & 0xFF, static_cast<std::uint64_t>(16 * c + r + 1)) << r << "," << c;
  tile::transpose_bytes_8x8(x);  // and back
  for (int r = 0; r < 8; ++r)
    for (int c = 0; c < 8; ++c) EXPECT_EQ((x[r] >> (8 * c)) & 0xFF, static_cast<std::uint64_t>(16 * r + c + 1));
}

// Each table is the variant it is asked for, the active one follows set_cpu_variant, and a variant
// this build lacks is an error rather than a fallback.
TEST(TileKernels, VariantsAreTheOnesAskedFor) {
  for (std::int64_t t : simd::available_targets()) {
    EXPECT_STREQ(kernels_for(t).variant, simd::target_name(t));
    ScopedCpuVariant forced(simd::target_name(t));
    EXPECT_STREQ(active_kernels().variant, simd::target_name(t));
    EXPECT_EQ(std::string(attention_kernel_variant()), simd::target_name(t));
  }
  EXPECT_STREQ(kernels_for(simd::kScalarReference).variant, "scalar");
  EXPECT_THROW(set_cpu_variant("avx9000"), InvalidArgument);
  EXPECT_GE(simd::available_targets().size(), 2u);  // scalar and at least one SIMD target
}

TEST(TileKernels, RowsTimesPackedMatchesScalar) {
  for (const Variant& v : variants()) {
    SCOPED_TRACE(v.variant);
    const Index shapes[][3] = {{1, 1, 1}, {7, 5, 3}, {6, 64, 64}, {13, 17, 80}, {64, 64, 64},
                               {5, 33, 1}, {64, 100, 9}, {11, 129, 16}};
    std::uint32_t seed = 1;
    for (const auto& sh : shapes) {
      const Index rows = sh[0], cols = sh[1], depth = sh[2];
      const Index ldx = depth + 3, ldy = cols + 5, ldc = cols + 2;  // strides wider than the data
      const auto x = random_vector(static_cast<size_t>(rows * ldx), seed++);
      const auto yt = random_vector(static_cast<size_t>(depth * ldy), seed++);
      std::vector<float> want(static_cast<size_t>(rows * ldc), 9.0f), got = want;
      ref().rows_times_packed(want.data(), ldc, x.data(), ldx, yt.data(), ldy, rows, cols, depth);
      v.rows_times_packed(got.data(), ldc, x.data(), ldx, yt.data(), ldy, rows, cols, depth);
      SCOPED_TRACE(testing::Message() << rows << "x" << cols << "x" << depth);
      expect_close(got, want, static_cast<double>(depth));
      // Padding between rows is left alone.
      for (Index r = 0; r < rows; ++r)
        for (Index c = cols; c < ldc; ++c) EXPECT_EQ(got[static_cast<size_t>(r * ldc + c)], 9.0f);
    }
  }
}

TEST(TileKernels, AccumulateProductMatchesScalar) {
  for (const Variant& v : variants()) {
    SCOPED_TRACE(v.variant);
    const Index shapes[][3] = {{1, 1, 1}, {7, 5, 3}, {6, 64, 64}, {13, 17, 80}, {64, 64, 64},
                               {5, 33, 1}, {64, 100, 9}, {11, 129, 70}};
    std::uint32_t seed = 50;
    for (const auto& sh : shapes)
      for (bool transposed : {false, true}) {
        const Index rows = sh[0], inner = sh[1], n = sh[2];
        // a read row-major (a_rs = inner + 1, a_cs = 1) or column-major (a_rs = 1, a_cs = rows + 3).
        const Index a_rs = transposed ? 1 : inner + 1, a_cs = transposed ? rows + 3 : 1;
        const Index a_len = transposed ? inner * a_cs : rows * a_rs;
        const auto a = random_vector(static_cast<size_t>(a_len), seed++);
        const Index ldx = n + 4, ldc = n + 1;
        const auto x = random_vector(static_cast<size_t>(inner * ldx), seed++);
        std::vector<float> want = random_vector(static_cast<size_t>(rows * ldc), seed++), got = want;
        ref().accumulate_product(want.data(), ldc, a.data(), a_rs, a_cs, x.data(), ldx, rows,
                                   inner, n);
        v.accumulate_product(got.data(), ldc, a.data(), a_rs, a_cs, x.data(), ldx, rows, inner, n);
        SCOPED_TRACE(testing::Message() << rows << "x" << inner << "x" << n << " t=" << transposed);
        expect_close(got, want, static_cast<double>(inner));
      }
  }
}

// Distance in units in the last place between two finite floats of the same sign.
double ulp_distance(float a, float b) {
  if (a == b) return 0.0;
  std::int32_t ia, ib;
  std::memcpy(&ia, &a, 4);
  std::memcpy(&ib, &b, 4);
  if ((ia < 0) != (ib < 0)) return std::numeric_limits<double>::infinity();
  return std::fabs(static_cast<double>(ia) - static_cast<double>(ib));
}

TEST(TileKernels, ExpAccuracyAndSpecialValues) {
  for (const Variant& v : variants()) {
    SCOPED_TRACE(v.variant);
    std::vector<float> x;
    for (float v = -87.0f; v <= 88.0f; v += 0.0137f) x.push_back(v);
    for (float v : {0.0f, -0.0f, 1e-30f, -1e-30f, 1.0f, -1.0f, 0.5f, 88.7f}) x.push_back(v);
    std::vector<float> y(x.size());
    v.exp_array(y.data(), x.data(), static_cast<Index>(x.size()));
    double worst = 0.0;
    for (size_t e = 0; e < x.size(); ++e) worst = std::max(worst, ulp_distance(y[e], std::exp(x[e])));
    EXPECT_LE(worst, 2.0);
    // Underflow to 0 (including -inf, the masked logit), overflow to +inf, NaN stays NaN.
    const std::vector<float> special = {-std::numeric_limits<float>::infinity(), -200.0f, -104.0f,
                                        200.0f, std::numeric_limits<float>::infinity(),
                                        std::numeric_limits<float>::quiet_NaN(), -90.0f};
    std::vector<float> ys(special.size());
    v.exp_array(ys.data(), special.data(), static_cast<Index>(special.size()));
    EXPECT_EQ(ys[0], 0.0f);
    EXPECT_EQ(ys[1], 0.0f);
    EXPECT_LE(ys[2], 1e-44f);
    EXPECT_EQ(ys[3], std::numeric_limits<float>::infinity());
    EXPECT_EQ(ys[4], std::numeric_limits<float>::infinity());
    EXPECT_TRUE(std::isnan(ys[5]));
    EXPECT_NEAR(ys[6], std::exp(-90.0f), 1e-45f);  // denormal result
  }
}

TEST(TileKernels, LogAccuracyAndSpecialValues) {
  for (const Variant& v : variants()) {
    SCOPED_TRACE(v.variant);
    std::vector<float> x;
    for (float v = 1e-38f; v < 3e38f; v *= 1.0173f) x.push_back(v);
    for (float v = 0.5f; v < 2.0f; v += 0.00037f) x.push_back(v);  // around 1, where log is small
    x.push_back(1e-42f);                                            // denormal input
    std::vector<float> y(x.size());
    v.log_array(y.data(), x.data(), static_cast<Index>(x.size()));
    double worst_ulp = 0.0, worst_abs = 0.0;
    for (size_t e = 0; e < x.size(); ++e) {
      const float want = std::log(x[e]);
      if (std::fabs(want) > 1e-3f)
        worst_ulp = std::max(worst_ulp, ulp_distance(y[e], want));
      else
        worst_abs = std::max(worst_abs, std::fabs(static_cast<double>(y[e]) - want));
    }
    EXPECT_LE(worst_ulp, 2.0);
    EXPECT_LE(worst_abs, 2e-7);  // near log = 0 the error is absolute
    const std::vector<float> special = {0.0f, -1.0f, std::numeric_limits<float>::infinity(),
                                        std::numeric_limits<float>::quiet_NaN(), 1.0f};
    std::vector<float> ys(special.size());
    v.log_array(ys.data(), special.data(), static_cast<Index>(special.size()));
    EXPECT_EQ(ys[0], -std::numeric_limits<float>::infinity());
    EXPECT_TRUE(std::isnan(ys[1]));
    EXPECT_EQ(ys[2], std::numeric_limits<float>::infinity());
    EXPECT_TRUE(std::isnan(ys[3]));
    EXPECT_EQ(ys[4], 0.0f);
  }
}

TEST(TileKernels, ExpShiftSumMatchesScalar) {
  for (const Variant& v : variants()) {
    SCOPED_TRACE(v.variant);
    for (Index cols : {1, 16, 37, 64}) {
      const Index rows = 23;
      auto st = random_vector(static_cast<size_t>(rows * cols), 7);
      for (float& e : st) e *= 20.0f;
      st[3] = -std::numeric_limits<float>::infinity();  // a hidden element
      auto shift = random_vector(static_cast<size_t>(cols), 8);
      auto sum = random_vector(static_cast<size_t>(cols), 9);
      auto st2 = st, sum2 = sum;
      ref().exp_shift_sum(st.data(), rows, cols, shift.data(), sum.data());
      v.exp_shift_sum(st2.data(), rows, cols, shift.data(), sum2.data());
      for (size_t e = 0; e < st.size(); ++e) EXPECT_LE(ulp_distance(st2[e], st[e]), 2.0);
      EXPECT_EQ(st2[3], 0.0f);
      for (size_t c = 0; c < sum.size(); ++c) EXPECT_NEAR(sum2[c], sum[c], 1e-6 * std::fabs(sum[c]) + 1e-6);
    }
  }
}

// Checked against double precision rather than the scalar float version: the vector kernels
// compute the power as 2^t with one range reduction and are more accurate than float
// exp(-a log x - shift), whose own error (1.5e-6 on these sums) is of the size of the tolerance.
TEST(TileKernels, NegPowShiftSumMatchesDouble) {
  std::vector<Variant> all = variants();
  all.push_back(ref());
  for (const Variant& v : all) {
    SCOPED_TRACE(v.variant);
    for (float a : {0.5f, 2.0f, 10.0f})
      for (Index cols : {1, 16, 37, 64}) {
        SCOPED_TRACE(a);
        const Index rows = 19;
        auto st = random_vector(static_cast<size_t>(rows * cols), 10);
        for (float& e : st) e = e * e * 30.0f + 1e-6f;  // d2 + eps > 0
        st[5] = std::numeric_limits<float>::infinity();  // a hidden key
        // The column's largest logit -a ln(min x), give or take 1, as the fused path passes it.
        // The sums are dominated by the weight of the column's nearest key, col_min.
        auto shift = random_vector(static_cast<size_t>(cols), 11);
        std::vector<float> col_min(static_cast<size_t>(cols), std::numeric_limits<float>::infinity());
        for (Index c = 0; c < cols; ++c) {
          float& lo = col_min[static_cast<size_t>(c)];
          for (Index r = 0; r < rows; ++r) lo = std::min(lo, st[static_cast<size_t>(r * cols + c)]);
          shift[static_cast<size_t>(c)] -= a * std::log(lo);
        }
        std::vector<double> want(st.size()), want_sum(static_cast<size_t>(cols), 0.0);
        for (Index r = 0; r < rows; ++r)
          for (Index c = 0; c < cols; ++c) {
            const size_t e = static_cast<size_t>(r * cols + c);
            want[e] = std::exp(-double{a} * std::log(double{st[e]}) - shift[static_cast<size_t>(c)]);
            want_sum[static_cast<size_t>(c)] += want[e];
          }
        std::vector<float> sum(static_cast<size_t>(cols), 0.0f);
        const std::vector<float> x = st;
        v.neg_pow_shift_sum(st.data(), rows, cols, a, shift.data(), sum.data());
        // Float rounding leaves an absolute error of a few ulp in the exponent: in ln x scaled by a
        // (exp(-a ln x) turns it into a relative one) and in t = -a ln x - shift itself. The tolerance
        // is that bound, relative to the weight. Below the normal range (a = 10 reaches 1e-70) the float
        // result is 0 or a denormal.
        const auto tol = [&](double w, double x) {
          if (w == 0.0) return 0.0;  // the hidden key
          const double ulps = 1.2e-7 * (std::fabs(std::log(w)) + a * std::fabs(std::log(x)));
          return (1e-6 + ulps) * w + std::numeric_limits<float>::min();
        };
        for (size_t e = 0; e < st.size(); ++e)
          EXPECT_NEAR(st[e], want[e], tol(want[e], x[e])) << "element " << e;
        EXPECT_EQ(st[5], 0.0f);
        for (size_t c = 0; c < sum.size(); ++c)
          EXPECT_NEAR(sum[c], want_sum[c], tol(want_sum[c], col_min[c]));
      }
  }
}

TEST(TileKernels, NegPowShiftSumSpecialValues) {
  for (const Variant& v : variants()) {
    SCOPED_TRACE(v.variant);
    // 0 (a key on the query, eps = 0) weighs +inf, +inf (hidden) 0, NaN stays NaN, x < 0 is NaN.
    std::vector<float> st = {0.0f, std::numeric_limits<float>::infinity(), std::numeric_limits<float>::quiet_NaN(),
                             -1.0f, 1e-38f, 3e38f, 1.0f};
    const Index cols = static_cast<Index>(st.size());
    std::vector<float> shift(st.size(), 0.0f), sum(st.size(), 0.0f);
    v.neg_pow_shift_sum(st.data(), 1, cols, 1.5f, shift.data(), sum.data());
    EXPECT_EQ(st[0], std::numeric_limits<float>::infinity());
    EXPECT_EQ(st[1], 0.0f);
    EXPECT_TRUE(std::isnan(st[2]));
    EXPECT_TRUE(std::isnan(st[3]));
    EXPECT_EQ(st[4], std::numeric_limits<float>::infinity());  // (1e-38)^-1.5 overflows
    EXPECT_EQ(st[5], 0.0f);                                     // (3e38)^-1.5 underflows
    EXPECT_EQ(st[6], 1.0f);
  }
}

TEST(TileKernels, SoftmaxBackwardMatchesScalar) {
  for (const Variant& v : variants()) {
    SCOPED_TRACE(v.variant);
    for (Index cols : {1, 16, 37, 64}) {
      const Index rows = 13;
      auto st = random_vector(static_cast<size_t>(rows * cols), 12);
      auto dp = random_vector(static_cast<size_t>(rows * cols), 13);
      auto add = random_vector(static_cast<size_t>(rows), 14);
      auto lse = random_vector(static_cast<size_t>(cols), 15);
      auto drow = random_vector(static_cast<size_t>(cols), 16);
      lse[0] = std::numeric_limits<float>::infinity();  // a row without weights (crisp / masked)
      std::vector<float> rowsum(static_cast<size_t>(rows), 0.5f);
      auto st2 = st, dp2 = dp, rowsum2 = rowsum;
      ref().softmax_backward(st.data(), dp.data(), rows, cols, 0.7f, add.data(), lse.data(),
                               drow.data(), rowsum.data());
      v.softmax_backward(st2.data(), dp2.data(), rows, cols, 0.7f, add.data(), lse.data(), drow.data(),
                       rowsum2.data());
      for (size_t e = 0; e < st.size(); ++e) {
        EXPECT_NEAR(st2[e], st[e], 4e-7 * std::fabs(st[e]));
        EXPECT_NEAR(dp2[e], dp[e], 1e-6 * std::fabs(dp[e]) + 1e-7);
      }
      EXPECT_EQ(st2[0], 0.0f);
      for (size_t r = 0; r < rowsum.size(); ++r) EXPECT_NEAR(rowsum2[r], rowsum[r], 1e-5);
    }
  }
}

}  // namespace
}  // namespace kessel::attention_detail::tile
