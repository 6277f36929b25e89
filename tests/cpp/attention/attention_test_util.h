// Shared test fixtures for the attention engine: an owning bundle of every input (seeded, sensible
// ranges) that hands out the AttentionInputs view, and comparison helpers.
//
// Typical use:
//   AttentionTestData d(/*B=*/2, /*H=*/3, /*Lq=*/7, /*Lk=*/9, /*D=*/8, /*Dv=*/5, /*seed=*/1);
//   d.add_bias({1, 3, 7, 9});   // broadcast over B
//   d.add_mask({2, 1, 7, 9}, 0.7);
//   d.add_times();
//   AttentionInputs in = d.inputs();
// The view points into d's vectors: keep d alive and do not resize its vectors while the view is
// used. Tests may edit the vectors' values in place (e.g. plant a NaN) and call inputs() again.
#pragma once

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <span>
#include <vector>

#include "kessel/attention.h"

namespace kessel::testing {

inline Index product4(const std::array<Index, 4>& s) { return s[0] * s[1] * s[2] * s[3]; }

struct AttentionTestData {
  Index B, H, Lq, Lk, D, Dv;
  std::mt19937 rng;

  std::vector<float> q;  // [B, H, Lq, D]   uniform(-1, 1)
  std::vector<float> k;  // [B, H, Lk, D]   uniform(-1, 1)
  std::vector<float> v;  // [B, H, Lk, Dv]  uniform(-1, 1)

  // Optional inputs; each is passed to inputs() only when non-empty.
  std::vector<Index> key_lengths;          // [B]
  std::vector<std::uint8_t> allowed_keys;  // [B, Lk]
  std::vector<std::uint8_t> mask;          // mask_shape, contiguous
  std::array<Index, 4> mask_shape{0, 0, 0, 0};
  std::vector<float> bias;  // bias_shape, contiguous
  std::array<Index, 4> bias_shape{0, 0, 0, 0};
  std::vector<float> alibi_slopes;  // [H]
  std::vector<float> rel_bias;      // [H, rel_buckets]
  std::vector<float> q_times;       // [B, Lq]
  std::vector<float> k_times;       // [B, Lk]
  std::vector<float> key_boost;     // [B, Lk]
  std::vector<float> emotion_ratio;  // [B], the emotion-ratio balance
  std::vector<float> boost_gate;     // [H, 2D+1], the key boost's gate

  // int8 copies of k and v (quantize_kv); inputs() uses them instead of k/v when use_int8 is set.
  bool use_int8 = false;
  std::vector<std::int8_t> k_int8;  // [B, H, Lk, D]
  std::vector<float> k_scale;       // [B, H, Lk]
  std::vector<std::int8_t> v_int8;  // [B, H, Lk, Dv]
  std::vector<float> v_scale;       // [B, H, Lk]

  AttentionTestData(Index B_, Index H_, Index Lq_, Index Lk_, Index D_, Index Dv_,
                    std::uint32_t seed)
      : B(B_), H(H_), Lq(Lq_), Lk(Lk_), D(D_), Dv(Dv_), rng(seed) {
    q = uniform(B * H * Lq * D, -1.0f, 1.0f);
    k = uniform(B * H * Lk * D, -1.0f, 1.0f);
    v = uniform(B * H * Lk * Dv, -1.0f, 1.0f);
  }

  std::vector<float> uniform(Index n, float lo, float hi) {
    std::uniform_real_distribution<float> dist(lo, hi);
    std::vector<float> x(static_cast<size_t>(n));
    for (float& e : x) e = dist(rng);
    return x;
  }

  // Lengths uniform in [min_length, Lk].
  void add_key_lengths(Index min_length = 1) {
    std::uniform_int_distribution<Index> dist(std::min(min_length, Lk), Lk);
    key_lengths.resize(static_cast<size_t>(B));
    for (Index& l : key_lengths) l = dist(rng);
  }

  // Each key allowed with probability p_keep.
  void add_allowed_keys(double p_keep = 0.8) { allowed_keys = bernoulli(B * Lk, p_keep); }

  // shape: each entry 1 (broadcast) or the full extent of [B, H, Lq, Lk].
  void add_mask(std::array<Index, 4> shape, double p_keep = 0.7) {
    mask_shape = shape;
    mask = bernoulli(product4(shape), p_keep);
  }

  void add_bias(std::array<Index, 4> shape, float amplitude = 1.0f) {
    bias_shape = shape;
    bias = uniform(product4(shape), -amplitude, amplitude);
  }

  // Positive slopes (ALiBi's geometric 2^(-8h/H) sequence).
  void add_alibi() {
    alibi_slopes.resize(static_cast<size_t>(H));
    for (Index h = 0; h < H; ++h)
      alibi_slopes[static_cast<size_t>(h)] =
          std::pow(2.0f, -8.0f * static_cast<float>(h + 1) / static_cast<float>(H));
  }

  // rel_bias [H, buckets]; the spec's rel_buckets must equal `buckets`.
  void add_rel_bias(Index buckets, float amplitude = 1.0f) {
    rel_bias = uniform(H * buckets, -amplitude, amplitude);
  }

  // Increasing times per batch (steps uniform in [0.5, 2] s); a query at position pos_q(i) gets the
  // time of key position pos_q(i) when that exists, so "time" and "position" orders agree.
  void add_times() {
    std::uniform_real_distribution<float> step(0.5f, 2.0f);
    // Positions run from min(0, Lk - Lq) (queries before the first key when Lq > Lk) to Lk - 1.
    const Index first = std::min<Index>(0, Lk - Lq);
    std::vector<float> line(static_cast<size_t>(Lk - first));
    k_times.resize(static_cast<size_t>(B * Lk));
    q_times.resize(static_cast<size_t>(B * Lq));
    for (Index b = 0; b < B; ++b) {
      float t = 0.0f;
      for (float& e : line) e = (t += step(rng));
      for (Index j = 0; j < Lk; ++j)
        k_times[static_cast<size_t>(b * Lk + j)] = line[static_cast<size_t>(j - first)];
      for (Index i = 0; i < Lq; ++i)
        q_times[static_cast<size_t>(b * Lq + i)] = line[static_cast<size_t>(i + (Lk - Lq) - first)];
    }
  }

