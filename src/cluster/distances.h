// Squared distances from a block of points to all centres: the fast GEMM form, a plain reference, and
// the Mahalanobis form used by Gustafson–Kessel. Internal to the cluster area.
//
// Outputs are cluster-major, d2[C, B] (entry j * B + i): the per-point reductions that follow (min,
// sum over clusters) then run along contiguous rows of length B and vectorize, where rows of length C
// (often 2–8) would not.
#pragma once

#include "kessel/tensor.h"

namespace kessel::cluster {

// d2[C, B] = ‖x_i − v_j‖² via one dgemm: ‖x‖² + ‖v‖² − 2 x·v, clamped at 0. Where the result is below
// kCancellationRatio·(‖x‖² + ‖v‖²) the identity has lost most of its digits to cancellation, so that
// entry is recomputed directly as Σ (x − v)²; this also makes a point lying on a centre give exactly 0.
// x [B, D], v [C, D], x_norms [B] = ‖x_i‖², v_norms [C] = ‖v_j‖².
inline constexpr double kCancellationRatio = 1e-5;
void squared_distances_gemm(double* d2, const double* x, const double* x_norms, Index b,
                            const double* v, const double* v_norms, Index c, Index d);

// The plain version the GEMM form is tested against: d2[C, B] = Σ_k (x_ik − v_jk)².
void squared_distances_reference(double* d2, const double* x, Index b, const double* v, Index c,
                                 Index d);

// norms[B] = ‖x_i‖².
void squared_row_norms(double* norms, const double* x, Index b, Index d);

// d2[C, B] = (x_i − v_j)ᵀ A_j (x_i − v_j), clamped at 0. a [C, D, D] symmetric positive definite.
// scratch holds 2·B·D doubles (the differences and their product with A_j, a dgemm per cluster).
void mahalanobis_distances(double* d2, const double* x, Index b, const double* v, const double* a,
                           Index c, Index d, double* scratch);

// Plain version: direct double loop per entry.
void mahalanobis_distances_reference(double* d2, const double* x, Index b, const double* v,
                                     const double* a, Index c, Index d);

}  // namespace kessel::cluster
