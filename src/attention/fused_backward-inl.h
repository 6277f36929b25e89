// Fused attention backward, FlashAttention-2 style: the weights are recomputed tile by tile from the
// forward's lse, never materialized. Deterministic without atomics:
//   1. row pass, parallel over (b, h, query block): D_i = dout_i . out_i, and for zscore the per-row
//      statistics mean(dz), mean(dz z) (which need a full pass over the keys before any dq/dk);
//      for fuzzy crisp rows, the number of exact matches.
//   2. main pass, parallel over (b, h, key group): each item owns the dk, dv rows of its keys and loops
//      over every query block in a fixed order: dV += P^T dO, dP = dO V^T, dS = P (dP - D),
//      dK += G^T Q, dQ += G K. When a head is split into several key groups (few heads), each group
//      writes its own dq partial, reduced in group order afterwards. The number of groups depends on
//      B*H only, never on the thread count, so results are bit-identical for any thread count.
//   3. score-term gradients: dkey_boost via per-(b, h) partial rows reduced over h in order; the
//      key boost's gate via per-item du rows reduced in group order and per-(b, h) dv rows (items own
//      their keys), then mapped to dq, dk and dboost_gate serially (boost_gate.h); dm and
//      dtime_decay (scalars) via one partial per item of pass 2 (dm under zscore: per row in pass
//      1), summed in order;
//      drel_bias via per-item partials reduced in item order; dbias directly when no two items share
//      a bias element, else by a dedicated pass whose items own bias elements (looping serially over
//      the broadcast dimensions).
// All gradients are ADDED INTO the caller's buffers.
//
// Per-target code: fused_dispatch.cc includes this file once per Highway target (foreach_target.h
// re-includes it; the guard below toggles with HWY_TARGET_TOGGLE), so everything here is compiled
// with that target's instruction set, the compiler's own vectorization of the plain loops included.
#if defined(KESSEL_ATTENTION_FUSED_BACKWARD_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef KESSEL_ATTENTION_FUSED_BACKWARD_INL_H_
#undef KESSEL_ATTENTION_FUSED_BACKWARD_INL_H_
#else
#define KESSEL_ATTENTION_FUSED_BACKWARD_INL_H_
#endif

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "attention/fused.h"
#include "attention/fused_backward_scores-inl.h"
#include "attention/fused_common-inl.h"
#include "attention/tile_kernels.h"
#include "kessel/error.h"
#include "util/parallel.h"
#include "hwy/highway.h"

