// exp, sigmoid and tanh of one float, branch-free: the scalar reference of the vector math kernels
// (util/vector_math_kernels.h, which evaluate the same formulas over Highway vectors; glibc's
// expf/tanhf are calls, one element at a time: they took a quarter of an EACA model's scoring time
// in its LSTM gates). Accuracy, measured against double precision: exp_approx within 1.1e-7
// relative (0.9 float epsilon) on [-87, 88], sigmoid_approx and tanh_approx within 1.6e-7
// (tests/cpp/util/vector_math_test.cc sweeps them, and every vector variant, with a little slack).
// Inputs are clamped to exp's normal range, so +-inf give the limits (sigmoid 0 or 1, tanh +-1). A
// NaN passes the clamps (its comparisons are false) and comes out a NaN, as from libm, so the
// trainer's divergence checks still see it.
//
// exp(x) = 2^n exp(r): n = round(x log2 e) by the 1.5 * 2^23 shift (which leaves n in the low bits
// of the float, so 2^n is built from the bits without a float-to-int conversion), r = x - n ln 2 in
// two parts (Cody-Waite; the first part has 16 bits, so n times it is exact), |r| <= ln2 / 2, and
// exp(r) by its degree-7 Taylor polynomial (truncation below 1e-8 relative), as in the engine's
// exp16 (src/attention/tile_kernels.cc).
#pragma once

#include <bit>
#include <cmath>
#include <cstddef>
#include <cstdint>

namespace kessel {

inline float exp_approx(float x) {
  x = x < -87.0f ? -87.0f : x;
  x = x > 88.0f ? 88.0f : x;
  constexpr float kShift = 12582912.0f;  // 1.5 * 2^23
  const float t = x * 1.44269504088896341f + kShift;
  const float n = t - kShift;
  float r = x - n * 0.693145751953125f;
  r = r - n * 1.428606765330187045e-06f;
  float p = 1.0f / 5040.0f;
  p = p * r + 1.0f / 720.0f;
  p = p * r + 1.0f / 120.0f;
  p = p * r + 1.0f / 24.0f;
  p = p * r + 1.0f / 6.0f;
  p = p * r + 0.5f;
  p = p * r + 1.0f;
  p = p * r + 1.0f;
  const std::int32_t e = std::bit_cast<std::int32_t>(t) - std::bit_cast<std::int32_t>(kShift) + 127;
  return p * std::bit_cast<float>(static_cast<std::int32_t>(static_cast<std::uint32_t>(e) << 23));
}

inline float sigmoid_approx(float x) { return 1.0f / (1.0f + exp_approx(-x)); }

// tanh(|x|) = (1 - e) / (1 + e), e = exp(-2|x|), loses relative accuracy as |x| -> 0 (1 - e
// cancels), so below 0.55 the odd Taylor series to x^15 is used (truncation below 5e-8 relative).
inline float tanh_approx(float x) {
  const float a = std::fabs(x);
  const float e = exp_approx(-2.0f * a);
  const float big = (1.0f - e) / (1.0f + e);
  const float s = a * a;
  float p = -929569.0f / 638512875.0f;
  p = p * s + 21844.0f / 6081075.0f;
  p = p * s - 1382.0f / 155925.0f;
  p = p * s + 62.0f / 2835.0f;
  p = p * s - 17.0f / 315.0f;
  p = p * s + 2.0f / 15.0f;
  p = p * s - 1.0f / 3.0f;
  p = p * s + 1.0f;
  const float small = a * p;
  return std::copysign(a < 0.55f ? small : big, x);
}

}  // namespace kessel
