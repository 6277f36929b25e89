// Gated fusion of an absolute encoding (x + pe) and a relative one (position mixing P x).
#include <cmath>
#include <vector>

#include "kessel/error.h"
#include "kessel/nn.h"

namespace kessel {
namespace {

void check_fusion_args(const char* fn, const float* x, const float* pe, const float* gate, Index B,
                       Index T, Index D) {
  KESSEL_CHECK_ARG(B >= 1 && T >= 1 && D >= 1, fn, ": need B, T, D >= 1, got B=", B, " T=", T,
                   " D=", D);
  KESSEL_CHECK_ARG(x && pe && gate, fn, ": x, pe and gate must not be null");
}

std::vector<float> sigmoid_gate(const float* gate, Index D) {
  std::vector<float> g(static_cast<size_t>(D));
  for (Index d = 0; d < D; ++d) g[static_cast<size_t>(d)] = 1.0f / (1.0f + std::exp(-gate[d]));
  return g;
}

}  // namespace

void gated_fusion_forward(float* y, float* probs, const float* x, const float* pe,
                          const float* logits, const float* gate, Index B, Index T, Index D,
                          int threads) {
  check_fusion_args("gated_fusion_forward", x, pe, gate, B, T, D);
  KESSEL_CHECK_ARG(y && logits, "gated_fusion_forward: y and logits must not be null");
  std::vector<float> local;
  if (!probs) {
    local.resize(static_cast<size_t>(T * T));
    probs = local.data();
  }
  // y holds the mixing term first, then is blended in place.
  position_mix_forward(y, probs, x, logits, B, T, D, threads);
  const std::vector<float> g = sigmoid_gate(gate, D);
  for (Index b = 0; b < B; ++b)
    for (Index t = 0; t < T; ++t) {
      float* out = y + (b * T + t) * D;
      const float* xr = x + (b * T + t) * D;
      const float* pr = pe + t * D;
      for (Index d = 0; d < D; ++d) {
        const float gd = g[static_cast<size_t>(d)];
        out[d] = gd * (xr[d] + pr[d]) + (1.0f - gd) * out[d];
      }
    }
}

// Differentiates  y = g (x + pe) + (1 - g) m,  m = P x,  g = sigmoid(gate):
//   dx += g dy  (absolute path)  and  P^T ((1 - g) dy)  (mixing path, via position_mix_backward)
//   dpe[t] += sum_b g dy[b,t];   dgate += sum_{b,t} dy (x + pe - m) g (1 - g)
void gated_fusion_backward(float* dx, float* dpe, float* dlogits, float* dgate, const float* dy,
                           const float* x, const float* pe, const float* probs, const float* gate,
                           Index B, Index T, Index D, int threads) {
  check_fusion_args("gated_fusion_backward", x, pe, gate, B, T, D);
  KESSEL_CHECK_ARG(dy && probs, "gated_fusion_backward: dy and probs must not be null");
  const std::vector<float> g = sigmoid_gate(gate, D);
  const size_t n = static_cast<size_t>(B * T * D);
  std::vector<float> m(n), dm(n);
  mix_rows(m.data(), probs, x, B, T, D, threads);
  std::vector<double> dg(static_cast<size_t>(D), 0.0);
  for (Index b = 0; b < B; ++b)
    for (Index t = 0; t < T; ++t) {
      const Index row = (b * T + t) * D;
      for (Index d = 0; d < D; ++d) {
        const float gd = g[static_cast<size_t>(d)];
        const float gy = dy[row + d];
        dm[static_cast<size_t>(row + d)] = (1.0f - gd) * gy;
        if (dx) dx[row + d] += gd * gy;
        if (dpe) dpe[t * D + d] += gd * gy;
        dg[static_cast<size_t>(d)] += double{gy} * (x[row + d] + pe[t * D + d] - m[static_cast<size_t>(row + d)]);
      }
    }
  if (dgate)
    for (Index d = 0; d < D; ++d) {
      const double gd = g[static_cast<size_t>(d)];
      dgate[d] += static_cast<float>(dg[static_cast<size_t>(d)] * gd * (1.0 - gd));
    }
  if (dx || dlogits) position_mix_backward(dx, dlogits, dm.data(), x, probs, B, T, D, threads);
}

}  // namespace kessel
