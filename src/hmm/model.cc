// Model construction and validation, precomputed tables, and emission log-densities.
#include <algorithm>
#include <cmath>
#include <numbers>

#include "hmm/kernels.h"
#include "hmm/linalg.h"
#include "kessel/error.h"
#include "util/parallel.h"

namespace kessel::hmm {

namespace {

void check_distribution(const double* p, Index n, const std::string& where, const char* what,
                        Index row) {
  double sum = 0.0;
  for (Index k = 0; k < n; ++k) {
    KESSEL_CHECK_ARG(std::isfinite(p[k]) && p[k] >= 0.0, where, ": ", what,
                     row >= 0 ? " row " + std::to_string(row) : std::string(), " entry ", k,
                     " is ", p[k], " (must be a finite probability >= 0)");
    sum += p[k];
  }
  KESSEL_CHECK_ARG(std::fabs(sum - 1.0) <= kProbabilityTolerance, where, ": ", what,
                   row >= 0 ? " row " + std::to_string(row) : std::string(), " sums to ", sum,
                   " (must be 1 within ", kProbabilityTolerance, ")");
}

Index infer_square(std::size_t n_start, std::size_t n_trans, const char* fn) {
  KESSEL_CHECK_ARG(n_start > 0, fn, ": start is empty (need at least one state)");
  KESSEL_CHECK_ARG(n_trans == n_start * n_start, fn, ": transitions has ", n_trans,
                   " entries but start has S=", n_start, " (need S*S=", n_start * n_start, ")");
  return static_cast<Index>(n_start);
}

}  // namespace

Model Model::categorical(std::vector<double> start, std::vector<double> transitions,
                         std::vector<double> emissions) {
  Model m;
  m.type = EmissionType::categorical;
  m.n_states = infer_square(start.size(), transitions.size(), "HMM.categorical");
  KESSEL_CHECK_ARG(!emissions.empty() && emissions.size() % start.size() == 0,
                   "HMM.categorical: emissions has ", emissions.size(),
                   " entries, not a positive multiple of S=", start.size());
  m.n_symbols = static_cast<Index>(emissions.size() / start.size());
  m.start = std::move(start);
  m.transitions = std::move(transitions);
  m.emissions = std::move(emissions);
  m.validate("HMM.categorical");
  return m;
}

Model Model::gaussian(std::vector<double> start, std::vector<double> transitions,
                      std::vector<double> means, std::vector<double> variances) {
  Model m;
  m.type = EmissionType::gaussian;
  m.n_states = infer_square(start.size(), transitions.size(), "HMM.gaussian");
  KESSEL_CHECK_ARG(!means.empty() && means.size() % start.size() == 0, "HMM.gaussian: means has ",
                   means.size(), " entries, not a positive multiple of S=", start.size());
  m.dim = static_cast<Index>(means.size() / start.size());
  m.start = std::move(start);
  m.transitions = std::move(transitions);
  m.means = std::move(means);
  m.variances = std::move(variances);
  m.validate("HMM.gaussian");
  return m;
}

Model Model::gaussian_full(std::vector<double> start, std::vector<double> transitions,
                           std::vector<double> means, std::vector<double> covariances) {
  Model m;
  m.type = EmissionType::gaussian_full;
  m.n_states = infer_square(start.size(), transitions.size(), "HMM.gaussian_full");
  KESSEL_CHECK_ARG(!means.empty() && means.size() % start.size() == 0,
                   "HMM.gaussian_full: means has ", means.size(),
                   " entries, not a positive multiple of S=", start.size());
  m.dim = static_cast<Index>(means.size() / start.size());
  m.start = std::move(start);
  m.transitions = std::move(transitions);
  m.means = std::move(means);
  m.covariances = std::move(covariances);
  m.validate("HMM.gaussian_full");
  return m;
}

const char* emission_name(EmissionType type) {
  switch (type) {
    case EmissionType::categorical:
      return "categorical";
    case EmissionType::gaussian:
      return "gaussian";
    case EmissionType::gaussian_full:
      return "gaussian-full";
  }
  return "?";
}

namespace {

// Each state's covariance: finite, symmetric, positive definite (a Cholesky factor exists).
void check_covariances(const Model& m, const std::string& where) {
  const Index S = m.n_states, D = m.dim;
  KESSEL_CHECK_ARG(static_cast<Index>(m.covariances.size()) == S * D * D, where,
                   ": covariances has ", m.covariances.size(),
                   " entries, expected S*D*D=", S * D * D);
  std::vector<double> L(D * D);
  for (Index s = 0; s < S; ++s) {
    const double* C = m.covariances.data() + s * D * D;
    for (Index i = 0; i < D; ++i) {
      for (Index j = 0; j < D; ++j) {
        const double a = C[i * D + j], b = C[j * D + i];
        KESSEL_CHECK_ARG(std::isfinite(a), where, ": covariances[", s, "][", i, "][", j, "] is ", a,
                         " (must be finite)");
        KESSEL_CHECK_ARG(
            std::fabs(a - b) <= kSymmetryTolerance * std::max({std::fabs(a), std::fabs(b), 1e-300}),
            where, ": covariances[", s, "] is not symmetric ([", i, "][", j, "] = ", a, " but [", j,
            "][", i, "] = ", b, ")");
      }
    }
    double pivot = 0.0;
    const Index bad = detail::cholesky(L.data(), C, D, &pivot);
    KESSEL_CHECK_ARG(bad < 0, where, ": covariances[", s,
                     "] is not positive definite (singular or indefinite: Cholesky pivot ", bad,
                     " is ", pivot, ")");
  }
}

}  // namespace

void Model::validate(const std::string& where) const {
  const Index S = n_states;
  KESSEL_CHECK_ARG(S >= 1, where, ": model has S=", S, " states (need >= 1)");
  KESSEL_CHECK_ARG(static_cast<Index>(start.size()) == S, where, ": start has ", start.size(),
                   " entries, expected S=", S);
  KESSEL_CHECK_ARG(static_cast<Index>(transitions.size()) == S * S, where, ": transitions has ",
                   transitions.size(), " entries, expected S*S=", S * S);
  check_distribution(start.data(), S, where, "start", -1);
  for (Index i = 0; i < S; ++i) {
    check_distribution(transitions.data() + i * S, S, where, "transitions", i);
  }
  if (type == EmissionType::categorical) {
    KESSEL_CHECK_ARG(n_symbols >= 1, where, ": categorical model has K=", n_symbols, " symbols");
    KESSEL_CHECK_ARG(static_cast<Index>(emissions.size()) == S * n_symbols, where,
                     ": emissions has ", emissions.size(), " entries, expected S*K=", S * n_symbols);
    for (Index i = 0; i < S; ++i) {
      check_distribution(emissions.data() + i * n_symbols, n_symbols, where, "emissions", i);
    }
  } else {
    KESSEL_CHECK_ARG(dim >= 1, where, ": Gaussian model has D=", dim, " dimensions");
    KESSEL_CHECK_ARG(static_cast<Index>(means.size()) == S * dim, where, ": means has ",
                     means.size(), " entries, expected S*D=", S * dim);
    for (Index i = 0; i < S * dim; ++i) {
      KESSEL_CHECK_ARG(std::isfinite(means[i]), where, ": means[", i / dim, "][", i % dim,
                       "] is ", means[i], " (must be finite)");
    }
    if (type == EmissionType::gaussian_full) {
      check_covariances(*this, where);
      return;
    }
    KESSEL_CHECK_ARG(static_cast<Index>(variances.size()) == S * dim, where, ": variances has ",
                     variances.size(), " entries, expected S*D=", S * dim);
    for (Index i = 0; i < S * dim; ++i) {
      KESSEL_CHECK_ARG(std::isfinite(variances[i]) && variances[i] > 0.0, where, ": variances[",
                       i / dim, "][", i % dim, "] is ", variances[i],
                       " (must be finite and > 0)");
    }
  }
}

std::vector<SequenceView> views(const std::vector<Sequence>& sequences) {
  std::vector<SequenceView> v;
  v.reserve(sequences.size());
  for (const auto& s : sequences) v.push_back(s.view());
  return v;
}

namespace detail {

Tables make_tables(const Model& m) {
  Tables t;
  t.type = m.type;
  t.S = m.n_states;
  t.K = m.n_symbols;
  t.D = m.dim;
  const Index S = t.S;
  t.start = m.start;
  t.log_start.resize(S);
  for (Index i = 0; i < S; ++i) t.log_start[i] = std::log(m.start[i]);
  t.trans = m.transitions;
  t.trans_t.resize(S * S);
  t.log_trans.resize(S * S);
  t.log_trans_t.resize(S * S);
  for (Index i = 0; i < S; ++i) {
    for (Index j = 0; j < S; ++j) {
      t.trans_t[j * S + i] = m.transitions[i * S + j];
      t.log_trans[i * S + j] = std::log(m.transitions[i * S + j]);
      t.log_trans_t[j * S + i] = t.log_trans[i * S + j];
    }
  }
  if (m.type == EmissionType::categorical) {
    t.log_emis_t.resize(t.K * S);
    for (Index s = 0; s < S; ++s) {
      for (Index k = 0; k < t.K; ++k) t.log_emis_t[k * S + s] = std::log(m.emissions[s * t.K + k]);
    }
  } else if (m.type == EmissionType::gaussian_full) {
    const Index D = t.D;
    t.means = m.means;
    t.chol_inv.resize(S * D * D);
    t.log_norm.resize(S);
    std::vector<double> L(D * D);
    for (Index s = 0; s < S; ++s) {
      double pivot = 0.0;
      detail::cholesky(L.data(), m.covariances.data() + s * D * D, D, &pivot);  // validated
      detail::lower_triangular_inverse(t.chol_inv.data() + s * D * D, L.data(), D);
      double log_det = 0.0;
      for (Index d = 0; d < D; ++d) log_det += 2.0 * std::log(L[d * D + d]);
      t.log_norm[s] = -0.5 * (static_cast<double>(D) * std::log(2.0 * std::numbers::pi) + log_det);
    }
  } else {
    const Index D = t.D;
    t.means_t.resize(D * S);
    t.neg_half_inv_var_t.resize(D * S);
    t.log_norm.resize(S);
    for (Index s = 0; s < S; ++s) {
      double sum_log_var = 0.0;
      for (Index d = 0; d < D; ++d) {
        const double v = m.variances[s * D + d];
        t.means_t[d * S + s] = m.means[s * D + d];
        t.neg_half_inv_var_t[d * S + s] = -0.5 / v;
        sum_log_var += std::log(v);
      }
      t.log_norm[s] = -0.5 * (static_cast<double>(D) * std::log(2.0 * std::numbers::pi) +
                              sum_log_var);
    }
  }
  return t;
}

void Workspace::reserve(Index T, Index S) {
  const auto ts = static_cast<std::size_t>(T * S);
  if (log_b.size() < ts) {
    log_b.resize(ts);
    alpha.resize(ts);
    beta.resize(ts);
  }
  if (log_scale.size() < static_cast<std::size_t>(T)) log_scale.resize(T);
  if (tmp.size() < static_cast<std::size_t>(2 * S)) tmp.resize(2 * S);
}

int batch_threads(int threads, Index items, double flops) {
  constexpr double kMinFlopsPerThread = 2e5;
  Index n = std::min<Index>(resolve_threads(threads), items);
  n = std::min<Index>(n, static_cast<Index>(flops / kMinFlopsPerThread));
  return static_cast<int>(std::max<Index>(n, 1));
}

double batch_flops(const Tables& tab, std::span<const SequenceView> seqs) {
  double steps = 0.0;
  for (const auto& s : seqs) steps += static_cast<double>(s.length);
  return steps * static_cast<double>(tab.S) * static_cast<double>(tab.S + 3 * tab.D + 4);
}

void check_sequence(const Tables& tab, SequenceView seq, const char* where, Index index) {
  const std::string which = index >= 0 ? " sequence " + std::to_string(index) : " sequence";
  KESSEL_CHECK_ARG(seq.length >= 1, where, ":", which, " is empty (T=", seq.length, ")");
  if (tab.type == EmissionType::categorical) {
    KESSEL_CHECK_ARG(seq.symbols != nullptr, where, ":", which,
                     " has no symbols (categorical model needs integer symbols)");
    for (Index t = 0; t < seq.length; ++t) {
      KESSEL_CHECK_ARG(seq.symbols[t] >= 0 && seq.symbols[t] < tab.K, where, ":", which,
                       " step ", t, " has symbol ", seq.symbols[t], " outside [0, ", tab.K, ")");
    }
  } else {
    KESSEL_CHECK_ARG(seq.values != nullptr, where, ":", which,
                     " has no values (Gaussian model needs [T, D] observations)");
    for (Index i = 0; i < seq.length * tab.D; ++i) {
      KESSEL_CHECK_ARG(std::isfinite(seq.values[i]), where, ":", which, " step ", i / tab.D,
                       " dim ", i % tab.D, " is ", seq.values[i], " (must be finite)");
    }
  }
}

// Categorical: one row of the symbol-major table per step. Gaussian: k.gaussian_log_prob, all S
// log-densities of a step at once from the dimension-major [D, S] tables (per-state normalizers and
// -1/(2 var) precomputed).
void emission_log_prob(double* log_b, const HmmKernels& k, const Tables& tab, SequenceView seq) {
  const Index S = tab.S, T = seq.length;
  if (tab.type == EmissionType::categorical) {
    for (Index t = 0; t < T; ++t) {
      const double* row = tab.log_emis_t.data() + seq.symbols[t] * S;
      std::copy(row, row + S, log_b + t * S);
    }
    return;
  }
  if (tab.type == EmissionType::gaussian_full) {
    full_gaussian_log_prob(log_b, tab, seq.values, T);
    return;
  }
  k.gaussian_log_prob(log_b, seq.values, tab.means_t.data(), tab.neg_half_inv_var_t.data(),
                      tab.log_norm.data(), T, S, tab.D);
}

// log N(x; mu_s, Sigma_s) = log_norm[s] - |L_s^-1 (x - mu_s)|^2 / 2: a triangular product per state
// and step, O(S D^2) per step (plain loops, no SIMD table: the diagonal kernel's [D, S] layout does
// not apply).
void full_gaussian_log_prob(double* log_b, const Tables& tab, const double* x, Index T) {
  const Index S = tab.S, D = tab.D;
  std::vector<double> diff(D);
  for (Index t = 0; t < T; ++t) {
    for (Index s = 0; s < S; ++s) {
      const double* mu = tab.means.data() + s * D;
      const double* Li = tab.chol_inv.data() + s * D * D;
      for (Index d = 0; d < D; ++d) diff[d] = x[t * D + d] - mu[d];
      double q = 0.0;
      for (Index i = 0; i < D; ++i) {
        double y = 0.0;
        for (Index k = 0; k <= i; ++k) y += Li[i * D + k] * diff[k];
        q += y * y;
      }
      log_b[t * S + s] = tab.log_norm[s] - 0.5 * q;
    }
  }
}

}  // namespace detail

void emission_log_prob(std::span<double> log_b, const Model& model, SequenceView seq) {
  model.validate("hmm::emission_log_prob");
  const auto tab = detail::make_tables(model);
  detail::check_sequence(tab, seq, "hmm::emission_log_prob");
  KESSEL_CHECK_ARG(static_cast<Index>(log_b.size()) == seq.length * tab.S,
                   "hmm::emission_log_prob: log_b has ", log_b.size(), " entries, expected T*S=",
                   seq.length * tab.S);
  detail::emission_log_prob(log_b.data(), detail::active_kernels(), tab, seq);
}

}  // namespace kessel::hmm
