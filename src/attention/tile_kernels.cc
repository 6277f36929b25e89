// Micro-kernels of the fused attention path (see tile_kernels.h for layouts).
#include "attention/tile_kernels.h"

#include <cmath>

#if defined(__AVX512F__)
// GCC 12 reports its own intrinsics' _mm512_undefined_ps() pass-through operand as maybe-uninitialized
// (max, min, roundscale, scalef, getexp, getmant); the diagnostic is about the header, not this code.
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#include <immintrin.h>
#endif

namespace kessel::attention_detail::tile {

// ---- plain scalar versions (the reference the vector versions are tested against) ---------------
namespace scalar {

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

}  // namespace scalar

// ---- AVX-512 -------------------------------------------------------------------------------------
#if defined(__AVX512F__)
namespace avx512 {
namespace {

inline __mmask16 tail_mask(Index n) {
  return n >= 16 ? static_cast<__mmask16>(0xFFFF) : static_cast<__mmask16>((1u << n) - 1u);
}

// R rows x NV vectors of 16 columns; the last vector is loaded/stored under `last`. The unroll
// pragmas make GCC unroll before scalar replacement, so the accumulators live in registers (without
// them GCC 12 spills every accumulator to the stack on each iteration).
template <int R, int NV>
inline void rows_times_packed_block(float* c, Index ldc, const float* x, Index ldx,
                                    const float* yt, Index ldy, Index depth, __mmask16 last) {
  __m512 acc[R][NV];
  #pragma GCC unroll 8
  for (int r = 0; r < R; ++r)
    #pragma GCC unroll 8
    for (int v = 0; v < NV; ++v) acc[r][v] = _mm512_setzero_ps();
  for (Index d = 0; d < depth; ++d) {
    const float* yd = yt + d * ldy;
    __m512 y[NV];
    #pragma GCC unroll 8
    for (int v = 0; v < NV - 1; ++v) y[v] = _mm512_loadu_ps(yd + 16 * v);
    y[NV - 1] = _mm512_maskz_loadu_ps(last, yd + 16 * (NV - 1));
    #pragma GCC unroll 8
    for (int r = 0; r < R; ++r) {
      const __m512 xb = _mm512_set1_ps(x[r * ldx + d]);
      #pragma GCC unroll 8
      for (int v = 0; v < NV; ++v) acc[r][v] = _mm512_fmadd_ps(xb, y[v], acc[r][v]);
    }
  }
  #pragma GCC unroll 8
  for (int r = 0; r < R; ++r) {
    #pragma GCC unroll 8
    for (int v = 0; v < NV - 1; ++v) _mm512_storeu_ps(c + r * ldc + 16 * v, acc[r][v]);
    _mm512_mask_storeu_ps(c + r * ldc + 16 * (NV - 1), last, acc[r][NV - 1]);
  }
}

template <int NV>
void rows_times_packed_cols(float* c, Index ldc, const float* x, Index ldx, const float* yt,
                            Index ldy, Index rows, Index depth, __mmask16 last) {
  constexpr int R = 6;
  Index r = 0;
  for (; r + R <= rows; r += R)
    rows_times_packed_block<R, NV>(c + r * ldc, ldc, x + r * ldx, ldx, yt, ldy, depth, last);
  float* cr = c + r * ldc;
  const float* xr = x + r * ldx;
  switch (rows - r) {
    case 5: rows_times_packed_block<5, NV>(cr, ldc, xr, ldx, yt, ldy, depth, last); break;
    case 4: rows_times_packed_block<4, NV>(cr, ldc, xr, ldx, yt, ldy, depth, last); break;
    case 3: rows_times_packed_block<3, NV>(cr, ldc, xr, ldx, yt, ldy, depth, last); break;
    case 2: rows_times_packed_block<2, NV>(cr, ldc, xr, ldx, yt, ldy, depth, last); break;
    case 1: rows_times_packed_block<1, NV>(cr, ldc, xr, ldx, yt, ldy, depth, last); break;
    default: break;
  }
}

// R rows of c (NV vectors each) += a(R x inner) * x(inner x 16 NV).
template <int R, int NV>
inline void accumulate_block(float* c, Index ldc, const float* a, Index a_rs, Index a_cs,
                             const float* x, Index ldx, Index inner, __mmask16 last) {
  __m512 acc[R][NV];
  #pragma GCC unroll 8
  for (int r = 0; r < R; ++r) {
    #pragma GCC unroll 8
    for (int v = 0; v < NV - 1; ++v) acc[r][v] = _mm512_loadu_ps(c + r * ldc + 16 * v);
    acc[r][NV - 1] = _mm512_maskz_loadu_ps(last, c + r * ldc + 16 * (NV - 1));
  }
  for (Index k = 0; k < inner; ++k) {
    const float* xk = x + k * ldx;
    __m512 xv[NV];
    #pragma GCC unroll 8
    for (int v = 0; v < NV - 1; ++v) xv[v] = _mm512_loadu_ps(xk + 16 * v);
    xv[NV - 1] = _mm512_maskz_loadu_ps(last, xk + 16 * (NV - 1));
    const float* ak = a + k * a_cs;
    #pragma GCC unroll 8
    for (int r = 0; r < R; ++r) {
      const __m512 ab = _mm512_set1_ps(ak[r * a_rs]);
      #pragma GCC unroll 8
      for (int v = 0; v < NV; ++v) acc[r][v] = _mm512_fmadd_ps(ab, xv[v], acc[r][v]);
    }
  }
  #pragma GCC unroll 8
  for (int r = 0; r < R; ++r) {
    #pragma GCC unroll 8
    for (int v = 0; v < NV - 1; ++v) _mm512_storeu_ps(c + r * ldc + 16 * v, acc[r][v]);
    _mm512_mask_storeu_ps(c + r * ldc + 16 * (NV - 1), last, acc[r][NV - 1]);
  }
}

template <int NV>
void accumulate_cols(float* c, Index ldc, const float* a, Index a_rs, Index a_cs, const float* x,
                     Index ldx, Index rows, Index inner, __mmask16 last) {
  constexpr int R = 6;
  Index r = 0;
  for (; r + R <= rows; r += R)
    accumulate_block<R, NV>(c + r * ldc, ldc, a + r * a_rs, a_rs, a_cs, x, ldx, inner, last);
  float* cr = c + r * ldc;
  const float* ar = a + r * a_rs;
  switch (rows - r) {
    case 5: accumulate_block<5, NV>(cr, ldc, ar, a_rs, a_cs, x, ldx, inner, last); break;
    case 4: accumulate_block<4, NV>(cr, ldc, ar, a_rs, a_cs, x, ldx, inner, last); break;
    case 3: accumulate_block<3, NV>(cr, ldc, ar, a_rs, a_cs, x, ldx, inner, last); break;
    case 2: accumulate_block<2, NV>(cr, ldc, ar, a_rs, a_cs, x, ldx, inner, last); break;
    case 1: accumulate_block<1, NV>(cr, ldc, ar, a_rs, a_cs, x, ldx, inner, last); break;
    default: break;
  }
}

// exp(x) = 2^n * exp(r), n = round(x / ln2), r = x - n ln2 (two-constant Cody-Waite), |r| <= ln2/2;
// exp(r) by its degree-7 Taylor polynomial (truncation < 1e-8 relative). scalef applies 2^n with
// correct overflow to +inf and underflow to 0, so -inf (clamped to -110) gives exactly 0.
inline __m512 exp16(__m512 x) {
  x = _mm512_max_ps(_mm512_set1_ps(-110.0f), x);  // operand order keeps a NaN in x
  x = _mm512_min_ps(_mm512_set1_ps(100.0f), x);
  const __m512 n = _mm512_roundscale_ps(_mm512_mul_ps(x, _mm512_set1_ps(1.44269504088896341f)),
                                        _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
  __m512 r = _mm512_fnmadd_ps(n, _mm512_set1_ps(0.693145751953125f), x);
  r = _mm512_fnmadd_ps(n, _mm512_set1_ps(1.428606765330187045e-06f), r);
  __m512 p = _mm512_set1_ps(1.0f / 5040.0f);
  p = _mm512_fmadd_ps(p, r, _mm512_set1_ps(1.0f / 720.0f));
  p = _mm512_fmadd_ps(p, r, _mm512_set1_ps(1.0f / 120.0f));
  p = _mm512_fmadd_ps(p, r, _mm512_set1_ps(1.0f / 24.0f));
  p = _mm512_fmadd_ps(p, r, _mm512_set1_ps(1.0f / 6.0f));
  p = _mm512_fmadd_ps(p, r, _mm512_set1_ps(0.5f));
  p = _mm512_fmadd_ps(p, r, _mm512_set1_ps(1.0f));
  p = _mm512_fmadd_ps(p, r, _mm512_set1_ps(1.0f));
  return _mm512_scalef_ps(p, n);
}

// The reduction log16 and neg_pow16 share: x = 2^e m with m in [0.75, 1.5), and s = (m-1)/(m+1).
inline __m512 log_reduce16(__m512 x, __m512& e) {
  const __m512 m = _mm512_getmant_ps(x, _MM_MANT_NORM_p75_1p5, _MM_MANT_SIGN_nan);
  e = _mm512_getexp_ps(x);
  // getexp reports the exponent for a mantissa in [1, 2); a mantissa reduced below 1 came from [1.5, 2).
  e = _mm512_mask_add_ps(e, _mm512_cmp_ps_mask(m, _mm512_set1_ps(1.0f), _CMP_LT_OQ), e,
                         _mm512_set1_ps(1.0f));
  const __m512 f = _mm512_sub_ps(m, _mm512_set1_ps(1.0f));
  // s = f / (f + 2) through rcp14 and one Newton step (2^-28 relative), much cheaper than a divide.
  const __m512 den = _mm512_add_ps(f, _mm512_set1_ps(2.0f));
  const __m512 r0 = _mm512_rcp14_ps(den);
  const __m512 r1 = _mm512_mul_ps(r0, _mm512_fnmadd_ps(den, r0, _mm512_set1_ps(2.0f)));
  return _mm512_mul_ps(f, r1);
}

// log(x) = e ln2 + log(m), m = mantissa in [0.75, 1.5); log(m) = 2 atanh(s), s = (m-1)/(m+1),
// |s| < 0.2, by its odd series to s^9 (truncation < 3e-8 relative). getexp/getmant handle denormals
// and the special values by themselves: getexp(0) = -inf gives log(0) = -inf, getexp(+inf) = +inf
// gives +inf, and negative inputs or NaN give a NaN mantissa (_MM_MANT_SIGN_nan).
inline __m512 log16(__m512 x) {
  __m512 e;
  const __m512 s = log_reduce16(x, e);
  const __m512 s2 = _mm512_mul_ps(s, s);
  __m512 p = _mm512_set1_ps(2.0f / 9.0f);
  p = _mm512_fmadd_ps(p, s2, _mm512_set1_ps(2.0f / 7.0f));
  p = _mm512_fmadd_ps(p, s2, _mm512_set1_ps(2.0f / 5.0f));
  p = _mm512_fmadd_ps(p, s2, _mm512_set1_ps(2.0f / 3.0f));
  p = _mm512_mul_ps(p, _mm512_mul_ps(s2, s));
  // log m = 2s + p; add the small parts first.
  __m512 lo = _mm512_fmadd_ps(e, _mm512_set1_ps(1.428606765330187045e-06f), p);
  lo = _mm512_add_ps(lo, _mm512_add_ps(s, s));
  return _mm512_fmadd_ps(e, _mm512_set1_ps(0.693145751953125f), lo);
}

// -shift log2(e) as hi + lo: hi the rounded product, lo its rounding error (exact, by fma) plus the
// part of log2(e) that the float constant misses.
inline void shift_log2(__m512 shift, __m512& hi, __m512& lo) {
  const __m512 ns = _mm512_sub_ps(_mm512_setzero_ps(), shift);
  hi = _mm512_mul_ps(ns, _mm512_set1_ps(kLog2e));
  lo = _mm512_fmadd_ps(ns, _mm512_set1_ps(kLog2eLow), _mm512_fmsub_ps(ns, _mm512_set1_ps(kLog2e), hi));
}

// x^(-a) e^(-shift) for the fuzzy normalizer, as 2^t with t = -a log2(x) - shift log2(e). One
// range reduction serves the power where exp16(-a log16(x) - shift) had two: about a third fewer
// operations per score, which is what general-m fuzzy costs over softmax.
// - log2 x = e + log2(m), log2(m) = s q(s^2) with s = (m - 1)/(m + 1) as in log16 (kLog2Poly).
// - -shift log2(e) comes split as sh_hi + sh_lo (shift_log2), so that no rounding of it is shared by a
//   whole column; hi = -a e + sh_hi is rounded once.
// - n = round(t), r = (hi - n) - a log2(m) + sh_lo with |r| <= 1/2 (hi - n is exact when hi and n are
//   close, the case that matters); 2^r by kExp2Poly; scalef applies 2^n.
// Specials: x = +inf (a hidden key) gives exactly 0, x = 0 gives +inf, NaN or x < 0 gives NaN.
inline __m512 neg_pow16(__m512 x, __m512 na, __m512 sh_hi, __m512 sh_lo) {
  __m512 e;
  const __m512 s = log_reduce16(x, e);
  const __m512 s2 = _mm512_mul_ps(s, s);
  __m512 q = _mm512_set1_ps(kLog2Poly[0]);
  for (int k = 1; k < 4; ++k) q = _mm512_fmadd_ps(q, s2, _mm512_set1_ps(kLog2Poly[k]));  // log2(m) = s q
  const __m512 ns = _mm512_mul_ps(na, s);
  const __m512 hi = _mm512_fmadd_ps(na, e, sh_hi);
  __m512 t = _mm512_fmadd_ps(ns, q, hi);
  t = _mm512_max_ps(_mm512_set1_ps(-160.0f), t);  // operand order keeps a NaN in t
  t = _mm512_min_ps(_mm512_set1_ps(150.0f), t);
  const __m512 n = _mm512_roundscale_ps(t, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
  __m512 r = _mm512_add_ps(_mm512_fmadd_ps(ns, q, _mm512_sub_ps(hi, n)), sh_lo);
  r = _mm512_max_ps(_mm512_set1_ps(-1.0f), r);  // x = +inf: r = -inf would make the polynomial inf
  __m512 p = _mm512_set1_ps(kExp2Poly[0]);
  for (int k = 1; k < 7; ++k) p = _mm512_fmadd_ps(p, r, _mm512_set1_ps(kExp2Poly[k]));
  return _mm512_scalef_ps(p, n);
}

}  // namespace

void rows_times_packed(float* c, Index ldc, const float* x, Index ldx, const float* yt, Index ldy,
                       Index rows, Index cols, Index depth) {
  for (Index c0 = 0; c0 < cols; c0 += 64) {
    const Index rem = cols - c0 < 64 ? cols - c0 : 64;
    const int nv = static_cast<int>((rem + 15) / 16);
    const __mmask16 last = tail_mask(rem - 16 * (nv - 1));
    float* cc = c + c0;
    const float* yc = yt + c0;
    switch (nv) {
      case 4: rows_times_packed_cols<4>(cc, ldc, x, ldx, yc, ldy, rows, depth, last); break;
      case 3: rows_times_packed_cols<3>(cc, ldc, x, ldx, yc, ldy, rows, depth, last); break;
      case 2: rows_times_packed_cols<2>(cc, ldc, x, ldx, yc, ldy, rows, depth, last); break;
      default: rows_times_packed_cols<1>(cc, ldc, x, ldx, yc, ldy, rows, depth, last); break;
    }
  }
}

void accumulate_product(float* c, Index ldc, const float* a, Index a_rs, Index a_cs,
                        const float* x, Index ldx, Index rows, Index inner, Index n) {
  for (Index c0 = 0; c0 < n; c0 += 64) {
    const Index rem = n - c0 < 64 ? n - c0 : 64;
    const int nv = static_cast<int>((rem + 15) / 16);
    const __mmask16 last = tail_mask(rem - 16 * (nv - 1));
    float* cc = c + c0;
    const float* xc = x + c0;
    switch (nv) {
      case 4: accumulate_cols<4>(cc, ldc, a, a_rs, a_cs, xc, ldx, rows, inner, last); break;
      case 3: accumulate_cols<3>(cc, ldc, a, a_rs, a_cs, xc, ldx, rows, inner, last); break;
      case 2: accumulate_cols<2>(cc, ldc, a, a_rs, a_cs, xc, ldx, rows, inner, last); break;
      default: accumulate_cols<1>(cc, ldc, a, a_rs, a_cs, xc, ldx, rows, inner, last); break;
    }
  }
}

void exp_array(float* y, const float* x, Index n) {
  Index e = 0;
  for (; e + 16 <= n; e += 16) _mm512_storeu_ps(y + e, exp16(_mm512_loadu_ps(x + e)));
  if (e < n) {
    const __mmask16 m = tail_mask(n - e);
    _mm512_mask_storeu_ps(y + e, m, exp16(_mm512_maskz_loadu_ps(m, x + e)));
  }
}

void log_array(float* y, const float* x, Index n) {
  Index e = 0;
  for (; e + 16 <= n; e += 16) _mm512_storeu_ps(y + e, log16(_mm512_loadu_ps(x + e)));
  if (e < n) {
    const __mmask16 m = tail_mask(n - e);
    _mm512_mask_storeu_ps(y + e, m,
                          log16(_mm512_mask_loadu_ps(_mm512_set1_ps(1.0f), m, x + e)));
  }
}

void exp_shift_sum(float* st, Index rows, Index cols, const float* shift, float* sum) {
  for (Index c0 = 0; c0 < cols; c0 += 16) {
    const __mmask16 m = tail_mask(cols - c0);
    const __m512 sh = _mm512_maskz_loadu_ps(m, shift + c0);
    __m512 acc = _mm512_maskz_loadu_ps(m, sum + c0);
    for (Index r = 0; r < rows; ++r) {
      float* p = st + r * cols + c0;
      const __m512 y = exp16(_mm512_sub_ps(_mm512_maskz_loadu_ps(m, p), sh));
      _mm512_mask_storeu_ps(p, m, y);
      acc = _mm512_add_ps(acc, y);
    }
    _mm512_mask_storeu_ps(sum + c0, m, acc);
  }
}

void neg_pow_shift_sum(float* st, Index rows, Index cols, float a, const float* shift, float* sum) {
  const __m512 na = _mm512_set1_ps(-a);
  for (Index c0 = 0; c0 < cols; c0 += 16) {
    const __mmask16 m = tail_mask(cols - c0);
    __m512 sh_hi, sh_lo;
    shift_log2(_mm512_maskz_loadu_ps(m, shift + c0), sh_hi, sh_lo);
    __m512 acc = _mm512_maskz_loadu_ps(m, sum + c0);
    for (Index r = 0; r < rows; ++r) {
      float* p = st + r * cols + c0;
      const __m512 y = neg_pow16(_mm512_mask_loadu_ps(_mm512_set1_ps(1.0f), m, p), na, sh_hi, sh_lo);
      _mm512_mask_storeu_ps(p, m, y);
      acc = _mm512_add_ps(acc, y);
    }
    _mm512_mask_storeu_ps(sum + c0, m, acc);
  }
}

void softmax_backward(float* st, float* dp, Index rows, Index cols, float c, const float* row_add,
                      const float* lse, const float* drow, float* ds_rowsum) {
  const __m512 vc = _mm512_set1_ps(c);
  for (Index r = 0; r < rows; ++r) {
    const __m512 add = _mm512_set1_ps(row_add[r]);
    __m512 acc = _mm512_setzero_ps();
    for (Index k0 = 0; k0 < cols; k0 += 16) {
      const __mmask16 m = tail_mask(cols - k0);
      float* s = st + r * cols + k0;
      float* d = dp + r * cols + k0;
      const __m512 logit = _mm512_fmadd_ps(_mm512_maskz_loadu_ps(m, s), vc, add);
      const __m512 p = exp16(_mm512_sub_ps(logit, _mm512_maskz_loadu_ps(m, lse + k0)));
      const __m512 ds = _mm512_mul_ps(
          p, _mm512_sub_ps(_mm512_maskz_loadu_ps(m, d), _mm512_maskz_loadu_ps(m, drow + k0)));
      _mm512_mask_storeu_ps(s, m, p);
      _mm512_mask_storeu_ps(d, m, _mm512_mul_ps(ds, vc));
      acc = _mm512_mask_add_ps(acc, m, acc, ds);
    }
    if (ds_rowsum) ds_rowsum[r] += _mm512_reduce_add_ps(acc);
  }
}

}  // namespace avx512

namespace isa = avx512;
const char* variant_name() { return "avx512"; }
#elif defined(KESSEL_TILE_HAVE_AVX2)
namespace isa = avx2;
const char* variant_name() { return "avx2"; }
#else  // no vector ISA: the scalar versions serve
namespace isa = scalar;
const char* variant_name() { return "scalar"; }
#endif

// The dispatch: each entry point forwards to the widest ISA this translation unit was built for.
void rows_times_packed(float* c, Index ldc, const float* x, Index ldx, const float* yt, Index ldy,
                       Index rows, Index cols, Index depth) {
  isa::rows_times_packed(c, ldc, x, ldx, yt, ldy, rows, cols, depth);
}
void accumulate_product(float* c, Index ldc, const float* a, Index a_rs, Index a_cs,
                        const float* x, Index ldx, Index rows, Index inner, Index n) {
  isa::accumulate_product(c, ldc, a, a_rs, a_cs, x, ldx, rows, inner, n);
}
void exp_array(float* y, const float* x, Index n) { isa::exp_array(y, x, n); }
void log_array(float* y, const float* x, Index n) { isa::log_array(y, x, n); }
void exp_shift_sum(float* st, Index rows, Index cols, const float* shift, float* sum) {
  isa::exp_shift_sum(st, rows, cols, shift, sum);
}
void neg_pow_shift_sum(float* st, Index rows, Index cols, float a, const float* shift, float* sum) {
  isa::neg_pow_shift_sum(st, rows, cols, a, shift, sum);
}
void softmax_backward(float* st, float* dp, Index rows, Index cols, float c, const float* row_add,
                      const float* lse, const float* drow, float* ds_rowsum) {
  isa::softmax_backward(st, dp, rows, cols, c, row_add, lse, drow, ds_rowsum);
}

}  // namespace kessel::attention_detail::tile
