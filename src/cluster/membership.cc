#include "cluster/membership.h"

#include <algorithm>
#include <cmath>

namespace kessel::cluster {

namespace {
// Rows with exact matches: crisp membership shared equally among the coincident centres.
bool crisp_if_exact(double* u, const double* d2, Index c) {
  Index zeros = 0;
  for (Index j = 0; j < c; ++j) zeros += d2[j] == 0.0;
  if (zeros == 0) return false;
  const double share = 1.0 / static_cast<double>(zeros);
  for (Index j = 0; j < c; ++j) u[j] = d2[j] == 0.0 ? share : 0.0;
  return true;
}
}  // namespace

void fuzzy_memberships(double* u, const double* d2, Index b, Index c, double m) {
  const double exponent = 1.0 / (m - 1.0);
  for (Index i = 0; i < b; ++i) {
    const double* drow = d2 + i * c;
    double* urow = u + i * c;
    if (crisp_if_exact(urow, drow, c)) continue;
    const double dmin = *std::min_element(drow, drow + c);
    double total = 0;
    if (m == 2.0) {
      for (Index j = 0; j < c; ++j) total += urow[j] = dmin / drow[j];
    } else {
      for (Index j = 0; j < c; ++j) total += urow[j] = std::pow(dmin / drow[j], exponent);
    }
    const double inv = 1.0 / total;  // total >= 1: the nearest centre contributes exactly 1
    for (Index j = 0; j < c; ++j) urow[j] *= inv;
  }
}

void fuzzy_memberships_reference(double* u, const double* d2, Index b, Index c, double m) {
  for (Index i = 0; i < b; ++i) {
    const double* drow = d2 + i * c;
    double* urow = u + i * c;
    if (crisp_if_exact(urow, drow, c)) continue;
    for (Index j = 0; j < c; ++j) {
      double s = 0;
      for (Index l = 0; l < c; ++l) s += std::pow(drow[j] / drow[l], 1.0 / (m - 1.0));
      urow[j] = 1.0 / s;
    }
  }
}

}  // namespace kessel::cluster
