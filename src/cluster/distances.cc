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

void squared_distances_gemm(double* d2, const double* x, const double* x_norms, Index b,
                            const double* v, const double* v_norms, Index c, Index d) {
  // d2 = -2 X Vᵀ; the blocks are small enough that OpenBLAS runs this single-threaded, so calling it
  // from inside our OpenMP workers neither oversubscribes nor changes results with the thread count.
  cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasTrans, static_cast<int>(b), static_cast<int>(c),
              static_cast<int>(d), -2.0, x, static_cast<int>(d), v, static_cast<int>(d), 0.0, d2,
              static_cast<int>(c));
  for (Index i = 0; i < b; ++i) {
    double* row = d2 + i * c;
    for (Index j = 0; j < c; ++j) {
      const double scale = x_norms[i] + v_norms[j];
      double value = row[j] + scale;
      if (value < kCancellationRatio * scale) {
        const double* xi = x + i * d;
        const double* vj = v + j * d;
        value = 0;
        for (Index k = 0; k < d; ++k) {
          const double diff = xi[k] - vj[k];
          value += diff * diff;
        }
      }
      row[j] = std::max(value, 0.0);
    }
  }
}

void squared_distances_reference(double* d2, const double* x, Index b, const double* v, Index c,
                                 Index d) {
  for (Index i = 0; i < b; ++i) {
    for (Index j = 0; j < c; ++j) {
      double s = 0;
      for (Index k = 0; k < d; ++k) {
        const double diff = x[i * d + k] - v[j * d + k];
        s += diff * diff;
      }
      d2[i * c + j] = s;
    }
  }
}

void mahalanobis_distances(double* d2, const double* x, Index b, const double* v, const double* a,
                           Index c, Index d, double* scratch) {
  double* diff = scratch;         // [B, D]
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
      d2[i * c + j] = std::max(s, 0.0);  // A_j is positive definite: negatives are rounding
    }
  }
}

void mahalanobis_distances_reference(double* d2, const double* x, Index b, const double* v,
                                     const double* a, Index c, Index d) {
  for (Index i = 0; i < b; ++i) {
    for (Index j = 0; j < c; ++j) {
      const double* aj = a + j * d * d;
      double s = 0;
      for (Index p = 0; p < d; ++p) {
        for (Index q = 0; q < d; ++q) {
          s += (x[i * d + p] - v[j * d + p]) * aj[p * d + q] * (x[i * d + q] - v[j * d + q]);
        }
      }
      d2[i * c + j] = std::max(s, 0.0);
    }
  }
}

}  // namespace kessel::cluster
