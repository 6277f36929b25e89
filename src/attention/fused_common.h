// Shared pieces of the fused forward and backward passes: the resolved call context, per-block
// scratch, key-tile loading (int8 dequantization), and the per-element score pipeline of the general
// path in the key-major tile layout st[j][i] (see tile_kernels.h).
#pragma once

#include <cmath>
#include <cstdint>
#include <vector>

#include "attention/boost_gate.h"
#include "attention/fused_plan.h"
#include "attention/score_terms.h"
#include "attention/tile_kernels.h"
#include "kessel/attention.h"

namespace kessel::attention_detail {

// Which per-tile score code runs. kHot*: the plain dot product and plain fuzzy memberships, with at
// most a key boost, in one pass; kStaged: everything else, stage by stage (staged_scores.h).
enum class ScorePath { kHotDot, kHotFuzzy, kStaged };

struct FusedContext {
  const AttentionInputs& in;
  const AttentionSpec& spec;
  const tile::Kernels& k;  // the tile kernels of the variant fused_dispatch.cc chose for this op
  ResolvedSpec r;
  ScorePath path;
  bool fuzzy;
  bool fuzzy_direct;       // fuzzy m = 2 without terms: weight = 1/(d2 + eps), no exp/log, no max
  bool fuzzy_power;        // other hot fuzzy without key_boost: w = (d2 + eps)^(-a) in one pass
  bool need_norms;         // similarity needs |q|^2, |k|^2 (fuzzy, neg_sq_euclidean, cosines)
  bool elementwise_masks;  // allowed_keys / mask / lag by time: every tile partial
  float dot_factor;        // hot dot: scale * inv_temperature
  float fuzzy_a;           // 1/(m-1)
  // Key norms [B, H, Lk], computed once per call (need_norms only; see compute_key_norms).
  std::vector<float> k_sqnorm_all, k_norm_all;
  // The key boost's gate (boost_gate.h): u [B, H, Lq] and v [B, H, Lk], once per call (boost_gate only).
  GateTerms gate;
  bool gated() const { return in.boost_gate != nullptr; }

  FusedContext(const AttentionInputs& in_, const AttentionSpec& spec_, const tile::Kernels& k_);

  Index key_limit(Index b) const {
    return in.key_lengths.empty() ? in.Lk
                                  : std::min(in.Lk, in.key_lengths[static_cast<size_t>(b)]);
  }
};

// Per-query-block data used by the score code: packed Q^T and per-row norms and z-score statistics.
struct QueryBlock {
  Index b = 0, h = 0, i0 = 0, nq = 0;
  std::vector<float> qt;        // [D][kBlockQ], zero beyond nq
  std::vector<float> q_sqnorm;  // [kBlockQ] |q_i|^2
  std::vector<float> q_norm;    // [kBlockQ] max(|q_i|, cosine_eps)
  std::vector<float> z_mean, z_inv_sigma;  // [kBlockQ] zscore statistics (zscore only)
  std::vector<float> z_count;              // visible keys per row (zscore only)
};

// One loaded key tile: row pointers (in place, or dequantized int8 copies) and per-key norms.
struct LoadedTile {
  const float* k = nullptr;  // row t at k + t * ldk
  const float* v = nullptr;  // row t at v + t * ldv
  Index ldk = 0, ldv = 0;
  std::vector<float> k_buf, v_buf;  // int8 dequantization
  std::vector<float> k_sqnorm, k_norm;  // [n]
};


// d2 = |q|^2 + |k|^2 - 2 q.k from the tile product loses its relative precision when d2 is small
// against the norms (cancellation); there it is recomputed directly as sum (q - k)^2. Near matches
// dominate fuzzy weights, so this is what keeps fuzzy rows accurate.
inline constexpr float kCancellationRatio = 1.0f / 16.0f;

inline float direct_sq_distance(const QueryBlock& blk, Index ii, const float* krow, Index D) {
  float s = 0.0f;
  for (Index d = 0; d < D; ++d) {
    const float diff = blk.qt[static_cast<size_t>(d * kBlockQ + ii)] - krow[d];
    s += diff * diff;
  }
  return s;
}

inline float tile_sq_distance(const QueryBlock& blk, Index ii, const float* krow, Index D, float raw,
                              float nq2, float nk2) {
  const float d2 = nq2 + nk2 - 2.0f * raw;
  return d2 >= kCancellationRatio * (nq2 + nk2) ? d2 : direct_sq_distance(blk, ii, krow, D);
}

// Whether a fuzzy element is an exact match (header, step 7).
inline bool fuzzy_exact_match(const FusedContext& ctx, float d2, float nq2, float nk2) {
  return d2 <= ctx.spec.fuzzy_match_tol * (nq2 + nk2);
}

// The functions over these (load_query_block, load_key_tile, the score code) are per-target:
// fused_common-inl.h.

// What one work item saw, summed into AttentionStats.
struct BlockCounts {
  Index fully_masked = 0, crisp = 0, visited = 0, skipped = 0;
  BlockCounts& operator+=(const BlockCounts& o) {
    fully_masked += o.fully_masked;
    crisp += o.crisp;
    visited += o.visited;
    skipped += o.skipped;
    return *this;
  }
};
#pragma omp declare reduction(+ : BlockCounts : omp_out += omp_in)

// Runs block(scratch, b, h, query_block, counts) for every (b, h, query block of kBlockQ rows) in
// OpenMP, one Scratch per thread, dynamic schedule; each item is computed by one thread, so any
// thread count gives the same result. Returns the summed counts. One thread or one item runs on the
// caller's thread without an OpenMP region: a small call (an EACA layer over a dozen units, 5 calls
// a dialogue) paid more for the region than for its one block.
template <typename Scratch, typename Block>
AttentionStats for_each_query_block(const AttentionInputs& in, int threads, Block&& block) {
  const Index nqb = (in.Lq + kBlockQ - 1) / kBlockQ;
  const Index items = in.B * in.H * nqb;
  auto counts_of = [&](Scratch& s, Index item) {
    BlockCounts c;
    const Index bh = item / nqb;
    block(s, bh / in.H, bh % in.H, item % nqb, c);
    return c;
  };
  BlockCounts total;
  if (threads <= 1 || items <= 1) {
    Scratch s;
    for (Index item = 0; item < items; ++item) total += counts_of(s, item);
  } else {
#pragma omp parallel num_threads(threads)
    {
      Scratch s;
#pragma omp for schedule(dynamic) reduction(+ : total)
      for (Index item = 0; item < items; ++item) total += counts_of(s, item);
    }
  }
  AttentionStats stats;
  stats.fully_masked_rows = total.fully_masked;
  stats.crisp_rows = total.crisp;
  stats.key_tiles_visited = total.visited;
  stats.key_tiles_skipped = total.skipped;
  return stats;
}


}  // namespace kessel::attention_detail
