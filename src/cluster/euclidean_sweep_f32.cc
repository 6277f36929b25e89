// FCM's fused sweep in single precision (FcmOptions::precision = kFloat32): X is read from a float
// copy packed once per fit into transposed blocks [D, 256] (half the bytes of the double sweep, one
// contiguous stream, and no per-iteration transpose), and the
// distances, memberships and per-block partial sums run 16 points to a 512-bit vector. Each block's
// float partials are added into double accumulators, in a fixed order, so the result is still
// independent of the thread count; the precision lost is that of float distances and of one block's
// float sums (relative ~1e-6 on centres, see docs/clustering.md).
#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstring>

#if defined(__AVX512F__)
#include <immintrin.h>
#endif

#include "cluster/fuzzy_iteration.h"
#include "cluster/membership.h"
#include "util/parallel.h"

namespace kessel::cluster {

namespace {

using F16 = float __attribute__((vector_size(64)));
inline F16 load16(const float* p) {
  F16 v;
  std::memcpy(&v, p, sizeof v);
  return v;
}
inline void store16(float* p, F16 v) { std::memcpy(p, &v, sizeof v); }

// a·b + c. ISO C++ mode compiles with -ffp-contract=off, so the fused form must be asked for.
inline F16 fma16(F16 a, F16 b, F16 c) {
#if defined(__AVX512F__)
  return _mm512_fmadd_ps(a, b, c);
#else
  return a * b + c;
#endif
}

// 256 points per block: the centre sums then do 16 vector FMAs per (cluster, feature) for each
// conversion of their float partial into the double accumulator. Divides kBlockRows, so blocks
// (and every summation order) depend only on N.
constexpr Index kRows = 256;
static_assert(kBlockRows % kRows == 0);
constexpr Index kLanes = 16;

constexpr Index round16(Index n) { return (n + kLanes - 1) / kLanes * kLanes; }

struct Scratch {
  std::vector<float> d2, u, um, partial;  // d2, u, um [C, kRows]
  std::vector<double> sum_lanes, weight_lanes, objective_lanes;  // [C·D·16], [C·16], [16]
  std::vector<double> d2_double, u_double;                       // slow path, [C, b]
  Scratch(Index c, Index d)
      : d2(static_cast<size_t>(kRows * c)),
        u(static_cast<size_t>(kRows * c)),
        um(static_cast<size_t>(kRows * c)),
        partial(static_cast<size_t>(c * d * kLanes)),
        sum_lanes(static_cast<size_t>(c * d * kLanes)),
        weight_lanes(static_cast<size_t>(c * kLanes)),
        objective_lanes(kLanes),
        d2_double(static_cast<size_t>(kRows * c)),
        u_double(static_cast<size_t>(kRows * c)) {}
};

double reduce16(const double* l) {
  double h[8];
  for (int q = 0; q < 8; ++q) h[q] = l[q] + l[q + 8];
  return ((h[0] + h[1]) + (h[2] + h[3])) + ((h[4] + h[5]) + (h[6] + h[7]));
}

// d2[C, kRows] for the b16 (padded) points of a packed block xt [D, kRows], 16 points per vector.
// `next` (the next packed block, or null) is prefetched a slice per group of points: the loads of
// X otherwise stalled on DRAM latency (a third of the sweep), the D rows of a block being too many
// short streams for the hardware prefetcher.
void block_distances(float* d2, const float* xt, Index b16, const float* v, Index c, Index d,
                     const float* next) {
  for (Index g = 0; g < b16; g += kLanes) {
    if (next != nullptr) {
      const float* slice = next + (g / kLanes) * d * kLanes;  // D cache lines per group
      for (Index q = 0; q < d; ++q) __builtin_prefetch(slice + q * kLanes, 0, 2);
    }
    Index j = 0;
    for (; j + 8 <= c; j += 8) {  // eight centres share each load of x (17 of the 32 registers)
      const float* v0 = v + j * d;
      F16 a[8] = {};
      for (Index k = 0; k < d; ++k) {
        const F16 xk = load16(xt + k * kRows + g);
        for (Index t = 0; t < 8; ++t) {
          const F16 e = xk - v0[t * d + k];
          a[t] = fma16(e, e, a[t]);
        }
      }
      for (Index t = 0; t < 8; ++t) store16(d2 + (j + t) * kRows + g, a[t]);
    }
    for (; j + 4 <= c; j += 4) {  // four centres share each load of x
      const float* v0 = v + j * d;
      F16 a0 = {}, a1 = {}, a2 = {}, a3 = {};
      for (Index k = 0; k < d; ++k) {
        const F16 xk = load16(xt + k * kRows + g);
        const F16 e0 = xk - v0[k], e1 = xk - v0[d + k], e2 = xk - v0[2 * d + k],
                  e3 = xk - v0[3 * d + k];
        a0 = fma16(e0, e0, a0);
        a1 = fma16(e1, e1, a1);
        a2 = fma16(e2, e2, a2);
        a3 = fma16(e3, e3, a3);
      }
      store16(d2 + j * kRows + g, a0);
      store16(d2 + (j + 1) * kRows + g, a1);
      store16(d2 + (j + 2) * kRows + g, a2);
      store16(d2 + (j + 3) * kRows + g, a3);
    }
    for (; j < c; ++j) {
      F16 a = {};
      for (Index k = 0; k < d; ++k) {
        const F16 e = load16(xt + k * kRows + g) - v[j * d + k];
        a = fma16(e, e, a);
      }
      store16(d2 + j * kRows + g, a);
    }
  }
}

// m = 2 memberships of the b16 points: u_j = w_j / Σ w with w_j = d²_min / d²_j ∈ (0, 1] (no
// overflow for tiny distances); um = u². u (null unless the memberships are output) is left out
// of the other sweeps so that the block's working set stays within L1. Returns false, touching nothing that matters, when some
// point has a zero distance: those need the crisp rule of fuzzy_memberships.
bool memberships_m2(float* u, float* um, const float* d2, Index b16, Index c) {
  for (Index g = 0; g < b16; g += kLanes) {
    F16 dmin = load16(d2 + g);
    for (Index j = 1; j < c; ++j) {
      const F16 dj = load16(d2 + j * kRows + g);
      dmin = dmin < dj ? dmin : dj;
    }
    // Padding points are included: one at distance 0 only costs the slow path for its block.
#if defined(__AVX512F__)
    if (_mm512_cmp_ps_mask(dmin, F16{}, _CMP_EQ_OQ) != 0) return false;
#else
    for (Index l = 0; l < kLanes; ++l) {
      if (dmin[l] == 0.0f) return false;
    }
#endif
    F16 total = {};
    for (Index j = 0; j < c; ++j) {
      const F16 w = dmin / load16(d2 + j * kRows + g);
      store16(um + j * kRows + g, w);
      total += w;
    }
    const F16 scale = 1.0f / total;
    for (Index j = 0; j < c; ++j) {
      const F16 uj = load16(um + j * kRows + g) * scale;
      if (u != nullptr) store16(u + j * kRows + g, uj);
      store16(um + j * kRows + g, uj * uj);
    }
  }
  return true;
}

// partial[C·D, 16] = per-lane Σ_g um_j · x_q over the block's groups. Tiles of 4 clusters × 4
// features load 8 vectors per 16 FMAs (the loads, not the FMAs, bounded the one-cluster loop); every
// entry is summed over g in the same order whichever loop computes it.
void block_centre_sums(float* partial, const float* um, const float* xt, Index b16, Index c,
                       Index d) {
  const auto one = [&](Index j, Index q) {
    F16 a = {};
    for (Index g = 0; g < b16; g += kLanes)
      a = fma16(load16(um + j * kRows + g), load16(xt + q * kRows + g), a);
    store16(partial + (j * d + q) * kLanes, a);
  };
  Index j = 0;
  for (; j + 4 <= c; j += 4) {
    Index q = 0;
    for (; q + 4 <= d; q += 4) {
      F16 a[4][4] = {};
      for (Index g = 0; g < b16; g += kLanes) {
        F16 w[4], x[4];
        for (Index t = 0; t < 4; ++t) w[t] = load16(um + (j + t) * kRows + g);
        for (Index r = 0; r < 4; ++r) x[r] = load16(xt + (q + r) * kRows + g);
        for (Index t = 0; t < 4; ++t)
          for (Index r = 0; r < 4; ++r) a[t][r] = fma16(w[t], x[r], a[t][r]);
      }
      for (Index t = 0; t < 4; ++t)
        for (Index r = 0; r < 4; ++r) store16(partial + ((j + t) * d + q + r) * kLanes, a[t][r]);
    }
    for (; q < d; ++q)
      for (Index t = 0; t < 4; ++t) one(j + t, q);
  }
  for (; j < c; ++j)
    for (Index q = 0; q < d; ++q) one(j, q);
}

// Any m, and exact matches: the double membership kernel on the block's float distances.
void memberships_general(Scratch& s, Index b, Index c, double m) {
  for (Index j = 0; j < c; ++j)
    for (Index i = 0; i < b; ++i) s.d2_double[j * b + i] = s.d2[j * kRows + i];
  fuzzy_memberships(s.u_double.data(), s.d2_double.data(), b, c, m);
  for (Index j = 0; j < c; ++j) {
    for (Index i = 0; i < b; ++i) {
      const double uji = s.u_double[j * b + i];
      s.u[j * kRows + i] = static_cast<float>(uji);
      s.um[j * kRows + i] = static_cast<float>(fuzzy_power(uji, m));
    }
  }
}

}  // namespace

std::vector<float> pack_float_blocks(const char* fn, MatrixView x) {
  const Index n = x.rows, d = x.cols, blocks = (n + kRows - 1) / kRows;
  std::vector<float> out(static_cast<size_t>(blocks * d * kRows), 0.0f);  // padding points are 0
  // Centres are convex combinations of points, so |x| < limit bounds every float squared distance
  // by D·(2·limit)² = FLT_MAX/4: finite, with room for rounding.
  const double limit = 0.25 * std::sqrt(static_cast<double>(FLT_MAX) / static_cast<double>(d));
  for (Index i = 0; i < n; ++i) {
    float* block = out.data() + (i / kRows) * d * kRows + i % kRows;
    for (Index k = 0; k < d; ++k) {
      // Replaces check_data's pass for float32 (the comparison is false for NaN too).
      KESSEL_CHECK_ARG(std::abs(x.at(i, k)) < limit, fn, ": x[", i, ", ", k, "] = ", x.at(i, k),
                       " is not finite or beyond ±", limit, " (0.25·sqrt(FLT_MAX/D)), too large "
                       "for precision float32");
      block[k * kRows] = static_cast<float>(x.at(i, k));
    }
  }
  return out;
}

SweepResult euclidean_sweep_f32(const float* xp, Index n, Index d, const double* centres, Index c,
                                double m, double* u, int threads) {
  std::vector<float> v(static_cast<size_t>(c * d));
  for (Index e = 0; e < c * d; ++e) v[e] = static_cast<float>(centres[e]);
  const Chunks chunks(n);
  std::vector<double> part_sums(static_cast<size_t>(chunks.count * c * d));
  std::vector<double> part_weights(static_cast<size_t>(chunks.count * c));
  std::vector<double> part_objective(static_cast<size_t>(chunks.count));
#pragma omp parallel num_threads(std::min<Index>(resolve_threads(threads), chunks.count))
  {
    Scratch s(c, d);
#pragma omp for schedule(dynamic, 1)
    for (Index k = 0; k < chunks.count; ++k) {
      std::fill(s.sum_lanes.begin(), s.sum_lanes.end(), 0.0);
      std::fill(s.weight_lanes.begin(), s.weight_lanes.end(), 0.0);
      std::fill(s.objective_lanes.begin(), s.objective_lanes.end(), 0.0);
      for (Index row0 = chunks.begin(k); row0 < chunks.end(k); row0 += kRows) {
        const Index b = std::min(kRows, chunks.end(k) - row0), b16 = round16(b);
        const float* xt = xp + (row0 / kRows) * d * kRows;  // this block's [D, kRows]
        const float* next = row0 + kRows < n ? xt + d * kRows : nullptr;
        block_distances(s.d2.data(), xt, b16, v.data(), c, d, next);
        if (m != 2.0 || !memberships_m2(u != nullptr ? s.u.data() : nullptr, s.um.data(), s.d2.data(), b16, c)) {
          memberships_general(s, b, c, m);
        }
        for (Index j = 0; j < c; ++j)  // padding points carry no weight
          for (Index i = b; i < b16; ++i) s.um[j * kRows + i] = 0.0f;
        F16 objective = {};
        for (Index j = 0; j < c; ++j) {
          const float* umj = s.um.data() + j * kRows;
          const float* d2j = s.d2.data() + j * kRows;
          F16 weight = {};
          for (Index g = 0; g < b16; g += kLanes) {
            const F16 w = load16(umj + g);
            objective = fma16(w, load16(d2j + g), objective);
            weight += w;
          }
          for (Index l = 0; l < kLanes; ++l) s.weight_lanes[j * kLanes + l] += weight[l];
        }
        block_centre_sums(s.partial.data(), s.um.data(), xt, b16, c, d);
        for (size_t e = 0; e < s.partial.size(); ++e) s.sum_lanes[e] += s.partial[e];
        for (Index l = 0; l < kLanes; ++l) s.objective_lanes[l] += objective[l];
        if (u != nullptr) {  // point-major [N, C], the public layout
          for (Index i = 0; i < b; ++i)
            for (Index j = 0; j < c; ++j) u[(row0 + i) * c + j] = s.u[j * kRows + i];
        }
      }
      for (Index e = 0; e < c * d; ++e)
        part_sums[k * c * d + e] = reduce16(&s.sum_lanes[e * kLanes]);
      for (Index j = 0; j < c; ++j) part_weights[k * c + j] = reduce16(&s.weight_lanes[j * kLanes]);
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
