// Small dense symmetric linear algebra for full-covariance Gaussian emissions (D x D, row-major,
// D small): Cholesky factor, inverse of a triangular factor, Jacobi eigen-decomposition and the
// eigenvalue floor of Baum–Welch's M-step. Plain loops: O(D^3) per state per M-step.
#pragma once

#include "kessel/tensor.h"

namespace kessel::hmm::detail {

// A = L L^T with L lower-triangular (upper part written as 0). Returns -1 on success, else the
// first pivot d whose value (*pivot, written) is not > 0 or not finite: A is not positive definite.
Index cholesky(double* L, const double* A, Index D, double* pivot);

// Linv = L^-1 for lower-triangular L (Linv lower-triangular, upper part 0).
void lower_triangular_inverse(double* Linv, const double* L, Index D);

// A = V diag(w) V^T for symmetric A (cyclic Jacobi rotations until the off-diagonal mass is below
// 1e-30 of the total, at most 100 sweeps); V's columns are the eigenvectors.
void symmetric_eigen(double* w, double* V, const double* A, Index D);

// C <- V diag(max(w, floor)) V^T: the closest covariance (in the Gaussian M-step's objective) whose
// eigenvalues are all >= floor. Symmetrizes C first.
void floor_eigenvalues(double* C, Index D, double floor);

}  // namespace kessel::hmm::detail
