// Initial models from data and Baum–Welch with random restarts (HMM.fit on the class; docs/hmm.md,
// "Fitting from data").
//
// k-means (Gaussian): k-means++ seeding, then Lloyd iterations over every observation of every
// sequence; an emptied cluster is re-seeded with the point farthest from its centre. The states are
// the clusters: means = centres, variances / covariances = the cluster's (the pooled data's when
// the cluster has too few points: < 2 for variances, <= D for a covariance), floored as Baum–Welch
// floors them; start and transitions = the clusters' first-step and step-to-step frequencies with
// one pseudo-count each (so no probability starts at 0, where EM would keep it forever). random:
// categorical rows (start, transitions, emissions) are Dirichlet(1) draws; Gaussian means are S
// distinct random observations, the covariance the pooled data's, start and transitions
// Dirichlet(1).
#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "hmm/linalg.h"
#include "hmm/rng.h"
#include "kessel/error.h"
#include "kessel/hmm.h"
#include "util/splitmix.h"

namespace kessel::hmm {

namespace {

// All observations as rows [N, D].
struct Points {
  std::vector<double> x;
  Index n = 0, D = 0;
  const double* row(Index i) const { return x.data() + i * D; }
};

Points gather(std::span<const SequenceView> seqs, Index D) {
  Points p;
  p.D = D;
  for (const auto& s : seqs) {
    p.x.insert(p.x.end(), s.values, s.values + s.length * D);
    p.n += s.length;
  }
  return p;
}

double squared_distance(const double* a, const double* b, Index D) {
  double d = 0.0;
  for (Index k = 0; k < D; ++k) d += (a[k] - b[k]) * (a[k] - b[k]);
  return d;
}

// The nearest centre of x among S, and its squared distance.
Index nearest(const double* x, const std::vector<double>& centres, Index S, Index D, double* dist) {
  Index best = 0;
  double bd = std::numeric_limits<double>::infinity();
  for (Index s = 0; s < S; ++s) {
    const double d = squared_distance(x, centres.data() + s * D, D);
    if (d < bd) bd = d, best = s;
  }
  *dist = bd;
  return best;
}

// k-means++ (Arthur & Vassilvitskii 2007): each next centre drawn with probability proportional to
// the squared distance to the nearest centre chosen so far.
std::vector<double> kmeans_plus_plus(const Points& p, Index S, detail::Rng& rng) {
  const Index D = p.D;
  std::vector<double> centres(S * D);
  const Index first =
      std::min<Index>(static_cast<Index>(rng.uniform() * static_cast<double>(p.n)), p.n - 1);
  std::copy(p.row(first), p.row(first) + D, centres.begin());
  std::vector<double> d2(p.n);
  for (Index i = 0; i < p.n; ++i) d2[i] = squared_distance(p.row(i), centres.data(), D);
  for (Index s = 1; s < S; ++s) {
    double total = 0.0;
    for (double v : d2) total += v;
    Index pick = p.n - 1;
    if (total > 0.0) {
      const double u = rng.uniform() * total;
      double cdf = 0.0;
      for (Index i = 0; i < p.n; ++i) {
        cdf += d2[i];
        if (u < cdf) {
          pick = i;
          break;
        }
      }
    } else {
      pick = std::min<Index>(static_cast<Index>(rng.uniform() * static_cast<double>(p.n)), p.n - 1);
    }
    std::copy(p.row(pick), p.row(pick) + D, centres.begin() + s * D);
    for (Index i = 0; i < p.n; ++i)
      d2[i] = std::min(d2[i], squared_distance(p.row(i), centres.data() + s * D, D));
  }
  return centres;
}

// Lloyd iterations from k-means++ centres; returns each point's cluster.
std::vector<Index> kmeans(const Points& p, Index S, int max_iter, detail::Rng& rng) {
  const Index D = p.D;
  std::vector<double> centres = kmeans_plus_plus(p, S, rng);
  std::vector<Index> label(p.n, -1);
  std::vector<double> dist(p.n);
  for (int it = 0; it < max_iter; ++it) {
    bool changed = false;
    for (Index i = 0; i < p.n; ++i) {
      const Index l = nearest(p.row(i), centres, S, D, &dist[i]);
      changed = changed || l != label[i];
      label[i] = l;
    }
    if (!changed) break;
    std::vector<double> sum(S * D, 0.0);
    std::vector<Index> count(S, 0);
    for (Index i = 0; i < p.n; ++i) {
      ++count[label[i]];
      for (Index d = 0; d < D; ++d) sum[label[i] * D + d] += p.row(i)[d];
    }
    for (Index s = 0; s < S; ++s) {
      if (count[s] > 0) {
        for (Index d = 0; d < D; ++d)
          centres[s * D + d] = sum[s * D + d] / static_cast<double>(count[s]);
        continue;
      }
      // An empty cluster takes the point farthest from its centre (which then leaves its cluster).
      const Index far = std::max_element(dist.begin(), dist.end()) - dist.begin();
      std::copy(p.row(far), p.row(far) + D, centres.begin() + s * D);
      dist[far] = 0.0;
    }
  }
  return label;
}

// Covariance [D, D] of the points with the given label (label < 0: all points), around their mean.
std::vector<double> covariance(const Points& p, const std::vector<Index>& label, Index which,
                               std::vector<double>& mean, Index* count) {
  const Index D = p.D;
  mean.assign(D, 0.0);
  Index n = 0;
  for (Index i = 0; i < p.n; ++i) {
    if (which >= 0 && label[i] != which) continue;
    ++n;
    for (Index d = 0; d < D; ++d) mean[d] += p.row(i)[d];
  }
  *count = n;
  std::vector<double> C(D * D, 0.0);
  if (n == 0) return C;
  for (double& m : mean) m /= static_cast<double>(n);
  for (Index i = 0; i < p.n; ++i) {
    if (which >= 0 && label[i] != which) continue;
    for (Index a = 0; a < D; ++a)
      for (Index b = 0; b <= a; ++b)
        C[a * D + b] += (p.row(i)[a] - mean[a]) * (p.row(i)[b] - mean[b]);
  }
  for (Index a = 0; a < D; ++a)
    for (Index b = 0; b <= a; ++b)
      C[a * D + b] = C[b * D + a] = C[a * D + b] / static_cast<double>(n);
  return C;
}

// Dirichlet(1) row: normalized Exp(1) draws.
void dirichlet_row(double* out, Index n, detail::Rng& rng) {
  double sum = 0.0;
  for (Index k = 0; k < n; ++k) sum += out[k] = -std::log(1.0 - rng.uniform());
  for (Index k = 0; k < n; ++k) out[k] /= sum;
}

// Start and transitions from a state label per step: counts plus one pseudo-count, normalized.
void chain_from_labels(Model& m, std::span<const SequenceView> seqs,
                       const std::vector<Index>& label) {
  const Index S = m.n_states;
  m.start.assign(S, 1.0);
  m.transitions.assign(S * S, 1.0);
  Index i = 0;
  for (const auto& s : seqs) {
    m.start[label[i]] += 1.0;
    for (Index t = 1; t < s.length; ++t) m.transitions[label[i + t - 1] * S + label[i + t]] += 1.0;
    i += s.length;
  }
  auto normalize = [](double* row, Index n) {
    double sum = 0.0;
    for (Index k = 0; k < n; ++k) sum += row[k];
    for (Index k = 0; k < n; ++k) row[k] /= sum;
  };
  normalize(m.start.data(), S);
  for (Index r = 0; r < S; ++r) normalize(m.transitions.data() + r * S, S);
}

// Each state's variances or covariance from its cluster (pooled when the cluster is too small).
void gaussian_states(Model& m, const Points& p, const std::vector<Index>& label, double floor) {
  const Index S = m.n_states, D = p.D;
  const bool full = m.type == EmissionType::gaussian_full;
  std::vector<double> mean, pooled_mean;
  Index n = 0, n_all = 0;
  const std::vector<double> pooled = covariance(p, label, -1, pooled_mean, &n_all);
  m.means.assign(S * D, 0.0);
  if (full)
    m.covariances.assign(S * D * D, 0.0);
  else
    m.variances.assign(S * D, 0.0);
  for (Index s = 0; s < S; ++s) {
    std::vector<double> C = covariance(p, label, s, mean, &n);
    if (n == 0) mean = pooled_mean;  // (k-means leaves no cluster empty; random labels may)
    std::copy(mean.begin(), mean.end(), m.means.begin() + s * D);
    if (n < (full ? D + 1 : 2)) C = pooled;
    if (full) {
      detail::floor_eigenvalues(C.data(), D, floor);
      std::copy(C.begin(), C.end(), m.covariances.begin() + s * D * D);
    } else {
      for (Index d = 0; d < D; ++d) m.variances[s * D + d] = std::max(C[d * D + d], floor);
    }
  }
}

void check_sequences(EmissionType type, std::span<const SequenceView> seqs, Index D, Index K,
                     const char* where) {
  KESSEL_CHECK_ARG(!seqs.empty(), where, ": no sequences to fit");
  for (Index n = 0; n < static_cast<Index>(seqs.size()); ++n) {
    const auto& s = seqs[n];
    KESSEL_CHECK_ARG(s.length >= 1, where, ": sequence ", n, " is empty (T=", s.length, ")");
    if (type == EmissionType::categorical) {
      KESSEL_CHECK_ARG(s.symbols != nullptr, where, ": sequence ", n, " has no symbols");
      for (Index t = 0; t < s.length; ++t)
        KESSEL_CHECK_ARG(s.symbols[t] >= 0 && (K <= 0 || s.symbols[t] < K), where, ": sequence ", n,
                         " step ", t, " has symbol ", s.symbols[t],
                         K > 0 ? " outside [0, " + std::to_string(K) + ")" : " < 0");
    } else {
      KESSEL_CHECK_ARG(s.values != nullptr, where, ": sequence ", n, " has no values");
      for (Index i = 0; i < s.length * D; ++i)
        KESSEL_CHECK_ARG(std::isfinite(s.values[i]), where, ": sequence ", n, " step ", i / D,
                         " dim ", i % D, " is ", s.values[i], " (must be finite)");
    }
  }
}

}  // namespace

Model initial_model(EmissionType type, Index S, std::span<const SequenceView> seqs,
                    const InitOptions& init, std::uint64_t seed, double floor, Index D) {
  const char* where = "HMM.fit";
  KESSEL_CHECK_ARG(S >= 1, where, ": n_states is ", S, " (must be >= 1)");
  KESSEL_CHECK_ARG(std::isfinite(floor) && floor > 0.0, where, ": variance_floor is ", floor,
                   " (must be finite and > 0)");
  check_sequences(type, seqs, D, init.n_symbols, where);
  detail::Rng rng(seed);
  Model m;
  m.type = type;
  m.n_states = S;
  if (type == EmissionType::categorical) {
    KESSEL_CHECK_ARG(
        init.method == InitMethod::random, where,
        ": init='kmeans' needs Gaussian emissions (categorical models start from init='random')");
    Index K = init.n_symbols;
    if (K <= 0)
      for (const auto& s : seqs)
        K = std::max<Index>(K, *std::max_element(s.symbols, s.symbols + s.length) + 1);
    m.n_symbols = K;
    m.start.resize(S);
    m.transitions.resize(S * S);
    m.emissions.resize(S * K);
    dirichlet_row(m.start.data(), S, rng);
    for (Index r = 0; r < S; ++r) dirichlet_row(m.transitions.data() + r * S, S, rng);
    for (Index r = 0; r < S; ++r) dirichlet_row(m.emissions.data() + r * K, K, rng);
    m.validate(where);
    return m;
  }
  KESSEL_CHECK_ARG(D >= 1, where, ": observations have D=", D, " dimensions");
  m.dim = D;
  const Points p = gather(seqs, D);
  KESSEL_CHECK_ARG(p.n >= S, where, ": ", p.n, " observations cannot initialise ", S, " states");
  std::vector<Index> label;
  if (init.method == InitMethod::kmeans) {
    KESSEL_CHECK_ARG(init.kmeans_iter >= 1, where, ": kmeans_iter is ", init.kmeans_iter,
                     " (must be >= 1)");
    label = kmeans(p, S, init.kmeans_iter, rng);
    chain_from_labels(m, seqs, label);
    gaussian_states(m, p, label, floor);
  } else {
    label.assign(p.n, -1);  // means: S distinct random observations (partial Fisher–Yates)
    std::vector<Index> idx(p.n);
    for (Index i = 0; i < p.n; ++i) idx[i] = i;
    for (Index s = 0; s < S; ++s) {
      const Index j =
          s + std::min<Index>(static_cast<Index>(rng.uniform() * static_cast<double>(p.n - s)),
                              p.n - s - 1);
      std::swap(idx[s], idx[j]);
    }
    gaussian_states(m, p, label, floor);  // every state: the pooled covariance
    for (Index s = 0; s < S; ++s)
      std::copy(p.row(idx[s]), p.row(idx[s]) + D, m.means.begin() + s * D);
    m.start.resize(S);
    m.transitions.resize(S * S);
    dirichlet_row(m.start.data(), S, rng);
    for (Index r = 0; r < S; ++r) dirichlet_row(m.transitions.data() + r * S, S, rng);
  }
  m.validate(where);
  return m;
}

FitFromDataResult fit_from_data(EmissionType type, Index S, std::span<const SequenceView> seqs,
                                Index D, const InitOptions& init, const FitOptions& options) {
  KESSEL_CHECK_ARG(init.n_init >= 1, "HMM.fit: n_init is ", init.n_init, " (must be >= 1)");
  FitFromDataResult best;
  double best_ll = -std::numeric_limits<double>::infinity();
  std::uint64_t state = init.seed;
  for (int r = 0; r < init.n_init; ++r) {
    const std::uint64_t seed = splitmix64(state);
    Model m = initial_model(type, S, seqs, init, seed, options.variance_floor, D);
    FitResult fit = baum_welch(m, seqs, options);
    const double ll = fit.history.back();
    best.restart_logliks.push_back(ll);
    if (r == 0 || ll > best_ll) {
      best_ll = ll;
      best.model = std::move(m);
      best.fit = std::move(fit);
      best.best_restart = r;
    }
  }
  return best;
}

}  // namespace kessel::hmm
