// Per-element pieces of the attention pipeline (see include/kessel/attention.h, steps 3-6). The
// reference path computes every element with them. The fused path shares the mask predicates
// (position_visible, key_visible: the same decisions by construction) and computes the score terms
// a tile at a time instead (staged_scores.h), which the parity tests compare with these.
//
// Internal header: inputs are assumed validated (validate_attention).
#pragma once

#include <cmath>
#include <cstdint>
#include <limits>

#include "kessel/attention.h"

namespace kessel::attention_detail {

inline constexpr float kNegInf = -std::numeric_limits<float>::infinity();

// Resolved scalar parameters of one call.
struct ResolvedSpec {
  float scale;              // dot scale (1/sqrt(D) unless given)
  float inv_temperature;    // 1/temperature (softmax), 1 (fuzzy)
  float fuzzy_exponent;     // 1/(m-1) (fuzzy)
  Index pos_offset;         // Lk - Lq: pos_q(i) = i + pos_offset
};

inline ResolvedSpec resolve_spec(const AttentionInputs& in, const AttentionSpec& spec) {
  ResolvedSpec r;
  r.scale = std::isnan(spec.scale) ? 1.0f / std::sqrt(static_cast<float>(in.D)) : spec.scale;
  r.inv_temperature = spec.normalizer == Normalizer::kSoftmax ? 1.0f / spec.temperature : 1.0f;
  r.fuzzy_exponent = spec.normalizer == Normalizer::kFuzzy ? 1.0f / (spec.m - 1.0f) : 0.0f;
  r.pos_offset = in.Lk - in.Lq;
  return r;
}

// The masks that depend only on positions (causal, window, lag by position, chunk-and-bridge).
// Separate so the fused path can decide for a whole tile at once from its corner positions.
inline bool position_visible(const AttentionSpec& spec, Index pos_q, Index pos_k) {
  if (spec.causal && pos_k > pos_q) return false;
  if (spec.window >= 0 && (pos_q - pos_k > spec.window || pos_k - pos_q > spec.window)) return false;
  if (spec.min_lag >= 0 && !spec.lag_by_time && pos_k > pos_q - spec.min_lag) return false;
  if (spec.chunk_size > 0) {
    const Index cq = pos_q / spec.chunk_size, ck = pos_k / spec.chunk_size;
    const bool same_chunk = cq == ck;
    const bool bridge = ck < cq && pos_k % spec.chunk_size == spec.chunk_size - 1;
    if (!same_chunk && !bridge) return false;
  }
  return true;
}

// Every mask for element (b, h, i, j).
inline bool key_visible(const AttentionInputs& in, const AttentionSpec& spec, const ResolvedSpec& r,
                        Index b, Index h, Index i, Index j) {
  if (!position_visible(spec, i + r.pos_offset, j)) return false;
  if (!in.key_lengths.empty() && j >= in.key_lengths[static_cast<size_t>(b)]) return false;
  if (in.allowed_keys && !in.allowed_keys[b * in.Lk + j]) return false;
  if (!in.mask.empty() && !in.mask.at(b, h, i, j)) return false;
  if (spec.min_lag >= 0 && spec.lag_by_time &&
      !(in.k_times[b * in.Lk + j] <= in.q_times[b * in.Lq + i] - static_cast<float>(spec.min_lag)))
    return false;
  return true;
}

// |t_i - t_j| for the time-decay terms (0 when no times are given).
inline float time_gap(const AttentionInputs& in, Index b, Index i, Index j) {
  if (!in.q_times) return 0.0f;
  return std::fabs(in.q_times[b * in.Lq + i] - in.k_times[b * in.Lk + j]);
}

// Multiplier of step 3 (multiplicative decay), 1 when off.
inline float multiplicative_decay(const AttentionInputs& in, const AttentionSpec& spec, Index b,
                                  Index i, Index j) {
  if (spec.time_decay_mode != TimeDecayMode::kMultiplicative || spec.time_decay == 0.0f) return 1.0f;
  return std::exp(-spec.time_decay * time_gap(in, b, i, j));
}

// Step 5: the sum of the additive score terms for element (b, h, i, j), but for a gated key boost
// (boost_gate.h), which needs q_i and k_j.
inline float additive_terms(const AttentionInputs& in, const AttentionSpec& spec,
                            const ResolvedSpec& r, Index b, Index h, Index i, Index j) {
  float t = 0.0f;
  if (!in.bias.empty()) t += in.bias.at(b, h, i, j);
  const Index rel = j - (i + r.pos_offset);
  if (!in.alibi_slopes.empty())
    t -= in.alibi_slopes[static_cast<size_t>(h)] * static_cast<float>(rel < 0 ? -rel : rel);
  if (in.rel_bias)
    t += in.rel_bias[h * spec.rel_buckets + t5_relative_bucket(rel, spec.rel_buckets,
                                                               spec.rel_max_distance,
                                                               spec.rel_bidirectional)];
  if (spec.time_decay_mode == TimeDecayMode::kAdditive && spec.time_decay != 0.0f)
    t -= spec.time_decay * time_gap(in, b, i, j);
  if (in.key_boost && !in.boost_gate) t += in.key_boost[b * in.Lk + j];  // gated: reference.cc
  return t;
}

// Index of element (b, h, i, j) in bias's own contiguous shape (broadcast dimensions collapse to 0):
// where its gradient accumulates.
inline Index bias_index(const Strided4<float>& bias, Index b, Index h, Index i, Index j) {
  const auto& s = bias.shape;
  return (((s[0] == 1 ? 0 : b) * s[1] + (s[1] == 1 ? 0 : h)) * s[2] + (s[2] == 1 ? 0 : i)) * s[3] +
         (s[3] == 1 ? 0 : j);
}

}  // namespace kessel::attention_detail
