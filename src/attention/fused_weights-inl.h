// Materialized attention weights on the fused path's tiles: one work item per (b, h, query block)
// writes its rows of weights [B, H, Lq, Lk]. Each key tile's logits come from the tile product
// (Kernels::rows_times_packed) and the forward's score code (hot_dot_logits for plain dot products,
// else staged_logits), written straight into the caller's rows; each row is then normalized
// in place: the uniform weight of a fuzzy crisp row's exact matches, zeros for a row with no visible
// key, else exp(logit - max) / sum. The reference path (reference.cc) is the specification; the
// tests compare the two over every similarity, normalizer, mask and score term.
//
// Per-target code: fused_dispatch.cc includes this file once per Highway target (foreach_target.h
// re-includes it; the guard below toggles with HWY_TARGET_TOGGLE), so everything here is compiled
// with that target's instruction set, the compiler's own vectorization of the plain loops included.
#if defined(KESSEL_ATTENTION_FUSED_WEIGHTS_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef KESSEL_ATTENTION_FUSED_WEIGHTS_INL_H_
#undef KESSEL_ATTENTION_FUSED_WEIGHTS_INL_H_
#else
#define KESSEL_ATTENTION_FUSED_WEIGHTS_INL_H_
#endif

#include <algorithm>
#include <cmath>
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
namespace weights_pass {

struct Scratch {
  QueryBlock blk;
  LoadedTile lt;
  StagedScratch ss;
  std::vector<float> st = std::vector<float>(static_cast<size_t>(kBlockK * kBlockQ));
  std::vector<KeyTile> tiles;
  std::vector<std::vector<Index>> exact;  // [kBlockQ] keys that match the query exactly (fuzzy)
};

// One row from logits (hidden: -inf) to weights, in place.
void normalize_row(float* w, Index lk, const std::vector<Index>& exact, const tile::Kernels& k,
                   BlockCounts& counts) {
  if (!exact.empty()) {  // FCM convention: the exact matches share the whole weight
    std::fill(w, w + lk, 0.0f);
    const float share = 1.0f / static_cast<float>(exact.size());
    for (Index j : exact) w[j] = share;
    ++counts.crisp;
    return;
  }
  const float peak = *std::max_element(w, w + lk);
  if (peak == kNegInf) {
    std::fill(w, w + lk, 0.0f);
    ++counts.fully_masked;
    return;
  }
  for (Index j = 0; j < lk; ++j) w[j] -= peak;
  k.exp_array(w, w, lk);  // exp(-inf) = 0 for the hidden keys
  double sum = 0.0;
  for (Index j = 0; j < lk; ++j) sum += w[j];
  const float inv = static_cast<float>(1.0 / sum);
  for (Index j = 0; j < lk; ++j) w[j] *= inv;
}

void weights_block(float* weights, const FusedContext& ctx, Scratch& s, Index b, Index h, Index qb,
                   BlockCounts& counts) {
  const AttentionInputs& in = ctx.in;
  const Index i0 = qb * kBlockQ, nq = std::min(kBlockQ, in.Lq - i0);
  QueryBlock& blk = s.blk;
  load_query_block(blk, ctx, b, h, i0, nq);
  plan_block_tiles(s.tiles, ctx, b, i0, nq, counts);
  if (ctx.spec.zscore) zscore_statistics(blk, s.ss, ctx, s.tiles, s.lt, s.st.data());
  float* rows = weights + ((b * in.H + h) * in.Lq + i0) * in.Lk;
  std::fill(rows, rows + nq * in.Lk, kNegInf);  // keys of skipped tiles stay hidden
  s.exact.assign(kBlockQ, {});
  float* st = s.st.data();
  for (size_t k = 0; k < s.tiles.size(); ++k) {
    const KeyTile& tile = s.tiles[k];
    load_key_tile(s.lt, ctx, b, h, tile, false);
    tile_raw_product(st, s.ss, ctx, blk, s.lt, tile, static_cast<Index>(k));  // kept by zscore
    if (ctx.path == ScorePath::kHotDot) {
      hot_dot_logits(st, ctx, blk, tile);
    } else {  // the hot fuzzy variants are shortcuts of the online sum; weights need the logits
      staged_logits(st, s.ss, ctx, blk, tile, s.lt, [&](Index ii, Index t) {
        s.exact[static_cast<size_t>(ii)].push_back(tile.key(t));
      });
    }
    for (Index t = 0; t < tile.n; ++t) {
      const Index j = tile.key(t);
      const float* col = st + t * kBlockQ;
      for (Index ii = 0; ii < nq; ++ii) rows[ii * in.Lk + j] = col[ii];
    }
  }
  for (Index ii = 0; ii < nq; ++ii) normalize_row(rows + ii * in.Lk, in.Lk, s.exact[static_cast<size_t>(ii)], ctx.k, counts);
}

}  // namespace weights_pass

// fused_weights (fused.h) on this target, with the kernel table `k` chosen at the op's entry.
AttentionStats FusedWeights(float* weights, const AttentionInputs& in, const AttentionSpec& spec,
                            const tile::Kernels& k) {
  using namespace weights_pass;  // NOLINT
  FusedContext ctx(in, spec, k);
  compute_key_norms(ctx, resolve_threads(spec.threads));
  return for_each_query_block<Scratch>(in, resolve_threads(spec.threads),
                                       [&](Scratch& s, Index b, Index h, Index qb, BlockCounts& c) {
                                         weights_block(weights, ctx, s, b, h, qb, c);
                                       });
}

}  // namespace HWY_NAMESPACE
}  // namespace kessel::attention_detail
HWY_AFTER_NAMESPACE();

#endif  // KESSEL_ATTENTION_FUSED_WEIGHTS_INL_H_
