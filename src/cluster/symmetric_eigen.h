// Eigendecomposition of a symmetric matrix, two ways. The cyclic Jacobi method (plane rotations
// zero one off-diagonal entry at a time until none is significant) is the reference: short, and it
// keeps small eigenvalues of graded matrices to high relative accuracy, but its sweeps walk columns
// and cost ~10 n³ scalar operations each (4 s at n = 400). LAPACK's dsyevd (OpenBLAS) is what GK
// uses: blocked tridiagonalisation and divide and conquer on level-3 BLAS; eigenvalues to absolute
// accuracy ~eps·‖A‖, which is what the condition-number cap λ_max/β needs for β up to ~1/(n·eps).
// Internal to the cluster area.
#pragma once

#include <optional>
#include <vector>

#include "kessel/tensor.h"

namespace kessel::cluster {

struct SymmetricEigen {
  std::vector<double> values;   // [n], descending
  std::vector<double> vectors;  // [n, n] row-major; column k is the unit eigenvector of values[k]
};

// `a` is [n, n] row-major and must be symmetric (only checked for finiteness). Throws
// InvalidArgument for non-finite input, Error if the sweeps fail to converge (never seen in practice).
SymmetricEigen symmetric_eigen(const double* a, Index n);

// The same decomposition by dsyevd; with vectors = false only the values (vectors stays empty).
// Throws InvalidArgument for non-finite input, Error if LAPACK reports a failure.
SymmetricEigen symmetric_eigen_lapack(const double* a, Index n, bool vectors = true);

// log det of a symmetric positive definite `a` [n, n] by Cholesky (dpotrf, n³/3 operations);
// nullopt when the factorisation breaks down (not positive definite to working precision).
std::optional<double> log_det_cholesky(const double* a, Index n);

}  // namespace kessel::cluster
