#include "cluster/fuzzy_iteration.h"

#include <cblas.h>

#include <algorithm>
#include <cfloat>
#include <cmath>

#include "cluster/membership.h"
#include "util/parallel.h"

namespace kessel::cluster {

Chunks::Chunks(Index n) : points(n) {
  const Index blocks = (n + kBlockRows - 1) / kBlockRows;
  const Index blocks_per_chunk = (blocks + kMaxChunks - 1) / kMaxChunks;
  size = std::max<Index>(1, blocks_per_chunk) * kBlockRows;
  count = (n + size - 1) / size;
}

void check_data(const char* fn, MatrixView x) {
  KESSEL_CHECK_ARG(x.rows >= 1 && x.cols >= 1, fn, ": x must be a non-empty [N, D] matrix, got [",
                   x.rows, ", ", x.cols, "]");
  KESSEL_CHECK_ARG(x.data != nullptr, fn, ": x has no data");
  // |x| < 1e150 keeps every squared distance finite.
  for (Index i = 0; i < x.rows * x.cols; ++i) {
    KESSEL_CHECK_ARG(std::isfinite(x.data[i]) && std::abs(x.data[i]) < 1e150, fn, ": x[", i / x.cols,
                     ", ", i % x.cols, "] = ", x.data[i], " is not finite (or beyond ±1e150)");
  }
}

void check_fuzzifier(const char* fn, double m) {
  KESSEL_CHECK_ARG(std::isfinite(m) && m > 1.0, fn, ": fuzzifier m must be finite and > 1, got ", m);
}

void check_fuzzy_options(const char* fn, MatrixView x, const FcmOptions& o) {
  if (o.precision == Precision::kDouble) {
    check_data(fn, x);
  } else {  // pack_float_blocks checks the values in the pass that converts them
    KESSEL_CHECK_ARG(x.rows >= 1 && x.cols >= 1 && x.data != nullptr, fn,
                     ": x must be a non-empty [N, D] matrix, got [", x.rows, ", ", x.cols, "]");
  }
  KESSEL_CHECK_ARG(o.clusters >= 1, fn, ": clusters must be >= 1, got ", o.clusters);
  KESSEL_CHECK_ARG(o.clusters <= x.rows, fn, ": clusters = ", o.clusters, " exceeds the ", x.rows,
                   " points");
  check_fuzzifier(fn, o.m);
  // A point's largest membership is >= 1/c, so its weight u^m stays a normal number while
  // m ln c < -ln(smallest normal). Beyond that every weight can round to 0 and the centres stop
  // meaning anything (m = 1e6 left them at the origin, "converged").
  if (o.clusters >= 2) {
    const bool single = o.precision == Precision::kFloat32;
    const double limit = -std::log(single ? static_cast<double>(FLT_MIN) : DBL_MIN) /
                         std::log(static_cast<double>(o.clusters));
    KESSEL_CHECK_ARG(o.m < limit, fn, ": fuzzifier m = ", o.m, " is too large for ", o.clusters, " clusters: u^m ",
                     "underflows ", single ? "float32" : "double", " precision (m must be < ", limit,
                     ")");
  }
  KESSEL_CHECK_ARG(std::isfinite(o.tol) && o.tol >= 0, fn, ": tol must be finite and >= 0, got ",
                   o.tol);
  KESSEL_CHECK_ARG(o.max_iter >= 1, fn, ": max_iter must be >= 1, got ", o.max_iter);
  KESSEL_CHECK_ARG(o.n_init >= 1, fn, ": n_init must be >= 1, got ", o.n_init);
  if (o.init == Init::kGivenCentres) {
    const Index want = o.clusters * x.cols;
    KESSEL_CHECK_ARG(static_cast<Index>(o.init_centres.size()) == want, fn, ": init centres have ",
                     o.init_centres.size(), " values, expected clusters*D = ", o.clusters, "*",
                     x.cols, " = ", want);
    KESSEL_CHECK_ARG(o.n_init == 1, fn, ": n_init = ", o.n_init,
                     " but given initial centres make every restart identical; use n_init = 1");
    for (double value : o.init_centres) {
      KESSEL_CHECK_ARG(std::isfinite(value) && std::abs(value) < 1e150, fn,
                       ": init centres contain a non-finite value ", value);
    }
  } else {
    KESSEL_CHECK_ARG(o.init_centres.empty(), fn, ": init centres given but init is not 'centres'");
  }
}

double data_spread(MatrixView x) {
  // Row-major passes (means, then squared deviations): column-wise loops would stride through X.
  const Index n = x.rows, d = x.cols;
  std::vector<double> mean(static_cast<size_t>(d), 0.0), var(static_cast<size_t>(d), 0.0);
  for (Index i = 0; i < n; ++i)
    for (Index k = 0; k < d; ++k) mean[k] += x.at(i, k);
  for (double& value : mean) value /= static_cast<double>(n);
  for (Index i = 0; i < n; ++i)
    for (Index k = 0; k < d; ++k) var[k] += (x.at(i, k) - mean[k]) * (x.at(i, k) - mean[k]);
  double total = 0;
  for (double value : var) total += value / static_cast<double>(n);
  const double spread = std::sqrt(total / static_cast<double>(d));
  return spread > 0 ? spread : 1.0;
}

double max_abs_change(const std::vector<double>& a, const std::vector<double>& b) {
  double m = 0;
  for (size_t e = 0; e < a.size(); ++e) m = std::max(m, std::abs(a[e] - b[e]));
  return m;
}

void random_memberships(double* u, Index n, Index c, std::mt19937_64& rng) {
  for (Index i = 0; i < n; ++i) {
    double total = 0;
    for (Index j = 0; j < c; ++j) total += u[j * n + i] = uniform_open01(rng);
    for (Index j = 0; j < c; ++j) u[j * n + i] /= total;
  }
}

std::vector<double> to_point_major(const std::vector<double>& u, Index n, Index c) {
  std::vector<double> out(u.size());
  for (Index j = 0; j < c; ++j)
    for (Index i = 0; i < n; ++i) out[i * c + j] = u[j * n + i];
  return out;
}

std::vector<double> kmeans_plus_plus(MatrixView x, Index c, std::mt19937_64& rng) {
  const Index n = x.rows, d = x.cols;
  std::vector<double> centres(static_cast<size_t>(c * d));
  std::vector<double> nearest(static_cast<size_t>(n), std::numeric_limits<double>::infinity());
  Index pick = std::min<Index>(n - 1, static_cast<Index>(uniform_open01(rng) * static_cast<double>(n)));
  for (Index j = 0; j < c; ++j) {
    std::copy(x.data + pick * d, x.data + (pick + 1) * d, centres.begin() + j * d);
    double total = 0;
    for (Index i = 0; i < n; ++i) {
      double s = 0;
      for (Index k = 0; k < d; ++k) {
        const double diff = x.at(i, k) - centres[static_cast<size_t>(j * d + k)];
        s += diff * diff;
      }
      nearest[static_cast<size_t>(i)] = std::min(nearest[static_cast<size_t>(i)], s);
      total += nearest[static_cast<size_t>(i)];
    }
    if (j + 1 == c) break;
    if (total == 0) {  // fewer distinct points than clusters: any point is as good as another
      pick = std::min<Index>(n - 1, static_cast<Index>(uniform_open01(rng) * static_cast<double>(n)));
      continue;
    }
    const double target = uniform_open01(rng) * total;
    double running = 0;
    pick = n - 1;
    for (Index i = 0; i < n; ++i) {
      running += nearest[static_cast<size_t>(i)];
      if (running > target && nearest[static_cast<size_t>(i)] > 0) {
        pick = i;
        break;
      }
    }
    while (nearest[static_cast<size_t>(pick)] == 0) --pick;  // rounding at the end of the scan
  }
  return centres;
}

namespace {
// Per-chunk partial sums, added in chunk order after the parallel loop.
struct Partials {
  std::vector<double> centre_sums, weights, objective;
  Partials(Index chunks, Index c, Index d)
      : centre_sums(static_cast<size_t>(chunks * c * d), 0.0),
        weights(static_cast<size_t>(chunks * c), 0.0),
        objective(static_cast<size_t>(chunks), 0.0) {}

