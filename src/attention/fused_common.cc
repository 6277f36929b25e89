// The fused path's call context (fused_common.h); the per-tile code is in fused_common-inl.h.
#include "attention/fused_common.h"

namespace kessel::attention_detail {

FusedContext::FusedContext(const AttentionInputs& in_, const AttentionSpec& spec_, const tile::Kernels& k_)
    : in(in_), spec(spec_), k(k_), r(resolve_spec(in_, spec_)) {
  fuzzy = spec.normalizer == Normalizer::kFuzzy;
  need_norms = fuzzy || spec.similarity != Similarity::kDot;
  elementwise_masks = has_elementwise_masks(in, spec);
  fuzzy_a = fuzzy ? r.fuzzy_exponent : 0.0f;
  dot_factor = r.scale * r.inv_temperature;
  const bool multiplicative =
      spec.time_decay != 0.0f && spec.time_decay_mode == TimeDecayMode::kMultiplicative;
  const bool terms_beyond_boost =
      !in.bias.empty() || !in.alibi_slopes.empty() || in.rel_bias != nullptr ||
      (spec.time_decay != 0.0f && spec.time_decay_mode == TimeDecayMode::kAdditive);
  if (in.boost_gate) gate = gate_terms(in);
  if (spec.zscore || multiplicative || terms_beyond_boost || in.boost_gate)
    path = ScorePath::kStaged;
  else if (fuzzy)
    path = ScorePath::kHotFuzzy;
  else if (spec.similarity == Similarity::kDot)
    path = ScorePath::kHotDot;
  else
    path = ScorePath::kStaged;
  // 1/(d2 + eps) stays finite, and sums of it stay finite, only for eps well above FLT_MIN.
  fuzzy_direct = path == ScorePath::kHotFuzzy && spec.m == 2.0f && in.key_boost == nullptr &&
                 spec.fuzzy_eps >= 1e-30f;
  fuzzy_power = path == ScorePath::kHotFuzzy && !fuzzy_direct && in.key_boost == nullptr;
}

}  // namespace kessel::attention_detail
