// kessel attention engine: one spec, composable similarity, score terms, masks and normalizer,
// forward and backward, a plain reference path and a fused tiled path.
//
// Shapes (STYLE.md letters): q [B, H, Lq, D], k [B, H, Lk, D], v [B, H, Lk, Dv], out [B, H, Lq, Dv],
// lse [B, H, Lq]. All contiguous float32, row-major.
//
// ---- What is computed, for one (b, h, i) row, over keys j -------------------------------------------
// Positions are aligned at the end so that Lq < Lk means "the last Lq positions" (KV-cache decoding):
//     pos_q(i) = i + (Lk - Lq),   pos_k(j) = j.
//
// 1. similarity  sim_ij
//      dot                 scale * <q_i, k_j>                        (scale defaults to 1/sqrt(D))
//      cosine              <q_i, k_j> / (|q_i| |k_j|)                 (norms floored at cosine_eps)
//      constrained_cosine  (1 - beta) * cos(q_i, k_j) + beta * sigmoid(scale * <q_i, k_j>)
//                          (the seeds write sigmoid(<q,k>); scale = 1 gives that literally, the 1/sqrt(D)
//                          default keeps the sigmoid out of saturation for D = 64)
//      neg_sq_euclidean    -|q_i - k_j|^2
//    Under normalizer = fuzzy the similarity is implied: sim_ij = -ln(d2_ij + fuzzy_eps) / (m - 1),
//    d2_ij = |q_i - k_j|^2 (similarity must be left at dot-default or set to neg_sq_euclidean).
// 2. zscore (optional)  sim_ij <- (sim_ij - mean_j sim_ij) / sqrt(var_j sim_ij + zscore_eps), mean and
//    variance over the keys visible to row i (needs a first pass over keys, forward and backward;
//    the fused path keeps that pass's Q K^T tiles for the next one, up to 16,384 keys per block).
// 3. multiplicative time decay (time_decay_mode = multiplicative)  sim_ij <- sim_ij * exp(-lambda |t_i - t_j|)
//    The seeds' form. It misbehaves for negative similarities: decay pulls them *up* towards 0, so a
//    distant dissimilar key gains weight. Additive decay (the default) has no such flaw: it is a
//    log-space prior, weights are multiplied by exp(-lambda |dt|) whatever the sign of the score.
// 4. temperature (softmax only)  sim_ij <- sim_ij / temperature
//    adaptive_temperature (seed 004 §3.2 step 3, "larger queries, sharper selection"): row i uses
//    tau_i = temperature / (1 + temperature_coef * mean_d |q_id|), one per query row (b, h, i), so a
//    query's weights depend on that query alone, as in KV-cache decoding. Dot similarity without
//    zscore only: there dividing row i by tau_i is attention on the query scaled by 1/tau_i's factor,
//    which is how it is computed (docs/attention.md), and the backward goes through tau_i.
//    emotion-ratio balance (seed 004 §4.2 step 3; emotion_ratio given): sim_ij <- (1 - balance rho_b)
//    sim_ij, and the key boost below is weighted by balance rho_b, rho_b = emotion_ratio[b] in [0, 1]
//    (the dialogue's share of emotion tokens). Dot similarity without zscore, softmax, with key_boost.
// 5. additive terms  logit_ij = sim_ij + bias[b,h,i,j] - alibi_slope[h] * |pos_q(i) - pos_k(j)|
//                               + rel_bias[h, bucket(pos_k(j) - pos_q(i))] - lambda |t_i - t_j| (additive)
//                               + g_ij key_boost[b, j]
//    g_ij = 1 without boost_gate. With boost_gate (seed 004's debug table, "boost_weight =
//    sigmoid(W_g [Q, K])" in place of a fixed weight), per head h:
//        g_ij = sigmoid(<w_q[h], q_i> + <w_k[h], k_j> + b_g[h]),  boost_gate[h] = [w_q (D) ; w_k (D) ; b_g]
//    a learned gate of the boost by query and key. Per head (not one [2D+1] shared by every head)
//    because q and k live in each head's own projected space; [H, 2D+1] rather than a matrix because
//    the gate is one scalar per (i, j). It is a per-row term u_i = <w_q, q_i> + b_g plus a per-key term
//    v_j = <w_k, k_j>, so the fused path computes both once and pays one sigmoid per (i, j).
//    Needs key_boost, normalizer = softmax, and neither adaptive_temperature nor
//    emotion_ratio (those scale q before the kernels; a gate read from the scaled q would mix the two).
// 6. masks (all ANDed; a hidden key gets logit -inf):
//      causal            pos_k(j) <= pos_q(i)
//      key_lengths[b]    j < key_lengths[b]            (padding)
//      window w >= 0     |pos_q(i) - pos_k(j)| <= w
//      min_lag g >= 0    pos_k(j) <= pos_q(i) - g      (by position), or t_j <= t_i - g (lag_by_time)
//      allowed_keys      allowed_keys[b, j] != 0       (the "trace mask")
//      mask              mask[b,h,i,j] != 0            (broadcastable, 1 = may attend)
//      chunk_size C > 0  pos_k(j)/C == pos_q(i)/C, or (pos_k(j) % C == C-1 and pos_k(j)/C < pos_q(i)/C)
//                        (own chunk, plus the last token of every earlier chunk: the "bridges");
//                        needs Lq <= Lk, so that every position is >= 0 and "/" is plain chunk index
// 7. normalize  w_ij = exp(logit_ij - lse_i), lse_i = log sum_j exp(logit_ij) over visible keys.
//    fuzzy: w_ij is then exactly (d2_ij + eps)^(-1/(m-1)) * exp(terms) normalized; with no score terms
//    it is the fuzzy c-means membership of q_i to centres k_j. FCM convention: if some visible keys are
//    an exact match (d2_ij <= fuzzy_match_tol * (|q_i|^2 + |k_j|^2), i.e. zero up to fp32 cancellation),
//    they share the whole weight equally and the row is "crisp" (lse_i = +inf; no gradient flows to q or
//    k through such a row). Limits: m -> 1+ gives the crisp nearest-key assignment, m -> inf uniform
//    weights. m must be > 1.
// 8. out_i = sum_j w_ij v_j. A row with no visible key gets out_i = 0, lse_i = -inf (never NaN), and is
//    counted in AttentionStats::fully_masked_rows.
//
// Learnable inputs with gradients: q, k, v, bias (dbias, reduced to bias's own shape), rel_bias
// (drel_bias [H, rel_buckets]), key_boost (dkey_boost [B, Lk]), boost_gate (dboost_gate [H, 2D+1]; the gate
// also adds into dq and dk), and three scalars of the spec: the
// fuzzifier m (dm, fuzzy only), the time-decay rate lambda (dtime_decay, needs times; defined
// at lambda = 0 too) and the adaptive temperature's coefficient (dtemperature_coef). Crisp and fully masked rows do not depend on m or lambda: they add nothing.
// docs/attention.md derives dm and the gate's gradients.
#pragma once