  void add_key_boost(float amplitude = 1.0f) { key_boost = uniform(B * Lk, -amplitude, amplitude); }

  // The key boost's gate: w_q, w_k and b_g uniform in [-amplitude, amplitude] (needs key_boost).
  void add_boost_gate(float amplitude = 1.0f) { boost_gate = uniform(H * (2 * D + 1), -amplitude, amplitude); }

  // Fills the int8 copies with kessel::quantize_rows and turns use_int8 on.
  void quantize_kv() {
    k_int8.resize(k.size());
    v_int8.resize(v.size());
    k_scale.resize(static_cast<size_t>(B * H * Lk));
    v_scale.resize(static_cast<size_t>(B * H * Lk));
    quantize_rows(k_int8.data(), k_scale.data(), k.data(), B * H * Lk, D);
    quantize_rows(v_int8.data(), v_scale.data(), v.data(), B * H * Lk, Dv);
    use_int8 = true;
  }

  // k and v as the int8 path sees them (dequantized), for float32 comparisons.
  std::vector<float> dequantized_k() const { return dequantize(k_int8, k_scale, D); }
  std::vector<float> dequantized_v() const { return dequantize(v_int8, v_scale, Dv); }

  AttentionInputs inputs() const {
    AttentionInputs in;
    in.B = B, in.H = H, in.Lq = Lq, in.Lk = Lk, in.D = D, in.Dv = Dv;
    in.q = q.data();
    if (use_int8) {
      in.kv_dtype = KvDtype::kInt8;
      in.k_int8 = k_int8.data();
      in.k_scale = k_scale.data();
      in.v_int8 = v_int8.data();
      in.v_scale = v_scale.data();
    } else {
      in.k = k.data();
      in.v = v.data();
    }
    if (!key_lengths.empty()) in.key_lengths = key_lengths;
    if (!allowed_keys.empty()) in.allowed_keys = allowed_keys.data();
    if (!mask.empty()) in.mask = Strided4<std::uint8_t>::contiguous(mask.data(), mask_shape);
    if (!bias.empty()) in.bias = Strided4<float>::contiguous(bias.data(), bias_shape);
    if (!alibi_slopes.empty()) in.alibi_slopes = alibi_slopes;
    if (!rel_bias.empty()) in.rel_bias = rel_bias.data();
    if (!q_times.empty()) in.q_times = q_times.data();
    if (!k_times.empty()) in.k_times = k_times.data();
    if (!key_boost.empty()) in.key_boost = key_boost.data();
    if (!emotion_ratio.empty()) in.emotion_ratio = emotion_ratio.data();
    if (!boost_gate.empty()) in.boost_gate = boost_gate.data();
    return in;
  }

  // Output buffer sizes.
  size_t out_size() const { return static_cast<size_t>(B * H * Lq * Dv); }
  size_t lse_size() const { return static_cast<size_t>(B * H * Lq); }
  size_t weights_size() const { return static_cast<size_t>(B * H * Lq * Lk); }

 private:
  std::vector<std::uint8_t> bernoulli(Index n, double p) {
    std::bernoulli_distribution dist(p);
    std::vector<std::uint8_t> x(static_cast<size_t>(n));
    for (auto& e : x) e = dist(rng) ? 1 : 0;
    return x;
  }
  std::vector<float> dequantize(const std::vector<std::int8_t>& x, const std::vector<float>& scale,
                                Index cols) const {
    std::vector<float> y(x.size());
    for (size_t e = 0; e < x.size(); ++e)
      y[e] = static_cast<float>(x[e]) * scale[e / static_cast<size_t>(cols)];
    return y;
  }
};

// Equal values (including equal infinities, e.g. lse = -inf for masked rows) differ by 0; a NaN on
// either side, or infinities that disagree, give +inf so that a tolerance check fails.
inline double element_abs_diff(double a, double b) {
  if (a == b) return 0.0;
  if (std::isnan(a) || std::isnan(b) || std::isinf(a) || std::isinf(b))
    return std::numeric_limits<double>::infinity();
  return std::fabs(a - b);
}

inline double max_abs_diff(std::span<const float> a, std::span<const float> b) {
  if (a.size() != b.size()) return std::numeric_limits<double>::infinity();
  double m = 0.0;
  for (size_t e = 0; e < a.size(); ++e) m = std::max(m, element_abs_diff(a[e], b[e]));
  return m;
}

// max_e |a_e - b_e| / max(|a_e|, |b_e|, floor): relative where values are large, absolute (scaled
// by 1/floor) near zero.
inline double max_rel_diff(std::span<const float> a, std::span<const float> b,
                           double floor = 1e-6) {
  if (a.size() != b.size()) return std::numeric_limits<double>::infinity();
  double m = 0.0;
  for (size_t e = 0; e < a.size(); ++e) {
    const double d = element_abs_diff(a[e], b[e]);
    if (d == 0.0) continue;
    const double denom = std::max(
        {std::fabs(static_cast<double>(a[e])), std::fabs(static_cast<double>(b[e])), floor});
    m = std::max(m, d / denom);
  }
  return m;
}

inline bool all_finite(std::span<const float> x) {
  return std::all_of(x.begin(), x.end(), [](float e) { return std::isfinite(e); });
}

}  // namespace kessel::testing
