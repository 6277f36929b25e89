// Fuzzy c-means (Bezdek 1981): alternate the optimal memberships for fixed centres and the optimal
// centres for fixed memberships; the objective J_m = Σ u_ij^m ‖x_i − v_j‖² never increases.
//
// Iteration t: V_t = (U_{t−1}^m)ᵀX / Σ U_{t−1}^m, U_t = memberships(V_t), J_t = J(U_t, V_t); the last
// iteration is the one where max |V_t − V_{t−1}| < tol·σ (converged) or t = max_iter. U_0 is random,
// or the memberships of the initial centres V_0.
#include <cmath>
#include <limits>

#include "cluster/distances.h"
#include "cluster/fuzzy_iteration.h"
#include "kessel/cluster.h"

namespace kessel::cluster {

namespace {

BlockDistances euclidean_block_distances(MatrixView x, const std::vector<double>& x_norms,
                                         const double* centres, const std::vector<double>& v_norms,
                                         Index c) {
  return [=, &x_norms, &v_norms](double* d2, Index row0, Index rows, double*) {
    squared_distances_gemm(d2, x.data + row0 * x.cols, x_norms.data() + row0, rows, centres,
                           v_norms.data(), c, x.cols);
  };
}

FcmResult run_once(MatrixView x, const std::vector<double>& x_norms, double spread,
                   const FcmOptions& o, int restart) {
  const Index n = x.rows, d = x.cols, c = o.clusters;
  FcmResult r;
  r.points = n;
  r.dims = d;
  r.clusters = c;
  std::vector<double> u(static_cast<size_t>(n * c), 0.0);  // [C, N] while iterating
  r.centres.assign(static_cast<size_t>(c * d), 0.0);
  std::vector<double> v_norms(static_cast<size_t>(c));
  std::mt19937_64 rng(o.seed + static_cast<std::uint64_t>(restart));

  SweepResult sums;
  if (o.init == Init::kRandomMemberships) {
    random_memberships(u.data(), n, c, rng);
    sums = centre_sums_from_memberships(x, u.data(), c, o.m, o.threads);
  } else {
    r.centres = o.init == Init::kGivenCentres ? o.init_centres : kmeans_plus_plus(x, c, rng);
    squared_row_norms(v_norms.data(), r.centres.data(), c, d);
    sums = membership_sweep(x, c, o.m,
                            euclidean_block_distances(x, x_norms, r.centres.data(), v_norms, c), 0,
                            nullptr, o.threads);
  }
  bool have_previous = o.init != Init::kRandomMemberships;
  std::vector<double> previous = r.centres;
  for (int it = 1; it <= o.max_iter; ++it) {
    centres_from_sums(r.centres.data(), sums, c, d);
    r.converged = have_previous && max_abs_change(r.centres, previous) < o.tol * spread;
    const bool last = r.converged || it == o.max_iter;
    previous = r.centres;
    have_previous = true;
    squared_row_norms(v_norms.data(), r.centres.data(), c, d);
    sums = membership_sweep(x, c, o.m,
                            euclidean_block_distances(x, x_norms, r.centres.data(), v_norms, c), 0,
                            last ? u.data() : nullptr, o.threads);
    r.objective = sums.objective;
    r.objective_history.push_back(sums.objective);
    r.iterations = it;
    if (o.on_iteration) o.on_iteration(restart, it, sums.objective);
    if (last) break;
  }
  r.memberships = to_point_major(u, n, c);
  return r;
}

}  // namespace

FcmResult fuzzy_c_means(MatrixView x, const FcmOptions& options) {
  check_fuzzy_options("fuzzy_c_means", x, options);
  std::vector<double> x_norms(static_cast<size_t>(x.rows));
  squared_row_norms(x_norms.data(), x.data, x.rows, x.cols);
  const double spread = data_spread(x);
  FcmResult best;
  for (int restart = 0; restart < options.n_init; ++restart) {
    FcmResult r = run_once(x, x_norms, spread, options, restart);
    r.best_restart = restart;
    if (restart == 0 || r.objective < best.objective) best = std::move(r);
  }
  return best;
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
  std::vector<double> x_norms(static_cast<size_t>(x.rows)), v_norms(static_cast<size_t>(centres.rows));
  squared_row_norms(x_norms.data(), x.data, x.rows, x.cols);
  squared_row_norms(v_norms.data(), centres.data, centres.rows, centres.cols);
  std::vector<double> u(static_cast<size_t>(x.rows * centres.rows));
  predict_memberships(u.data(), x.rows, centres.rows, m,
                      euclidean_block_distances(x, x_norms, centres.data, v_norms, centres.rows), 0,
                      threads);
  return u;
}

}  // namespace kessel::cluster
