// Full-covariance Gaussian emissions: the small linear algebra (Cholesky, triangular inverse,
// Jacobi eigen-decomposition, eigenvalue floor), the Cholesky log-density against the
// elimination-based reference on odd sizes, scaled against log forward, Baum–Welch (monotone,
// bit-identical for any thread count, floored), and the initialisation from data.
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "hmm/linalg.h"
#include "hmm/reference.h"
#include "hmm_fixtures.h"
#include "kessel/error.h"
#include "kessel/hmm.h"

namespace kessel::hmm {
namespace {

// A random symmetric positive definite D x D matrix: A A^T + 0.2 I.
std::vector<double> random_spd(std::mt19937_64& rng, Index D) {
  std::normal_distribution<double> n(0.0, 1.0);
  std::vector<double> A(D * D), C(D * D, 0.0);
  for (auto& a : A) a = n(rng);
  for (Index i = 0; i < D; ++i)
    for (Index j = 0; j < D; ++j) {
      for (Index k = 0; k < D; ++k) C[i * D + j] += A[i * D + k] * A[j * D + k];
      if (i == j) C[i * D + j] += 0.2;
    }
  return C;
}

Model random_full(std::uint64_t seed, Index S, Index D) {
  const Model diag = testing::random_gaussian(seed, S, D);
  std::mt19937_64 rng(seed ^ 0xf011);
  std::vector<double> covs;
  for (Index s = 0; s < S; ++s) {
    const auto C = random_spd(rng, D);
    covs.insert(covs.end(), C.begin(), C.end());
  }
  return Model::gaussian_full(diag.start, diag.transitions, diag.means, covs);
}

TEST(HmmLinalg, CholeskyInverseAndEigenReconstruct) {
  std::mt19937_64 rng(3);
  for (Index D : {1, 2, 3, 7, 13}) {
    const auto C = random_spd(rng, D);
    std::vector<double> L(D * D), Li(D * D), w(D), V(D * D);
    double pivot = 0.0;
    ASSERT_EQ(detail::cholesky(L.data(), C.data(), D, &pivot), -1);
    detail::lower_triangular_inverse(Li.data(), L.data(), D);
    detail::symmetric_eigen(w.data(), V.data(), C.data(), D);
    for (Index i = 0; i < D; ++i) {
      for (Index j = 0; j < D; ++j) {
        double llt = 0.0, li_l = 0.0, vwv = 0.0, vtv = 0.0;
        for (Index k = 0; k < D; ++k) {
          llt += L[i * D + k] * L[j * D + k];
          li_l += Li[i * D + k] * L[k * D + j];
          vwv += V[i * D + k] * w[k] * V[j * D + k];
          vtv += V[k * D + i] * V[k * D + j];
        }
        EXPECT_NEAR(llt, C[i * D + j], 1e-12 * (1 + std::fabs(C[i * D + j]))) << "D=" << D;
        EXPECT_NEAR(li_l, i == j ? 1.0 : 0.0, 1e-12) << "D=" << D;
        EXPECT_NEAR(vwv, C[i * D + j], 1e-10 * (1 + std::fabs(C[i * D + j]))) << "D=" << D;
        EXPECT_NEAR(vtv, i == j ? 1.0 : 0.0, 1e-12) << "D=" << D;
        if (j > i) {
          EXPECT_EQ(L[i * D + j], 0.0);
        }
      }
    }
  }
}

TEST(HmmLinalg, CholeskyNamesTheFailingPivotAndTheFloorClampsEigenvalues) {
  const std::vector<double> singular = {1.0, 1.0, 1.0, 1.0};
  std::vector<double> L(4);
  double pivot = 1.0;
  EXPECT_EQ(detail::cholesky(L.data(), singular.data(), 2, &pivot), 1);
  EXPECT_EQ(pivot, 0.0);
  std::vector<double> C = singular;  // eigenvalues 0 and 2
  detail::floor_eigenvalues(C.data(), 2, 0.25);
  std::vector<double> w(2), V(4);
  detail::symmetric_eigen(w.data(), V.data(), C.data(), 2);
  EXPECT_NEAR(std::min(w[0], w[1]), 0.25, 1e-14);
  EXPECT_NEAR(std::max(w[0], w[1]), 2.0, 1e-14);
  std::vector<double> fine = {2.0, 0.5, 0.5, 1.0};  // already above the floor: unchanged
  const auto before = fine;
  detail::floor_eigenvalues(fine.data(), 2, 1e-6);
  EXPECT_EQ(fine, before);
}

TEST(HmmFullCovariance, DensityMatchesTheReferenceOnOddSizes) {
  for (Index S : {1, 3, 7})
    for (Index D : {1, 2, 5}) {
      const Model m = random_full(10 * S + D, S, D);
      const auto seqs = sample(m, 2, 17, 5);
      for (const auto& seq : seqs) {
        std::vector<double> fast(seq.length * S);
        emission_log_prob(fast, m, seq.view());
        const auto ref = reference::emission_log_prob(m, seq.view());
        for (std::size_t i = 0; i < fast.size(); ++i)
          EXPECT_NEAR(fast[i], ref[i], 1e-10 * (1 + std::fabs(ref[i]))) << "S=" << S << " D=" << D;
        std::vector<double> alpha(seq.length * S), scale(seq.length), la(seq.length * S), rla;
        const double scaled = forward_scaled(alpha, scale, m, seq.view());
        const double logspace = forward_log(la, m, seq.view());
        const double textbook = reference::forward_log(rla, m, seq.view());
        EXPECT_NEAR(scaled, logspace, 1e-10 * std::fabs(logspace));
        EXPECT_NEAR(logspace, textbook, 1e-10 * std::fabs(textbook));
      }
    }
}

TEST(HmmFullCovariance, BaumWelchIsMonotoneAndThreadIndependent) {
  const Model truth = random_full(4, 3, 3);
  const auto seqs = sample(truth, 20, 40, 9);  // 20 sequences: 3 statistics chunks
  const auto v = views(seqs);
  Model start = random_full(5, 3, 3);
  std::vector<std::vector<double>> runs;
  for (int threads : {1, 2, 3}) {
    Model m = start;
    FitOptions o;
    o.max_iter = 15;
    o.tol = 0.0;
    o.threads = threads;
    const FitResult r = baum_welch(m, v, o);
    for (std::size_t i = 1; i < r.history.size(); ++i)
      EXPECT_GE(r.history[i], r.history[i - 1] - 1e-9 * std::fabs(r.history[i - 1]));
    std::vector<double> all = m.covariances;
    all.insert(all.end(), m.means.begin(), m.means.end());
    all.insert(all.end(), r.history.begin(), r.history.end());
    runs.push_back(all);
  }
  EXPECT_EQ(runs[0], runs[1]);
  EXPECT_EQ(runs[0], runs[2]);
}

TEST(HmmFullCovariance, RejectsAsymmetricAndSingularCovariances) {
  EXPECT_THROW(Model::gaussian_full({1.0}, {1.0}, {0.0, 0.0}, {1.0, 0.5, 0.4, 1.0}),
               InvalidArgument);
  try {
    Model::gaussian_full({1.0}, {1.0}, {0.0, 0.0}, {1.0, 1.0, 1.0, 1.0});
    FAIL() << "a singular covariance must be refused";
  } catch (const InvalidArgument& e) {
    EXPECT_NE(std::string(e.what()).find("covariances[0] is not positive definite"),
              std::string::npos)
        << e.what();
  }
}

TEST(HmmFitFromData, KmeansFindsSeparatedStatesAndIsSeeded) {
  const Model truth = Model::gaussian_full({0.5, 0.5}, {0.9, 0.1, 0.2, 0.8}, {0.0, 0.0, 8.0, 8.0},
                                           {1.0, 0.3, 0.3, 1.0, 0.5, 0.0, 0.0, 0.5});
  const auto seqs = sample(truth, 4, 100, 2);
  const auto v = views(seqs);
  InitOptions init;
  init.seed = 7;
  init.n_init = 2;
  FitOptions o;
  o.max_iter = 50;
  const auto a = fit_from_data(EmissionType::gaussian_full, 2, v, 2, init, o);
  const auto b = fit_from_data(EmissionType::gaussian_full, 2, v, 2, init, o);
  EXPECT_EQ(model_to_json_text(a.model), model_to_json_text(b.model));
  ASSERT_EQ(a.restart_logliks.size(), 2u);
  double truth_ll = 0.0;
  for (const auto& s : v) truth_ll += log_likelihood(truth, s);
  EXPECT_GE(a.fit.history.back(), truth_ll);
  const double m0 = a.model.means[0], m1 = a.model.means[2];
  EXPECT_NEAR(std::min(m0, m1), 0.0, 0.5);
  EXPECT_NEAR(std::max(m0, m1), 8.0, 0.5);
  init.method = InitMethod::kmeans;
  EXPECT_THROW(initial_model(EmissionType::categorical, 2, v, init, 1, 1e-6, 0), InvalidArgument);
}

}  // namespace
}  // namespace kessel::hmm
