#include "cluster/distances.h"

#include <cblas.h>

#include <algorithm>

namespace kessel::cluster {

void squared_row_norms(double* norms, const double* x, Index b, Index d) {
  for (Index i = 0; i < b; ++i) {
    const double* xi = x + i * d;
    double s = 0;
    for (Index k = 0; k < d; ++k) s += xi[k] * xi[k];
    norms[i] = s;
  }
}

namespace {
double direct_squared_distance(const double* a, const double* b, Index d) {
  double s = 0;
  for (Index k = 0; k < d; ++k) {
    const double diff = a[k] - b[k];
    s += diff * diff;
  }
  return s;
}
}  // namespace

void squared_distances_gemm(double* d2, const double* x, const double* x_norms, Index b,
                            const double* v, const double* v_norms, Index c, Index d) {
  // d2 = -2 V Xᵀ. Blocks are small enough (m·n·k well under OpenBLAS's threading threshold) that the
  // call runs single-threaded inside our OpenMP workers: no oversubscription, no thread-count effects.
  cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasTrans, static_cast<int>(c), static_cast<int>(b),
              static_cast<int>(d), -2.0, v, static_cast<int>(d), x, static_cast<int>(d), 0.0, d2,
              static_cast<int>(b));
  bool cancelled = false;
  for (Index j = 0; j < c; ++j) {
    double* row = d2 + j * b;
    const double vn = v_norms[j];
    for (Index i = 0; i < b; ++i) {
      const double scale = x_norms[i] + vn;
      const double value = row[i] + scale;
      cancelled |= value < kCancellationRatio * scale;
      row[i] = value;
    }
  }
  if (cancelled) {  // rare: a point close to a centre relative to their norms
    for (Index j = 0; j < c; ++j) {
      for (Index i = 0; i < b; ++i) {
        double& value = d2[j * b + i];
        if (value < kCancellationRatio * (x_norms[i] + v_norms[j])) {
          value = direct_squared_distance(x + i * d, v + j * d, d);
        }
      }
    }
  }
}

void squared_distances_reference(double* d2, const double* x, Index b, const double* v, Index c,
                                 Index d) {
  for (Index j = 0; j < c; ++j) {
    for (Index i = 0; i < b; ++i) d2[j * b + i] = direct_squared_distance(x + i * d, v + j * d, d);
  }
}

void mahalanobis_distances(double* d2, const double* x, Index b, const double* v, const double* a,
                           Index c, Index d, double* scratch) {
  double* diff = scratch;             // [B, D]
  double* product = scratch + b * d;  // [B, D] = diff · A_j
  for (Index j = 0; j < c; ++j) {
    const double* vj = v + j * d;
    for (Index i = 0; i < b; ++i) {
      for (Index k = 0; k < d; ++k) diff[i * d + k] = x[i * d + k] - vj[k];
    }
    cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, static_cast<int>(b), static_cast<int>(d),
                static_cast<int>(d), 1.0, diff, static_cast<int>(d), a + j * d * d,
                static_cast<int>(d), 0.0, product, static_cast<int>(d));
    for (Index i = 0; i < b; ++i) {
      double s = 0;
      for (Index k = 0; k < d; ++k) s += diff[i * d + k] * product[i * d + k];
      d2[j * b + i] = std::max(s, 0.0);  // A_j is positive definite: negatives are rounding
    }
  }
}

void mahalanobis_distances_reference(double* d2, const double* x, Index b, const double* v,
                                     const double* a, Index c, Index d) {
  for (Index j = 0; j < c; ++j) {
    const double* aj = a + j * d * d;
    for (Index i = 0; i < b; ++i) {
      double s = 0;
      for (Index p = 0; p < d; ++p) {
        for (Index q = 0; q < d; ++q) {
          s += (x[i * d + p] - v[j * d + p]) * aj[p * d + q] * (x[i * d + q] - v[j * d + q]);
        }
      }
      d2[j * b + i] = std::max(s, 0.0);
    }
  }
}

}  // namespace kessel::cluster
