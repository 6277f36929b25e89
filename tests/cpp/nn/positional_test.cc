// Sinusoidal, learned absolute and T5 relative-position encodings.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "kessel/attention.h"
#include "kessel/error.h"
#include "kessel/nn.h"
#include "nn/nn_test_util.h"

namespace kessel {
namespace {

using nn_test::expect_gradient;
using nn_test::max_abs_diff;
using nn_test::random_vector;
using nn_test::weighted_sum;

TEST(Sinusoidal, MatchesVaswaniFormula) {
  for (Index D : {1, 2, 7, 64}) {
    const Index L = 50;
    std::vector<float> pe(L * D);
    sinusoidal_encoding(pe.data(), L, D);
    for (Index pos = 0; pos < L; ++pos)
      for (Index i = 0; 2 * i < D; ++i) {
        const double angle = pos / std::pow(10000.0, 2.0 * i / D);
        EXPECT_NEAR(pe[pos * D + 2 * i], std::sin(angle), 1e-6) << "D=" << D;
        if (2 * i + 1 < D) {
          EXPECT_NEAR(pe[pos * D + 2 * i + 1], std::cos(angle), 1e-6);
        }
      }
    // Position 0 is (0, 1, 0, 1, ...): sin 0 and cos 0.
    for (Index c = 0; c < D; ++c) EXPECT_EQ(pe[c], c % 2 == 0 ? 0.0f : 1.0f);
  }
}

TEST(Sinusoidal, OddWidthEndsWithAnUnpairedSine) {
  const Index L = 9, D = 5;
  std::vector<float> pe(L * D);
  sinusoidal_encoding(pe.data(), L, D);
  for (Index pos = 0; pos < L; ++pos)
    EXPECT_NEAR(pe[pos * D + 4], std::sin(pos / std::pow(10000.0, 4.0 / 5.0)), 1e-6);
  EXPECT_THROW(sinusoidal_encoding(pe.data(), L, 0), InvalidArgument);
  EXPECT_THROW(sinusoidal_encoding(pe.data(), L, D, 1.0), InvalidArgument);
}

TEST(LearnedPosition, GathersAndScatterAdds) {
  const Index N = 7, D = 3, Lmax = 4;
  const std::vector<Index> pos = {0, 3, 1, 3, 3, 2, 0};
  auto x = random_vector(N * D, 1), table = random_vector(Lmax * D, 2), dout = random_vector(N * D, 3);
  std::vector<float> out(N * D);
  auto loss = [&] {
    learned_position_forward(out.data(), x.data(), table.data(), pos, N, D, Lmax);
    return weighted_sum(dout, out);
  };
  loss();
  for (Index n = 0; n < N; ++n)
    for (Index c = 0; c < D; ++c)
      EXPECT_FLOAT_EQ(out[n * D + c], x[n * D + c] + table[pos[n] * D + c]);
  std::vector<float> dx(N * D), dtable(Lmax * D);
  learned_position_backward(dx.data(), dtable.data(), dout.data(), pos, N, D, Lmax);
  expect_gradient("dx", x, dx, loss);
  expect_gradient("dtable", table, dtable, loss);
  const std::vector<Index> bad = {0, 4, 1, 1, 1, 1, 1};
  EXPECT_THROW(learned_position_forward(out.data(), x.data(), table.data(), bad, N, D, Lmax),
               InvalidArgument);
  EXPECT_THROW(learned_position_forward(out.data(), x.data(), table.data(), std::span(pos).first(3), N,
                                        D, Lmax),
               InvalidArgument);
}

TEST(T5Bias, MaterializesTheEngineBucketsWithEndAlignment) {
  for (bool bidirectional : {true, false})
    for (auto [Lq, Lk] : {std::pair<Index, Index>{5, 5}, {3, 40}, {40, 3}, {1, 129}}) {
      const Index H = 2, buckets = 8, maxd = 20;
      auto table = random_vector(H * buckets, 5);
      std::vector<float> bias(H * Lq * Lk);
      t5_bias_forward(bias.data(), table.data(), H, Lq, Lk, buckets, maxd, bidirectional);
      for (Index h = 0; h < H; ++h)
        for (Index i = 0; i < Lq; ++i)
          for (Index j = 0; j < Lk; ++j) {
            const Index rel = j - (i + Lk - Lq);
            EXPECT_EQ(bias[(h * Lq + i) * Lk + j],
                      table[h * buckets + t5_relative_bucket(rel, buckets, maxd, bidirectional)]);
          }
    }
}

TEST(T5Bias, BackwardMatchesFiniteDifferencesAndThreads) {
  const Index H = 3, Lq = 7, Lk = 11, buckets = 6, maxd = 9;
  auto table = random_vector(H * buckets, 7), dbias = random_vector(H * Lq * Lk, 8);
  std::vector<float> bias(H * Lq * Lk);
  auto loss = [&] {
    t5_bias_forward(bias.data(), table.data(), H, Lq, Lk, buckets, maxd, true);
    return weighted_sum(dbias, bias);
  };
  std::vector<float> dtable(H * buckets), dtable3(H * buckets);
  t5_bias_backward(dtable.data(), dbias.data(), H, Lq, Lk, buckets, maxd, true, 1);
  t5_bias_backward(dtable3.data(), dbias.data(), H, Lq, Lk, buckets, maxd, true, 3);
  EXPECT_EQ(dtable, dtable3);
  expect_gradient("dtable", table, dtable, loss);
  EXPECT_THROW(t5_bias_forward(bias.data(), table.data(), H, 0, Lk, buckets, maxd, true),
               InvalidArgument);
}

// attention(rel_bias = table) must equal attention(bias = t5_bias_forward(table)), forward and
// backward (drel_bias == t5_bias_backward(dbias)), on both engine paths.
TEST(T5Bias, AttentionWithRelBiasEqualsAttentionWithMaterializedBias) {
  const Index B = 2, H = 3, Lq = 5, Lk = 9, D = 8, buckets = 8, maxd = 12;
  auto q = random_vector(B * H * Lq * D, 11), k = random_vector(B * H * Lk * D, 12);
  auto v = random_vector(B * H * Lk * D, 13), table = random_vector(H * buckets, 14, 2.0f);
  auto dout = random_vector(B * H * Lq * D, 15);
  std::vector<float> bias(H * Lq * Lk);
  t5_bias_forward(bias.data(), table.data(), H, Lq, Lk, buckets, maxd, true);
  for (AttentionImpl impl : {AttentionImpl::kReference, AttentionImpl::kFused}) {
    AttentionSpec spec;
    spec.impl = impl;
    spec.rel_buckets = buckets;
    spec.rel_max_distance = maxd;
    AttentionInputs in;
    in.B = B, in.H = H, in.Lq = Lq, in.Lk = Lk, in.D = D, in.Dv = D;
    in.q = q.data(), in.k = k.data(), in.v = v.data();
    AttentionInputs in_rel = in, in_bias = in;
    in_rel.rel_bias = table.data();
    in_bias.bias = Strided4<float>::contiguous(bias.data(), {1, H, Lq, Lk});
    std::vector<float> out_rel(B * H * Lq * D), lse_rel(B * H * Lq), out_b(out_rel.size()),
        lse_b(lse_rel.size());
    attention_forward(out_rel.data(), lse_rel.data(), in_rel, spec);
    attention_forward(out_b.data(), lse_b.data(), in_bias, spec);
    EXPECT_LE(max_abs_diff(out_rel, out_b), 1e-6f);
    EXPECT_LE(max_abs_diff(lse_rel, lse_b), 1e-6f);

    std::vector<float> drel(H * buckets, 0.0f), dbias(H * Lq * Lk, 0.0f), dtable(H * buckets, 0.0f);
    AttentionGrads g_rel, g_bias;
    g_rel.drel_bias = drel.data();
    g_bias.dbias = dbias.data();
    attention_backward(g_rel, dout.data(), out_rel.data(), lse_rel.data(), in_rel, spec);
    attention_backward(g_bias, dout.data(), out_b.data(), lse_b.data(), in_bias, spec);
    t5_bias_backward(dtable.data(), dbias.data(), H, Lq, Lk, buckets, maxd, true);
    EXPECT_LE(max_abs_diff(drel, dtable), 1e-5f);
  }
}

}  // namespace
}  // namespace kessel
