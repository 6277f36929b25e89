// LayerNorm and RMSNorm, forward and backward: a fast OpenMP kernel and a plain reference each.
#include <algorithm>
#include <cmath>
#include <vector>

#include "kessel/error.h"
#include "kessel/nn.h"
#include "nn/norm_kernels.h"
#include "util/parallel.h"

namespace kessel {
namespace nn_detail {
namespace {

Index num_blocks(Index N) { return (N + kRowsPerBlock - 1) / kRowsPerBlock; }

// Adds the per-block partials [nblocks, C] into grad [C], blocks in order (deterministic).
void reduce_partials(float* grad, const std::vector<float>& partial, Index nblocks, Index C,
                     int nt) {
#pragma omp parallel for num_threads(nt) schedule(static) if (nblocks * C >= kMinParallelWork)
  for (Index c = 0; c < C; ++c) {
    float s = 0.0f;
    for (Index b = 0; b < nblocks; ++b) s += partial[static_cast<size_t>(b * C + c)];
    grad[c] += s;
  }
}

}  // namespace

// Two passes per row (mean, then centred variance): robust for rows with a large mean, where the
// one-pass E[x^2] - E[x]^2 cancels catastrophically in float.
void layernorm_rows_forward(float* out, float* mean, float* rstd, const float* inp,
                            const float* weight, const float* bias, const RowsView& v, float eps,
                            int threads) {
  const Index C = v.C;
  const int nt = resolve_threads(threads);
#pragma omp parallel for num_threads(nt) schedule(static) if (v.N * C >= kMinParallelWork)
  for (Index n = 0; n < v.N; ++n) {
    const float* x = inp + n * v.row_stride;
    float* o = out + n * v.row_stride;
    float s = 0.0f;
#pragma omp simd reduction(+ : s)
    for (Index c = 0; c < C; ++c) s += x[c];
    const float m = s / static_cast<float>(C);
    float ss = 0.0f;
#pragma omp simd reduction(+ : ss)
    for (Index c = 0; c < C; ++c) {
      const float d = x[c] - m;
      ss += d * d;
    }
    const float r = 1.0f / std::sqrt(ss / static_cast<float>(C) + eps);
#pragma omp simd
    for (Index c = 0; c < C; ++c) o[c] = (x[c] - m) * r * weight[c] + bias[c];
    if (mean) mean[n * v.stat_stride] = m;
    if (rstd) rstd[n * v.stat_stride] = r;
  }
}

// Differentiates  out = xhat * w + b,  xhat = (x - mean) * rstd:
//   dxhat = dout * w;  dx = rstd * (dxhat - mean_c(dxhat) - xhat * mean_c(dxhat * xhat)).
void layernorm_rows_backward(float* dinp, float* dweight, float* dbias, const float* dout,
                             const float* inp, const float* weight, const float* mean,
                             const float* rstd, const RowsView& v, int threads) {
  const Index C = v.C;
  const int nt = resolve_threads(threads);
  const Index nblocks = num_blocks(v.N);
  const bool want_params = dweight != nullptr || dbias != nullptr;
  std::vector<float> pw(want_params ? static_cast<size_t>(nblocks * C) : 0);
  std::vector<float> pb(want_params ? static_cast<size_t>(nblocks * C) : 0);
#pragma omp parallel for num_threads(nt) schedule(static) if (v.N * C >= kMinParallelWork)
  for (Index blk = 0; blk < nblocks; ++blk) {
    float* bw = want_params ? pw.data() + blk * C : nullptr;
    float* bb = want_params ? pb.data() + blk * C : nullptr;
    const Index end = std::min(v.N, (blk + 1) * kRowsPerBlock);
    for (Index n = blk * kRowsPerBlock; n < end; ++n) {
      const float* x = inp + n * v.row_stride;
      const float* g = dout + n * v.row_stride;
      const float m = mean[n * v.stat_stride];
      const float r = rstd[n * v.stat_stride];
      if (dinp) {
        float s1 = 0.0f, s2 = 0.0f;
#pragma omp simd reduction(+ : s1, s2)
        for (Index c = 0; c < C; ++c) {
          const float dxhat = g[c] * weight[c];
          s1 += dxhat;
          s2 += dxhat * (x[c] - m) * r;
        }
        const float m1 = s1 / static_cast<float>(C);
        const float m2 = s2 / static_cast<float>(C);
        float* dx = dinp + n * v.row_stride;
#pragma omp simd
        for (Index c = 0; c < C; ++c) {
          const float xhat = (x[c] - m) * r;
          dx[c] += r * (g[c] * weight[c] - m1 - xhat * m2);
        }
      }
      if (want_params) {
#pragma omp simd
        for (Index c = 0; c < C; ++c) {
          bw[c] += g[c] * (x[c] - m) * r;
          bb[c] += g[c];
        }
      }
    }
  }
  if (dweight) reduce_partials(dweight, pw, nblocks, C, nt);
  if (dbias) reduce_partials(dbias, pb, nblocks, C, nt);
}

}  // namespace nn_detail

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
  const int nt = resolve_threads(threads);
#pragma omp parallel for num_threads(nt) schedule(static) \
    if (N * C >= nn_detail::kMinParallelWork)
  for (Index n = 0; n < N; ++n) {
    const float* x = inp + n * C;
    float ss = 0.0f;
#pragma omp simd reduction(+ : ss)
    for (Index c = 0; c < C; ++c) ss += x[c] * x[c];
    const float r = 1.0f / std::sqrt(ss / static_cast<float>(C) + eps);
    float* o = out + n * C;
#pragma omp simd
    for (Index c = 0; c < C; ++c) o[c] = x[c] * r * weight[c];
    if (rstd) rstd[n] = r;
  }
}

