// Public entry points: validate once at the boundary, then dispatch on spec.impl.
#include "kessel/attention.h"

#include "attention/fused.h"
#include "attention/reference.h"
#include "attention/tile_kernels.h"
#include "kessel/error.h"

namespace kessel {

const char* attention_kernel_variant() { return attention_detail::tile::active_kernels().variant; }

AttentionStats attention_forward(float* out, float* lse, const AttentionInputs& in,
                                 const AttentionSpec& spec) {
  KESSEL_CHECK_ARG(out != nullptr, "attention_forward: out is null");
  validate_attention(in, spec);
  if (spec.impl == AttentionImpl::kReference)
    return attention_detail::reference_forward(out, lse, nullptr, in, spec);
  return attention_detail::fused_forward(out, lse, in, spec);
}

void attention_backward(const AttentionGrads& grads, const float* dout, const float* out,
                        const float* lse, const AttentionInputs& in, const AttentionSpec& spec) {
  KESSEL_CHECK_ARG(in.kv_dtype == KvDtype::kFloat32,
                   "attention_backward: kv_dtype = int8 is inference-only; the backward needs "
                   "float32 k and v");
  KESSEL_CHECK_ARG(dout != nullptr, "attention_backward: dout is null");
  KESSEL_CHECK_ARG(out != nullptr, "attention_backward: out (the forward's output) is null");
  KESSEL_CHECK_ARG(lse != nullptr, "attention_backward: lse (the forward's lse) is null");
  KESSEL_CHECK_ARG(grads.dbias == nullptr || !in.bias.empty(),
                   "attention_backward: dbias is set but there is no bias input");
  KESSEL_CHECK_ARG(grads.drel_bias == nullptr || in.rel_bias != nullptr,
                   "attention_backward: drel_bias is set but there is no rel_bias input");
  KESSEL_CHECK_ARG(grads.dkey_boost == nullptr || in.key_boost != nullptr,
                   "attention_backward: dkey_boost is set but there is no key_boost input");
  KESSEL_CHECK_ARG(grads.dm == nullptr || spec.normalizer == Normalizer::kFuzzy,
                   "attention_backward: dm is set but normalizer is softmax (m is the fuzzy "
                   "normalizer's fuzzifier)");
  KESSEL_CHECK_ARG(grads.dtime_decay == nullptr || in.q_times != nullptr,
                   "attention_backward: dtime_decay is set but there are no q_times/k_times");
  validate_attention(in, spec);
  if (spec.impl == AttentionImpl::kReference)
    return attention_detail::reference_backward(grads, dout, out, lse, in, spec);
  attention_detail::fused_backward(grads, dout, out, lse, in, spec);
}

AttentionStats attention_weights(float* weights, const AttentionInputs& in,
                                 const AttentionSpec& spec) {
  KESSEL_CHECK_ARG(weights != nullptr, "attention_weights: weights is null");
  validate_attention(in, spec);
  if (spec.impl == AttentionImpl::kReference)
    return attention_detail::reference_forward(nullptr, nullptr, weights, in, spec);
  return attention_detail::fused_weights(weights, in, spec);
}

}  // namespace kessel
