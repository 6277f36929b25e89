// Fused attention forward: one work item per (b, h, query block of kBlockQ rows); the item walks the
// key tiles its block can see (fused_plan.h) with online normalization (running max m, running sum l,
// accumulator rescaled by exp(m_old - m_new)), so memory is O((Lq + Lk) D) per thread whatever L is.
// Each item is computed by one thread in a fixed order: any thread count gives bit-identical output.
//
// Per-target code: fused_dispatch.cc includes this file once per Highway target (foreach_target.h
// re-includes it; the guard below toggles with HWY_TARGET_TOGGLE), so everything here is compiled
// with that target's instruction set, the compiler's own vectorization of the plain loops included.
#if defined(KESSEL_ATTENTION_FUSED_FORWARD_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef KESSEL_ATTENTION_FUSED_FORWARD_INL_H_
#undef KESSEL_ATTENTION_FUSED_FORWARD_INL_H_
#else
#define KESSEL_ATTENTION_FUSED_FORWARD_INL_H_
#endif

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "attention/fused.h"
#include "attention/fused_common-inl.h"
#include "attention/staged_scores-inl.h"
#include "attention/tile_kernels.h"
#include "util/parallel.h"
#include "hwy/highway.h"

HWY_BEFORE_NAMESPACE();
namespace kessel::attention_detail {
namespace HWY_NAMESPACE {
namespace forward_pass {


// Running state of one query block.
struct RowState {
  std::vector<float> m, l, acc;            // [BQ], [BQ], [BQ][Dv]
  std::vector<float> crisp_count, crisp_acc;  // fuzzy exact matches: [BQ], [BQ][Dv]
  std::vector<float> tile_max, base, alpha, tile_sum;  // [BQ] scratch
  void reset(Index dv, bool fuzzy) {
    m.assign(kBlockQ, kNegInf);
    l.assign(kBlockQ, 0.0f);
    acc.assign(static_cast<size_t>(kBlockQ * dv), 0.0f);
    if (fuzzy) {
      crisp_count.assign(kBlockQ, 0.0f);
      crisp_acc.assign(static_cast<size_t>(kBlockQ * dv), 0.0f);
    }
    tile_max.resize(kBlockQ);
    base.resize(kBlockQ);
    alpha.resize(kBlockQ);
    tile_sum.resize(kBlockQ);
  }
};

struct Scratch {
  QueryBlock blk;
  LoadedTile lt;
  RowState rs;
  StagedScratch ss;
  std::vector<float> st = std::vector<float>(static_cast<size_t>(kBlockK * kBlockQ));
  std::vector<KeyTile> tiles;
};

void record_exact(RowState& rs, const LoadedTile& lt, Index dv, Index ii, Index t) {
  rs.crisp_count[static_cast<size_t>(ii)] += 1.0f;
  float* c = rs.crisp_acc.data() + ii * dv;
  const float* v = lt.v + t * lt.ldv;
  for (Index d = 0; d < dv; ++d) c[d] += v[d];
}

// Hot fuzzy path: d2 = |q|^2 + |k|^2 - 2 q.k from the raw products; exact matches go to the crisp
// accumulators. Direct (m = 2): st <- 1/(d2 + eps) weights (hidden 0). Otherwise st <- logits
// -ln(d2 + eps)/(m - 1) + key_boost (hidden -inf).
void hot_fuzzy_scores(float* st, const FusedContext& ctx, const QueryBlock& blk,
                      const KeyTile& tile, const LoadedTile& lt, RowState& rs) {
  const float eps = ctx.spec.fuzzy_eps;
  // Rows that need a second look: near the cancellation threshold or the match tolerance.
  const float close = std::max(kCancellationRatio, ctx.spec.fuzzy_match_tol);
  const float* nq2 = blk.q_sqnorm.data();
  // Power mode: the per-row minimum of d2 + eps (the maximum logit) is taken in the same pass. An
  // exact match marked +inf below may leave it too small; that only lowers the shift of a row whose
  // output is the crisp mean anyway. Partial tiles take it again after masking.
  float* tmin = rs.tile_max.data();
  std::fill(tmin, tmin + kBlockQ, kPosInf);
  for (Index t = 0; t < tile.n; ++t) {
    float* row = st + t * kBlockQ;
    const float nk2 = lt.k_sqnorm[static_cast<size_t>(t)];
    int any_close = 0;
    float tile_d2[kBlockQ];  // the product form, before clamping
    for (Index ii = 0; ii < kBlockQ; ++ii) {
      const float d2 = nq2[ii] + nk2 - 2.0f * row[ii];
      any_close |= (ii < blk.nq) & (d2 <= close * (nq2[ii] + nk2));
      tile_d2[ii] = d2;
      row[ii] = std::max(d2, 0.0f) + eps;
      tmin[ii] = std::min(tmin[ii], row[ii]);
    }
    // Rare: near matches get their d2 recomputed directly where cancellation makes the product form
    // imprecise (as tile_sq_distance does), and exact ones go to the crisp sums.
    if (any_close) {
      const Index j = tile.key(t);
      const float* krow = lt.k + t * lt.ldk;
      for (Index ii = 0; ii < blk.nq; ++ii) {
        const float limit = nq2[ii] + nk2;
        float d2 = tile_d2[ii];
        if (!(d2 <= close * limit)) continue;
        if (d2 < kCancellationRatio * limit) d2 = direct_sq_distance(blk, ii, krow, ctx.in.D);
        row[ii] = std::max(d2, 0.0f) + eps;
        if (!fuzzy_exact_match(ctx, d2, nq2[ii], nk2)) continue;
        if (tile.kind == TileKind::kPartial &&
            !key_visible(ctx.in, ctx.spec, ctx.r, blk.b, blk.h, blk.i0 + ii, j))
          continue;
        record_exact(rs, lt, ctx.in.Dv, ii, t);
        row[ii] = kPosInf;  // weight 0 / logit -inf below: the crisp mean replaces the row
      }
    }
    if (ctx.fuzzy_direct)
      for (Index ii = 0; ii < kBlockQ; ++ii) row[ii] = 1.0f / row[ii];
  }
  if (!ctx.fuzzy_direct && !ctx.fuzzy_power) {
    ctx.k.log_array(st, st, tile.n * kBlockQ);
    const float a = -ctx.fuzzy_a;
    for (Index t = 0; t < tile.n; ++t) {
      const float boost = ctx.in.key_boost ? ctx.in.key_boost[blk.b * ctx.in.Lk + tile.key(t)] : 0.0f;
      float* row = st + t * kBlockQ;
      for (Index ii = 0; ii < kBlockQ; ++ii) row[ii] = row[ii] * a + boost;
    }
  }
  // Hidden: weight 0 (direct), d2 + eps = +inf (power), logit -inf (otherwise).
  if (tile.kind == TileKind::kPartial)
    mask_partial_tile(st, ctx, blk, tile, ctx.fuzzy_direct ? 0.0f : ctx.fuzzy_power ? kPosInf : kNegInf);
}

// Online normalization step: logits in st -> weights relative to the new running max; rescales
// the accumulator and adds weights * V.
void online_softmax_step(float* st, const KeyTile& tile, const LoadedTile& lt, RowState& rs,
                         Index nq, Index dv, const FusedContext& ctx) {
  float* tmax = rs.tile_max.data();
  if (ctx.fuzzy_power) {
    // st holds d2 + eps: the largest logit -a ln(d2 + eps) is at the smallest d2 (full tiles: taken
    // by hot_fuzzy_scores already).
    if (tile.kind == TileKind::kPartial) {
      std::fill(tmax, tmax + kBlockQ, kPosInf);
      for (Index t = 0; t < tile.n; ++t) {
        const float* row = st + t * kBlockQ;
        for (Index ii = 0; ii < kBlockQ; ++ii) tmax[ii] = std::min(tmax[ii], row[ii]);
      }
    }
    for (Index ii = 0; ii < kBlockQ; ++ii) tmax[ii] = -ctx.fuzzy_a * std::log(tmax[ii]);
  } else {
    std::fill(tmax, tmax + kBlockQ, kNegInf);
    for (Index t = 0; t < tile.n; ++t) {
      const float* row = st + t * kBlockQ;
      for (Index ii = 0; ii < kBlockQ; ++ii) tmax[ii] = std::max(tmax[ii], row[ii]);
    }
  }
  float* base = rs.base.data();
  float* alpha = rs.alpha.data();
  for (Index ii = 0; ii < kBlockQ; ++ii) {
    const float mnew = std::max(rs.m[static_cast<size_t>(ii)], tmax[ii]);
    base[ii] = mnew == kNegInf ? 0.0f : mnew;  // a row with nothing visible yet: avoid -inf - -inf
    alpha[ii] = rs.m[static_cast<size_t>(ii)] - base[ii];
    rs.m[static_cast<size_t>(ii)] = mnew;
  }
  ctx.k.exp_array(alpha, alpha, kBlockQ);
  float* tsum = rs.tile_sum.data();
  std::fill(tsum, tsum + kBlockQ, 0.0f);
  if (ctx.fuzzy_power)
    ctx.k.neg_pow_shift_sum(st, tile.n, kBlockQ, ctx.fuzzy_a, base, tsum);
  else
    ctx.k.exp_shift_sum(st, tile.n, kBlockQ, base, tsum);
  for (Index ii = 0; ii < kBlockQ; ++ii)
    rs.l[static_cast<size_t>(ii)] = rs.l[static_cast<size_t>(ii)] * alpha[ii] + tsum[ii];
  for (Index ii = 0; ii < nq; ++ii) {
    if (alpha[ii] == 1.0f) continue;
    float* a = rs.acc.data() + ii * dv;
    for (Index d = 0; d < dv; ++d) a[d] *= alpha[ii];
  }
  ctx.k.accumulate_product(rs.acc.data(), dv, st, 1, kBlockQ, lt.v, lt.ldv, nq, tile.n, dv);
}

// Direct fuzzy step (m = 2): st already holds positive weights; no max, no rescaling.
void direct_sum_step(const float* st, const KeyTile& tile, const LoadedTile& lt, RowState& rs,
                     const FusedContext& ctx,
                     Index nq, Index dv) {
  for (Index t = 0; t < tile.n; ++t) {
    const float* row = st + t * kBlockQ;
    for (Index ii = 0; ii < kBlockQ; ++ii) rs.l[static_cast<size_t>(ii)] += row[ii];
  }
  ctx.k.accumulate_product(rs.acc.data(), dv, st, 1, kBlockQ, lt.v, lt.ldv, nq, tile.n, dv);
}

void forward_block(float* out, float* lse, const FusedContext& ctx, Scratch& s, Index b, Index h,
                   Index qb, BlockCounts& counts) {
  const AttentionInputs& in = ctx.in;
  const Index i0 = qb * kBlockQ, nq = std::min(kBlockQ, in.Lq - i0), dv = in.Dv;
  QueryBlock& blk = s.blk;
  load_query_block(blk, ctx, b, h, i0, nq);
  plan_block_tiles(s.tiles, ctx, b, i0, nq, counts);
  if (ctx.spec.zscore) zscore_statistics(blk, s.ss, ctx, s.tiles, s.lt, s.st.data());
  RowState& rs = s.rs;
  rs.reset(dv, ctx.fuzzy);
  float* st = s.st.data();
  for (size_t k = 0; k < s.tiles.size(); ++k) {
    const KeyTile& tile = s.tiles[k];
    load_key_tile(s.lt, ctx, b, h, tile, true);
    tile_raw_product(st, s.ss, ctx, blk, s.lt, tile, static_cast<Index>(k));  // kept by zscore
    switch (ctx.path) {
      case ScorePath::kHotDot: hot_dot_logits(st, ctx, blk, tile); break;
      case ScorePath::kHotFuzzy: hot_fuzzy_scores(st, ctx, blk, tile, s.lt, rs); break;
      case ScorePath::kStaged:
        staged_logits(st, s.ss, ctx, blk, tile, s.lt,
                      [&](Index ii, Index t) { record_exact(rs, s.lt, dv, ii, t); });
        break;
    }
    if (ctx.fuzzy_direct)
      direct_sum_step(st, tile, s.lt, rs, ctx, nq, dv);
    else
      online_softmax_step(st, tile, s.lt, rs, nq, dv, ctx);
  }
  for (Index ii = 0; ii < nq; ++ii) {
    const size_t u = static_cast<size_t>(ii);
    const Index row = (b * in.H + h) * in.Lq + i0 + ii;
    float* o = out + row * dv;
    float row_lse;
    if (ctx.fuzzy && rs.crisp_count[u] > 0.0f) {
      const float inv = 1.0f / rs.crisp_count[u];
      for (Index d = 0; d < dv; ++d) o[d] = rs.crisp_acc[static_cast<size_t>(ii * dv + d)] * inv;
      row_lse = kPosInf;
      ++counts.crisp;
    } else if (ctx.fuzzy_direct ? rs.l[u] == 0.0f : rs.m[u] == kNegInf) {
      std::fill(o, o + dv, 0.0f);
      row_lse = kNegInf;
      ++counts.fully_masked;
    } else {
      const float inv = 1.0f / rs.l[u];
      for (Index d = 0; d < dv; ++d) o[d] = rs.acc[static_cast<size_t>(ii * dv + d)] * inv;
      row_lse = ctx.fuzzy_direct ? std::log(rs.l[u]) : rs.m[u] + std::log(rs.l[u]);
    }
    if (lse) lse[row] = row_lse;
  }
}

}  // namespace forward_pass

// fused_forward (fused.h) on this target, with the kernel table `k` chosen at the op's entry.
AttentionStats FusedForward(float* out, float* lse, const AttentionInputs& in, const AttentionSpec& spec,
                            const tile::Kernels& k) {
  using namespace forward_pass;  // NOLINT
  FusedContext ctx(in, spec, k);
  compute_key_norms(ctx, resolve_threads(spec.threads));
  return for_each_query_block<Scratch>(in, resolve_threads(spec.threads),
                                       [&](Scratch& s, Index b, Index h, Index qb, BlockCounts& c) {
                                         forward_block(out, lse, ctx, s, b, h, qb, c);
                                       });
}

}  // namespace HWY_NAMESPACE
}  // namespace kessel::attention_detail
HWY_AFTER_NAMESPACE();

#endif  // KESSEL_ATTENTION_FUSED_FORWARD_INL_H_
