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
  std::vector<float> z;     // z: zscored similarity, or the similarity under multiplicative decay
                            // with times (backward: d logit / d lambda needs it)
  std::vector<float> logd;  // ln(d2 + eps) (fuzzy dm, backward)
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

// The staged score code over these is per-target: staged_scores-inl.h.

}  // namespace kessel::attention_detail
