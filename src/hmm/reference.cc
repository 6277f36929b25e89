#include "hmm/reference.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>
#include <vector>

namespace kessel::hmm::reference {

namespace {

// Textbook form: -(D log 2pi + log det Sigma + (x - mu)^T Sigma^-1 (x - mu)) / 2, with det and the
// solve from Gaussian elimination with partial pivoting (not the Cholesky factor the fast path
// uses).
double full_gaussian_log_density(const Model& m, Index s, const double* x) {
  const Index D = m.dim;
  std::vector<double> A(m.covariances.begin() + s * D * D, m.covariances.begin() + (s + 1) * D * D);
  std::vector<double> b(D);
  for (Index d = 0; d < D; ++d) b[d] = x[d] - m.means[s * D + d];
  const std::vector<double> diff = b;
  double log_det = 0.0;
  for (Index c = 0; c < D; ++c) {
    Index p = c;
    for (Index r = c + 1; r < D; ++r)
      if (std::fabs(A[r * D + c]) > std::fabs(A[p * D + c])) p = r;
    if (p != c) {
      for (Index k = 0; k < D; ++k) std::swap(A[c * D + k], A[p * D + k]);
      std::swap(b[c], b[p]);
    }
    log_det += std::log(std::fabs(A[c * D + c]));
    for (Index r = c + 1; r < D; ++r) {
      const double f = A[r * D + c] / A[c * D + c];
      for (Index k = c; k < D; ++k) A[r * D + k] -= f * A[c * D + k];
      b[r] -= f * b[c];
    }
  }
  std::vector<double> y(D);  // Sigma^-1 diff by back substitution
  for (Index r = D - 1; r >= 0; --r) {
    double v = b[r];
    for (Index k = r + 1; k < D; ++k) v -= A[r * D + k] * y[k];
    y[r] = v / A[r * D + r];
  }
  double q = 0.0;
  for (Index d = 0; d < D; ++d) q += diff[d] * y[d];
  return -0.5 * (static_cast<double>(D) * std::log(2.0 * std::numbers::pi) + log_det + q);
}

}  // namespace

std::vector<double> emission_log_prob(const Model& m, SequenceView seq) {
  const Index S = m.n_states, T = seq.length;
  std::vector<double> out(T * S);
  for (Index t = 0; t < T; ++t) {
    for (Index s = 0; s < S; ++s) {
      if (m.type == EmissionType::categorical) {
        out[t * S + s] = std::log(m.emissions[s * m.n_symbols + seq.symbols[t]]);
        continue;
      }
      if (m.type == EmissionType::gaussian_full) {
        out[t * S + s] = full_gaussian_log_density(m, s, seq.values + t * m.dim);
        continue;
      }
      double lp = 0.0;
      for (Index d = 0; d < m.dim; ++d) {
        const double v = m.variances[s * m.dim + d];
        const double diff = seq.values[t * m.dim + d] - m.means[s * m.dim + d];
        lp += -0.5 * std::log(2.0 * std::numbers::pi * v) - diff * diff / (2.0 * v);
      }
      out[t * S + s] = lp;
    }
  }
  return out;
}

namespace {
double log_add(double a, double b) {
  if (a == -std::numeric_limits<double>::infinity()) return b;
  if (b == -std::numeric_limits<double>::infinity()) return a;
  const double m = std::max(a, b);
  return m + std::log(std::exp(a - m) + std::exp(b - m));
}
}  // namespace

double forward_log(std::vector<double>& la, const Model& m, SequenceView seq) {
  const Index S = m.n_states, T = seq.length;
  const auto lb = emission_log_prob(m, seq);
  la.assign(T * S, -std::numeric_limits<double>::infinity());
  for (Index s = 0; s < S; ++s) la[s] = std::log(m.start[s]) + lb[s];
  for (Index t = 1; t < T; ++t) {
    for (Index j = 0; j < S; ++j) {
      double acc = -std::numeric_limits<double>::infinity();
      for (Index i = 0; i < S; ++i) {
        acc = log_add(acc, la[(t - 1) * S + i] + std::log(m.transitions[i * S + j]));
      }
      la[t * S + j] = acc + lb[t * S + j];
    }
  }
  double total = -std::numeric_limits<double>::infinity();
  for (Index s = 0; s < S; ++s) total = log_add(total, la[(T - 1) * S + s]);
  return total;
}

double viterbi(std::vector<std::int32_t>& path, const Model& m, SequenceView seq) {
  const Index S = m.n_states, T = seq.length;
  const auto lb = emission_log_prob(m, seq);
  std::vector<double> delta(T * S);
  std::vector<std::int32_t> back(T * S, 0);
  for (Index s = 0; s < S; ++s) delta[s] = std::log(m.start[s]) + lb[s];
  for (Index t = 1; t < T; ++t) {
    for (Index j = 0; j < S; ++j) {
      double best = -std::numeric_limits<double>::infinity();
      for (Index i = 0; i < S; ++i) {
        const double c = delta[(t - 1) * S + i] + std::log(m.transitions[i * S + j]);
        if (c > best) {
          best = c;
          back[t * S + j] = static_cast<std::int32_t>(i);
        }
      }
      delta[t * S + j] = best + lb[t * S + j];
    }
  }
  path.assign(T, 0);
  for (Index s = 1; s < S; ++s) {
    if (delta[(T - 1) * S + s] > delta[(T - 1) * S + path[T - 1]]) path[T - 1] = s;
  }
  for (Index t = T - 1; t > 0; --t) path[t - 1] = back[t * S + path[t]];
  return delta[(T - 1) * S + path[T - 1]];
}

}  // namespace kessel::hmm::reference