HWY_BEFORE_NAMESPACE();
namespace kessel::attention_detail {
namespace HWY_NAMESPACE {
namespace backward_pass {


// Per-row results of the row pass, [B, H, Lq] each.
struct RowArrays {
  std::vector<float> drow, lse, z_mean, z_inv_sigma, zdz_mean, zdzz_mean, crisp_count;
  std::vector<double> zscore_dm;  // fuzzy zscore with dm: each row's sum_j dsim_ij sim_ij (below)
};

struct Scratch {
  QueryBlock blk;
  BackwardRows rows;
  LoadedTile lt;
  TileGrads tg;
  StagedScratch ss;
  std::vector<float> st = std::vector<float>(static_cast<size_t>(kBlockK * kBlockQ));
  std::vector<float> dp = std::vector<float>(static_cast<size_t>(kBlockK * kBlockQ));
  std::vector<float> hq_acc = std::vector<float>(kBlockQ);
  std::vector<KeyTile> tiles;
};

struct Call {
  const FusedContext& ctx;
  const float* dout;
  const float* out;
  const float* lse;
  Index nqb;
};

// Q block, dO^T and the row arrays' values for query block qb of head (b, h). Rows beyond nq get
// lse = +inf so that their weights are 0.
void load_block(Scratch& s, const Call& c, const RowArrays& ra, Index b, Index h, Index qb) {
  const AttentionInputs& in = c.ctx.in;
  const Index i0 = qb * kBlockQ, nq = std::min(kBlockQ, in.Lq - i0);
  load_query_block(s.blk, c.ctx, b, h, i0, nq);
  BackwardRows& r = s.rows;
  r.dot.assign(static_cast<size_t>(in.Dv * kBlockQ), 0.0f);
  const Index row0 = (b * in.H + h) * in.Lq + i0;
  const float* dout = c.dout + row0 * in.Dv;
  for (Index ii = 0; ii < nq; ++ii)
    for (Index d = 0; d < in.Dv; ++d) r.dot[static_cast<size_t>(d * kBlockQ + ii)] = dout[ii * in.Dv + d];
  r.drow.assign(kBlockQ, 0.0f);
  r.lse.assign(kBlockQ, kPosInf);
  if (ra.drow.empty()) return;  // the row pass itself fills these
  const auto copy = [&](std::vector<float>& dst, const std::vector<float>& src, float pad) {
    dst.assign(kBlockQ, pad);
    std::copy(src.begin() + row0, src.begin() + row0 + nq, dst.begin());
  };
  copy(r.drow, ra.drow, 0.0f);
  copy(r.lse, ra.lse, kPosInf);
  if (c.ctx.spec.zscore) {
    copy(s.blk.z_mean, ra.z_mean, 0.0f);
    copy(s.blk.z_inv_sigma, ra.z_inv_sigma, 0.0f);
    copy(r.zdz_mean, ra.zdz_mean, 0.0f);
    copy(r.zdzz_mean, ra.zdzz_mean, 0.0f);
  }
}

// st = K Q^T and dp = V dO^T for one tile. kept: the tile's index in the list zscore_statistics last
// ran over, whose raw product it may have kept (tile_raw_product); -1: compute it.
void tile_products(Scratch& s, const FusedContext& ctx, Index b, Index h, const KeyTile& tile,
                   Index kept = -1) {
  load_key_tile(s.lt, ctx, b, h, tile, true);
  if (kept >= 0)
    tile_raw_product(s.st.data(), s.ss, ctx, s.blk, s.lt, tile, kept);
  else
    ctx.k.rows_times_packed(s.st.data(), kBlockQ, s.lt.k, s.lt.ldk, s.blk.qt.data(), kBlockQ, tile.n,
                            kBlockQ, ctx.in.D);
  ctx.k.rows_times_packed(s.dp.data(), kBlockQ, s.lt.v, s.lt.ldv, s.rows.dot.data(), kBlockQ,
                          tile.n, kBlockQ, ctx.in.Dv);
}

// Pass 1 for one (b, h, query block).
void row_pass(RowArrays& ra, Scratch& s, const Call& c, Index b, Index h, Index qb) {
  const FusedContext& ctx = c.ctx;
  const AttentionInputs& in = ctx.in;
  load_block(s, c, RowArrays{}, b, h, qb);
  QueryBlock& blk = s.blk;
  const Index row0 = (b * in.H + h) * in.Lq + blk.i0;
  bool any_crisp = false;
  for (Index ii = 0; ii < blk.nq; ++ii) {
    const Index row = row0 + ii;
    float d = 0.0f;
    for (Index e = 0; e < in.Dv; ++e) d += c.dout[row * in.Dv + e] * c.out[row * in.Dv + e];
    ra.drow[row] = d;
    any_crisp |= c.lse[row] == kPosInf;
    ra.lse[row] = std::isinf(c.lse[row]) ? kPosInf : c.lse[row];
    s.rows.drow[static_cast<size_t>(ii)] = d;
    s.rows.lse[static_cast<size_t>(ii)] = ra.lse[row];
  }
  const bool crisp_counts = ctx.fuzzy && any_crisp;
  if (!ctx.spec.zscore && !crisp_counts) return;
  s.tiles.clear();
  plan_key_tiles(ctx.spec, ctx.r.pos_offset, ctx.elementwise_masks, blk.i0, blk.i0 + blk.nq, 0,
                 ctx.key_limit(b), s.tiles);
  if (ctx.spec.zscore) {
    zscore_statistics(blk, s.ss, ctx, s.tiles, s.lt, s.st.data());
    std::vector<double> zdz(kBlockQ, 0.0), zdzz(kBlockQ, 0.0);
    DlogitSink sink;
    sink.zdz = zdz.data();
    sink.zdzz = zdzz.data();
    for (size_t k = 0; k < s.tiles.size(); ++k) {
      const KeyTile& tile = s.tiles[k];
      tile_products(s, ctx, b, h, tile, static_cast<Index>(k));
      backward_tile_scores(s.st.data(), s.dp.data(), s.tg, s.ss, ctx, blk, s.rows, tile, s.lt, sink);
    }
    for (Index ii = 0; ii < blk.nq; ++ii) {
      const size_t u = static_cast<size_t>(ii);
      const float n = blk.z_count[u];
      ra.z_mean[row0 + ii] = blk.z_mean[u];
      ra.z_inv_sigma[row0 + ii] = blk.z_inv_sigma[u];
      ra.zdz_mean[row0 + ii] = n > 0.0f ? static_cast<float>(zdz[u] / n) : 0.0f;
      ra.zdzz_mean[row0 + ii] = n > 0.0f ? static_cast<float>(zdzz[u] / n) : 0.0f;
      // z = (sim - mean) / sigma makes sum_j dsim_j = 0 and sum_j dsim_j z_j = sum_j dz_j z_j *
      // eps / sigma^3, so sum_j dsim_j sim_j = sum_j dz_j z_j * eps / sigma^2 (docs/attention.md):
      // dm from the row statistics, without the cancellation of summing dsim_j sim_j directly.
      if (!ra.zscore_dm.empty()) {
        const double inv_sigma = blk.z_inv_sigma[u];
        ra.zscore_dm[row0 + ii] = zdzz[u] * ctx.spec.zscore_eps * inv_sigma * inv_sigma;
      }
    }
  }
  if (crisp_counts) {
    for (const KeyTile& tile : s.tiles) {
      load_key_tile(s.lt, ctx, b, h, tile, false);
      c.ctx.k.rows_times_packed(s.st.data(), kBlockQ, s.lt.k, s.lt.ldk, blk.qt.data(), kBlockQ,
                              tile.n, kBlockQ, in.D);
      for (Index ii = 0; ii < blk.nq; ++ii) {
        if (c.lse[row0 + ii] != kPosInf) continue;
        for (Index t = 0; t < tile.n; ++t)
          if (key_visible(in, ctx.spec, ctx.r, b, h, blk.i0 + ii, tile.key(t)) &&
              fuzzy_exact_match(ctx,
                                tile_sq_distance(blk, ii, s.lt.k + t * s.lt.ldk, in.D,
                                                 s.st[static_cast<size_t>(t * kBlockQ + ii)],
                                                 blk.q_sqnorm[static_cast<size_t>(ii)],
                                                 s.lt.k_sqnorm[static_cast<size_t>(t)]),
                                blk.q_sqnorm[static_cast<size_t>(ii)],
                                s.lt.k_sqnorm[static_cast<size_t>(t)]))
            ra.crisp_count[row0 + ii] += 1.0f;
      }
    }
  }
}

// Crisp rows: out_i is the mean of the exact keys' values, so only v gets a gradient.
void crisp_dv(float* dv, Scratch& s, const Call& c, const RowArrays& ra, Index b, Index h,
              const KeyTile& tile) {
  const FusedContext& ctx = c.ctx;
  const AttentionInputs& in = ctx.in;
  const QueryBlock& blk = s.blk;
  const Index bh = b * in.H + h;
  for (Index ii = 0; ii < blk.nq; ++ii) {
    const Index row = bh * in.Lq + blk.i0 + ii;
    if (c.lse[row] != kPosInf || ra.crisp_count[row] == 0.0f) continue;
    const float inv = 1.0f / ra.crisp_count[row];
    // st was overwritten by the weights: recompute the exact-match test from K and Q directly.
    for (Index t = 0; t < tile.n; ++t) {
      const Index j = tile.key(t);
      if (!key_visible(in, ctx.spec, ctx.r, b, h, blk.i0 + ii, j)) continue;
      const float d2 = direct_sq_distance(blk, ii, s.lt.k + t * s.lt.ldk, in.D);
      if (!fuzzy_exact_match(ctx, d2, blk.q_sqnorm[static_cast<size_t>(ii)],
                             s.lt.k_sqnorm[static_cast<size_t>(t)]))
        continue;
      float* dvj = dv + (bh * in.Lk + j) * in.Dv;
      const float* g = c.dout + row * in.Dv;
      for (Index d = 0; d < in.Dv; ++d) dvj[d] += g[d] * inv;
    }
  }
}

}  // namespace backward_pass

// fused_backward (fused.h) on this target, with the kernel table `k` chosen at the op's entry.
void FusedBackward(const AttentionGrads& grads, const float* dout, const float* out, const float* lse,
                   const AttentionInputs& in, const AttentionSpec& spec, const tile::Kernels& k) {
  using namespace backward_pass;  // NOLINT
  KESSEL_CHECK_ARG(in.kv_dtype == KvDtype::kFloat32,
                   "attention_backward: the fused backward needs float32 k and v");
  FusedContext ctx(in, spec, k);
  compute_key_norms(ctx, resolve_threads(spec.threads));
  const Index B = in.B, H = in.H, Lq = in.Lq, Lk = in.Lk, D = in.D, Dv = in.Dv;
  const Index nqb = (Lq + kBlockQ - 1) / kBlockQ, nkb = (Lk + kBlockK - 1) / kBlockK;
  const int threads = resolve_threads(spec.threads);
  const Call call{ctx, dout, out, lse, nqb};

  // ---- pass 1: rows ----
  RowArrays ra;
  const size_t nrows = static_cast<size_t>(B * H * Lq);
  ra.drow.assign(nrows, 0.0f);
  ra.lse.assign(nrows, kPosInf);
  if (spec.zscore) {
    ra.z_mean.assign(nrows, 0.0f);
    ra.z_inv_sigma.assign(nrows, 0.0f);
    ra.zdz_mean.assign(nrows, 0.0f);
    ra.zdzz_mean.assign(nrows, 0.0f);
  }
  if (ctx.fuzzy) ra.crisp_count.assign(nrows, 0.0f);
  if (grads.dm && spec.zscore) ra.zscore_dm.assign(nrows, 0.0);
#pragma omp parallel num_threads(threads)
  {
    Scratch s;
#pragma omp for schedule(dynamic)
    for (Index item = 0; item < B * H * nqb; ++item) {
      const Index bh = item / nqb;
      row_pass(ra, s, call, bh / H, bh % H, item % nqb);
    }
  }

  // ---- pass 2: key groups ----
  // Enough items for a few threads when there are few heads; a function of B*H alone.
  const Index groups = std::max<Index>(1, std::min<Index>(nkb, (8 + B * H - 1) / (B * H)));
  const Index group_keys = ((nkb + groups - 1) / groups) * kBlockK;
  const Index items = B * H * groups;
  std::vector<float> dq_part(grads.dq && groups > 1 ? static_cast<size_t>(items * Lq * D) : 0, 0.0f);
  std::vector<float> dkey_boost_part(grads.dkey_boost ? static_cast<size_t>(B * H * Lk) : 0, 0.0f);
  // The gate's du (per item, reduced in group order) and dv (items own their keys): boost_gate.h.
  const bool want_gate = in.boost_gate && (grads.dq || grads.dk || grads.dboost_gate);
  std::vector<float> dgate_row_part(want_gate ? static_cast<size_t>(items * Lq) : 0, 0.0f);
  std::vector<float> dgate_key(want_gate ? static_cast<size_t>(B * H * Lk) : 0, 0.0f);
  const Index buckets = spec.rel_buckets;
  std::vector<float> drel_part(grads.drel_bias ? static_cast<size_t>(items * buckets) : 0, 0.0f);
  const auto& bs = in.bias.shape;
  const Index bias_count = in.bias.empty() ? 0 : bs[0] * bs[1] * bs[2] * bs[3];
  std::vector<double> dbias_acc(grads.dbias ? static_cast<size_t>(bias_count) : 0, 0.0);
  // The spec's scalars: one partial per item, summed in item order.
  std::vector<double> dm_part(grads.dm ? static_cast<size_t>(items) : 0, 0.0);
  std::vector<double> dlambda_part(grads.dtime_decay ? static_cast<size_t>(items) : 0, 0.0);
  const bool dbias_direct = grads.dbias && (B == 1 || bs[0] != 1) && (H == 1 || bs[1] != 1) &&
                            (groups == 1 || bs[3] != 1 || Lk == 1);

#pragma omp parallel num_threads(threads)
  {
    Scratch s;
#pragma omp for schedule(dynamic)
    for (Index item = 0; item < items; ++item) {
      const Index bh = item / groups, g = item % groups, b = bh / H, h = bh % H;
      const Index kg0 = g * group_keys, kg1 = std::min(ctx.key_limit(b), kg0 + group_keys);
      if (kg0 >= kg1) continue;
      DlogitSink sink;
      if (grads.dkey_boost) sink.dkey_boost = dkey_boost_part.data() + bh * Lk;
      if (grads.drel_bias) sink.drel_bias = drel_part.data() + item * buckets;
      if (want_gate) {
        sink.dgate_row = dgate_row_part.data() + item * Lq;
        sink.dgate_key = dgate_key.data() + bh * Lk;
      }
      if (dbias_direct) sink.dbias = dbias_acc.data();
      if (grads.dm && !spec.zscore) sink.dsim_logd = &dm_part[static_cast<size_t>(item)];
      if (grads.dtime_decay) sink.dtime_decay = &dlambda_part[static_cast<size_t>(item)];
      for (Index qb = 0; qb < nqb; ++qb) {
        s.tiles.clear();
        plan_key_tiles(spec, ctx.r.pos_offset, ctx.elementwise_masks, qb * kBlockQ,
                       std::min(Lq, (qb + 1) * kBlockQ), kg0, kg1, s.tiles);
        if (s.tiles.empty()) continue;
        load_block(s, call, ra, b, h, qb);
        const QueryBlock& blk = s.blk;
        const Index row0 = bh * Lq + blk.i0;
        float* dq_dst = nullptr;
        if (grads.dq)
          dq_dst = groups == 1 ? grads.dq + row0 * D : dq_part.data() + (item * Lq + blk.i0) * D;
        const float* q_rows = in.q + row0 * D;
        const float* dout_rows = dout + row0 * Dv;
        std::fill(s.hq_acc.begin(), s.hq_acc.end(), 0.0f);
        for (const KeyTile& tile : s.tiles) {
          tile_products(s, ctx, b, h, tile);
          backward_tile_scores(s.st.data(), s.dp.data(), s.tg, s.ss, ctx, blk, s.rows, tile, s.lt, sink);
          const Index key0 = bh * Lk + tile.j0;
          if (grads.dv)
            ctx.k.accumulate_product(grads.dv + key0 * Dv, tile.stride * Dv, s.st.data(), kBlockQ,
                                     1, dout_rows, Dv, tile.n, blk.nq, Dv);
          if (grads.dk) {
            float* dk0 = grads.dk + key0 * D;
            ctx.k.accumulate_product(dk0, tile.stride * D, s.dp.data(), kBlockQ, 1, q_rows, D,
                                     tile.n, blk.nq, D);
            for (Index t = 0; t < tile.n; ++t) {
              const float hk = s.tg.hk[static_cast<size_t>(t)];
              if (hk == 0.0f) continue;
              float* dkj = dk0 + t * tile.stride * D;
              const float* kj = s.lt.k + t * s.lt.ldk;
              for (Index d = 0; d < D; ++d) dkj[d] += hk * kj[d];
            }
          }
          if (dq_dst) {
            ctx.k.accumulate_product(dq_dst, D, s.dp.data(), 1, kBlockQ, s.lt.k, s.lt.ldk, blk.nq,
                                     tile.n, D);
            for (Index ii = 0; ii < blk.nq; ++ii) s.hq_acc[static_cast<size_t>(ii)] += s.tg.hq[static_cast<size_t>(ii)];
          }
          if (ctx.fuzzy && grads.dv) crisp_dv(grads.dv, s, call, ra, b, h, tile);
        }
        if (dq_dst)
          for (Index ii = 0; ii < blk.nq; ++ii) {
            const float hq = s.hq_acc[static_cast<size_t>(ii)];
            if (hq == 0.0f) continue;
            for (Index d = 0; d < D; ++d) dq_dst[ii * D + d] += hq * q_rows[ii * D + d];
          }
      }
    }
  }

  // ---- reductions in fixed order ----
  if (grads.dq && groups > 1) {
#pragma omp parallel for schedule(static) num_threads(threads)
    for (Index bh = 0; bh < B * H; ++bh)
      for (Index g = 0; g < groups; ++g) {
        const float* part = dq_part.data() + (bh * groups + g) * Lq * D;
        float* dst = grads.dq + bh * Lq * D;
        for (Index e = 0; e < Lq * D; ++e) dst[e] += part[e];
      }
  }
  if (want_gate) {
    std::vector<float> dgate_row(static_cast<size_t>(B * H * Lq), 0.0f);
    for (Index item = 0; item < items; ++item) {
      float* dst = dgate_row.data() + (item / groups) * Lq;
      const float* part = dgate_row_part.data() + item * Lq;
      for (Index i = 0; i < Lq; ++i) dst[i] += part[i];
    }
    gate_terms_backward(grads, dgate_row, dgate_key, in);
  }
  if (grads.dkey_boost)
    for (Index b = 0; b < B; ++b)
      for (Index h = 0; h < H; ++h)
        for (Index j = 0; j < Lk; ++j)
          grads.dkey_boost[b * Lk + j] += dkey_boost_part[static_cast<size_t>((b * H + h) * Lk + j)];
  if (grads.drel_bias)
    for (Index item = 0; item < items; ++item) {
      const Index h = (item / groups) % H;
      for (Index e = 0; e < buckets; ++e)
        grads.drel_bias[h * buckets + e] += drel_part[static_cast<size_t>(item * buckets + e)];
    }
  if (grads.dm) {
    // d sim / d m = a^2 ln(d2 + eps) = -a sim: dm = a^2 sum dsim ln(d2 + eps) = -a sum dsim sim.
    const double a = 1.0 / (static_cast<double>(spec.m) - 1.0);
    double sum = 0.0;
    if (spec.zscore) {
      for (const double x : ra.zscore_dm) sum += x;
      *grads.dm += static_cast<float>(-a * sum);
    } else {
      for (const double x : dm_part) sum += x;
      *grads.dm += static_cast<float>(a * a * sum);
    }
  }
  if (grads.dtime_decay) {
    double sum = 0.0;
    for (const double x : dlambda_part) sum += x;
    *grads.dtime_decay += static_cast<float>(sum);
  }
  if (grads.dbias && !dbias_direct) {
    // Items own bias elements: (own b, own h, own query block); broadcast dimensions run serially.
    const Index own_qb = bs[2] == 1 ? 1 : nqb;
    const Index bias_items = bs[0] * bs[1] * own_qb;
#pragma omp parallel num_threads(threads)
    {
      Scratch s;
#pragma omp for schedule(dynamic)
      for (Index item = 0; item < bias_items; ++item) {
        const Index bb = item / (bs[1] * own_qb), hh = (item / own_qb) % bs[1], iq = item % own_qb;
        DlogitSink sink;
        sink.dbias = dbias_acc.data();
        for (Index b = bs[0] == 1 ? 0 : bb; b < (bs[0] == 1 ? B : bb + 1); ++b)
          for (Index h = bs[1] == 1 ? 0 : hh; h < (bs[1] == 1 ? H : hh + 1); ++h)
            for (Index qb = own_qb == 1 ? 0 : iq; qb < (own_qb == 1 ? nqb : iq + 1); ++qb) {
              s.tiles.clear();
              plan_key_tiles(spec, ctx.r.pos_offset, ctx.elementwise_masks, qb * kBlockQ,
                             std::min(Lq, (qb + 1) * kBlockQ), 0, ctx.key_limit(b), s.tiles);
              load_block(s, call, ra, b, h, qb);
              for (const KeyTile& tile : s.tiles) {
                tile_products(s, ctx, b, h, tile);
                backward_tile_scores(s.st.data(), s.dp.data(), s.tg, s.ss, ctx, s.blk, s.rows, tile,
                                     s.lt, sink);
              }
            }
      }
    }
  }
  if (grads.dbias)
    for (Index e = 0; e < bias_count; ++e) grads.dbias[e] += static_cast<float>(dbias_acc[static_cast<size_t>(e)]);
}

}  // namespace HWY_NAMESPACE
}  // namespace kessel::attention_detail
HWY_AFTER_NAMESPACE();

#endif  // KESSEL_ATTENTION_FUSED_BACKWARD_INL_H_
