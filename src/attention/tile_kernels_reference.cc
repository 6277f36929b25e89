// The plain scalar versions of the fused path's micro-kernels (tile_kernels.h): the reference every
// SIMD variant is tested against, and the variant KESSEL_CPU=scalar runs.
#include <cmath>

#include "attention/tile_kernels.h"

namespace kessel::attention_detail::tile {
namespace {


void rows_times_packed(float* c, Index ldc, const float* x, Index ldx, const float* yt, Index ldy,
                       Index rows, Index cols, Index depth) {
  for (Index r = 0; r < rows; ++r) {
    float* cr = c + r * ldc;
    for (Index col = 0; col < cols; ++col) cr[col] = 0.0f;
    for (Index d = 0; d < depth; ++d) {
      const float xv = x[r * ldx + d];
      const float* yd = yt + d * ldy;
      for (Index col = 0; col < cols; ++col) cr[col] += xv * yd[col];
    }
  }
}

void accumulate_product(float* c, Index ldc, const float* a, Index a_rs, Index a_cs,
                        const float* x, Index ldx, Index rows, Index inner, Index n) {
  for (Index r = 0; r < rows; ++r) {
    float* cr = c + r * ldc;
    for (Index k = 0; k < inner; ++k) {
      const float av = a[r * a_rs + k * a_cs];
      const float* xk = x + k * ldx;
      for (Index col = 0; col < n; ++col) cr[col] += av * xk[col];
    }
  }
}

void exp_array(float* y, const float* x, Index n) {
  for (Index e = 0; e < n; ++e) y[e] = std::exp(x[e]);
}

void log_array(float* y, const float* x, Index n) {
  for (Index e = 0; e < n; ++e) y[e] = std::log(x[e]);
}

void exp_shift_sum(float* st, Index rows, Index cols, const float* shift, float* sum) {
  for (Index r = 0; r < rows; ++r)
    for (Index c = 0; c < cols; ++c) {
      const float y = std::exp(st[r * cols + c] - shift[c]);
      st[r * cols + c] = y;
      sum[c] += y;
    }
}

void neg_pow_shift_sum(float* st, Index rows, Index cols, float a, const float* shift, float* sum) {
  for (Index r = 0; r < rows; ++r)
    for (Index c = 0; c < cols; ++c) {
      const float y = std::exp(-a * std::log(st[r * cols + c]) - shift[c]);
      st[r * cols + c] = y;
      sum[c] += y;
    }
}

void softmax_backward(float* st, float* dp, Index rows, Index cols, float c, const float* row_add,
                      const float* lse, const float* drow, float* ds_rowsum) {
  for (Index r = 0; r < rows; ++r) {
    float acc = 0.0f;
    for (Index k = 0; k < cols; ++k) {
      const Index e = r * cols + k;
      const float p = std::exp(st[e] * c + row_add[r] - lse[k]);
      const float ds = p * (dp[e] - drow[k]);
      st[e] = p;
      dp[e] = ds * c;
      acc += ds;
    }
    if (ds_rowsum) ds_rowsum[r] += acc;
  }
}


}  // namespace

const Kernels& scalar_kernels() {
  static const Kernels k{"scalar",          &rows_times_packed, &accumulate_product, &exp_array,
                         &log_array,        &exp_shift_sum,     &neg_pow_shift_sum,  &softmax_backward};
  return k;
}

}  // namespace kessel::attention_detail::tile
