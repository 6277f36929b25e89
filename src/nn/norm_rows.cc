// The fast row kernels of LayerNorm, RMSNorm and HybridLayerNorm (norm_kernels.h), compiled by
// Highway once per SIMD target of the build (foreach_target.h re-includes this file), so that their
// `omp simd` loops are vectorized for each target; the entry points pick the target once per call.
// KESSEL_CPU=scalar runs the baseline target's compilation. The double-precision references are in
// layer_norm.cc.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "nn/norm_rows.cc"
#include "hwy/foreach_target.h"  // IWYU pragma: keep

#include <algorithm>
#include <cmath>
#include <vector>

#include "hwy/highway.h"
#include "nn/norm_kernels.h"
#include "util/parallel.h"

HWY_BEFORE_NAMESPACE();
namespace kessel::nn_detail {
namespace HWY_NAMESPACE {
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
void LayerNormRowsForward(float* out, float* mean, float* rstd, const float* inp,
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
void LayerNormRowsBackward(float* dinp, float* dweight, float* dbias, const float* dout,
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


void RmsNormRowsForward(float* out, float* rstd, const float* inp, const float* weight, Index N,
                        Index C, float eps, int threads) {
  const int nt = resolve_threads(threads);
#pragma omp parallel for num_threads(nt) schedule(static) \
    if (N * C >= kMinParallelWork)
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
void RmsNormRowsBackward(float* dinp, float* dweight, const float* dout, const float* inp,
                         const float* weight, const float* rstd, Index N, Index C, int threads) {
  const int nt = resolve_threads(threads);
  const Index nblocks = (N + kRowsPerBlock - 1) / kRowsPerBlock;
  std::vector<float> pw(dweight ? static_cast<size_t>(nblocks * C) : 0);
#pragma omp parallel for num_threads(nt) schedule(static) \
    if (N * C >= kMinParallelWork)
  for (Index blk = 0; blk < nblocks; ++blk) {
    const Index end = std::min(N, (blk + 1) * kRowsPerBlock);
    for (Index n = blk * kRowsPerBlock; n < end; ++n) {
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
  if (dweight) reduce_partials(dweight, pw, nblocks, C, nt);
}

}  // namespace HWY_NAMESPACE
}  // namespace kessel::nn_detail
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
#include "util/simd.h"
#include "util/simd_table.h"

namespace kessel::nn_detail {
namespace {

HWY_EXPORT(LayerNormRowsForward);
HWY_EXPORT(LayerNormRowsBackward);
HWY_EXPORT(RmsNormRowsForward);
HWY_EXPORT(RmsNormRowsBackward);

// The target whose compilation runs: the process's variant, the baseline one for "scalar".
std::int64_t norm_target() {
  const std::int64_t t = simd::active_target();
  return t == simd::kScalarReference ? HWY_STATIC_TARGET : t;
}

}  // namespace

void layernorm_rows_forward(float* out, float* mean, float* rstd, const float* inp,
                            const float* weight, const float* bias, const RowsView& v, float eps,
                            int threads) {
  KESSEL_SIMD_ENTRY(LayerNormRowsForward, norm_target())(out, mean, rstd, inp, weight, bias, v, eps, threads);
}

void layernorm_rows_backward(float* dinp, float* dweight, float* dbias, const float* dout,
                             const float* inp, const float* weight, const float* mean,
                             const float* rstd, const RowsView& v, int threads) {
  KESSEL_SIMD_ENTRY(LayerNormRowsBackward, norm_target())(dinp, dweight, dbias, dout, inp, weight, mean,
                                                          rstd, v, threads);
}

void rmsnorm_rows_forward(float* out, float* rstd, const float* inp, const float* weight, Index N,
                          Index C, float eps, int threads) {
  KESSEL_SIMD_ENTRY(RmsNormRowsForward, norm_target())(out, rstd, inp, weight, N, C, eps, threads);
}

void rmsnorm_rows_backward(float* dinp, float* dweight, const float* dout, const float* inp,
                           const float* weight, const float* rstd, Index N, Index C, int threads) {
  KESSEL_SIMD_ENTRY(RmsNormRowsBackward, norm_target())(dinp, dweight, dout, inp, weight, rstd, N, C,
                                                        threads);
}

}  // namespace kessel::nn_detail
#endif  // HWY_ONCE
