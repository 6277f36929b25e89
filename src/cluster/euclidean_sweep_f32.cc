// FCM's fused sweep in single precision (FcmOptions::precision = kFloat32): X is read from a float
// copy packed once per fit into transposed blocks [D, 256] (half the bytes of the double sweep, one
// contiguous stream, and no per-iteration transpose), and the distances, memberships and per-block
// partial sums run along the points, one vector of up to 16 floats at a time. Each block's float
// partials are added into double accumulators, in a fixed order, so the result is still independent
// of the thread count; the precision lost is that of float distances and of one block's float sums
// (relative ~1e-6 on centres, see docs/clustering.md).
//
// One Highway source: the kernels are compiled for every target (foreach_target.h) into a
// SweepKernelsF32 table per target (sweep_kernels.h), beside a plain scalar reference table.
// Vectors hold at most kF32Lanes = 16 floats (CappedTag), so a padded group of 16 points is whole
// vectors on every target and no kernel reads past its buffers.

#include <algorithm>
#include <cfloat>
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
#define HWY_TARGET_INCLUDE "cluster/euclidean_sweep_f32.cc"
#include "hwy/foreach_target.h"  // IWYU pragma: keep
#include "hwy/highway.h"
// clang-format on

HWY_BEFORE_NAMESPACE();
namespace kessel::cluster::sweep_f32 {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

using DF = hn::CappedTag<float, kF32Lanes>;
using VF = hn::Vec<DF>;

// Adds the float lanes of v into the double accumulators acc[0, Lanes(DF)).
HWY_INLINE void add_to_lanes(double* HWY_RESTRICT acc, VF v) {
#if HWY_TARGET == HWY_SCALAR
  acc[0] += static_cast<double>(hn::GetLane(v));
#else
  const hn::Half<DF> dh;
  const hn::Rebind<double, decltype(dh)> dd;
  const Index half = static_cast<Index>(hn::Lanes(dd));
  hn::StoreU(hn::Add(hn::LoadU(dd, acc), hn::PromoteTo(dd, hn::LowerHalf(dh, v))), dd, acc);
  hn::StoreU(hn::Add(hn::LoadU(dd, acc + half), hn::PromoteTo(dd, hn::UpperHalf(dh, v))), dd,
             acc + half);
#endif
}

// d2[C, kF32Rows] for the b16 (padded) points of a packed block xt [D, kF32Rows]. `next` (the next
// packed block, or null) is prefetched a slice per 16 points: the loads of X otherwise stalled on
// DRAM latency (a third of the sweep), the D rows of a block being too many short streams for the
// hardware prefetcher. Eight centres share each load of x (eight independent FMA chains).
void block_distances(float* d2, const float* xt, Index b16, const float* v, Index c, Index d,
                     const float* next) {
  const DF df;
  const Index n = static_cast<Index>(hn::Lanes(df));
  for (Index g = 0; g < b16; g += n) {
    if (next != nullptr && g % kF32Lanes == 0) {
      const float* slice = next + (g / kF32Lanes) * d * kF32Lanes;  // D cache lines per 16 points
      // Into L2 (hint 2, prefetcht1 on x86): hwy::Prefetch's L1 hint measured 20% slower here.
      for (Index q = 0; q < d; ++q) __builtin_prefetch(slice + q * kF32Lanes, 0, 2);
    }
    Index j = 0;
    for (; j + 8 <= c; j += 8) {
      const float* v0 = v + j * d;
      VF a0 = hn::Zero(df), a1 = a0, a2 = a0, a3 = a0, a4 = a0, a5 = a0, a6 = a0, a7 = a0;
      for (Index k = 0; k < d; ++k) {
        const VF xk = hn::LoadU(df, xt + k * kF32Rows + g);
        const VF e0 = hn::Sub(xk, hn::Set(df, v0[k]));
        const VF e1 = hn::Sub(xk, hn::Set(df, v0[d + k]));
        const VF e2 = hn::Sub(xk, hn::Set(df, v0[2 * d + k]));
        const VF e3 = hn::Sub(xk, hn::Set(df, v0[3 * d + k]));
        const VF e4 = hn::Sub(xk, hn::Set(df, v0[4 * d + k]));
        const VF e5 = hn::Sub(xk, hn::Set(df, v0[5 * d + k]));
        const VF e6 = hn::Sub(xk, hn::Set(df, v0[6 * d + k]));
        const VF e7 = hn::Sub(xk, hn::Set(df, v0[7 * d + k]));
        a0 = hn::MulAdd(e0, e0, a0);
        a1 = hn::MulAdd(e1, e1, a1);
        a2 = hn::MulAdd(e2, e2, a2);
        a3 = hn::MulAdd(e3, e3, a3);
        a4 = hn::MulAdd(e4, e4, a4);
        a5 = hn::MulAdd(e5, e5, a5);
        a6 = hn::MulAdd(e6, e6, a6);
        a7 = hn::MulAdd(e7, e7, a7);
      }
      float* out = d2 + j * kF32Rows + g;
      hn::StoreU(a0, df, out);
      hn::StoreU(a1, df, out + kF32Rows);
      hn::StoreU(a2, df, out + 2 * kF32Rows);
      hn::StoreU(a3, df, out + 3 * kF32Rows);
      hn::StoreU(a4, df, out + 4 * kF32Rows);
      hn::StoreU(a5, df, out + 5 * kF32Rows);
      hn::StoreU(a6, df, out + 6 * kF32Rows);
      hn::StoreU(a7, df, out + 7 * kF32Rows);
    }
    for (; j + 4 <= c; j += 4) {
      const float* v0 = v + j * d;
      VF a0 = hn::Zero(df), a1 = a0, a2 = a0, a3 = a0;
      for (Index k = 0; k < d; ++k) {
        const VF xk = hn::LoadU(df, xt + k * kF32Rows + g);
        const VF e0 = hn::Sub(xk, hn::Set(df, v0[k]));
        const VF e1 = hn::Sub(xk, hn::Set(df, v0[d + k]));
        const VF e2 = hn::Sub(xk, hn::Set(df, v0[2 * d + k]));
        const VF e3 = hn::Sub(xk, hn::Set(df, v0[3 * d + k]));
        a0 = hn::MulAdd(e0, e0, a0);
        a1 = hn::MulAdd(e1, e1, a1);
        a2 = hn::MulAdd(e2, e2, a2);
        a3 = hn::MulAdd(e3, e3, a3);
      }
      float* out = d2 + j * kF32Rows + g;
      hn::StoreU(a0, df, out);
      hn::StoreU(a1, df, out + kF32Rows);
      hn::StoreU(a2, df, out + 2 * kF32Rows);
      hn::StoreU(a3, df, out + 3 * kF32Rows);
    }
    for (; j < c; ++j) {
      VF a = hn::Zero(df);
      for (Index k = 0; k < d; ++k) {
        const VF e = hn::Sub(hn::LoadU(df, xt + k * kF32Rows + g), hn::Set(df, v[j * d + k]));
        a = hn::MulAdd(e, e, a);
      }
      hn::StoreU(a, df, d2 + j * kF32Rows + g);
    }
  }
}

// m = 2 memberships: u_j = w_j / Σ w with w_j = d²_min / d²_j ∈ (0, 1] (no overflow for tiny
// distances); um = u². u (null unless the memberships are output) is left out of the other sweeps
// so that the block's working set stays within L1.
bool memberships_m2(float* u, float* um, const float* d2, Index b16, Index c) {
  const DF df;
  const Index n = static_cast<Index>(hn::Lanes(df));
  const VF zero = hn::Zero(df), one = hn::Set(df, 1.0f);
  for (Index g = 0; g < b16; g += n) {
    VF dmin = hn::LoadU(df, d2 + g);
    for (Index j = 1; j < c; ++j) dmin = hn::Min(dmin, hn::LoadU(df, d2 + j * kF32Rows + g));
    // Padding points are included: one at distance 0 only costs the slow path for its block.
    if (!hn::AllFalse(df, hn::Eq(dmin, zero))) return false;
    VF total = zero;
    for (Index j = 0; j < c; ++j) {
      const VF w = hn::Div(dmin, hn::LoadU(df, d2 + j * kF32Rows + g));
      hn::StoreU(w, df, um + j * kF32Rows + g);
      total = hn::Add(total, w);
    }
    const VF scale = hn::Div(one, total);
    for (Index j = 0; j < c; ++j) {
      const VF uj = hn::Mul(hn::LoadU(df, um + j * kF32Rows + g), scale);
      if (u != nullptr) hn::StoreU(uj, df, u + j * kF32Rows + g);
      hn::StoreU(hn::Mul(uj, uj), df, um + j * kF32Rows + g);
    }
  }
  return true;
}

// The objective and weights, then the centre sums Σ_g um_j · x_q in tiles of 4 clusters × 4
// features (8 loads per 16 FMAs: the loads, not the FMAs, bounded the one-cluster loop). Every
// entry is summed over the points in the same order whichever loop computes it, in float within the
// block, then added into its double lanes.
void block_sums(double* sum_lanes, double* weight_lanes, double* objective_lanes, const float* um,
                const float* d2, const float* xt, Index b16, Index c, Index d) {
  const DF df;
  const Index n = static_cast<Index>(hn::Lanes(df));
  VF objective = hn::Zero(df);
  for (Index j = 0; j < c; ++j) {
    const float* umj = um + j * kF32Rows;
    const float* d2j = d2 + j * kF32Rows;
    VF weight = hn::Zero(df);
    for (Index g = 0; g < b16; g += n) {
      const VF w = hn::LoadU(df, umj + g);
      objective = hn::MulAdd(w, hn::LoadU(df, d2j + g), objective);
      weight = hn::Add(weight, w);
    }
    add_to_lanes(weight_lanes + j * kF32Lanes, weight);
  }
  add_to_lanes(objective_lanes, objective);

  const auto one = [&](Index j, Index q) {
    VF a = hn::Zero(df);
    for (Index g = 0; g < b16; g += n)
      a = hn::MulAdd(hn::LoadU(df, um + j * kF32Rows + g), hn::LoadU(df, xt + q * kF32Rows + g), a);
    add_to_lanes(sum_lanes + (j * d + q) * kF32Lanes, a);
  };
  Index j = 0;
  for (; j + 4 <= c; j += 4) {
    Index q = 0;
    for (; q + 4 <= d; q += 4) {
      VF a00 = hn::Zero(df), a01 = a00, a02 = a00, a03 = a00, a10 = a00, a11 = a00, a12 = a00,
         a13 = a00, a20 = a00, a21 = a00, a22 = a00, a23 = a00, a30 = a00, a31 = a00, a32 = a00,
         a33 = a00;
      const float* w = um + j * kF32Rows;
      const float* x = xt + q * kF32Rows;
      for (Index g = 0; g < b16; g += n) {
        const VF w0 = hn::LoadU(df, w + g), w1 = hn::LoadU(df, w + kF32Rows + g);
        const VF w2 = hn::LoadU(df, w + 2 * kF32Rows + g), w3 = hn::LoadU(df, w + 3 * kF32Rows + g);
        const VF x0 = hn::LoadU(df, x + g), x1 = hn::LoadU(df, x + kF32Rows + g);
        const VF x2 = hn::LoadU(df, x + 2 * kF32Rows + g), x3 = hn::LoadU(df, x + 3 * kF32Rows + g);
        a00 = hn::MulAdd(w0, x0, a00);
        a01 = hn::MulAdd(w0, x1, a01);
        a02 = hn::MulAdd(w0, x2, a02);
        a03 = hn::MulAdd(w0, x3, a03);
        a10 = hn::MulAdd(w1, x0, a10);
        a11 = hn::MulAdd(w1, x1, a11);
        a12 = hn::MulAdd(w1, x2, a12);
        a13 = hn::MulAdd(w1, x3, a13);
        a20 = hn::MulAdd(w2, x0, a20);
        a21 = hn::MulAdd(w2, x1, a21);
        a22 = hn::MulAdd(w2, x2, a22);
        a23 = hn::MulAdd(w2, x3, a23);
        a30 = hn::MulAdd(w3, x0, a30);
        a31 = hn::MulAdd(w3, x1, a31);
        a32 = hn::MulAdd(w3, x2, a32);
        a33 = hn::MulAdd(w3, x3, a33);
      }
      double* s = sum_lanes + (j * d + q) * kF32Lanes;  // entry (j + t, q + r) at s + (t·d + r)·16
      const Index row = d * kF32Lanes;
      add_to_lanes(s, a00);
      add_to_lanes(s + kF32Lanes, a01);
      add_to_lanes(s + 2 * kF32Lanes, a02);
      add_to_lanes(s + 3 * kF32Lanes, a03);
      add_to_lanes(s + row, a10);
      add_to_lanes(s + row + kF32Lanes, a11);
      add_to_lanes(s + row + 2 * kF32Lanes, a12);
      add_to_lanes(s + row + 3 * kF32Lanes, a13);
      add_to_lanes(s + 2 * row, a20);
      add_to_lanes(s + 2 * row + kF32Lanes, a21);
      add_to_lanes(s + 2 * row + 2 * kF32Lanes, a22);
      add_to_lanes(s + 2 * row + 3 * kF32Lanes, a23);
      add_to_lanes(s + 3 * row, a30);
      add_to_lanes(s + 3 * row + kF32Lanes, a31);
      add_to_lanes(s + 3 * row + 2 * kF32Lanes, a32);
      add_to_lanes(s + 3 * row + 3 * kF32Lanes, a33);
    }
    for (; q < d; ++q)
      for (Index t = 0; t < 4; ++t) one(j + t, q);
  }
  for (; j < c; ++j)
    for (Index q = 0; q < d; ++q) one(j, q);
}

const SweepKernelsF32* Table() {
  static const SweepKernelsF32 table{simd::target_name(HWY_TARGET), &block_distances,
                                     &memberships_m2, &block_sums};
  return &table;
}

}  // namespace HWY_NAMESPACE
}  // namespace kessel::cluster::sweep_f32
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
#include "util/simd_table.h"

