// The reference path: for each (b, h) it materializes the [Lq, Lk] similarities, logits and weights
// in double, one step of include/kessel/attention.h at a time. Slow and obvious on purpose.
//
// Parallel over (b, h) pairs, which are independent; stats and the gradients of parameters shared
// across pairs (bias, rel_bias, key_boost, boost_gate) are reduced serially in (b, h) order afterwards, so the
// results are bit-identical for any thread count.
#include "attention/reference.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include "attention/score_terms.h"
#include "util/parallel.h"

namespace kessel::attention_detail {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

enum class RowKind : std::uint8_t { kNormal, kFullyMasked, kCrisp };

// Everything the reference computes for one (b, h). Buffers are reused across heads by a thread.
struct HeadState {
  Index b = 0, h = 0;
  std::vector<double> q, k, v;         // [Lq, D], [Lk, D], [Lk, Dv] (k, v dequantized for int8)
  std::vector<double> q_norm, k_norm;  // [Lq], [Lk] Euclidean norms (unfloored)
  std::vector<std::uint8_t> visible;   // [Lq, Lk] step 6
  std::vector<double> z;               // [Lq, Lk] similarity after steps 1-2
  std::vector<double> sigma;           // [Lq] zscore's sqrt(var + eps)
  std::vector<double> decay;           // [Lq, Lk] step 3 factor (multiplicative decay only)
  std::vector<double> w;               // [Lq, Lk] weights (0 where hidden)
  std::vector<double> lse;             // [Lq]
  std::vector<RowKind> kind;           // [Lq]
  std::vector<std::uint8_t> exact;     // [Lq, Lk] fuzzy exact matches (crisp rows)
  std::vector<Index> exact_count;      // [Lq]
};

double dot_product(const double* a, const double* b, Index n) {
  double s = 0.0;
  for (Index d = 0; d < n; ++d) s += a[d] * b[d];
  return s;
}

double squared_distance(const double* a, const double* b, Index n) {
  double s = 0.0;
  for (Index d = 0; d < n; ++d) s += (a[d] - b[d]) * (a[d] - b[d]);
  return s;
}

double sigmoid(double x) { return 1.0 / (1.0 + std::exp(-x)); }

void load_head(HeadState& s, const AttentionInputs& in, Index b, Index h) {
  const Index D = in.D, Dv = in.Dv, Lq = in.Lq, Lk = in.Lk;
  const Index bh = b * in.H + h;
  s.b = b, s.h = h;
  s.q.assign(in.q + bh * Lq * D, in.q + (bh + 1) * Lq * D);
  s.k.resize(static_cast<size_t>(Lk * D));
  s.v.resize(static_cast<size_t>(Lk * Dv));
  for (Index j = 0; j < Lk; ++j) {
    const Index row = bh * Lk + j;
    for (Index d = 0; d < D; ++d)
      s.k[j * D + d] = in.kv_dtype == KvDtype::kInt8
                           ? static_cast<double>(in.k_int8[row * D + d]) * in.k_scale[row]
                           : in.k[row * D + d];
    for (Index d = 0; d < Dv; ++d)
      s.v[j * Dv + d] = in.kv_dtype == KvDtype::kInt8
                            ? static_cast<double>(in.v_int8[row * Dv + d]) * in.v_scale[row]
                            : in.v[row * Dv + d];
  }
  s.q_norm.resize(static_cast<size_t>(Lq));
  s.k_norm.resize(static_cast<size_t>(Lk));
  for (Index i = 0; i < Lq; ++i) s.q_norm[i] = std::sqrt(dot_product(&s.q[i * D], &s.q[i * D], D));
  for (Index j = 0; j < Lk; ++j) s.k_norm[j] = std::sqrt(dot_product(&s.k[j * D], &s.k[j * D], D));
}

// Step 1 for element (i, j).
double similarity(const HeadState& s, const AttentionInputs& in, const AttentionSpec& spec,
                  const ResolvedSpec& r, Index i, Index j) {
  const Index D = in.D;
  const double* qi = &s.q[i * D];
  const double* kj = &s.k[j * D];
  if (spec.normalizer == Normalizer::kFuzzy)
    return -std::log(squared_distance(qi, kj, D) + spec.fuzzy_eps) * r.fuzzy_exponent;
  switch (spec.similarity) {
    case Similarity::kDot:
      return r.scale * dot_product(qi, kj, D);
    case Similarity::kCosine:
    case Similarity::kConstrainedCosine: {
      const double eps = spec.cosine_eps;
      const double dot = dot_product(qi, kj, D);
      const double cos = dot / (std::max(s.q_norm[i], eps) * std::max(s.k_norm[j], eps));
      if (spec.similarity == Similarity::kCosine) return cos;
      return (1.0 - spec.beta) * cos + spec.beta * sigmoid(r.scale * dot);
    }
    case Similarity::kNegSqEuclidean:
      return -squared_distance(qi, kj, D);
  }
  return 0.0;  // unreachable: every enumerator returns above
}

// The gate of the key boost (header, step 5) for element (i, j) of head h: sigmoid(<w_q, q_i> +
// <w_k, k_j> + b_g).
double boost_gate_value(const HeadState& s, const AttentionInputs& in, Index i, Index j) {
  const Index D = in.D;
  const float* gate = in.boost_gate + s.h * (2 * D + 1);
  double x = gate[2 * D];
  for (Index d = 0; d < D; ++d) x += gate[d] * s.q[i * D + d] + gate[D + d] * s.k[j * D + d];
  return sigmoid(x);
}

// The gated key boost g_ij key_boost[b, j] (0 without boost_gate: additive_terms has the plain one).
double gated_boost(const HeadState& s, const AttentionInputs& in, Index i, Index j) {
  if (!in.boost_gate) return 0.0;
  return boost_gate_value(s, in, i, j) * in.key_boost[s.b * in.Lk + j];
}

// Steps 1-7 for one (b, h): fills visible, z, sigma, decay, w, lse, kind, exact.
void compute_head_weights(HeadState& s, const AttentionInputs& in, const AttentionSpec& spec,
                          const ResolvedSpec& r, Index b, Index h) {
  const Index Lq = in.Lq, Lk = in.Lk, D = in.D;
  load_head(s, in, b, h);
  const size_t n = static_cast<size_t>(Lq * Lk);
  s.visible.assign(n, 0);
  s.z.assign(n, 0.0);
  s.w.assign(n, 0.0);
  s.decay.assign(n, 1.0);
  s.exact.assign(n, 0);
  s.sigma.assign(static_cast<size_t>(Lq), 1.0);
  s.lse.assign(static_cast<size_t>(Lq), -kInf);
  s.kind.assign(static_cast<size_t>(Lq), RowKind::kNormal);
  s.exact_count.assign(static_cast<size_t>(Lq), 0);

  for (Index i = 0; i < Lq; ++i) {
    const Index row = i * Lk;
    Index visible_count = 0;
    for (Index j = 0; j < Lk; ++j) {
      s.visible[row + j] = key_visible(in, spec, r, b, h, i, j) ? 1 : 0;
      visible_count += s.visible[row + j];
    }
    if (visible_count == 0) {
      s.kind[i] = RowKind::kFullyMasked;
      continue;
    }

    // Step 7, FCM convention: exact matches take the whole weight.
    if (spec.normalizer == Normalizer::kFuzzy) {
      Index matches = 0;
      for (Index j = 0; j < Lk; ++j) {
        if (!s.visible[row + j]) continue;
        const double d2 = squared_distance(&s.q[i * D], &s.k[j * D], D);
        const double tol =
            spec.fuzzy_match_tol * (s.q_norm[i] * s.q_norm[i] + s.k_norm[j] * s.k_norm[j]);
        if (d2 <= tol) {
          s.exact[row + j] = 1;
          ++matches;
        }
      }
      if (matches > 0) {
        s.kind[i] = RowKind::kCrisp;
        s.exact_count[i] = matches;
        s.lse[i] = kInf;
        for (Index j = 0; j < Lk; ++j)
          if (s.exact[row + j]) s.w[row + j] = 1.0 / static_cast<double>(matches);
        continue;
      }
    }

    // Steps 1-2.
    for (Index j = 0; j < Lk; ++j)
      if (s.visible[row + j]) s.z[row + j] = similarity(s, in, spec, r, i, j);
    if (spec.zscore) {
      double mean = 0.0, var = 0.0;
      for (Index j = 0; j < Lk; ++j)
        if (s.visible[row + j]) mean += s.z[row + j];
      mean /= static_cast<double>(visible_count);
      for (Index j = 0; j < Lk; ++j)
        if (s.visible[row + j]) var += (s.z[row + j] - mean) * (s.z[row + j] - mean);
      var /= static_cast<double>(visible_count);
      s.sigma[i] = std::sqrt(var + spec.zscore_eps);
      for (Index j = 0; j < Lk; ++j)
        if (s.visible[row + j]) s.z[row + j] = (s.z[row + j] - mean) / s.sigma[i];
    }

    // Steps 3-5 into w (as logits), then step 7.
    double max_logit = -kInf;
    for (Index j = 0; j < Lk; ++j) {
      if (!s.visible[row + j]) continue;
      s.decay[row + j] = multiplicative_decay(in, spec, b, i, j);
      const double logit = s.z[row + j] * s.decay[row + j] * r.inv_temperature +
                           additive_terms(in, spec, r, b, h, i, j) + gated_boost(s, in, i, j);
      s.w[row + j] = logit;
      max_logit = std::max(max_logit, logit);
    }
    double sum = 0.0;
    for (Index j = 0; j < Lk; ++j)
      if (s.visible[row + j]) sum += std::exp(s.w[row + j] - max_logit);
    s.lse[i] = max_logit + std::log(sum);
    for (Index j = 0; j < Lk; ++j)
      s.w[row + j] = s.visible[row + j] ? std::exp(s.w[row + j] - s.lse[i]) : 0.0;
  }
}

// Per-(b, h) results of the forward that are summed after the parallel loop.
struct HeadCounts {
  Index fully_masked = 0, crisp = 0;
};

}  // namespace