#include <cmath>
#include <cstdint>
#include <limits>
#include <span>
#include <string>

#include "kessel/tensor.h"

namespace kessel {

enum class Similarity { kDot, kCosine, kConstrainedCosine, kNegSqEuclidean };
enum class Normalizer { kSoftmax, kFuzzy };
enum class TimeDecayMode { kAdditive, kMultiplicative };
enum class AttentionImpl { kFused, kReference };
enum class KvDtype { kFloat32, kInt8 };

// Parsing for front ends ("dot", "constrained_cosine", "fuzzy", ...); throws InvalidArgument.
Similarity parse_similarity(const std::string& name);
Normalizer parse_normalizer(const std::string& name);
TimeDecayMode parse_time_decay_mode(const std::string& name);
AttentionImpl parse_attention_impl(const std::string& name);
KvDtype parse_kv_dtype(const std::string& name);

struct AttentionSpec {
  Similarity similarity = Similarity::kDot;
  Normalizer normalizer = Normalizer::kSoftmax;
  float scale = std::numeric_limits<float>::quiet_NaN();  // NaN: 1/sqrt(D)
  float temperature = 1.0f;                               // softmax only; > 0
  bool adaptive_temperature = false;  // tau_i = temperature / (1 + temperature_coef * mean|q_i|)
  float temperature_coef = 0.1f;      // adaptive_temperature's coefficient; finite, >= 0
  float balance = 0.5f;               // the emotion-ratio balance's gamma, in [0, 1] (emotion_ratio)
  float beta = 0.5f;                                      // constrained_cosine; in [0, 1]
  float m = 2.0f;                                         // fuzzy; > 1
  float fuzzy_eps = 1e-12f;      // added to d2 before the power; >= 0
  float fuzzy_match_tol = 1e-6f;  // relative tolerance for an exact match (crisp row)
  float cosine_eps = 1e-8f;      // norm floor for cosine similarities; > 0 (guards a zero vector)
  bool zscore = false;
  float zscore_eps = 1e-5f;      // > 0 (guards a row whose visible similarities are all equal)

