// The plain reference path: materializes the [Lq, Lk] logits and weights of each (b, h), one step of
// include/kessel/attention.h per loop. Slow and obvious on purpose; the fused path is tested against it.
#pragma once

#include "kessel/attention.h"

namespace kessel::attention_detail {

// out [B,H,Lq,Dv]; lse [B,H,Lq] or null; weights [B,H,Lq,Lk] or null.
AttentionStats reference_forward(float* out, float* lse, float* weights, const AttentionInputs& in,
                                 const AttentionSpec& spec);

// Adds into grads (see AttentionGrads).
void reference_backward(const AttentionGrads& grads, const float* dout, const float* out,
                        const float* lse, const AttentionInputs& in, const AttentionSpec& spec);

}  // namespace kessel::attention_detail