AttentionStats reference_forward(float* out, float* lse, float* weights, const AttentionInputs& in,
                                 const AttentionSpec& spec) {
  const ResolvedSpec r = resolve_spec(in, spec);
  const Index B = in.B, H = in.H, Lq = in.Lq, Lk = in.Lk, Dv = in.Dv;
  std::vector<HeadCounts> counts(static_cast<size_t>(B * H));

#pragma omp parallel num_threads(resolve_threads(spec.threads))
  {
    HeadState s;
#pragma omp for schedule(dynamic)
    for (Index bh = 0; bh < B * H; ++bh) {
      compute_head_weights(s, in, spec, r, bh / H, bh % H);
      HeadCounts& c = counts[static_cast<size_t>(bh)];
      for (Index i = 0; i < Lq; ++i) {
        c.fully_masked += s.kind[i] == RowKind::kFullyMasked;
        c.crisp += s.kind[i] == RowKind::kCrisp;
        if (lse) lse[bh * Lq + i] = static_cast<float>(s.lse[i]);
        if (weights)
          for (Index j = 0; j < Lk; ++j)
            weights[(bh * Lq + i) * Lk + j] = static_cast<float>(s.w[i * Lk + j]);
        if (out) {
          for (Index d = 0; d < Dv; ++d) {
            double acc = 0.0;  // stays 0 for a fully masked row: every weight is 0
            for (Index j = 0; j < Lk; ++j) acc += s.w[i * Lk + j] * s.v[j * Dv + d];
            out[(bh * Lq + i) * Dv + d] = static_cast<float>(acc);
          }
        }
      }
    }
  }

  AttentionStats stats;
  for (const HeadCounts& c : counts) {
    stats.fully_masked_rows += c.fully_masked;
    stats.crisp_rows += c.crisp;
  }
  return stats;
}

