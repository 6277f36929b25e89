// The vector math kernels (vector_math_kernels.h), written once over Highway's width-agnostic
// vectors and compiled for every target of the build (foreach_target.h re-includes this file once
// per target), and the scalar reference table.
//
// Each vector function repeats its scalar reference (util/vector_math.h, the loops at the end of
// this file) operation for operation, with hn::MulAdd / hn::NegMulAdd wherever the reference writes
// a * b + c or c - a * b: that is what keeps the non-FMA targets bit-identical to the reference and
// the FMA targets identical to each other. A tail shorter than a vector goes through the same
// vector code as the full vectors, so no result depends on the vector width: loaded and stored
// with the hardware's masked moves on AVX2 and AVX-512, and through a padded buffer, copied in and
// out by scalar loops, elsewhere (Highway 1.0.3's MaskedLoad reads the whole vector on SSE4, NEON
// and EMU128).
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "util/vector_math_kernels.cc"
#include "util/vector_math_kernels.h"

#include <cstddef>
#include <cstdint>

#include "hwy/foreach_target.h"  // IWYU pragma: keep
#include "hwy/highway.h"
#include "util/simd.h"

HWY_BEFORE_NAMESPACE();
namespace kessel {
namespace HWY_NAMESPACE {
namespace {

namespace hn = hwy::HWY_NAMESPACE;
using DF = hn::ScalableTag<float>;
using DI = hn::RebindToSigned<DF>;
using VF = hn::Vec<DF>;

constexpr std::size_t kMaxLanes = hn::MaxLanes(DF());

#if HWY_ARCH_X86 && HWY_TARGET <= HWY_AVX2
constexpr bool kMaskedMemory = true;  // vmaskmov / AVX-512 masks: tails never touch memory beyond n
#else
constexpr bool kMaskedMemory = false;
#endif

// The n < Lanes elements at p, the other lanes 0; reads nothing beyond p + n.
HWY_INLINE VF LoadTail(DF d, const float* HWY_RESTRICT p, std::size_t n) {
  if constexpr (kMaskedMemory) {
    return hn::MaskedLoad(hn::FirstN(d, n), d, p);
  } else {
    HWY_ALIGN float buf[kMaxLanes] = {};
    for (std::size_t i = 0; i < n; ++i) buf[i] = p[i];
    return hn::Load(d, buf);
  }
}

// Stores the first n < Lanes lanes of v at p; writes nothing beyond p + n.
HWY_INLINE void StoreTail(DF d, VF v, float* HWY_RESTRICT p, std::size_t n) {
  if constexpr (kMaskedMemory) {
    hn::BlendedStore(v, hn::FirstN(d, n), d, p);
  } else {
    HWY_ALIGN float buf[kMaxLanes];
    hn::Store(v, d, buf);
    for (std::size_t i = 0; i < n; ++i) p[i] = buf[i];
  }
}

// ---- the activations (scalar reference: util/vector_math.h) -------------------------------------

HWY_INLINE VF Exp(DF d, VF x) {
  const VF lo = hn::Set(d, -87.0f), hi = hn::Set(d, 88.0f);
  x = hn::IfThenElse(hn::Lt(x, lo), lo, x);  // a NaN passes both clamps, as in exp_approx
  x = hn::IfThenElse(hn::Gt(x, hi), hi, x);
  constexpr float kShift = 12582912.0f;  // 1.5 * 2^23
  const VF shift = hn::Set(d, kShift);
  const VF t = hn::MulAdd(x, hn::Set(d, 1.44269504088896341f), shift);
  const VF n = hn::Sub(t, shift);
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
  const DI di;
  const auto e = hn::Add(hn::Sub(hn::BitCast(di, t), hn::BitCast(di, shift)), hn::Set(di, 127));
  return hn::Mul(p, hn::BitCast(d, hn::ShiftLeft<23>(e)));
}

HWY_INLINE VF Sigmoid(DF d, VF x) {
  const VF one = hn::Set(d, 1.0f);
  return hn::Div(one, hn::Add(one, Exp(d, hn::Neg(x))));
}

HWY_INLINE VF Tanh(DF d, VF x) {
  const VF one = hn::Set(d, 1.0f);
  const VF a = hn::Abs(x);
  const VF e = Exp(d, hn::Mul(hn::Set(d, -2.0f), a));
  const VF big = hn::Div(hn::Sub(one, e), hn::Add(one, e));
  const VF s = hn::Mul(a, a);
  VF p = hn::Set(d, -929569.0f / 638512875.0f);
  p = hn::MulAdd(p, s, hn::Set(d, 21844.0f / 6081075.0f));
  p = hn::MulAdd(p, s, hn::Set(d, -(1382.0f / 155925.0f)));
  p = hn::MulAdd(p, s, hn::Set(d, 62.0f / 2835.0f));
  p = hn::MulAdd(p, s, hn::Set(d, -(17.0f / 315.0f)));
  p = hn::MulAdd(p, s, hn::Set(d, 2.0f / 15.0f));
  p = hn::MulAdd(p, s, hn::Set(d, -(1.0f / 3.0f)));
  p = hn::MulAdd(p, s, one);
  const VF small = hn::Mul(a, p);
  return hn::CopySign(hn::IfThenElse(hn::Lt(a, hn::Set(d, 0.55f)), small, big), x);
}

// x[i] = F(x[i]) for i < n.
template <VF (*F)(DF, VF)>
void MapInplace(float* HWY_RESTRICT x, std::size_t n) {
  const DF d;
  const std::size_t N = hn::Lanes(d);
  std::size_t i = 0;
  for (; i + N <= n; i += N) hn::StoreU(F(d, hn::LoadU(d, x + i)), d, x + i);
  if (i < n) StoreTail(d, F(d, LoadTail(d, x + i, n - i)), x + i, n - i);
}

void SigmoidInplace(float* x, std::size_t n) { MapInplace<Sigmoid>(x, n); }
void TanhInplace(float* x, std::size_t n) { MapInplace<Tanh>(x, n); }

// ---- elementwise products
// ------------------------------------------------------------------------

HWY_INLINE VF TanhGrad(DF d, VF dx, VF y) {
  return hn::Mul(dx, hn::NegMulAdd(y, y, hn::Set(d, 1.0f)));
}

void TanhBackwardInplace(float* HWY_RESTRICT dx, const float* HWY_RESTRICT y, std::size_t n) {
  const DF d;
  const std::size_t N = hn::Lanes(d);
  std::size_t i = 0;
  for (; i + N <= n; i += N)
    hn::StoreU(TanhGrad(d, hn::LoadU(d, dx + i), hn::LoadU(d, y + i)), d, dx + i);
  if (i < n)
    StoreTail(d, TanhGrad(d, LoadTail(d, dx + i, n - i), LoadTail(d, y + i, n - i)), dx + i, n - i);
}

void Axpy(float* HWY_RESTRICT y, float a, const float* HWY_RESTRICT x, std::size_t n) {
  const DF d;
  const std::size_t N = hn::Lanes(d);
  const VF av = hn::Set(d, a);
  std::size_t i = 0;
  for (; i + N <= n; i += N)
    hn::StoreU(hn::MulAdd(av, hn::LoadU(d, x + i), hn::LoadU(d, y + i)), d, y + i);
  if (i < n)
    StoreTail(d, hn::MulAdd(av, LoadTail(d, x + i, n - i), LoadTail(d, y + i, n - i)), y + i,
              n - i);
}

// y[j] += a table[rows[r], j] for r = 0, 1, ..., count - 1 in turn (table [*, n]): count axpy calls
// in one, with y held in registers between the rows.
void AddScaledRows(float* HWY_RESTRICT y, float a, const float* HWY_RESTRICT table,
                   const std::int32_t* HWY_RESTRICT rows, std::size_t count, std::size_t n) {
  const DF d;
  const std::size_t N = hn::Lanes(d);
  const VF av = hn::Set(d, a);
  auto row = [&](std::size_t r) { return table + static_cast<std::size_t>(rows[r]) * n; };
  std::size_t j = 0;
  for (; j + N <= n; j += N) {
    VF acc = hn::LoadU(d, y + j);
    for (std::size_t r = 0; r < count; ++r) acc = hn::MulAdd(av, hn::LoadU(d, row(r) + j), acc);
    hn::StoreU(acc, d, y + j);
  }
  if (j == n) return;
  VF acc = LoadTail(d, y + j, n - j);
  for (std::size_t r = 0; r < count; ++r) acc = hn::MulAdd(av, LoadTail(d, row(r) + j, n - j), acc);
  StoreTail(d, acc, y + j, n - j);
}

// ---- y += Wt^T x
// ---------------------------------------------------------------------------------

// NV full vectors of y from column o0 on, held in registers over the whole i loop (loading and
// storing y at every i makes the loop memory-bound). The unroll pragmas make GCC unroll before
// scalar replacement, so the accumulators stay in registers.
template <int NV>
HWY_INLINE void MatvecBlock(float* HWY_RESTRICT y, const float* HWY_RESTRICT wt,
                            const float* HWY_RESTRICT x, std::size_t I, std::size_t O,
                            std::size_t o0) {
  const DF d;
  const std::size_t N = hn::Lanes(d);
  VF acc[NV];
#pragma GCC unroll 8
  for (int v = 0; v < NV; ++v) acc[v] = hn::LoadU(d, y + o0 + N * v);
  for (std::size_t i = 0; i < I; ++i) {
    const VF xi = hn::Set(d, x[i]);
    const float* wr = wt + i * O + o0;
#pragma GCC unroll 8
    for (int v = 0; v < NV; ++v) acc[v] = hn::MulAdd(hn::LoadU(d, wr + N * v), xi, acc[v]);
  }
#pragma GCC unroll 8
  for (int v = 0; v < NV; ++v) hn::StoreU(acc[v], d, y + o0 + N * v);
}

void AddMatvecT(float* HWY_RESTRICT y, const float* HWY_RESTRICT wt, const float* HWY_RESTRICT x,
                std::size_t I, std::size_t O) {
  const DF d;
  const std::size_t N = hn::Lanes(d);
  // Eight accumulators cover FMA latency times throughput on current cores (4 cycles x 2 ports).
  std::size_t o0 = 0;
  for (; o0 + 8 * N <= O; o0 += 8 * N) MatvecBlock<8>(y, wt, x, I, O, o0);
  if (o0 + 4 * N <= O) {
    MatvecBlock<4>(y, wt, x, I, O, o0);
    o0 += 4 * N;
  }
  if (o0 + 2 * N <= O) {
    MatvecBlock<2>(y, wt, x, I, O, o0);
    o0 += 2 * N;
  }
  if (o0 + N <= O) {
    MatvecBlock<1>(y, wt, x, I, O, o0);
    o0 += N;
  }
  if (o0 == O) return;
  const std::size_t rest = O - o0;  // the last O % Lanes outputs
  VF acc = LoadTail(d, y + o0, rest);
  for (std::size_t i = 0; i < I; ++i)
    acc = hn::MulAdd(LoadTail(d, wt + i * O + o0, rest), hn::Set(d, x[i]), acc);
  StoreTail(d, acc, y + o0, rest);
}

// ---- Y += X Wt, row by row as y += Wt^T x
// ----------------------------------------------------------------

// R rows of y [*, O], NV vectors each from column o0 on: each weight vector loaded feeds R
// multiply-adds, where MatvecBlock's feeds one (its loop is bound by loads: a weight vector and a
// broadcast per multiply-add). Every output gets MatvecBlock's multiply-adds in its order.
template <int R, int NV>
HWY_INLINE void MatmatBlock(float* HWY_RESTRICT y, const float* HWY_RESTRICT wt,
                            const float* HWY_RESTRICT x, std::size_t I, std::size_t O,
                            std::size_t o0) {
  const DF d;
  const std::size_t N = hn::Lanes(d);
  VF acc[R][NV];
#pragma GCC unroll 4
  for (int r = 0; r < R; ++r)
#pragma GCC unroll 4
    for (int v = 0; v < NV; ++v) acc[r][v] = hn::LoadU(d, y + r * O + o0 + N * v);
  for (std::size_t i = 0; i < I; ++i) {
    const float* wr = wt + i * O + o0;
    VF w[NV];
#pragma GCC unroll 4
    for (int v = 0; v < NV; ++v) w[v] = hn::LoadU(d, wr + N * v);
#pragma GCC unroll 4
    for (int r = 0; r < R; ++r) {
      const VF xi = hn::Set(d, x[r * I + i]);
#pragma GCC unroll 4
      for (int v = 0; v < NV; ++v) acc[r][v] = hn::MulAdd(w[v], xi, acc[r][v]);
    }
  }
#pragma GCC unroll 4
  for (int r = 0; r < R; ++r)
#pragma GCC unroll 4
    for (int v = 0; v < NV; ++v) hn::StoreU(acc[r][v], d, y + r * O + o0 + N * v);
}

// R rows of y [*, O] += x [*, I] Wt: four vectors at a time, then two, then one, then AddMatvecT's
// tail. With R = 3 the four-vector block keeps 12 accumulators, 3 weight vectors and a broadcast in
// AVX2's 16 registers and reads the fourth weight vector from memory inside its multiply-adds: 22
// instructions for 12 multiply-adds, where R = 4 with two vectors took 18 for 8.
template <int R>
void MatmatRows(float* HWY_RESTRICT y, const float* HWY_RESTRICT wt, const float* HWY_RESTRICT x,
                std::size_t I, std::size_t O) {
  const DF d;
  const std::size_t N = hn::Lanes(d);
  std::size_t o0 = 0;
  for (; o0 + 4 * N <= O; o0 += 4 * N) MatmatBlock<R, 4>(y, wt, x, I, O, o0);
  if (o0 + 2 * N <= O) {
    MatmatBlock<R, 2>(y, wt, x, I, O, o0);
    o0 += 2 * N;
  }
  if (o0 + N <= O) {
    MatmatBlock<R, 1>(y, wt, x, I, O, o0);
    o0 += N;
  }
  if (o0 == O) return;
  const std::size_t rest = O - o0;
  for (int r = 0; r < R; ++r) {
    VF acc = LoadTail(d, y + r * O + o0, rest);
    for (std::size_t i = 0; i < I; ++i)
      acc = hn::MulAdd(LoadTail(d, wt + i * O + o0, rest), hn::Set(d, x[r * I + i]), acc);
    StoreTail(d, acc, y + r * O + o0, rest);
  }
}

void AddMatmatT(float* HWY_RESTRICT y, const float* HWY_RESTRICT wt, const float* HWY_RESTRICT x,
                std::size_t rows, std::size_t I, std::size_t O) {
  std::size_t n = 0;
  for (; n + 3 <= rows; n += 3) MatmatRows<3>(y + n * O, wt, x + n * I, I, O);
  for (; n + 2 <= rows; n += 2) MatmatRows<2>(y + n * O, wt, x + n * I, I, O);
  if (n < rows) AddMatvecT(y + n * O, wt, x + n * I, I, O);
}

// ---- one LSTM step
// -------------------------------------------------------------------------------

// One vector of units: pre-activations in, activations out; c and h of these units (without
// has_prev, c = i g + 0, as in the reference).
HWY_INLINE void CellForward(DF d, VF& i, VF& f, VF& g, VF& o, bool has_prev, VF cp, VF& c, VF& h) {
  i = Sigmoid(d, i);
  f = Sigmoid(d, f);
  g = Tanh(d, g);
  o = Sigmoid(d, o);
  c = hn::MulAdd(i, g, has_prev ? hn::Mul(f, cp) : hn::Zero(d));
  h = hn::Mul(Tanh(d, c), o);
}

void LstmCellForward(float* HWY_RESTRICT gates, float* HWY_RESTRICT c, float* HWY_RESTRICT h,
                     const float* HWY_RESTRICT c_prev, std::size_t H) {
  const DF d;
  const std::size_t N = hn::Lanes(d);
  float* gi = gates;
  float* gf = gates + H;
  float* gg = gates + 2 * H;
  float* go = gates + 3 * H;
  std::size_t k = 0;
  for (; k + N <= H; k += N) {
    VF i = hn::LoadU(d, gi + k), f = hn::LoadU(d, gf + k), g = hn::LoadU(d, gg + k),
       o = hn::LoadU(d, go + k);
    const VF cp = c_prev ? hn::LoadU(d, c_prev + k) : hn::Zero(d);
    VF ck, hk;
    CellForward(d, i, f, g, o, c_prev != nullptr, cp, ck, hk);
    hn::StoreU(i, d, gi + k);
    hn::StoreU(f, d, gf + k);
    hn::StoreU(g, d, gg + k);
    hn::StoreU(o, d, go + k);
    hn::StoreU(ck, d, c + k);
    hn::StoreU(hk, d, h + k);
  }
  if (k == H) return;
  const std::size_t rest = H - k;
  VF i = LoadTail(d, gi + k, rest), f = LoadTail(d, gf + k, rest), g = LoadTail(d, gg + k, rest),
     o = LoadTail(d, go + k, rest), ck, hk;
  const VF cp = c_prev ? LoadTail(d, c_prev + k, rest) : hn::Zero(d);
  CellForward(d, i, f, g, o, c_prev != nullptr, cp, ck, hk);
  StoreTail(d, i, gi + k, rest);
  StoreTail(d, f, gf + k, rest);
  StoreTail(d, g, gg + k, rest);
  StoreTail(d, o, go + k, rest);
  StoreTail(d, ck, c + k, rest);
  StoreTail(d, hk, h + k, rest);
}

// One vector of units of lstm_cell_backward; dc is dc_next in and the gradient at c_prev out.
HWY_INLINE void CellBackward(DF d, VF i, VF f, VF g, VF o, VF tc, VF cp, VF dh, VF& dc, VF& di,
                             VF& df, VF& dg, VF& dout) {
  const VF one = hn::Set(d, 1.0f);
  const VF dct =
      hn::MulAdd(hn::Mul(dh, o), hn::NegMulAdd(tc, tc, one), dc);  // dc_next + dh o (1 - tc^2)
  di = hn::Mul(hn::Mul(hn::Mul(dct, g), i), hn::Sub(one, i));
  df = hn::Mul(hn::Mul(hn::Mul(dct, cp), f), hn::Sub(one, f));
  dg = hn::Mul(hn::Mul(dct, i), hn::NegMulAdd(g, g, one));
  dout = hn::Mul(hn::Mul(hn::Mul(dh, tc), o), hn::Sub(one, o));
  dc = hn::Mul(dct, f);
}

void LstmCellBackward(float* HWY_RESTRICT dgates, float* HWY_RESTRICT dc_next,
                      const float* HWY_RESTRICT gates, const float* HWY_RESTRICT tanh_c,
                      const float* HWY_RESTRICT c_prev, const float* HWY_RESTRICT dh_out,
                      const float* HWY_RESTRICT dh_next, std::size_t H) {
  const DF d;
  const std::size_t N = hn::Lanes(d);
  std::size_t k = 0;
  for (; k + N <= H; k += N) {
    const VF dh = hn::Add(hn::LoadU(d, dh_out + k), hn::LoadU(d, dh_next + k));
    const VF cp = c_prev ? hn::LoadU(d, c_prev + k) : hn::Zero(d);
    VF dc = hn::LoadU(d, dc_next + k), di, df, dg, dout;
    CellBackward(d, hn::LoadU(d, gates + k), hn::LoadU(d, gates + H + k),
                 hn::LoadU(d, gates + 2 * H + k), hn::LoadU(d, gates + 3 * H + k),
                 hn::LoadU(d, tanh_c + k), cp, dh, dc, di, df, dg, dout);
    hn::StoreU(di, d, dgates + k);
    hn::StoreU(df, d, dgates + H + k);
    hn::StoreU(dg, d, dgates + 2 * H + k);
    hn::StoreU(dout, d, dgates + 3 * H + k);
    hn::StoreU(dc, d, dc_next + k);
  }
  if (k == H) return;
  const std::size_t rest = H - k;
  const VF dh = hn::Add(LoadTail(d, dh_out + k, rest), LoadTail(d, dh_next + k, rest));
  const VF cp = c_prev ? LoadTail(d, c_prev + k, rest) : hn::Zero(d);
  VF dc = LoadTail(d, dc_next + k, rest), di, df, dg, dout;
  CellBackward(d, LoadTail(d, gates + k, rest), LoadTail(d, gates + H + k, rest),
               LoadTail(d, gates + 2 * H + k, rest), LoadTail(d, gates + 3 * H + k, rest),
               LoadTail(d, tanh_c + k, rest), cp, dh, dc, di, df, dg, dout);
  StoreTail(d, di, dgates + k, rest);
  StoreTail(d, df, dgates + H + k, rest);
  StoreTail(d, dg, dgates + 2 * H + k, rest);
  StoreTail(d, dout, dgates + 3 * H + k, rest);
  StoreTail(d, dc, dc_next + k, rest);
}

}  // namespace

const VectorMathKernels* Table() {
  static const VectorMathKernels table{simd::target_name(HWY_TARGET),
                                       SigmoidInplace,
                                       TanhInplace,
                                       TanhBackwardInplace,
                                       Axpy,
                                       AddScaledRows,
                                       AddMatvecT,
                                       AddMatmatT,
                                       LstmCellForward,
                                       LstmCellBackward};
  return &table;
}

}  // namespace HWY_NAMESPACE
}  // namespace kessel
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
#include <algorithm>

