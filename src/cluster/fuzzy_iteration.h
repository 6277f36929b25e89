// Machinery shared by fuzzy c-means and Gustafson–Kessel: the fixed partition of points into chunks,
// seeded initialisation, argument checks, and the membership sweep that does one iteration's
// point-parallel work. Internal to the cluster area.
//
// Memberships are cluster-major inside the iteration, U[C, N] (entry j * N + i), so every per-point
// loop runs along contiguous rows; results are transposed to the public [N, C] at the end. U is only
// written on the sweep that produces the final result: convergence is tested on the centres.
#pragma once

#include <functional>
#include <random>
#include <vector>

#include "cluster/sweep_kernels.h"
#include "kessel/cluster.h"

namespace kessel::cluster {

// Points are split into at most kMaxChunks contiguous chunks whose boundaries depend only on N; each
// chunk is processed by one thread in blocks of kBlockRows and keeps its own partial sums, which are
// then added in chunk order. So results are bit-identical for any thread count. Never more threads
// than chunks: an idle OpenMP thread spinning at the barrier only steals a core on a busy machine.
// kBlockRows·C·D stays far below OpenBLAS's threading threshold (262144), so its GEMMs stay serial.
inline constexpr Index kBlockRows = 512;
inline constexpr Index kMaxChunks = 64;

struct Chunks {
  Index points = 0;
  Index count = 0;
  Index size = 0;  // rows per chunk (the last may be shorter), a multiple of kBlockRows
  explicit Chunks(Index n);
  Index begin(Index k) const { return k * size; }
  Index end(Index k) const { return std::min(points, (k + 1) * size); }
};

// Uniform in (0, 1) from the standard-specified mt19937_64 stream, so seeds replay across platforms
// (std::uniform_real_distribution is implementation-defined).
inline double uniform_open01(std::mt19937_64& rng) {
  return (static_cast<double>(rng() >> 11) + 0.5) * 0x1.0p-53;
}

// Checks shared by fuzzy_c_means and gustafson_kessel; `fn` names the caller in messages.
void check_fuzzy_options(const char* fn, MatrixView x, const FcmOptions& options);
void check_data(const char* fn, MatrixView x);
void check_fuzzifier(const char* fn, double m);

// U0 [C, N]: uniform(0, 1) entries drawn point by point, each point's memberships normalised to 1.
void random_memberships(double* u, Index n, Index c, std::mt19937_64& rng);

// k-means++ seeding: the first centre uniform among points, each next one drawn with probability
// proportional to the squared distance to the nearest centre chosen so far. Returns V [C, D].
std::vector<double> kmeans_plus_plus(MatrixView x, Index c, std::mt19937_64& rng);

// Fills d2[C, rows] for the points [row0, row0 + rows); `scratch` holds scratch_per_row · rows doubles.
using BlockDistances = std::function<void(double* d2, Index row0, Index rows, double* scratch)>;

struct SweepResult {
  double objective = 0;              // Σ u^m d² with the new memberships
  std::vector<double> centre_sums;   // [C, D] Σ_i u_ij^m x_i
  std::vector<double> weights;       // [C]    Σ_i u_ij^m
};

// One iteration's pass over the points: memberships from the distances, the objective and the next
// centres' sums (U^m)ᵀX by dgemm. The memberships are stored in u [C, N] when u is not null.
SweepResult membership_sweep(MatrixView x, Index c, double m, const BlockDistances& distances,
                             Index scratch_per_row, double* u, int threads);

// FCM's sweep with Euclidean distances, fused per block of points (euclidean_sweep.cc): distances,
// memberships, u^m, objective and centre sums in one pass while the block is in L1, with the
// kernels of one SIMD variant (sweep_kernels.h, chosen by the caller once per op). The same result
// as membership_sweep with squared_distances_reference, up to summation order. centres [C, D].
SweepResult euclidean_sweep(const SweepKernels& kernels, MatrixView x, const double* centres,
                            Index c, double m, double* u, int threads);

// euclidean_sweep in single precision (euclidean_sweep_f32.cc) over xp = pack_float_blocks(X):
// float distances, memberships and per-block sums, accumulated in double across blocks. The
// memberships, when u is not null, are written point-major, u [N, C] (the public layout).
SweepResult euclidean_sweep_f32(const SweepKernelsF32& kernels, const float* xp, Index n, Index d,
                                const double* centres, Index c, double m, double* u, int threads);
// X as float in blocks of kF32Rows = 256 points, each transposed to [D, 256]; the last block
// zero-padded. Throws InvalidArgument (naming fn) for NaN or |x| >= 0.25·sqrt(FLT_MAX/D), where
// float squared distances could overflow (≈1.2e18 for D = 16).
std::vector<float> pack_float_blocks(const char* fn, MatrixView x);

// σ = sqrt(mean_k var(X[:, k])), the scale that makes tol unit-free (1 for constant data).
double data_spread(MatrixView x);

// max_jk |a_jk − b_jk|.
double max_abs_change(const std::vector<double>& a, const std::vector<double>& b);

// Memberships only, for prediction: u [N, C] (point-major, the public layout).
void predict_memberships(double* u, Index n, Index c, double m, const BlockDistances& distances,
                         Index scratch_per_row, int threads);

// (U^m)ᵀX and Σ U^m for given memberships u [C, N] (the first step after random initialisation).
SweepResult centre_sums_from_memberships(MatrixView x, const double* u, Index c, double m,
                                         int threads);

// V [C, D] = sums / weights. A cluster with zero total weight (every point an exact match of another
// centre) keeps its previous centre, which is then still a minimiser of the objective.
void centres_from_sums(double* centres, const SweepResult& sums, Index c, Index d);

// [C, N] -> [N, C].
std::vector<double> to_point_major(const std::vector<double>& u, Index n, Index c);

// The alternating optimization FCM and GK share, from the initial sums: centres from the sums; stop
// when no centre coordinate moved by tol·spread since the previous step (not tested on the first step
// after a membership-only start, which has no previous centres); then `sweep(last, sums)` returns the
// next sums (`last`: this sweep's memberships are the result). Fills r.centres, converged, objective,
// objective_history and iterations.
template <typename Sweep>
void alternate(FcmResult& r, SweepResult sums, bool have_previous, const FcmOptions& o, double spread,
               int restart, Sweep sweep) {
  std::vector<double> previous = r.centres;
  for (int it = 1; it <= o.max_iter; ++it) {
    centres_from_sums(r.centres.data(), sums, r.clusters, r.dims);
    r.converged = have_previous && max_abs_change(r.centres, previous) < o.tol * spread;
    const bool last = r.converged || it == o.max_iter;
    previous = r.centres;
    have_previous = true;
    sums = sweep(last, sums);
    r.objective = sums.objective;
    r.objective_history.push_back(sums.objective);
    r.iterations = it;
    if (o.on_iteration) o.on_iteration(restart, it, sums.objective);
    if (last) break;
  }
}

// n_init restarts of run_once(restart); the one with the lowest objective (the first on ties).
template <typename Result, typename RunOnce>
Result best_of_restarts(int n_init, RunOnce run_once) {
  Result best;
  for (int restart = 0; restart < n_init; ++restart) {
    Result r = run_once(restart);
    r.best_restart = restart;
    if (restart == 0 || r.objective < best.objective) best = std::move(r);
  }
  return best;
}

}  // namespace kessel::cluster