// ---- backward
// --------------------------------------------------------------------------------------

namespace {

// d sim_ij / d q_i and d sim_ij / d k_j times g, added into dq_i and dk_j (step 1 backward).
void similarity_backward(double* dqi, double* dkj, double g, const HeadState& s,
                         const AttentionInputs& in, const AttentionSpec& spec,
                         const ResolvedSpec& r, Index i, Index j) {
  const Index D = in.D;
  const double* qi = &s.q[i * D];
  const double* kj = &s.k[j * D];
  if (spec.normalizer == Normalizer::kFuzzy || spec.similarity == Similarity::kNegSqEuclidean) {
    // fuzzy: sim = -ln(d2 + eps) / (m - 1);  neg_sq_euclidean: sim = -d2;  d d2/d q = 2 (q - k).
    double dsim_dd2 = -1.0;
    if (spec.normalizer == Normalizer::kFuzzy)
      dsim_dd2 = -r.fuzzy_exponent / (squared_distance(qi, kj, D) + spec.fuzzy_eps);
    const double c = 2.0 * g * dsim_dd2;
    for (Index d = 0; d < D; ++d) {
      dqi[d] += c * (qi[d] - kj[d]);
      dkj[d] -= c * (qi[d] - kj[d]);
    }
    return;
  }
  if (spec.similarity == Similarity::kDot) {
    for (Index d = 0; d < D; ++d) {
      dqi[d] += g * r.scale * kj[d];
      dkj[d] += g * r.scale * qi[d];
    }
    return;
  }
  // cosine = <q, k> / (nq nk), n = max(|x|, eps): below the floor the norm is a constant, above it
  // d|q|/dq = q / |q|, so d cos/dq = k / (nq nk) - cos * q / |q|^2.
  const double eps = spec.cosine_eps;
  const double dot = dot_product(qi, kj, D);
  const double nq = std::max(s.q_norm[i], eps), nk = std::max(s.k_norm[j], eps);
  const double cos = dot / (nq * nk);
  const double q_radial = s.q_norm[i] > eps ? cos / (s.q_norm[i] * s.q_norm[i]) : 0.0;
  const double k_radial = s.k_norm[j] > eps ? cos / (s.k_norm[j] * s.k_norm[j]) : 0.0;
  double g_cos = g, g_dot = 0.0;
  if (spec.similarity == Similarity::kConstrainedCosine) {
    // (1 - beta) cos + beta sigmoid(scale <q, k>)
    const double sg = sigmoid(r.scale * dot);
    g_cos = g * (1.0 - spec.beta);
    g_dot = g * spec.beta * sg * (1.0 - sg) * r.scale;
  }
  for (Index d = 0; d < D; ++d) {
    dqi[d] += g_cos * (kj[d] / (nq * nk) - q_radial * qi[d]) + g_dot * kj[d];
    dkj[d] += g_cos * (qi[d] / (nq * nk) - k_radial * kj[d]) + g_dot * qi[d];
  }
}

// One head's contributions to the gradients of the spec's scalars.
struct ScalarSums {
  double dsim_logd = 0.0;    // sum of dsim_ij * ln(d2_ij + eps) (fuzzy): dm = a^2 * this
  double dtime_decay = 0.0;  // sum of dlogit_ij * d logit_ij / d lambda
};

// d logit_ij / d lambda times dl, added into sums (steps 3 and 5: -|dt| for additive decay,
// -|dt| z decay / temperature for multiplicative decay).
void time_decay_backward(ScalarSums& sums, double dl, const HeadState& s, const AttentionInputs& in,
                         const AttentionSpec& spec, const ResolvedSpec& r, Index i, Index j) {
  const double dt = time_gap(in, s.b, i, j);
  const Index e = i * in.Lk + j;
  if (spec.time_decay_mode == TimeDecayMode::kAdditive)
    sums.dtime_decay -= dl * dt;
  else
    sums.dtime_decay -= dl * s.z[e] * s.decay[e] * r.inv_temperature * dt;
}

// Backward of one (b, h); s holds the recomputed forward. dq, dk, dv are this head's slices
// (double, zeroed by the caller). dlogit [Lq, Lk] receives the gradient of each logit (0 where
// hidden) when non-null, for the score-term gradients; sums (when non-null) the scalars' ones.
void head_backward(double* dq, double* dk, double* dv, double* dlogit, ScalarSums* sums,
                   const HeadState& s, const float* dout, const AttentionInputs& in,
                   const AttentionSpec& spec, const ResolvedSpec& r) {
  const Index Lq = in.Lq, Lk = in.Lk, D = in.D, Dv = in.Dv;
  std::vector<double> dw(static_cast<size_t>(Lk)), g(static_cast<size_t>(Lk));
  for (Index i = 0; i < Lq; ++i) {
    const Index row = i * Lk;
    const float* douti = dout + i * Dv;
    if (s.kind[i] == RowKind::kFullyMasked) continue;  // out_i = 0 whatever the inputs
    if (s.kind[i] == RowKind::kCrisp) {
      // out_i = mean of the exact keys' values: only v gets a gradient.
      for (Index j = 0; j < Lk; ++j)
        if (s.exact[row + j])
          for (Index d = 0; d < Dv; ++d) dv[j * Dv + d] += s.w[row + j] * douti[d];
      continue;
    }

    // out_i = sum_j w_ij v_j:  dW_ij = dout_i . v_j,  dv_j += w_ij dout_i.
    // w = softmax(logit):      dlogit_ij = w_ij (dW_ij - sum_l w_il dW_il).
    double mean_dw = 0.0;
    for (Index j = 0; j < Lk; ++j) {
      dw[j] = 0.0;
      if (!s.visible[row + j]) continue;
      for (Index d = 0; d < Dv; ++d) {
        dw[j] += douti[d] * s.v[j * Dv + d];
        dv[j * Dv + d] += s.w[row + j] * douti[d];
      }
      mean_dw += s.w[row + j] * dw[j];
    }
    for (Index j = 0; j < Lk; ++j) {
      const double dl = s.visible[row + j] ? s.w[row + j] * (dw[j] - mean_dw) : 0.0;
      if (dlogit) dlogit[row + j] = dl;
      if (sums && in.q_times && dl != 0.0) time_decay_backward(*sums, dl, s, in, spec, r, i, j);
      // logit = z * decay * inv_temperature + terms
      g[j] = dl * s.decay[row + j] * r.inv_temperature;
    }

    if (spec.zscore) {
      // z = (x - mean) / sigma over the visible keys:
      // dx = (dz - mean(dz) - z mean(dz z)) / sigma.
      double mean_g = 0.0, mean_gz = 0.0, count = 0.0;
      for (Index j = 0; j < Lk; ++j) {
        if (!s.visible[row + j]) continue;
        mean_g += g[j];
        mean_gz += g[j] * s.z[row + j];
        count += 1.0;
      }
      mean_g /= count;
      mean_gz /= count;
      for (Index j = 0; j < Lk; ++j)
        if (s.visible[row + j]) g[j] = (g[j] - mean_g - s.z[row + j] * mean_gz) / s.sigma[i];
    }

    for (Index j = 0; j < Lk; ++j)
      if (s.visible[row + j] && g[j] != 0.0)
        similarity_backward(&dq[i * D], &dk[j * D], g[j], s, in, spec, r, i, j);
    if (sums && spec.normalizer == Normalizer::kFuzzy) {
      // sim = -a ln(d2 + eps), a = 1/(m - 1): d sim / d m = a^2 ln(d2 + eps).
      for (Index j = 0; j < Lk; ++j)
        if (s.visible[row + j] && g[j] != 0.0)
          sums->dsim_logd +=
              g[j] * std::log(squared_distance(&s.q[i * D], &s.k[j * D], D) + spec.fuzzy_eps);
    }
  }
}

// Adds one head's logit gradients into the (double) accumulators of the score-term parameters.
void accumulate_term_grads(double* dbias, double* drel_bias, double* dkey_boost,
                           const double* dlogit, const AttentionInputs& in,
                           const AttentionSpec& spec, const ResolvedSpec& r, Index b, Index h) {
  const Index Lq = in.Lq, Lk = in.Lk;
  for (Index i = 0; i < Lq; ++i) {
    for (Index j = 0; j < Lk; ++j) {
      const double dl = dlogit[i * Lk + j];
      if (dl == 0.0) continue;
      if (dbias) dbias[bias_index(in.bias, b, h, i, j)] += dl;  // bias's own contiguous shape
      if (drel_bias) {
        const Index rel = j - (i + r.pos_offset);
        drel_bias[h * spec.rel_buckets + t5_relative_bucket(rel, spec.rel_buckets,
                                                            spec.rel_max_distance,
                                                            spec.rel_bidirectional)] += dl;
      }
      if (dkey_boost && !in.boost_gate) dkey_boost[b * Lk + j] += dl;
    }
  }
}

// Adds one head's logit gradients through the gated key boost g_ij c_j (c = key_boost):
// d/dc_j = g_ij, d/d(u_i or v_j) = g_ij (1 - g_ij) c_j; then dq_i += du_i w_q, dk_j += dv_j w_k and
// the gate's own gradient (boost_gate.h). s holds the head's recomputed forward.
void accumulate_gate_grads(const AttentionGrads& grads, double* dkey_boost, double* dgate,
                           const double* dlogit, const HeadState& s, const AttentionInputs& in) {
  const Index Lq = in.Lq, Lk = in.Lk, D = in.D, G = 2 * D + 1;
  const Index bh = s.b * in.H + s.h;
  const float* gate = in.boost_gate + s.h * G;
  std::vector<double> du(static_cast<size_t>(Lq), 0.0), dv(static_cast<size_t>(Lk), 0.0);
  for (Index i = 0; i < Lq; ++i)
    for (Index j = 0; j < Lk; ++j) {
      const double dl = dlogit[i * Lk + j];
      if (dl == 0.0) continue;
      const double g = boost_gate_value(s, in, i, j), c = in.key_boost[s.b * Lk + j];
      if (dkey_boost) dkey_boost[s.b * Lk + j] += dl * g;
      du[static_cast<size_t>(i)] += dl * g * (1.0 - g) * c;
      dv[static_cast<size_t>(j)] += dl * g * (1.0 - g) * c;
    }
  for (Index i = 0; i < Lq; ++i) {
    const double g = du[static_cast<size_t>(i)];
    if (grads.dq)
      for (Index d = 0; d < D; ++d) grads.dq[(bh * Lq + i) * D + d] += static_cast<float>(g * gate[d]);
    if (dgate) {
      for (Index d = 0; d < D; ++d) dgate[s.h * G + d] += g * s.q[i * D + d];
      dgate[s.h * G + 2 * D] += g;
    }
  }
  for (Index j = 0; j < Lk; ++j) {
    const double g = dv[static_cast<size_t>(j)];
    if (grads.dk)
      for (Index d = 0; d < D; ++d) grads.dk[(bh * Lk + j) * D + d] += static_cast<float>(g * gate[D + d]);
    if (dgate)
      for (Index d = 0; d < D; ++d) dgate[s.h * G + D + d] += g * s.k[j * D + d];
  }
}

void add_into(float* dst, const double* src, Index n) {
  for (Index e = 0; e < n; ++e) dst[e] += static_cast<float>(src[e]);
}

}  // namespace

