// Tiling of the fused attention path: which key tiles a query block must visit, and whether each is
// fully visible (no per-element mask checks) or partially visible (per-element checks).
//
// A key tile is an arithmetic progression of keys j = j0 + t * stride, t < n. Ordinary tiles are
// contiguous (stride 1). Under chunk-and-bridge masking, keys before the query block's first chunk
// can only be bridges (every C-th token), so those are visited as tiles of stride C: the cost is
// proportional to what is visible, and the kernels read the rows in place through the stride.
#pragma once

#include <algorithm>
#include <vector>

#include "attention/score_terms.h"
#include "kessel/attention.h"

namespace kessel::attention_detail {

inline constexpr Index kBlockQ = 64;  // query rows per block (the vector dimension of a score tile)
inline constexpr Index kBlockK = 64;  // keys per tile

enum class TileKind : std::uint8_t { kFull, kPartial };

struct KeyTile {
  Index j0 = 0;
  Index stride = 1;
  Index n = 0;
  TileKind kind = TileKind::kPartial;
  Index key(Index t) const { return j0 + t * stride; }
};

// Whether the per-element masks (allowed_keys, mask, lag by time) are present: then no tile is full.
inline bool has_elementwise_masks(const AttentionInputs& in, const AttentionSpec& spec) {
  return in.allowed_keys != nullptr || !in.mask.empty() || (spec.min_lag >= 0 && spec.lag_by_time);
}

// Whether every (query position in [p0, p1]) x (key of the tile) pair passes the position masks.
// Exact for the monotone masks (causal, window, lag) by their corners; for chunks, a contiguous tile
// is full only when queries and keys all share one chunk, a bridge tile when it ends before p0's chunk.
inline bool tile_fully_visible(const AttentionSpec& spec, Index p0, Index p1, Index kmin, Index kmax,
                               bool bridge_tile) {
  if (spec.causal && kmax > p0) return false;
  if (spec.window >= 0 && (p1 - kmin > spec.window || kmax - p0 > spec.window)) return false;
  if (spec.min_lag >= 0 && !spec.lag_by_time && kmax > p0 - spec.min_lag) return false;
  if (spec.chunk_size > 0) {
    const Index c = spec.chunk_size;
    if (p0 < 0 || kmin < 0) return false;
    if (bridge_tile) return kmax < (p0 / c) * c;
    if (!(kmin / c == kmax / c && kmax / c == p0 / c && p0 / c == p1 / c)) return false;
  }
  return true;
}

// Tiles for query rows [i0, i1) over keys [ka, kb) (kb already cut at key_lengths). Appends to `tiles`;
// returns how many of the nominal contiguous tiles of [ka, kb) are not visited as contiguous tiles
// (hidden by the masks, or replaced by bridge tiles).
inline Index plan_key_tiles(const AttentionSpec& spec, Index pos_offset, bool elementwise_masks,
                            Index i0, Index i1, Index ka, Index kb, std::vector<KeyTile>& tiles) {
  const Index nominal = (kb - ka + kBlockK - 1) / kBlockK;
  const Index p0 = i0 + pos_offset, p1 = i1 - 1 + pos_offset;
  Index lo = ka, hi = kb - 1;  // inclusive bounds of the keys any query of the block may see
  if (spec.causal) hi = std::min(hi, p1);
  if (spec.min_lag >= 0 && !spec.lag_by_time) hi = std::min(hi, p1 - spec.min_lag);
  if (spec.window >= 0) {
    lo = std::max(lo, p0 - spec.window);
    hi = std::min(hi, p1 + spec.window);
  }
  Index contiguous_from = lo;
  const auto kind_of = [&](Index kmin, Index kmax, bool bridge) {
    return !elementwise_masks && tile_fully_visible(spec, p0, p1, kmin, kmax, bridge)
               ? TileKind::kFull
               : TileKind::kPartial;
  };
  if (spec.chunk_size > 0 && p0 >= 0) {
    const Index c = spec.chunk_size;
    hi = std::min(hi, (p1 / c + 1) * c - 1);  // nothing after the last query's chunk
    const Index bridge_end = std::min(hi + 1, (p0 / c) * c);
    // The first bridge (j % c == c - 1) at or after lo.
    Index j = lo <= c - 1 ? c - 1 : ((lo - (c - 1) + c - 1) / c) * c + (c - 1);
    while (j < bridge_end) {
      const Index n = std::min(kBlockK, (bridge_end - 1 - j) / c + 1);
      tiles.push_back({j, c, n, kind_of(j, j + (n - 1) * c, true)});
      j += n * c;
    }
    contiguous_from = std::max(lo, (p0 / c) * c);
  }
  Index visited = 0;
  for (Index j = contiguous_from; j <= hi; j += kBlockK) {
    const Index n = std::min(kBlockK, hi + 1 - j);
    tiles.push_back({j, 1, n, kind_of(j, j + n - 1, false)});
    ++visited;
  }
  return std::max<Index>(0, nominal - visited);
}

}  // namespace kessel::attention_detail
