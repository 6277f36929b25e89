// Baum–Welch: monotone log-likelihood, frozen parameters stay bit-identical, thread-count
// independence, variance floor, parameter recovery on the casino.
#include <gtest/gtest.h>

#include <cmath>

#include "hmm_fixtures.h"
#include "kessel/error.h"
#include "kessel/hmm.h"

namespace kessel::hmm {
namespace {

using testing::casino;
using testing::random_categorical;
using testing::random_gaussian;

std::vector<Sequence> variable_length(const Model& truth, Index n, std::uint64_t seed) {
  std::vector<Sequence> seqs;
  for (Index i = 0; i < n; ++i) seqs.push_back(sample(truth, 1, 5 + (i * 17) % 60, seed + i)[0]);
  return seqs;
}

void expect_monotone(const FitResult& r) {
  ASSERT_GE(r.history.size(), 2u);
  for (std::size_t k = 1; k < r.history.size(); ++k) {
    EXPECT_GE(r.history[k], r.history[k - 1] - 1e-9 * std::fabs(r.history[k - 1]))
        << "iteration " << k;
  }
}

TEST(HmmBaumWelch, LogLikelihoodNeverDecreasesCategorical) {
  const auto seqs = variable_length(random_categorical(1, 4, 5), 40, 100);
  Model m = random_categorical(2, 4, 5);
  FitOptions opt;
  opt.max_iter = 60;
  opt.tol = 0.0;  // run all iterations
  const auto r = baum_welch(m, views(seqs), opt);
  EXPECT_EQ(r.iterations, 60);
  expect_monotone(r);
  EXPECT_GT(r.history.back(), r.history.front() + 1.0);
  EXPECT_EQ(r.history.back(), [&] {
    double s = 0;
    for (double x : log_likelihood(m, views(seqs), 1)) s += x;
    return s;
  }()) << "the last history entry is the log-likelihood of the returned model";
}

TEST(HmmBaumWelch, LogLikelihoodNeverDecreasesGaussian) {
  const auto seqs = variable_length(random_gaussian(3, 3, 4), 30, 200);
  Model m = random_gaussian(4, 3, 4);
  FitOptions opt;
  opt.max_iter = 50;
  opt.tol = 0.0;
  const auto r = baum_welch(m, views(seqs), opt);
  expect_monotone(r);
  EXPECT_GT(r.history.back(), r.history.front() + 10.0);
}

TEST(HmmBaumWelch, StopsAtTolerance) {
  const auto seqs = variable_length(casino(), 20, 300);
  Model m = random_categorical(5, 2, 6);
  FitOptions opt;
  opt.max_iter = 1000;
  opt.tol = 1e-3;
  int calls = 0;
  opt.on_iteration = [&](int it, double, double) { EXPECT_EQ(it, calls++); };
  const auto r = baum_welch(m, views(seqs), opt);
  EXPECT_TRUE(r.converged);
  EXPECT_LT(r.iterations, 1000);
  EXPECT_EQ(calls, r.iterations + 1);
  EXPECT_LT(r.history.back() - r.history[r.history.size() - 2], 1e-3);
}

TEST(HmmBaumWelch, FixedParametersStayBitIdentical) {
  const auto seqs = variable_length(random_gaussian(6, 3, 2), 25, 400);
  for (int which = 0; which < 3; ++which) {
    Model m = random_gaussian(7, 3, 2);
    const Model before = m;
    FitOptions opt;
    opt.max_iter = 10;
    opt.tol = 0.0;
    opt.fix_start = which == 0;
    opt.fix_transitions = which == 1;
    opt.fix_emissions = which == 2;
    const auto r = baum_welch(m, views(seqs), opt);
    expect_monotone(r);
    EXPECT_EQ(m.start == before.start, which == 0);
    EXPECT_EQ(m.transitions == before.transitions, which == 1);
    EXPECT_EQ(m.means == before.means && m.variances == before.variances, which == 2);
  }
  const auto cat_seqs = variable_length(casino(), 10, 500);
  Model c = random_categorical(8, 2, 6);
  const Model before = c;
  FitOptions opt;
  opt.max_iter = 5;
  opt.fix_emissions = true;
  baum_welch(c, views(cat_seqs), opt);
  EXPECT_EQ(c.emissions, before.emissions);
  EXPECT_NE(c.transitions, before.transitions);
}

TEST(HmmBaumWelch, SameResultForAnyThreadCount) {
  // 700 sequences span two blocks of 64 chunks of 8; the work is large enough for 3 threads.
  const auto seqs = variable_length(random_gaussian(9, 12, 3), 700, 600);
  FitOptions opt;
  opt.max_iter = 3;
  opt.tol = 0.0;
  opt.threads = 1;
  Model a = random_gaussian(10, 12, 3);
  Model b = a;
  const auto ra = baum_welch(a, views(seqs), opt);
  opt.threads = 3;
  const auto rb = baum_welch(b, views(seqs), opt);
  EXPECT_EQ(ra.history, rb.history);
  EXPECT_EQ(a.start, b.start);
  EXPECT_EQ(a.means, b.means);
  EXPECT_EQ(a.variances, b.variances);
  EXPECT_EQ(a.transitions, b.transitions);
}

TEST(HmmBaumWelch, VarianceFloorHolds) {
  // A state that sees one repeated value would collapse to variance 0 without the floor.
  std::vector<double> obs(40);
  for (int t = 0; t < 40; ++t) obs[t] = t % 2 ? 5.0 : 0.1 * t;
  const SequenceView x{nullptr, obs.data(), 40};
  Model m = Model::gaussian({0.5, 0.5}, {0.5, 0.5, 0.5, 0.5}, {0.0, 5.2}, {4.0, 1.0});
  FitOptions opt;
  opt.max_iter = 50;
  opt.variance_floor = 1e-3;
  baum_welch(m, std::span<const SequenceView>(&x, 1), opt);
  EXPECT_DOUBLE_EQ(m.variances[1], 1e-3);
  EXPECT_NEAR(m.means[1], 5.0, 1e-9);
  EXPECT_GT(m.variances[0], 1.0);
}

TEST(HmmBaumWelch, RecoversTheCasinoFromManyRolls) {
  const Model truth = casino();
  const auto seqs = sample(truth, 20, 500, 77);
  Model m = Model::categorical({0.5, 0.5}, {0.8, 0.2, 0.2, 0.8},
                               {0.2, 0.2, 0.2, 0.2, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.2, 0.4});
  FitOptions opt;
  opt.max_iter = 200;
  opt.tol = 1e-6;
  baum_welch(m, views(seqs), opt);
  EXPECT_NEAR(m.emissions[6 + 5], 0.5, 0.05);  // loaded six
  EXPECT_NEAR(m.transitions[0 * 2 + 1], 0.05, 0.03);
  EXPECT_NEAR(m.transitions[1 * 2 + 0], 0.1, 0.05);
}

TEST(HmmBaumWelch, RejectsBadOptionsAndImpossibleSequences) {
  Model m = casino();
  const auto seqs = sample(m, 2, 10, 1);
  FitOptions opt;
  opt.max_iter = -1;
  EXPECT_THROW(baum_welch(m, views(seqs), opt), InvalidArgument);
  opt.max_iter = 5;
  opt.tol = std::nan("");
  EXPECT_THROW(baum_welch(m, views(seqs), opt), InvalidArgument);
  opt.tol = 1e-6;
  opt.variance_floor = 0.0;
  EXPECT_THROW(baum_welch(m, views(seqs), opt), InvalidArgument);
  opt.variance_floor = 1e-6;
  EXPECT_THROW(baum_welch(m, std::span<const SequenceView>(), opt), InvalidArgument);
  Model zero = Model::categorical({1, 0}, {1, 0, 0, 1}, {1, 0, 0, 1});
  std::vector<std::int32_t> impossible = {0, 1};
  const SequenceView x{impossible.data(), nullptr, 2};
  try {
    baum_welch(zero, std::span<const SequenceView>(&x, 1), opt);
    FAIL() << "expected InvalidArgument";
  } catch (const InvalidArgument& e) {
    EXPECT_NE(std::string(e.what()).find("sequence 0 has probability 0"), std::string::npos)
        << e.what();
  }
}

}  // namespace
}  // namespace kessel::hmm