void reference_backward(const AttentionGrads& grads, const float* dout, const float* /*out*/,
                        const float* /*lse*/, const AttentionInputs& in,
                        const AttentionSpec& spec) {
  // The reference recomputes the whole forward in double (including lse) rather than trusting the
  // float lse passed in: it is the yardstick, so it depends on nothing but the inputs.
  const ResolvedSpec r = resolve_spec(in, spec);
  const Index B = in.B, H = in.H, Lq = in.Lq, Lk = in.Lk, D = in.D, Dv = in.Dv;
  const bool want_gate = in.boost_gate && (grads.dq || grads.dk || grads.dkey_boost || grads.dboost_gate);
  const bool want_terms = grads.dbias || grads.drel_bias || grads.dkey_boost || want_gate;
  const bool want_scalars = grads.dm || grads.dtime_decay;
  std::vector<ScalarSums> head_sums(want_scalars ? static_cast<size_t>(B * H) : 0);

  const Index bias_count =
      in.bias.empty() ? 0
                      : in.bias.shape[0] * in.bias.shape[1] * in.bias.shape[2] * in.bias.shape[3];
  std::vector<double> dbias(grads.dbias ? static_cast<size_t>(bias_count) : 0);
  std::vector<double> drel_bias(grads.drel_bias ? static_cast<size_t>(H * spec.rel_buckets) : 0);
  std::vector<double> dkey_boost(grads.dkey_boost ? static_cast<size_t>(B * Lk) : 0);
  std::vector<double> dgate(grads.dboost_gate ? static_cast<size_t>(H * (2 * D + 1)) : 0);

  // Heads run in batches; each batch's logit gradients are reduced serially in (b, h) order.
  const int threads = resolve_threads(spec.threads);
  const Index batch = want_terms ? std::max<Index>(1, 4 * threads) : B * H;
  std::vector<double> dlogits(want_terms ? static_cast<size_t>(batch * Lq * Lk) : 0);

  HeadState gate_head;  // q and k of the head whose gate gradients are being reduced
  for (Index first = 0; first < B * H; first += batch) {
    const Index last = std::min(B * H, first + batch);
#pragma omp parallel num_threads(threads)
    {
      HeadState s;
      std::vector<double> dq, dk, dv;
#pragma omp for schedule(dynamic)
      for (Index bh = first; bh < last; ++bh) {
        compute_head_weights(s, in, spec, r, bh / H, bh % H);
        dq.assign(static_cast<size_t>(Lq * D), 0.0);
        dk.assign(static_cast<size_t>(Lk * D), 0.0);
        dv.assign(static_cast<size_t>(Lk * Dv), 0.0);
        double* dlogit =
            want_terms ? &dlogits[static_cast<size_t>((bh - first) * Lq * Lk)] : nullptr;
        if (dlogit) std::fill(dlogit, dlogit + Lq * Lk, 0.0);
        ScalarSums* sums = want_scalars ? &head_sums[static_cast<size_t>(bh)] : nullptr;
        head_backward(dq.data(), dk.data(), dv.data(), dlogit, sums, s, dout + bh * Lq * Dv, in,
                      spec, r);
        if (grads.dq) add_into(grads.dq + bh * Lq * D, dq.data(), Lq * D);
        if (grads.dk) add_into(grads.dk + bh * Lk * D, dk.data(), Lk * D);
        if (grads.dv) add_into(grads.dv + bh * Lk * Dv, dv.data(), Lk * Dv);
      }
    }
    if (want_terms)
      for (Index bh = first; bh < last; ++bh) {
        const double* dlogit = &dlogits[static_cast<size_t>((bh - first) * Lq * Lk)];
        accumulate_term_grads(
            grads.dbias ? dbias.data() : nullptr, grads.drel_bias ? drel_bias.data() : nullptr,
            grads.dkey_boost ? dkey_boost.data() : nullptr, dlogit, in, spec, r, bh / H, bh % H);
        if (want_gate) {
          gate_head.b = bh / H;
          gate_head.h = bh % H;
          load_head(gate_head, in, gate_head.b, gate_head.h);
          accumulate_gate_grads(grads, grads.dkey_boost ? dkey_boost.data() : nullptr,
                                grads.dboost_gate ? dgate.data() : nullptr, dlogit, gate_head, in);
        }
      }
  }
  if (grads.dbias) add_into(grads.dbias, dbias.data(), bias_count);
  if (grads.drel_bias) add_into(grads.drel_bias, drel_bias.data(), H * spec.rel_buckets);
  if (grads.dkey_boost) add_into(grads.dkey_boost, dkey_boost.data(), B * Lk);
  if (grads.dboost_gate) add_into(grads.dboost_gate, dgate.data(), H * (2 * D + 1));
  ScalarSums total;  // heads in (b, h) order
  for (const ScalarSums& h : head_sums) {
    total.dsim_logd += h.dsim_logd;
    total.dtime_decay += h.dtime_decay;
  }
  if (grads.dm) {
    const double a = 1.0 / (static_cast<double>(spec.m) - 1.0);
    *grads.dm += static_cast<float>(a * a * total.dsim_logd);
  }
  if (grads.dtime_decay) *grads.dtime_decay += static_cast<float>(total.dtime_decay);
}

}  // namespace kessel::attention_detail