  // masks
  bool causal = false;
  Index window = -1;    // < 0: off
  Index min_lag = -1;   // < 0: off
  bool lag_by_time = false;
  Index chunk_size = 0;  // 0: off

  // score terms that need no tensor
  float time_decay = 0.0f;  // lambda >= 0; needs times
  TimeDecayMode time_decay_mode = TimeDecayMode::kAdditive;
  Index rel_buckets = 32;        // T5 buckets (rel_bias is [H, rel_buckets])
  Index rel_max_distance = 128;  // T5 max_distance
  bool rel_bidirectional = true;

  // execution
  AttentionImpl impl = AttentionImpl::kFused;
  int threads = 0;  // <= 0: OpenMP default
};

// Inputs as views. Optional ones are empty (nullptr / empty span) when absent.
struct AttentionInputs {
  Index B = 0, H = 0, Lq = 0, Lk = 0, D = 0, Dv = 0;
  const float* q = nullptr;  // [B, H, Lq, D]
  const float* k = nullptr;  // [B, H, Lk, D]    (kv_dtype = float32)
  const float* v = nullptr;  // [B, H, Lk, Dv]   (kv_dtype = float32)

  // int8 K/V storage (inference only; forward and weights): symmetric per-row scale,
  // k ~= k_int8 * k_scale[row]. Set k_int8/v_int8 instead of k/v. See quantize_rows().
  KvDtype kv_dtype = KvDtype::kFloat32;
  const std::int8_t* k_int8 = nullptr;  // [B, H, Lk, D]
  const float* k_scale = nullptr;       // [B, H, Lk]
  const std::int8_t* v_int8 = nullptr;  // [B, H, Lk, Dv]
  const float* v_scale = nullptr;       // [B, H, Lk]

