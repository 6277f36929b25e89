// The attention contract's small pieces: name parsing, input validation, T5 buckets, int8 row
// quantization and FLOP counts.
#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <span>
#include <string>

#include "attention/score_terms.h"
#include "kessel/attention.h"
#include "kessel/error.h"

namespace kessel {

// ---- parsing
// ---------------------------------------------------------------------------------------

namespace {

template <typename E, size_t N>
E parse_enum(const char* what, const std::string& name,
             const std::array<std::pair<const char*, E>, N>& table) {
  std::string expected;
  for (const auto& [key, value] : table) {
    if (name == key) return value;
    expected += expected.empty() ? "" : ", ";
    expected += key;
  }
  throw InvalidArgument(detail::concat("parse_", what, ": unknown ", what, " '", name,
                                       "' (expected one of: ", expected, ")"));
}

}  // namespace

Similarity parse_similarity(const std::string& name) {
  static constexpr std::array<std::pair<const char*, Similarity>, 4> table{{
      {"dot", Similarity::kDot},
      {"cosine", Similarity::kCosine},
      {"constrained_cosine", Similarity::kConstrainedCosine},
      {"neg_sq_euclidean", Similarity::kNegSqEuclidean},
  }};
  return parse_enum("similarity", name, table);
}

Normalizer parse_normalizer(const std::string& name) {
  static constexpr std::array<std::pair<const char*, Normalizer>, 2> table{{
      {"softmax", Normalizer::kSoftmax},
      {"fuzzy", Normalizer::kFuzzy},
  }};
  return parse_enum("normalizer", name, table);
}

TimeDecayMode parse_time_decay_mode(const std::string& name) {
  static constexpr std::array<std::pair<const char*, TimeDecayMode>, 2> table{{
      {"additive", TimeDecayMode::kAdditive},
      {"multiplicative", TimeDecayMode::kMultiplicative},
  }};
  return parse_enum("time_decay_mode", name, table);
}

AttentionImpl parse_attention_impl(const std::string& name) {
  static constexpr std::array<std::pair<const char*, AttentionImpl>, 2> table{{
      {"fused", AttentionImpl::kFused},
      {"reference", AttentionImpl::kReference},
  }};
  return parse_enum("attention_impl", name, table);
}

KvDtype parse_kv_dtype(const std::string& name) {
  static constexpr std::array<std::pair<const char*, KvDtype>, 2> table{{
      {"float32", KvDtype::kFloat32},
      {"int8", KvDtype::kInt8},
  }};
  return parse_enum("kv_dtype", name, table);
}

// ---- validation
// ------------------------------------------------------------------------------------

namespace {

// One pass over a contiguous tensor; names the first non-finite element. Returns max |x|. The
// shape is written out only for the message: as a string made on every call it was a tenth of a
// small call's validation (an EACA layer attends over a dozen units). No branch per element (a test
// and a possible throw per element were 0.8% of a server's EACA request): kLanes running maxima,
// exact in any order; only a tensor that fails is scanned again, for the first bad element's index.
// The maxima are taken over the bits of |x| as (non-negative) integers, which order non-negative
// floats as their values do and put an infinity (0x7f800000) above every finite value and a NaN above
// that: one test of the largest finds both, and an integer max vectorizes (even on SSE2, as a
// compare and a select) where a float max with a NaN test beside it did not (7.6 instructions an
// element, 1.5% of a 5-member EACA summary's instructions).
double check_finite(const float* x, Index n, const char* name, const char* shape_letters,
                    std::span<const Index> shape) {
  constexpr Index kLanes = 8;
  constexpr std::int32_t kInfinity = 0x7f800000;
  const auto magnitude_bits = [](float v) { return std::bit_cast<std::int32_t>(v) & 0x7fffffff; };
  std::int32_t lane_max[kLanes] = {};
  Index e = 0;
  for (; e + kLanes <= n; e += kLanes)
    for (Index l = 0; l < kLanes; ++l) lane_max[l] = std::max(lane_max[l], magnitude_bits(x[e + l]));
  for (; e < n; ++e) lane_max[0] = std::max(lane_max[0], magnitude_bits(x[e]));
  std::int32_t largest = 0;
  for (std::int32_t m : lane_max) largest = std::max(largest, m);
  if (largest >= kInfinity) {
    for (e = 0; e < n; ++e) {
      KESSEL_CHECK_ARG(std::isfinite(x[e]), "attention: ", name, "[", e, "] is ", x[e],
                       " (flat index into ", name, " ", shape_letters, " = ", shape_string(shape),
                       "); inputs must be finite");
    }
  }
  return std::bit_cast<float>(largest);
}

// Finite inputs can still overflow float32 on the way to a score: q.k, |q|^2 and d2 are sums of D
// products, and a tiny temperature or a large term multiplies the logits. An infinite score becomes
// NaN in the normalization (inf - inf) or hides every key of a row, so bounds on these quantities,
// from the inputs' largest magnitudes, are checked before any work. The limit leaves eight orders of
// magnitude below float32's largest value for the sums and products around each score.
inline constexpr double kScoreLimit = 1e30;

struct Magnitudes {
  double q = 0, k = 0, bias = 0, alibi = 0, rel_bias = 0, times = 0, key_boost = 0;
};

void check_score_range(const AttentionInputs& in, const AttentionSpec& spec, const Magnitudes& mag) {
  const double D = static_cast<double>(in.D);
  const double qk = mag.q * mag.k * D;  // bound on |q.k|
  const double d2 = (mag.q + mag.k) * (mag.q + mag.k) * D;  // bound on |q|^2, |k|^2, |q - k|^2
  const bool fuzzy = spec.normalizer == Normalizer::kFuzzy;
  const bool norms = fuzzy || spec.similarity != Similarity::kDot;
  KESSEL_CHECK_ARG(qk <= kScoreLimit && (!norms || d2 <= kScoreLimit),
                   "attention: q and k are too large for float32 scores (max |q| = ", mag.q,
                   ", max |k| = ", mag.k, ", D = ", in.D, " allow |q.k| up to ", qk,
                   " and |q - k|^2 up to ", d2, "; the limit is ", kScoreLimit, "): rescale q and k");
  const attention_detail::ResolvedSpec r = attention_detail::resolve_spec(in, spec);
  double sim = 1.0;  // cosine kinds
  if (fuzzy) {
    // -ln(d2 + eps)/(m - 1): d2 + eps lies between the smallest positive float (or 0, a crisp row)
    // and the bound above.
    sim = (104.0 + std::fabs(std::log(d2 + spec.fuzzy_eps + 1e-300))) * r.fuzzy_exponent;
  } else if (spec.similarity == Similarity::kDot) {
    sim = qk * std::fabs(r.scale);
  } else if (spec.similarity == Similarity::kNegSqEuclidean) {
    sim = d2;
  }
  if (spec.zscore) sim = std::sqrt(static_cast<double>(in.Lk));  // |z| <= sqrt(n - 1)
  const double decay = spec.time_decay_mode == TimeDecayMode::kAdditive
                           ? static_cast<double>(spec.time_decay) * 2.0 * mag.times
                           : 0.0;
  const double terms = mag.bias + mag.alibi * static_cast<double>(in.Lq + in.Lk) + mag.rel_bias +
                       decay + mag.key_boost;
  const double logit = sim * r.inv_temperature + terms;
  KESSEL_CHECK_ARG(logit <= kScoreLimit, "attention: the logits can overflow float32 (bound ", logit,
                   ": similarity up to ", sim, " x 1/temperature ", r.inv_temperature,
                   " + score terms up to ", terms, "; the limit is ", kScoreLimit,
                   "): raise the temperature, lower the scale or m's sharpness, or rescale the terms");
}


// A broadcastable [B, H, Lq, Lk] view: each extent 1 or full, and broadcast dimensions have stride
// 0 (otherwise at() would read past the data).
template <typename T>
void check_broadcastable(const Strided4<T>& x, const char* name, const std::array<Index, 4>& full) {
  static constexpr const char* kLetters[4] = {"B", "H", "Lq", "Lk"};
  for (int d = 0; d < 4; ++d) {
    KESSEL_CHECK_ARG(x.shape[d] == 1 || x.shape[d] == full[d], "attention: ", name, " has shape ",
                     shape_string(x.shape),
                     " which does not broadcast to [B, H, Lq, Lk] = ", shape_string(full),
                     " (dimension ", kLetters[d], " must be 1 or ", full[d], ")");
    KESSEL_CHECK_ARG(x.shape[d] != 1 || full[d] == 1 || x.strides[d] == 0, "attention: ", name,
                     " broadcasts dimension ", kLetters[d], " (extent 1) but has stride ",
                     x.strides[d], "; a broadcast dimension needs stride 0");
    KESSEL_CHECK_ARG(x.strides[d] >= 0, "attention: ", name, " has negative stride ", x.strides[d],
                     " in dimension ", kLetters[d]);
  }
}

double check_bias_finite(const Strided4<float>& bias) {
  const auto& s = bias.shape;
  Index flat = 0;
  double amax = 0.0;
  for (Index b = 0; b < s[0]; ++b)
    for (Index h = 0; h < s[1]; ++h)
      for (Index i = 0; i < s[2]; ++i)
        for (Index j = 0; j < s[3]; ++j, ++flat) {
          const float x = bias.at(b, h, i, j);
          KESSEL_CHECK_ARG(std::isfinite(x), "attention: bias[", flat, "] is ", x,
                           " (flat index into bias's own shape ", shape_string(s),
                           "); inputs must be finite");
          amax = std::max(amax, static_cast<double>(std::fabs(x)));
        }
  return amax;
}

void check_spec(const AttentionSpec& spec) {
  KESSEL_CHECK_ARG(std::isfinite(spec.temperature) && spec.temperature > 0.0f,
                   "attention: temperature must be finite and > 0, got ", spec.temperature);
  if (spec.adaptive_temperature) {
    KESSEL_CHECK_ARG(std::isfinite(spec.temperature_coef) && spec.temperature_coef >= 0.0f,
                     "attention: temperature_coef must be finite and >= 0, got ", spec.temperature_coef);
    KESSEL_CHECK_ARG(spec.normalizer == Normalizer::kSoftmax,
                     "attention: temperature='adaptive' needs normalizer='softmax' (the fuzzy "
                     "normalizer's sharpness is m)");
    KESSEL_CHECK_ARG(spec.similarity == Similarity::kDot && !spec.zscore,
                     "attention: temperature='adaptive' needs similarity='dot' without zscore (it "
                     "divides each row by its own temperature, which for the dot product is a scaled "
                     "query; cosine and z-scored similarities do not scale with the query)");
  }
  KESSEL_CHECK_ARG(std::isfinite(spec.balance) && spec.balance >= 0.0f && spec.balance <= 1.0f,
                   "attention: balance must be in [0, 1], got ", spec.balance);
  KESSEL_CHECK_ARG(std::isfinite(spec.m) && spec.m > 1.0f,
                   "attention: fuzzy exponent m must be finite and > 1, got ", spec.m);
  KESSEL_CHECK_ARG(spec.beta >= 0.0f && spec.beta <= 1.0f,
                   "attention: beta must be in [0, 1], got ", spec.beta);
  KESSEL_CHECK_ARG(std::isnan(spec.scale) || std::isfinite(spec.scale),
                   "attention: scale must be finite (or NaN for the 1/sqrt(D) default), got ",
                   spec.scale);
  KESSEL_CHECK_ARG(std::isfinite(spec.fuzzy_eps) && spec.fuzzy_eps >= 0.0f,
                   "attention: fuzzy_eps must be finite and >= 0, got ", spec.fuzzy_eps);
  KESSEL_CHECK_ARG(std::isfinite(spec.fuzzy_match_tol) && spec.fuzzy_match_tol >= 0.0f,
                   "attention: fuzzy_match_tol must be finite and >= 0, got ",
                   spec.fuzzy_match_tol);
  // Strictly positive: they are the only guard against 0/0 for a zero vector (cosine) or a row
  // whose visible similarities are all equal (zscore).
  KESSEL_CHECK_ARG(std::isfinite(spec.cosine_eps) && spec.cosine_eps > 0.0f,
                   "attention: cosine_eps must be finite and > 0, got ", spec.cosine_eps);
  KESSEL_CHECK_ARG(std::isfinite(spec.zscore_eps) && spec.zscore_eps > 0.0f,
                   "attention: zscore_eps must be finite and > 0, got ", spec.zscore_eps);
  KESSEL_CHECK_ARG(spec.chunk_size >= 0, "attention: chunk_size must be >= 0 (0 = off), got ",
                   spec.chunk_size);
  KESSEL_CHECK_ARG(std::isfinite(spec.time_decay) && spec.time_decay >= 0.0f,
                   "attention: time_decay must be finite and >= 0, got ", spec.time_decay);
  KESSEL_CHECK_ARG(
      spec.normalizer != Normalizer::kFuzzy || spec.similarity == Similarity::kDot ||
          spec.similarity == Similarity::kNegSqEuclidean,
      "attention: normalizer = fuzzy implies its own similarity -ln(d2 + eps)/(m - 1); "
      "similarity must be left at dot (the default) or set to neg_sq_euclidean, got ",
      spec.similarity == Similarity::kCosine ? "cosine" : "constrained_cosine");
}

// The key boost's gate (header, step 5): finite [H, 2D+1], and only where it is defined. The gated
// term lies between 0 and key_boost, so the logit bounds of key_boost cover it.
void check_boost_gate(const AttentionInputs& in, const AttentionSpec& spec) {
  KESSEL_CHECK_ARG(in.key_boost != nullptr,
                   "attention: boost_gate gates the key boost, but there is no key_boost");
  KESSEL_CHECK_ARG(spec.normalizer == Normalizer::kSoftmax,
                   "attention: boost_gate needs normalizer='softmax' (not supported with the fuzzy "
                   "normalizer)");
  KESSEL_CHECK_ARG(!spec.adaptive_temperature && in.emotion_ratio == nullptr,
                   "attention: boost_gate cannot be combined with temperature='adaptive' or "
                   "emotion_ratio (they scale q before the kernels; the gate reads the unscaled q)");
  const Index G = 2 * in.D + 1;
  check_finite(in.boost_gate, in.H * G, "boost_gate", "[H, 2D+1]", std::array{in.H, G});
}

}  // namespace

void validate_attention(const AttentionInputs& in, const AttentionSpec& spec) {
  check_spec(spec);

  KESSEL_CHECK_ARG(in.B >= 1 && in.H >= 1 && in.Lq >= 1 && in.Lk >= 1 && in.D >= 1 && in.Dv >= 1,
                   "attention: every dimension must be >= 1, got B=", in.B, " H=", in.H,
                   " Lq=", in.Lq, " Lk=", in.Lk, " D=", in.D, " Dv=", in.Dv);
  const Index B = in.B, H = in.H, Lq = in.Lq, Lk = in.Lk, D = in.D, Dv = in.Dv;
  // Lq > Lk puts the first queries at negative positions, where pos / C (truncating) would merge
  // them into chunk 0; chunks over such positions have no meaning, so they are refused.
  KESSEL_CHECK_ARG(spec.chunk_size == 0 || Lq <= Lk, "attention: chunk_size = ", spec.chunk_size,
                   " needs Lq <= Lk (query positions i + Lk - Lq >= 0), got Lq=", Lq, " Lk=", Lk);

  KESSEL_CHECK_ARG(in.q != nullptr, "attention: q is null");
  if (in.emotion_ratio) {
    KESSEL_CHECK_ARG(in.key_boost != nullptr,
                     "attention: emotion_ratio (the emotion-ratio balance) weights the key boost, but "
                     "there is no key_boost");
    KESSEL_CHECK_ARG(spec.normalizer == Normalizer::kSoftmax && spec.similarity == Similarity::kDot &&
                         !spec.zscore,
                     "attention: emotion_ratio needs normalizer='softmax' and similarity='dot' without "
                     "zscore (it weights each dialogue's similarities, which for the dot product is a "
                     "scaled query)");
    for (Index b = 0; b < B; ++b)
      KESSEL_CHECK_ARG(std::isfinite(in.emotion_ratio[b]) && in.emotion_ratio[b] >= 0.0f &&
                           in.emotion_ratio[b] <= 1.0f,
                       "attention: emotion_ratio[", b, "] is ", in.emotion_ratio[b], "; a share must be in [0, 1]");
  }
  Magnitudes mag;
  mag.q = check_finite(in.q, B * H * Lq * D, "q", "[B, H, Lq, D]", std::array<Index, 4>{B, H, Lq, D});
  if (in.kv_dtype == KvDtype::kFloat32) {
    KESSEL_CHECK_ARG(in.k != nullptr, "attention: k is null (kv_dtype = float32)");
    KESSEL_CHECK_ARG(in.v != nullptr, "attention: v is null (kv_dtype = float32)");
    mag.k = check_finite(in.k, B * H * Lk * D, "k", "[B, H, Lk, D]", std::array<Index, 4>{B, H, Lk, D});
    check_finite(in.v, B * H * Lk * Dv, "v", "[B, H, Lk, Dv]", std::array<Index, 4>{B, H, Lk, Dv});
  } else {
    KESSEL_CHECK_ARG(in.k_int8 != nullptr, "attention: k_int8 is null (kv_dtype = int8)");
    KESSEL_CHECK_ARG(in.k_scale != nullptr, "attention: k_scale is null (kv_dtype = int8)");
    KESSEL_CHECK_ARG(in.v_int8 != nullptr, "attention: v_int8 is null (kv_dtype = int8)");
    KESSEL_CHECK_ARG(in.v_scale != nullptr, "attention: v_scale is null (kv_dtype = int8)");
    for (Index r = 0; r < B * H * Lk; ++r) {
      KESSEL_CHECK_ARG(std::isfinite(in.k_scale[r]) && in.k_scale[r] >= 0.0f, "attention: k_scale[",
                       r, "] is ", in.k_scale[r], "; scales must be finite and >= 0");
      KESSEL_CHECK_ARG(std::isfinite(in.v_scale[r]) && in.v_scale[r] >= 0.0f, "attention: v_scale[",
                       r, "] is ", in.v_scale[r], "; scales must be finite and >= 0");
      mag.k = std::max(mag.k, 127.0 * in.k_scale[r]);
    }
  }

  if (!in.key_lengths.empty()) {
    KESSEL_CHECK_ARG(static_cast<Index>(in.key_lengths.size()) == B, "attention: key_lengths has ",
                     in.key_lengths.size(), " entries but B=", B);
    for (Index b = 0; b < B; ++b) {
      const Index len = in.key_lengths[static_cast<size_t>(b)];
      KESSEL_CHECK_ARG(len >= 0 && len <= Lk, "attention: key_lengths[", b, "] = ", len,
                       " is outside [0, Lk] = [0, ", Lk, "]");
    }
  }

  const std::array<Index, 4> full{B, H, Lq, Lk};
  if (!in.mask.empty()) check_broadcastable(in.mask, "mask", full);
  if (!in.bias.empty()) {
    check_broadcastable(in.bias, "bias", full);
    mag.bias = check_bias_finite(in.bias);
  }

  if (!in.alibi_slopes.empty()) {
    KESSEL_CHECK_ARG(static_cast<Index>(in.alibi_slopes.size()) == H,
                     "attention: alibi_slopes has ", in.alibi_slopes.size(), " entries but H=", H);
    mag.alibi = check_finite(in.alibi_slopes.data(), H, "alibi_slopes", "[H]", std::array{H});
  }

  if (in.rel_bias) {
    const Index min_buckets = spec.rel_bidirectional ? 2 : 1;
    KESSEL_CHECK_ARG(spec.rel_buckets >= min_buckets,
                     "attention: rel_buckets must be >= ", min_buckets,
                     spec.rel_bidirectional ? " (bidirectional)" : "", ", got ", spec.rel_buckets);
    KESSEL_CHECK_ARG(spec.rel_max_distance >= 1, "attention: rel_max_distance must be >= 1, got ",
                     spec.rel_max_distance);
    mag.rel_bias = check_finite(in.rel_bias, H * spec.rel_buckets, "rel_bias", "[H, rel_buckets]",
                 std::array{H, spec.rel_buckets});
  }

  KESSEL_CHECK_ARG((in.q_times == nullptr) == (in.k_times == nullptr),
                   "attention: q_times and k_times must be given together (q_times ",
                   in.q_times ? "set" : "null", ", k_times ", in.k_times ? "set" : "null", ")");
  const bool lag_uses_times = spec.min_lag >= 0 && spec.lag_by_time;
  KESSEL_CHECK_ARG(in.q_times != nullptr || (spec.time_decay == 0.0f && !lag_uses_times),
                   "attention: q_times/k_times are required by ",
                   spec.time_decay != 0.0f ? "time_decay != 0" : "min_lag with lag_by_time");
  if (in.q_times) {
    mag.times = std::max(
        check_finite(in.q_times, B * Lq, "q_times", "[B, Lq]", std::array{B, Lq}),
        check_finite(in.k_times, B * Lk, "k_times", "[B, Lk]", std::array{B, Lk}));
  }

  if (in.key_boost)
    mag.key_boost =
        check_finite(in.key_boost, B * Lk, "key_boost", "[B, Lk]", std::array{B, Lk});
  if (in.boost_gate) check_boost_gate(in, spec);
  check_score_range(in, spec, mag);
}

// ---- small helpers
// ---------------------------------------------------------------------------------

void quantize_rows(std::int8_t* q, float* scale, const float* x, Index rows, Index cols) {
  KESSEL_CHECK_ARG(rows >= 0 && cols >= 1,
                   "quantize_rows: need rows >= 0 and cols >= 1, got rows=", rows, " cols=", cols);
  if (rows == 0) return;
  KESSEL_CHECK_ARG(q && scale && x, "quantize_rows: q, scale and x must not be null");
  for (Index r = 0; r < rows; ++r) {
    const float* xr = x + r * cols;
    float amax = 0.0f;
    for (Index c = 0; c < cols; ++c) {
      KESSEL_CHECK_ARG(std::isfinite(xr[c]), "quantize_rows: x[", r, ", ", c, "] is ", xr[c],
                       "; inputs must be finite");
      amax = std::max(amax, std::fabs(xr[c]));
    }
    const float s = amax / 127.0f;
    scale[r] = s;
    for (Index c = 0; c < cols; ++c) {
      // Round in double so that |x - q*s| <= s/2 holds up to the product's own rounding.
      const double t = s > 0.0f ? std::nearbyint(static_cast<double>(xr[c]) / s) : 0.0;
      q[r * cols + c] = static_cast<std::int8_t>(std::clamp(t, -127.0, 127.0));
    }
  }
}

Index t5_relative_bucket(Index rel, Index num_buckets, Index max_distance, bool bidirectional) {
  KESSEL_CHECK_ARG(num_buckets >= (bidirectional ? 2 : 1) && max_distance >= 1,
                   "t5_relative_bucket: need num_buckets >= ", bidirectional ? 2 : 1,
                   " and max_distance >= 1, got num_buckets=", num_buckets,
                   " max_distance=", max_distance);
  // T5 measures n = pos_q - pos_k (how far back the key is).
  Index n = -rel;
  Index bucket = 0;
  Index per_direction = num_buckets;
  if (bidirectional) {
    per_direction = num_buckets / 2;
    if (n < 0) bucket += per_direction;  // keys after the query use the upper half
    n = n < 0 ? -n : n;
  } else {
    n = std::max<Index>(n, 0);  // every future key shares bucket 0
  }
  const Index max_exact = per_direction / 2;
  if (n < max_exact) return bucket + n;
  // max_exact = 0 (one bucket per direction) leaves nothing to log-space.
  if (n >= max_distance || max_exact == 0 || max_distance <= max_exact)
    return bucket + per_direction - 1;
  // Log-spaced between max_exact and max_distance. The 1e-9 puts the exact boundaries
  // (n = max_exact * (max_distance/max_exact)^(k/(per_direction-max_exact))) in the upper bucket,
  // as the real-number formula does; it matches PyTorch's float32 T5 code for the usual settings.
  const double frac = std::log(static_cast<double>(n) / static_cast<double>(max_exact)) /
                      std::log(static_cast<double>(max_distance) / static_cast<double>(max_exact));
  const Index large =
      max_exact +
      static_cast<Index>(std::floor(frac * static_cast<double>(per_direction - max_exact) + 1e-9));
  return bucket + std::min(large, per_direction - 1);
}

double attention_forward_flops(Index B, Index H, Index Lq, Index Lk, Index D, Index Dv) {
  // QK^T (2 Lq Lk D) + PV (2 Lq Lk Dv).
  return 2.0 * static_cast<double>(B * H) * static_cast<double>(Lq) * static_cast<double>(Lk) *
         static_cast<double>(D + Dv);
}

double attention_backward_flops(Index B, Index H, Index Lq, Index Lk, Index D, Index Dv) {
  // Recompute QK^T (D), dP = dO V^T (Dv), dV = P^T dO (Dv), dQ = dS K (D), dK = dS^T Q (D).
  return 2.0 * static_cast<double>(B * H) * static_cast<double>(Lq) * static_cast<double>(Lk) *
         static_cast<double>(3 * D + 2 * Dv);
}

}  // namespace kessel
