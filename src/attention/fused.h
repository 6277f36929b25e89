// The fused path: tiled over query and key blocks with online normalization; never materializes more
// than one [query block, key block] tile per thread. Same contract as the reference path.
#pragma once

#include "kessel/attention.h"

namespace kessel::attention_detail {

AttentionStats fused_forward(float* out, float* lse, const AttentionInputs& in,
                             const AttentionSpec& spec);

// weights [B, H, Lq, Lk], one query block's rows at a time from the same tiles and score code.
AttentionStats fused_weights(float* weights, const AttentionInputs& in, const AttentionSpec& spec);

// Adds into grads (see AttentionGrads). Recomputes weights from lse.
void fused_backward(const AttentionGrads& grads, const float* dout, const float* out,
                    const float* lse, const AttentionInputs& in, const AttentionSpec& spec);

}  // namespace kessel::attention_detail
