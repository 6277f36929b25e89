// The HMM kernel family (hmm_kernels.h), one source for every SIMD variant. Highway compiles the
// HWY_NAMESPACE part once per target (foreach_target.h re-includes this file with each target's
// attributes); the HWY_ONCE part holds the plain scalar table, kept as the reference, and the
// lookup.
//
// Width-agnostic: a vector holds N = Lanes(d) doubles (2 on sse4/emu128/neon, 4 on avx2, 8 on
// avx512). Loops over destinations keep up to four vectors of results in registers across the loop
// over predecessors (one broadcast of x[i] or prev[i] per row); destinations left over (fewer than
// N) read their contiguous column in the transposed matrix. Tails never read past a buffer:
// elementwise kernels finish with a scalar loop (mul and add round identically in a lane and in a
// scalar), and mul_exp_sum passes its tail through a padded stack copy so every element goes
// through the same Exp.
#include "hmm/hmm_kernels.h"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <limits>

#include "util/simd.h"

// foreach_target.h re-includes this file once per target; Highway's headers must follow it.
// clang-format off
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "hmm/hmm_kernels.cc"
#include "hwy/foreach_target.h"  // IWYU pragma: keep
#include "hwy/highway.h"
#include "hwy/contrib/math/math-inl.h"
// clang-format on

