// Internal row kernels shared by LayerNorm and HybridLayerNorm (a segment of a row is a LayerNorm over
// a strided set of rows, so both go through these) and RMSNorm's. Defined in norm_rows.cc, compiled
// per SIMD target; each call runs the process's variant (util/simd.h).
#pragma once

#include "kessel/tensor.h"

namespace kessel::nn_detail {

// Rows per block for the deterministic reduction of parameter gradients: each block of rows writes its
// own partial sums, blocks are reduced in order. Fixed (not per-thread) so results do not depend on
// the thread count.
inline constexpr Index kRowsPerBlock = 32;

// Below this many elements a kernel runs on the calling thread: waking an OpenMP team costs more than
// the work (and far more when the machine is oversubscribed).
inline constexpr Index kMinParallelWork = Index{1} << 15;

// A strided LayerNorm over N rows of C values: row n of inp starts at inp + n * inp_stride, its
// statistics go to mean[n * stat_stride], rstd[n * stat_stride].
struct RowsView {
  Index N = 0, C = 0;
  Index row_stride = 0;   // elements between rows of inp/out/dinp/dout
  Index stat_stride = 1;  // elements between rows of mean/rstd
};

void layernorm_rows_forward(float* out, float* mean, float* rstd, const float* inp,
                            const float* weight, const float* bias, const RowsView& v, float eps,
                            int threads);
void layernorm_rows_backward(float* dinp, float* dweight, float* dbias, const float* dout,
                             const float* inp, const float* weight, const float* mean,
                             const float* rstd, const RowsView& v, int threads);

// RMSNorm's rows (contiguous, stride C): out = x * rstd * weight, rstd = (mean_c(x^2) + eps)^(-1/2).
void rmsnorm_rows_forward(float* out, float* rstd, const float* inp, const float* weight, Index N,
                          Index C, float eps, int threads);
void rmsnorm_rows_backward(float* dinp, float* dweight, const float* dout, const float* inp,
                           const float* weight, const float* rstd, Index N, Index C, int threads);

}  // namespace kessel::nn_detail
