#include "hmm/linalg.h"

#include <algorithm>
#include <cmath>
#include <vector>

namespace kessel::hmm::detail {

Index cholesky(double* L, const double* A, Index D, double* pivot) {
  std::fill(L, L + D * D, 0.0);
  for (Index j = 0; j < D; ++j) {
    double d = A[j * D + j];
    for (Index k = 0; k < j; ++k) d -= L[j * D + k] * L[j * D + k];
    if (!(d > 0.0) || !std::isfinite(d)) {
      *pivot = d;
      return j;
    }
    const double ljj = std::sqrt(d);
    L[j * D + j] = ljj;
    for (Index i = j + 1; i < D; ++i) {
      double v = A[i * D + j];
      for (Index k = 0; k < j; ++k) v -= L[i * D + k] * L[j * D + k];
      L[i * D + j] = v / ljj;
    }
  }
  return -1;
}

void lower_triangular_inverse(double* Linv, const double* L, Index D) {
  std::fill(Linv, Linv + D * D, 0.0);
  for (Index c = 0; c < D; ++c) {  // column c of L^-1: solve L x = e_c by forward substitution
    Linv[c * D + c] = 1.0 / L[c * D + c];
    for (Index i = c + 1; i < D; ++i) {
      double v = 0.0;
      for (Index k = c; k < i; ++k) v -= L[i * D + k] * Linv[k * D + c];
      Linv[i * D + c] = v / L[i * D + i];
    }
  }
}

void symmetric_eigen(double* w, double* V, const double* A_in, Index D) {
  std::vector<double> A(A_in, A_in + D * D);
  std::fill(V, V + D * D, 0.0);
  for (Index i = 0; i < D; ++i) V[i * D + i] = 1.0;
  double total = 0.0;
  for (Index i = 0; i < D * D; ++i) total += A[i] * A[i];
  for (int sweep = 0; sweep < 100; ++sweep) {
    double off = 0.0;
    for (Index p = 0; p < D; ++p)
      for (Index q = p + 1; q < D; ++q) off += 2.0 * A[p * D + q] * A[p * D + q];
    if (off <= 1e-30 * total) break;
    for (Index p = 0; p < D; ++p) {
      for (Index q = p + 1; q < D; ++q) {
        const double apq = A[p * D + q];
        if (apq == 0.0) continue;
        // The rotation that zeroes A[p, q] (Golub & Van Loan, sym.schur2).
        const double tau = (A[q * D + q] - A[p * D + p]) / (2.0 * apq);
        const double t = (tau >= 0.0 ? 1.0 : -1.0) / (std::fabs(tau) + std::sqrt(1.0 + tau * tau));
        const double c = 1.0 / std::sqrt(1.0 + t * t), s = t * c;
        for (Index k = 0; k < D; ++k) {  // A <- A J (columns p, q)
          const double akp = A[k * D + p], akq = A[k * D + q];
          A[k * D + p] = c * akp - s * akq;
          A[k * D + q] = s * akp + c * akq;
        }
        for (Index k = 0; k < D; ++k) {  // A <- J^T A (rows p, q)
          const double apk = A[p * D + k], aqk = A[q * D + k];
          A[p * D + k] = c * apk - s * aqk;
          A[q * D + k] = s * apk + c * aqk;
        }
        for (Index k = 0; k < D; ++k) {  // V <- V J
          const double vkp = V[k * D + p], vkq = V[k * D + q];
          V[k * D + p] = c * vkp - s * vkq;
          V[k * D + q] = s * vkp + c * vkq;
        }
      }
    }
  }
  for (Index i = 0; i < D; ++i) w[i] = A[i * D + i];
}

void floor_eigenvalues(double* C, Index D, double floor) {
  for (Index i = 0; i < D; ++i)
    for (Index j = i + 1; j < D; ++j)
      C[i * D + j] = C[j * D + i] = 0.5 * (C[i * D + j] + C[j * D + i]);
  std::vector<double> w(D), V(D * D);
  symmetric_eigen(w.data(), V.data(), C, D);
  if (*std::min_element(w.begin(), w.end()) >= floor) return;  // nothing to clamp: C as estimated
  for (Index i = 0; i < D; ++i) {
    for (Index j = 0; j <= i; ++j) {
      double v = 0.0;
      for (Index k = 0; k < D; ++k) v += V[i * D + k] * std::max(w[k], floor) * V[j * D + k];
      C[i * D + j] = C[j * D + i] = v;
    }
  }
}

}  // namespace kessel::hmm::detail
