// The fused path's entry points (fused.h): each op picks the SIMD variant once, here, and runs the
// whole op (tile loops, score code, online softmax, backward) compiled for that target.
//
// The per-target code is in the -inl.h files below; foreach_target.h re-includes this file, and so
// them, once per Highway target of the build. KESSEL_CPU=scalar runs the baseline target's
// compilation of the same code with the plain scalar tile kernels (tile_kernels_reference.cc).
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "attention/fused_dispatch.cc"
#include "hwy/foreach_target.h"  // IWYU pragma: keep

#include "attention/fused.h"
#include "attention/fused_backward-inl.h"
#include "attention/fused_forward-inl.h"
#include "attention/fused_weights-inl.h"
#include "hwy/highway.h"

#if HWY_ONCE
#include "attention/tile_kernels.h"
#include "util/simd.h"
#include "util/simd_table.h"

namespace kessel::attention_detail {
namespace {

HWY_EXPORT(FusedForward);
HWY_EXPORT(FusedBackward);
HWY_EXPORT(FusedWeights);

// The target whose compilation of the op runs, and the tile kernels it calls.
struct Variant {
  std::int64_t target;
  const tile::Kernels& kernels;
};

Variant active_variant() {
  const std::int64_t t = simd::active_target();
  if (t == simd::kScalarReference) return {HWY_STATIC_TARGET, tile::scalar_kernels()};
  return {t, tile::kernels_for(t)};
}

}  // namespace

AttentionStats fused_forward(float* out, float* lse, const AttentionInputs& in,
                             const AttentionSpec& spec) {
  const Variant v = active_variant();
  return KESSEL_SIMD_ENTRY(FusedForward, v.target)(out, lse, in, spec, v.kernels);
}

AttentionStats fused_weights(float* weights, const AttentionInputs& in, const AttentionSpec& spec) {
  const Variant v = active_variant();
  return KESSEL_SIMD_ENTRY(FusedWeights, v.target)(weights, in, spec, v.kernels);
}

void fused_backward(const AttentionGrads& grads, const float* dout, const float* out,
                    const float* lse, const AttentionInputs& in, const AttentionSpec& spec) {
  const Variant v = active_variant();
  KESSEL_SIMD_ENTRY(FusedBackward, v.target)(grads, dout, out, lse, in, spec, v.kernels);
}

}  // namespace kessel::attention_detail
#endif  // HWY_ONCE
