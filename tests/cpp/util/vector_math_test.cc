// The vector math kernels (util/vector_math_kernels.h): the scalar functions against double
// precision, and every variant this machine runs against double precision and against the scalar
// reference, over odd lengths and guard values. The bits: variants that fuse multiply-adds agree
// with each other exactly, so do those that do not, and the two classes agree within the tolerance
// docs/eaca.md states.
#include "util/vector_math.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "hwy/highway.h"
#include "kessel/cpu.h"
#include "kessel/error.h"
#include "util/simd.h"
#include "util/splitmix.h"
#include "util/vector_math_kernels.h"

namespace kessel {
namespace {

constexpr float kInf = std::numeric_limits<float>::infinity();
constexpr float kNan = std::numeric_limits<float>::quiet_NaN();
constexpr double kEps = std::numeric_limits<float>::epsilon();

// count + 1 evenly spaced points from lo to hi.
std::vector<float> sweep(float lo, float hi, int count) {
  std::vector<float> xs;
  for (int i = 0; i <= count; ++i)
    xs.push_back(lo + (hi - lo) * static_cast<float>(i) / static_cast<float>(count));
  return xs;
}

double relative_error(double got, double want) { return std::fabs(got - want) / std::fabs(want); }

std::vector<float> uniform(std::size_t n, float lo, float hi, std::uint64_t seed) {
  std::vector<float> v(n);
  for (float& x : v)
    x = lo +
        (hi - lo) * static_cast<float>(static_cast<double>(splitmix64(seed) >> 11) * 0x1.0p-53);
  return v;
}

// Every variant this machine runs, the scalar reference last.
std::vector<const VectorMathKernels*> variants() {
  std::vector<const VectorMathKernels*> out;
  for (std::int64_t t : simd::available_targets()) out.push_back(&vector_math_kernels(t));
  return out;
}

// Whether a variant fuses a * b + c into one rounding: (1 + 2^-12)^2 - 1 is 2^-11 + 2^-24 exactly,
// and the product rounded first loses the 2^-24.
bool fuses(const VectorMathKernels& k) {
  const float a = 1.0f + 0x1.0p-12f;
  float y = -1.0f;
  k.axpy(&y, a, &a, 1);
  return y != 0x1.0p-11f;
}

bool same_bits(const std::vector<float>& a, const std::vector<float>& b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i)
    if (std::memcmp(&a[i], &b[i], sizeof(float)) != 0) return false;
  return true;
}

// The lengths the kernels are run over: below, at and around every vector width.
const std::vector<std::size_t> kLengths = {1,  2,  3,  4,  5,  7,  8,  9,   15, 16,
                                           17, 31, 32, 33, 63, 64, 65, 127, 129};

TEST(VectorMath, ExpWithinOneEpsilonOnTheNormalRange) {
  double worst = 0.0;
  for (float x : sweep(-87.0f, 88.0f, 400000))
    worst = std::max(worst, relative_error(exp_approx(x), std::exp(double{x})));
  for (float x : sweep(-1e-3f, 1e-3f, 10000))
    worst = std::max(worst, relative_error(exp_approx(x), std::exp(double{x})));
  EXPECT_LT(worst, 1.0 * kEps) << "worst relative error " << worst;
  EXPECT_EQ(exp_approx(0.0f), 1.0f);
}

TEST(VectorMath, ExpClampsOutsideTheNormalRange) {
  EXPECT_NEAR(exp_approx(-kInf) / std::exp(-87.0), 1.0, 1e-6);
  EXPECT_NEAR(exp_approx(kInf) / std::exp(88.0), 1.0, 1e-6);
  EXPECT_TRUE(std::isfinite(exp_approx(1000.0f)));
  EXPECT_TRUE(std::isnan(exp_approx(kNan)));
}

TEST(VectorMath, EveryVariantIsListedAndNamed) {
  const auto all = variants();
  ASSERT_GE(all.size(), 2u) << "at least one Highway target and the scalar reference";
  EXPECT_EQ(std::string(all.back()->variant), "scalar");
  const auto names = cpu_variants_available();
  ASSERT_EQ(names.size(), all.size());
  for (std::size_t i = 0; i < all.size(); ++i) EXPECT_EQ(names[i], all[i]->variant);
}

TEST(VectorMath, SigmoidAndTanhMatchDoublePrecisionInEveryVariant) {
  std::vector<float> xs = sweep(-30.0f, 30.0f, 300001);  // an odd count: a tail in every variant
  for (float x : sweep(-1e-4f, 1e-4f, 2000)) xs.push_back(x);
  for (float x : {0.55f, -0.55f, std::nextafter(0.55f, 0.0f), 1e-30f, -1e-30f, 0.0f})
    xs.push_back(x);
  for (const VectorMathKernels* k : variants()) {
    std::vector<float> sig = xs, th = xs;
    k->sigmoid_inplace(sig.data(), sig.size());
    k->tanh_inplace(th.data(), th.size());
    double worst_sig = 0.0, worst_tanh = 0.0;
    for (std::size_t i = 0; i < xs.size(); ++i) {
      const double x = xs[i];
      worst_sig = std::max(worst_sig, relative_error(sig[i], 1.0 / (1.0 + std::exp(-x))));
      if (x != 0.0)
        worst_tanh = std::max(worst_tanh, relative_error(th[i], std::tanh(x)));
      else
        EXPECT_EQ(th[i], 0.0f) << k->variant;
    }
    EXPECT_LT(worst_sig, 2.5e-7) << k->variant << " sigmoid";
    EXPECT_LT(worst_tanh, 2.5e-7) << k->variant << " tanh";
  }
}

TEST(VectorMath, LimitsAtInfinityAndNanInEveryVariant) {
  for (const VectorMathKernels* k : variants()) {
    SCOPED_TRACE(k->variant);
    // Seven values: a full vector on SSE4 and a tail, a tail alone on AVX2 and AVX-512.
    std::vector<float> v = {kInf, -kInf, 100.0f, -100.0f, kNan, -kNan, 0.0f};
    k->sigmoid_inplace(v.data(), v.size());
    EXPECT_EQ(v[0], 1.0f);
    EXPECT_LT(v[1], 1e-37f);
    EXPECT_GE(v[1], 0.0f);
    EXPECT_EQ(v[2], 1.0f);
    EXPECT_LT(v[3], 1e-37f);
    // As from libm: a NaN activation must reach the loss, where training reports divergence.
    EXPECT_TRUE(std::isnan(v[4]) && std::isnan(v[5]));
    EXPECT_EQ(v[6], 0.5f);
    std::vector<float> t = {kInf, -kInf, 20.0f, -20.0f, kNan, -kNan, -0.0f};
    k->tanh_inplace(t.data(), t.size());
    EXPECT_EQ(t[0], 1.0f);
    EXPECT_EQ(t[1], -1.0f);
    EXPECT_EQ(t[2], 1.0f);
    EXPECT_EQ(t[3], -1.0f);
    EXPECT_TRUE(std::isnan(t[4]) && std::isnan(t[5]));
    EXPECT_TRUE(t[6] == 0.0f && std::signbit(t[6]));
  }
}

// Each kernel over one length, in one variant; the outputs concatenated (without with_products,
// the elementwise kernels' alone).
std::vector<float> run_all(const VectorMathKernels& k, std::size_t n, std::uint64_t seed,
                           bool with_products = true) {
  std::vector<float> out;
  auto keep = [&](const std::vector<float>& v) { out.insert(out.end(), v.begin(), v.end()); };
  // Activations over a wide range (both tanh branches, sigmoid's saturation).
  std::vector<float> s = uniform(n, -12.0f, 12.0f, seed), t = s,
                     dx = uniform(n, -1.0f, 1.0f, seed + 1);
  k.sigmoid_inplace(s.data(), n);
  k.tanh_inplace(t.data(), n);
  k.tanh_backward_inplace(dx.data(), t.data(), n);
  keep(s), keep(t), keep(dx);
  std::vector<float> y = uniform(n, -1.0f, 1.0f, seed + 2);
  k.axpy(y.data(), 0.37f, s.data(), n);
  keep(y);
  // y [n] += Wt^T x for Wt [I, n], I = 37; and the transposed shape, O = 3.
  const std::size_t I = 37;
  const std::vector<float> wt = uniform(I * n, -1.0f, 1.0f, seed + 3),
                           x = uniform(I, -1.0f, 1.0f, seed + 4);
  std::vector<float> mv = uniform(n, -1.0f, 1.0f, seed + 5), mv3(3, 0.25f);
  k.add_matvec_t(mv.data(), wt.data(), x.data(), I, n);
  k.add_matvec_t(mv3.data(), wt.data(), t.data(), n, 3);
  if (with_products) keep(mv), keep(mv3);
  // Three rows of the same product at once, and a mean of rows picked from wt.
  const std::vector<float> x3 = uniform(3 * I, -1.0f, 1.0f, seed + 11);
  std::vector<float> mm = uniform(3 * n, -1.0f, 1.0f, seed + 12), rows_sum(n, 0.5f);
  k.add_matmat_t(mm.data(), wt.data(), x3.data(), 3, I, n);
  const std::int32_t picked[] = {4, 0, 36, 4};
  k.add_scaled_rows(rows_sum.data(), 0.25f, wt.data(), picked, 4, n);
  if (with_products) keep(mm), keep(rows_sum);
  // One LSTM step of n units, with and without a previous step, and its backward.
  std::vector<float> gates = uniform(4 * n, -4.0f, 4.0f, seed + 6), gates0 = gates, c(n), h(n),
                     c0(n), h0(n);
  const std::vector<float> c_prev = uniform(n, -2.0f, 2.0f, seed + 7);
  k.lstm_cell_forward(gates.data(), c.data(), h.data(), c_prev.data(), n);
  k.lstm_cell_forward(gates0.data(), c0.data(), h0.data(), nullptr, n);
  keep(gates), keep(c), keep(h), keep(gates0), keep(c0), keep(h0);
  std::vector<float> tanh_c = c, dgates(4 * n), dc = uniform(n, -1.0f, 1.0f, seed + 8),
                     dgates0(4 * n), dc0 = dc;
  k.tanh_inplace(tanh_c.data(), n);
  const std::vector<float> dh_out = uniform(n, -1.0f, 1.0f, seed + 9),
                           dh_next = uniform(n, -1.0f, 1.0f, seed + 10);
  k.lstm_cell_backward(dgates.data(), dc.data(), gates.data(), tanh_c.data(), c_prev.data(),
                       dh_out.data(), dh_next.data(), n);
  k.lstm_cell_backward(dgates0.data(), dc0.data(), gates.data(), tanh_c.data(), nullptr,
                       dh_out.data(), dh_next.data(), n);
  keep(dgates), keep(dc), keep(dgates0), keep(dc0);
  return out;
}

TEST(VectorMath, VariantsAgreeBitForBitWithinEachRoundingClass) {
  const auto all = variants();
  const VectorMathKernels* fused = nullptr;
  const VectorMathKernels* rounded = nullptr;
  for (std::size_t v = 0; v + 1 < all.size(); ++v) {  // the Highway targets
    const VectorMathKernels*& first = fuses(*all[v]) ? fused : rounded;
    if (!first) {
      first = all[v];
      continue;
    }
    for (std::size_t n : kLengths)
      EXPECT_TRUE(same_bits(run_all(*all[v], n, 11 * n), run_all(*first, n, 11 * n)))
          << all[v]->variant << " against " << first->variant << ", n = " << n;
  }
  // The reference is compiled for the build's baseline: without FMA (x86-64's portable build) it
  // rounds each product, as the non-fusing targets do.
  const VectorMathKernels& scalar = *all.back();
  if (fuses(scalar) || !rounded) return;
  for (std::size_t n : kLengths)
    EXPECT_TRUE(same_bits(run_all(scalar, n, 11 * n), run_all(*rounded, n, 11 * n)))
        << rounded->variant << " against the scalar reference, n = " << n;
}

// The tolerance between variants for the elementwise kernels (docs/eaca.md): every output within
// 4 float epsilon of the scalar reference, relative, or absolute where it is below 1 in magnitude
// (the backward's products of differences). The products' tolerance follows from the next test.
TEST(VectorMath, EveryVariantMatchesTheScalarReferenceWithinTheTolerance) {
  const auto all = variants();
  const VectorMathKernels& scalar = *all.back();
  for (const VectorMathKernels* k : all) {
    for (std::size_t n : kLengths) {
      const std::vector<float> got = run_all(*k, n, 7 * n, false),
                               want = run_all(scalar, n, 7 * n, false);
      ASSERT_EQ(got.size(), want.size());
      double worst = 0.0;
      for (std::size_t i = 0; i < got.size(); ++i)
        worst = std::max(
            worst, std::fabs(double{got[i]} - want[i]) / std::max(1.0, std::fabs(double{want[i]})));
      EXPECT_LE(worst, 4 * kEps) << k->variant << ", n = " << n;
    }
  }
}

// The product against double precision: within the usual bound for a sum of I + 1 terms, (I + 1)
// epsilon times the sum of their magnitudes; so two variants are within twice that of each other.
TEST(VectorMath, MatvecMatchesDoublePrecisionInEveryVariant) {
  for (const VectorMathKernels* k : variants()) {
    for (std::size_t O : kLengths) {
      for (std::size_t I : {std::size_t{1}, std::size_t{13}, std::size_t{64}}) {
        const std::vector<float> wt = uniform(I * O, -1.0f, 1.0f, O + I),
                                 x = uniform(I, -2.0f, 2.0f, 3 * O + I);
        const std::vector<float> y0 = uniform(O, -1.0f, 1.0f, 5 * O + I);
        std::vector<float> y = y0;
        k->add_matvec_t(y.data(), wt.data(), x.data(), I, O);
        for (std::size_t o = 0; o < O; ++o) {
          double want = y0[o], magnitude = std::fabs(y0[o]);
          for (std::size_t i = 0; i < I; ++i) {
            want += double{wt[i * O + o]} * x[i];
            magnitude += std::fabs(double{wt[i * O + o]} * x[i]);
          }
          ASSERT_LE(std::fabs(y[o] - want), static_cast<double>(I + 1) * kEps * magnitude)
              << k->variant << " O = " << O << " I = " << I << " o = " << o;
        }
      }
    }
  }
}

// The batched kernels against the ones they batch, in every variant: add_matmat_t is add_matvec_t
// on each row and add_scaled_rows is axpy on each picked row, bit for bit, over odd row counts and
// lengths around every vector width.
TEST(VectorMath, BatchedKernelsMatchTheirOneRowKernelsBitForBit) {
  for (const VectorMathKernels* k : variants()) {
    for (std::size_t O : kLengths) {
      for (std::size_t rows : {1, 2, 3, 4, 5, 7, 9}) {
        for (std::size_t I : {std::size_t{1}, std::size_t{13}, std::size_t{64}}) {
          const std::uint64_t seed = 1000 * O + 10 * rows + I;
          const std::vector<float> wt = uniform(I * O, -1.0f, 1.0f, seed),
                                   x = uniform(rows * I, -2.0f, 2.0f, seed + 1);
          std::vector<float> batched = uniform(rows * O, -1.0f, 1.0f, seed + 2), one_by_one = batched;
          k->add_matmat_t(batched.data(), wt.data(), x.data(), rows, I, O);
          for (std::size_t r = 0; r < rows; ++r)
            k->add_matvec_t(one_by_one.data() + r * O, wt.data(), x.data() + r * I, I, O);
          EXPECT_TRUE(same_bits(batched, one_by_one))
              << k->variant << " add_matmat_t rows = " << rows << " I = " << I << " O = " << O;
        }
        std::vector<std::int32_t> picked;
        for (std::size_t r = 0; r < rows; ++r) picked.push_back(static_cast<std::int32_t>((7 * r + 3) % 11));
        const std::vector<float> table = uniform(11 * O, -1.0f, 1.0f, O + rows);
        std::vector<float> gathered = uniform(O, -1.0f, 1.0f, O * rows), axpys = gathered;
        k->add_scaled_rows(gathered.data(), 0.3f, table.data(), picked.data(), rows, O);
        for (std::int32_t r : picked)
          k->axpy(axpys.data(), 0.3f, table.data() + static_cast<std::size_t>(r) * O, O);
        EXPECT_TRUE(same_bits(gathered, axpys)) << k->variant << " add_scaled_rows rows = " << rows << " n = " << O;
      }
    }
  }
}

// The LSTM step against its formulas in double precision (gates' activations as the kernel gave
// them).
TEST(VectorMath, LstmStepMatchesItsFormulasInEveryVariant) {
  for (const VectorMathKernels* k : variants()) {
    for (std::size_t H : kLengths) {
      const std::vector<float> pre = uniform(4 * H, -4.0f, 4.0f, H),
                               c_prev = uniform(H, -2.0f, 2.0f, H + 1);
      std::vector<float> gates = pre, c(H), h(H);
      k->lstm_cell_forward(gates.data(), c.data(), h.data(), c_prev.data(), H);
      for (std::size_t j = 0; j < H; ++j) {
        auto sig = [](double v) { return 1.0 / (1.0 + std::exp(-v)); };
        const double i = sig(pre[j]), f = sig(pre[H + j]), g = std::tanh(double{pre[2 * H + j]}),
                     o = sig(pre[3 * H + j]);
        const double cj = f * c_prev[j] + i * g;
        ASSERT_NEAR(gates[j], i, 1e-6) << k->variant;
        ASSERT_NEAR(gates[2 * H + j], g, 1e-6) << k->variant;
        ASSERT_NEAR(c[j], cj, 1e-6) << k->variant << " H = " << H << " j = " << j;
        ASSERT_NEAR(h[j], o * std::tanh(cj), 1e-6) << k->variant << " H = " << H << " j = " << j;
      }
    }
  }
}

TEST(VectorMath, LookupOfAVariantNotInTheBuildIsANamedError) {
  std::int64_t missing = 1;  // the lowest Highway target bit this build did not compile
  while (missing & HWY_TARGETS) missing <<= 1;
  EXPECT_THROW(vector_math_kernels(missing), InvalidArgument);
  EXPECT_STREQ(vector_math_kernels(simd::kScalarReference).variant, "scalar");
}

}  // namespace
}  // namespace kessel
