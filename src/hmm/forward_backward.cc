// Forward and backward passes in scaled space and in log space, log-likelihood and posteriors.
//
// Scaled forward (Rabiner 1989, with the emission offset of each step factored out so Gaussian
// densities cannot underflow): alpha_hat[t] = (A^T alpha_hat[t-1]) .* exp(log_b[t] - m_t) / c_t, with
// log_scale[t] = log c_t + m_t and log p(x) = sum_t log_scale[t].
#include <algorithm>
#include <cmath>
#include <limits>

#include "hmm/kernels.h"
#include "kessel/error.h"
#include "util/parallel.h"

namespace kessel::hmm {
namespace detail {

namespace {
constexpr double kNegInf = -std::numeric_limits<double>::infinity();

double max_of(const double* x, Index n) {
  double m = kNegInf;
  for (Index i = 0; i < n; ++i) m = x[i] > m ? x[i] : m;
  return m;
}

// The exact redo of one forward step (see forward_scaled): a[s] = p[s] b_s / c with the predicted
// mass p inside the exponent; returns log c, or -inf when p(x) = 0.
// Plain loops: it runs only where the fast step underflowed.
double rescue_step(double* a, const double* p, const double* lb, Index S) {
  double m2 = kNegInf;
  for (Index s = 0; s < S; ++s) {
    a[s] = p[s] > 0.0 ? std::log(p[s]) + lb[s] : kNegInf;
    m2 = std::max(m2, a[s]);
  }
  if (m2 == kNegInf) return kNegInf;
  double c = 0.0;
  for (Index s = 0; s < S; ++s) c += a[s] = std::exp(a[s] - m2);
  const double inv_c = 1.0 / c;
  for (Index s = 0; s < S; ++s) a[s] *= inv_c;
  return std::log(c) + m2;
}
}  // namespace

double forward_scaled(double* alpha, double* log_scale, double* pred, const HmmKernels& k,
                      const Tables& tab, const double* log_b, Index T) {
  const Index S = tab.S;
  double loglik = 0.0;
  for (Index t = 0; t < T; ++t) {
    double* a = alpha + t * S;
    const double* lb = log_b + t * S;
    const double* p = t == 0 ? tab.start.data() : pred;
    const double m = k.max_of(lb, S);
    const double c = m != kNegInf ? k.mul_exp_sum(a, p, lb, m, S) : 0.0;
    double log_c;
    if (c > 0.0) {
      log_c = std::log(c) + m;
      k.scale(a, 1.0 / c, S);
    } else {
      // Either p(x) = 0 or the states that can be reached all have emissions more than ~700 nats
      // below the best one: redo this step exactly with the predicted mass inside the exponent.
      log_c = rescue_step(a, p, lb, S);
      if (log_c == kNegInf) {
        for (Index u = t; u < T; ++u) {
          log_scale[u] = kNegInf;
          std::fill(alpha + u * S, alpha + (u + 1) * S, 0.0);
        }
        return kNegInf;
      }
    }
    log_scale[t] = log_c;
    loglik += log_c;
    if (t + 1 < T) k.vec_mat(pred, a, tab.trans.data(), tab.trans_t.data(), S);
  }
  return loglik;
}

bool backward_scaled(double* beta, double* tmp, const HmmKernels& k, const Tables& tab,
                     const double* log_b, const double* alpha, Index T, double* xi_acc) {
  const Index S = tab.S;
  double* carry = tmp;  // beta[t+1] up to a positive factor, max entry 1
  double* w = tmp + S;
  std::fill(beta + (T - 1) * S, beta + T * S, 1.0);  // alpha rows sum to 1
  std::fill(carry, carry + S, 1.0);
  for (Index t = T - 2; t >= 0; --t) {
    const double* lb = log_b + (t + 1) * S;
    k.mul_exp_sum(w, carry, lb, k.max_of(lb, S), S);
    double* row = beta + t * S;
    k.vec_mat(row, w, tab.trans_t.data(), tab.trans.data(), S);  // row[i] = sum_j A[i, j] w[j]
    const double* a = alpha + t * S;
    double z, mx;
    k.dot_and_max(&z, &mx, a, row, S);
    if (!(z > 0.0) || !(mx > 0.0)) return false;
    const double inv_z = 1.0 / z, inv_mx = 1.0 / mx;
    if (xi_acc != nullptr) k.outer_add(xi_acc, a, inv_z, w, S);
    k.rescale_pair(carry, row, inv_mx, inv_z, S);
  }
  return true;
}

namespace {
double log_sum_exp(const double* x, Index n) {
  const double m = max_of(x, n);
  if (m == kNegInf) return kNegInf;
  double s = 0.0;
  for (Index i = 0; i < n; ++i) s += std::exp(x[i] - m);
  return m + std::log(s);
}
}  // namespace

double forward_log(double* log_alpha, const Tables& tab, const double* log_b, Index T) {
  const Index S = tab.S;
  std::vector<double> terms(S);
  for (Index s = 0; s < S; ++s) log_alpha[s] = tab.log_start[s] + log_b[s];
  for (Index t = 1; t < T; ++t) {
    const double* prev = log_alpha + (t - 1) * S;
    for (Index j = 0; j < S; ++j) {
      for (Index i = 0; i < S; ++i) terms[i] = prev[i] + tab.log_trans[i * S + j];
      log_alpha[t * S + j] = log_b[t * S + j] + log_sum_exp(terms.data(), S);
    }
  }
  return log_sum_exp(log_alpha + (T - 1) * S, S);
}

double backward_log(double* log_beta, const Tables& tab, const double* log_b, Index T) {
  const Index S = tab.S;
  std::vector<double> terms(S);
  std::fill(log_beta + (T - 1) * S, log_beta + T * S, 0.0);
  for (Index t = T - 2; t >= 0; --t) {
    const double* next = log_beta + (t + 1) * S;
    const double* lb = log_b + (t + 1) * S;
    for (Index i = 0; i < S; ++i) {
      for (Index j = 0; j < S; ++j) terms[j] = tab.log_trans[i * S + j] + lb[j] + next[j];
      log_beta[t * S + i] = log_sum_exp(terms.data(), S);
    }
  }
  for (Index s = 0; s < S; ++s) terms[s] = tab.log_start[s] + log_b[s] + log_beta[s];
  return log_sum_exp(terms.data(), S);
}

}  // namespace detail

namespace {

using detail::HmmKernels;
using detail::Tables;
using detail::Workspace;

Tables prepare(const Model& model, SequenceView seq, const char* where) {
  model.validate(where);
  Tables tab = detail::make_tables(model);
  detail::check_sequence(tab, seq, where);
  return tab;
}

void check_size(std::size_t got, Index want, const char* where, const char* what,
                const char* shape) {
  KESSEL_CHECK_ARG(static_cast<Index>(got) == want, where, ": ", what, " has ", got,
                   " entries, expected ", shape, "=", want);
}

// Posterior of one sequence into gamma [T, S] using ws; returns log p(x). Throws when p(x) = 0,
// because the posterior is then undefined.
double posterior_into(double* gamma, Workspace& ws, const HmmKernels& k, const Tables& tab,
                      SequenceView seq, const char* where, Index index) {
  const Index S = tab.S, T = seq.length;
  ws.reserve(T, S);
  detail::emission_log_prob(ws.log_b.data(), k, tab, seq);
  const double ll = detail::forward_scaled(ws.alpha.data(), ws.log_scale.data(), ws.tmp.data(), k,
                                           tab, ws.log_b.data(), T);
  const bool ok = ll != -std::numeric_limits<double>::infinity() &&
                  detail::backward_scaled(ws.beta.data(), ws.tmp.data(), k, tab, ws.log_b.data(),
                                          ws.alpha.data(), T);
  KESSEL_CHECK_ARG(ok, where, ": sequence ", index, " has probability 0 under the model (log p = ",
                   ll, "); its posterior is undefined");
  k.mul(gamma, ws.alpha.data(), ws.beta.data(), T * S);
  return ll;
}

}  // namespace

double forward_scaled(std::span<double> alpha, std::span<double> log_scale, const Model& model,
                      SequenceView seq) {
  const char* where = "hmm::forward_scaled";
  const Tables tab = prepare(model, seq, where);
  check_size(alpha.size(), seq.length * tab.S, where, "alpha", "T*S");
  check_size(log_scale.size(), seq.length, where, "log_scale", "T");
  const auto& k = detail::active_kernels();
  std::vector<double> log_b(seq.length * tab.S), pred(tab.S);
  detail::emission_log_prob(log_b.data(), k, tab, seq);
  return detail::forward_scaled(alpha.data(), log_scale.data(), pred.data(), k, tab, log_b.data(),
                                seq.length);
}

void backward_scaled(std::span<double> beta, const Model& model, SequenceView seq,
                     std::span<const double> alpha) {
  const char* where = "hmm::backward_scaled";
  const Tables tab = prepare(model, seq, where);
  check_size(beta.size(), seq.length * tab.S, where, "beta", "T*S");
  check_size(alpha.size(), seq.length * tab.S, where, "alpha", "T*S");
  const auto& k = detail::active_kernels();
  std::vector<double> log_b(seq.length * tab.S), tmp(2 * tab.S);
  detail::emission_log_prob(log_b.data(), k, tab, seq);
  const bool ok = detail::backward_scaled(beta.data(), tmp.data(), k, tab, log_b.data(),
                                          alpha.data(), seq.length);
  KESSEL_CHECK_ARG(ok, where, ": the sequence has probability 0 under the model (or alpha is not "
                   "forward_scaled's output)");
}

double forward_log(std::span<double> log_alpha, const Model& model, SequenceView seq) {
  const char* where = "hmm::forward_log";
  const Tables tab = prepare(model, seq, where);
  check_size(log_alpha.size(), seq.length * tab.S, where, "log_alpha", "T*S");
  std::vector<double> log_b(seq.length * tab.S);
  detail::emission_log_prob(log_b.data(), detail::active_kernels(), tab, seq);
  return detail::forward_log(log_alpha.data(), tab, log_b.data(), seq.length);
}

double backward_log(std::span<double> log_beta, const Model& model, SequenceView seq) {
  const char* where = "hmm::backward_log";
  const Tables tab = prepare(model, seq, where);
  check_size(log_beta.size(), seq.length * tab.S, where, "log_beta", "T*S");
  std::vector<double> log_b(seq.length * tab.S);
  detail::emission_log_prob(log_b.data(), detail::active_kernels(), tab, seq);
  return detail::backward_log(log_beta.data(), tab, log_b.data(), seq.length);
}

double log_likelihood(const Model& model, SequenceView seq) {
  const SequenceView one[1] = {seq};
  return log_likelihood(model, std::span<const SequenceView>(one), 1)[0];
}

double posterior(std::span<double> gamma, const Model& model, SequenceView seq) {
  const char* where = "hmm::posterior";
  const Tables tab = prepare(model, seq, where);
  check_size(gamma.size(), seq.length * tab.S, where, "gamma", "T*S");
  Workspace ws;
  return posterior_into(gamma.data(), ws, detail::active_kernels(), tab, seq, where, 0);
}

std::vector<double> log_likelihood(const Model& model, std::span<const SequenceView> seqs,
                                   int threads) {
  const char* where = "hmm::log_likelihood";
  model.validate(where);
  const Tables tab = detail::make_tables(model);
  const Index N = static_cast<Index>(seqs.size());
  for (Index n = 0; n < N; ++n) detail::check_sequence(tab, seqs[n], where, n);
  const auto& k = detail::active_kernels();
  std::vector<double> out(N);
#pragma omp parallel num_threads(detail::batch_threads(threads, N, detail::batch_flops(tab, seqs)))
  {
    Workspace ws;
#pragma omp for schedule(dynamic, 1)
    for (Index n = 0; n < N; ++n) {
      const Index T = seqs[n].length;
      ws.reserve(T, tab.S);
      detail::emission_log_prob(ws.log_b.data(), k, tab, seqs[n]);
      out[n] = detail::forward_scaled(ws.alpha.data(), ws.log_scale.data(), ws.tmp.data(), k, tab,
                                      ws.log_b.data(), T);
    }
  }
  return out;
}

std::vector<std::vector<double>> posterior(const Model& model, std::span<const SequenceView> seqs,
                                           int threads, std::vector<double>* logliks) {
  const char* where = "hmm::posterior";
  model.validate(where);
  const Tables tab = detail::make_tables(model);
  const Index N = static_cast<Index>(seqs.size());
  for (Index n = 0; n < N; ++n) detail::check_sequence(tab, seqs[n], where, n);
  const auto& k = detail::active_kernels();
  std::vector<std::vector<double>> gammas(N);
  std::vector<double> ll(N);
  std::vector<std::string> errors(N);  // exceptions must not cross the OpenMP region
#pragma omp parallel num_threads(detail::batch_threads(threads, N, detail::batch_flops(tab, seqs)))
  {
    Workspace ws;
#pragma omp for schedule(dynamic, 1)
    for (Index n = 0; n < N; ++n) {
      gammas[n].resize(seqs[n].length * tab.S);
      try {
        ll[n] = posterior_into(gammas[n].data(), ws, k, tab, seqs[n], where, n);
      } catch (const InvalidArgument& e) {
        errors[n] = e.what();
      }
    }
  }
  for (const auto& e : errors) {
    if (!e.empty()) throw InvalidArgument(e);
  }
  if (logliks != nullptr) *logliks = std::move(ll);
  return gammas;
}

}  // namespace kessel::hmm
