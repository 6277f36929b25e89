// Baum–Welch (EM) over many sequences of different lengths.
//
// Determinism: sequences are grouped into fixed chunks of kChunk consecutive sequences; each chunk's
// statistics are summed serially in sequence order, and chunks are then added in chunk order. The
// grouping does not depend on the thread count, so neither does the result (bit for bit).
//
// Gaussian statistics are accumulated around the current means (sum g (x - mu), sum g (x - mu)^2),
// which keeps the variance update var = E[(x-mu)^2] - E[x-mu]^2 well conditioned as EM converges.
#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include "hmm/kernels.h"
#include "hmm/linalg.h"
#include "kessel/error.h"
#include "util/parallel.h"

namespace kessel::hmm {

namespace {

constexpr Index kChunk = 8;    // sequences per statistics chunk
constexpr Index kBlock = 64;   // chunks in flight at once (bounds memory for huge data sets)

// Offsets of one chunk's statistics inside a flat buffer.
struct StatsLayout {
  Index S, K, D;
  Index loglik = 0, start, xi, emis, gsum, s1, s2, size;
  explicit StatsLayout(const detail::Tables& t) : S(t.S), K(t.K), D(t.D) {
    start = 1;
    xi = start + S;          // [S, S] alpha/z (x) w, times A after the reduction
    emis = xi + S * S;       // categorical [K, S] (symbol-major)
    const bool gauss = t.type != EmissionType::categorical;
    const bool full = t.type == EmissionType::gaussian_full;
    gsum = emis + (gauss ? 0 : K * S);  // Gaussian [S]
    s1 = gsum + (gauss ? S : 0);        // diagonal [D, S]; full [S, D]
    s2 = s1 + (gauss ? D * S : 0);      // diagonal [D, S]; full [S, D, D]
    size = s2 + (full ? S * D * D : gauss ? D * S : 0);
  }
};

// Full-covariance statistics of one step x [D] with posterior g [S]; ADDS INTO s1 [S, D] and s2
// [S, D, D] (lower triangle): diff = x - mu_s; s1[s] += g[s] diff; s2[s] += g[s] diff diff^T.
void full_gaussian_stats(double* s1, double* s2, const double* g, const double* x, const double* mu,
                         Index S, Index D) {
  for (Index s = 0; s < S; ++s) {
    if (g[s] == 0.0) continue;
    double* a = s1 + s * D;
    double* c = s2 + s * D * D;
    const double* m = mu + s * D;
    for (Index i = 0; i < D; ++i) {
      const double di = x[i] - m[i];
      a[i] += g[s] * di;
      for (Index j = 0; j <= i; ++j) c[i * D + j] += g[s] * di * (x[j] - m[j]);
    }
  }
}

// E-step for one sequence: ADDS INTO stats (layout L). Returns false when p(x) = 0.
bool accumulate(double* stats, const StatsLayout& L, detail::Workspace& ws,
                const detail::HmmKernels& k, const detail::Tables& tab, SequenceView seq) {
  const Index S = tab.S, T = seq.length;
  ws.reserve(T, S);
  detail::emission_log_prob(ws.log_b.data(), k, tab, seq);
  const double ll = detail::forward_scaled(ws.alpha.data(), ws.log_scale.data(), ws.tmp.data(), k,
                                           tab, ws.log_b.data(), T);
  if (ll == -std::numeric_limits<double>::infinity()) return false;
  if (!detail::backward_scaled(ws.beta.data(), ws.tmp.data(), k, tab, ws.log_b.data(),
                               ws.alpha.data(), T, stats + L.xi)) {
    return false;
  }
  stats[L.loglik] += ll;
  const double* alpha = ws.alpha.data();
  const double* beta = ws.beta.data();
  for (Index s = 0; s < S; ++s) stats[L.start + s] += alpha[s] * beta[s];
  double* g = ws.tmp.data();  // gamma of one step [S]
  for (Index t = 0; t < T; ++t) {
    k.mul(g, alpha + t * S, beta + t * S, S);
    if (tab.type == EmissionType::categorical) {
      k.add(stats + L.emis + seq.symbols[t] * S, g, S);
      continue;
    }
    k.add(stats + L.gsum, g, S);
    if (tab.type == EmissionType::gaussian_full) {
      full_gaussian_stats(stats + L.s1, stats + L.s2, g, seq.values + t * L.D, tab.means.data(), S,
                          L.D);
      continue;
    }
    k.gaussian_stats(stats + L.s1, stats + L.s2, g, seq.values + t * L.D, tab.means_t.data(), S,
                     L.D);
  }
  return true;
}

// Total statistics of all sequences under the current model (see the determinism note above).
std::vector<double> e_step(const detail::HmmKernels& k, const detail::Tables& tab,
                           std::span<const SequenceView> seqs, int threads) {
  const StatsLayout L(tab);
  const Index N = static_cast<Index>(seqs.size());
  const Index n_chunks = (N + kChunk - 1) / kChunk;
  std::vector<double> total(L.size, 0.0);
  std::vector<double> block(kBlock * L.size);
  Index failed = -1;
  const double flops = detail::batch_flops(tab, seqs);
  for (Index c0 = 0; c0 < n_chunks; c0 += kBlock) {
    const Index nc = std::min(kBlock, n_chunks - c0);
    std::fill(block.begin(), block.begin() + nc * L.size, 0.0);
    std::vector<Index> chunk_failed(nc, -1);
#pragma omp parallel num_threads(detail::batch_threads(threads, nc, flops * nc / n_chunks))
    {
      detail::Workspace ws;
#pragma omp for schedule(dynamic, 1)
      for (Index c = 0; c < nc; ++c) {
        const Index first = (c0 + c) * kChunk, last = std::min(N, first + kChunk);
        for (Index n = first; n < last && chunk_failed[c] < 0; ++n) {
          if (!accumulate(block.data() + c * L.size, L, ws, k, tab, seqs[n])) chunk_failed[c] = n;
        }
      }
    }
    for (Index c = 0; c < nc; ++c) {
      if (chunk_failed[c] >= 0 && failed < 0) failed = chunk_failed[c];
      const double* src = block.data() + c * L.size;
      for (Index k = 0; k < L.size; ++k) total[k] += src[k];
    }
    if (failed >= 0) break;
  }
  KESSEL_CHECK_ARG(failed < 0, "hmm::baum_welch: sequence ", failed,
                   " has probability 0 under the current model; cannot re-estimate");
  return total;
}

// Means and covariances from the statistics around the current means: shift = s1 / n, Sigma = s2 /
// n
// - shift shift^T, then the eigenvalue floor (detail::floor_eigenvalues), which also keeps every
// covariance positive definite.
void full_covariance_m_step(Model& m, const double* gsum, const double* s1, const double* s2,
                            double floor) {
  const Index S = m.n_states, D = m.dim;
  std::vector<double> C(D * D);
  for (Index s = 0; s < S; ++s) {
    const double n = gsum[s];
    if (!(n > 0.0)) continue;
    const double* a = s1 + s * D;
    const double* c = s2 + s * D * D;
    for (Index i = 0; i < D; ++i) {
      for (Index j = 0; j <= i; ++j) {
        C[i * D + j] = C[j * D + i] = c[i * D + j] / n - (a[i] / n) * (a[j] / n);
      }
    }
    detail::floor_eigenvalues(C.data(), D, floor);
    std::copy(C.begin(), C.end(), m.covariances.begin() + s * D * D);
    for (Index d = 0; d < D; ++d) m.means[s * D + d] += a[d] / n;
  }
}

// One M-step from total statistics. Rows whose expected count is 0 (a state never visited, or never
// left) carry no information and keep their current values.
void m_step(Model& m, const detail::Tables& tab, const std::vector<double>& st,
            const FitOptions& opt) {
  const StatsLayout L(tab);
  const Index S = m.n_states;
  if (!opt.fix_start) {
    double sum = 0.0;
    for (Index s = 0; s < S; ++s) sum += st[L.start + s];
    for (Index s = 0; s < S; ++s) m.start[s] = st[L.start + s] / sum;
  }
  if (!opt.fix_transitions) {
    std::vector<double> row(S);
    for (Index i = 0; i < S; ++i) {
      double sum = 0.0;
      for (Index j = 0; j < S; ++j) {
        row[j] = st[L.xi + i * S + j] * tab.trans[i * S + j];
        sum += row[j];
      }
      if (!(sum > 0.0)) continue;
      for (Index j = 0; j < S; ++j) m.transitions[i * S + j] = row[j] / sum;
    }
  }
  if (opt.fix_emissions) return;
  if (m.type == EmissionType::categorical) {
    const Index K = m.n_symbols;
    for (Index s = 0; s < S; ++s) {
      double sum = 0.0;
      for (Index k = 0; k < K; ++k) sum += st[L.emis + k * S + s];
      if (!(sum > 0.0)) continue;
      for (Index k = 0; k < K; ++k) m.emissions[s * K + k] = st[L.emis + k * S + s] / sum;
    }
    return;
  }
  const Index D = m.dim;
  if (m.type == EmissionType::gaussian_full) {
    full_covariance_m_step(m, st.data() + L.gsum, st.data() + L.s1, st.data() + L.s2,
                           opt.variance_floor);
    return;
  }
  for (Index s = 0; s < S; ++s) {
    const double n = st[L.gsum + s];
    if (!(n > 0.0)) continue;
    for (Index d = 0; d < D; ++d) {
      const double shift = st[L.s1 + d * S + s] / n;
      const double var = st[L.s2 + d * S + s] / n - shift * shift;
      m.means[s * D + d] += shift;
      m.variances[s * D + d] = std::max(var, opt.variance_floor);
    }
  }
}

}  // namespace

FitResult baum_welch(Model& model, std::span<const SequenceView> seqs, const FitOptions& opt) {
  const char* where = "hmm::baum_welch";
  model.validate(where);
  KESSEL_CHECK_ARG(!seqs.empty(), where, ": no sequences to fit");
  KESSEL_CHECK_ARG(opt.max_iter >= 0, where, ": max_iter is ", opt.max_iter, " (must be >= 0)");
  KESSEL_CHECK_ARG(std::isfinite(opt.tol) && opt.tol >= 0.0, where, ": tol is ", opt.tol,
                   " (must be finite and >= 0)");
  KESSEL_CHECK_ARG(std::isfinite(opt.variance_floor) && opt.variance_floor > 0.0, where,
                   ": variance_floor is ", opt.variance_floor, " (must be finite and > 0)");
  detail::Tables tab = detail::make_tables(model);
  for (Index n = 0; n < static_cast<Index>(seqs.size()); ++n) {
    detail::check_sequence(tab, seqs[n], where, n);
  }
  const auto& k = detail::active_kernels();  // one variant for the whole fit
  FitResult result;
  std::vector<double> stats = e_step(k, tab, seqs, opt.threads);
  result.history.push_back(stats[0]);
  if (opt.on_iteration) opt.on_iteration(0, stats[0], 0.0);
  for (int it = 1; it <= opt.max_iter; ++it) {
    m_step(model, tab, stats, opt);
    tab = detail::make_tables(model);
    stats = e_step(k, tab, seqs, opt.threads);
    const double delta = stats[0] - result.history.back();
    result.history.push_back(stats[0]);
    result.iterations = it;
    if (opt.on_iteration) opt.on_iteration(it, stats[0], delta);
    if (delta < opt.tol) {
      result.converged = true;
      break;
    }
  }
  return result;
}

}  // namespace kessel::hmm
