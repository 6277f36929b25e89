// SIMD micro-kernels of the fused attention path: the two tile products and vectorized exp/log.
//
// Layout convention of the fused path: a score tile is stored key-major, st[j][i] (key j, query i),
// so that the per-query-row softmax statistics become vertical (lane-wise) operations and the query
// block is the vector dimension. Q (and dO) are packed transposed once per query block ([D][BQ]);
// K and V rows are read in their natural layout and broadcast.
//
// One source (tile_kernels.cc) is compiled by Highway for every SIMD target of the build; the plain
// scalar versions (tile_kernels_reference.cc) are the reference the tests compare every variant with,
// and the variant KESSEL_CPU=scalar runs. An op takes its Kernels table once, at its entry
// (FusedContext), from the process's variant (util/simd.h); inner loops call through it.
#pragma once

#include <cstdint>

#include "kessel/tensor.h"

namespace kessel::attention_detail::tile {

inline constexpr float kLog2e = 1.44269504088896341f;      // 1 / ln 2, rounded to float
inline constexpr float kLog2eLow = 1.9259629911e-08f;  // 1 / ln 2 - kLog2e

// Polynomials of the vector neg_pow_shift_sum kernels, highest degree first (Horner).
// log2(m) = s q(s^2), s = (m - 1)/(m + 1), m in [0.75, 1.5): a least-squares fit of the atanh series
// over |s| <= 0.2, 1.1e-8 absolute.
inline constexpr float kLog2Poly[] = {4.364358783e-01f, 5.765324831e-01f, 9.618005157e-01f, 2.885390043e+00f};
// 2^r on [-1/2, 1/2]: the degree-6 Chebyshev interpolant, 2e-8 relative.
inline constexpr float kExp2Poly[] = {1.546973198e-04f, 1.340043217e-03f, 9.618025603e-03f, 5.550327214e-02f,
                                      2.402265121e-01f, 6.931472067e-01f, 1.0f};

// The kernels of one variant.
struct Kernels {
  const char* variant;  // simd::target_name of the target it was compiled for, or "scalar"

  // c[r*ldc + col] = sum_{d < depth} x[r*ldx + d] * yt[d*ldy + col]   for r < rows, col < cols.
  // Overwrites c. x: natural rows (K or V tile); yt: packed transposed block (Q^T or dO^T).
  void (*rows_times_packed)(float* c, Index ldc, const float* x, Index ldx, const float* yt, Index ldy,
                            Index rows, Index cols, Index depth);

  // c[r*ldc + col] += sum_{k < inner} a[r*a_rs + k*a_cs] * x[k*ldx + col]   for r < rows, col < n.
  // Adds into c. a is read through arbitrary strides (a score tile read either way round).
  void (*accumulate_product)(float* c, Index ldc, const float* a, Index a_rs, Index a_cs,
                             const float* x, Index ldx, Index rows, Index inner, Index n);

  // y[e] = exp(x[e]); exp(-inf) = 0, overflow gives +inf. y may alias x. ~1 ulp.
  void (*exp_array)(float* y, const float* x, Index n);
  // y[e] = log(x[e]); log(0) = -inf, log(<0) = NaN, log(+inf) = +inf. y may alias x. ~1 ulp.
  void (*log_array)(float* y, const float* x, Index n);

  // The online-softmax step of a key-major tile: st[r][c] = exp(st[r][c] - shift[c]) and
  // sum[c] += st[r][c], for r < rows, c < cols (st has row stride cols). Rows are summed in order.
  void (*exp_shift_sum)(float* st, Index rows, Index cols, const float* shift, float* sum);

  // Fuzzy general m: st[r][c] = exp(-a ln(st[r][c]) - shift[c]) = st^(-a) e^(-shift), sum[c] += it.
  // st holds d2 + eps (+inf for hidden keys, giving 0).
  void (*neg_pow_shift_sum)(float* st, Index rows, Index cols, float a, const float* shift, float* sum);

  // Softmax backward of a fully visible key-major tile with logit = c * st + row_add[r]:
  // p = exp(logit - lse[col]), ds = p (dp - drow[col]); st <- p, dp <- c * ds, ds_rowsum[r] += sum ds
  // (ds_rowsum may be null).
  void (*softmax_backward)(float* st, float* dp, Index rows, Index cols, float c, const float* row_add,
                           const float* lse, const float* drow, float* ds_rowsum);
};

// The kernels compiled for a Highway target bit, or the scalar ones for simd::kScalarReference.
// Throws InvalidArgument for a target this build did not compile.
const Kernels& kernels_for(std::int64_t target);

// The kernels of the process's variant (simd::active_target()): what an op takes at its entry.
const Kernels& active_kernels();

// The plain versions (tile_kernels_reference.cc), one loop nest each, in the order of the
// formulas above.
const Kernels& scalar_kernels();

// Transposes an 8 x 8 byte matrix held as eight little-endian words: byte c of x[r] moves to byte r
// of x[c]. Three rounds of block swaps (4 x 4, 2 x 2, then single bytes), plain 64-bit arithmetic,
// about 50 operations where gathering byte by byte takes 128 loads and stores (the mask tensor's
// key-major block, fused_common.cc).
inline void transpose_bytes_8x8(std::uint64_t x[8]) {
  for (int r = 0; r < 4; ++r) {
    const std::uint64_t t = ((x[r] >> 32) ^ x[r + 4]) & 0x00000000FFFFFFFFull;
    x[r] ^= t << 32;
    x[r + 4] ^= t;
  }
  for (int r : {0, 1, 4, 5}) {
    const std::uint64_t t = ((x[r] >> 16) ^ x[r + 2]) & 0x0000FFFF0000FFFFull;
    x[r] ^= t << 16;
    x[r + 2] ^= t;
  }
  for (int r = 0; r < 8; r += 2) {
    const std::uint64_t t = ((x[r] >> 8) ^ x[r + 1]) & 0x00FF00FF00FF00FFull;
    x[r] ^= t << 8;
    x[r + 1] ^= t;
  }
}

}  // namespace kessel::attention_detail::tile
