// Score options that scale each query row's similarities, computed above the kernels. For the dot
// similarity (without zscore) multiplying row i's similarities by f_i is attention on the query
// q'_i = f_i q_i, so the reference and fused kernels run unchanged on q' and the backward maps their
// dL/dq' back through f_i. Two options make f_i = s_b a_i:
//   adaptive temperature  a_i = 1 + c mean_d |q_id|   (seed 004 §3.2; tau_i = temperature / a_i)
//   emotion-ratio balance s_b = 1 - gamma rho_b, with the key boost scaled by gamma rho_b
//                         (seed 004 §4.2 step 3; rho_b the dialogue's share of emotion tokens)
// Backward, with g = dL/dq':
//   dq_i = f_i g_i + s_b (c / D) <g_i, q_i> sign(q_i)   (the second term: adaptive only)
//   dc   = sum_i s_b <g_i, q_i> mean_d |q_id|
//   dkey_boost_bj = gamma rho_b dL/dkey_boost'_bj
// The fixed temperature stays in the spec the kernels see; f_i carries only what varies by row.
#pragma once

#include <vector>

#include "kessel/attention.h"

namespace kessel::attention_detail {

struct ScaledQueries {
  std::vector<float> q;         // q' [B, H, Lq, D]
  std::vector<float> factor;    // f_i = s_b a_i, [B, H, Lq]
  std::vector<float> mean_abs;  // mean_d |q_id| (adaptive temperature), [B, H, Lq]
  std::vector<float> key_boost;  // gamma rho_b key_boost [B, Lk] (balance); empty otherwise
};

// True when the spec scales query rows (adaptive_temperature, or balance inputs given).
bool scales_queries(const AttentionInputs& in, const AttentionSpec& spec);
ScaledQueries scale_queries(const AttentionInputs& in, const AttentionSpec& spec);

// Adds dq and dcoef (either may be null) from dq_scaled = dL/dq', and dkey_boost from
// dboost_scaled = dL/dkey_boost' (when the balance scaled the boost).
void scaled_queries_backward(float* dq, float* dcoef, float* dkey_boost, const std::vector<float>& dq_scaled,
                             const std::vector<float>& dboost_scaled, const AttentionInputs& in,
                             const AttentionSpec& spec, const ScaledQueries& sq);

}  // namespace kessel::attention_detail