HWY_BEFORE_NAMESPACE();
namespace kessel::hmm::detail {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

using D = hn::ScalableTag<double>;
using V = hn::Vec<D>;

constexpr double kNegInf = -std::numeric_limits<double>::infinity();
constexpr std::size_t kMaxLanes = HWY_MAX_BYTES / sizeof(double);

// The count < Lanes(d) doubles at p as a vector whose other lanes hold fill (no read past p +
// count).
HWY_INLINE V LoadTail(D d, const double* p, std::size_t count, double fill) {
  HWY_ALIGN double buf[kMaxLanes];
  for (std::size_t i = 0; i < hn::Lanes(d); ++i) buf[i] = i < count ? p[i] : fill;
  return hn::Load(d, buf);
}

HWY_INLINE void StoreTail(V v, D d, double* p, std::size_t count) {
  HWY_ALIGN double buf[kMaxLanes];
  hn::Store(v, d, buf);
  for (std::size_t i = 0; i < count; ++i) p[i] = buf[i];
}

// ---- Viterbi ------------------------------------------------------------------------------------

// nd[j] = max_i (prev[i] + log_trans[i, j]) + lb[j] for the Q vectors of destinations from j0, the
// maxima held in registers across the loop over predecessors. max is exact and there are no NaNs
// (log-probabilities are finite or -inf), so the result is that of any evaluation order.
template <int Q>
HWY_INLINE void MaxPlusBlock(D d, double* HWY_RESTRICT nd, const double* HWY_RESTRICT prev,
                             const double* HWY_RESTRICT log_trans, const double* HWY_RESTRICT lb,
                             Index S, Index j0) {
  const Index N = static_cast<Index>(hn::Lanes(d));
  V m0 = hn::Set(d, kNegInf);
  [[maybe_unused]] V m1 = m0, m2 = m0, m3 = m0;
  for (Index i = 0; i < S; ++i) {
    const V p = hn::Set(d, prev[i]);
    const double* row = log_trans + i * S + j0;
    m0 = hn::Max(hn::Add(p, hn::LoadU(d, row)), m0);
    if constexpr (Q > 1) m1 = hn::Max(hn::Add(p, hn::LoadU(d, row + N)), m1);
    if constexpr (Q > 2) m2 = hn::Max(hn::Add(p, hn::LoadU(d, row + 2 * N)), m2);
    if constexpr (Q > 3) m3 = hn::Max(hn::Add(p, hn::LoadU(d, row + 3 * N)), m3);
  }
  hn::StoreU(hn::Add(m0, hn::LoadU(d, lb + j0)), d, nd + j0);
  if constexpr (Q > 1) hn::StoreU(hn::Add(m1, hn::LoadU(d, lb + j0 + N)), d, nd + j0 + N);
  if constexpr (Q > 2) hn::StoreU(hn::Add(m2, hn::LoadU(d, lb + j0 + 2 * N)), d, nd + j0 + 2 * N);
  if constexpr (Q > 3) hn::StoreU(hn::Add(m3, hn::LoadU(d, lb + j0 + 3 * N)), d, nd + j0 + 3 * N);
}

// The largest lane. Not hn::MaxOfLanes: Highway's portable emu128 target starts its reduction from
// the lowest finite double, so a vector of -inf gave -1.8e308 instead of -inf (a log probability of
// an impossible state became a finite one).
HWY_INLINE double LaneMax(D d, V v) {
  HWY_ALIGN double lanes[kMaxLanes];
  hn::Store(v, d, lanes);
  double r = lanes[0];
  for (std::size_t i = 1; i < hn::Lanes(d); ++i) r = std::max(r, lanes[i]);
  return r;
}

// max_i (prev[i] + col[i]) over a contiguous column.
HWY_INLINE double MaxPlusColumn(D d, const double* HWY_RESTRICT prev,
                                const double* HWY_RESTRICT col, Index S) {
  const Index N = static_cast<Index>(hn::Lanes(d));
  V m = hn::Set(d, kNegInf);
  Index i = 0;
  for (; i + N <= S; i += N) m = hn::Max(hn::Add(hn::LoadU(d, prev + i), hn::LoadU(d, col + i)), m);
  double r = LaneMax(d, m);
  for (; i < S; ++i) r = std::max(r, prev[i] + col[i]);
  return r;
}

void MaxPlusStep(double* HWY_RESTRICT nd, const double* HWY_RESTRICT prev,
                 const double* HWY_RESTRICT log_trans, const double* HWY_RESTRICT log_trans_t,
                 const double* HWY_RESTRICT lb, Index S) {
  const D d;
  const Index N = static_cast<Index>(hn::Lanes(d));
  Index j = 0;
  for (; j + 4 * N <= S; j += 4 * N) MaxPlusBlock<4>(d, nd, prev, log_trans, lb, S, j);
  const Index q = (S - j) / N;
  if (q == 3) MaxPlusBlock<3>(d, nd, prev, log_trans, lb, S, j);
  if (q == 2) MaxPlusBlock<2>(d, nd, prev, log_trans, lb, S, j);
  if (q == 1) MaxPlusBlock<1>(d, nd, prev, log_trans, lb, S, j);
  for (j += q * N; j < S; ++j) nd[j] = MaxPlusColumn(d, prev, log_trans_t + j * S, S) + lb[j];
}

// ---- forward–backward -------------------------------------------------------------------------

double MaxOf(const double* HWY_RESTRICT x, Index n) {
  const D d;
  const Index N = static_cast<Index>(hn::Lanes(d));
  V m = hn::Set(d, kNegInf);
  Index i = 0;
  for (; i + N <= n; i += N) m = hn::Max(hn::LoadU(d, x + i), m);
  double r = LaneMax(d, m);
  for (; i < n; ++i) r = std::max(r, x[i]);
  return r;
}

double MulExpSum(double* HWY_RESTRICT out, const double* HWY_RESTRICT p,
                 const double* HWY_RESTRICT lb, double m, Index n) {
  const D d;
  const Index N = static_cast<Index>(hn::Lanes(d));
  const V vm = hn::Set(d, m);
  V sum = hn::Zero(d);
  Index i = 0;
  for (; i + N <= n; i += N) {
    const V a = hn::Mul(hn::LoadU(d, p + i), hn::Exp(d, hn::Sub(hn::LoadU(d, lb + i), vm)));
    hn::StoreU(a, d, out + i);
    sum = hn::Add(sum, a);
  }
  if (i < n) {  // padding: p = 0 and lb = -inf, whose exp is 0
    const auto rest = static_cast<std::size_t>(n - i);
    const V e = hn::Exp(d, hn::Sub(LoadTail(d, lb + i, rest, kNegInf), vm));
    const V a = hn::Mul(LoadTail(d, p + i, rest, 0.0), e);
    StoreTail(a, d, out + i, rest);
    sum = hn::Add(sum, a);
  }
  return hn::GetLane(hn::SumOfLanes(d, sum));
}

void Scale(double* HWY_RESTRICT x, double c, Index n) {
  const D d;
  const Index N = static_cast<Index>(hn::Lanes(d));
  const V vc = hn::Set(d, c);
  Index i = 0;
  for (; i + N <= n; i += N) hn::StoreU(hn::Mul(hn::LoadU(d, x + i), vc), d, x + i);
  for (; i < n; ++i) x[i] *= c;
}

HWY_INLINE double Dot(D d, const double* HWY_RESTRICT a, const double* HWY_RESTRICT b, Index n) {
  const Index N = static_cast<Index>(hn::Lanes(d));
  V s = hn::Zero(d);
  Index i = 0;
  for (; i + N <= n; i += N) s = hn::MulAdd(hn::LoadU(d, a + i), hn::LoadU(d, b + i), s);
  double r = hn::GetLane(hn::SumOfLanes(d, s));
  for (; i < n; ++i) r += a[i] * b[i];
  return r;
}

// out[j] = sum_i x[i] M[i, j] for the Q vectors of destinations from j0, accumulated in registers
// over the rows i in order.
template <int Q>
HWY_INLINE void VecMatBlock(D d, double* HWY_RESTRICT out, const double* HWY_RESTRICT x,
                            const double* HWY_RESTRICT M, Index S, Index j0) {
  const Index N = static_cast<Index>(hn::Lanes(d));
  V a0 = hn::Zero(d);
  [[maybe_unused]] V a1 = a0, a2 = a0, a3 = a0;
  for (Index i = 0; i < S; ++i) {
    if (x[i] == 0.0) continue;  // sparse rows (left-to-right models) cost nothing
    const V xi = hn::Set(d, x[i]);
    const double* row = M + i * S + j0;
    a0 = hn::MulAdd(xi, hn::LoadU(d, row), a0);
    if constexpr (Q > 1) a1 = hn::MulAdd(xi, hn::LoadU(d, row + N), a1);
    if constexpr (Q > 2) a2 = hn::MulAdd(xi, hn::LoadU(d, row + 2 * N), a2);
    if constexpr (Q > 3) a3 = hn::MulAdd(xi, hn::LoadU(d, row + 3 * N), a3);
  }
  hn::StoreU(a0, d, out + j0);
  if constexpr (Q > 1) hn::StoreU(a1, d, out + j0 + N);
  if constexpr (Q > 2) hn::StoreU(a2, d, out + j0 + 2 * N);
  if constexpr (Q > 3) hn::StoreU(a3, d, out + j0 + 3 * N);
}

void VecMat(double* HWY_RESTRICT out, const double* HWY_RESTRICT x, const double* HWY_RESTRICT M,
            const double* HWY_RESTRICT M_t, Index S) {
  const D d;
  const Index N = static_cast<Index>(hn::Lanes(d));
  Index j = 0;
  for (; j + 4 * N <= S; j += 4 * N) VecMatBlock<4>(d, out, x, M, S, j);
  const Index q = (S - j) / N;
  if (q == 3) VecMatBlock<3>(d, out, x, M, S, j);
  if (q == 2) VecMatBlock<2>(d, out, x, M, S, j);
  if (q == 1) VecMatBlock<1>(d, out, x, M, S, j);
  for (j += q * N; j < S; ++j) out[j] = Dot(d, x, M_t + j * S, S);
}

void DotAndMax(double* z, double* mx, const double* HWY_RESTRICT a, const double* HWY_RESTRICT b,
               Index n) {
  const D d;
  const Index N = static_cast<Index>(hn::Lanes(d));
  V s = hn::Zero(d), m = hn::Zero(d);
  Index i = 0;
  for (; i + N <= n; i += N) {
    const V vb = hn::LoadU(d, b + i);
    s = hn::MulAdd(hn::LoadU(d, a + i), vb, s);
    m = hn::Max(vb, m);
  }
  double rs = hn::GetLane(hn::SumOfLanes(d, s)), rm = LaneMax(d, m);
  for (; i < n; ++i) {
    rs += a[i] * b[i];
    rm = std::max(rm, b[i]);
  }
  *z = rs;
  *mx = rm;
}

void OuterAdd(double* HWY_RESTRICT xi, const double* HWY_RESTRICT a, double inv_z,
              const double* HWY_RESTRICT w, Index S) {
  const D d;
  const Index N = static_cast<Index>(hn::Lanes(d));
  for (Index i = 0; i < S; ++i) {
    if (a[i] == 0.0) continue;
    const double c = a[i] * inv_z;
    const V vc = hn::Set(d, c);
    double* HWY_RESTRICT row = xi + i * S;
    Index j = 0;
    for (; j + N <= S; j += N) {
      hn::StoreU(hn::MulAdd(vc, hn::LoadU(d, w + j), hn::LoadU(d, row + j)), d, row + j);
    }
    for (; j < S; ++j) row[j] += c * w[j];
  }
}

void RescalePair(double* HWY_RESTRICT carry, double* HWY_RESTRICT row, double inv_mx, double inv_z,
                 Index n) {
  const D d;
  const Index N = static_cast<Index>(hn::Lanes(d));
  const V vmx = hn::Set(d, inv_mx), vz = hn::Set(d, inv_z);
  Index i = 0;
  for (; i + N <= n; i += N) {
    const V r = hn::LoadU(d, row + i);
    hn::StoreU(hn::Mul(r, vmx), d, carry + i);
    hn::StoreU(hn::Mul(r, vz), d, row + i);
  }
  for (; i < n; ++i) {
    carry[i] = row[i] * inv_mx;
    row[i] *= inv_z;
  }
}

void Mul(double* HWY_RESTRICT out, const double* HWY_RESTRICT a, const double* HWY_RESTRICT b,
         Index n) {
  const D d;
  const Index N = static_cast<Index>(hn::Lanes(d));
  Index i = 0;
  for (; i + N <= n; i += N)
    hn::StoreU(hn::Mul(hn::LoadU(d, a + i), hn::LoadU(d, b + i)), d, out + i);
  for (; i < n; ++i) out[i] = a[i] * b[i];
}

void AddInto(double* HWY_RESTRICT acc, const double* HWY_RESTRICT x, Index n) {
  const D d;
  const Index N = static_cast<Index>(hn::Lanes(d));
  Index i = 0;
  for (; i + N <= n; i += N)
    hn::StoreU(hn::Add(hn::LoadU(d, acc + i), hn::LoadU(d, x + i)), d, acc + i);
  for (; i < n; ++i) acc[i] += x[i];
}

// ---- Gaussian emissions and statistics ----------------------------------------------------------

// log_b[s] for the Q vectors of states from s0, accumulated in registers over the dimensions.
template <int Q>
HWY_INLINE void GaussianBlock(D d, double* HWY_RESTRICT out, const double* HWY_RESTRICT x,
                              const double* HWY_RESTRICT mu_t, const double* HWY_RESTRICT nhiv_t,
                              const double* HWY_RESTRICT norm, Index S, Index D_, Index s0) {
  const Index N = static_cast<Index>(hn::Lanes(d));
  V a0 = hn::LoadU(d, norm + s0);
  [[maybe_unused]] V a1 = a0, a2 = a0, a3 = a0;
  if constexpr (Q > 1) a1 = hn::LoadU(d, norm + s0 + N);
  if constexpr (Q > 2) a2 = hn::LoadU(d, norm + s0 + 2 * N);
  if constexpr (Q > 3) a3 = hn::LoadU(d, norm + s0 + 3 * N);
  for (Index k = 0; k < D_; ++k) {
    const V xk = hn::Set(d, x[k]);
    const double* mu = mu_t + k * S + s0;
    const double* w = nhiv_t + k * S + s0;
    const V e0 = hn::Sub(xk, hn::LoadU(d, mu));
    a0 = hn::MulAdd(hn::Mul(e0, e0), hn::LoadU(d, w), a0);
    if constexpr (Q > 1) {
      const V e1 = hn::Sub(xk, hn::LoadU(d, mu + N));
      a1 = hn::MulAdd(hn::Mul(e1, e1), hn::LoadU(d, w + N), a1);
    }
    if constexpr (Q > 2) {
      const V e2 = hn::Sub(xk, hn::LoadU(d, mu + 2 * N));
      a2 = hn::MulAdd(hn::Mul(e2, e2), hn::LoadU(d, w + 2 * N), a2);
    }
    if constexpr (Q > 3) {
      const V e3 = hn::Sub(xk, hn::LoadU(d, mu + 3 * N));
      a3 = hn::MulAdd(hn::Mul(e3, e3), hn::LoadU(d, w + 3 * N), a3);
    }
  }
  hn::StoreU(a0, d, out + s0);
  if constexpr (Q > 1) hn::StoreU(a1, d, out + s0 + N);
  if constexpr (Q > 2) hn::StoreU(a2, d, out + s0 + 2 * N);
  if constexpr (Q > 3) hn::StoreU(a3, d, out + s0 + 3 * N);
}

void GaussianLogProb(double* HWY_RESTRICT log_b, const double* HWY_RESTRICT x,
                     const double* HWY_RESTRICT mu_t, const double* HWY_RESTRICT nhiv_t,
                     const double* HWY_RESTRICT norm, Index T, Index S, Index D_) {
  const D d;
  const Index N = static_cast<Index>(hn::Lanes(d));
  for (Index t = 0; t < T; ++t) {
    double* out = log_b + t * S;
    const double* xt = x + t * D_;
    Index s = 0;
    for (; s + 4 * N <= S; s += 4 * N) GaussianBlock<4>(d, out, xt, mu_t, nhiv_t, norm, S, D_, s);
    const Index q = (S - s) / N;
    if (q == 3) GaussianBlock<3>(d, out, xt, mu_t, nhiv_t, norm, S, D_, s);
    if (q == 2) GaussianBlock<2>(d, out, xt, mu_t, nhiv_t, norm, S, D_, s);
    if (q == 1) GaussianBlock<1>(d, out, xt, mu_t, nhiv_t, norm, S, D_, s);
    for (s += q * N; s < S; ++s) {
      double acc = norm[s];
      for (Index k = 0; k < D_; ++k) {
        const double e = xt[k] - mu_t[k * S + s];
        acc += e * e * nhiv_t[k * S + s];
      }
      out[s] = acc;
    }
  }
}

void GaussianStats(double* HWY_RESTRICT s1, double* HWY_RESTRICT s2, const double* HWY_RESTRICT g,
                   const double* HWY_RESTRICT x, const double* HWY_RESTRICT mu_t, Index S,
                   Index D_) {
  const D d;
  const Index N = static_cast<Index>(hn::Lanes(d));
  for (Index k = 0; k < D_; ++k) {
    const double xk = x[k];
    const V vx = hn::Set(d, xk);
    const double* HWY_RESTRICT mu = mu_t + k * S;
    double* HWY_RESTRICT r1 = s1 + k * S;
    double* HWY_RESTRICT r2 = s2 + k * S;
    Index s = 0;
    for (; s + N <= S; s += N) {
      const V diff = hn::Sub(vx, hn::LoadU(d, mu + s));
      const V gd = hn::Mul(hn::LoadU(d, g + s), diff);
      hn::StoreU(hn::Add(hn::LoadU(d, r1 + s), gd), d, r1 + s);
      hn::StoreU(hn::MulAdd(gd, diff, hn::LoadU(d, r2 + s)), d, r2 + s);
    }
    for (; s < S; ++s) {
      const double diff = xk - mu[s];
      const double gd = g[s] * diff;
      r1[s] += gd;
      r2[s] += gd * diff;
    }
  }
}

const HmmKernels* Table() {
  static const HmmKernels table{simd::target_name(HWY_TARGET),
                                &MaxPlusStep,
                                &MaxOf,
                                &MulExpSum,
                                &Scale,
                                &VecMat,
                                &DotAndMax,
                                &OuterAdd,
                                &RescalePair,
                                &Mul,
                                &AddInto,
                                &GaussianLogProb,
                                &GaussianStats};
  return &table;
}

}  // namespace HWY_NAMESPACE
}  // namespace kessel::hmm::detail
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
#include "kessel/error.h"
#include "util/simd_table.h"

