// The SIMD kernels of FCM's fused sweeps, one table of function pointers per variant
// (src/util/simd.h): euclidean_sweep.cc (double) and euclidean_sweep_f32.cc (float) are each one
// Highway source compiled for every target, plus a plain scalar table that is the reference the
// tests compare them with. An op picks its table once, at its entry (fuzzy_c_means, fcm_predict,
// the sweep functions), and hands it down; the kernels never look at the CPU.
//
// Shapes: B points of a block, C clusters, D features. Blocks are transposed, xt [D, ld] and
// cluster-major d2/u/um [C, ·], so every vector loop runs along contiguous points. Within a variant
// every kernel's summation order depends only on the sizes, so the sweeps stay bit-identical for
// any thread count; across variants results differ by rounding (docs/clustering.md, "SIMD
// variants").
#pragma once

#include <cstdint>

#include "kessel/tensor.h"

namespace kessel::cluster {

constexpr Index round_up(Index n, Index k) { return (n + k - 1) / k * k; }

// Double sweep. Lane accumulators hold kSweepLanes doubles per entry; a variant with fewer lanes
// leaves the rest at zero. Buffers called "padded" are zero from b up to round_up(b, kSweepLanes).
inline constexpr Index kSweepLanes = 8;

struct SweepKernels {
  const char* variant;  // simd::target_name of the variant, "scalar" for the reference
  // d2[C, B] (row stride b) = Σ_k (x_ik − v_jk)², summed over k in order, from xt [D, ld]; v [C,
  // D]. Reads only the b points: xt needs no padding. Per point, the same operations whatever b and
  // the point's position in the block, so any blocking gives the same distances.
  void (*squared_distances)(double* d2, const double* xt, Index ld, Index b, const double* v,
                            Index c, Index d);
  // u[C, B] (row stride b) = fuzzy_memberships(d2, m) and um[C, um_ld] = u^m (padded). Bit for bit
  // fuzzy_memberships' values (m = 2: the same divisions, sums and products in the same order;
  // other m, and blocks with a point on a centre, call it), so fit and predict agree.
  void (*memberships)(double* u, double* um, Index um_ld, const double* d2, Index b, Index c,
                      double m);
  // One block's share of the sums, from um [C, um_ld] = u^m (padded) and xt [D, ld] (padded):
  // weight_lanes[C, 8] += Σ_i um_ji, sum_lanes[C·D, 8] += Σ_i um_ji x_iq, in lanes. Returns the
  // block's objective Σ_j Σ_i um_ji d2_ji, d2 [C, B] with row stride b.
  double (*block_sums)(double* sum_lanes, double* weight_lanes, const double* um, Index um_ld,
                       const double* d2, Index b, const double* xt, Index ld, Index c, Index d);
};

// kScalarReference gives the plain reference table; any other variant this build holds its Highway
// table. Throws InvalidArgument for a target the build does not contain.
const SweepKernels& sweep_kernels(std::int64_t target);

// Float sweep, over X packed by pack_float_blocks into blocks xt [D, kF32Rows]; d2/u/um are
// [C, kF32Rows]. Every kernel works on b16 = round_up(b, kF32Lanes) points: padding points are zero
// in xt and carry zero weight in um. Lane accumulators (double) hold kF32Lanes entries each.
inline constexpr Index kF32Rows = 256;
inline constexpr Index kF32Lanes = 16;

struct SweepKernelsF32 {
  const char* variant;
  // d2[C, kF32Rows] for the b16 points of xt; `next` (the next packed block, or null) is
  // prefetched.
  void (*block_distances)(float* d2, const float* xt, Index b16, const float* v, Index c, Index d,
                          const float* next);
  // m = 2: um = u², u = w / Σ w with w_j = d²_min / d²_j; u is written unless null. Returns false
  // when some point (padding included) has a zero distance: those need fuzzy_memberships' crisp
  // rule, and um/u are then to be recomputed.
  bool (*memberships_m2)(float* u, float* um, const float* d2, Index b16, Index c);
  // objective_lanes[16] += Σ um·d2, weight_lanes[C, 16] += Σ um, sum_lanes[C·D, 16] += Σ um·x, each
  // block's float sums added into the double lanes.
  void (*block_sums)(double* sum_lanes, double* weight_lanes, double* objective_lanes,
                     const float* um, const float* d2, const float* xt, Index b16, Index c,
                     Index d);
};

const SweepKernelsF32& sweep_kernels_f32(std::int64_t target);

}  // namespace kessel::cluster