  SweepResult reduce(Index chunks, Index c, Index d) const {
    SweepResult r;
    r.centre_sums.assign(static_cast<size_t>(c * d), 0.0);
    r.weights.assign(static_cast<size_t>(c), 0.0);
    for (Index k = 0; k < chunks; ++k) {
      for (Index e = 0; e < c * d; ++e) r.centre_sums[e] += centre_sums[k * c * d + e];
      for (Index j = 0; j < c; ++j) r.weights[j] += weights[k * c + j];
      r.objective += objective[k];
    }
    return r;
  }
};

// Reductions with eight independent lanes: they vectorize without -ffast-math, and their order depends
// only on n, so results stay independent of the thread count.
double sum_lanes(const double* a, Index n) {
  double lane[8] = {0, 0, 0, 0, 0, 0, 0, 0};
  Index i = 0;
  for (; i + 8 <= n; i += 8)
    for (int k = 0; k < 8; ++k) lane[k] += a[i + k];
  for (; i < n; ++i) lane[0] += a[i];
  return ((lane[0] + lane[1]) + (lane[2] + lane[3])) + ((lane[4] + lane[5]) + (lane[6] + lane[7]));
}

double dot_lanes(const double* a, const double* b, Index n) {
  double lane[8] = {0, 0, 0, 0, 0, 0, 0, 0};
  Index i = 0;
  for (; i + 8 <= n; i += 8)
    for (int k = 0; k < 8; ++k) lane[k] += a[i + k] * b[i + k];
  for (; i < n; ++i) lane[0] += a[i] * b[i];
  return ((lane[0] + lane[1]) + (lane[2] + lane[3])) + ((lane[4] + lane[5]) + (lane[6] + lane[7]));
}

// sums[C, D] += um[C, B] · x[B, D]; weights[C] += row sums of um.
void accumulate_centre_sums(double* sums, double* weights, const double* um, const double* x,
                            Index b, Index c, Index d) {
  cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, static_cast<int>(c), static_cast<int>(d),
              static_cast<int>(b), 1.0, um, static_cast<int>(b), x, static_cast<int>(d), 1.0, sums,
              static_cast<int>(d));
  for (Index j = 0; j < c; ++j) weights[j] += sum_lanes(um + j * b, b);
}
}  // namespace

