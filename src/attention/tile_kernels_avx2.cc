// AVX2 + FMA variant of the fused path's micro-kernels (see tile_kernels.h): the dispatch target on
// machines without AVX-512, and tested against the scalar versions wherever it compiles.
#include "attention/tile_kernels.h"

#if defined(KESSEL_TILE_HAVE_AVX2)
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"  // GCC 12 false positives in its intrinsics
#include <immintrin.h>

#include <cmath>

namespace kessel::attention_detail::tile::avx2 {
namespace {

// Lane mask for a tail of n < 8 (or all 8) floats, for maskload/maskstore.
inline __m256i tail_mask(Index n) {
  const __m256i idx = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
  return _mm256_cmpgt_epi32(_mm256_set1_epi32(static_cast<int>(n < 8 ? n : 8)), idx);
}

template <int R, int NV>
inline void rows_times_packed_block(float* c, Index ldc, const float* x, Index ldx,
                                    const float* yt, Index ldy, Index depth, __m256i last) {
  __m256 acc[R][NV];
#pragma GCC unroll 8
  for (int r = 0; r < R; ++r)
#pragma GCC unroll 8
    for (int v = 0; v < NV; ++v) acc[r][v] = _mm256_setzero_ps();
  for (Index d = 0; d < depth; ++d) {
    const float* yd = yt + d * ldy;
    __m256 y[NV];
#pragma GCC unroll 8
    for (int v = 0; v < NV - 1; ++v) y[v] = _mm256_loadu_ps(yd + 8 * v);
    y[NV - 1] = _mm256_maskload_ps(yd + 8 * (NV - 1), last);
#pragma GCC unroll 8
    for (int r = 0; r < R; ++r) {
      const __m256 xb = _mm256_broadcast_ss(x + r * ldx + d);
#pragma GCC unroll 8
      for (int v = 0; v < NV; ++v) acc[r][v] = _mm256_fmadd_ps(xb, y[v], acc[r][v]);
    }
  }
#pragma GCC unroll 8
  for (int r = 0; r < R; ++r) {
#pragma GCC unroll 8
    for (int v = 0; v < NV - 1; ++v) _mm256_storeu_ps(c + r * ldc + 8 * v, acc[r][v]);
    _mm256_maskstore_ps(c + r * ldc + 8 * (NV - 1), last, acc[r][NV - 1]);
  }
}

template <int R, int NV>
inline void accumulate_block(float* c, Index ldc, const float* a, Index a_rs, Index a_cs,
                             const float* x, Index ldx, Index inner, __m256i last) {
  __m256 acc[R][NV];
#pragma GCC unroll 8
  for (int r = 0; r < R; ++r) {
#pragma GCC unroll 8
    for (int v = 0; v < NV - 1; ++v) acc[r][v] = _mm256_loadu_ps(c + r * ldc + 8 * v);
    acc[r][NV - 1] = _mm256_maskload_ps(c + r * ldc + 8 * (NV - 1), last);
  }
  for (Index k = 0; k < inner; ++k) {
    const float* xk = x + k * ldx;
    __m256 xv[NV];
#pragma GCC unroll 8
    for (int v = 0; v < NV - 1; ++v) xv[v] = _mm256_loadu_ps(xk + 8 * v);
    xv[NV - 1] = _mm256_maskload_ps(xk + 8 * (NV - 1), last);
#pragma GCC unroll 8
    for (int r = 0; r < R; ++r) {
      const __m256 ab = _mm256_broadcast_ss(a + r * a_rs + k * a_cs);
#pragma GCC unroll 8
      for (int v = 0; v < NV; ++v) acc[r][v] = _mm256_fmadd_ps(ab, xv[v], acc[r][v]);
    }
  }
#pragma GCC unroll 8
  for (int r = 0; r < R; ++r) {
#pragma GCC unroll 8
    for (int v = 0; v < NV - 1; ++v) _mm256_storeu_ps(c + r * ldc + 8 * v, acc[r][v]);
    _mm256_maskstore_ps(c + r * ldc + 8 * (NV - 1), last, acc[r][NV - 1]);
  }
}

// Row blocks of 4 (4 x 3 accumulators of 8 lanes leave registers for the operands).
template <int NV, typename Block1, typename Block2, typename Block3, typename Block4>
inline void by_rows(Index rows, Block1 b1, Block2 b2, Block3 b3, Block4 b4) {
  Index r = 0;
  for (; r + 4 <= rows; r += 4) b4(r);
  switch (rows - r) {
    case 3: b3(r); break;
    case 2: b2(r); break;
    case 1: b1(r); break;
    default: break;
  }
}

// exp as in the AVX-512 variant; 2^n is applied as two factors 2^(n/2) 2^(n - n/2) built in the
// exponent field, so overflow gives +inf, deep underflow 0 and the denormal range is kept.
inline __m256 exp8(__m256 x) {
  x = _mm256_max_ps(_mm256_set1_ps(-110.0f), x);  // operand order keeps a NaN in x
  x = _mm256_min_ps(_mm256_set1_ps(100.0f), x);
  const __m256 n = _mm256_round_ps(_mm256_mul_ps(x, _mm256_set1_ps(1.44269504088896341f)),
                                   _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
  __m256 r = _mm256_fnmadd_ps(n, _mm256_set1_ps(0.693145751953125f), x);
  r = _mm256_fnmadd_ps(n, _mm256_set1_ps(1.428606765330187045e-06f), r);
  __m256 p = _mm256_set1_ps(1.0f / 5040.0f);
  p = _mm256_fmadd_ps(p, r, _mm256_set1_ps(1.0f / 720.0f));
  p = _mm256_fmadd_ps(p, r, _mm256_set1_ps(1.0f / 120.0f));
  p = _mm256_fmadd_ps(p, r, _mm256_set1_ps(1.0f / 24.0f));
  p = _mm256_fmadd_ps(p, r, _mm256_set1_ps(1.0f / 6.0f));
  p = _mm256_fmadd_ps(p, r, _mm256_set1_ps(0.5f));
  p = _mm256_fmadd_ps(p, r, _mm256_set1_ps(1.0f));
  p = _mm256_fmadd_ps(p, r, _mm256_set1_ps(1.0f));
  const __m256i ni = _mm256_cvtps_epi32(n);
  const __m256i n1 = _mm256_srai_epi32(ni, 1), n2 = _mm256_sub_epi32(ni, n1);
  const __m256i bias = _mm256_set1_epi32(127);
  const __m256 f1 = _mm256_castsi256_ps(_mm256_slli_epi32(_mm256_add_epi32(n1, bias), 23));
  const __m256 f2 = _mm256_castsi256_ps(_mm256_slli_epi32(_mm256_add_epi32(n2, bias), 23));
  return _mm256_mul_ps(_mm256_mul_ps(p, f1), f2);
}

// The reduction log8 and neg_pow8 share: x = 2^e m with m in [0.75, 1.5) taken from the bits
// (denormals prescaled); returns f = m - 1. Special values are left to the callers.
inline __m256 log_reduce8(__m256 x, __m256& e) {
  const __m256 tiny = _mm256_set1_ps(1.17549435e-38f);
  const __m256 is_denormal = _mm256_cmp_ps(x, tiny, _CMP_LT_OQ);
  const __m256 xs = _mm256_blendv_ps(x, _mm256_mul_ps(x, _mm256_set1_ps(8388608.0f)), is_denormal);
  const __m256i bits = _mm256_castps_si256(xs);
  e = _mm256_cvtepi32_ps(
      _mm256_sub_epi32(_mm256_and_si256(_mm256_srli_epi32(bits, 23), _mm256_set1_epi32(0xff)),
                       _mm256_set1_epi32(127)));
  e = _mm256_sub_ps(e, _mm256_and_ps(is_denormal, _mm256_set1_ps(23.0f)));
  __m256 m = _mm256_castsi256_ps(_mm256_or_si256(
      _mm256_and_si256(bits, _mm256_set1_epi32(0x7fffff)), _mm256_set1_epi32(0x3f800000)));
  const __m256 big = _mm256_cmp_ps(m, _mm256_set1_ps(1.5f), _CMP_GE_OQ);  // to [0.75, 1.5)
  m = _mm256_blendv_ps(m, _mm256_mul_ps(m, _mm256_set1_ps(0.5f)), big);
  e = _mm256_add_ps(e, _mm256_and_ps(big, _mm256_set1_ps(1.0f)));
  return _mm256_sub_ps(m, _mm256_set1_ps(1.0f));
}

// log as in the AVX-512 variant, on log_reduce8; the special values are set at the end.
inline __m256 log8(__m256 x) {
  __m256 e;
  const __m256 f = log_reduce8(x, e);
  const __m256 s = _mm256_div_ps(f, _mm256_add_ps(f, _mm256_set1_ps(2.0f)));
  const __m256 s2 = _mm256_mul_ps(s, s);
  __m256 p = _mm256_set1_ps(2.0f / 9.0f);
  p = _mm256_fmadd_ps(p, s2, _mm256_set1_ps(2.0f / 7.0f));
  p = _mm256_fmadd_ps(p, s2, _mm256_set1_ps(2.0f / 5.0f));
  p = _mm256_fmadd_ps(p, s2, _mm256_set1_ps(2.0f / 3.0f));
  p = _mm256_mul_ps(p, _mm256_mul_ps(s2, s));
  __m256 lo = _mm256_fmadd_ps(e, _mm256_set1_ps(1.428606765330187045e-06f), p);
  lo = _mm256_add_ps(lo, _mm256_add_ps(s, s));
  __m256 y = _mm256_fmadd_ps(e, _mm256_set1_ps(0.693145751953125f), lo);
  // Special values: 0 -> -inf, +inf -> +inf, negative or NaN -> NaN.
  y = _mm256_blendv_ps(y, _mm256_set1_ps(-INFINITY), _mm256_cmp_ps(x, _mm256_setzero_ps(), _CMP_EQ_OQ));
  y = _mm256_blendv_ps(y, _mm256_set1_ps(INFINITY),
                       _mm256_cmp_ps(x, _mm256_set1_ps(INFINITY), _CMP_EQ_OQ));
  y = _mm256_blendv_ps(y, _mm256_set1_ps(NAN), _mm256_cmp_ps(x, _mm256_setzero_ps(), _CMP_NGE_UQ));
  return y;
}

// -shift log2(e) as hi + lo, as in the AVX-512 variant.
inline void shift_log2(__m256 shift, __m256& hi, __m256& lo) {
  const __m256 ns = _mm256_sub_ps(_mm256_setzero_ps(), shift);
  hi = _mm256_mul_ps(ns, _mm256_set1_ps(kLog2e));
  lo = _mm256_fmadd_ps(ns, _mm256_set1_ps(kLog2eLow), _mm256_fmsub_ps(ns, _mm256_set1_ps(kLog2e), hi));
}

// x^(-a) e^(-shift) as 2^t, as neg_pow16 in the AVX-512 variant (the method is described there):
// exponent and mantissa taken from the bits as in log8, 2^n applied as two factors as in exp8, and
// the special values (x = 0, +inf, NaN, x < 0) set at the end.
inline __m256 neg_pow8(__m256 x, __m256 na, __m256 sh_hi, __m256 sh_lo) {
  __m256 e;
  const __m256 f = log_reduce8(x, e);
  // s = f / (f + 2) through rcp (12 bits) and one Newton step (about 2^-23), cheaper than a divide.
  const __m256 den = _mm256_add_ps(f, _mm256_set1_ps(2.0f));
  const __m256 r0 = _mm256_rcp_ps(den);
  const __m256 r1 = _mm256_mul_ps(r0, _mm256_fnmadd_ps(den, r0, _mm256_set1_ps(2.0f)));
  const __m256 s = _mm256_mul_ps(f, r1);
  const __m256 s2 = _mm256_mul_ps(s, s);
  __m256 q = _mm256_set1_ps(kLog2Poly[0]);
  for (int k = 1; k < 4; ++k) q = _mm256_fmadd_ps(q, s2, _mm256_set1_ps(kLog2Poly[k]));  // log2(m) = s q
  const __m256 ns = _mm256_mul_ps(na, s);
  const __m256 hi = _mm256_fmadd_ps(na, e, sh_hi);
  __m256 t = _mm256_fmadd_ps(ns, q, hi);
  t = _mm256_max_ps(_mm256_set1_ps(-160.0f), t);
  t = _mm256_min_ps(_mm256_set1_ps(150.0f), t);
  const __m256 n = _mm256_round_ps(t, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
  __m256 r = _mm256_add_ps(_mm256_fmadd_ps(ns, q, _mm256_sub_ps(hi, n)), sh_lo);
  r = _mm256_max_ps(_mm256_set1_ps(-1.0f), r);
  __m256 p = _mm256_set1_ps(kExp2Poly[0]);
  for (int k = 1; k < 7; ++k) p = _mm256_fmadd_ps(p, r, _mm256_set1_ps(kExp2Poly[k]));
  const __m256i ni = _mm256_cvtps_epi32(n);
  const __m256i n1 = _mm256_srai_epi32(ni, 1), n2 = _mm256_sub_epi32(ni, n1);
  const __m256i bias = _mm256_set1_epi32(127);
  const __m256 f1 = _mm256_castsi256_ps(_mm256_slli_epi32(_mm256_add_epi32(n1, bias), 23));
  const __m256 f2 = _mm256_castsi256_ps(_mm256_slli_epi32(_mm256_add_epi32(n2, bias), 23));
  __m256 y = _mm256_mul_ps(_mm256_mul_ps(p, f1), f2);
  y = _mm256_blendv_ps(y, _mm256_set1_ps(INFINITY), _mm256_cmp_ps(x, _mm256_setzero_ps(), _CMP_EQ_OQ));
  y = _mm256_blendv_ps(y, _mm256_setzero_ps(), _mm256_cmp_ps(x, _mm256_set1_ps(INFINITY), _CMP_EQ_OQ));
  return _mm256_blendv_ps(y, _mm256_set1_ps(NAN), _mm256_cmp_ps(x, _mm256_setzero_ps(), _CMP_NGE_UQ));
}

}  // namespace

void rows_times_packed(float* c, Index ldc, const float* x, Index ldx, const float* yt, Index ldy,
                       Index rows, Index cols, Index depth) {
  for (Index c0 = 0; c0 < cols; c0 += 24) {
    const Index rem = cols - c0 < 24 ? cols - c0 : 24;
    const int nv = static_cast<int>((rem + 7) / 8);
    const __m256i last = tail_mask(rem - 8 * (nv - 1));
    const auto run = [&]<int NV>() {
      by_rows<NV>(
          rows,
          [&](Index r) { rows_times_packed_block<1, NV>(c + r * ldc + c0, ldc, x + r * ldx, ldx, yt + c0, ldy, depth, last); },
          [&](Index r) { rows_times_packed_block<2, NV>(c + r * ldc + c0, ldc, x + r * ldx, ldx, yt + c0, ldy, depth, last); },
          [&](Index r) { rows_times_packed_block<3, NV>(c + r * ldc + c0, ldc, x + r * ldx, ldx, yt + c0, ldy, depth, last); },
          [&](Index r) { rows_times_packed_block<4, NV>(c + r * ldc + c0, ldc, x + r * ldx, ldx, yt + c0, ldy, depth, last); });
    };
    if (nv == 3) run.template operator()<3>();
    else if (nv == 2) run.template operator()<2>();
    else run.template operator()<1>();
  }
}

void accumulate_product(float* c, Index ldc, const float* a, Index a_rs, Index a_cs,
                        const float* x, Index ldx, Index rows, Index inner, Index n) {
  for (Index c0 = 0; c0 < n; c0 += 24) {
    const Index rem = n - c0 < 24 ? n - c0 : 24;
    const int nv = static_cast<int>((rem + 7) / 8);
    const __m256i last = tail_mask(rem - 8 * (nv - 1));
    const auto run = [&]<int NV>() {
      by_rows<NV>(
          rows,
          [&](Index r) { accumulate_block<1, NV>(c + r * ldc + c0, ldc, a + r * a_rs, a_rs, a_cs, x + c0, ldx, inner, last); },
          [&](Index r) { accumulate_block<2, NV>(c + r * ldc + c0, ldc, a + r * a_rs, a_rs, a_cs, x + c0, ldx, inner, last); },
          [&](Index r) { accumulate_block<3, NV>(c + r * ldc + c0, ldc, a + r * a_rs, a_rs, a_cs, x + c0, ldx, inner, last); },
          [&](Index r) { accumulate_block<4, NV>(c + r * ldc + c0, ldc, a + r * a_rs, a_rs, a_cs, x + c0, ldx, inner, last); });
    };
    if (nv == 3) run.template operator()<3>();
    else if (nv == 2) run.template operator()<2>();
    else run.template operator()<1>();
  }
}

// Elementwise loops: full vectors, then one masked tail.
template <typename F>
inline void for_vectors(Index n, F f) {
  Index e = 0;
  for (; e + 8 <= n; e += 8) f(e, _mm256_set1_epi32(-1));
  if (e < n) f(e, tail_mask(n - e));
}

void exp_array(float* y, const float* x, Index n) {
  for_vectors(n, [&](Index e, __m256i m) { _mm256_maskstore_ps(y + e, m, exp8(_mm256_maskload_ps(x + e, m))); });
}

void log_array(float* y, const float* x, Index n) {
  for_vectors(n, [&](Index e, __m256i m) {
    const __m256 v = _mm256_blendv_ps(_mm256_set1_ps(1.0f), _mm256_maskload_ps(x + e, m),
                                      _mm256_castsi256_ps(m));
    _mm256_maskstore_ps(y + e, m, log8(v));
  });
}

void exp_shift_sum(float* st, Index rows, Index cols, const float* shift, float* sum) {
  for_vectors(cols, [&](Index c0, __m256i m) {
    const __m256 sh = _mm256_maskload_ps(shift + c0, m);
    __m256 acc = _mm256_maskload_ps(sum + c0, m);
    for (Index r = 0; r < rows; ++r) {
      float* p = st + r * cols + c0;
      const __m256 y = exp8(_mm256_sub_ps(_mm256_maskload_ps(p, m), sh));
      _mm256_maskstore_ps(p, m, y);
      acc = _mm256_add_ps(acc, y);
    }
    _mm256_maskstore_ps(sum + c0, m, acc);
  });
}

void neg_pow_shift_sum(float* st, Index rows, Index cols, float a, const float* shift, float* sum) {
  const __m256 na = _mm256_set1_ps(-a);
  for_vectors(cols, [&](Index c0, __m256i m) {
    __m256 sh_hi, sh_lo;
    shift_log2(_mm256_maskload_ps(shift + c0, m), sh_hi, sh_lo);
    __m256 acc = _mm256_maskload_ps(sum + c0, m);
    for (Index r = 0; r < rows; ++r) {
      float* p = st + r * cols + c0;
      const __m256 x = _mm256_blendv_ps(_mm256_set1_ps(1.0f), _mm256_maskload_ps(p, m),
                                        _mm256_castsi256_ps(m));
      const __m256 y = _mm256_and_ps(neg_pow8(x, na, sh_hi, sh_lo), _mm256_castsi256_ps(m));
      _mm256_maskstore_ps(p, m, y);
      acc = _mm256_add_ps(acc, y);
    }
    _mm256_maskstore_ps(sum + c0, m, acc);
  });
}

void softmax_backward(float* st, float* dp, Index rows, Index cols, float c, const float* row_add,
                      const float* lse, const float* drow, float* ds_rowsum) {
  const __m256 vc = _mm256_set1_ps(c);
  for (Index r = 0; r < rows; ++r) {
    const __m256 add = _mm256_set1_ps(row_add[r]);
    __m256 acc = _mm256_setzero_ps();
    for_vectors(cols, [&](Index k0, __m256i m) {
      float* s = st + r * cols + k0;
      float* d = dp + r * cols + k0;
      const __m256 logit = _mm256_fmadd_ps(_mm256_maskload_ps(s, m), vc, add);
      const __m256 p = exp8(_mm256_sub_ps(logit, _mm256_maskload_ps(lse + k0, m)));
      const __m256 ds = _mm256_and_ps(
          _mm256_mul_ps(p, _mm256_sub_ps(_mm256_maskload_ps(d, m), _mm256_maskload_ps(drow + k0, m))),
          _mm256_castsi256_ps(m));
      _mm256_maskstore_ps(s, m, p);
      _mm256_maskstore_ps(d, m, _mm256_mul_ps(ds, vc));
      acc = _mm256_add_ps(acc, ds);
    });
    if (ds_rowsum) {
      alignas(32) float lanes[8];
      _mm256_store_ps(lanes, acc);
      float t = 0.0f;
      for (float l : lanes) t += l;
      ds_rowsum[r] += t;
    }
  }
}

}  // namespace kessel::attention_detail::tile::avx2

#endif  // KESSEL_TILE_HAVE_AVX2
