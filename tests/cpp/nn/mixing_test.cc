// HMM-style position mixing and the gated fusion of absolute and relative encodings.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "kessel/error.h"
#include "kessel/nn.h"
#include "nn/nn_test_util.h"

namespace kessel {
namespace {

using nn_test::expect_gradient;
using nn_test::random_vector;
using nn_test::weighted_sum;

TEST(PositionMix, RowsOfPAreSoftmaxOverSourcesAndYIsPX) {
  const Index B = 2, T = 5, D = 3;
  auto x = random_vector(B * T * D, 1), logits = random_vector(T * T, 2, 3.0f);
  std::vector<float> y(B * T * D), P(T * T);
  position_mix_forward(y.data(), P.data(), x.data(), logits.data(), B, T, D);
  for (Index i = 0; i < T; ++i) {
    double z = 0.0, row = 0.0;
    for (Index j = 0; j < T; ++j) z += std::exp(double{logits[i * T + j]});
    for (Index j = 0; j < T; ++j) {
      EXPECT_NEAR(P[i * T + j], std::exp(double{logits[i * T + j]}) / z, 1e-6);
      row += P[i * T + j];
    }
    EXPECT_NEAR(row, 1.0, 1e-6);
  }
  for (Index b = 0; b < B; ++b)
    for (Index i = 0; i < T; ++i)
      for (Index d = 0; d < D; ++d) {
        double s = 0.0;
        for (Index j = 0; j < T; ++j) s += double{P[i * T + j]} * x[(b * T + j) * D + d];
        EXPECT_NEAR(y[(b * T + i) * D + d], s, 1e-6);
      }
}

TEST(PositionMix, BackwardMatchesFiniteDifferences) {
  for (auto shape : {std::tuple<Index, Index, Index>{1, 1, 1}, {2, 7, 3}, {1, 13, 5}}) {
    const Index B = std::get<0>(shape), T = std::get<1>(shape), D = std::get<2>(shape);  // captured below
    auto x = random_vector(B * T * D, 3), logits = random_vector(T * T, 4, 2.0f);
    auto dy = random_vector(B * T * D, 5);
    std::vector<float> y(B * T * D), P(T * T);
    auto loss = [&] {
      position_mix_forward(y.data(), P.data(), x.data(), logits.data(), B, T, D);
      return weighted_sum(dy, y);
    };
    loss();
    std::vector<float> dx(B * T * D), dlogits(T * T), dx3(B * T * D), dlogits3(T * T);
    position_mix_backward(dx.data(), dlogits.data(), dy.data(), x.data(), P.data(), B, T, D, 1);
    position_mix_backward(dx3.data(), dlogits3.data(), dy.data(), x.data(), P.data(), B, T, D, 3);
    EXPECT_EQ(dx, dx3);
    EXPECT_EQ(dlogits, dlogits3);
    expect_gradient("dx", x, dx, loss);
    expect_gradient("dlogits", logits, dlogits, loss);
  }
}

TEST(PositionMix, RejectsNonFiniteLogitsAndBadSizes) {
  std::vector<float> x(4), y(4), logits = {0, 1, NAN, 0};
  EXPECT_THROW(position_mix_forward(y.data(), nullptr, x.data(), logits.data(), 1, 2, 2),
               InvalidArgument);
  EXPECT_THROW(position_mix_forward(y.data(), nullptr, x.data(), logits.data(), 1, 0, 2),
               InvalidArgument);
}

TEST(GatedFusion, GateLimitsAreTheTwoEncodings) {
  const Index B = 1, T = 4, D = 3;
  auto x = random_vector(B * T * D, 6), pe = random_vector(T * D, 7), logits = random_vector(T * T, 8);
  std::vector<float> y(B * T * D), mix(B * T * D), open(D, 40.0f), shut(D, -40.0f);
  gated_fusion_forward(y.data(), nullptr, x.data(), pe.data(), logits.data(), open.data(), B, T, D);
  for (Index t = 0; t < T; ++t)
    for (Index d = 0; d < D; ++d) EXPECT_NEAR(y[t * D + d], x[t * D + d] + pe[t * D + d], 1e-6);
  gated_fusion_forward(y.data(), nullptr, x.data(), pe.data(), logits.data(), shut.data(), B, T, D);
  position_mix_forward(mix.data(), nullptr, x.data(), logits.data(), B, T, D);
  for (Index i = 0; i < B * T * D; ++i) EXPECT_NEAR(y[i], mix[i], 1e-6);
}

TEST(GatedFusion, BackwardMatchesFiniteDifferences) {
  const Index B = 2, T = 5, D = 3;
  auto x = random_vector(B * T * D, 9), pe = random_vector(T * D, 10);
  auto logits = random_vector(T * T, 11, 2.0f), gate = random_vector(D, 12, 2.0f);
  auto dy = random_vector(B * T * D, 13);
  std::vector<float> y(B * T * D), P(T * T);
  auto loss = [&] {
    gated_fusion_forward(y.data(), P.data(), x.data(), pe.data(), logits.data(), gate.data(), B, T, D);
    return weighted_sum(dy, y);
  };
  loss();
  std::vector<float> dx(B * T * D), dpe(T * D), dlogits(T * T), dgate(D);
  gated_fusion_backward(dx.data(), dpe.data(), dlogits.data(), dgate.data(), dy.data(), x.data(),
                        pe.data(), P.data(), gate.data(), B, T, D);
  expect_gradient("dx", x, dx, loss);
  expect_gradient("dpe", pe, dpe, loss);
  expect_gradient("dlogits", logits, dlogits, loss);
  expect_gradient("dgate", gate, dgate, loss);
}

}  // namespace
}  // namespace kessel