SweepResult membership_sweep(MatrixView x, Index c, double m, const BlockDistances& distances,
                             Index scratch_per_row, double* u, int threads) {
  const Index d = x.cols;
  const Chunks chunks(x.rows);
  Partials partials(chunks.count, c, d);
#pragma omp parallel num_threads(std::min<Index>(resolve_threads(threads), chunks.count))
  {
    std::vector<double> d2(static_cast<size_t>(kBlockRows * c));
    std::vector<double> fresh(static_cast<size_t>(kBlockRows * c));
    std::vector<double> um(static_cast<size_t>(kBlockRows * c));
    std::vector<double> scratch(static_cast<size_t>(std::max<Index>(1, kBlockRows * scratch_per_row)));
#pragma omp for schedule(dynamic, 1)
    for (Index k = 0; k < chunks.count; ++k) {
      double objective = 0;
      for (Index row0 = chunks.begin(k); row0 < chunks.end(k); row0 += kBlockRows) {
        const Index b = std::min(kBlockRows, chunks.end(k) - row0);
        distances(d2.data(), row0, b, scratch.data());
        fuzzy_memberships(fresh.data(), d2.data(), b, c, m);
        if (m == 2.0) {  // the common case, without pow
          for (Index e = 0; e < b * c; ++e) um[e] = fresh[e] * fresh[e];
        } else {
          for (Index e = 0; e < b * c; ++e) um[e] = std::pow(fresh[e], m);
        }
        objective += dot_lanes(um.data(), d2.data(), b * c);
        if (u != nullptr) {
          for (Index j = 0; j < c; ++j) {
            std::copy(fresh.data() + j * b, fresh.data() + (j + 1) * b, u + j * x.rows + row0);
          }
        }
        accumulate_centre_sums(&partials.centre_sums[k * c * d], &partials.weights[k * c], um.data(),
                               x.data + row0 * d, b, c, d);
      }
      partials.objective[k] = objective;
    }
  }
  return partials.reduce(chunks.count, c, d);
}

void predict_memberships(double* u, Index n, Index c, double m, const BlockDistances& distances,
                         Index scratch_per_row, int threads) {
  const Chunks chunks(n);
#pragma omp parallel num_threads(std::min<Index>(resolve_threads(threads), chunks.count))
  {
    std::vector<double> d2(static_cast<size_t>(kBlockRows * c));
    std::vector<double> block(static_cast<size_t>(kBlockRows * c));
    std::vector<double> scratch(static_cast<size_t>(std::max<Index>(1, kBlockRows * scratch_per_row)));
#pragma omp for schedule(dynamic, 1)
    for (Index k = 0; k < chunks.count; ++k) {
      for (Index row0 = chunks.begin(k); row0 < chunks.end(k); row0 += kBlockRows) {
        const Index b = std::min(kBlockRows, chunks.end(k) - row0);
        distances(d2.data(), row0, b, scratch.data());
        fuzzy_memberships(block.data(), d2.data(), b, c, m);
        for (Index i = 0; i < b; ++i)
          for (Index j = 0; j < c; ++j) u[(row0 + i) * c + j] = block[j * b + i];
      }
    }
  }
}

SweepResult centre_sums_from_memberships(MatrixView x, const double* u, Index c, double m,
                                         int threads) {
  const Index d = x.cols;
  const Chunks chunks(x.rows);
  Partials partials(chunks.count, c, d);
#pragma omp parallel num_threads(std::min<Index>(resolve_threads(threads), chunks.count))
  {
    std::vector<double> um(static_cast<size_t>(kBlockRows * c));
#pragma omp for schedule(dynamic, 1)
    for (Index k = 0; k < chunks.count; ++k) {
      for (Index row0 = chunks.begin(k); row0 < chunks.end(k); row0 += kBlockRows) {
        const Index b = std::min(kBlockRows, chunks.end(k) - row0);
        for (Index j = 0; j < c; ++j)
          for (Index i = 0; i < b; ++i) um[j * b + i] = fuzzy_power(u[j * x.rows + row0 + i], m);
        accumulate_centre_sums(&partials.centre_sums[k * c * d], &partials.weights[k * c], um.data(),
                               x.data + row0 * d, b, c, d);
      }
    }
  }
  return partials.reduce(chunks.count, c, d);
}

void centres_from_sums(double* centres, const SweepResult& sums, Index c, Index d) {
  for (Index j = 0; j < c; ++j) {
    const double w = sums.weights[static_cast<size_t>(j)];
    if (!(w > 0)) continue;
    for (Index k = 0; k < d; ++k) centres[j * d + k] = sums.centre_sums[static_cast<size_t>(j * d + k)] / w;
  }
}

}  // namespace kessel::cluster
