// Adaptive temperature (AttentionSpec::adaptive_temperature): tau_i = temperature / a_i with
// a_i = 1 + c * mean_d |q_id|, one per query row. For the dot similarity, row i's logits
// scale * <q_i, k_j> * a_i / temperature (times a multiplicative decay, plus the additive terms) are
// those of the query q'_i = a_i q_i, so the kernels run unchanged on q' and the backward maps their
// dq' back through a_i:
//     dq_i = a_i dq'_i + (c / D) <dq'_i, q_i> sign(q_i),      dc = sum_i <dq'_i, q_i> mean_d |q_id|.
#pragma once

#include <vector>

#include "kessel/attention.h"

namespace kessel::attention_detail {

// The queries scaled by their rows' factors a_i, and the factors.
struct ScaledQueries {
  std::vector<float> q;       // [B, H, Lq, D]
  std::vector<float> factor;  // a_i, [B, H, Lq]
  std::vector<float> mean_abs;  // mean_d |q_id|, [B, H, Lq]
};
ScaledQueries scale_queries(const AttentionInputs& in, float coef);

// Adds the gradients of q and c to dq / dcoef (either may be null) from dq' = dL/dq'.
void adaptive_temperature_backward(float* dq, float* dcoef, const std::vector<float>& dq_scaled,
                                   const AttentionInputs& in, const ScaledQueries& sq, float coef);

}  // namespace kessel::attention_detail
