// Eigendecomposition of a small symmetric matrix by the cyclic Jacobi method: plane rotations zero
// one off-diagonal entry at a time until none is significant. O(n³) per sweep and a handful of sweeps,
// which is nothing for GK's D×D covariances, and it keeps small eigenvalues to high relative accuracy
// (what the condition-number cap looks at). Internal to the cluster area.
#pragma once

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

}  // namespace kessel::cluster
