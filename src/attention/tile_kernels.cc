// The fused path's micro-kernels (layouts in tile_kernels.h), written once over Highway's
// width-agnostic vectors and compiled for every target of the build (foreach_target.h re-includes
// this file once per target). Register blocking follows the register file: 6 rows x 4 vectors of
// accumulators where there are 32 vector registers (AVX-512, NEON), 4 x 3 where there are 16.
//
// Where a target has a better instruction than the portable sequence, one helper says so and the
// rest of the code is shared: AVX-512's scalef/getexp/getmant (exact exponent handling in one
// instruction), hardware-masked loads and stores for tails on AVX2 and AVX-512 (elsewhere a tail
// goes through a small buffer, since Highway 1.0.3's MaskedLoad reads the whole vector there).
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "attention/tile_kernels.cc"
#include "hwy/foreach_target.h"  // IWYU pragma: keep

#include <cmath>
#include <cstring>

#include "attention/tile_kernels.h"
#include "hwy/highway.h"
#include "util/simd.h"

HWY_BEFORE_NAMESPACE();
namespace kessel::attention_detail::tile {
namespace HWY_NAMESPACE {
namespace {

namespace hn = hwy::HWY_NAMESPACE;
using DF = hn::ScalableTag<float>;
using DI = hn::RebindToSigned<DF>;
using VF = hn::Vec<DF>;

#if HWY_TARGET <= HWY_AVX3 || HWY_TARGET == HWY_NEON
constexpr int kRowBlock = 6, kMaxVecs = 4;  // 24 accumulators + 4 operands + 1 broadcast of 32
#else
constexpr int kRowBlock = 4, kMaxVecs = 3;  // 12 + 3 + 1 of 16
#endif

#if HWY_ARCH_X86 && HWY_TARGET <= HWY_AVX2
constexpr bool kMaskedMemory = true;  // vmaskmov / AVX-512 masks: tails never touch memory beyond n
#else
constexpr bool kMaskedMemory = false;
#endif

// The first n < Lanes elements of p, the other lanes `fill`; reads nothing beyond p + n.
HWY_INLINE VF LoadTail(DF d, const float* p, size_t n, float fill = 0.0f) {
  if constexpr (kMaskedMemory) {
    const auto m = hn::FirstN(d, n);
    return hn::IfThenElse(m, hn::MaskedLoad(m, d, p), hn::Set(d, fill));
  } else {
    HWY_ALIGN float buf[hn::MaxLanes(DF())];
    for (size_t i = 0; i < hn::Lanes(d); ++i) buf[i] = i < n ? p[i] : fill;
    return hn::Load(d, buf);
  }
}

// Stores the first n < Lanes lanes of v at p; writes nothing beyond p + n.
HWY_INLINE void StoreTail(DF d, VF v, float* p, size_t n) {
  if constexpr (kMaskedMemory) {
    hn::BlendedStore(v, hn::FirstN(d, n), d, p);
  } else {
    HWY_ALIGN float buf[hn::MaxLanes(DF())];
    hn::Store(v, d, buf);
    std::memcpy(p, buf, n * sizeof(float));
  }
}

// Full vector or tail, by count (n >= Lanes: a full vector).
HWY_INLINE VF LoadN(DF d, const float* p, size_t n, float fill = 0.0f) {
  return n >= hn::Lanes(d) ? hn::LoadU(d, p) : LoadTail(d, p, n, fill);
}
HWY_INLINE void StoreN(DF d, VF v, float* p, size_t n) {
  if (n >= hn::Lanes(d))
    hn::StoreU(v, d, p);
  else
    StoreTail(d, v, p, n);
}

// ---- the two tile products ----------------------------------------------------------------------

// R rows x NV vectors of c; the last vector holds `last` columns (1..Lanes). The unroll pragmas make
// GCC unroll before scalar replacement, so the accumulators stay in registers.
template <int R, int NV>
HWY_INLINE void rows_times_packed_block(float* c, Index ldc, const float* x, Index ldx,
                                        const float* yt, Index ldy, Index depth, size_t last) {
  const DF d;
  const size_t N = hn::Lanes(d);
  VF acc[R][NV];
#pragma GCC unroll 8
  for (int r = 0; r < R; ++r)
#pragma GCC unroll 8
    for (int v = 0; v < NV; ++v) acc[r][v] = hn::Zero(d);
  for (Index k = 0; k < depth; ++k) {
    const float* yk = yt + k * ldy;
    VF y[NV];
#pragma GCC unroll 8
    for (int v = 0; v < NV - 1; ++v) y[v] = hn::LoadU(d, yk + N * v);
    y[NV - 1] = LoadN(d, yk + N * (NV - 1), last);
#pragma GCC unroll 8
    for (int r = 0; r < R; ++r) {
      const VF xb = hn::Set(d, x[r * ldx + k]);
#pragma GCC unroll 8
      for (int v = 0; v < NV; ++v) acc[r][v] = hn::MulAdd(xb, y[v], acc[r][v]);
    }
  }
#pragma GCC unroll 8
  for (int r = 0; r < R; ++r) {
#pragma GCC unroll 8
    for (int v = 0; v < NV - 1; ++v) hn::StoreU(acc[r][v], d, c + r * ldc + N * v);
    StoreN(d, acc[r][NV - 1], c + r * ldc + N * (NV - 1), last);
  }
}

// R rows of c (NV vectors each) += a(R x inner) * x(inner x cols).
template <int R, int NV>
HWY_INLINE void accumulate_block(float* c, Index ldc, const float* a, Index a_rs, Index a_cs,
                                 const float* x, Index ldx, Index inner, size_t last) {
  const DF d;
  const size_t N = hn::Lanes(d);
  VF acc[R][NV];
#pragma GCC unroll 8
  for (int r = 0; r < R; ++r) {
#pragma GCC unroll 8
    for (int v = 0; v < NV - 1; ++v) acc[r][v] = hn::LoadU(d, c + r * ldc + N * v);
    acc[r][NV - 1] = LoadN(d, c + r * ldc + N * (NV - 1), last);
  }
  for (Index k = 0; k < inner; ++k) {
    const float* xk = x + k * ldx;
    VF xv[NV];
#pragma GCC unroll 8
    for (int v = 0; v < NV - 1; ++v) xv[v] = hn::LoadU(d, xk + N * v);
    xv[NV - 1] = LoadN(d, xk + N * (NV - 1), last);
    const float* ak = a + k * a_cs;
#pragma GCC unroll 8
    for (int r = 0; r < R; ++r) {
      const VF ab = hn::Set(d, ak[r * a_rs]);
#pragma GCC unroll 8
      for (int v = 0; v < NV; ++v) acc[r][v] = hn::MulAdd(ab, xv[v], acc[r][v]);
    }
  }
#pragma GCC unroll 8
  for (int r = 0; r < R; ++r) {
#pragma GCC unroll 8
    for (int v = 0; v < NV - 1; ++v) hn::StoreU(acc[r][v], d, c + r * ldc + N * v);
    StoreN(d, acc[r][NV - 1], c + r * ldc + N * (NV - 1), last);
  }
}


// Column panels of kMaxVecs vectors; for each panel, row blocks. `call<R, NV>(r, c0, last)` runs one
// block.
template <typename Call>
HWY_INLINE void for_each_block(Index rows, Index cols, Call&& call) {
  const size_t N = hn::Lanes(DF());
  const Index panel = static_cast<Index>(kMaxVecs * N);
  for (Index c0 = 0; c0 < cols; c0 += panel) {
    const Index rem = cols - c0 < panel ? cols - c0 : panel;
    const int nv = static_cast<int>((static_cast<size_t>(rem) + N - 1) / N);
    const size_t last = static_cast<size_t>(rem) - N * static_cast<size_t>(nv - 1);
    const auto rows_of = [&]<int NV>() {
      Index r = 0;
      for (; r + kRowBlock <= rows; r += kRowBlock) call.template operator()<kRowBlock, NV>(r, c0, last);
      switch (rows - r) {
        case 5: if constexpr (kRowBlock > 5) call.template operator()<5, NV>(r, c0, last); break;
        case 4: if constexpr (kRowBlock > 4) call.template operator()<4, NV>(r, c0, last); break;
        case 3: call.template operator()<3, NV>(r, c0, last); break;
        case 2: call.template operator()<2, NV>(r, c0, last); break;
        case 1: call.template operator()<1, NV>(r, c0, last); break;
        default: break;
      }
    };
    switch (nv) {
      case 4: if constexpr (kMaxVecs >= 4) rows_of.template operator()<4>(); break;
      case 3: rows_of.template operator()<3>(); break;
      case 2: rows_of.template operator()<2>(); break;
      default: rows_of.template operator()<1>(); break;
    }
  }
}

void rows_times_packed(float* c, Index ldc, const float* x, Index ldx, const float* yt, Index ldy,
                       Index rows, Index cols, Index depth) {
  for_each_block(rows, cols, [&]<int R, int NV>(Index r, Index c0, size_t last) {
    rows_times_packed_block<R, NV>(c + r * ldc + c0, ldc, x + r * ldx, ldx, yt + c0, ldy, depth, last);
  });
}

void accumulate_product(float* c, Index ldc, const float* a, Index a_rs, Index a_cs,
                        const float* x, Index ldx, Index rows, Index inner, Index n) {
  for_each_block(rows, n, [&]<int R, int NV>(Index r, Index c0, size_t last) {
    accumulate_block<R, NV>(c + r * ldc + c0, ldc, a + r * a_rs, a_rs, a_cs, x + c0, ldx, inner, last);
  });
}

// ---- exp and log --------------------------------------------------------------------------------

// min(max(x, lo), hi) that keeps a NaN in x. x86's max/min return their second operand, which keeps
// it; elsewhere (NEON's maxnm/minnm, which Highway uses on aarch64, and the one-lane and emulated
// targets) a NaN would become a bound, so it is put back.
HWY_INLINE VF ClampKeepNaN(DF d, VF x, float lo, float hi) {
  const VF y = hn::Min(hn::Set(d, hi), hn::Max(hn::Set(d, lo), x));
#if HWY_ARCH_X86 && HWY_TARGET != HWY_SCALAR && HWY_TARGET != HWY_EMU128
  return y;
#else
  return hn::IfThenElse(hn::IsNaN(x), x, y);
#endif
}


// p 2^n for integer-valued n in [-160, 150]: overflow gives +inf, deep underflow 0, and the denormal
// range is kept. AVX-512's scalef does it in one instruction; elsewhere 2^n is applied as two
// factors 2^(n/2) 2^(n - n/2) built in the exponent field.
HWY_INLINE VF ScaleByPow2(DF d, VF p, VF n) {
#if HWY_TARGET <= HWY_AVX3
  (void)d;
  return VF{_mm512_scalef_ps(p.raw, n.raw)};
#else
  const DI di;
  // A NaN n (from a NaN x) converts to an unspecified integer on x86 and is undefined behaviour in
  // Highway's portable targets (emu128): it becomes 0 here, and p, a NaN too, keeps the result NaN.
  const auto ni = hn::ConvertTo(di, hn::IfThenZeroElse(hn::IsNaN(n), n));
  const auto n1 = hn::ShiftRight<1>(ni);
  const auto n2 = hn::Sub(ni, n1);
  const auto bias = hn::Set(di, 127);
  const VF f1 = hn::BitCast(d, hn::ShiftLeft<23>(hn::Add(n1, bias)));
  const VF f2 = hn::BitCast(d, hn::ShiftLeft<23>(hn::Add(n2, bias)));
  return hn::Mul(hn::Mul(p, f1), f2);
#endif
}

// exp(x) = 2^n exp(r), n = round(x / ln2), r = x - n ln2 (two-constant Cody-Waite), |r| <= ln2/2;
// exp(r) by its degree-7 Taylor polynomial (truncation < 1e-8 relative). -inf, clamped to -110,
// gives exactly 0; a NaN stays a NaN.
HWY_INLINE VF Exp(DF d, VF x) {
  x = ClampKeepNaN(d, x, -110.0f, 100.0f);
  const VF n = hn::Round(hn::Mul(x, hn::Set(d, 1.44269504088896341f)));
  VF r = hn::NegMulAdd(n, hn::Set(d, 0.693145751953125f), x);
  r = hn::NegMulAdd(n, hn::Set(d, 1.428606765330187045e-06f), r);
  VF p = hn::Set(d, 1.0f / 5040.0f);
  p = hn::MulAdd(p, r, hn::Set(d, 1.0f / 720.0f));
  p = hn::MulAdd(p, r, hn::Set(d, 1.0f / 120.0f));
  p = hn::MulAdd(p, r, hn::Set(d, 1.0f / 24.0f));
  p = hn::MulAdd(p, r, hn::Set(d, 1.0f / 6.0f));
  p = hn::MulAdd(p, r, hn::Set(d, 0.5f));
  p = hn::MulAdd(p, r, hn::Set(d, 1.0f));
  p = hn::MulAdd(p, r, hn::Set(d, 1.0f));
  return ScaleByPow2(d, p, n);
}

// exp(x) where the result is a weight relative to a maximum (the online softmax step and the softmax
// backward, whose arguments are logit - max and logit - lse, at most a rounding above 0): results
// below 2^-126 (x < -87.33) are flushed to 0, which changes no normalized weight by as much as an
// ulp, and x is taken as at most 88, so 2^n is one factor built in the exponent field. n = round(x log2 e) comes from the 1.5 * 2^23 shift, which leaves it
// in the low bits. -inf gives exactly 0, a NaN stays a NaN. AVX-512 keeps Exp (scalef is one
// instruction either way).
HWY_INLINE VF ExpOfRelativeLogit(DF d, VF x) {
#if HWY_TARGET <= HWY_AVX3
  return Exp(d, x);
#else
  const DI di;
  const VF kShift = hn::Set(d, 12582912.0f);  // 1.5 * 2^23
  const auto visible = hn::Not(hn::Lt(x, hn::Set(d, -87.33f)));  // false for -inf, true for NaN
  const VF xc = ClampKeepNaN(d, x, -88.0f, 88.0f);
  const VF t = hn::MulAdd(xc, hn::Set(d, 1.44269504088896341f), kShift);
  const VF n = hn::Sub(t, kShift);
  VF r = hn::NegMulAdd(n, hn::Set(d, 0.693145751953125f), xc);
  r = hn::NegMulAdd(n, hn::Set(d, 1.428606765330187045e-06f), r);
  VF p = hn::Set(d, 1.0f / 5040.0f);
  p = hn::MulAdd(p, r, hn::Set(d, 1.0f / 720.0f));
  p = hn::MulAdd(p, r, hn::Set(d, 1.0f / 120.0f));
  p = hn::MulAdd(p, r, hn::Set(d, 1.0f / 24.0f));
  p = hn::MulAdd(p, r, hn::Set(d, 1.0f / 6.0f));
  p = hn::MulAdd(p, r, hn::Set(d, 0.5f));
  p = hn::MulAdd(p, r, hn::Set(d, 1.0f));
  p = hn::MulAdd(p, r, hn::Set(d, 1.0f));
  // The low bits of t hold n + 0x400000 (the shift's mantissa); n + 127 in the exponent field is
  // (bits(t) - bits(shift) + 127) << 23.
  const auto bias = hn::Set(di, 127 - 0x4B400000);
  const VF scale = hn::BitCast(d, hn::ShiftLeft<23>(hn::Add(hn::BitCast(di, t), bias)));
  return hn::IfThenElseZero(visible, hn::Mul(p, scale));
#endif
}

// x = 2^e m with m in [0.75, 1.5); returns f = m - 1 and sets e. Finite positive x only (denormals
// included); callers fix the special values, except on AVX-512, where getexp/getmant give -inf for
// 0, +inf for +inf and a NaN mantissa for x < 0 or NaN by themselves.
HWY_INLINE VF MantissaMinusOne(DF d, VF x, VF& e) {
#if HWY_TARGET <= HWY_AVX3
  const VF m{_mm512_getmant_ps(x.raw, _MM_MANT_NORM_p75_1p5, _MM_MANT_SIGN_nan)};
  e = VF{_mm512_getexp_ps(x.raw)};
  // getexp reports the exponent for a mantissa in [1, 2); a mantissa reduced below 1 came from [1.5, 2).
  e = hn::Add(e, hn::IfThenElseZero(hn::Lt(m, hn::Set(d, 1.0f)), hn::Set(d, 1.0f)));
  return hn::Sub(m, hn::Set(d, 1.0f));
#else
  const DI di;
  const auto is_denormal = hn::Lt(x, hn::Set(d, 1.17549435e-38f));
  const VF xs = hn::IfThenElse(is_denormal, hn::Mul(x, hn::Set(d, 8388608.0f)), x);
  const auto bits = hn::BitCast(di, xs);
  e = hn::ConvertTo(d, hn::Sub(hn::And(hn::ShiftRight<23>(bits), hn::Set(di, 0xff)), hn::Set(di, 127)));
  e = hn::Sub(e, hn::IfThenElseZero(is_denormal, hn::Set(d, 23.0f)));
  VF m = hn::BitCast(d, hn::Or(hn::And(bits, hn::Set(di, 0x7fffff)), hn::Set(di, 0x3f800000)));
  const auto big = hn::Ge(m, hn::Set(d, 1.5f));  // to [0.75, 1.5)
  m = hn::IfThenElse(big, hn::Mul(m, hn::Set(d, 0.5f)), m);
  e = hn::Add(e, hn::IfThenElseZero(big, hn::Set(d, 1.0f)));
  return hn::Sub(m, hn::Set(d, 1.0f));
#endif
}

// f / (f + 2) for f = m - 1 in [-0.25, 0.5): on AVX-512 a reciprocal estimate and one Newton step
// (rcp14: 2^-28 relative after the step), a divide elsewhere. Not AVX2's or SSE4's rcpps: its 12-bit
// estimate is implementation-specific, and after one step it left log 3 ulp off on an Intel Xeon
// where an AMD EPYC gave 2 (docs/portability.md); NEON's estimate has 8 bits.
HWY_INLINE VF HalfRatio(DF d, VF f) {
  const VF den = hn::Add(f, hn::Set(d, 2.0f));
#if HWY_ARCH_X86 && HWY_TARGET <= HWY_AVX3
  const VF r0 = hn::ApproximateReciprocal(den);
  return hn::Mul(f, hn::Mul(r0, hn::NegMulAdd(den, r0, hn::Set(d, 2.0f))));
#else
  return hn::Div(f, den);
#endif
}

// The special values of log: 0 -> -inf, +inf -> +inf, negative or NaN -> NaN (AVX-512: already so).
HWY_INLINE VF FixLogSpecials(DF d, VF x, VF y) {
#if HWY_TARGET <= HWY_AVX3
  (void)d;
  (void)x;
  return y;
#else
  const VF zero = hn::Zero(d), inf = hn::Set(d, INFINITY);
  y = hn::IfThenElse(hn::Eq(x, zero), hn::Neg(inf), y);
  y = hn::IfThenElse(hn::Eq(x, inf), inf, y);
  return hn::IfThenElse(hn::Not(hn::Ge(x, zero)), hn::Set(d, NAN), y);
#endif
}

// log(x) = e ln2 + log(m), m in [0.75, 1.5); log(m) = 2 atanh(s), s = (m-1)/(m+1), |s| < 0.2, by
// its odd series to s^9 (truncation < 3e-8 relative).
HWY_INLINE VF Log(DF d, VF x) {
  VF e;
  const VF s = HalfRatio(d, MantissaMinusOne(d, x, e));
  const VF s2 = hn::Mul(s, s);
  VF p = hn::Set(d, 2.0f / 9.0f);
  p = hn::MulAdd(p, s2, hn::Set(d, 2.0f / 7.0f));
  p = hn::MulAdd(p, s2, hn::Set(d, 2.0f / 5.0f));
  p = hn::MulAdd(p, s2, hn::Set(d, 2.0f / 3.0f));
  p = hn::Mul(p, hn::Mul(s2, s));
  // log m = 2s + p; add the small parts first.
  VF lo = hn::MulAdd(e, hn::Set(d, 1.428606765330187045e-06f), p);
  lo = hn::Add(lo, hn::Add(s, s));
  return FixLogSpecials(d, x, hn::MulAdd(e, hn::Set(d, 0.693145751953125f), lo));
}

// -shift log2(e) as hi + lo: hi the rounded product, lo its rounding error (exact where there is an
// FMA) plus the part of log2(e) that the float constant misses.
HWY_INLINE void ShiftLog2(DF d, VF shift, VF& hi, VF& lo) {
  const VF ns = hn::Neg(shift);
  hi = hn::Mul(ns, hn::Set(d, kLog2e));
  lo = hn::MulAdd(ns, hn::Set(d, kLog2eLow), hn::MulSub(ns, hn::Set(d, kLog2e), hi));
}

// x^(-a) e^(-shift) for the fuzzy normalizer, as 2^t with t = -a log2(x) - shift log2(e). One
// range reduction serves the power where Exp(-a Log(x) - shift) had two: about a third fewer
// operations per score, which is what general-m fuzzy costs over softmax.
// - log2 x = e + log2(m), log2(m) = s q(s^2) with s = (m - 1)/(m + 1) as in Log (kLog2Poly).
// - -shift log2(e) comes split as sh_hi + sh_lo (ShiftLog2), so that no rounding of it is shared by a
//   whole column; hi = -a e + sh_hi is rounded once.
// - n = round(t), r = (hi - n) - a log2(m) + sh_lo with |r| <= 1/2 (hi - n is exact when hi and n are
//   close, the case that matters); 2^r by kExp2Poly; ScaleByPow2 applies 2^n.
// Specials: x = +inf (a hidden key) gives exactly 0, x = 0 gives +inf, NaN or x < 0 gives NaN.
HWY_INLINE VF NegPow(DF d, VF x, VF na, VF sh_hi, VF sh_lo) {
  VF e;
  const VF s = HalfRatio(d, MantissaMinusOne(d, x, e));
  const VF s2 = hn::Mul(s, s);
  VF q = hn::Set(d, kLog2Poly[0]);
  for (int k = 1; k < 4; ++k) q = hn::MulAdd(q, s2, hn::Set(d, kLog2Poly[k]));  // log2(m) = s q
  const VF ns = hn::Mul(na, s);
  const VF hi = hn::MulAdd(na, e, sh_hi);
  VF t = hn::MulAdd(ns, q, hi);
  t = ClampKeepNaN(d, t, -160.0f, 150.0f);
  const VF n = hn::Round(t);
  VF r = hn::Add(hn::MulAdd(ns, q, hn::Sub(hi, n)), sh_lo);
  r = hn::Max(hn::Set(d, -1.0f), r);  // x = +inf: r = -inf would make the polynomial inf
  VF p = hn::Set(d, kExp2Poly[0]);
  for (int k = 1; k < 7; ++k) p = hn::MulAdd(p, r, hn::Set(d, kExp2Poly[k]));
  VF y = ScaleByPow2(d, p, n);
#if HWY_TARGET > HWY_AVX3
  const VF zero = hn::Zero(d), inf = hn::Set(d, INFINITY);
  y = hn::IfThenElse(hn::Eq(x, zero), inf, y);
  y = hn::IfThenElse(hn::Eq(x, inf), zero, y);
  y = hn::IfThenElse(hn::Not(hn::Ge(x, zero)), hn::Set(d, NAN), y);
#endif
  return y;
}

// ---- element-wise kernels -----------------------------------------------------------------------

// f(offset, count) over [0, n) in vectors; count < Lanes only for the last one.
template <typename F>
HWY_INLINE void for_vectors(Index n, F&& f) {
  const Index N = static_cast<Index>(hn::Lanes(DF()));
  Index e = 0;
  for (; e + N <= n; e += N) f(e, static_cast<size_t>(N));
  if (e < n) f(e, static_cast<size_t>(n - e));
}

void exp_array(float* y, const float* x, Index n) {
  const DF d;
  for_vectors(n, [&](Index e, size_t cnt) { StoreN(d, Exp(d, LoadN(d, x + e, cnt)), y + e, cnt); });
}

void log_array(float* y, const float* x, Index n) {
  const DF d;
  for_vectors(n, [&](Index e, size_t cnt) { StoreN(d, Log(d, LoadN(d, x + e, cnt, 1.0f)), y + e, cnt); });
}

void exp_shift_sum(float* st, Index rows, Index cols, const float* shift, float* sum) {
  const DF d;
  for_vectors(cols, [&](Index c0, size_t cnt) {
    const VF sh = LoadN(d, shift + c0, cnt);
    VF acc = LoadN(d, sum + c0, cnt);
    for (Index r = 0; r < rows; ++r) {
      float* p = st + r * cols + c0;
      const VF y = ExpOfRelativeLogit(d, hn::Sub(LoadN(d, p, cnt), sh));
      StoreN(d, y, p, cnt);
      acc = hn::Add(acc, y);
    }
    StoreN(d, acc, sum + c0, cnt);
  });
}

void neg_pow_shift_sum(float* st, Index rows, Index cols, float a, const float* shift, float* sum) {
  const DF d;
  const VF na = hn::Set(d, -a);
  for_vectors(cols, [&](Index c0, size_t cnt) {
    VF sh_hi, sh_lo;
    ShiftLog2(d, LoadN(d, shift + c0, cnt), sh_hi, sh_lo);
    VF acc = LoadN(d, sum + c0, cnt);
    for (Index r = 0; r < rows; ++r) {
      float* p = st + r * cols + c0;
      const VF y = NegPow(d, LoadN(d, p, cnt, 1.0f), na, sh_hi, sh_lo);
      StoreN(d, y, p, cnt);
      acc = hn::Add(acc, y);
    }
    StoreN(d, acc, sum + c0, cnt);
  });
}

void softmax_backward(float* st, float* dp, Index rows, Index cols, float c, const float* row_add,
                      const float* lse, const float* drow, float* ds_rowsum) {
  const DF d;
  const VF vc = hn::Set(d, c);
  for (Index r = 0; r < rows; ++r) {
    const VF add = hn::Set(d, row_add[r]);
    VF acc = hn::Zero(d);
    for_vectors(cols, [&](Index k0, size_t cnt) {
      float* s = st + r * cols + k0;
      float* g = dp + r * cols + k0;
      const VF logit = hn::MulAdd(LoadN(d, s, cnt), vc, add);
      const VF p = ExpOfRelativeLogit(d, hn::Sub(logit, LoadN(d, lse + k0, cnt)));
      VF ds = hn::Mul(p, hn::Sub(LoadN(d, g, cnt), LoadN(d, drow + k0, cnt)));
      if (cnt < hn::Lanes(d)) ds = hn::IfThenElseZero(hn::FirstN(d, cnt), ds);
      StoreN(d, p, s, cnt);
      StoreN(d, hn::Mul(ds, vc), g, cnt);
      acc = hn::Add(acc, ds);
    });
    if (ds_rowsum) ds_rowsum[r] += hn::GetLane(hn::SumOfLanes(d, acc));
  }
}

}  // namespace

const Kernels* Table() {
  static const Kernels k{simd::target_name(HWY_TARGET), &rows_times_packed, &accumulate_product,
                         &exp_array,  &log_array,       &exp_shift_sum,     &neg_pow_shift_sum,
                         &softmax_backward};
  return &k;
}

}  // namespace HWY_NAMESPACE
}  // namespace kessel::attention_detail::tile
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
#include "kessel/error.h"
#include "util/simd_table.h"

namespace kessel::attention_detail::tile {

HWY_EXPORT(Table);

const Kernels& kernels_for(std::int64_t target) {
  if (target == simd::kScalarReference) return scalar_kernels();
  const auto table = KESSEL_SIMD_ENTRY(Table, target);
  KESSEL_CHECK_ARG(table != nullptr, "attention kernels: variant '", simd::target_name(target),
                   "' is not in this build");
  return *table();
}

const Kernels& active_kernels() { return kernels_for(simd::active_target()); }

}  // namespace kessel::attention_detail::tile
#endif  // HWY_ONCE
