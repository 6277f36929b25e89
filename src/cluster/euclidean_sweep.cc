// The fused FCM sweep: one pass over each block of points, while it is in L1/L2, computes the
// direct squared distances to every centre, the memberships, u^m, the objective and the centre
// sums. The generic membership_sweep (used by Gustafson–Kessel and as this kernel's reference in
// the tests) instead calls dgemm twice per block; for FCM's small C·D those calls cost more in
// packing and dispatch than in arithmetic.
//
// One Highway source: the kernels below are compiled for every target (foreach_target.h) and
// collected in a SweepKernels table per target (sweep_kernels.h); the plain scalar table beside
// them is the reference. Vectors are at most kSweepLanes = 8 doubles (CappedTag), so the padded
// block lengths are whole vectors on every target.

#include <algorithm>
#include <cmath>
#include <vector>

#include "cluster/fuzzy_iteration.h"
#include "cluster/membership.h"
#include "cluster/sweep_kernels.h"
#include "util/parallel.h"
#include "util/simd.h"

// foreach_target.h re-includes this file once per target; Highway's headers must follow it.
// clang-format off
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "cluster/euclidean_sweep.cc"
#include "hwy/foreach_target.h"  // IWYU pragma: keep
#include "hwy/highway.h"
// clang-format on

HWY_BEFORE_NAMESPACE();
namespace kessel::cluster::sweep_f64 {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

using DV = hn::CappedTag<double, kSweepLanes>;
using D1 = hn::CappedTag<double, 1>;  // one point: the ragged tail, with the vectors' operations

// Distances of the Lanes(dv) points from i0 on. Four centres share each load of x (four independent
// FMA chains); every (point, centre) pair gets the same chain of MulAdds over k in either loop.
template <class D>
HWY_INLINE void distances_at(D dv, double* HWY_RESTRICT d2, const double* HWY_RESTRICT xt, Index ld,
                             Index b, Index i0, const double* HWY_RESTRICT v, Index c, Index d) {
  Index j = 0;
  for (; j + 4 <= c; j += 4) {
    const double* v0 = v + j * d;
    auto a0 = hn::Zero(dv), a1 = a0, a2 = a0, a3 = a0;
    for (Index k = 0; k < d; ++k) {
      const auto xk = hn::LoadU(dv, xt + k * ld + i0);
      const auto e0 = hn::Sub(xk, hn::Set(dv, v0[k]));
      const auto e1 = hn::Sub(xk, hn::Set(dv, v0[d + k]));
      const auto e2 = hn::Sub(xk, hn::Set(dv, v0[2 * d + k]));
      const auto e3 = hn::Sub(xk, hn::Set(dv, v0[3 * d + k]));
      a0 = hn::MulAdd(e0, e0, a0);
      a1 = hn::MulAdd(e1, e1, a1);
      a2 = hn::MulAdd(e2, e2, a2);
      a3 = hn::MulAdd(e3, e3, a3);
    }
    hn::StoreU(a0, dv, d2 + j * b + i0);
    hn::StoreU(a1, dv, d2 + (j + 1) * b + i0);
    hn::StoreU(a2, dv, d2 + (j + 2) * b + i0);
    hn::StoreU(a3, dv, d2 + (j + 3) * b + i0);
  }
  for (; j < c; ++j) {
    auto a = hn::Zero(dv);
    for (Index k = 0; k < d; ++k) {
      const auto e = hn::Sub(hn::LoadU(dv, xt + k * ld + i0), hn::Set(dv, v[j * d + k]));
      a = hn::MulAdd(e, e, a);
    }
    hn::StoreU(a, dv, d2 + j * b + i0);
  }
}

// Direct Σ_k (x_ik − v_jk)², summed over k in order: exact for a point on a centre and free of the
// cancellation that the ‖x‖² + ‖v‖² − 2x·v form has to repair. The tail points run one at a time
// through the same operations, so a point's distances do not depend on where its block starts
// (fcm_predict, with other blocks, reproduces the fit's memberships bit for bit).
void squared_distances(double* d2, const double* xt, Index ld, Index b, const double* v, Index c,
                       Index d) {
  const DV dv;
  const D1 d1;
  const Index n = static_cast<Index>(hn::Lanes(dv));
  Index i0 = 0;
  for (; i0 + n <= b; i0 += n) distances_at(dv, d2, xt, ld, b, i0, v, c, d);
  for (; i0 < b; ++i0) distances_at(d1, d2, xt, ld, b, i0, v, c, d);
}

// m = 2 in vectors, with fuzzy_memberships' operations: w_j = d²_min / d²_j, total = Σ_j w_j in
// cluster order, u_j = w_j · (1 / total). These are all correctly rounded, so the values equal the
// plain function's bit for bit (and the scalar tail's). A block with a point on a centre (d²_min =
// 0, the crisp rule) and any other m go to fuzzy_memberships itself.
void memberships(double* u, double* um, Index um_ld, const double* d2, Index b, Index c, double m) {
  const DV dv;
  const Index n = static_cast<Index>(hn::Lanes(dv));
  const Index bp = round_up(b, kSweepLanes);
  const Index whole = b / n * n;
  bool crisp = false;
  if (m == 2.0) {
    const auto zero = hn::Zero(dv), one = hn::Set(dv, 1.0);
    for (Index i = 0; i < whole && !crisp; i += n) {
      auto dmin = hn::LoadU(dv, d2 + i);
      for (Index j = 1; j < c; ++j) dmin = hn::Min(dmin, hn::LoadU(dv, d2 + j * b + i));
      if (!hn::AllFalse(dv, hn::Eq(dmin, zero))) {
        crisp = true;
        break;
      }
      auto total = zero;
      for (Index j = 0; j < c; ++j) {
        const auto w = hn::Div(dmin, hn::LoadU(dv, d2 + j * b + i));
        hn::StoreU(w, dv, u + j * b + i);
        total = hn::Add(total, w);
      }
      const auto scale = hn::Div(one, total);
      for (Index j = 0; j < c; ++j) {
        const auto uj = hn::Mul(hn::LoadU(dv, u + j * b + i), scale);
        hn::StoreU(uj, dv, u + j * b + i);
        hn::StoreU(hn::Mul(uj, uj), dv, um + j * um_ld + i);
      }
    }
    for (Index i = whole; i < b && !crisp; ++i) {
      double dmin = d2[i];
      for (Index j = 1; j < c; ++j) dmin = std::min(dmin, d2[j * b + i]);
      if (dmin == 0.0) {
        crisp = true;
        break;
      }
      double total = 0;
      for (Index j = 0; j < c; ++j) total += u[j * b + i] = dmin / d2[j * b + i];
      const double scale = 1.0 / total;
      for (Index j = 0; j < c; ++j) {
        const double uj = u[j * b + i] * scale;
        u[j * b + i] = uj;
        um[j * um_ld + i] = uj * uj;
      }
    }
  }
  if (m != 2.0 || crisp) {
    fuzzy_memberships(u, d2, b, c, m);
    for (Index j = 0; j < c; ++j)
      for (Index i = 0; i < b; ++i) um[j * um_ld + i] = fuzzy_power(u[j * b + i], m);
  }
  for (Index j = 0; j < c; ++j)
    for (Index i = b; i < bp; ++i) um[j * um_ld + i] = 0.0;
}

// acc[q][lanes] += a[i] · b_q[i] over the padded length bp, rows b_q = b + q·ld, q < 4 (one load of
// a for four products).
HWY_INLINE void dot4_into_lanes(double* HWY_RESTRICT acc, const double* HWY_RESTRICT a,
                                const double* HWY_RESTRICT b, Index ld, Index bp) {
  const DV dv;
  const Index n = static_cast<Index>(hn::Lanes(dv));
  auto l0 = hn::LoadU(dv, acc), l1 = hn::LoadU(dv, acc + kSweepLanes);
  auto l2 = hn::LoadU(dv, acc + 2 * kSweepLanes), l3 = hn::LoadU(dv, acc + 3 * kSweepLanes);
  for (Index i = 0; i < bp; i += n) {
    const auto av = hn::LoadU(dv, a + i);
    l0 = hn::MulAdd(av, hn::LoadU(dv, b + i), l0);
    l1 = hn::MulAdd(av, hn::LoadU(dv, b + ld + i), l1);
    l2 = hn::MulAdd(av, hn::LoadU(dv, b + 2 * ld + i), l2);
    l3 = hn::MulAdd(av, hn::LoadU(dv, b + 3 * ld + i), l3);
  }
  hn::StoreU(l0, dv, acc);
  hn::StoreU(l1, dv, acc + kSweepLanes);
  hn::StoreU(l2, dv, acc + 2 * kSweepLanes);
  hn::StoreU(l3, dv, acc + 3 * kSweepLanes);
}

HWY_INLINE void dot_into_lanes(double* HWY_RESTRICT acc, const double* HWY_RESTRICT a,
                               const double* HWY_RESTRICT b, Index bp) {
  const DV dv;
  const Index n = static_cast<Index>(hn::Lanes(dv));
  auto lane = hn::LoadU(dv, acc);
  for (Index i = 0; i < bp; i += n)
    lane = hn::MulAdd(hn::LoadU(dv, a + i), hn::LoadU(dv, b + i), lane);
  hn::StoreU(lane, dv, acc);
}

double block_sums(double* sum_lanes, double* weight_lanes, const double* um, Index um_ld,
                  const double* d2, Index b, const double* xt, Index ld, Index c, Index d) {
  const DV dv;
  const Index n = static_cast<Index>(hn::Lanes(dv));
  const Index bp = round_up(b, kSweepLanes);
  double objective = 0;
  for (Index j = 0; j < c; ++j) {
    const double* HWY_RESTRICT umj = um + j * um_ld;
    const double* HWY_RESTRICT d2j = d2 + j * b;  // not padded: whole vectors, then a scalar tail
    auto obj = hn::Zero(dv);
    Index i = 0;
    for (; i + n <= b; i += n)
      obj = hn::MulAdd(hn::LoadU(dv, umj + i), hn::LoadU(dv, d2j + i), obj);
    double tail = 0;
    for (; i < b; ++i) tail += umj[i] * d2j[i];
    objective += hn::GetLane(hn::SumOfLanes(dv, obj)) + tail;

    auto weight = hn::LoadU(dv, weight_lanes + j * kSweepLanes);
    for (i = 0; i < bp; i += n) weight = hn::Add(weight, hn::LoadU(dv, umj + i));
    hn::StoreU(weight, dv, weight_lanes + j * kSweepLanes);

    Index q = 0;
    for (; q + 4 <= d; q += 4)
      dot4_into_lanes(sum_lanes + (j * d + q) * kSweepLanes, umj, xt + q * ld, ld, bp);
    for (; q < d; ++q) dot_into_lanes(sum_lanes + (j * d + q) * kSweepLanes, umj, xt + q * ld, bp);
  }
  return objective;
}

const SweepKernels* Table() {
  static const SweepKernels table{simd::target_name(HWY_TARGET), &squared_distances, &memberships,
                                  &block_sums};
  return &table;
}

}  // namespace HWY_NAMESPACE
}  // namespace kessel::cluster::sweep_f64
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
#include "util/simd_table.h"

