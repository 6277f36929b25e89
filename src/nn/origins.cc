// The three experiments behind `kessel origins` (docs/origins.md).
#include "nn/origins.h"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <random>

#include "kessel/nn.h"

namespace kessel::origins {
namespace {

double max_abs_diff(const Matrix& a, const Matrix& b) {
  double m = 0.0;
  for (size_t i = 0; i < a.size(); ++i)
    for (size_t j = 0; j < a[i].size(); ++j) m = std::max(m, std::abs(a[i][j] - b[i][j]));
  return m;
}

// ---- (1) ----------------------------------------------------------------------------------------------

// Bezdek's FCM membership written with distances: u_ij = 1 / sum_k (d_ij / d_ik)^(2/(m-1)), i.e.
// (d2_ij / d2_ik)^(1/(m-1)) with squared distances. Evaluated in the log domain so that m close to 1
// does not overflow the power.
Matrix fcm_membership(const Matrix& d2, double m) {
  Matrix u = d2;
  for (size_t i = 0; i < d2.size(); ++i)
    for (size_t j = 0; j < d2[i].size(); ++j) {
      double s = 0.0;
      for (size_t k = 0; k < d2[i].size(); ++k)
        s += std::exp((std::log(d2[i][j]) - std::log(d2[i][k])) / (m - 1.0));
      u[i][j] = 1.0 / s;
    }
  return u;
}

// softmax_j(-ln d2_ij / tau), max-subtracted.
Matrix softmax_neg_log_d2(const Matrix& d2, double tau) {
  Matrix u = d2;
  for (size_t i = 0; i < d2.size(); ++i) {
    double mx = -INFINITY;
    for (double v : d2[i]) mx = std::max(mx, -std::log(v) / tau);
    double z = 0.0;
    for (size_t j = 0; j < d2[i].size(); ++j) z += std::exp(-std::log(d2[i][j]) / tau - mx);
    for (size_t j = 0; j < d2[i].size(); ++j) u[i][j] = std::exp(-std::log(d2[i][j]) / tau - mx) / z;
  }
  return u;
}

// The seed's code: squared distances raised to 2/(m-1) (so distances to 4/(m-1)), with its 1e-8
// guards when `seed_guards` (to reproduce what it prints); without them for the algebraic comparison.
Matrix seed_membership(const Matrix& d2, double m, bool seed_guards) {
  const double eps = seed_guards ? 1e-8 : 0.0;
  Matrix u = d2;
  for (size_t i = 0; i < d2.size(); ++i)
    for (size_t j = 0; j < d2[i].size(); ++j) {
      double s = 0.0;
      for (size_t k = 0; k < d2[i].size(); ++k)
        s += std::pow(d2[i][j] / (d2[i][k] + eps), 2.0 / (m - 1.0));
      u[i][j] = 1.0 / (s + eps);
    }
  return u;
}

FcmExperiment run_fcm() {
  FcmExperiment e;
  e.points = {{1.0, 2.0}, {1.5, 1.8}, {5.0, 5.0}};
  e.centres = {{1.2, 1.9}, {4.8, 4.9}};
  e.d2.assign(3, std::vector<double>(2));
  for (size_t i = 0; i < 3; ++i)
    for (size_t j = 0; j < 2; ++j) {
      const double a = e.points[i][0] - e.centres[j][0], b = e.points[i][1] - e.centres[j][1];
      e.d2[i][j] = a * a + b * b;
    }
  for (double m : {1.1, 1.5, 2.0, 3.0, 10.0}) {
    FcmAtM r;
    r.m = m;
    r.tau = m - 1.0;
    r.fcm = fcm_membership(e.d2, m);
    r.softmax = softmax_neg_log_d2(e.d2, r.tau);
    r.max_abs_diff = max_abs_diff(r.fcm, r.softmax);
    r.mistaken = seed_membership(e.d2, m, false);
    // (d2_ij/d2_ik)^(2/(m-1)) = (d2_ij/d2_ik)^(1/(m'-1))  <=>  m' - 1 = (m - 1)/2.
    r.effective_m = (m + 1.0) / 2.0;
    r.fcm_at_effective_m = fcm_membership(e.d2, r.effective_m);
    r.mistaken_vs_effective_max_abs_diff = max_abs_diff(r.mistaken, r.fcm_at_effective_m);
    e.by_m.push_back(r);
  }
  e.seed_printed_u0 = {0.998, 0.997, 0.003};
  const Matrix code = seed_membership(e.d2, 2.0, true);
  const Matrix right = fcm_membership(e.d2, 2.0);
  for (size_t i = 0; i < 3; ++i) {
    e.seed_code_u0.push_back(code[i][0]);
    e.correct_u0.push_back(right[i][0]);
  }
  return e;
}

// ---- (2) ----------------------------------------------------------------------------------------------

Matrix to_matrix(const std::vector<float>& v, Index rows, Index cols) {
  Matrix m(static_cast<size_t>(rows), std::vector<double>(static_cast<size_t>(cols)));
  for (Index r = 0; r < rows; ++r)
    for (Index c = 0; c < cols; ++c) m[r][c] = v[static_cast<size_t>(r * cols + c)];
  return m;
}

HmmExperiment run_hmm() {
  HmmExperiment e;
  constexpr Index S = 4, D = 3;
  e.transition = {{0.70, 0.20, 0.05, 0.05},
                  {0.10, 0.60, 0.20, 0.10},
                  {0.05, 0.15, 0.50, 0.30},
                  {0.25, 0.05, 0.10, 0.60}};
  e.initial = {{1.0, 0.25, 0.1}, {0.0, 0.25, 0.2}, {0.0, 0.25, 0.3}, {0.0, 0.25, 0.4}};
  e.steps = 8;

  std::vector<float> a_t(S * S), a(S * S), log_a(S * S);
  for (Index i = 0; i < S; ++i)
    for (Index j = 0; j < S; ++j) {
      a[i * S + j] = static_cast<float>(e.transition[i][j]);
      a_t[j * S + i] = static_cast<float>(e.transition[i][j]);
      log_a[i * S + j] = static_cast<float>(std::log(e.transition[i][j]));
    }

  // The HMM forward recursion with every emission probability b_i(o_t) = 1:
  //   alpha_t(i) = sum_j alpha_{t-1}(j) A[j][i] * b_i(o_t)   (Rabiner's eq. 20, alpha_1 = pi).
  Matrix alpha = e.initial;
  // The mixing layer on the state axis: x [T = S, D], one column per initial distribution.
  std::vector<float> x(S * D), y(S * D), x_un(S * D), y_un(S * D);
  for (Index i = 0; i < S; ++i)
    for (Index d = 0; d < D; ++d) x[i * D + d] = x_un[i * D + d] = static_cast<float>(e.initial[i][d]);
  for (Index t = 0; t < e.steps; ++t) {
    Matrix next(S, std::vector<double>(D, 0.0));
    for (Index i = 0; i < S; ++i)
      for (Index d = 0; d < D; ++d)
        for (Index j = 0; j < S; ++j) next[i][d] += alpha[j][d] * e.transition[j][i] * 1.0;
    alpha = next;
    mix_rows(y.data(), a_t.data(), x.data(), 1, S, D, 1);  // P = A^T
    mix_rows(y_un.data(), a.data(), x_un.data(), 1, S, D, 1);  // P = A
    x = y;
    x_un = y_un;
    e.max_abs_diff_transposed = std::max(e.max_abs_diff_transposed,
                                         max_abs_diff(alpha, to_matrix(y, S, D)));
    e.max_abs_diff_untransposed = std::max(e.max_abs_diff_untransposed,
                                           max_abs_diff(alpha, to_matrix(y_un, S, D)));
  }
  e.alpha_hmm = alpha;
  e.alpha_mixing = to_matrix(x, S, D);
  e.alpha_mixing_untransposed = to_matrix(x_un, S, D);

  // The learnable layer: logits ln A give P = row-softmax(ln A) = A (rows of A sum to 1).
  std::vector<float> probs(S * S), dummy_y(S * D);
  position_mix_forward(dummy_y.data(), probs.data(), x.data(), log_a.data(), 1, S, D, 1);
  e.softmax_of_log_a = to_matrix(probs, S, S);
  e.softmax_of_log_a_max_abs_diff = max_abs_diff(e.softmax_of_log_a, e.transition);
  return e;
}

// ---- (3) ----------------------------------------------------------------------------------------------

// Box-Muller on mt19937_64 (std::normal_distribution's algorithm is library-defined; this is not).
class Gaussian {
 public:
  explicit Gaussian(std::uint64_t seed) : rng_(seed) {}
  double operator()() {
    const double u1 = (static_cast<double>(rng_() >> 11) + 0.5) * 0x1.0p-53;
    const double u2 = static_cast<double>(rng_() >> 11) * 0x1.0p-53;
    return std::sqrt(-2.0 * std::log(u1)) * std::cos(2.0 * std::numbers::pi * u2);
  }