  std::span<const Index> key_lengths;        // [B]
  const std::uint8_t* allowed_keys = nullptr;  // [B, Lk]
  Strided4<std::uint8_t> mask;               // broadcastable to [B, H, Lq, Lk]
  Strided4<float> bias;                      // broadcastable to [B, H, Lq, Lk]
  std::span<const float> alibi_slopes;       // [H]
  const float* rel_bias = nullptr;           // [H, rel_buckets]
  const float* q_times = nullptr;            // [B, Lq] seconds
  const float* k_times = nullptr;            // [B, Lk] seconds
  const float* key_boost = nullptr;          // [B, Lk]
  const float* emotion_ratio = nullptr;      // [B] in [0, 1]: the emotion-ratio balance (spec.balance)
  const float* boost_gate = nullptr;         // [H, 2D+1]: the key boost's gate (step 5), per head
                                             // [w_q (D) ; w_k (D) ; b_g]
};

struct AttentionStats {
  Index fully_masked_rows = 0;  // rows with no visible key (out = 0, lse = -inf)
  Index crisp_rows = 0;         // fuzzy rows resolved by an exact match
  Index key_tiles_visited = 0;  // fused path: key tiles computed
  Index key_tiles_skipped = 0;  // fused path: key tiles skipped because the mask hides them entirely
};

// Gradients; each pointer may be null when that gradient is not wanted. Backward ADDS INTO these
// buffers (callers zero them first), so gradients of shared parameters accumulate naturally.
struct AttentionGrads {
  float* dq = nullptr;          // [B, H, Lq, D]
  float* dk = nullptr;          // [B, H, Lk, D]
  float* dv = nullptr;          // [B, H, Lk, Dv]
  float* dbias = nullptr;       // bias's own (unbroadcast) shape, contiguous
  float* drel_bias = nullptr;   // [H, rel_buckets]
  float* dkey_boost = nullptr;  // [B, Lk]
  float* dm = nullptr;          // [1] d/d spec.m (normalizer = fuzzy only)
  float* dtime_decay = nullptr;  // [1] d/d spec.time_decay (q_times/k_times required)
  float* dtemperature_coef = nullptr;  // [1] d/d spec.temperature_coef (adaptive_temperature only)
  float* dboost_gate = nullptr;  // [H, 2D+1] (boost_gate only)
};

// Checks every shape, range and value (NaN times, negative lengths, ...); throws InvalidArgument naming
// the argument. Finite inputs whose scores could overflow float32 are refused too: bounds on |q.k|,
// |q - k|^2 and the logits (after scale, temperature or m, and the score terms), taken from the
// inputs' largest magnitudes, must stay below 1e30. Called by the entry points below; exposed for
// front ends that want to check early.
void validate_attention(const AttentionInputs& in, const AttentionSpec& spec);

// out [B, H, Lq, Dv]; lse [B, H, Lq] (may be null).
AttentionStats attention_forward(float* out, float* lse, const AttentionInputs& in,
                                 const AttentionSpec& spec);

// Recomputes the weights from lse (FlashAttention-2 style). out and lse are the forward's results.
// Float32 K/V only.
void attention_backward(const AttentionGrads& grads, const float* dout, const float* out,
                        const float* lse, const AttentionInputs& in, const AttentionSpec& spec);

// weights [B, H, Lq, Lk]: the normalized weights, materialized (for explanation, centrality and
// tests); spec.impl picks the fused tiles or the reference, as for the forward.
AttentionStats attention_weights(float* weights, const AttentionInputs& in,
                                 const AttentionSpec& spec);

// The SIMD variant the fused path's tile kernels run now ("avx512", "avx2", "neon", "scalar", ...;
// kessel/cpu.h says how it is chosen and how to force one).
const char* attention_kernel_variant();

// Symmetric per-row int8 quantization of x [rows, cols]: scale[r] = max_c |x[r,c]| / 127,
// q[r,c] = round(x[r,c] / scale[r]); |x - q*scale| <= scale/2 elementwise.
void quantize_rows(std::int8_t* q, float* scale, const float* x, Index rows, Index cols);

// T5 relative-position bucket for relative position rel = pos_k - pos_q.
Index t5_relative_bucket(Index rel, Index num_buckets, Index max_distance, bool bidirectional);

// FLOPs of one forward (2 matmuls) and one backward (5 matmuls) without masking, for benchmarks.
double attention_forward_flops(Index B, Index H, Index Lq, Index Lk, Index D, Index Dv);
double attention_backward_flops(Index B, Index H, Index Lq, Index Lk, Index D, Index Dv);

}  // namespace kessel
