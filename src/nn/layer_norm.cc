// LayerNorm and RMSNorm, forward and backward: argument checks, the entry points, and the plain
// double-precision references; the fast row kernels are in norm_rows.cc.
#include <algorithm>
#include <cmath>
#include <vector>

#include "kessel/error.h"
#include "kessel/nn.h"
#include "nn/norm_kernels.h"
#include "util/parallel.h"

namespace kessel {

namespace {

void check_norm_args(const char* fn, const void* inp, const void* weight, Index N, Index C,
                     float eps, bool check_eps) {
  KESSEL_CHECK_ARG(N >= 0, fn, ": N must be >= 0, got N=", N);
  KESSEL_CHECK_ARG(C >= 1, fn, ": C must be >= 1, got C=", C);
  KESSEL_CHECK_ARG(N == 0 || (inp != nullptr && weight != nullptr), fn,
                   ": inp and weight must not be null");
  KESSEL_CHECK_ARG(!check_eps || (eps > 0.0f && std::isfinite(eps)), fn,
                   ": eps must be finite and > 0, got eps=", eps);
}

}  // namespace

void layernorm_forward(float* out, float* mean, float* rstd, const float* inp, const float* weight,
                       const float* bias, Index N, Index C, float eps, int threads) {
  check_norm_args("layernorm_forward", inp, weight, N, C, eps, true);
  KESSEL_CHECK_ARG(N == 0 || (out && bias), "layernorm_forward: out and bias must not be null");
  nn_detail::layernorm_rows_forward(out, mean, rstd, inp, weight, bias, {N, C, C, 1}, eps, threads);
}

void layernorm_backward(float* dinp, float* dweight, float* dbias, const float* dout, const float* inp,
                        const float* weight, const float* mean, const float* rstd, Index N, Index C,
                        int threads) {
  check_norm_args("layernorm_backward", inp, weight, N, C, 1.0f, false);
  KESSEL_CHECK_ARG(N == 0 || (dout && mean && rstd),
                   "layernorm_backward: dout, mean and rstd must not be null");
  nn_detail::layernorm_rows_backward(dinp, dweight, dbias, dout, inp, weight, mean, rstd,
                                     {N, C, C, 1}, threads);
}

// The reference accumulates in double: it is the yardstick for the float kernels.
void layernorm_forward_reference(float* out, float* mean, float* rstd, const float* inp,
                                 const float* weight, const float* bias, Index N, Index C,
                                 float eps) {
  check_norm_args("layernorm_forward_reference", inp, weight, N, C, eps, true);
  for (Index n = 0; n < N; ++n) {
    const float* x = inp + n * C;
    double s = 0.0;
    for (Index c = 0; c < C; ++c) s += x[c];
    const double m = s / static_cast<double>(C);
    double ss = 0.0;
    for (Index c = 0; c < C; ++c) ss += (x[c] - m) * (x[c] - m);
    const double r = 1.0 / std::sqrt(ss / static_cast<double>(C) + eps);
    for (Index c = 0; c < C; ++c)
      out[n * C + c] = static_cast<float>((x[c] - m) * r * weight[c] + bias[c]);
    if (mean) mean[n] = static_cast<float>(m);
    if (rstd) rstd[n] = static_cast<float>(r);
  }
}

void layernorm_backward_reference(float* dinp, float* dweight, float* dbias, const float* dout,
                                  const float* inp, const float* weight, const float* mean,
                                  const float* rstd, Index N, Index C) {
  check_norm_args("layernorm_backward_reference", inp, weight, N, C, 1.0f, false);
  for (Index n = 0; n < N; ++n) {
    const float* x = inp + n * C;
    const float* g = dout + n * C;
    const double m = mean[n], r = rstd[n];
    double s1 = 0.0, s2 = 0.0;
    for (Index c = 0; c < C; ++c) {
      s1 += double{g[c]} * weight[c];
      s2 += double{g[c]} * weight[c] * (x[c] - m) * r;
    }
    for (Index c = 0; c < C; ++c) {
      const double xhat = (x[c] - m) * r;
      if (dinp)
        dinp[n * C + c] += static_cast<float>(
            r * (double{g[c]} * weight[c] - s1 / static_cast<double>(C) -
                 xhat * s2 / static_cast<double>(C)));
      if (dweight) dweight[c] += static_cast<float>(g[c] * xhat);
      if (dbias) dbias[c] += g[c];
    }
  }
}

// ---- RMSNorm ----------------------------------------------------------------------------------------

void rmsnorm_forward(float* out, float* rstd, const float* inp, const float* weight, Index N, Index C,
                     float eps, int threads) {
  check_norm_args("rmsnorm_forward", inp, weight, N, C, eps, true);
  KESSEL_CHECK_ARG(N == 0 || out, "rmsnorm_forward: out must not be null");
  nn_detail::rmsnorm_rows_forward(out, rstd, inp, weight, N, C, eps, threads);
}

void rmsnorm_backward(float* dinp, float* dweight, const float* dout, const float* inp,
                      const float* weight, const float* rstd, Index N, Index C, int threads) {
  check_norm_args("rmsnorm_backward", inp, weight, N, C, 1.0f, false);
  KESSEL_CHECK_ARG(N == 0 || (dout && rstd), "rmsnorm_backward: dout and rstd must not be null");
  nn_detail::rmsnorm_rows_backward(dinp, dweight, dout, inp, weight, rstd, N, C, threads);
}

}  // namespace kessel
