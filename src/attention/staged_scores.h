// The staged score path of the fused kernels: every score the hot paths (hot_dot_logits,
// hot_fuzzy_scores) do not cover — cosine, constrained cosine and negative squared Euclidean
// similarities, zscore, multiplicative decay, temperature, the additive terms (bias, ALiBi, T5
// buckets, time decay, key boost), and fuzzy memberships combined with any of them.
//
// The pipeline of include/kessel/attention.h (steps 1-6) runs a whole key tile at a time, one stage
// after another over the key-major tile st[t][ii] (fused_plan.h), so that each stage is a loop over
// the kBlockQ query rows that the compiler vectorizes, with per-key and per-row factors hoisted:
//
//   staged_similarity  raw Q K^T -> sim                       (step 1; d2 with cancellation fix-up)
//   staged_terms       sim -> logit = z * mult + terms        (steps 2-5)
//   staged_logits      + masks (hidden -inf) and fuzzy exact matches (forward, weights)
//   staged_backward    logits -> P, dS, and the similarity's gradient coefficients (backward)
//
// The reference path (reference.cc) is the specification: it computes the same formulas one element
// at a time (score_terms.h), and tests/cpp/attention/fused_test.cc compares the two over every
// similarity, normalizer, mask and score term, forward and backward.
//
// Internal header: inputs are assumed validated (validate_attention).
#pragma once

#include <vector>

#include "attention/fused_common.h"

namespace kessel::attention_detail {

struct BackwardRows;  // fused_backward_scores.h
struct TileGrads;
struct DlogitSink;

// Per-thread scratch of the staged path; tile-sized buffers are [kBlockK][kBlockQ].
struct StagedScratch {
  std::vector<float> raw;   // raw products (cosine kinds, kept for the backward)
  std::vector<float> d2;    // squared distances (fuzzy, neg_sq_euclidean)
  std::vector<float> sg;    // sigmoid(scale * raw) (constrained cosine)
  std::vector<float> z;     // z-scored similarity (zscore, backward)
  std::vector<float> mult;  // d logit / d z: multiplicative decay / temperature (backward)
  std::vector<float> vis;   // 1 where the element takes part, else 0 (backward)
  std::vector<float> inv_qn;  // [kBlockQ] 1/|q| (cosine kinds; 0 beyond nq)
  std::vector<float> tq;      // [kBlockQ] query times (0 beyond nq or without time decay)
  std::vector<float> rel;   // T5 bucket values over a tile's relative positions
  std::vector<Index> exact; // fuzzy exact-match candidates of the tile, as t * kBlockQ + ii
  // The raw products Q K^T of the block's tiles, kept by zscore_statistics for the pass after it
  // (tile k at k * kBlockK * kBlockQ) when the block sees at most kMaxKeptProductTiles tiles.
  std::vector<float> products;
  Index products_kept = 0;  // tiles kept (0: none; the next pass recomputes its products)
};

// zscore_statistics keeps the raw products of at most this many key tiles (4 MiB per thread, 16,384
// keys); a block that sees more recomputes them in the pass after the statistics.
inline constexpr Index kMaxKeptProductTiles = 256;

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

}  // namespace kessel::attention_detail