namespace kessel::cluster {

namespace sweep_f64 {
HWY_EXPORT(Table);

// The plain versions: one point, one centre, one feature at a time, sums in point order into lane
// 0.
void squared_distances_reference(double* d2, const double* xt, Index ld, Index b, const double* v,
                                 Index c, Index d) {
  for (Index i = 0; i < b; ++i) {
    for (Index j = 0; j < c; ++j) {
      double acc = 0;
      for (Index k = 0; k < d; ++k) {
        const double diff = xt[k * ld + i] - v[j * d + k];
        acc += diff * diff;
      }
      d2[j * b + i] = acc;
    }
  }
}

void memberships_reference(double* u, double* um, Index um_ld, const double* d2, Index b, Index c,
                           double m) {
  fuzzy_memberships(u, d2, b, c, m);
  for (Index j = 0; j < c; ++j) {
    for (Index i = 0; i < b; ++i) um[j * um_ld + i] = fuzzy_power(u[j * b + i], m);
    for (Index i = b; i < round_up(b, kSweepLanes); ++i) um[j * um_ld + i] = 0.0;
  }
}

double block_sums_reference(double* sum_lanes, double* weight_lanes, const double* um, Index um_ld,
                            const double* d2, Index b, const double* xt, Index ld, Index c,
                            Index d) {
  double objective = 0;
  for (Index j = 0; j < c; ++j) {
    const double* umj = um + j * um_ld;
    for (Index i = 0; i < b; ++i) {
      objective += umj[i] * d2[j * b + i];
      weight_lanes[j * kSweepLanes] += umj[i];
    }
    for (Index q = 0; q < d; ++q) {
      double& acc = sum_lanes[(j * d + q) * kSweepLanes];
      for (Index i = 0; i < b; ++i) acc += umj[i] * xt[q * ld + i];
    }
  }
  return objective;
}

constexpr SweepKernels kReference{"scalar", &squared_distances_reference, &memberships_reference,
                                  &block_sums_reference};
}  // namespace sweep_f64

const SweepKernels& sweep_kernels(std::int64_t target) {
  if (target == simd::kScalarReference) return sweep_f64::kReference;
  const auto table = KESSEL_SIMD_ENTRY(sweep_f64::Table, target);
  KESSEL_CHECK_ARG(table != nullptr, "sweep_kernels: variant ", simd::target_name(target), " (",
                   target, ") is not in this build");
  return *table();
}

namespace {

// Points per fused block: the block's scratch (xt, d2, u, u^m: (D + 3C)·rows doubles) then stays
// close to L1 for FCM-sized C and D. Chunk boundaries are multiples of kBlockRows, itself a
// multiple of this, so the blocks, and with them every summation order, depend only on N.
constexpr Index kFusedRows = 128;
static_assert(kBlockRows % kFusedRows == 0 && kFusedRows % kSweepLanes == 0);
// xt's row stride: a multiple of 8 doubles plus one cache line, so that its D rows do not all fall
// in the same L1 set (a 2^k-byte stride made the transpose's stores conflict-miss on every write).
constexpr Index kTransposeStride = kFusedRows + 8;

// Per-thread scratch for one block of at most kFusedRows points. xt and um have their columns
// padded with zeros up to a multiple of kSweepLanes, so the centre sums run in whole vectors
// (adding 0·0 changes nothing). The lane accumulators carry the centre sums and weights through a
// whole chunk; they are reduced once per chunk, not once per block.
struct BlockScratch {
  std::vector<double> xt, d2, u, um, sum_lanes, weight_lanes;
  BlockScratch(Index c, Index d)
      : xt(static_cast<size_t>(kTransposeStride * d)),
        d2(static_cast<size_t>(kFusedRows * c)),
        u(static_cast<size_t>(kFusedRows * c)),
        um(static_cast<size_t>(kFusedRows * c)),
        sum_lanes(static_cast<size_t>(c * d * kSweepLanes)),
        weight_lanes(static_cast<size_t>(c * kSweepLanes)) {}
};

// xt [D, ld] = x[B, D]ᵀ, so that the distance and centre-sum loops run along the B points with unit
// stride; columns B..round_up(B, 8) are zeroed. Redone every iteration: a once-per-fit transposed
// copy of X measured slower (its page faults, and D interleaved read streams the prefetcher
// misses). The next block of the chunk (`ahead`, `ahead_count` doubles) is prefetched, its cache
// lines spread over the points: the reads of X are the sweep's DRAM stream (about 6% of the double
// sweep).
void transpose_block(double* xt, Index ld, const double* x, Index b, Index d, const double* ahead,
                     Index ahead_count) {
  const Index lines = (ahead_count + 7) / 8, per_point = (lines + b - 1) / b;
  for (Index i = 0; i < b; ++i) {
    for (Index l = i * per_point; l < std::min(lines, (i + 1) * per_point); ++l)
      __builtin_prefetch(ahead + 8 * l, 0, 2);  // into L2, as the float sweep's
    for (Index k = 0; k < d; ++k) xt[k * ld + i] = x[i * d + k];
  }
  for (Index k = 0; k < d; ++k)
    for (Index i = b; i < round_up(b, kSweepLanes); ++i) xt[k * ld + i] = 0.0;
}

double reduce_lanes(const double* lane) {
  return ((lane[0] + lane[1]) + (lane[2] + lane[3])) + ((lane[4] + lane[5]) + (lane[6] + lane[7]));
}

}  // namespace

SweepResult euclidean_sweep(const SweepKernels& kernels, MatrixView x, const double* centres,
                            Index c, double m, double* u, int threads) {
  const Index d = x.cols, n = x.rows;
  const Chunks chunks(n);
  // Per-chunk partial sums, added in chunk order below: results do not depend on the thread count.
  std::vector<double> part_sums(static_cast<size_t>(chunks.count * c * d), 0.0);
  std::vector<double> part_weights(static_cast<size_t>(chunks.count * c), 0.0);
  std::vector<double> part_objective(static_cast<size_t>(chunks.count), 0.0);
#pragma omp parallel num_threads(std::min <Index>(resolve_threads(threads), chunks.count))
  {
    BlockScratch s(c, d);
#pragma omp for schedule(dynamic, 1)
    for (Index k = 0; k < chunks.count; ++k) {
      std::fill(s.sum_lanes.begin(), s.sum_lanes.end(), 0.0);
      std::fill(s.weight_lanes.begin(), s.weight_lanes.end(), 0.0);
      double objective = 0;
      for (Index row0 = chunks.begin(k); row0 < chunks.end(k); row0 += kFusedRows) {
        const Index b = std::min(kFusedRows, chunks.end(k) - row0);
        const Index ahead = std::min(kFusedRows, chunks.end(k) - row0 - b) * d;
        transpose_block(s.xt.data(), kTransposeStride, x.data + row0 * d, b, d,
                        x.data + (row0 + b) * d, ahead);
        kernels.squared_distances(s.d2.data(), s.xt.data(), kTransposeStride, b, centres, c, d);
        kernels.memberships(s.u.data(), s.um.data(), kFusedRows, s.d2.data(), b, c, m);
        objective +=
            kernels.block_sums(s.sum_lanes.data(), s.weight_lanes.data(), s.um.data(), kFusedRows,
                               s.d2.data(), b, s.xt.data(), kTransposeStride, c, d);
        if (u != nullptr) {
          for (Index j = 0; j < c; ++j) {
            std::copy(s.u.data() + j * b, s.u.data() + (j + 1) * b, u + j * n + row0);
          }
        }
      }
      for (Index e = 0; e < c * d; ++e)
        part_sums[k * c * d + e] = reduce_lanes(&s.sum_lanes[e * kSweepLanes]);
      for (Index j = 0; j < c; ++j)
        part_weights[k * c + j] = reduce_lanes(&s.weight_lanes[j * kSweepLanes]);
      part_objective[static_cast<size_t>(k)] = objective;
    }
  }
  SweepResult r;
  r.centre_sums.assign(static_cast<size_t>(c * d), 0.0);
  r.weights.assign(static_cast<size_t>(c), 0.0);
  for (Index k = 0; k < chunks.count; ++k) {
    for (Index e = 0; e < c * d; ++e) r.centre_sums[e] += part_sums[k * c * d + e];
    for (Index j = 0; j < c; ++j) r.weights[j] += part_weights[k * c + j];
    r.objective += part_objective[k];
  }
  return r;
}

}  // namespace kessel::cluster
#endif  // HWY_ONCE