// Differentiates  out = xhat * w,  xhat = x * rstd,  rstd = (mean_c(x^2) + eps)^(-1/2):
//   dx = rstd * (dout * w - xhat * mean_c(dout * w * xhat)).
void rmsnorm_backward(float* dinp, float* dweight, const float* dout, const float* inp,
                      const float* weight, const float* rstd, Index N, Index C, int threads) {
  check_norm_args("rmsnorm_backward", inp, weight, N, C, 1.0f, false);
  KESSEL_CHECK_ARG(N == 0 || (dout && rstd), "rmsnorm_backward: dout and rstd must not be null");
  const int nt = resolve_threads(threads);
  const Index nblocks = (N + nn_detail::kRowsPerBlock - 1) / nn_detail::kRowsPerBlock;
  std::vector<float> pw(dweight ? static_cast<size_t>(nblocks * C) : 0);
#pragma omp parallel for num_threads(nt) schedule(static) \
    if (N * C >= nn_detail::kMinParallelWork)
  for (Index blk = 0; blk < nblocks; ++blk) {
    const Index end = std::min(N, (blk + 1) * nn_detail::kRowsPerBlock);
    for (Index n = blk * nn_detail::kRowsPerBlock; n < end; ++n) {
      const float* x = inp + n * C;
      const float* g = dout + n * C;
      const float r = rstd[n];
      if (dinp) {
        float s = 0.0f;
#pragma omp simd reduction(+ : s)
        for (Index c = 0; c < C; ++c) s += g[c] * weight[c] * x[c] * r;
        const float m2 = s / static_cast<float>(C);
        float* dx = dinp + n * C;
#pragma omp simd
        for (Index c = 0; c < C; ++c) dx[c] += r * (g[c] * weight[c] - x[c] * r * m2);
      }
      if (dweight) {
        float* bw = pw.data() + blk * C;
#pragma omp simd
        for (Index c = 0; c < C; ++c) bw[c] += g[c] * x[c] * r;
      }
    }
  }
  if (dweight) nn_detail::reduce_partials(dweight, pw, nblocks, C, nt);
}

}  // namespace kessel
