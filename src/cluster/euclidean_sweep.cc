// The fused FCM sweep: one pass over each block of points, while it is in L1/L2, computes the
// direct squared distances to every centre, the memberships, u^m, the objective and the centre
// sums. The generic membership_sweep (used by Gustafson–Kessel and as this kernel's reference in
// the tests) instead calls dgemm twice per block; for FCM's small C·D those calls cost more in
// packing and dispatch than in arithmetic.
#include <algorithm>
#include <cmath>
#include <cstring>

#include "cluster/fuzzy_iteration.h"
#include "cluster/membership.h"
#include "util/parallel.h"

namespace kessel::cluster {

namespace {

// Eight doubles as one GCC vector: explicit lanes, so the per-lane operation order is exactly the
// scalar one (g++ 12 auto-vectorized these loops into scalar inserts and split mul/add). Compiles
// to whatever vector width the target has.
using V8 = double __attribute__((vector_size(64)));
inline V8 load8(const double* p) {
  V8 v;
  std::memcpy(&v, p, sizeof v);
  return v;
}
inline void store8(double* p, V8 v) { std::memcpy(p, &v, sizeof v); }

// Eight-lane reduction (vectorizes without -ffast-math; their order depends only on the length).
double dot8(const double* a, const double* b, Index n) {
  double lane[8] = {0, 0, 0, 0, 0, 0, 0, 0};
  Index i = 0;
  for (; i + 8 <= n; i += 8)
    for (int k = 0; k < 8; ++k) lane[k] += a[i + k] * b[i + k];
  for (; i < n; ++i) lane[0] += a[i] * b[i];
  return ((lane[0] + lane[1]) + (lane[2] + lane[3])) + ((lane[4] + lane[5]) + (lane[6] + lane[7]));
}

// Points per fused block: the block's scratch (xt, d2, u, u^m: (D + 3C)·rows doubles) then stays
// close to L1 for FCM-sized C and D. Chunk boundaries are multiples of kBlockRows, itself a
// multiple of this, so the blocks, and with them every summation order, depend only on N.
constexpr Index kFusedRows = 128;
static_assert(kBlockRows % kFusedRows == 0);
// xt's row stride: a multiple of 8 doubles plus one cache line, so that its D rows do not all fall
// in the same L1 set (a 2^k-byte stride made the transpose's stores conflict-miss on every write).
constexpr Index kTransposeStride = kFusedRows + 8;

constexpr Index round8(Index n) { return (n + 7) / 8 * 8; }

// Per-thread scratch for one block of at most kFusedRows points. xt and um have their columns
// padded with zeros up to a multiple of 8, so the centre sums run in whole 8-lane steps (adding 0·0
// changes nothing). The lane accumulators carry the centre sums and weights through a whole chunk;
// they are reduced once per chunk, not once per block.
struct BlockScratch {
  std::vector<double> xt, d2, u, um, sum_lanes, weight_lanes;
  BlockScratch(Index c, Index d)
      : xt(static_cast<size_t>(kTransposeStride * d)),
        d2(static_cast<size_t>(kFusedRows * c)),
        u(static_cast<size_t>(kFusedRows * c)),
        um(static_cast<size_t>(kFusedRows * c)),
        sum_lanes(static_cast<size_t>(c * d * 8)),
        weight_lanes(static_cast<size_t>(c * 8)) {}
};

// xt [D, ld] = x[B, D]ᵀ, so that the distance and centre-sum loops below run along the B points
// with unit stride; columns B..round8(B) are zeroed. Redone every iteration: a once-per-fit
// transposed copy of X measured slower (its page faults, and D interleaved read streams the
// prefetcher misses).
void transpose_block(double* xt, Index ld, const double* x, Index b, Index d) {
  for (Index i = 0; i < b; ++i)
    for (Index k = 0; k < d; ++k) xt[k * ld + i] = x[i * d + k];
  for (Index k = 0; k < d; ++k)
    for (Index i = b; i < round8(b); ++i) xt[k * ld + i] = 0.0;
}

// acc[q][8] += Σ over 8-lane steps of a[i] · b_q[i] for the rows b_q = b + q·ld, q < 4 (one load of
// a for four products); n a multiple of 8.
void dot4_into_lanes(double* __restrict acc, const double* __restrict a, const double* __restrict b,
                     Index ld, Index n) {
  V8 l0 = load8(acc), l1 = load8(acc + 8), l2 = load8(acc + 16), l3 = load8(acc + 24);
  for (Index i = 0; i < n; i += 8) {
    const V8 av = load8(a + i);
    l0 += av * load8(b + i);
    l1 += av * load8(b + ld + i);
    l2 += av * load8(b + 2 * ld + i);
    l3 += av * load8(b + 3 * ld + i);
  }
  store8(acc, l0);
  store8(acc + 8, l1);
  store8(acc + 16, l2);
  store8(acc + 24, l3);
}

void dot_into_lanes(double* __restrict acc, const double* __restrict a, const double* __restrict b,
                    Index n) {
  V8 lane = load8(acc);
  for (Index i = 0; i < n; i += 8) lane += load8(a + i) * load8(b + i);
  store8(acc, lane);
}

// acc[8] += Σ over 8-lane steps of a[i], n a multiple of 8.
void sum_into_lanes(double* __restrict acc, const double* __restrict a, Index n) {
  V8 lane = load8(acc);
  for (Index i = 0; i < n; i += 8) lane += load8(a + i);
  store8(acc, lane);
}

double reduce_lanes(const double* lane) {
  return ((lane[0] + lane[1]) + (lane[2] + lane[3])) + ((lane[4] + lane[5]) + (lane[6] + lane[7]));
}

}  // namespace

void squared_distances_transposed(double* d2, const double* xt, Index ld, Index b, const double* v,
                                  Index c, Index d) {
  // Direct Σ_k (x_ik − v_jk)², summed over k in order: exact for a point on a centre and free of
  // the cancellation that the ‖x‖² + ‖v‖² − 2x·v form has to repair. Eight points at a time, so the
  // sum stays in a register across k; the ragged tail does the same operations one point at a time.
  Index i0 = 0;
  for (; i0 + 8 <= b; i0 += 8) {
    Index j = 0;
    for (; j + 4 <= c; j += 4) {  // four centres share each load of x, four independent FMA chains
      const double* v0 = v + j * d;
      V8 a0 = {0, 0, 0, 0, 0, 0, 0, 0}, a1 = a0, a2 = a0, a3 = a0;
      for (Index k = 0; k < d; ++k) {
        const V8 xk = load8(xt + k * ld + i0);
        const V8 e0 = xk - v0[k], e1 = xk - v0[d + k], e2 = xk - v0[2 * d + k],
                 e3 = xk - v0[3 * d + k];
        a0 += e0 * e0;
        a1 += e1 * e1;
        a2 += e2 * e2;
        a3 += e3 * e3;
      }
      store8(d2 + j * b + i0, a0);
      store8(d2 + (j + 1) * b + i0, a1);
      store8(d2 + (j + 2) * b + i0, a2);
      store8(d2 + (j + 3) * b + i0, a3);
    }
    for (; j < c; ++j) {
      V8 acc = {0, 0, 0, 0, 0, 0, 0, 0};
      for (Index k = 0; k < d; ++k) {
        const V8 diff = load8(xt + k * ld + i0) - v[j * d + k];
        acc += diff * diff;
      }
      store8(d2 + j * b + i0, acc);
    }
  }
  for (Index i = i0; i < b; ++i) {
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

SweepResult euclidean_sweep(MatrixView x, const double* centres, Index c, double m, double* u,
                            int threads) {
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
        const Index b = std::min(kFusedRows, chunks.end(k) - row0), b8 = round8(b);
        const double* xt = s.xt.data();
        transpose_block(s.xt.data(), kTransposeStride, x.data + row0 * d, b, d);
        squared_distances_transposed(s.d2.data(), xt, kTransposeStride, b, centres, c, d);
        fuzzy_memberships(s.u.data(), s.d2.data(), b, c, m);
        for (Index j = 0; j < c; ++j) {
          const double* uj = s.u.data() + j * b;
          double* __restrict umj = s.um.data() + j * kFusedRows;  // padded rows, see BlockScratch
          if (m == 2.0) {                                         // the common case, without pow
            for (Index i = 0; i < b; ++i) umj[i] = uj[i] * uj[i];
          } else {
            for (Index i = 0; i < b; ++i) umj[i] = std::pow(uj[i], m);
          }
          for (Index i = b; i < b8; ++i) umj[i] = 0.0;
          objective += dot8(umj, s.d2.data() + j * b, b);
          sum_into_lanes(&s.weight_lanes[j * 8], umj, b8);
          Index q = 0;
          for (; q + 4 <= d; q += 4) {
            dot4_into_lanes(&s.sum_lanes[(j * d + q) * 8], umj, xt + q * kTransposeStride,
                            kTransposeStride, b8);
          }
          for (; q < d; ++q) {
            dot_into_lanes(&s.sum_lanes[(j * d + q) * 8], umj, xt + q * kTransposeStride, b8);
          }
        }
        if (u != nullptr) {
          for (Index j = 0; j < c; ++j) {
            std::copy(s.u.data() + j * b, s.u.data() + (j + 1) * b, u + j * n + row0);
          }
        }
      }
      for (Index e = 0; e < c * d; ++e)
        part_sums[k * c * d + e] = reduce_lanes(&s.sum_lanes[e * 8]);
      for (Index j = 0; j < c; ++j) part_weights[k * c + j] = reduce_lanes(&s.weight_lanes[j * 8]);
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
