// Shared per-tile pieces of the fused forward and backward passes: query and key tile loading, masking
// of partial tiles, the hot dot-product logits, tile planning (declarations as in fused_common.h).
//
// Per-target code: fused_dispatch.cc includes this file once per Highway target (foreach_target.h
// re-includes it; the guard below toggles with HWY_TARGET_TOGGLE), so everything here is compiled
// with that target's instruction set, the compiler's own vectorization of the plain loops included.
#if defined(KESSEL_ATTENTION_FUSED_COMMON_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef KESSEL_ATTENTION_FUSED_COMMON_INL_H_
#undef KESSEL_ATTENTION_FUSED_COMMON_INL_H_
#else
#define KESSEL_ATTENTION_FUSED_COMMON_INL_H_
#endif

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <vector>

#include "attention/fused_common.h"
#include "attention/tile_kernels.h"
#include "hwy/highway.h"

HWY_BEFORE_NAMESPACE();
namespace kessel::attention_detail {
namespace HWY_NAMESPACE {
inline constexpr float kPosInf = std::numeric_limits<float>::infinity();

// Fills ctx.k_sqnorm_all / k_norm_all when the similarity needs them (parallel over rows).
void compute_key_norms(FusedContext& ctx, int threads);

// Packs q rows [i0, i0+nq) of head (b, h) into blk (Q^T, norms); sizes its vectors.
void load_query_block(QueryBlock& blk, const FusedContext& ctx, Index b, Index h, Index i0, Index nq);

// Points `lt` at the tile's K/V rows (dequantizing int8 ones) and computes key norms when needed.
void load_key_tile(LoadedTile& lt, const FusedContext& ctx, Index b, Index h, const KeyTile& tile,
                   bool need_v);
// The key tiles query rows [i0, i0 + nq) of batch b can see (fused_plan.h), into `tiles`; counts the
// visited tiles and the skipped ones (hidden by structured masks or beyond the key length).
void plan_block_tiles(std::vector<KeyTile>& tiles, const FusedContext& ctx, Index b, Index i0, Index nq,
                      BlockCounts& counts);

// Hidden elements of a partial tile get `hidden_value` (only rows < nq matter).
void mask_partial_tile(float* st, const FusedContext& ctx, const QueryBlock& blk, const KeyTile& tile,
                       float hidden_value);

// Hot dot path (ScorePath::kHotDot): raw products in st[t][ii] -> logits raw * scale / temperature +
// key_boost[j]; hidden -> -inf.
void hot_dot_logits(float* st, const FusedContext& ctx, const QueryBlock& blk, const KeyTile& tile);


void load_query_block(QueryBlock& blk, const FusedContext& ctx, Index b, Index h, Index i0,
                      Index nq) {
  const AttentionInputs& in = ctx.in;
  blk.b = b, blk.h = h, blk.i0 = i0, blk.nq = nq;
  blk.qt.assign(static_cast<size_t>(in.D * kBlockQ), 0.0f);
  blk.q_sqnorm.assign(kBlockQ, 0.0f);
  blk.q_norm.assign(kBlockQ, 0.0f);
  const float* q = in.q + ((b * in.H + h) * in.Lq + i0) * in.D;
  for (Index ii = 0; ii < nq; ++ii) {
    float s = 0.0f;
    for (Index d = 0; d < in.D; ++d) {
      const float x = q[ii * in.D + d];
      blk.qt[static_cast<size_t>(d * kBlockQ + ii)] = x;
      s += x * x;
    }
    blk.q_sqnorm[static_cast<size_t>(ii)] = s;
    blk.q_norm[static_cast<size_t>(ii)] = std::max(std::sqrt(s), ctx.spec.cosine_eps);
  }
}

void load_key_tile(LoadedTile& lt, const FusedContext& ctx, Index b, Index h, const KeyTile& tile,
                   bool need_v) {
  const AttentionInputs& in = ctx.in;
  const Index bh = b * in.H + h;
  if (in.kv_dtype == KvDtype::kInt8) {
    // Dequantize just this tile's rows; the int8 arrays are never expanded as a whole.
    lt.k_buf.resize(static_cast<size_t>(tile.n * in.D));
    for (Index t = 0; t < tile.n; ++t) {
      const Index row = bh * in.Lk + tile.key(t);
      const float s = in.k_scale[row];
      for (Index d = 0; d < in.D; ++d)
        lt.k_buf[static_cast<size_t>(t * in.D + d)] = static_cast<float>(in.k_int8[row * in.D + d]) * s;
    }
    lt.k = lt.k_buf.data();
    lt.ldk = in.D;
    if (need_v) {
      lt.v_buf.resize(static_cast<size_t>(tile.n * in.Dv));
      for (Index t = 0; t < tile.n; ++t) {
        const Index row = bh * in.Lk + tile.key(t);
        const float s = in.v_scale[row];
        for (Index d = 0; d < in.Dv; ++d)
          lt.v_buf[static_cast<size_t>(t * in.Dv + d)] =
              static_cast<float>(in.v_int8[row * in.Dv + d]) * s;
      }
      lt.v = lt.v_buf.data();
      lt.ldv = in.Dv;
    }
  } else {
    lt.k = in.k + (bh * in.Lk + tile.j0) * in.D;
    lt.ldk = tile.stride * in.D;
    lt.v = in.v + (bh * in.Lk + tile.j0) * in.Dv;
    lt.ldv = tile.stride * in.Dv;
  }
  if (ctx.need_norms) {
    lt.k_sqnorm.resize(static_cast<size_t>(tile.n));
    lt.k_norm.resize(static_cast<size_t>(tile.n));
    for (Index t = 0; t < tile.n; ++t) {
      const size_t row = static_cast<size_t>(bh * in.Lk + tile.key(t));
      lt.k_sqnorm[static_cast<size_t>(t)] = ctx.k_sqnorm_all[row];
      lt.k_norm[static_cast<size_t>(t)] = ctx.k_norm_all[row];
    }
  }
}

void compute_key_norms(FusedContext& ctx, int threads) {
  if (!ctx.need_norms) return;
  const AttentionInputs& in = ctx.in;
  const Index rows = in.B * in.H * in.Lk;
  ctx.k_sqnorm_all.resize(static_cast<size_t>(rows));
  ctx.k_norm_all.resize(static_cast<size_t>(rows));
  const bool int8 = in.kv_dtype == KvDtype::kInt8;
#pragma omp parallel for schedule(static) num_threads(threads)
  for (Index row = 0; row < rows; ++row) {
    float s = 0.0f;
    for (Index d = 0; d < in.D; ++d) {
      // Same values the tiles see: int8 rows are dequantized exactly as load_key_tile does.
      const float x = int8 ? static_cast<float>(in.k_int8[row * in.D + d]) * in.k_scale[row]
                           : in.k[row * in.D + d];
      s += x * x;
    }
    ctx.k_sqnorm_all[static_cast<size_t>(row)] = s;
    ctx.k_norm_all[static_cast<size_t>(row)] = std::max(std::sqrt(s), ctx.spec.cosine_eps);
  }
}

// Hidden elements of a partial tile get `hidden_value` (only rows < nq matter). The same decisions as
// key_visible (score_terms.h), taken a mask at a time over the tile: the position masks per element
// only where the tile's corners do not already show it fully visible, allowed_keys per key, the mask
// tensor and the lag by time as selects along the rows. Keys at or past key_lengths never reach a
// tile (plan_block_tiles cuts there).
void mask_partial_tile(float* st, const FusedContext& ctx, const QueryBlock& blk,
                       const KeyTile& tile, float hidden_value) {
  const AttentionInputs& in = ctx.in;
  const AttentionSpec& spec = ctx.spec;
  const Index nq = blk.nq, p0 = blk.i0 + ctx.r.pos_offset;
  if (!tile_fully_visible(spec, p0, p0 + nq - 1, tile.j0, tile.key(tile.n - 1), tile.stride > 1))
    for (Index t = 0; t < tile.n; ++t)
      for (Index ii = 0; ii < nq; ++ii)
        if (!position_visible(spec, p0 + ii, tile.key(t))) st[t * kBlockQ + ii] = hidden_value;
  if (in.allowed_keys)
    for (Index t = 0; t < tile.n; ++t)
      if (!in.allowed_keys[blk.b * in.Lk + tile.key(t)])
        std::fill(st + t * kBlockQ, st + t * kBlockQ + nq, hidden_value);
  if (!in.mask.empty()) {
    // Query row by query row: a row's bytes are contiguous in a row-major mask, while walking a key's
    // column steps Lk bytes at a time, and for Lk a multiple of 4096 every step lands in the same
    // L1 cache set (2.3x slower at L = 4096).
    const auto& s = in.mask.strides;
    const std::uint8_t* base =
        in.mask.data + blk.b * s[0] + blk.h * s[1] + blk.i0 * s[2] + tile.j0 * s[3];
    const Index step = tile.stride * s[3];
    std::uint8_t keep[kBlockK][kBlockQ];  // the tile's mask bytes, key-major like st
    // The next contiguous tile reads the following bytes of each of these rows: more streams than
    // the hardware prefetcher follows, so ask for them now (when that tile exists).
    const bool prefetch = tile.j0 + tile.n * tile.stride < in.Lk;
    if (step == 1 && tile.n == kBlockK && nq == kBlockQ) {
      // A full tile of contiguous keys: 8 x 8 byte blocks, each row's 8 keys read as one word and
      // transposed in registers.
      for (Index i8 = 0; i8 < kBlockQ; i8 += 8) {
        for (Index r = 0; r < 8; ++r)
          if (prefetch) __builtin_prefetch(base + (i8 + r) * s[2] + kBlockK);
        for (Index t8 = 0; t8 < kBlockK; t8 += 8) {
          std::uint64_t x[8];
          for (Index r = 0; r < 8; ++r) std::memcpy(&x[r], base + (i8 + r) * s[2] + t8, 8);
          tile::transpose_bytes_8x8(x);
          for (Index c = 0; c < 8; ++c) std::memcpy(&keep[t8 + c][i8], &x[c], 8);
        }
      }
    } else {
      for (Index ii = 0; ii < nq; ++ii) {
        const std::uint8_t* m = base + ii * s[2];
        if (prefetch) __builtin_prefetch(m + tile.n * step);
        for (Index t = 0; t < tile.n; ++t) keep[t][ii] = m[t * step];
      }
    }
    for (Index t = 0; t < tile.n; ++t) {
      float* row = st + t * kBlockQ;
      for (Index ii = 0; ii < nq; ++ii) row[ii] = keep[t][ii] ? row[ii] : hidden_value;
    }
  }
  if (spec.min_lag >= 0 && spec.lag_by_time) {
    const float lag = static_cast<float>(spec.min_lag);
    const float* tq = in.q_times + blk.b * in.Lq + blk.i0;
    for (Index t = 0; t < tile.n; ++t) {
      const float tk = in.k_times[blk.b * in.Lk + tile.key(t)];
      float* row = st + t * kBlockQ;
      for (Index ii = 0; ii < nq; ++ii) row[ii] = tk <= tq[ii] - lag ? row[ii] : hidden_value;
    }
  }
}

// Hot dot path: logits = raw * scale / temperature + key_boost[j]; hidden -> -inf.
void hot_dot_logits(float* st, const FusedContext& ctx, const QueryBlock& blk,
                    const KeyTile& tile) {
  const float c = ctx.dot_factor;
  for (Index t = 0; t < tile.n; ++t) {
    const float boost = ctx.in.key_boost ? ctx.in.key_boost[blk.b * ctx.in.Lk + tile.key(t)] : 0.0f;
    float* row = st + t * kBlockQ;
    for (Index ii = 0; ii < kBlockQ; ++ii) row[ii] = row[ii] * c + boost;
  }
  if (tile.kind == TileKind::kPartial) mask_partial_tile(st, ctx, blk, tile, kNegInf);
}

void plan_block_tiles(std::vector<KeyTile>& tiles, const FusedContext& ctx, Index b, Index i0, Index nq,
                      BlockCounts& counts) {
  tiles.clear();
  const Index lk = ctx.in.Lk, limit = ctx.key_limit(b);
  counts.skipped += plan_key_tiles(ctx.spec, ctx.r.pos_offset, ctx.elementwise_masks, i0, i0 + nq, 0, limit, tiles) +
                    (lk + kBlockK - 1) / kBlockK - (limit + kBlockK - 1) / kBlockK;
  counts.visited += static_cast<Index>(tiles.size());
}

}  // namespace HWY_NAMESPACE
}  // namespace kessel::attention_detail
HWY_AFTER_NAMESPACE();

#endif  // KESSEL_ATTENTION_FUSED_COMMON_INL_H_
