// Fuzzy clustering: fuzzy c-means (Bezdek), Gustafson–Kessel with the Babuška–van der Veen–Kaymak
// (2002) covariance safeguards, cluster-validity indices and prediction for new points.
//
// Shapes use N points, D features, C clusters. Data, centres and memberships are row-major double
// arrays: X [N, D], V [C, D], U [N, C] (each row of U sums to 1), covariances [C, D, D].
// Double precision throughout: objectives are sums over N·C terms and the GEMM distance identity
// ‖x‖² + ‖v‖² − 2x·v cancels badly in float (see docs/clustering.md).
//
// Results are deterministic for a given seed and independent of the thread count: points are processed
// in fixed-size blocks whose partial sums are reduced in block order.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "kessel/error.h"
#include "kessel/tensor.h"

namespace kessel::cluster {

// A read-only row-major [rows, cols] view.
struct MatrixView {
  const double* data = nullptr;
  Index rows = 0;
  Index cols = 0;
  double at(Index i, Index j) const { return data[i * cols + j]; }
};

enum class Init {
  kRandomMemberships,  // U0 uniform(0,1) per entry, rows normalised (scikit-fuzzy's start)
  kKMeansPlusPlus,     // V0 by k-means++ seeding (D² sampling)
  kGivenCentres,       // V0 = FcmOptions::init_centres
};

// Arithmetic of FCM's iteration. kFloat32 reads a float copy of X (made once per fit, N·D floats)
// and computes distances, memberships and per-block sums in float, accumulating across blocks in
// double: about 3x faster, centres and memberships within ~1e-6 (relative) of kDouble. Needs
// |x| < 0.25·sqrt(FLT_MAX/D) (≈1.2e18 for D = 16; float squared distances stay finite).
// Gustafson–Kessel supports kDouble only.
enum class Precision { kDouble, kFloat32 };

// Called once per iteration: restart index (0-based), iteration (1-based), objective.
using IterationCallback = std::function<void(int restart, int iteration, double objective)>;

struct FcmOptions {
  Index clusters = 2;   // C >= 1, C <= N
  double m = 2.0;       // fuzzifier, m > 1
  // Stop when no centre coordinate moved by tol·σ or more in the last step (σ = RMS feature standard
  // deviation of X, so tol is scale-free); tol = 0 runs max_iter iterations. Testing the centres
  // rather than U means U[N, C] is not kept between iterations: one read of X per iteration.
  double tol = 1e-6;
  int max_iter = 300;   // >= 1
  std::uint64_t seed = 0;
  int n_init = 1;       // restarts (seeds seed, seed+1, ...); the lowest final objective wins
  Init init = Init::kRandomMemberships;
  std::vector<double> init_centres;  // [C, D], only with Init::kGivenCentres (then n_init must be 1)
  int threads = 0;                   // <= 0: OpenMP default
  Precision precision = Precision::kDouble;
  IterationCallback on_iteration;    // optional progress hook
};

struct FcmResult {
  Index points = 0, dims = 0, clusters = 0;
  std::vector<double> centres;            // [C, D]
  std::vector<double> memberships;        // [N, C], optimal for `centres`
  double objective = 0;                   // J_m = Σ_ij u_ij^m ‖x_i − v_j‖² at (memberships, centres)
  std::vector<double> objective_history;  // one entry per iteration of the winning restart
  int iterations = 0;
  bool converged = false;
  int best_restart = 0;  // which restart won (0-based)
};

FcmResult fuzzy_c_means(MatrixView x, const FcmOptions& options);

// Gustafson–Kessel: each cluster gets a norm-inducing matrix A_i = (ρ_i det F_i)^(1/D) F_i⁻¹ built
// from its fuzzy covariance F_i, so clusters can be ellipsoids of any orientation with fixed volume ρ_i.
struct GkOptions : FcmOptions {
  // F_i ← (1−γ) F_i + γ (det F_0)^(1/D) I, F_0 the (population) covariance of all data. Adding a
  // multiple of I keeps eigenvectors, so orientations are unchanged; it bounds how flat a cluster can get.
  double gamma = 0.01;
  // Condition-number cap: eigenvalues below λ_max/β are raised to λ_max/β.
  double beta = 1e15;
  std::vector<double> volumes;  // ρ_i, [C]; empty means all 1
};

struct GkResult : FcmResult {
  std::vector<double> covariances;    // [C, D, D], the safeguarded F_i that define the final norms
  std::vector<double> norm_matrices;  // [C, D, D], A_i = (ρ_i det F_i)^(1/D) F_i⁻¹
};

GkResult gustafson_kessel(MatrixView x, const GkOptions& options);

// Memberships of new points for fixed centres: u_ij = 1 / Σ_l (d²_ij / d²_il)^(1/(m−1)).
// Euclidean (FCM) distances, or Mahalanobis with GK norm matrices [C, D, D]. Returns U [N, C].
std::vector<double> fcm_predict(MatrixView x, MatrixView centres, double m, int threads = 0);
std::vector<double> gk_predict(MatrixView x, MatrixView centres, std::span<const double> norm_matrices,
                               double m, int threads = 0);

// Validity indices of a fuzzy partition U [N, C].
double partition_coefficient(MatrixView u);  // (1/N) Σ u², in [1/C, 1]; higher is crisper
double partition_entropy(MatrixView u);      // −(1/N) Σ u ln u, in [0, ln C]; lower is crisper
// Xie–Beni: Σ_ij u_ij^m ‖x_i − v_j‖² / (N · min_{j≠l} ‖v_j − v_l‖²), Euclidean; lower is better.
// Needs C >= 2; +inf when two centres coincide.
double xie_beni(MatrixView x, MatrixView u, MatrixView centres, double m);

// A numeric matrix read from a CSV file (comma-separated, optional header row).
struct CsvMatrix {
  std::vector<double> values;        // [rows, cols]
  Index rows = 0, cols = 0;
  std::vector<std::string> columns;  // header names, or "0", "1", ... without a header
  bool has_header = false;
  MatrixView view() const { return {values.data(), rows, cols}; }
};

// Reads `path`. The first row is a header when none of its fields is a number. `select` names the
// columns to keep (header names or 0-based indices); empty keeps all. Throws IoError if the file
// cannot be read, ParseError "<file>:<line>: ..." for empty files, ragged rows, non-numbers, NaN/inf.
CsvMatrix read_csv_matrix(const std::string& path, const std::vector<std::string>& select = {});

}  // namespace kessel::cluster
