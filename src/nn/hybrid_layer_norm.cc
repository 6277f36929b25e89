// HybridLayerNorm: one LayerNorm per named segment of the row (per-modality normalization).
#include <cmath>

#include "kessel/error.h"
#include "kessel/nn.h"
#include "nn/norm_kernels.h"

namespace kessel {

std::vector<Index> segment_offsets(std::span<const NormSegment> segments, Index F) {
  KESSEL_CHECK_ARG(!segments.empty(), "hybrid_layernorm: segments must not be empty");
  std::vector<Index> off{0};
  for (size_t s = 0; s < segments.size(); ++s) {
    KESSEL_CHECK_ARG(segments[s].size >= 1, "hybrid_layernorm: segment ", s, " ('",
                     segments[s].name, "') has size ", segments[s].size, ", must be >= 1");
    off.push_back(off.back() + segments[s].size);
  }
  KESSEL_CHECK_ARG(off.back() == F, "hybrid_layernorm: segment sizes sum to ", off.back(),
                   " but the row has F=", F);
  return off;
}

// Each segment is a strided LayerNorm: rows of `size` values, F apart; its statistics are column s of
// the [N, S] mean/rstd arrays.
void hybrid_layernorm_forward(float* out, float* mean, float* rstd, const float* inp,
                              const float* weight, const float* bias,
                              std::span<const NormSegment> segments, Index N, Index F, float eps,
                              int threads) {
  const std::vector<Index> off = segment_offsets(segments, F);
  KESSEL_CHECK_ARG(N >= 0, "hybrid_layernorm_forward: N must be >= 0, got N=", N);
  KESSEL_CHECK_ARG(eps > 0.0f && std::isfinite(eps),
                   "hybrid_layernorm_forward: eps must be finite and > 0, got eps=", eps);
  KESSEL_CHECK_ARG(N == 0 || (out && inp && weight && bias),
                   "hybrid_layernorm_forward: out, inp, weight and bias must not be null");
  const Index S = static_cast<Index>(segments.size());
  for (Index s = 0; s < S; ++s) {
    const Index o = off[static_cast<size_t>(s)];
    nn_detail::layernorm_rows_forward(out + o, mean ? mean + s : nullptr, rstd ? rstd + s : nullptr,
                                      inp + o, weight + o, bias + o,
                                      {N, segments[static_cast<size_t>(s)].size, F, S}, eps,
                                      threads);
  }
}

void hybrid_layernorm_backward(float* dinp, float* dweight, float* dbias, const float* dout,
                               const float* inp, const float* weight, const float* mean,
                               const float* rstd, std::span<const NormSegment> segments, Index N,
                               Index F, int threads) {
  const std::vector<Index> off = segment_offsets(segments, F);
  KESSEL_CHECK_ARG(N >= 0, "hybrid_layernorm_backward: N must be >= 0, got N=", N);
  KESSEL_CHECK_ARG(N == 0 || (dout && inp && weight && mean && rstd),
                   "hybrid_layernorm_backward: dout, inp, weight, mean and rstd must not be null");
  const Index S = static_cast<Index>(segments.size());
  for (Index s = 0; s < S; ++s) {
    const Index o = off[static_cast<size_t>(s)];
    nn_detail::layernorm_rows_backward(
        dinp ? dinp + o : nullptr, dweight ? dweight + o : nullptr, dbias ? dbias + o : nullptr,
        dout + o, inp + o, weight + o, mean + s, rstd + s,
        {N, segments[static_cast<size_t>(s)].size, F, S}, threads);
  }
}

}  // namespace kessel
