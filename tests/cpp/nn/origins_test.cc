// The corrected experiments of seed 000 (`kessel origins`): the claims the report makes hold.
#include "nn/origins.h"

#include <gtest/gtest.h>

namespace kessel::origins {
namespace {

TEST(Origins, FcmMembershipIsSoftmaxOfNegLogD2WithTemperatureMMinusOne) {
  const Report r = run_origins();
  ASSERT_EQ(r.fcm.by_m.size(), 5u);
  for (const FcmAtM& m : r.fcm.by_m) {
    EXPECT_DOUBLE_EQ(m.tau, m.m - 1.0);
    EXPECT_LT(m.max_abs_diff, 1e-12) << "m=" << m.m;
    EXPECT_DOUBLE_EQ(m.effective_m, (m.m + 1.0) / 2.0);
    EXPECT_LT(m.mistaken_vs_effective_max_abs_diff, 1e-12) << "m=" << m.m;
    for (const auto& row : m.fcm) EXPECT_NEAR(row[0] + row[1], 1.0, 1e-12);
  }
  // m = 2 (index 2): d2 = [0.05, 22.85] for x0, so u = 1 / (1 + 0.05/22.85).
  EXPECT_NEAR(r.fcm.by_m[2].fcm[0][0], 1.0 / (1.0 + 0.05 / 22.85), 1e-12);
  EXPECT_NEAR(r.fcm.correct_u0[1], 1.0 / (1.0 + 0.1 / 20.5), 1e-12);
  // The seed's code is sharper than what it printed.
  EXPECT_GT(r.fcm.seed_code_u0[0], 0.9999);
}

TEST(Origins, HmmForwardIsMixingWithTheTransposedTransitionMatrix) {
  const Report r = run_origins();
  EXPECT_LT(r.hmm.max_abs_diff_transposed, 1e-6);
  EXPECT_GT(r.hmm.max_abs_diff_untransposed, 1e-2);
  EXPECT_LT(r.hmm.softmax_of_log_a_max_abs_diff, 1e-6);
  for (size_t d = 0; d < r.hmm.alpha_hmm[0].size(); ++d) {
    double s = 0.0;
    for (const auto& row : r.hmm.alpha_hmm) s += row[d];
    EXPECT_NEAR(s, 1.0, 1e-12);  // emissions 1: alpha stays a distribution
  }
}

TEST(Origins, SingleLayerNormCrushesTheSmallScaleSegment) {
  const Report r = run_origins();
  ASSERT_EQ(r.norm.single.size(), 2u);
  ASSERT_EQ(r.norm.hybrid.size(), 2u);
  EXPECT_LT(r.norm.single[0].within_row_std, 0.05);
  EXPECT_NEAR(r.norm.hybrid[0].within_row_std, 1.0, 0.01);
  EXPECT_NEAR(r.norm.hybrid[1].output_std, 1.0, 0.01);
  EXPECT_LT(r.norm.single[0].in_out_corr, 0.5);
  EXPECT_GT(r.norm.hybrid[0].in_out_corr, 0.9);
  EXPECT_GT(r.norm.hybrid[0].grad_var / r.norm.single[0].grad_var, 100.0);
  // Deterministic: a second run gives the same numbers.
  EXPECT_EQ(run_origins().norm.single[0].grad_var, r.norm.single[0].grad_var);
}

}  // namespace
}  // namespace kessel::origins
