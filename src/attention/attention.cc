// Public entry points: validate once at the boundary, then dispatch on spec.impl. The adaptive
// temperature and the emotion-ratio balance are applied here, above the kernels, as the queries
// they scale (query_scale.h).
#include "kessel/attention.h"

#include <optional>
#include <vector>

#include "attention/query_scale.h"
#include "attention/fused.h"
#include "attention/reference.h"
#include "attention/tile_kernels.h"
#include "kessel/error.h"

namespace kessel {

const char* attention_kernel_variant() { return attention_detail::tile::active_kernels().variant; }

namespace {

// The inputs and spec the kernels see: with query scaling, the scaled queries (and boost), no
// adaptive temperature, no ratio (checked again, for the logit bounds of the scaled queries).
struct KernelCall {
  AttentionInputs in;
  AttentionSpec spec;
  std::optional<attention_detail::ScaledQueries> scaled;  // in.q points into it: moved, never copied

  KernelCall(const AttentionInputs& i, const AttentionSpec& s) : in(i), spec(s) {}
  KernelCall(const KernelCall&) = delete;
  KernelCall(KernelCall&&) = default;
};

KernelCall kernel_call(const AttentionInputs& in, const AttentionSpec& spec) {
  validate_attention(in, spec);
  KernelCall c(in, spec);
  if (!attention_detail::scales_queries(in, spec)) return c;
  c.scaled = attention_detail::scale_queries(in, spec);
  c.in.q = c.scaled->q.data();
  if (!c.scaled->key_boost.empty()) c.in.key_boost = c.scaled->key_boost.data();
  c.in.emotion_ratio = nullptr;
  c.spec.adaptive_temperature = false;
  validate_attention(c.in, c.spec);
  return c;
}

}  // namespace

AttentionStats attention_forward(float* out, float* lse, const AttentionInputs& in,
                                 const AttentionSpec& spec) {
  KESSEL_CHECK_ARG(out != nullptr, "attention_forward: out is null");
  const KernelCall c = kernel_call(in, spec);
  if (spec.impl == AttentionImpl::kReference)
    return attention_detail::reference_forward(out, lse, nullptr, c.in, c.spec);
  return attention_detail::fused_forward(out, lse, c.in, c.spec);
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
  KESSEL_CHECK_ARG(grads.dtemperature_coef == nullptr || spec.adaptive_temperature,
                   "attention_backward: dtemperature_coef is set but the temperature is not adaptive");
  KESSEL_CHECK_ARG(grads.dboost_gate == nullptr || in.boost_gate != nullptr,
                   "attention_backward: dboost_gate is set but there is no boost_gate input");
  const KernelCall c = kernel_call(in, spec);
  // With query scaling the kernels give dL/dq' and dL/dkey_boost' for the scaled inputs; q's, the
  // boost's and the coefficient's gradients follow from them.
  std::vector<float> dq_scaled, dboost_scaled;
  AttentionGrads g = grads;
  if (c.scaled && (grads.dq || grads.dtemperature_coef)) {
    dq_scaled.assign(c.scaled->q.size(), 0.0f);
    g.dq = dq_scaled.data();
  }
  if (c.scaled && grads.dkey_boost && !c.scaled->key_boost.empty()) {
    dboost_scaled.assign(c.scaled->key_boost.size(), 0.0f);
    g.dkey_boost = dboost_scaled.data();
  }
  if (spec.impl == AttentionImpl::kReference)
    attention_detail::reference_backward(g, dout, out, lse, c.in, c.spec);
  else
    attention_detail::fused_backward(g, dout, out, lse, c.in, c.spec);
  if (c.scaled)
    attention_detail::scaled_queries_backward(grads.dq, grads.dtemperature_coef, grads.dkey_boost, dq_scaled,
                                              dboost_scaled, in, spec, *c.scaled);
}

AttentionStats attention_weights(float* weights, const AttentionInputs& in,
                                 const AttentionSpec& spec) {
  KESSEL_CHECK_ARG(weights != nullptr, "attention_weights: weights is null");
  const KernelCall c = kernel_call(in, spec);
  if (spec.impl == AttentionImpl::kReference)
    return attention_detail::reference_forward(nullptr, nullptr, weights, c.in, c.spec);
  return attention_detail::fused_weights(weights, c.in, c.spec);
}

}  // namespace kessel