namespace kessel::cluster {

namespace sweep_f32 {
HWY_EXPORT(Table);

// The plain versions: one point at a time, float sums in point order, added into lane 0.
void block_distances_reference(float* d2, const float* xt, Index b16, const float* v, Index c,
                               Index d, const float* /*next*/) {
  for (Index i = 0; i < b16; ++i) {
    for (Index j = 0; j < c; ++j) {
      float acc = 0;
      for (Index k = 0; k < d; ++k) {
        const float e = xt[k * kF32Rows + i] - v[j * d + k];
        acc += e * e;
      }
      d2[j * kF32Rows + i] = acc;
    }
  }
}

bool memberships_m2_reference(float* u, float* um, const float* d2, Index b16, Index c) {
  for (Index i = 0; i < b16; ++i) {
    float dmin = d2[i];
    for (Index j = 1; j < c; ++j) dmin = std::min(dmin, d2[j * kF32Rows + i]);
    if (dmin == 0.0f) return false;
    float total = 0;
    for (Index j = 0; j < c; ++j) total += um[j * kF32Rows + i] = dmin / d2[j * kF32Rows + i];
    const float scale = 1.0f / total;
    for (Index j = 0; j < c; ++j) {
      const float uj = um[j * kF32Rows + i] * scale;
      if (u != nullptr) u[j * kF32Rows + i] = uj;
      um[j * kF32Rows + i] = uj * uj;
    }
  }
  return true;
}

void block_sums_reference(double* sum_lanes, double* weight_lanes, double* objective_lanes,
                          const float* um, const float* d2, const float* xt, Index b16, Index c,
                          Index d) {
  float objective = 0;
  for (Index j = 0; j < c; ++j) {
    float weight = 0;
    for (Index i = 0; i < b16; ++i) {
      objective += um[j * kF32Rows + i] * d2[j * kF32Rows + i];
      weight += um[j * kF32Rows + i];
    }
    weight_lanes[j * kF32Lanes] += weight;
    for (Index q = 0; q < d; ++q) {
      float sum = 0;
      for (Index i = 0; i < b16; ++i) sum += um[j * kF32Rows + i] * xt[q * kF32Rows + i];
      sum_lanes[(j * d + q) * kF32Lanes] += sum;
    }
  }
  objective_lanes[0] += objective;
}

constexpr SweepKernelsF32 kReference{"scalar", &block_distances_reference,
                                     &memberships_m2_reference, &block_sums_reference};
}  // namespace sweep_f32

const SweepKernelsF32& sweep_kernels_f32(std::int64_t target) {
  if (target == simd::kScalarReference) return sweep_f32::kReference;
  const auto table = KESSEL_SIMD_ENTRY(sweep_f32::Table, target);
  KESSEL_CHECK_ARG(table != nullptr, "sweep_kernels_f32: variant ", simd::target_name(target), " (",
                   target, ") is not in this build");
  return *table();
}

namespace {

static_assert(kBlockRows % kF32Rows == 0, "blocks, and every summation order, depend only on N");
static_assert(kF32Rows % kF32Lanes == 0);

struct Scratch {
  std::vector<float> d2, u, um;                                  // [C, kF32Rows]
  std::vector<double> sum_lanes, weight_lanes, objective_lanes;  // [C·D·16], [C·16], [16]
  std::vector<double> d2_double, u_double;                       // slow path, [C, b]
  Scratch(Index c, Index d)
      : d2(static_cast<size_t>(kF32Rows * c)),
        u(static_cast<size_t>(kF32Rows * c)),
        um(static_cast<size_t>(kF32Rows * c)),
        sum_lanes(static_cast<size_t>(c * d * kF32Lanes)),
        weight_lanes(static_cast<size_t>(c * kF32Lanes)),
        objective_lanes(kF32Lanes),
        d2_double(static_cast<size_t>(kF32Rows * c)),
        u_double(static_cast<size_t>(kF32Rows * c)) {}
};

double reduce16(const double* l) {
  double h[8];
  for (int q = 0; q < 8; ++q) h[q] = l[q] + l[q + 8];
  return ((h[0] + h[1]) + (h[2] + h[3])) + ((h[4] + h[5]) + (h[6] + h[7]));
}

// Any m, and exact matches: the double membership kernel on the block's float distances.
void memberships_general(Scratch& s, Index b, Index c, double m) {
  for (Index j = 0; j < c; ++j)
    for (Index i = 0; i < b; ++i) s.d2_double[j * b + i] = s.d2[j * kF32Rows + i];
  fuzzy_memberships(s.u_double.data(), s.d2_double.data(), b, c, m);
  for (Index j = 0; j < c; ++j) {
    for (Index i = 0; i < b; ++i) {
      const double uji = s.u_double[j * b + i];
      s.u[j * kF32Rows + i] = static_cast<float>(uji);
      s.um[j * kF32Rows + i] = static_cast<float>(fuzzy_power(uji, m));
    }
  }
}

}  // namespace

std::vector<float> pack_float_blocks(const char* fn, MatrixView x) {
  const Index n = x.rows, d = x.cols, blocks = (n + kF32Rows - 1) / kF32Rows;
  std::vector<float> out(static_cast<size_t>(blocks * d * kF32Rows), 0.0f);  // padding points are 0
  // Centres are convex combinations of points, so |x| < limit bounds every float squared distance
  // by D·(2·limit)² = FLT_MAX/4: finite, with room for rounding.
  const double limit = 0.25 * std::sqrt(static_cast<double>(FLT_MAX) / static_cast<double>(d));
  for (Index i = 0; i < n; ++i) {
    float* block = out.data() + (i / kF32Rows) * d * kF32Rows + i % kF32Rows;
    for (Index k = 0; k < d; ++k) {
      // Replaces check_data's pass for float32 (the comparison is false for NaN too).
      KESSEL_CHECK_ARG(std::abs(x.at(i, k)) < limit, fn, ": x[", i, ", ", k, "] = ", x.at(i, k),
                       " is not finite or beyond ±", limit,
                       " (0.25·sqrt(FLT_MAX/D)), too large "
                       "for precision float32");
      block[k * kF32Rows] = static_cast<float>(x.at(i, k));
    }
  }
  return out;
}

SweepResult euclidean_sweep_f32(const SweepKernelsF32& kernels, const float* xp, Index n, Index d,
                                const double* centres, Index c, double m, double* u, int threads) {
  std::vector<float> v(static_cast<size_t>(c * d));
  for (Index e = 0; e < c * d; ++e) v[e] = static_cast<float>(centres[e]);
  const Chunks chunks(n);
  std::vector<double> part_sums(static_cast<size_t>(chunks.count * c * d));
  std::vector<double> part_weights(static_cast<size_t>(chunks.count * c));
  std::vector<double> part_objective(static_cast<size_t>(chunks.count));
#pragma omp parallel num_threads(std::min <Index>(resolve_threads(threads), chunks.count))
  {
    Scratch s(c, d);
#pragma omp for schedule(dynamic, 1)
    for (Index k = 0; k < chunks.count; ++k) {
      std::fill(s.sum_lanes.begin(), s.sum_lanes.end(), 0.0);
      std::fill(s.weight_lanes.begin(), s.weight_lanes.end(), 0.0);
      std::fill(s.objective_lanes.begin(), s.objective_lanes.end(), 0.0);
      for (Index row0 = chunks.begin(k); row0 < chunks.end(k); row0 += kF32Rows) {
        const Index b = std::min(kF32Rows, chunks.end(k) - row0), b16 = round_up(b, kF32Lanes);
        const float* xt = xp + (row0 / kF32Rows) * d * kF32Rows;  // this block's [D, kF32Rows]
        const float* next = row0 + kF32Rows < n ? xt + d * kF32Rows : nullptr;
        kernels.block_distances(s.d2.data(), xt, b16, v.data(), c, d, next);
        if (m != 2.0 || !kernels.memberships_m2(u != nullptr ? s.u.data() : nullptr, s.um.data(),
                                                s.d2.data(), b16, c)) {
          memberships_general(s, b, c, m);
        }
        for (Index j = 0; j < c; ++j)  // padding points carry no weight
          for (Index i = b; i < b16; ++i) s.um[j * kF32Rows + i] = 0.0f;
        kernels.block_sums(s.sum_lanes.data(), s.weight_lanes.data(), s.objective_lanes.data(),
                           s.um.data(), s.d2.data(), xt, b16, c, d);
        if (u != nullptr) {  // point-major [N, C], the public layout
          for (Index i = 0; i < b; ++i)
            for (Index j = 0; j < c; ++j) u[(row0 + i) * c + j] = s.u[j * kF32Rows + i];
        }
      }
      for (Index e = 0; e < c * d; ++e)
        part_sums[k * c * d + e] = reduce16(&s.sum_lanes[e * kF32Lanes]);
      for (Index j = 0; j < c; ++j)
        part_weights[k * c + j] = reduce16(&s.weight_lanes[j * kF32Lanes]);
      part_objective[k] = reduce16(s.objective_lanes.data());
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
