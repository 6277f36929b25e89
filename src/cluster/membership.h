// Fuzzy memberships from squared distances: u_ij = 1 / Σ_l (d²_ij / d²_il)^(1/(m−1)).
//
// The exponent acts on *squared* distances, so it is 1/(m−1); the seed article's code raised d² to
// 2/(m−1), which squares the intended exponent (for m = 2 it gives 1/d⁴ weights instead of 1/d²).
// A point at squared distance exactly 0 from k centres belongs to them crisply, 1/k each.
#pragma once

#include <cmath>

#include "kessel/tensor.h"

namespace kessel::cluster {

// u[C, B] from d2[C, B] (cluster-major, as the distance kernels write it). Fast form: w_l = (d²_min / d²_l)^(1/(m−1)) ∈ (0, 1], u = w / Σ w — one power
// per entry instead of C, and no overflow for tiny distances or m close to 1. m == 2 avoids pow.
void fuzzy_memberships(double* u, const double* d2, Index b, Index c, double m);

// The textbook double sum, kept as the reference the fast form is tested against.
void fuzzy_memberships_reference(double* u, const double* d2, Index b, Index c, double m);

// u^m with the m == 2 case exact and cheap.
inline double fuzzy_power(double u, double m) { return m == 2.0 ? u * u : std::pow(u, m); }

}  // namespace kessel::cluster