#include "kessel/error.h"
#include "util/simd_table.h"
#include "util/vector_math.h"

namespace kessel {
namespace {

// ---- the scalar reference
// ------------------------------------------------------------------------

void sigmoid_reference(float* x, std::size_t n) {
  for (std::size_t i = 0; i < n; ++i) x[i] = sigmoid_approx(x[i]);
}

void tanh_reference(float* x, std::size_t n) {
  for (std::size_t i = 0; i < n; ++i) x[i] = tanh_approx(x[i]);
}

void tanh_backward_reference(float* dx, const float* y, std::size_t n) {
  for (std::size_t i = 0; i < n; ++i) dx[i] *= 1.0f - y[i] * y[i];
}

void axpy_reference(float* y, float a, const float* x, std::size_t n) {
  for (std::size_t i = 0; i < n; ++i) y[i] += a * x[i];
}

void add_matvec_t_reference(float* y, const float* wt, const float* x, std::size_t I,
                            std::size_t O) {
  for (std::size_t i = 0; i < I; ++i) {
    const float xi = x[i];
    const float* wr = wt + i * O;
    for (std::size_t o = 0; o < O; ++o) y[o] += wr[o] * xi;
  }
}

void add_scaled_rows_reference(float* y, float a, const float* table, const std::int32_t* rows,
                               std::size_t count, std::size_t n) {
  for (std::size_t r = 0; r < count; ++r)
    axpy_reference(y, a, table + static_cast<std::size_t>(rows[r]) * n, n);
}

void add_matmat_t_reference(float* y, const float* wt, const float* x, std::size_t rows,
                            std::size_t I, std::size_t O) {
  for (std::size_t n = 0; n < rows; ++n) add_matvec_t_reference(y + n * O, wt, x + n * I, I, O);
}

void lstm_cell_forward_reference(float* gates, float* c, float* h, const float* c_prev,
                                 std::size_t H) {
  sigmoid_reference(gates, 2 * H);      // i, f
  tanh_reference(gates + 2 * H, H);     // g
  sigmoid_reference(gates + 3 * H, H);  // o
  for (std::size_t k = 0; k < H; ++k)
    c[k] = gates[k] * gates[2 * H + k] + (c_prev ? gates[H + k] * c_prev[k] : 0.0f);
  std::copy_n(c, H, h);
  tanh_reference(h, H);
  for (std::size_t k = 0; k < H; ++k) h[k] *= gates[3 * H + k];
}

void lstm_cell_backward_reference(float* dgates, float* dc_next, const float* gates,
                                  const float* tanh_c, const float* c_prev, const float* dh_out,
                                  const float* dh_next, std::size_t H) {
  for (std::size_t k = 0; k < H; ++k) {
    const float i = gates[k], f = gates[H + k], g = gates[2 * H + k], o = gates[3 * H + k];
    const float tc = tanh_c[k];
    const float dh = dh_out[k] + dh_next[k];
    const float dc = dc_next[k] + dh * o * (1.0f - tc * tc);
    const float cp = c_prev ? c_prev[k] : 0.0f;
    dgates[k] = dc * g * i * (1.0f - i);
    dgates[H + k] = dc * cp * f * (1.0f - f);
    dgates[2 * H + k] = dc * i * (1.0f - g * g);
    dgates[3 * H + k] = dh * tc * o * (1.0f - o);
    dc_next[k] = dc * f;
  }
}

const VectorMathKernels kScalarKernels{"scalar",
                                       sigmoid_reference,
                                       tanh_reference,
                                       tanh_backward_reference,
                                       axpy_reference,
                                       add_scaled_rows_reference,
                                       add_matvec_t_reference,
                                       add_matmat_t_reference,
                                       lstm_cell_forward_reference,
                                       lstm_cell_backward_reference};

}  // namespace

HWY_EXPORT(Table);

const VectorMathKernels& vector_math_kernels(std::int64_t target) {
  if (target == simd::kScalarReference) return kScalarKernels;
  const auto table = KESSEL_SIMD_ENTRY(Table, target);
  KESSEL_CHECK_ARG(table != nullptr, "vector math kernels: variant '", simd::target_name(target),
                   "' is not in this build");
  return *table();
}

}  // namespace kessel
#endif  // HWY_ONCE
