// Fuzzy c-means (Bezdek 1981): alternate the optimal memberships for fixed centres and the optimal
// centres for fixed memberships; the objective J_m = Σ u_ij^m ‖x_i − v_j‖² never increases.
//
// Iteration t: V_t = (U_{t−1}^m)ᵀX / Σ U_{t−1}^m, U_t = memberships(V_t), J_t = J(U_t, V_t); the last
// iteration is the one where max |V_t − V_{t−1}| < tol·σ (converged) or t = max_iter. U_0 is random,
// or the memberships of the initial centres V_0.
#include <cmath>
#include <limits>

#include "cluster/fuzzy_iteration.h"
#include "kessel/cluster.h"
#include "util/simd.h"

namespace kessel::cluster {

namespace {

// Direct squared distances, the same kernel as euclidean_sweep's (of the same variant), so that
// predicting on the training data reproduces the fitted memberships exactly. scratch holds the
// transposed block, [D, rows].
BlockDistances direct_block_distances(const SweepKernels& kernels, MatrixView x,
                                      const double* centres, Index c) {
  return [=, &kernels](double* d2, Index row0, Index rows, double* xt) {
    for (Index i = 0; i < rows; ++i)
      for (Index k = 0; k < x.cols; ++k) xt[k * rows + i] = x.at(row0 + i, k);
    kernels.squared_distances(d2, xt, rows, rows, centres, c, x.cols);
  };
}

// The kernels of the variant in use, read once per op (src/util/simd.h).
struct Kernels {
  const SweepKernels& f64;
  const SweepKernelsF32& f32;
};

// xf: pack_float_blocks(x) for Precision::kFloat32, else empty.
FcmResult run_once(const Kernels& kernels, MatrixView x, const std::vector<float>& xf,
                   double spread, const FcmOptions& o, int restart) {
  const Index n = x.rows, d = x.cols, c = o.clusters;
  FcmResult r;
  r.points = n;
  r.dims = d;
  r.clusters = c;
  // The double sweep writes U [C, N] (transposed at the end); the float one writes [N, C] directly.
  std::vector<double> u(static_cast<size_t>(n * c));
  r.centres.assign(static_cast<size_t>(c * d), 0.0);
  std::mt19937_64 rng(o.seed + static_cast<std::uint64_t>(restart));
  const bool single = o.precision == Precision::kFloat32;
  const auto sweep = [&](double* out) {
    return single ? euclidean_sweep_f32(kernels.f32, xf.data(), n, d, r.centres.data(), c, o.m, out,
                                        o.threads)
                  : euclidean_sweep(kernels.f64, x, r.centres.data(), c, o.m, out, o.threads);
  };

  SweepResult sums;
  if (o.init == Init::kRandomMemberships) {
    random_memberships(u.data(), n, c, rng);
    sums = centre_sums_from_memberships(x, u.data(), c, o.m, o.threads);
  } else {
    r.centres = o.init == Init::kGivenCentres ? o.init_centres : kmeans_plus_plus(x, c, rng);
    sums = sweep(nullptr);
  }
  alternate(r, sums, o.init != Init::kRandomMemberships, o, spread, restart,
            [&](bool last, const SweepResult&) { return sweep(last ? u.data() : nullptr); });
  r.memberships = single ? std::move(u) : to_point_major(u, n, c);
  return r;
}

}  // namespace

FcmResult fuzzy_c_means(MatrixView x, const FcmOptions& options) {
  check_fuzzy_options("fuzzy_c_means", x, options);
  const std::int64_t target = simd::active_target();
  const Kernels kernels{sweep_kernels(target), sweep_kernels_f32(target)};
  std::vector<float> xf;
  if (options.precision == Precision::kFloat32) xf = pack_float_blocks("fuzzy_c_means", x);
  // σ only scales tol; with tol = 0 the convergence test is never true, so skip its two passes.
  const double spread = options.tol > 0 ? data_spread(x) : 1.0;
  return best_of_restarts<FcmResult>(options.n_init, [&](int restart) {
    return run_once(kernels, x, xf, spread, options, restart);
  });
}

std::vector<double> fcm_predict(MatrixView x, MatrixView centres, double m, int threads) {
  check_data("fcm_predict", x);
  check_fuzzifier("fcm_predict", m);
  KESSEL_CHECK_ARG(centres.rows >= 1 && centres.data != nullptr,
                   "fcm_predict: centres must be a non-empty [C, D] matrix, got [", centres.rows, ", ",
                   centres.cols, "]");
  KESSEL_CHECK_ARG(centres.cols == x.cols, "fcm_predict: x has D=", x.cols, " but centres have D=",
                   centres.cols);
  check_data("fcm_predict (centres)", centres);
  const SweepKernels& kernels = sweep_kernels(simd::active_target());
  std::vector<double> u(static_cast<size_t>(x.rows * centres.rows));
  predict_memberships(u.data(), x.rows, centres.rows, m,
                      direct_block_distances(kernels, x, centres.data, centres.rows), x.cols,
                      threads);
  return u;
}

}  // namespace kessel::cluster
