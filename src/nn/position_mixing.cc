// HMM-style position mixing: y = P x with P = row-softmax(learnable logits) [T, T].
#include <algorithm>
#include <cmath>
#include <vector>

#include "kessel/error.h"
#include "kessel/nn.h"
#include "nn/norm_kernels.h"
#include "util/parallel.h"

namespace kessel {
namespace {

void check_mix_args(const char* fn, Index B, Index T, Index D) {
  KESSEL_CHECK_ARG(B >= 1 && T >= 1 && D >= 1, fn, ": need B, T, D >= 1, got B=", B, " T=", T,
                   " D=", D);
}

}  // namespace

void mix_rows(float* y, const float* P, const float* x, Index B, Index T, Index D, int threads) {
  check_mix_args("mix_rows", B, T, D);
  KESSEL_CHECK_ARG(y && P && x, "mix_rows: y, P and x must not be null");
  const int nt = resolve_threads(threads);
#pragma omp parallel for collapse(2) num_threads(nt) schedule(static) \
    if (B * T * T * D >= nn_detail::kMinParallelWork)
  for (Index b = 0; b < B; ++b) {
    for (Index i = 0; i < T; ++i) {
      float* out = y + (b * T + i) * D;
      std::fill(out, out + D, 0.0f);
      for (Index j = 0; j < T; ++j) {
        const float p = P[i * T + j];
        const float* src = x + (b * T + j) * D;
#pragma omp simd
        for (Index d = 0; d < D; ++d) out[d] += p * src[d];
      }
    }
  }
}

void position_mix_forward(float* y, float* probs, const float* x, const float* logits, Index B,
                          Index T, Index D, int threads) {
  check_mix_args("position_mix_forward", B, T, D);
  KESSEL_CHECK_ARG(y && x && logits, "position_mix_forward: y, x and logits must not be null");
  std::vector<float> local;
  if (!probs) {
    local.resize(static_cast<size_t>(T * T));
    probs = local.data();
  }
  for (Index i = 0; i < T; ++i) {
    const float* a = logits + i * T;
    float mx = -INFINITY;
    for (Index j = 0; j < T; ++j) {
      KESSEL_CHECK_ARG(std::isfinite(a[j]), "position_mix_forward: logits[", i, ", ", j,
                       "] is not finite (", a[j], ")");
      mx = std::max(mx, a[j]);
    }
    double z = 0.0;
    for (Index j = 0; j < T; ++j) z += std::exp(static_cast<double>(a[j]) - mx);
    for (Index j = 0; j < T; ++j)
      probs[i * T + j] = static_cast<float>(std::exp(static_cast<double>(a[j]) - mx) / z);
  }
  mix_rows(y, probs, x, B, T, D, threads);
}

// Differentiates  y[b,i,:] = sum_j P[i,j] x[b,j,:],  P[i,:] = softmax(A[i,:]):
//   dx[b,j,:] = sum_i P[i,j] dy[b,i,:]
//   dP[i,j]   = sum_b <dy[b,i,:], x[b,j,:]>
//   dA[i,j]   = P[i,j] (dP[i,j] - sum_k P[i,k] dP[i,k])
void position_mix_backward(float* dx, float* dlogits, const float* dy, const float* x,
                           const float* probs, Index B, Index T, Index D, int threads) {
  check_mix_args("position_mix_backward", B, T, D);
  KESSEL_CHECK_ARG(dy && x && probs, "position_mix_backward: dy, x and probs must not be null");
  const int nt = resolve_threads(threads);
  if (dx) {
#pragma omp parallel for collapse(2) num_threads(nt) schedule(static) \
    if (B * T * T * D >= nn_detail::kMinParallelWork)
    for (Index b = 0; b < B; ++b) {
      for (Index j = 0; j < T; ++j) {
        float* out = dx + (b * T + j) * D;
        for (Index i = 0; i < T; ++i) {
          const float p = probs[i * T + j];
          const float* g = dy + (b * T + i) * D;
#pragma omp simd
          for (Index d = 0; d < D; ++d) out[d] += p * g[d];
        }
      }
    }
  }
  if (dlogits) {
    // Row i of dP and dA belongs to one iteration: no shared writes, fixed summation order.
#pragma omp parallel for num_threads(nt) schedule(static) \
    if (B * T * T * D >= nn_detail::kMinParallelWork)
    for (Index i = 0; i < T; ++i) {
      std::vector<double> dP(static_cast<size_t>(T), 0.0);
      for (Index b = 0; b < B; ++b) {
        const float* g = dy + (b * T + i) * D;
        for (Index j = 0; j < T; ++j) {
          const float* src = x + (b * T + j) * D;
          float s = 0.0f;
#pragma omp simd reduction(+ : s)
          for (Index d = 0; d < D; ++d) s += g[d] * src[d];
          dP[static_cast<size_t>(j)] += s;
        }
      }
      double dot = 0.0;
      for (Index j = 0; j < T; ++j) dot += probs[i * T + j] * dP[static_cast<size_t>(j)];
      for (Index j = 0; j < T; ++j)
        dlogits[i * T + j] +=
            static_cast<float>(probs[i * T + j] * (dP[static_cast<size_t>(j)] - dot));
    }
  }
}

}  // namespace kessel
