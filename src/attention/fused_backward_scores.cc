// Per-tile score backward of the fused path (see fused_backward_scores.h).
#include "attention/fused_backward_scores.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "attention/tile_kernels.h"

namespace kessel::attention_detail {
namespace {

constexpr float kPosInf = std::numeric_limits<float>::infinity();

// Index of element (b, h, i, j) in bias's own contiguous shape (broadcast dimensions collapse to 0).
inline Index bias_index(const Strided4<float>& bias, Index b, Index h, Index i, Index j) {
  const auto& s = bias.shape;
  return (((s[0] == 1 ? 0 : b) * s[1] + (s[1] == 1 ? 0 : h)) * s[2] + (s[2] == 1 ? 0 : i)) * s[3] +
         (s[3] == 1 ? 0 : j);
}

void add_term_grads(const FusedContext& ctx, const QueryBlock& blk, const DlogitSink& sink, Index ii,
                    Index j, float ds) {
  if (sink.dkey_boost) sink.dkey_boost[j] += ds;
  if (sink.drel_bias) {
    const Index rel = j - (blk.i0 + ii + ctx.r.pos_offset);
    sink.drel_bias[t5_relative_bucket(rel, ctx.spec.rel_buckets, ctx.spec.rel_max_distance,
                                      ctx.spec.rel_bidirectional)] += ds;
  }
  if (sink.dbias) sink.dbias[bias_index(ctx.in.bias, blk.b, blk.h, blk.i0 + ii, j)] += ds;
}

// The general path: score_terms.h per element (any similarity, zscore, decay, terms, masks).
void general_backward(float* st, float* dp, TileGrads& tg, const FusedContext& ctx,
                      const QueryBlock& blk, const BackwardRows& rows, const KeyTile& tile,
                      const LoadedTile& lt, const DlogitSink& sink) {
  const AttentionSpec& spec = ctx.spec;
  for (Index t = 0; t < tile.n; ++t) {
    const Index j = tile.key(t);
    float* srow = st + t * kBlockQ;
    float* drow = dp + t * kBlockQ;
    const size_t ut = static_cast<size_t>(t);
    const float nk2 = ctx.need_norms ? lt.k_sqnorm[ut] : 0.0f;
    const float kn = ctx.need_norms ? lt.k_norm[ut] : 0.0f;
    for (Index ii = 0; ii < kBlockQ; ++ii) {
      const size_t u = static_cast<size_t>(ii);
      if (ii >= blk.nq || rows.lse[u] == kPosInf ||
          (tile.kind == TileKind::kPartial &&
           !key_visible(ctx.in, spec, ctx.r, blk.b, blk.h, blk.i0 + ii, j))) {
        srow[ii] = 0.0f;
        drow[ii] = 0.0f;
        continue;
      }
      const float raw = srow[ii];
      const float nq2 = ctx.need_norms ? blk.q_sqnorm[u] : 0.0f;
      const float qn = ctx.need_norms ? blk.q_norm[u] : 0.0f;
      const float d2 = ctx.need_norms
                           ? tile_sq_distance(blk, ii, lt.k + t * lt.ldk, ctx.in.D, raw, nq2, nk2)
                           : 0.0f;
      const float sim = element_similarity(ctx, raw, d2, qn, kn);
      float z, mult;
      const float logit = element_logit(ctx, blk, ii, j, sim, &z, &mult);
      const float p = std::exp(logit - rows.lse[u]);
      const float ds = p * (drow[ii] - rows.drow[u]);
      const float dz = ds * mult;
      if (sink.zdz) {
        sink.zdz[u] += dz;
        sink.zdzz[u] += static_cast<double>(dz) * z;
        continue;
      }
      add_term_grads(ctx, blk, sink, ii, j, ds);
      const float dsim = spec.zscore
                             ? (dz - rows.zdz_mean[u] - z * rows.zdzz_mean[u]) * blk.z_inv_sigma[u]
                             : dz;
      float g = 0.0f, hq = 0.0f, hk = 0.0f;
      if (ctx.fuzzy || spec.similarity == Similarity::kNegSqEuclidean) {
        // fuzzy: sim = -a ln(d2 + eps); neg_sq_euclidean: sim = -d2. d d2 = 2 (q - k) . (dq - dk).
        float dd2 = -dsim;
        if (ctx.fuzzy) dd2 = dsim == 0.0f ? 0.0f : -ctx.fuzzy_a * dsim / (d2 + spec.fuzzy_eps);
        g = -2.0f * dd2;
        hq = 2.0f * dd2;
        hk = 2.0f * dd2;
      } else if (spec.similarity == Similarity::kDot) {
        g = dsim * ctx.r.scale;
      } else {
        // cos = <q, k> / (nq nk), norms floored at cosine_eps (constant below the floor):
        // d cos / dq = k / (nq nk) - cos q / |q|^2.
        const float cosv = raw / (qn * kn);
        const float qr = std::sqrt(nq2), kr = std::sqrt(nk2);
        float g_cos = dsim, g_dot = 0.0f;
        if (spec.similarity == Similarity::kConstrainedCosine) {
          const float sg = 1.0f / (1.0f + std::exp(-ctx.r.scale * raw));
          g_cos = dsim * (1.0f - spec.beta);
          g_dot = dsim * spec.beta * sg * (1.0f - sg) * ctx.r.scale;
        }
        g = g_cos / (qn * kn) + g_dot;
        hq = qr > spec.cosine_eps ? -g_cos * cosv / nq2 : 0.0f;
        hk = kr > spec.cosine_eps ? -g_cos * cosv / nk2 : 0.0f;
      }
      srow[ii] = p;
      drow[ii] = g;
      tg.hq[u] += hq;
      tg.hk[ut] += hk;
    }
  }
}

void zero_hidden(float* p, const FusedContext& ctx, const QueryBlock& blk, const KeyTile& tile) {
  for (Index t = 0; t < tile.n; ++t)
    for (Index ii = 0; ii < blk.nq; ++ii)
      if (!key_visible(ctx.in, ctx.spec, ctx.r, blk.b, blk.h, blk.i0 + ii, tile.key(t)))
        p[t * kBlockQ + ii] = 0.0f;
}

// Hot dot path: logit = raw * c + key_boost[j].
void hot_dot_backward(float* st, float* dp, const FusedContext& ctx, const QueryBlock& blk,
                      const BackwardRows& rows, const KeyTile& tile, const DlogitSink& sink) {
  const float c = ctx.dot_factor;
  const float* lse = rows.lse.data();
  const float* dr = rows.drow.data();
  float boost[kBlockK];
  for (Index t = 0; t < tile.n; ++t)
    boost[t] = ctx.in.key_boost ? ctx.in.key_boost[blk.b * ctx.in.Lk + tile.key(t)] : 0.0f;
  if (tile.kind == TileKind::kFull) {
    // One fused pass: weights, dS and G per element.
    float dsum[kBlockK] = {};
    tile::softmax_backward(st, dp, tile.n, kBlockQ, c, boost, lse, dr,
                           sink.dkey_boost ? dsum : nullptr);
    if (sink.dkey_boost)
      for (Index t = 0; t < tile.n; ++t) sink.dkey_boost[tile.key(t)] += dsum[t];
    return;
  }
  for (Index t = 0; t < tile.n; ++t) {
    float* row = st + t * kBlockQ;
    for (Index ii = 0; ii < kBlockQ; ++ii) row[ii] = row[ii] * c + boost[t] - lse[ii];
  }
  tile::exp_array(st, st, tile.n * kBlockQ);
  zero_hidden(st, ctx, blk, tile);
  for (Index t = 0; t < tile.n; ++t) {
    const float* p = st + t * kBlockQ;
    float* g = dp + t * kBlockQ;
    float dsum = 0.0f;
    for (Index ii = 0; ii < kBlockQ; ++ii) {
      const float ds = p[ii] * (g[ii] - dr[ii]);
      dsum += ds;
      g[ii] = ds * c;
    }
    if (sink.dkey_boost) sink.dkey_boost[tile.key(t)] += dsum;
  }
}

// Hot fuzzy path: logit = -a ln(d2 + eps) + key_boost[j]; m = 2 without boost: P = 1/((d2+eps) e^lse).
void hot_fuzzy_backward(float* st, float* dp, TileGrads& tg, const FusedContext& ctx,
                        const QueryBlock& blk, const BackwardRows& rows, const KeyTile& tile,
                        const LoadedTile& lt, const DlogitSink& sink) {
  const float eps = ctx.spec.fuzzy_eps, a = ctx.fuzzy_a;
  const float* nq2 = blk.q_sqnorm.data();
  const float* lse = rows.lse.data();
  const float* dr = rows.drow.data();
  tg.d2.resize(static_cast<size_t>(kBlockK * kBlockQ));
  float* d2 = tg.d2.data();
  float el[kBlockQ];
  if (ctx.fuzzy_direct) tile::exp_array(el, lse, kBlockQ);
  for (Index t = 0; t < tile.n; ++t) {
    float* row = st + t * kBlockQ;
    float* d = d2 + t * kBlockQ;
    const float nk2 = lt.k_sqnorm[static_cast<size_t>(t)];
    int any_close = 0;
    for (Index ii = 0; ii < kBlockQ; ++ii) {
      const float e = nq2[ii] + nk2 - 2.0f * row[ii];
      any_close |= (ii < blk.nq) & (e < kCancellationRatio * (nq2[ii] + nk2));
      d[ii] = e;
    }
    if (any_close)
      for (Index ii = 0; ii < blk.nq; ++ii)
        if (d[ii] < kCancellationRatio * (nq2[ii] + nk2))
          d[ii] = direct_sq_distance(blk, ii, lt.k + t * lt.ldk, ctx.in.D);
    for (Index ii = 0; ii < kBlockQ; ++ii) {
      d[ii] = std::max(d[ii], 0.0f) + eps;
      row[ii] = ctx.fuzzy_direct ? 1.0f / (d[ii] * el[ii]) : d[ii];
    }
  }
  if (!ctx.fuzzy_direct) {
    tile::log_array(st, st, tile.n * kBlockQ);
    for (Index t = 0; t < tile.n; ++t) {
      const float boost = ctx.in.key_boost ? ctx.in.key_boost[blk.b * ctx.in.Lk + tile.key(t)] : 0.0f;
      float* row = st + t * kBlockQ;
      for (Index ii = 0; ii < kBlockQ; ++ii) row[ii] = boost - a * row[ii] - lse[ii];
    }
    tile::exp_array(st, st, tile.n * kBlockQ);
    // Crisp rows (lse = +inf) have no weight even where d2 + eps = 0 made the logit +inf.
    for (Index ii = 0; ii < kBlockQ; ++ii)
      if (lse[ii] == kPosInf)
        for (Index t = 0; t < tile.n; ++t) st[t * kBlockQ + ii] = 0.0f;
  }
  if (tile.kind == TileKind::kPartial) zero_hidden(st, ctx, blk, tile);
  float* hq = tg.hq.data();
  for (Index t = 0; t < tile.n; ++t) {
    const float* p = st + t * kBlockQ;
    const float* d = d2 + t * kBlockQ;
    float* g = dp + t * kBlockQ;
    float dsum = 0.0f, hsum = 0.0f;
    for (Index ii = 0; ii < kBlockQ; ++ii) {
      const float ds = p[ii] * (g[ii] - dr[ii]);
      dsum += ds;
      const float dd2 = ds == 0.0f ? 0.0f : -a * ds / d[ii];
      g[ii] = -2.0f * dd2;
      hq[ii] += 2.0f * dd2;
      hsum += 2.0f * dd2;
    }
    tg.hk[static_cast<size_t>(t)] += hsum;
    if (sink.dkey_boost) sink.dkey_boost[tile.key(t)] += dsum;
  }
}

}  // namespace

void backward_tile_scores(float* st, float* dp, TileGrads& tg, const FusedContext& ctx,
                          const QueryBlock& blk, const BackwardRows& rows, const KeyTile& tile,
                          const LoadedTile& lt, const DlogitSink& sink) {
  std::fill(tg.hq.begin(), tg.hq.end(), 0.0f);
  std::fill(tg.hk.begin(), tg.hk.end(), 0.0f);
  const bool hot_ok = sink.zdz == nullptr && sink.drel_bias == nullptr && sink.dbias == nullptr;
  if (hot_ok && ctx.path == ScorePath::kHotDot)
    hot_dot_backward(st, dp, ctx, blk, rows, tile, sink);
  else if (hot_ok && ctx.path == ScorePath::kHotFuzzy)
    hot_fuzzy_backward(st, dp, tg, ctx, blk, rows, tile, lt, sink);
  else
    general_backward(st, dp, tg, ctx, blk, rows, tile, lt, sink);
}

}  // namespace kessel::attention_detail