 private:
  std::mt19937_64 rng_;
};

SegmentStats segment_stats(const std::string& name, Index off, Index size, Index N, Index F,
                           const std::vector<float>& inp, const std::vector<float>& out,
                           const std::vector<float>& dx) {
  SegmentStats s;
  s.name = name;
  s.size = size;
  const double n = static_cast<double>(N * size);
  double si = 0, sii = 0, so = 0, soo = 0, sio = 0, sg = 0, sgg = 0, within = 0;
  for (Index r = 0; r < N; ++r) {
    double ro = 0, roo = 0;
    for (Index c = off; c < off + size; ++c) {
      const double xi = inp[r * F + c], xo = out[r * F + c], g = dx[r * F + c];
      si += xi;
      sii += xi * xi;
      so += xo;
      soo += xo * xo;
      sio += xi * xo;
      sg += g;
      sgg += g * g;
      ro += xo;
      roo += xo * xo;
    }
    const double rm = ro / static_cast<double>(size);
    within += std::sqrt(std::max(0.0, roo / static_cast<double>(size) - rm * rm));
  }
  s.within_row_std = within / static_cast<double>(N);
  s.input_std = std::sqrt(std::max(0.0, sii / n - (si / n) * (si / n)));
  s.output_mean = so / n;
  s.output_std = std::sqrt(std::max(0.0, soo / n - s.output_mean * s.output_mean));
  s.grad_var = std::max(0.0, sgg / n - (sg / n) * (sg / n));
  const double cov = sio / n - (si / n) * s.output_mean;
  s.in_out_corr = cov / (s.input_std * s.output_std);
  return s;
}

NormExperiment run_norm() {
  NormExperiment e;
  e.rows = 256;
  e.seed = 20260101;
  constexpr Index kText = 64, kImage = 32, F = kText + kImage;
  const Index N = e.rows;
  Gaussian gauss(e.seed);
  std::vector<float> inp(static_cast<size_t>(N * F)), dout(inp.size());
  for (Index r = 0; r < N; ++r)
    for (Index c = 0; c < F; ++c)
      inp[r * F + c] = static_cast<float>(c < kText ? gauss() : 100.0 * gauss());
  for (float& g : dout) g = static_cast<float>(gauss());
  const std::vector<float> ones(F, 1.0f), zeros(F, 0.0f);

  std::vector<float> out(inp.size()), dx(inp.size(), 0.0f), mean(N * 2), rstd(N * 2);
  layernorm_forward(out.data(), mean.data(), rstd.data(), inp.data(), ones.data(), zeros.data(), N, F,
                    kLayerNormEps, 1);
  layernorm_backward(dx.data(), nullptr, nullptr, dout.data(), inp.data(), ones.data(), mean.data(),
                     rstd.data(), N, F, 1);
  e.single = {segment_stats("text", 0, kText, N, F, inp, out, dx),
              segment_stats("image", kText, kImage, N, F, inp, out, dx)};

  const std::vector<NormSegment> segs = {{"text", kText}, {"image", kImage}};
  std::fill(dx.begin(), dx.end(), 0.0f);
  hybrid_layernorm_forward(out.data(), mean.data(), rstd.data(), inp.data(), ones.data(),
                           zeros.data(), segs, N, F, kLayerNormEps, 1);
  hybrid_layernorm_backward(dx.data(), nullptr, nullptr, dout.data(), inp.data(), ones.data(),
                            mean.data(), rstd.data(), segs, N, F, 1);
  e.hybrid = {segment_stats("text", 0, kText, N, F, inp, out, dx),
              segment_stats("image", kText, kImage, N, F, inp, out, dx)};
  return e;
}

}  // namespace

Report run_origins() { return {run_fcm(), run_hmm(), run_norm()}; }

}  // namespace kessel::origins