namespace kessel::hmm::detail {

// The plain loops: the reference every variant is tested against, and the "scalar" variant.
namespace scalar {

constexpr double kNegInf = -std::numeric_limits<double>::infinity();

void max_plus_step(double* nd, const double* prev, const double*, const double* log_trans_t,
                   const double* lb, Index S) {
  for (Index j = 0; j < S; ++j) {
    const double* col = log_trans_t + j * S;  // log A[:, j]
    double m = kNegInf;
    for (Index i = 0; i < S; ++i) m = std::max(m, prev[i] + col[i]);
    nd[j] = m + lb[j];
  }
}

double max_of(const double* x, Index n) {
  double m = kNegInf;
  for (Index i = 0; i < n; ++i) m = x[i] > m ? x[i] : m;
  return m;
}

double mul_exp_sum(double* out, const double* p, const double* lb, double m, Index n) {
  double sum = 0.0;
  for (Index i = 0; i < n; ++i) sum += out[i] = p[i] * std::exp(lb[i] - m);
  return sum;
}

void scale(double* x, double c, Index n) {
  for (Index i = 0; i < n; ++i) x[i] *= c;
}

void vec_mat(double* out, const double* x, const double* M, const double*, Index S) {
  std::fill(out, out + S, 0.0);
  for (Index i = 0; i < S; ++i) {
    if (x[i] == 0.0) continue;
    for (Index j = 0; j < S; ++j) out[j] += x[i] * M[i * S + j];
  }
}

void dot_and_max(double* z, double* mx, const double* a, const double* b, Index n) {
  double s = 0.0, m = 0.0;
  for (Index i = 0; i < n; ++i) {
    s += a[i] * b[i];
    m = std::max(m, b[i]);
  }
  *z = s;
  *mx = m;
}

void outer_add(double* xi, const double* a, double inv_z, const double* w, Index S) {
  for (Index i = 0; i < S; ++i) {
    if (a[i] == 0.0) continue;
    const double c = a[i] * inv_z;
    for (Index j = 0; j < S; ++j) xi[i * S + j] += c * w[j];
  }
}

void rescale_pair(double* carry, double* row, double inv_mx, double inv_z, Index n) {
  for (Index i = 0; i < n; ++i) {
    carry[i] = row[i] * inv_mx;
    row[i] *= inv_z;
  }
}

void mul(double* out, const double* a, const double* b, Index n) {
  for (Index i = 0; i < n; ++i) out[i] = a[i] * b[i];
}

void add(double* acc, const double* x, Index n) {
  for (Index i = 0; i < n; ++i) acc[i] += x[i];
}

void gaussian_log_prob(double* log_b, const double* x, const double* mu_t, const double* nhiv_t,
                       const double* norm, Index T, Index S, Index D) {
  for (Index t = 0; t < T; ++t) {
    for (Index s = 0; s < S; ++s) {
      double acc = norm[s];
      for (Index k = 0; k < D; ++k) {
        const double diff = x[t * D + k] - mu_t[k * S + s];
        acc += diff * diff * nhiv_t[k * S + s];
      }
      log_b[t * S + s] = acc;
    }
  }
}

void gaussian_stats(double* s1, double* s2, const double* g, const double* x, const double* mu_t,
                    Index S, Index D) {
  for (Index k = 0; k < D; ++k) {
    for (Index s = 0; s < S; ++s) {
      const double diff = x[k] - mu_t[k * S + s];
      const double gd = g[s] * diff;
      s1[k * S + s] += gd;
      s2[k * S + s] += gd * diff;
    }
  }
}

const HmmKernels kTable{"scalar", &max_plus_step,     &max_of,        &mul_exp_sum,  &scale,
                        &vec_mat, &dot_and_max,       &outer_add,     &rescale_pair, &mul,
                        &add,     &gaussian_log_prob, &gaussian_stats};

}  // namespace scalar

HWY_EXPORT(Table);

const HmmKernels& hmm_kernels(std::int64_t target) {
  if (target == simd::kScalarReference) return scalar::kTable;
  const auto table = KESSEL_SIMD_ENTRY(Table, target);
  KESSEL_CHECK_ARG(table != nullptr, "hmm: SIMD variant ", simd::target_name(target), " (target ",
                   target, ") is not in this build");
  return *table();
}

}  // namespace kessel::hmm::detail
#endif  // HWY_ONCE
