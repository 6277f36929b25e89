// Cluster-validity indices of a fuzzy partition (Bezdek's partition coefficient and entropy; Xie and
// Beni 1991, with the fuzzifier m in place of their fixed 2, as in Pal and Bezdek 1995).
#include <cmath>
#include <limits>

#include "cluster/membership.h"
#include "kessel/cluster.h"

namespace kessel::cluster {

namespace {
void check_memberships(const char* fn, MatrixView u) {
  KESSEL_CHECK_ARG(u.rows >= 1 && u.cols >= 1 && u.data != nullptr, fn,
                   ": memberships must be a non-empty [N, C] matrix, got [", u.rows, ", ", u.cols, "]");
  for (Index e = 0; e < u.rows * u.cols; ++e) {
    KESSEL_CHECK_ARG(std::isfinite(u.data[e]) && u.data[e] >= 0 && u.data[e] <= 1, fn, ": u[",
                     e / u.cols, ", ", e % u.cols, "] = ", u.data[e], " is not in [0, 1]");
  }
}
}  // namespace

double partition_coefficient(MatrixView u) {
  check_memberships("partition_coefficient", u);
  double s = 0;
  for (Index e = 0; e < u.rows * u.cols; ++e) s += u.data[e] * u.data[e];
  return s / static_cast<double>(u.rows);
}

double partition_entropy(MatrixView u) {
  check_memberships("partition_entropy", u);
  double s = 0;
  for (Index e = 0; e < u.rows * u.cols; ++e) {
    if (u.data[e] > 0) s -= u.data[e] * std::log(u.data[e]);  // 0 ln 0 = 0
  }
  return s / static_cast<double>(u.rows);
}

double xie_beni(MatrixView x, MatrixView u, MatrixView centres, double m) {
  check_memberships("xie_beni", u);
  KESSEL_CHECK_ARG(std::isfinite(m) && m > 1, "xie_beni: fuzzifier m must be finite and > 1, got ", m);
  KESSEL_CHECK_ARG(x.data != nullptr && x.rows == u.rows, "xie_beni: x has ", x.rows,
                   " rows but memberships have ", u.rows);
  KESSEL_CHECK_ARG(centres.data != nullptr && centres.rows == u.cols && centres.cols == x.cols,
                   "xie_beni: centres are [", centres.rows, ", ", centres.cols, "], expected [", u.cols,
                   ", ", x.cols, "]");
  KESSEL_CHECK_ARG(centres.rows >= 2, "xie_beni: needs at least 2 clusters, got ", centres.rows);
  const Index n = x.rows, d = x.cols, c = centres.rows;
  auto squared_distance = [d](const double* a, const double* b) {
    double s = 0;
    for (Index k = 0; k < d; ++k) s += (a[k] - b[k]) * (a[k] - b[k]);
    return s;
  };
  double compactness = 0;
  for (Index i = 0; i < n; ++i) {
    for (Index j = 0; j < c; ++j) {
      compactness += fuzzy_power(u.at(i, j), m) * squared_distance(x.data + i * d, centres.data + j * d);
    }
  }
  double separation = std::numeric_limits<double>::infinity();
  for (Index j = 0; j < c; ++j) {
    for (Index l = j + 1; l < c; ++l) {
      separation = std::min(separation, squared_distance(centres.data + j * d, centres.data + l * d));
    }
  }
  if (separation == 0) return std::numeric_limits<double>::infinity();
  return compactness / (static_cast<double>(n) * separation);
}

}  // namespace kessel::cluster
