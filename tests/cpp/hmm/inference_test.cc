// Forward/backward/posterior/Viterbi: the casino, brute-force enumeration, scaled vs log space, and
// fast kernels vs the plain reference on odd sizes and thread counts.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <span>
#include <string>

#include "hmm/reference.h"
#include "hmm_fixtures.h"
#include "kessel/cpu.h"
#include "kessel/error.h"
#include "kessel/hmm.h"

namespace kessel::hmm {
namespace {

using testing::casino;
using testing::random_categorical;
using testing::random_gaussian;

TEST(HmmCasino, ViterbiRecoversTheLoadedDie) {
  const Model m = casino();
  std::vector<std::vector<std::int32_t>> states;
  const auto seqs = sample(m, 1, 300, 1998, &states);
  std::vector<std::int32_t> path(300);
  viterbi(path, m, seqs[0].view());
  int correct = 0, loaded = 0;
  for (int t = 0; t < 300; ++t) {
    correct += path[t] == states[0][t];
    loaded += states[0][t] == 1;
  }
  EXPECT_GT(loaded, 30) << "the sample should visit the loaded die";
  EXPECT_GT(correct / 300.0, 0.8) << correct << " of 300 states recovered";
}

TEST(HmmCasino, ScaledAndLogForwardAgreeAndPosteriorsSumToOne) {
  const Model m = casino();
  const auto seqs = sample(m, 1, 300, 7);
  const SequenceView x = seqs[0].view();
  std::vector<double> alpha(300 * 2), scale(300), la(300 * 2), lb(300 * 2), beta(300 * 2),
      gamma(300 * 2);
  const double ll_scaled = forward_scaled(alpha, scale, m, x);
  const double ll_log = forward_log(la, m, x);
  const double ll_back = backward_log(lb, m, x);
  EXPECT_NEAR(ll_scaled, ll_log, 1e-10 * std::fabs(ll_log));
  EXPECT_NEAR(ll_back, ll_log, 1e-10 * std::fabs(ll_log));
  backward_scaled(beta, m, x, alpha);
  posterior(gamma, m, x);
  for (int t = 0; t < 300; ++t) {
    double sum = 0.0;
    for (int s = 0; s < 2; ++s) {
      const double from_logs = std::exp(la[t * 2 + s] + lb[t * 2 + s] - ll_log);
      EXPECT_NEAR(gamma[t * 2 + s], from_logs, 1e-10);
      EXPECT_NEAR(alpha[t * 2 + s] * beta[t * 2 + s], from_logs, 1e-10);
      sum += gamma[t * 2 + s];
    }
    EXPECT_NEAR(sum, 1.0, 1e-12);
  }
}

// Enumerates all S^T paths: p(x) = sum over paths of p(x, path); Viterbi = the argmax.
void check_brute_force(const Model& m, SequenceView x) {
  const Index S = m.n_states, T = x.length;
  const auto lb = reference::emission_log_prob(m, x);
  double total = 0.0, best = -std::numeric_limits<double>::infinity();
  std::vector<std::int32_t> path(T, 0), best_path;
  Index n_paths = 1;
  for (Index t = 0; t < T; ++t) n_paths *= S;
  for (Index code = 0; code < n_paths; ++code) {
    Index c = code;
    for (Index t = T - 1; t >= 0; --t, c /= S) path[t] = static_cast<std::int32_t>(c % S);
    double lp = std::log(m.start[path[0]]) + lb[path[0]];
    for (Index t = 1; t < T; ++t) {
      lp += std::log(m.transitions[path[t - 1] * S + path[t]]) + lb[t * S + path[t]];
    }
    total += std::exp(lp);
    if (lp > best) {
      best = lp;
      best_path = path;
    }
  }
  std::vector<double> alpha(T * S), scale(T), la(T * S);
  EXPECT_NEAR(forward_scaled(alpha, scale, m, x), std::log(total), 1e-10);
  EXPECT_NEAR(forward_log(la, m, x), std::log(total), 1e-10);
  std::vector<std::int32_t> vpath(T);
  EXPECT_NEAR(viterbi(vpath, m, x), best, 1e-10);
  EXPECT_EQ(vpath, best_path);
}

TEST(HmmBruteForce, CategoricalThreeStatesFiveSteps) {
  for (std::uint64_t seed : {1, 2, 3}) {
    const Model m = random_categorical(seed, 3, 4);
    check_brute_force(m, sample(m, 1, 5, seed + 100)[0].view());
  }
}

TEST(HmmBruteForce, GaussianThreeStatesFiveSteps) {
  for (std::uint64_t seed : {4, 5, 6}) {
    const Model m = random_gaussian(seed, 3, 2);
    check_brute_force(m, sample(m, 1, 5, seed + 100)[0].view());
  }
}

// Fast kernels against the plain reference on odd sizes (on every SIMD variant: test_hmm's main
// repeats the suite once per variant, tests/cpp/common/variant_main.cc).
TEST(HmmKernels, MatchReferenceOnOddSizes) {
  for (Index S : {1, 3, 7, 9, 13, 17, 33}) {
    for (Index T : {1, 7, 129}) {
      for (int kind = 0; kind < 2; ++kind) {
        const Model m = kind == 0 ? random_categorical(S * 31 + T, S, 5)
                                  : random_gaussian(S * 37 + T, S, S == 13 ? 10 : 3);
        const auto seq = sample(m, 1, T, S + T)[0];
        const SequenceView x = seq.view();
        std::vector<double> lb(T * S);
        emission_log_prob(lb, m, x);
        const auto lb_ref = reference::emission_log_prob(m, x);
        for (Index i = 0; i < T * S; ++i) EXPECT_NEAR(lb[i], lb_ref[i], 1e-12 * (1 + std::fabs(lb_ref[i])));
        std::vector<double> alpha(T * S), scale(T), la(T * S), la_ref;
        const double ll_ref = reference::forward_log(la_ref, m, x);
        EXPECT_NEAR(forward_scaled(alpha, scale, m, x), ll_ref, 1e-10 * (1 + std::fabs(ll_ref)));
        EXPECT_NEAR(forward_log(la, m, x), ll_ref, 1e-10 * (1 + std::fabs(ll_ref)));
        std::vector<std::int32_t> path(T), path_ref;
        const double score_ref = reference::viterbi(path_ref, m, x);
        EXPECT_NEAR(viterbi(path, m, x), score_ref, 1e-10 * (1 + std::fabs(score_ref)));
        EXPECT_EQ(path, path_ref) << cpu_variant() << " S=" << S << " T=" << T << " kind=" << kind;
      }
    }
  }
}

// The Viterbi max-plus step keeps blocks of one to four vectors of destinations (2, 4 or 8 lanes):
// sizes around and past those widths (and the benchmark's S = 50) against the plain predecessor
// loop, paths identical.
TEST(HmmKernels, ViterbiMatchesReferenceAroundLaneWidths) {
  for (Index S : {2, 4, 5, 8, 9, 15, 16, 23, 32, 33, 41, 50, 65}) {
    const Model m = random_gaussian(S * 41, S, 4);
    for (const auto& seq : sample(m, 3, 50, S + 7)) {
      std::vector<std::int32_t> path(50), path_ref;
      const double score_ref = reference::viterbi(path_ref, m, seq.view());
      EXPECT_NEAR(viterbi(path, m, seq.view()), score_ref, 1e-10 * (1 + std::fabs(score_ref)));
      EXPECT_EQ(path, path_ref) << cpu_variant() << " S=" << S;
    }
  }
}

// viterbi over prebuilt start and transition logs, given the emission logs, against the model's own
// viterbi (its reference): the same path and the same score bits, on odd sizes, Gaussian and
// categorical models, and a sparse model with tied rows (zero starts and transitions, as the
// segmenter's B/M/E/S model has, where ties decide the path).
TEST(Viterbi, OverPrebuiltLogsMatchesTheModelsViterbi) {
  auto check = [](const Model& m, const SequenceView& x, const std::string& what) {
    const Index S = m.n_states, T = x.length;
    std::vector<double> lb(T * S), delta(T * S);
    emission_log_prob(lb, m, x);
    std::vector<std::int32_t> path(T), path_ref(T);
    const double score_ref = viterbi(path_ref, m, x);
    const TransitionLogs logs = transition_logs(m.start, m.transitions);
    EXPECT_EQ(viterbi(path, delta, logs, lb), score_ref) << cpu_variant() << " " << what;
    EXPECT_EQ(path, path_ref) << cpu_variant() << " " << what;
  };
  for (Index S : {1, 3, 4, 7, 13, 33}) {
    for (Index T : {1, 7, 129}) {
      for (int kind = 0; kind < 2; ++kind) {
        const Model m =
            kind == 0 ? random_categorical(S * 31 + T, S, 5) : random_gaussian(S * 37 + T, S, 3);
        check(
            m, sample(m, 1, T, S + T)[0].view(),
            "S=" + std::to_string(S) + " T=" + std::to_string(T) + " kind=" + std::to_string(kind));
      }
    }
  }
  // S M E B as the segmenter numbers them: S/E go to S or B, B/M to M or E; every emission row the
  // same, so only the start, the transitions and the ties choose.
  const Model bmes =
      Model::categorical({0.5, 0.0, 0.0, 0.5},
                         {0.5, 0.0, 0.0, 0.5,  //
                          0.0, 0.5, 0.5, 0.0,  //
                          0.5, 0.0, 0.0, 0.5,  //
                          0.0, 0.5, 0.5, 0.0},
                         {0.25, 0.25, 0.5, 0.25, 0.25, 0.5, 0.25, 0.25, 0.5, 0.25, 0.25, 0.5});
  for (Index T : {1, 2, 5, 8}) {
    std::vector<std::int32_t> symbols(T);
    for (Index t = 0; t < T; ++t) symbols[t] = static_cast<std::int32_t>(t % 3);
    check(bmes, {symbols.data(), nullptr, T}, "bmes T=" + std::to_string(T));
  }
}

TEST(Viterbi, OverPrebuiltLogsChecksItsArguments) {
  const Model m = random_categorical(5, 3, 4);
  const TransitionLogs logs = transition_logs(m.start, m.transitions);
  std::vector<std::int32_t> path(4);
  std::vector<double> lb(4 * 3, -1.0), delta(4 * 3);
  EXPECT_THROW(viterbi(path, delta, logs, std::span<const double>(lb).first(11)), InvalidArgument);
  EXPECT_THROW(viterbi(path, std::span<double>(delta).first(11), logs, lb), InvalidArgument);
  std::vector<double> impossible(4 * 3, -std::numeric_limits<double>::infinity());
  EXPECT_THROW(viterbi(path, delta, logs, impossible), InvalidArgument);
  lb[5] = std::numeric_limits<double>::quiet_NaN();
  EXPECT_THROW(viterbi(path, delta, logs, lb), InvalidArgument);
  EXPECT_THROW(transition_logs(m.start, std::span<const double>(m.transitions).first(8)),
               InvalidArgument);
  EXPECT_THROW(transition_logs(std::vector<double>{0.5, 0.6, 0.0}, m.transitions), InvalidArgument);
}

TEST(HmmKernels, BatchResultsAreIdenticalForAnyThreadCount) {
  // Big enough (~3 MFLOP) that batch_threads really runs the requested number of threads.
  const Model m = random_gaussian(11, 16, 4);
  std::vector<Sequence> seqs;
  for (Index n = 0; n < 61; ++n) seqs.push_back(sample(m, 1, 1 + 13 * n % 97, n)[0]);
  const auto v = views(seqs);
  const auto ll1 = log_likelihood(m, v, 1);
  const auto vit1 = viterbi(m, v, 1);
  const auto post1 = posterior(m, v, 1);
  for (int threads : {2, 3}) {
    EXPECT_EQ(log_likelihood(m, v, threads), ll1);
    EXPECT_EQ(posterior(m, v, threads), post1);
    const auto vit = viterbi(m, v, threads);
    for (std::size_t n = 0; n < vit.size(); ++n) {
      EXPECT_EQ(vit[n].path, vit1[n].path);
      EXPECT_EQ(vit[n].log_score, vit1[n].log_score);
    }
  }
  for (std::size_t n = 0; n < seqs.size(); ++n) EXPECT_EQ(log_likelihood(m, v[n]), ll1[n]);
}

// Well-separated Gaussians with zero transitions: the scaled passes must neither underflow nor
// produce NaN where a state cannot be reached.
TEST(HmmKernels, LeftToRightGaussianWithZeroTransitionsStaysFinite) {
  const Model m = Model::gaussian({1, 0, 0}, {0.9, 0.1, 0, 0, 0.9, 0.1, 0, 0, 1},
                                  {0, 10, 20}, {1, 1, 1});
  std::vector<double> obs = {0.1, -0.2, 9.5, 10.3, 21, 19.2, 20.1};
  const SequenceView x{nullptr, obs.data(), 7};
  std::vector<double> alpha(21), scale(7), la(21), gamma(21);
  const double ll = forward_scaled(alpha, scale, m, x);
  EXPECT_NEAR(ll, forward_log(la, m, x), 1e-9 * std::fabs(ll));
  posterior(gamma, m, x);
  for (double g : gamma) EXPECT_TRUE(std::isfinite(g));
  EXPECT_NEAR(gamma[0 * 3 + 0], 1.0, 1e-9);
  EXPECT_NEAR(gamma[3 * 3 + 1], 1.0, 1e-9);
  EXPECT_NEAR(gamma[6 * 3 + 2], 1.0, 1e-9);
  // A last observation at -100: its emission under the unreachable state 0 is ~1050 nats (state 1)
  // and ~2200 nats (state 2) above the reachable ones, so exp(log_b - max) underflows to 0 for every
  // reachable state and the scaled forward must take its exact rescue step.
  obs[6] = -100.0;
  const double ll_jump = forward_scaled(alpha, scale, m, x);
  EXPECT_NEAR(ll_jump, forward_log(la, m, x), 1e-9 * std::fabs(ll_jump));
  posterior(gamma, m, x);
  for (double g : gamma) EXPECT_TRUE(std::isfinite(g));
}

TEST(HmmErrors, BadModelsAndSequencesThrowNamingTheArgument) {
  EXPECT_THROW(Model::categorical({0.5, 0.6}, {1, 0, 0, 1}, {1, 1}), InvalidArgument);
  EXPECT_THROW(Model::categorical({0.5, 0.5}, {1, 0, 0}, {1, 1}), InvalidArgument);
  EXPECT_THROW(Model::gaussian({1}, {1}, {0}, {0.0}), InvalidArgument);
  EXPECT_THROW(Model::gaussian({1}, {1}, {0}, {-1.0}), InvalidArgument);
  EXPECT_THROW(Model::gaussian({1}, {1}, {std::nan("")}, {1.0}), InvalidArgument);
  try {
    Model::categorical({0.5, 0.5}, {0.5, 0.5, 0.2, 0.7}, {1, 1});
    FAIL() << "expected InvalidArgument";
  } catch (const InvalidArgument& e) {
    EXPECT_NE(std::string(e.what()).find("transitions row 1 sums to 0.9"), std::string::npos)
        << e.what();
  }
  const Model m = casino();
  std::vector<std::int32_t> bad = {0, 6};
  std::vector<std::int32_t> path(2);
  try {
    viterbi(path, m, SequenceView{bad.data(), nullptr, 2});
    FAIL() << "expected InvalidArgument";
  } catch (const InvalidArgument& e) {
    EXPECT_NE(std::string(e.what()).find("symbol 6 outside [0, 6)"), std::string::npos) << e.what();
  }
  EXPECT_THROW(log_likelihood(m, SequenceView{bad.data(), nullptr, 0}), InvalidArgument);
  std::vector<double> vals = {1.0, std::nan("")};
  const Model g = Model::gaussian({1}, {1}, {0}, {1});
  EXPECT_THROW(log_likelihood(g, SequenceView{nullptr, vals.data(), 2}), InvalidArgument);
  // A zero-probability sequence has no posterior or Viterbi path.
  const Model zero = Model::categorical({1, 0}, {1, 0, 0, 1}, {1, 0, 0, 1});
  std::vector<std::int32_t> impossible = {0, 1};
  std::vector<double> gamma(4);
  EXPECT_EQ(log_likelihood(zero, SequenceView{impossible.data(), nullptr, 2}),
            -std::numeric_limits<double>::infinity());
  EXPECT_THROW(posterior(gamma, zero, SequenceView{impossible.data(), nullptr, 2}),
               InvalidArgument);
  EXPECT_THROW(viterbi(path, zero, SequenceView{impossible.data(), nullptr, 2}), InvalidArgument);
}

TEST(HmmSample, SameSeedSameSequencesAndRightStatistics) {
  const Model m = casino();
  const auto a = sample(m, 3, 50, 42), b = sample(m, 3, 50, 42), c = sample(m, 3, 50, 43);
  for (int n = 0; n < 3; ++n) EXPECT_EQ(a[n].symbols, b[n].symbols);
  EXPECT_NE(a[0].symbols, c[0].symbols);
  const Model g = Model::gaussian({1}, {1}, {3.0, -1.0}, {4.0, 0.25});
  const auto s = sample(g, 1, 20000, 5)[0];
  double mean0 = 0, mean1 = 0, var0 = 0;
  for (Index t = 0; t < 20000; ++t) {
    mean0 += s.values[2 * t];
    mean1 += s.values[2 * t + 1];
  }
  mean0 /= 20000, mean1 /= 20000;
  for (Index t = 0; t < 20000; ++t) var0 += (s.values[2 * t] - mean0) * (s.values[2 * t] - mean0);
  var0 /= 20000;
  EXPECT_NEAR(mean0, 3.0, 0.05);
  EXPECT_NEAR(mean1, -1.0, 0.02);
  EXPECT_NEAR(var0, 4.0, 0.15);
}

}  // namespace
}  // namespace kessel::hmm
