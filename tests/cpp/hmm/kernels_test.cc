// The HMM kernel family on every SIMD variant this machine runs. test_hmm's main
// (tests/cpp/common/variant_main.cc) repeats the suite once per variant, so each test checks the
// variant of its iteration (cpu_variant()): its table's kernels against the plain scalar table on
// odd sizes, misaligned pointers and guard values past the end; then the ops (Viterbi,
// forward–backward, posterior, Baum–Welch) against the scalar variant and the textbook reference,
// with the cross-variant tolerance of docs/hmm.md, and bit-identical results for any thread count.
#include "hmm/kernels.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "hmm/hmm_kernels.h"
#include "hmm/reference.h"
#include "hmm_fixtures.h"
#include "hwy/highway.h"
#include "kessel/cpu.h"
#include "kessel/error.h"
#include "kessel/hmm.h"
#include "util/simd.h"

namespace kessel::hmm {
namespace {

using detail::hmm_kernels;
using detail::HmmKernels;
using testing::random_categorical;
using testing::random_gaussian;

constexpr double kNegInf = -std::numeric_limits<double>::infinity();
constexpr double kGuard = 12345.678;  // written past every output; a kernel must leave it alone
constexpr Index kPad = 8;             // guard doubles after each buffer
const Index kOddSizes[] = {1, 3, 7, 9, 17, 33, 50};

// The documented cross-variant tolerance (docs/hmm.md): relative to 1 + |value|.
constexpr double kKernelTol = 1e-13;     // one kernel call, against the scalar table
constexpr double kLogLikTol = 1e-12;     // log p(x) and Baum–Welch's history
constexpr double kPosteriorTol = 1e-12;  // posterior probabilities (absolute)

// A buffer of n doubles starting `offset` doubles into its storage (misalignment), followed by
// kPad guard values.
struct Buf {
  std::vector<double> storage;
  Index offset, n;
  Buf(Index n_, Index offset_, double fill = 0.0)
      : storage(offset_ + n_ + kPad, kGuard), offset(offset_), n(n_) {
    std::fill(data(), data() + n, fill);
  }
  double* data() { return storage.data() + offset; }
  const double* data() const { return storage.data() + offset; }
  double& operator[](Index i) { return data()[i]; }
  bool guards_intact() const {
    for (Index i = 0; i < kPad; ++i) {
      if (data()[n + i] != kGuard) return false;
    }
    for (Index i = 0; i < offset; ++i) {
      if (storage[i] != kGuard) return false;
    }
    return true;
  }
};

Buf random_buf(std::mt19937_64& rng, Index n, Index offset, double lo, double hi) {
  std::uniform_real_distribution<double> u(lo, hi);
  Buf b(n, offset);
  for (Index i = 0; i < n; ++i) b[i] = u(rng);
  return b;
}

void expect_close(const Buf& got, const Buf& want, double tol, const std::string& what) {
  double maxdiff = 0.0;
  for (Index i = 0; i < want.n; ++i) {
    const double g = got.data()[i], w = want.data()[i];
    if (g == w) continue;  // also covers -inf == -inf
    maxdiff = std::max(maxdiff, std::fabs(g - w) / (1.0 + std::fabs(w)));
  }
  EXPECT_LE(maxdiff, tol) << what;
  EXPECT_TRUE(got.guards_intact()) << what << ": wrote outside its buffer";
}

TEST(HmmVariants, EveryTableNamesItsVariantAndUnknownTargetsThrow) {
  const auto targets = simd::available_targets();
  ASSERT_EQ(targets.back(), simd::kScalarReference);
  std::string names;
  for (std::int64_t t : targets) {
    EXPECT_STREQ(hmm_kernels(t).variant, simd::target_name(t));
    names += std::string(" ") + simd::target_name(t);
  }
  std::printf("HMM kernel variants on this machine:%s\n", names.c_str());
  // A target bit this build did not compile.
  std::int64_t missing = 1;
  while (missing & HWY_TARGETS) missing <<= 1;
  EXPECT_THROW(hmm_kernels(missing), InvalidArgument);
  for (const std::string& name : cpu_variants_available()) {
    ScopedCpuVariant scoped(name);
    EXPECT_EQ(detail::active_kernels().variant, name);
  }
}

// This iteration's kernel table against the scalar table, on odd sizes and misaligned pointers.
TEST(HmmVariants, KernelsMatchTheScalarTableOnOddSizes) {
  const HmmKernels& ref = hmm_kernels(simd::kScalarReference);
  const HmmKernels& k = detail::active_kernels();  // this iteration's variant
  for (Index S : kOddSizes) {
    for (Index off : {0, 1, 3}) {
      const std::string at =
          std::string(k.variant) + " S=" + std::to_string(S) + " offset=" + std::to_string(off);
      std::mt19937_64 rng(S * 1000 + off);
      // Viterbi step: exact, with -inf entries in prev and in the transitions.
      Buf prev = random_buf(rng, S, off, -50.0, 0.0), lb = random_buf(rng, S, off, -10.0, 2.0);
      Buf lt = random_buf(rng, S * S, off, -8.0, 0.0), ltt(S * S, off);
      if (S > 2) prev[1] = kNegInf;
      for (Index i = 0; i < S; i += 3) lt[i * S + (i * 7) % S] = kNegInf;
      for (Index i = 0; i < S; ++i) {
        for (Index j = 0; j < S; ++j) ltt[j * S + i] = lt[i * S + j];
      }
      Buf nd(S, off), nd_ref(S, off);
      k.max_plus_step(nd.data(), prev.data(), lt.data(), ltt.data(), lb.data(), S);
      ref.max_plus_step(nd_ref.data(), prev.data(), lt.data(), ltt.data(), lb.data(), S);
      expect_close(nd, nd_ref, 0.0, at + " max_plus_step");
      EXPECT_EQ(k.max_of(lb.data(), S), ref.max_of(lb.data(), S)) << at;
      EXPECT_EQ(k.max_of(lb.data(), 0), kNegInf) << at;
      // Scaled forward/backward pieces; lb with a -inf (a zero emission).
      Buf p = random_buf(rng, S, off, 0.0, 1.0);
      if (S > 1) lb[S - 1] = kNegInf;
      const double m = ref.max_of(lb.data(), S);
      Buf a(S, off), a_ref(S, off);
      const double sum = k.mul_exp_sum(a.data(), p.data(), lb.data(), m, S);
      const double sum_ref = ref.mul_exp_sum(a_ref.data(), p.data(), lb.data(), m, S);
      EXPECT_NEAR(sum, sum_ref, kKernelTol * (1 + sum_ref)) << at;
      expect_close(a, a_ref, kKernelTol, at + " mul_exp_sum");
      if (S > 1) {
        EXPECT_EQ(a[S - 1], 0.0) << at << ": exp(-inf) must be 0";
      }
      Buf M = random_buf(rng, S * S, off, 0.0, 1.0), Mt(S * S, off);
      for (Index i = 0; i < S; ++i) {
        for (Index j = 0; j < S; ++j) Mt[j * S + i] = M[i * S + j];
      }
      Buf x = random_buf(rng, S, off, 0.0, 1.0);
      if (S > 3) x[2] = 0.0;  // a skipped row
      Buf out(S, off), out_ref(S, off);
      k.vec_mat(out.data(), x.data(), M.data(), Mt.data(), S);
      ref.vec_mat(out_ref.data(), x.data(), M.data(), Mt.data(), S);
      expect_close(out, out_ref, kKernelTol, at + " vec_mat");
      double z, mx, z_ref, mx_ref;
      k.dot_and_max(&z, &mx, p.data(), x.data(), S);
      ref.dot_and_max(&z_ref, &mx_ref, p.data(), x.data(), S);
      EXPECT_NEAR(z, z_ref, kKernelTol * (1 + z_ref)) << at;
      EXPECT_EQ(mx, mx_ref) << at;
      Buf xi = random_buf(rng, S * S, off, 0.0, 3.0), xi_ref = xi;
      k.outer_add(xi.data(), x.data(), 0.7, p.data(), S);
      ref.outer_add(xi_ref.data(), x.data(), 0.7, p.data(), S);
      expect_close(xi, xi_ref, kKernelTol, at + " outer_add");
      Buf carry(S, off), carry_ref(S, off), row = x, row_ref = x;
      k.rescale_pair(carry.data(), row.data(), 1.5, 0.25, S);
      ref.rescale_pair(carry_ref.data(), row_ref.data(), 1.5, 0.25, S);
      expect_close(carry, carry_ref, 0.0, at + " rescale_pair carry");
      expect_close(row, row_ref, 0.0, at + " rescale_pair row");
      Buf sc = x, sc_ref = x, prod(S, off), prod_ref(S, off), acc = p, acc_ref = p;
      k.scale(sc.data(), 1.0 / 3.0, S);
      ref.scale(sc_ref.data(), 1.0 / 3.0, S);
      expect_close(sc, sc_ref, 0.0, at + " scale");
      k.mul(prod.data(), x.data(), p.data(), S);
      ref.mul(prod_ref.data(), x.data(), p.data(), S);
      expect_close(prod, prod_ref, 0.0, at + " mul");
      k.add(acc.data(), x.data(), S);
      ref.add(acc_ref.data(), x.data(), S);
      expect_close(acc, acc_ref, 0.0, at + " add");
      // Gaussian densities and statistics, D odd too.
      for (Index D : {1, 3, 10}) {
        const Index T = 5;
        Buf obs = random_buf(rng, T * D, off, -4.0, 4.0), mu = random_buf(rng, D * S, off, -3, 3);
        Buf w = random_buf(rng, D * S, off, -2.0, -0.2), norm = random_buf(rng, S, off, -9, -1);
        Buf lbg(T * S, off), lbg_ref(T * S, off);
        k.gaussian_log_prob(lbg.data(), obs.data(), mu.data(), w.data(), norm.data(), T, S, D);
        ref.gaussian_log_prob(lbg_ref.data(), obs.data(), mu.data(), w.data(), norm.data(), T, S,
                              D);
        expect_close(lbg, lbg_ref, kKernelTol, at + " gaussian_log_prob D=" + std::to_string(D));
        Buf s1 = random_buf(rng, D * S, off, -1, 1), s2 = random_buf(rng, D * S, off, 0, 1);
        Buf s1_ref = s1, s2_ref = s2;
        k.gaussian_stats(s1.data(), s2.data(), p.data(), obs.data(), mu.data(), S, D);
        ref.gaussian_stats(s1_ref.data(), s2_ref.data(), p.data(), obs.data(), mu.data(), S, D);
        expect_close(s1, s1_ref, kKernelTol, at + " gaussian_stats s1");
        expect_close(s2, s2_ref, kKernelTol, at + " gaussian_stats s2");
      }
    }
  }
}

// The ops under this iteration's variant against the scalar variant: Viterbi paths identical and,
// for categorical emissions, scores bit-identical (max is exact; Gaussian log-densities differ in
// the last bits, so their scores are within the tolerance), log-likelihoods and posteriors within
// the documented tolerance, and against the textbook reference; within a variant, any thread count
// gives the same bits.
TEST(HmmVariants, OpsMatchTheScalarVariantForEveryThreadCount) {
  const std::string name = cpu_variant();
  double worst_ll = 0.0, worst_post = 0.0;
  for (Index S : {1, 3, 7, 9, 17, 33}) {
    for (int kind = 0; kind < 2; ++kind) {
      const Model m = kind == 0 ? random_categorical(S * 13 + 1, S, 6)
                                : random_gaussian(S * 17 + 2, S, S % 4 + 1);
      std::vector<Sequence> seqs;
      for (Index n = 0; n < 24; ++n) seqs.push_back(sample(m, 1, 1 + (n * 29) % 90, S + n)[0]);
      const auto v = views(seqs);
      std::vector<double> ll_ref;
      std::vector<std::vector<double>> post_ref;
      std::vector<ViterbiResult> vit_ref;
      {
        ScopedCpuVariant scalar("scalar");
        post_ref = posterior(m, v, 1, &ll_ref);
        vit_ref = viterbi(m, v, 1);
      }
      for (std::size_t n = 0; n < seqs.size(); ++n) {
        std::vector<double> la;
        const double ll_text = reference::forward_log(la, m, v[n]);
        EXPECT_NEAR(ll_ref[n], ll_text, 1e-10 * (1 + std::fabs(ll_text)));
      }
      const std::string at = name + " S=" + std::to_string(S) + " kind=" + std::to_string(kind);
      std::vector<double> ll1;
      const auto post1 = posterior(m, v, 1, &ll1);
      const auto vit1 = viterbi(m, v, 1);
      double ll_diff = 0.0, post_diff = 0.0;
      for (std::size_t n = 0; n < seqs.size(); ++n) {
        ll_diff = std::max(ll_diff, std::fabs(ll1[n] - ll_ref[n]) / (1 + std::fabs(ll_ref[n])));
        for (std::size_t i = 0; i < post1[n].size(); ++i) {
          post_diff = std::max(post_diff, std::fabs(post1[n][i] - post_ref[n][i]));
        }
        EXPECT_EQ(vit1[n].path, vit_ref[n].path) << at << " n=" << n;
        if (kind == 0) {  // same emissions in every variant: the max-plus sweep is exact
          EXPECT_EQ(vit1[n].log_score, vit_ref[n].log_score) << at << " n=" << n;
        } else {  // Gaussian log-densities differ in the last bits (FMA)
          EXPECT_NEAR(vit1[n].log_score, vit_ref[n].log_score,
                      kLogLikTol * (1 + std::fabs(vit_ref[n].log_score)))
              << at << " n=" << n;
        }
      }
      EXPECT_LE(ll_diff, kLogLikTol) << at;
      EXPECT_LE(post_diff, kPosteriorTol) << at;
      worst_ll = std::max(worst_ll, ll_diff);
      worst_post = std::max(worst_post, post_diff);
      for (int threads : {2, 3}) {
        std::vector<double> ll_t;
        EXPECT_EQ(posterior(m, v, threads, &ll_t), post1) << at << " threads=" << threads;
        EXPECT_EQ(ll_t, ll1) << at << " threads=" << threads;
        EXPECT_EQ(log_likelihood(m, v, threads), ll1) << at << " threads=" << threads;
        const auto vit = viterbi(m, v, threads);
        for (std::size_t n = 0; n < vit.size(); ++n) {
          EXPECT_EQ(vit[n].path, vit1[n].path) << at << " threads=" << threads;
          EXPECT_EQ(vit[n].log_score, vit1[n].log_score) << at << " threads=" << threads;
        }
      }
    }
  }
  std::printf("%s vs scalar: log p(x) maxdiff %.2e (relative), posterior maxdiff %.2e\n",
              name.c_str(), worst_ll, worst_post);
}

// Baum–Welch under this iteration's variant: the same fit as the scalar variant within the
// tolerance, and the same bits for any thread count within a variant.
TEST(HmmVariants, BaumWelchMatchesTheScalarVariant) {
  const Model truth = random_gaussian(77, 9, 3);
  std::vector<Sequence> seqs;
  for (Index n = 0; n < 40; ++n) seqs.push_back(sample(truth, 1, 10 + (n * 11) % 50, 500 + n)[0]);
  const auto v = views(seqs);
  const Model start = random_gaussian(78, 9, 3);
  FitOptions opt;
  opt.max_iter = 5;
  opt.tol = 0.0;
  opt.threads = 1;
  Model m_ref = start;
  FitResult r_ref;
  {
    ScopedCpuVariant scalar("scalar");
    r_ref = baum_welch(m_ref, v, opt);
  }
  const std::string name = cpu_variant();
  Model m1 = start;
  opt.threads = 1;
  const FitResult r1 = baum_welch(m1, v, opt);
  ASSERT_EQ(r1.history.size(), r_ref.history.size()) << name;
  for (std::size_t i = 0; i < r1.history.size(); ++i) {
    EXPECT_NEAR(r1.history[i], r_ref.history[i], kLogLikTol * (1 + std::fabs(r_ref.history[i])))
        << name << " iteration " << i;
  }
  for (std::size_t i = 0; i < m1.means.size(); ++i) {
    EXPECT_NEAR(m1.means[i], m_ref.means[i], 1e-10) << name;
  }
  for (int threads : {2, 3}) {
    Model mt = start;
    opt.threads = threads;
    EXPECT_EQ(baum_welch(mt, v, opt).history, r1.history) << name << " threads=" << threads;
    EXPECT_EQ(mt.transitions, m1.transitions) << name << " threads=" << threads;
    EXPECT_EQ(mt.means, m1.means) << name << " threads=" << threads;
    EXPECT_EQ(mt.variances, m1.variances) << name << " threads=" << threads;
  }
}

}  // namespace
}  // namespace kessel::hmm
