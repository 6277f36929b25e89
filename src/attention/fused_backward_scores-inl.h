// Per-tile score backward of the fused path (types in fused_backward_scores.h).
//
// Per-target code: fused_dispatch.cc includes this file once per Highway target (foreach_target.h
// re-includes it; the guard below toggles with HWY_TARGET_TOGGLE), so everything here is compiled
// with that target's instruction set, the compiler's own vectorization of the plain loops included.
#if defined(KESSEL_ATTENTION_FUSED_BACKWARD_SCORES_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef KESSEL_ATTENTION_FUSED_BACKWARD_SCORES_INL_H_
#undef KESSEL_ATTENTION_FUSED_BACKWARD_SCORES_INL_H_
#else
#define KESSEL_ATTENTION_FUSED_BACKWARD_SCORES_INL_H_
#endif

#include <algorithm>
#include <cmath>
#include <limits>
#include <type_traits>

#include "attention/fused_backward_scores.h"
#include "attention/fused_common-inl.h"
#include "attention/staged_scores-inl.h"
#include "attention/tile_kernels.h"
#include "hwy/highway.h"

HWY_BEFORE_NAMESPACE();
namespace kessel::attention_detail {
namespace HWY_NAMESPACE {
// st: raw Q K^T in, P out. dp: dO V^T in, G out. Zeroes and fills tg. In the statistics pass
// (sink.zdz set) it only accumulates the dz sums; P and G are then unspecified. The hot paths
// (plain dot products, plain fuzzy memberships) are here; everything else is staged_backward.
void backward_tile_scores(float* st, float* dp, TileGrads& tg, StagedScratch& ss, const FusedContext& ctx,
                          const QueryBlock& blk, const BackwardRows& rows, const KeyTile& tile,
                          const LoadedTile& lt, const DlogitSink& sink);

namespace backward_scores_detail {

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
    ctx.k.softmax_backward(st, dp, tile.n, kBlockQ, c, boost, lse, dr,
                           sink.dkey_boost ? dsum : nullptr);
    if (sink.dkey_boost)
      for (Index t = 0; t < tile.n; ++t) sink.dkey_boost[tile.key(t)] += dsum[t];
    return;
  }
  for (Index t = 0; t < tile.n; ++t) {
    float* row = st + t * kBlockQ;
    for (Index ii = 0; ii < kBlockQ; ++ii) row[ii] = row[ii] * c + boost[t] - lse[ii];
  }
  ctx.k.exp_array(st, st, tile.n * kBlockQ);
  mask_partial_tile(st, ctx, blk, tile, 0.0f);
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
  if (ctx.fuzzy_direct) ctx.k.exp_array(el, lse, kBlockQ);
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
  float* logd = nullptr;  // ln(d2 + eps), for dm
  if (sink.dsim_logd) {
    tg.logd.resize(static_cast<size_t>(kBlockK * kBlockQ));
    logd = tg.logd.data();
    if (ctx.fuzzy_direct) ctx.k.log_array(logd, d2, tile.n * kBlockQ);
  }
  if (!ctx.fuzzy_direct) {
    ctx.k.log_array(st, st, tile.n * kBlockQ);
    if (logd) std::copy_n(st, tile.n * kBlockQ, logd);
    for (Index t = 0; t < tile.n; ++t) {
      const float boost = ctx.in.key_boost ? ctx.in.key_boost[blk.b * ctx.in.Lk + tile.key(t)] : 0.0f;
      float* row = st + t * kBlockQ;
      for (Index ii = 0; ii < kBlockQ; ++ii) row[ii] = boost - a * row[ii] - lse[ii];
    }
    ctx.k.exp_array(st, st, tile.n * kBlockQ);
    // Crisp rows (lse = +inf) have no weight even where d2 + eps = 0 made the logit +inf.
    for (Index ii = 0; ii < kBlockQ; ++ii)
      if (lse[ii] == kPosInf)
        for (Index t = 0; t < tile.n; ++t) st[t * kBlockQ + ii] = 0.0f;
  }
  if (tile.kind == TileKind::kPartial) mask_partial_tile(st, ctx, blk, tile, 0.0f);
  float* hq = tg.hq.data();
  float dm_sum = 0.0f;  // sum of ds ln(d2 + eps) over the tile (dsim = ds on this path)
  // with_dm: a compile-time switch, so that the loop without dm stays as it was.
  const auto tile_loop = [&](auto with_dm) {
    for (Index t = 0; t < tile.n; ++t) {
      const float* p = st + t * kBlockQ;
      const float* d = d2 + t * kBlockQ;
      float* g = dp + t * kBlockQ;
      float dsum = 0.0f, hsum = 0.0f;
      for (Index ii = 0; ii < kBlockQ; ++ii) {
        const float ds = p[ii] * (g[ii] - dr[ii]);
        dsum += ds;
        // Hidden, crisp and padding elements have ds = 0 and may have ln(0) = -inf: skipped.
        if constexpr (decltype(with_dm)::value)
          dm_sum += ds == 0.0f ? 0.0f : ds * logd[t * kBlockQ + ii];
        const float dd2 = ds == 0.0f ? 0.0f : -a * ds / d[ii];
        g[ii] = -2.0f * dd2;
        hq[ii] += 2.0f * dd2;
        hsum += 2.0f * dd2;
      }
      tg.hk[static_cast<size_t>(t)] += hsum;
      if (sink.dkey_boost) sink.dkey_boost[tile.key(t)] += dsum;
    }
  };
  if (logd) {
    tile_loop(std::true_type{});
    *sink.dsim_logd += dm_sum;
  } else {
    tile_loop(std::false_type{});
  }
}

}  // namespace backward_scores_detail
using namespace backward_scores_detail;  // NOLINT: this file's helpers, for the function below

void backward_tile_scores(float* st, float* dp, TileGrads& tg, StagedScratch& ss, const FusedContext& ctx,
                          const QueryBlock& blk, const BackwardRows& rows, const KeyTile& tile,
                          const LoadedTile& lt, const DlogitSink& sink) {
  std::fill(tg.hq.begin(), tg.hq.end(), 0.0f);
  std::fill(tg.hk.begin(), tg.hk.end(), 0.0f);
  // The hot paths leave out the score terms, so also their lambda gradient (defined at lambda = 0).
  const bool hot_ok = sink.zdz == nullptr && sink.drel_bias == nullptr && sink.dbias == nullptr &&
                      sink.dtime_decay == nullptr;
  if (hot_ok && ctx.path == ScorePath::kHotDot)
    hot_dot_backward(st, dp, ctx, blk, rows, tile, sink);
  else if (hot_ok && ctx.path == ScorePath::kHotFuzzy)
    hot_fuzzy_backward(st, dp, tg, ctx, blk, rows, tile, lt, sink);
  else
    staged_backward(st, dp, tg, ss, ctx, blk, rows, tile, lt, sink);
}

}  // namespace HWY_NAMESPACE
}  // namespace kessel::attention_detail
HWY_AFTER_NAMESPACE();

#endif  // KESSEL_ATTENTION_FUSED_BACKWARD_SCORES_INL_H_
