// The staged score path of the fused kernels (types in staged_scores.h).
//
// Per-target code: fused_dispatch.cc includes this file once per Highway target (foreach_target.h
// re-includes it; the guard below toggles with HWY_TARGET_TOGGLE), so everything here is compiled
// with that target's instruction set, the compiler's own vectorization of the plain loops included.
#if defined(KESSEL_ATTENTION_STAGED_SCORES_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef KESSEL_ATTENTION_STAGED_SCORES_INL_H_
#undef KESSEL_ATTENTION_STAGED_SCORES_INL_H_
#else
#define KESSEL_ATTENTION_STAGED_SCORES_INL_H_
#endif

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <vector>

#include "attention/fused_backward_scores.h"
#include "attention/fused_common-inl.h"
#include "attention/staged_scores.h"
#include "attention/tile_kernels.h"
#include "hwy/highway.h"

HWY_BEFORE_NAMESPACE();
namespace kessel::attention_detail {
namespace HWY_NAMESPACE {
// Raw product Q K^T of tile k of the list zscore_statistics last ran over, into st: copied when kept
// (the same bits as recomputing it), else computed from lt. `tile` must be that list's tile k.
void tile_raw_product(float* st, const StagedScratch& ss, const FusedContext& ctx,
                      const QueryBlock& blk, const LoadedTile& lt, const KeyTile& tile, Index k);

// Step 1. st: raw products in, similarity out, for every element of the tile (masks not applied;
// rows beyond blk.nq hold finite filler). Keeps what the backward needs in ss (raw, d2, sg) and
// lists the fuzzy exact-match candidates (rows < nq, masks not checked) in ss.exact.
void staged_similarity(float* st, StagedScratch& ss, const FusedContext& ctx, const QueryBlock& blk,
                       const KeyTile& tile, const LoadedTile& lt);

// Steps 2-5 on a tile of similarities: zscore (blk's statistics), multiplicative decay and
// temperature, then the additive terms. With keep, ss.z and ss.mult receive z and d logit / d z.
void staged_terms(float* st, StagedScratch& ss, const FusedContext& ctx, const QueryBlock& blk,
                  const KeyTile& tile, bool keep);

// First pass for zscore: per-row mean and 1/sqrt(var + eps) of the similarity over the visible keys
// of `tiles`, into blk.z_mean, blk.z_inv_sigma, blk.z_count. `st` is scratch of kBlockK * kBlockQ floats.
// Keeps the tiles' raw products in ss.products when they fit (see tile_raw_product).
void zscore_statistics(QueryBlock& blk, StagedScratch& ss, const FusedContext& ctx,
                       const std::vector<KeyTile>& tiles, LoadedTile& lt, float* st);

// Logits of one tile from its raw products (hidden -> -inf). Fuzzy exact matches are reported
// through on_exact(ii, t) and get logit -inf (the row's crisp mean replaces its output).
template <typename OnExact>
void staged_logits(float* st, StagedScratch& ss, const FusedContext& ctx, const QueryBlock& blk,
                   const KeyTile& tile, const LoadedTile& lt, OnExact&& on_exact) {
  staged_similarity(st, ss, ctx, blk, tile, lt);
  staged_terms(st, ss, ctx, blk, tile, false);
  if (tile.kind == TileKind::kPartial) mask_partial_tile(st, ctx, blk, tile, kNegInf);
  for (const Index e : ss.exact) {
    const Index t = e / kBlockQ, ii = e % kBlockQ;
    if (tile.kind == TileKind::kPartial &&
        !key_visible(ctx.in, ctx.spec, ctx.r, blk.b, blk.h, blk.i0 + ii, tile.key(t)))
      continue;
    on_exact(ii, t);
    st[e] = kNegInf;
  }
}

// The backward of one tile on the staged path (see backward_tile_scores, fused_backward_scores.h).
void staged_backward(float* st, float* dp, TileGrads& tg, StagedScratch& ss, const FusedContext& ctx,
                     const QueryBlock& blk, const BackwardRows& rows, const KeyTile& tile,
                     const LoadedTile& lt, const DlogitSink& sink);

namespace staged_detail {

// 0, 1, ..., kBlockQ - 1 as floats: a row's offset inside its query block.
const std::array<float, kBlockQ> kRowOffset = [] {
  std::array<float, kBlockQ> a{};
  for (Index ii = 0; ii < kBlockQ; ++ii) a[static_cast<size_t>(ii)] = static_cast<float>(ii);
  return a;
}();

float* tile_buffer(std::vector<float>& v) {
  v.resize(static_cast<size_t>(kBlockK * kBlockQ));
  return v.data();
}

bool time_decay_on(const FusedContext& ctx) {
  return ctx.in.q_times != nullptr && ctx.spec.time_decay != 0.0f;
}

bool multiplicative_decay_on(const FusedContext& ctx) {
  return time_decay_on(ctx) && ctx.spec.time_decay_mode == TimeDecayMode::kMultiplicative;
}

// d2 = |q|^2 + |k|^2 - 2 q.k from the raw products in st, into d2. Where cancellation makes that
// imprecise (kCancellationRatio, fused_common.h) it is recomputed directly. Fuzzy exact matches
// (d2 <= fuzzy_match_tol (|q|^2 + |k|^2)) of rows < nq are listed in ss.exact.
void squared_distances(float* d2, const float* st, StagedScratch& ss, const FusedContext& ctx,
                       const QueryBlock& blk, const KeyTile& tile, const LoadedTile& lt) {
  const float* nq2 = blk.q_sqnorm.data();
  const float tol = ctx.fuzzy ? ctx.spec.fuzzy_match_tol : 0.0f;
  const float close = std::max(kCancellationRatio, tol);  // rows that need a second look
  for (Index t = 0; t < tile.n; ++t) {
    const float* raw = st + t * kBlockQ;
    float* d = d2 + t * kBlockQ;
    const float nk2 = lt.k_sqnorm[static_cast<size_t>(t)];
    int any_close = 0;
    for (Index ii = 0; ii < kBlockQ; ++ii) {
      const float e = nq2[ii] + nk2 - 2.0f * raw[ii];
      any_close |= (ii < blk.nq) & (e <= close * (nq2[ii] + nk2));
      d[ii] = e;
    }
    if (!any_close) continue;
    for (Index ii = 0; ii < blk.nq; ++ii) {
      if (!(d[ii] <= close * (nq2[ii] + nk2))) continue;
      d[ii] = tile_sq_distance(blk, ii, lt.k + t * lt.ldk, ctx.in.D, raw[ii], nq2[ii], nk2);
      if (ctx.fuzzy && fuzzy_exact_match(ctx, d[ii], nq2[ii], nk2)) ss.exact.push_back(t * kBlockQ + ii);
    }
  }
}

Index rel_bucket(const FusedContext& ctx, Index rel) {
  return t5_relative_bucket(rel, ctx.spec.rel_buckets, ctx.spec.rel_max_distance,
                            ctx.spec.rel_bidirectional);
}

// T5 buckets of a contiguous tile: bucket values over the relative positions rel = j - pos_q that
// the tile's (row, key) pairs take, rel_min first; null for a strided (bridge) tile.
const float* rel_bias_table(StagedScratch& ss, const FusedContext& ctx, const QueryBlock& blk,
                            const KeyTile& tile, Index* rel_min) {
  if (tile.stride != 1) return nullptr;
  const Index p0 = blk.i0 + ctx.r.pos_offset;
  *rel_min = tile.j0 - (p0 + kBlockQ - 1);
  const Index span = tile.n + kBlockQ - 1;
  const float* table = ctx.in.rel_bias + blk.h * ctx.spec.rel_buckets;
  ss.rel.resize(static_cast<size_t>(span));
  for (Index r = 0; r < span; ++r) ss.rel[static_cast<size_t>(r)] = table[rel_bucket(ctx, *rel_min + r)];
  return ss.rel.data();
}

// Step 5: bias, ALiBi, T5 buckets, additive time decay and key boost, added to st.
void add_score_terms(float* st, StagedScratch& ss, const FusedContext& ctx, const QueryBlock& blk,
                     const KeyTile& tile, const float* tq) {
  const AttentionInputs& in = ctx.in;
  const Index n = tile.n, nq = blk.nq;
  const Index p0 = blk.i0 + ctx.r.pos_offset;  // position of the block's first query
  if (!in.bias.empty()) {
    const auto& s = in.bias.strides;
    const float* base = in.bias.data + blk.b * s[0] + blk.h * s[1] + blk.i0 * s[2];
    for (Index t = 0; t < n; ++t) {
      const float* col = base + tile.key(t) * s[3];
      float* row = st + t * kBlockQ;
      for (Index ii = 0; ii < nq; ++ii) row[ii] += col[ii * s[2]];
    }
  }
  if (!in.alibi_slopes.empty()) {
    const float slope = in.alibi_slopes[static_cast<size_t>(blk.h)];
    const float* off = kRowOffset.data();
    for (Index t = 0; t < n; ++t) {
      const float rel0 = static_cast<float>(tile.key(t) - p0);  // rel of row 0; exact below 2^24
      float* row = st + t * kBlockQ;
      for (Index ii = 0; ii < kBlockQ; ++ii) row[ii] -= slope * std::fabs(rel0 - off[ii]);
    }
  }
  if (in.rel_bias) {
    Index rel_min = 0;
    if (const float* values = rel_bias_table(ss, ctx, blk, tile, &rel_min)) {
      for (Index t = 0; t < n; ++t) {
        const float* at_row0 = values + (tile.key(t) - p0 - rel_min);  // rel of row ii: at_row0[-ii]
        float* row = st + t * kBlockQ;
        for (Index ii = 0; ii < kBlockQ; ++ii) row[ii] += at_row0[-ii];
      }
    } else {
      const float* table = in.rel_bias + blk.h * ctx.spec.rel_buckets;
      for (Index t = 0; t < n; ++t)
        for (Index ii = 0; ii < nq; ++ii)
          st[t * kBlockQ + ii] += table[rel_bucket(ctx, tile.key(t) - (p0 + ii))];
    }
  }
  if (time_decay_on(ctx) && ctx.spec.time_decay_mode == TimeDecayMode::kAdditive) {
    const float lambda = ctx.spec.time_decay;
    for (Index t = 0; t < n; ++t) {
      const float tk = in.k_times[blk.b * in.Lk + tile.key(t)];
      float* row = st + t * kBlockQ;
      for (Index ii = 0; ii < kBlockQ; ++ii) row[ii] -= lambda * std::fabs(tq[ii] - tk);
    }
  }
  if (in.key_boost && ctx.gated()) {  // g_ij key_boost[j], g_ij = sigmoid(u_i + v_j) (boost_gate.h)
    const Index bh = blk.b * in.H + blk.h;
    const float* u = ctx.gate.row.data() + bh * in.Lq + blk.i0;
    for (Index t = 0; t < n; ++t) {
      const float boost = in.key_boost[blk.b * in.Lk + tile.key(t)];
      const float v = ctx.gate.key[static_cast<size_t>(bh * in.Lk + tile.key(t))];
      float* row = st + t * kBlockQ;
      for (Index ii = 0; ii < nq; ++ii) row[ii] += gate_sigmoid(u[ii] + v) * boost;
    }
  } else if (in.key_boost) {
    for (Index t = 0; t < n; ++t) {
      const float boost = in.key_boost[blk.b * in.Lk + tile.key(t)];
      float* row = st + t * kBlockQ;
      for (Index ii = 0; ii < kBlockQ; ++ii) row[ii] += boost;
    }
  }
}

// dS of every taking-part element through the gated key boost g c (c = key_boost[j]):
// dkey_boost_j += g dS, du_i and dv_j += g (1 - g) c dS (boost_gate.h).
void gate_grads(const float* ds, const FusedContext& ctx, const QueryBlock& blk, const KeyTile& tile,
                const DlogitSink& sink) {
  const AttentionInputs& in = ctx.in;
  const Index bh = blk.b * in.H + blk.h;
  const float* u = ctx.gate.row.data() + bh * in.Lq + blk.i0;
  for (Index t = 0; t < tile.n; ++t) {
    const float* d = ds + t * kBlockQ;
    const Index j = tile.key(t);
    const float c = in.key_boost[blk.b * in.Lk + j];
    const float v = ctx.gate.key[static_cast<size_t>(bh * in.Lk + j)];
    float boost_sum = 0.0f, key_sum = 0.0f;
    for (Index ii = 0; ii < blk.nq; ++ii) {  // dS is 0 where not taking part
      const float g = gate_sigmoid(u[ii] + v);
      boost_sum += d[ii] * g;
      const float e = d[ii] * g * (1.0f - g) * c;
      key_sum += e;
      if (sink.dgate_row) sink.dgate_row[blk.i0 + ii] += e;
    }
    if (sink.dkey_boost) sink.dkey_boost[j] += boost_sum;
    if (sink.dgate_key) sink.dgate_key[j] += key_sum;
  }
}

// 1 where element (t, ii) takes part, else 0: rows with row_ok[ii] set and, in a partial tile, a
// visible key.
void tile_visibility(float* vis, const float* row_ok, const FusedContext& ctx, const QueryBlock& blk,
                     const KeyTile& tile) {
  for (Index t = 0; t < tile.n; ++t) std::copy_n(row_ok, kBlockQ, vis + t * kBlockQ);
  if (tile.kind == TileKind::kPartial) mask_partial_tile(vis, ctx, blk, tile, 0.0f);
}

// dS of every taking-part element into the score terms' gradients: key boost, T5 buckets, bias.
void score_term_grads(const float* ds, const float* vis, const FusedContext& ctx,
                      const QueryBlock& blk, const KeyTile& tile, const DlogitSink& sink) {
  const Index p0 = blk.i0 + ctx.r.pos_offset;
  for (Index t = 0; t < tile.n; ++t) {
    const float* d = ds + t * kBlockQ;
    const float* v = vis + t * kBlockQ;
    const Index j = tile.key(t);
    if (sink.dkey_boost && !ctx.gated()) {
      float sum = 0.0f;
      for (Index ii = 0; ii < kBlockQ; ++ii) sum += d[ii];  // 0 where not taking part
      sink.dkey_boost[j] += sum;
    }
    if (!sink.drel_bias && !sink.dbias) continue;
    for (Index ii = 0; ii < blk.nq; ++ii) {
      if (v[ii] == 0.0f) continue;
      if (sink.drel_bias) sink.drel_bias[rel_bucket(ctx, j - (p0 + ii))] += d[ii];
      if (sink.dbias) sink.dbias[bias_index(ctx.in.bias, blk.b, blk.h, blk.i0 + ii, j)] += d[ii];
    }
  }
}

// dS of every taking-part element into the time-decay rate's gradient (sink.dtime_decay):
// d logit / d lambda = -|t_i - t_j| (additive), -|t_i - t_j| z mult (multiplicative, mult =
// exp(-lambda |dt|) / temperature). Elements not taking part have dS = 0.
void time_decay_grad(const float* ds, const StagedScratch& ss, const FusedContext& ctx,
                     const QueryBlock& blk, const KeyTile& tile, const DlogitSink& sink) {
  const AttentionInputs& in = ctx.in;
  const float* tq = in.q_times + blk.b * in.Lq + blk.i0;
  const bool multiplicative = ctx.spec.time_decay_mode == TimeDecayMode::kMultiplicative;
  const float* z = multiplicative ? ss.z.data() : nullptr;
  const float* mult = multiplicative_decay_on(ctx) ? ss.mult.data() : nullptr;
  const float inv_temperature = ctx.r.inv_temperature;
  double total = 0.0;
  for (Index t = 0; t < tile.n; ++t) {
    const float tk = in.k_times[blk.b * in.Lk + tile.key(t)];
    const Index e0 = t * kBlockQ;
    float sum = 0.0f;
    for (Index ii = 0; ii < blk.nq; ++ii) {
      float slope = std::fabs(tq[ii] - tk);
      if (multiplicative) slope *= z[e0 + ii] * (mult ? mult[e0 + ii] : inv_temperature);
      sum -= ds[e0 + ii] * slope;
    }
    total += sum;
  }
  *sink.dtime_decay += total;
}

// dsim of every taking-part element into the fuzzy dm sum (sink.dsim_logd): dsim ln(d2 + eps).
void fuzzy_m_grad(const float* dsim, StagedScratch& ss, const FusedContext& ctx,
                  const KeyTile& tile, const DlogitSink& sink) {
  const Index size = tile.n * kBlockQ;
  float* logd = tile_buffer(ss.logd);
  const float eps = ctx.spec.fuzzy_eps;
  const float* d2 = ss.d2.data();
  for (Index e = 0; e < size; ++e) logd[e] = d2[e] + eps;
  ctx.k.log_array(logd, logd, size);
  float sum = 0.0f;
  for (Index e = 0; e < size; ++e) sum += dsim[e] == 0.0f ? 0.0f : dsim[e] * logd[e];
  *sink.dsim_logd += sum;
}

}  // namespace staged_detail
using namespace staged_detail;  // NOLINT: this file's helpers, for the functions below

void staged_similarity(float* st, StagedScratch& ss, const FusedContext& ctx, const QueryBlock& blk,
                       const KeyTile& tile, const LoadedTile& lt) {
  const AttentionSpec& spec = ctx.spec;
  const Index size = tile.n * kBlockQ;
  ss.exact.clear();
  if (ctx.fuzzy || spec.similarity == Similarity::kNegSqEuclidean) {
    float* d2 = tile_buffer(ss.d2);
    squared_distances(d2, st, ss, ctx, blk, tile, lt);
    if (ctx.fuzzy) {  // -ln(d2 + eps) / (m - 1)
      const float eps = spec.fuzzy_eps, a = ctx.fuzzy_a;
      for (Index e = 0; e < size; ++e) st[e] = d2[e] + eps;
      ctx.k.log_array(st, st, size);
      for (Index e = 0; e < size; ++e) st[e] *= -a;
    } else {
      for (Index e = 0; e < size; ++e) st[e] = -d2[e];
    }
  } else if (spec.similarity == Similarity::kDot) {
    const float c = ctx.r.scale;
    for (Index e = 0; e < size; ++e) st[e] *= c;
  } else {  // cosine kinds: raw / (|q| |k|), norms floored at cosine_eps
    float* raw = tile_buffer(ss.raw);
    std::copy_n(st, size, raw);
    ss.inv_qn.assign(kBlockQ, 0.0f);
    for (Index ii = 0; ii < blk.nq; ++ii)
      ss.inv_qn[static_cast<size_t>(ii)] = 1.0f / blk.q_norm[static_cast<size_t>(ii)];
    const float* iq = ss.inv_qn.data();
    for (Index t = 0; t < tile.n; ++t) {
      const float ik = 1.0f / lt.k_norm[static_cast<size_t>(t)];
      float* row = st + t * kBlockQ;
      for (Index ii = 0; ii < kBlockQ; ++ii) row[ii] = row[ii] * iq[ii] * ik;
    }
    if (spec.similarity == Similarity::kConstrainedCosine) {  // (1 - beta) cos + beta sigmoid(scale raw)
      float* sg = tile_buffer(ss.sg);
      const float c = -ctx.r.scale, beta = spec.beta;
      for (Index e = 0; e < size; ++e) sg[e] = c * raw[e];
      ctx.k.exp_array(sg, sg, size);
      for (Index e = 0; e < size; ++e) {
        sg[e] = 1.0f / (1.0f + sg[e]);
        st[e] = (1.0f - beta) * st[e] + beta * sg[e];
      }
    }
  }
  if (blk.nq < kBlockQ)  // finite filler for the rows beyond the block
    for (Index t = 0; t < tile.n; ++t) std::fill(st + t * kBlockQ + blk.nq, st + (t + 1) * kBlockQ, 0.0f);
}

void staged_terms(float* st, StagedScratch& ss, const FusedContext& ctx, const QueryBlock& blk,
                  const KeyTile& tile, bool keep) {
  const AttentionInputs& in = ctx.in;
  const Index size = tile.n * kBlockQ;
  if (ctx.spec.zscore) {  // step 2
    const float* mean = blk.z_mean.data();
    const float* inv_sigma = blk.z_inv_sigma.data();
    for (Index t = 0; t < tile.n; ++t) {
      float* row = st + t * kBlockQ;
      for (Index ii = 0; ii < kBlockQ; ++ii) row[ii] = (row[ii] - mean[ii]) * inv_sigma[ii];
    }
    if (keep) std::copy_n(st, size, tile_buffer(ss.z));
  } else if (keep && in.q_times && ctx.spec.time_decay_mode == TimeDecayMode::kMultiplicative) {
    std::copy_n(st, size, tile_buffer(ss.z));  // the lambda gradient's z (also at lambda = 0)
  }
  ss.tq.assign(kBlockQ, 0.0f);  // query times (0 beyond nq)
  if (time_decay_on(ctx))
    std::copy_n(in.q_times + blk.b * in.Lq + blk.i0, blk.nq, ss.tq.begin());
  const float* tq = ss.tq.data();
  const float inv_temperature = ctx.r.inv_temperature;
  if (multiplicative_decay_on(ctx)) {  // steps 3-4: z * exp(-lambda |t_i - t_j|) / temperature
    float* mult = tile_buffer(ss.mult);
    const float neg_lambda = -ctx.spec.time_decay;
    for (Index t = 0; t < tile.n; ++t) {
      const float tk = in.k_times[blk.b * in.Lk + tile.key(t)];
      float* m = mult + t * kBlockQ;
      for (Index ii = 0; ii < kBlockQ; ++ii) m[ii] = neg_lambda * std::fabs(tq[ii] - tk);
    }
    ctx.k.exp_array(mult, mult, size);
    for (Index e = 0; e < size; ++e) {
      mult[e] *= inv_temperature;
      st[e] *= mult[e];
    }
  } else if (inv_temperature != 1.0f) {
    for (Index e = 0; e < size; ++e) st[e] *= inv_temperature;
  }
  add_score_terms(st, ss, ctx, blk, tile, tq);
}

void zscore_statistics(QueryBlock& blk, StagedScratch& ss, const FusedContext& ctx,
                       const std::vector<KeyTile>& tiles, LoadedTile& lt, float* st) {
  // Per row, each tile's (count, mean, M2) in two passes, merged across tiles in double (Chan et
  // al.): stable where E[x^2] - E[x]^2 is not. Within a tile (at most kBlockK keys) the sums are
  // float, so the loops over the block's rows run at full vector width; their rounding stays below
  // that of the float similarities themselves (FusedForward.ZscoreStatisticsSurviveALargeCommonOffset),
  // and the merge in double carries the precision across tiles.
  std::array<double, kBlockQ> count{}, mean{}, m2{};
  alignas(64) float n[kBlockQ], sum[kBlockQ], sq[kBlockQ];
  float in_block[kBlockQ];
  for (Index ii = 0; ii < kBlockQ; ++ii) in_block[ii] = ii < blk.nq ? 1.0f : 0.0f;
  const Index tile_size = kBlockK * kBlockQ;
  const Index ntiles = static_cast<Index>(tiles.size());
  ss.products_kept = ntiles <= kMaxKeptProductTiles ? ntiles : 0;
  if (ss.products_kept > 0 && static_cast<Index>(ss.products.size()) < ntiles * tile_size)
    ss.products.resize(static_cast<size_t>(ntiles * tile_size));
  for (Index k = 0; k < ntiles; ++k) {
    const KeyTile& tile = tiles[static_cast<size_t>(k)];
    load_key_tile(lt, ctx, blk.b, blk.h, tile, false);
    ctx.k.rows_times_packed(st, kBlockQ, lt.k, lt.ldk, blk.qt.data(), kBlockQ, tile.n, kBlockQ,
                            ctx.in.D);
    if (ss.products_kept > 0) std::copy_n(st, tile.n * kBlockQ, ss.products.data() + k * tile_size);
    staged_similarity(st, ss, ctx, blk, tile, lt);
    // Which elements count: rows < nq, visible keys.
    float* vis = tile_buffer(ss.vis);
    tile_visibility(vis, in_block, ctx, blk, tile);
    for (Index ii = 0; ii < kBlockQ; ++ii) n[ii] = sum[ii] = sq[ii] = 0.0f;
    for (Index t = 0; t < tile.n; ++t) {
      const float* x = st + t * kBlockQ;
      const float* v = vis + t * kBlockQ;
      for (Index ii = 0; ii < kBlockQ; ++ii) {
        n[ii] += v[ii];
        sum[ii] += v[ii] != 0.0f ? x[ii] : 0.0f;
      }
    }
    for (Index ii = 0; ii < kBlockQ; ++ii) sum[ii] = n[ii] > 0.0f ? sum[ii] / n[ii] : 0.0f;  // tile mean
    for (Index t = 0; t < tile.n; ++t) {
      const float* x = st + t * kBlockQ;
      const float* v = vis + t * kBlockQ;
      for (Index ii = 0; ii < kBlockQ; ++ii) {
        const float dx = v[ii] != 0.0f ? x[ii] - sum[ii] : 0.0f;
        sq[ii] += dx * dx;
      }
    }
    for (Index ii = 0; ii < blk.nq; ++ii) {
      if (n[ii] == 0.0f) continue;
      const double na = count[ii], nb = n[ii], nt = na + nb;
      const double delta = static_cast<double>(sum[ii]) - mean[ii];
      mean[ii] += delta * nb / nt;
      m2[ii] += static_cast<double>(sq[ii]) + delta * delta * na * nb / nt;
      count[ii] = nt;
    }
  }
  blk.z_mean.assign(kBlockQ, 0.0f);
  blk.z_inv_sigma.assign(kBlockQ, 0.0f);
  blk.z_count.assign(kBlockQ, 0.0f);
  for (Index ii = 0; ii < blk.nq; ++ii) {
    const size_t u = static_cast<size_t>(ii);
    if (count[u] == 0.0) continue;
    blk.z_mean[u] = static_cast<float>(mean[u]);
    blk.z_inv_sigma[u] = static_cast<float>(1.0 / std::sqrt(m2[u] / count[u] + ctx.spec.zscore_eps));
    blk.z_count[u] = static_cast<float>(count[u]);
  }
}

void tile_raw_product(float* st, const StagedScratch& ss, const FusedContext& ctx,
                      const QueryBlock& blk, const LoadedTile& lt, const KeyTile& tile, Index k) {
  if (k < ss.products_kept) {
    std::copy_n(ss.products.data() + k * kBlockK * kBlockQ, tile.n * kBlockQ, st);
    return;
  }
  ctx.k.rows_times_packed(st, kBlockQ, lt.k, lt.ldk, blk.qt.data(), kBlockQ, tile.n, kBlockQ,
                          ctx.in.D);
}

void staged_backward(float* st, float* dp, TileGrads& tg, StagedScratch& ss, const FusedContext& ctx,
                     const QueryBlock& blk, const BackwardRows& rows, const KeyTile& tile,
                     const LoadedTile& lt, const DlogitSink& sink) {
  const AttentionSpec& spec = ctx.spec;
  const Index n = tile.n, size = n * kBlockQ;
  staged_similarity(st, ss, ctx, blk, tile, lt);
  staged_terms(st, ss, ctx, blk, tile, true);
  // Taking part: rows < nq with a finite lse (not crisp, not fully masked), visible keys.
  float row_ok[kBlockQ];
  for (Index ii = 0; ii < kBlockQ; ++ii)
    row_ok[ii] = ii < blk.nq && rows.lse[static_cast<size_t>(ii)] != kPosInf ? 1.0f : 0.0f;
  float* vis = tile_buffer(ss.vis);
  tile_visibility(vis, row_ok, ctx, blk, tile);

  // P = exp(logit - lse) where taking part, else 0; dS = P (dP - D_i) into dp.
  const float* lse = rows.lse.data();
  const float* drow = rows.drow.data();
  for (Index t = 0; t < n; ++t) {
    float* row = st + t * kBlockQ;
    const float* v = vis + t * kBlockQ;
    for (Index ii = 0; ii < kBlockQ; ++ii) row[ii] = v[ii] != 0.0f ? row[ii] - lse[ii] : kNegInf;
  }
  ctx.k.exp_array(st, st, size);
  for (Index t = 0; t < n; ++t) {
    const float* p = st + t * kBlockQ;
    float* d = dp + t * kBlockQ;
    for (Index ii = 0; ii < kBlockQ; ++ii) d[ii] = p[ii] * (d[ii] - drow[ii]);
  }

  // dz = dS * d logit / d z.
  const bool mult_tile = multiplicative_decay_on(ctx);
  const float* mult = mult_tile ? ss.mult.data() : nullptr;
  const float inv_temperature = ctx.r.inv_temperature;
  if (sink.zdz) {  // zscore statistics pass: sums of dz and dz z per row, nothing else
    const float* z = ss.z.data();
    for (Index t = 0; t < n; ++t)
      for (Index ii = 0; ii < kBlockQ; ++ii) {
        const Index e = t * kBlockQ + ii;
        if (vis[e] == 0.0f) continue;
        const float dz = dp[e] * (mult_tile ? mult[e] : inv_temperature);
        sink.zdz[ii] += dz;
        sink.zdzz[ii] += static_cast<double>(dz) * z[e];
      }
    return;
  }
  score_term_grads(dp, vis, ctx, blk, tile, sink);
  if (ctx.gated()) gate_grads(dp, ctx, blk, tile, sink);
  if (sink.dtime_decay) time_decay_grad(dp, ss, ctx, blk, tile, sink);
  if (mult_tile)
    for (Index e = 0; e < size; ++e) dp[e] *= mult[e];
  else if (inv_temperature != 1.0f)
    for (Index e = 0; e < size; ++e) dp[e] *= inv_temperature;
  if (spec.zscore) {  // dsim = (dz - mean_i(dz) - z mean_i(dz z)) / sigma_i
    const float* z = ss.z.data();
    const float* mdz = rows.zdz_mean.data();
    const float* mdzz = rows.zdzz_mean.data();
    const float* inv_sigma = blk.z_inv_sigma.data();
    for (Index t = 0; t < n; ++t) {
      float* d = dp + t * kBlockQ;
      const float* zt = z + t * kBlockQ;
      const float* v = vis + t * kBlockQ;
      for (Index ii = 0; ii < kBlockQ; ++ii)
        d[ii] = v[ii] != 0.0f ? (d[ii] - mdz[ii] - zt[ii] * mdzz[ii]) * inv_sigma[ii] : 0.0f;
    }
  }

  if (sink.dsim_logd && ctx.fuzzy) fuzzy_m_grad(dp, ss, ctx, tile, sink);

  // The similarity's backward: dp <- g, tg.hq / tg.hk <- the row and key sums of hq, hk.
  float* hq = tg.hq.data();
  if (ctx.fuzzy || spec.similarity == Similarity::kNegSqEuclidean) {
    // fuzzy: sim = -a ln(d2 + eps); neg_sq_euclidean: sim = -d2. d d2 = 2 (q - k) . (dq - dk).
    const float* d2 = ss.d2.data();
    const float a = ctx.fuzzy_a, eps = spec.fuzzy_eps;
    for (Index t = 0; t < n; ++t) {
      float* d = dp + t * kBlockQ;
      const float* dd = d2 + t * kBlockQ;
      float hsum = 0.0f;
      for (Index ii = 0; ii < kBlockQ; ++ii) {
        const float dsim = d[ii];
        const float dd2 = !ctx.fuzzy ? -dsim : dsim == 0.0f ? 0.0f : -a * dsim / (dd[ii] + eps);
        d[ii] = -2.0f * dd2;
        hq[ii] += 2.0f * dd2;
        hsum += 2.0f * dd2;
      }
      tg.hk[static_cast<size_t>(t)] += hsum;
    }
  } else if (spec.similarity == Similarity::kDot) {
    const float c = ctx.r.scale;
    for (Index e = 0; e < size; ++e) dp[e] *= c;
  } else {
    // cos = <q, k> / (nq nk), norms floored at cosine_eps (constant below the floor):
    // d cos / dq = k / (nq nk) - cos q / |q|^2; constrained: + beta sg (1 - sg) scale k.
    const bool constrained = spec.similarity == Similarity::kConstrainedCosine;
    const float w_cos = constrained ? 1.0f - spec.beta : 1.0f;
    const float w_dot = constrained ? spec.beta * ctx.r.scale : 0.0f;
    const float* raw = ss.raw.data();
    const float* sg = constrained ? ss.sg.data() : nullptr;
    const float* iq = ss.inv_qn.data();
    float hq_coef[kBlockQ];  // 1/|q|^2 above the floor, else 0
    for (Index ii = 0; ii < kBlockQ; ++ii) {
      const float nq2 = blk.q_sqnorm[static_cast<size_t>(ii)];
      hq_coef[ii] = ii < blk.nq && std::sqrt(nq2) > spec.cosine_eps ? 1.0f / nq2 : 0.0f;
    }
    for (Index t = 0; t < n; ++t) {
      const size_t ut = static_cast<size_t>(t);
      const float ik = 1.0f / lt.k_norm[ut];
      const float hk_coef = std::sqrt(lt.k_sqnorm[ut]) > spec.cosine_eps ? 1.0f / lt.k_sqnorm[ut] : 0.0f;
      float* d = dp + t * kBlockQ;
      const float* r = raw + t * kBlockQ;
      float hsum = 0.0f;
      for (Index ii = 0; ii < kBlockQ; ++ii) {
        const float inv_norms = iq[ii] * ik;
        const float cosv = r[ii] * inv_norms;
        const float g_cos = d[ii] * w_cos;
        float g = g_cos * inv_norms;
        if (constrained) {
          const float s = sg[t * kBlockQ + ii];
          g += d[ii] * w_dot * s * (1.0f - s);
        }
        const float h = -g_cos * cosv;
        d[ii] = g;
        hq[ii] += h * hq_coef[ii];
        hsum += h;
      }
      tg.hk[ut] += hsum * hk_coef;
    }
  }
}

}  // namespace HWY_NAMESPACE
}  // namespace kessel::attention_detail
HWY_AFTER_NAMESPACE();

#endif  // KESSEL_ATTENTION_STAGED_SCORES_INL_H_
