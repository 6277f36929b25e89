// Per-tile score backward of the fused path: from the recomputed raw products Q K^T and dP = dO V^T
// of one tile (key-major, st[t][ii]) to the weights P and the coefficients of the q/k gradients.
//
// For each visible element, with logit = z * mult + terms, P = exp(logit - lse_i):
//   dlogit = P (dP - D_i),  D_i = dout_i . out_i                        (softmax backward)
//   dz     = dlogit * mult                                              (decay, temperature)
//   dsim   = (dz - mean_i(dz) - z mean_i(dz z)) / sigma_i               (zscore; else dsim = dz)
//   dm    += a^2 dsim ln(d2 + eps)                                      (fuzzy, a = 1/(m - 1))
//   dlambda += dlogit * (-|dt|)  (additive),  dlogit * (-|dt| z mult)  (multiplicative)
// and the similarity backward is written as dq_i += g_ij k_j + hq_ij q_i, dk_j += g_ij q_i + hk_ij k_j,
// so that the cross terms become the tile products dQ += G K, dK += G^T Q.
#pragma once

#include <vector>

#include "attention/fused_common.h"
#include "attention/staged_scores.h"

namespace kessel::attention_detail {

// Row data of one query block for the backward.
struct BackwardRows {
  std::vector<float> dot;          // dO^T [Dv][kBlockQ], zero beyond nq
  std::vector<float> drow;         // [kBlockQ] D_i
  std::vector<float> lse;          // [kBlockQ] forward lse; -inf (no key) and +inf (crisp) -> +inf
  std::vector<float> zdz_mean;     // [kBlockQ] mean_i(dz)   (zscore)
  std::vector<float> zdzz_mean;    // [kBlockQ] mean_i(dz z) (zscore)
};

struct TileGrads {
  std::vector<float> hq = std::vector<float>(kBlockQ);  // sum over the tile of hq_ij, per row
  std::vector<float> hk = std::vector<float>(kBlockK);  // sum over the tile of hk_ij, per key
  std::vector<float> d2;                                // hot fuzzy scratch [kBlockK][kBlockQ]
  std::vector<float> logd;                              // hot fuzzy ln(d2 + eps) (dm only)
};

// Per-element sink for dlogit (score-term gradients) and, in the zscore statistics pass, (dz, z).
struct DlogitSink {
  float* dkey_boost = nullptr;  // [Lk] of this (b): += dlogit at key j (the (b, h) partial row); gated: g dlogit
  float* dgate_row = nullptr;   // [Lq] of this work item: du_i (boost_gate.h)
  float* dgate_key = nullptr;   // [Lk] of this (b, h): dv_j (work items own their keys)
  float* drel_bias = nullptr;   // [rel_buckets] of this work item
  double* dbias = nullptr;      // bias's own shape (double accumulator), or null
  double* zdz = nullptr;        // [kBlockQ] sums of dz (zscore statistics pass)
  double* zdzz = nullptr;       // [kBlockQ] sums of dz z
  // The spec's scalars (one accumulator per work item): fuzzy sums of dsim * ln(d2 + eps), from
  // which dm = a^2 * sum (a = 1/(m - 1)); sums of dlogit * d logit / d lambda (dtime_decay).
  double* dsim_logd = nullptr;
  double* dtime_decay = nullptr;
};

// backward_tile_scores, the per-tile score backward, is per-target: fused_backward_scores-inl.h.

}  // namespace kessel::attention_detail
