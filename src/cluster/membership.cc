#include "cluster/membership.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

namespace kessel::cluster {

namespace {
// Point i lies exactly on k >= 1 centres: crisp membership shared equally among them.
void crisp_column(double* u, const double* d2, Index i, Index b, Index c) {
  Index zeros = 0;
  for (Index j = 0; j < c; ++j) zeros += d2[j * b + i] == 0.0;
  const double share = 1.0 / static_cast<double>(zeros);
  for (Index j = 0; j < c; ++j) u[j * b + i] = d2[j * b + i] == 0.0 ? share : 0.0;
}
}  // namespace

void fuzzy_memberships(double* u, const double* d2, Index b, Index c, double m) {
  // Every loop runs along the B points of one cluster row, contiguous, so it vectorizes.
  std::vector<double> dmin(static_cast<size_t>(b), std::numeric_limits<double>::infinity());
  std::vector<double> total(static_cast<size_t>(b), 0.0);
  for (Index j = 0; j < c; ++j) {
    for (Index i = 0; i < b; ++i) dmin[i] = std::min(dmin[i], d2[j * b + i]);
  }
  const double exponent = 1.0 / (m - 1.0);
  for (Index j = 0; j < c; ++j) {
    const double* drow = d2 + j * b;
    double* urow = u + j * b;
    if (m == 2.0) {
      for (Index i = 0; i < b; ++i) urow[i] = dmin[i] / drow[i];
    } else {
      for (Index i = 0; i < b; ++i) urow[i] = std::pow(dmin[i] / drow[i], exponent);
    }
    for (Index i = 0; i < b; ++i) total[i] += urow[i];
  }
  for (Index i = 0; i < b; ++i) total[i] = 1.0 / total[i];  // total >= 1: the nearest gives 1
  for (Index j = 0; j < c; ++j) {
    for (Index i = 0; i < b; ++i) u[j * b + i] *= total[i];
  }
  for (Index i = 0; i < b; ++i) {
    if (dmin[i] == 0.0) crisp_column(u, d2, i, b, c);  // the ratios above were 0/0 there
  }
}

void fuzzy_memberships_reference(double* u, const double* d2, Index b, Index c, double m) {
  for (Index i = 0; i < b; ++i) {
    bool exact = false;
    for (Index j = 0; j < c; ++j) exact = exact || d2[j * b + i] == 0.0;
    if (exact) {
      crisp_column(u, d2, i, b, c);
      continue;
    }
    for (Index j = 0; j < c; ++j) {
      double s = 0;
      for (Index l = 0; l < c; ++l) s += std::pow(d2[j * b + i] / d2[l * b + i], 1.0 / (m - 1.0));
      u[j * b + i] = 1.0 / s;
    }
  }
}

}  // namespace kessel::cluster
