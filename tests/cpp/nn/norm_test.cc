// LayerNorm, RMSNorm, HybridLayerNorm: fast kernels vs reference over odd sizes and thread counts,
// finite-difference checks of every backward, "adds into" semantics, argument errors.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "kessel/error.h"
#include "kessel/nn.h"
#include "nn/nn_test_util.h"

namespace kessel {
namespace {

using nn_test::expect_gradient;
using nn_test::max_abs_diff;
using nn_test::random_vector;
using nn_test::weighted_sum;

struct Sizes {
  Index N, C;
};
const Sizes kOddSizes[] = {{1, 1}, {1, 3}, {7, 3}, {7, 768}, {129, 1}, {129, 3}, {129, 768}, {33, 129}};

TEST(LayerNorm, FastMatchesReferenceOverOddSizesAndThreads) {
  for (const Sizes s : kOddSizes) {
    const size_t n = static_cast<size_t>(s.N * s.C);
    // A shift of 3 makes the row mean matter (a one-pass variance would lose digits here).
    auto x = random_vector(n, 1, 2.0f, 3.0f);
    auto w = random_vector(static_cast<size_t>(s.C), 2, 1.0f, 1.0f);
    auto b = random_vector(static_cast<size_t>(s.C), 3);
    auto dout = random_vector(n, 4);
    std::vector<float> out_ref(n), mean_ref(s.N), rstd_ref(s.N);
    layernorm_forward_reference(out_ref.data(), mean_ref.data(), rstd_ref.data(), x.data(), w.data(),
                                b.data(), s.N, s.C);
    std::vector<float> dx_ref(n), dw_ref(s.C), db_ref(s.C);
    layernorm_backward_reference(dx_ref.data(), dw_ref.data(), db_ref.data(), dout.data(), x.data(),
                                 w.data(), mean_ref.data(), rstd_ref.data(), s.N, s.C);
    std::vector<float> first_dw;
    for (int threads : {1, 2, 3}) {
      std::vector<float> out(n), mean(s.N), rstd(s.N);
      layernorm_forward(out.data(), mean.data(), rstd.data(), x.data(), w.data(), b.data(), s.N, s.C,
                        kLayerNormEps, threads);
      EXPECT_LE(max_abs_diff(out, out_ref), 2e-5f) << "N=" << s.N << " C=" << s.C;
      EXPECT_LE(max_abs_diff(mean, mean_ref), 1e-5f);
      for (Index i = 0; i < s.N; ++i) EXPECT_NEAR(rstd[i], rstd_ref[i], 1e-5f * rstd_ref[i]);
      std::vector<float> dx(n), dw(s.C), db(s.C);
      layernorm_backward(dx.data(), dw.data(), db.data(), dout.data(), x.data(), w.data(), mean.data(),
                         rstd.data(), s.N, s.C, threads);
      EXPECT_LE(max_abs_diff(dx, dx_ref), 1e-4f) << "N=" << s.N << " C=" << s.C;
      EXPECT_LE(max_abs_diff(dw, dw_ref), 1e-4f * std::sqrt(static_cast<float>(s.N)));
      EXPECT_LE(max_abs_diff(db, db_ref), 1e-4f * std::sqrt(static_cast<float>(s.N)));
      // Parameter gradients are reduced over fixed row blocks: bit-identical for any thread count.
      if (first_dw.empty()) first_dw = dw;
      else EXPECT_EQ(dw, first_dw) << "threads=" << threads;
    }
  }
}

TEST(LayerNorm, BackwardMatchesFiniteDifferences) {
  for (const Sizes s : {Sizes{1, 3}, Sizes{7, 5}, Sizes{3, 67}}) {
    const size_t n = static_cast<size_t>(s.N * s.C);
    auto x = random_vector(n, 10, 1.5f, 0.5f);
    auto w = random_vector(static_cast<size_t>(s.C), 11, 0.5f, 1.0f);
    auto b = random_vector(static_cast<size_t>(s.C), 12);
    auto dout = random_vector(n, 13);
    std::vector<float> out(n), mean(s.N), rstd(s.N);
    auto loss = [&] {
      layernorm_forward(out.data(), mean.data(), rstd.data(), x.data(), w.data(), b.data(), s.N, s.C);
      return weighted_sum(dout, out);
    };
    loss();
    std::vector<float> dx(n), dw(s.C), db(s.C);
    layernorm_backward(dx.data(), dw.data(), db.data(), dout.data(), x.data(), w.data(), mean.data(),
                       rstd.data(), s.N, s.C);
    expect_gradient("dx", x, dx, loss);
    expect_gradient("dweight", w, dw, loss);
    expect_gradient("dbias", b, db, loss);
  }
}

TEST(LayerNorm, BackwardAddsIntoGradients) {
  const Index N = 5, C = 9;
  auto x = random_vector(N * C, 20), w = random_vector(C, 21), b = random_vector(C, 22);
  auto dout = random_vector(N * C, 23);
  std::vector<float> out(N * C), mean(N), rstd(N);
  layernorm_forward(out.data(), mean.data(), rstd.data(), x.data(), w.data(), b.data(), N, C);
  std::vector<float> dx(N * C, 0.0f), dw(C, 0.0f), db(C, 0.0f);
  layernorm_backward(dx.data(), dw.data(), db.data(), dout.data(), x.data(), w.data(), mean.data(),
                     rstd.data(), N, C);
  std::vector<float> dx2(N * C, 1.0f), dw2(C, 1.0f), db2(C, 1.0f);
  layernorm_backward(dx2.data(), dw2.data(), db2.data(), dout.data(), x.data(), w.data(), mean.data(),
                     rstd.data(), N, C);
  for (Index i = 0; i < N * C; ++i) EXPECT_FLOAT_EQ(dx2[i], dx[i] + 1.0f);
  for (Index c = 0; c < C; ++c) {
    EXPECT_FLOAT_EQ(dw2[c], dw[c] + 1.0f);
    EXPECT_FLOAT_EQ(db2[c], db[c] + 1.0f);
  }
}

TEST(LayerNorm, ConstantRowGivesBiasNotNaN) {
  const Index C = 4;
  std::vector<float> x(C, 7.0f), w(C, 2.0f), b = {1, 2, 3, 4}, out(C), mean(1), rstd(1);
  layernorm_forward(out.data(), mean.data(), rstd.data(), x.data(), w.data(), b.data(), 1, C);
  EXPECT_EQ(out, b);
  EXPECT_FLOAT_EQ(rstd[0], 1.0f / std::sqrt(kLayerNormEps));
}

TEST(LayerNorm, RejectsBadArguments) {
  std::vector<float> x(6), w(3), b(3), out(6);
  EXPECT_THROW(layernorm_forward(out.data(), nullptr, nullptr, x.data(), w.data(), b.data(), 2, 0),
               InvalidArgument);
  EXPECT_THROW(layernorm_forward(out.data(), nullptr, nullptr, x.data(), w.data(), b.data(), 2, 3, 0.0f),
               InvalidArgument);
  EXPECT_THROW(layernorm_forward(out.data(), nullptr, nullptr, x.data(), w.data(), b.data(), 2, 3, NAN),
               InvalidArgument);
  EXPECT_THROW(layernorm_forward(out.data(), nullptr, nullptr, nullptr, w.data(), b.data(), 2, 3),
               InvalidArgument);
  try {
    layernorm_forward(out.data(), nullptr, nullptr, x.data(), w.data(), b.data(), 2, 3, -1.0f);
    FAIL() << "no throw";
  } catch (const InvalidArgument& e) {
    EXPECT_NE(std::string(e.what()).find("layernorm_forward: eps"), std::string::npos) << e.what();
  }
}

TEST(RmsNorm, ForwardMatchesFormulaAndBackwardMatchesFiniteDifferences) {
  for (const Sizes s : {Sizes{1, 1}, Sizes{7, 3}, Sizes{3, 67}}) {
    const size_t n = static_cast<size_t>(s.N * s.C);
    auto x = random_vector(n, 30, 1.5f, 0.3f);
    auto w = random_vector(static_cast<size_t>(s.C), 31, 0.5f, 1.0f);
    auto dout = random_vector(n, 32);
    std::vector<float> out(n), rstd(s.N);
    auto loss = [&] {
      rmsnorm_forward(out.data(), rstd.data(), x.data(), w.data(), s.N, s.C);
      return weighted_sum(dout, out);
    };
    loss();
    for (Index r = 0; r < s.N; ++r) {
      double ss = 0.0;
      for (Index c = 0; c < s.C; ++c) ss += double{x[r * s.C + c]} * x[r * s.C + c];
      const double rs = 1.0 / std::sqrt(ss / s.C + kRmsNormEps);
      for (Index c = 0; c < s.C; ++c)
        EXPECT_NEAR(out[r * s.C + c], x[r * s.C + c] * rs * w[c], 1e-5 * (1 + std::abs(out[r * s.C + c])));
    }
    std::vector<float> dx(n), dw(s.C);
    rmsnorm_backward(dx.data(), dw.data(), dout.data(), x.data(), w.data(), rstd.data(), s.N, s.C);
    expect_gradient("dx", x, dx, loss, 1e-2f, 2e-3, 2e-2);
    expect_gradient("dweight", w, dw, loss);
  }
}

TEST(RmsNorm, ThreadCountDoesNotChangeResults) {
  const Index N = 129, C = 768;
  auto x = random_vector(N * C, 40), w = random_vector(C, 41), dout = random_vector(N * C, 42);
  std::vector<float> out(N * C), rstd(N), dw1(C), dw3(C), dx1(N * C), dx3(N * C);
  rmsnorm_forward(out.data(), rstd.data(), x.data(), w.data(), N, C, kRmsNormEps, 1);
  rmsnorm_backward(dx1.data(), dw1.data(), dout.data(), x.data(), w.data(), rstd.data(), N, C, 1);
  rmsnorm_backward(dx3.data(), dw3.data(), dout.data(), x.data(), w.data(), rstd.data(), N, C, 3);
  EXPECT_EQ(dw1, dw3);
  EXPECT_EQ(dx1, dx3);
}

TEST(HybridLayerNorm, EachSegmentIsItsOwnLayerNorm) {
  const std::vector<NormSegment> segs = {{"text", 5}, {"emoji", 1}, {"time", 3}};
  const Index N = 7, F = 9;
  auto x = random_vector(N * F, 50, 3.0f), w = random_vector(F, 51), b = random_vector(F, 52);
  std::vector<float> out(N * F), mean(N * 3), rstd(N * 3);
  hybrid_layernorm_forward(out.data(), mean.data(), rstd.data(), x.data(), w.data(), b.data(), segs, N,
                           F);
  Index off = 0;
  for (size_t s = 0; s < segs.size(); ++s) {
    const Index C = segs[s].size;
    std::vector<float> xs(N * C), os(N * C), ms(N), rs(N);
    for (Index r = 0; r < N; ++r)
      for (Index c = 0; c < C; ++c) xs[r * C + c] = x[r * F + off + c];
    layernorm_forward_reference(os.data(), ms.data(), rs.data(), xs.data(), w.data() + off,
                                b.data() + off, N, C);
    for (Index r = 0; r < N; ++r) {
      EXPECT_NEAR(mean[r * 3 + s], ms[r], 1e-5f);
      EXPECT_NEAR(rstd[r * 3 + s], rs[r], 1e-5f * rs[r]);
      for (Index c = 0; c < C; ++c) EXPECT_NEAR(out[r * F + off + c], os[r * C + c], 2e-5f);
    }
    off += C;
  }
}

TEST(HybridLayerNorm, BackwardMatchesFiniteDifferences) {
  const std::vector<NormSegment> segs = {{"text", 4}, {"image", 3}, {"time", 2}};
  const Index N = 3, F = 9;
  auto x = random_vector(N * F, 60, 2.0f), w = random_vector(F, 61, 0.5f, 1.0f);
  auto b = random_vector(F, 62), dout = random_vector(N * F, 63);
  std::vector<float> out(N * F), mean(N * 3), rstd(N * 3);
  auto loss = [&] {
    hybrid_layernorm_forward(out.data(), mean.data(), rstd.data(), x.data(), w.data(), b.data(), segs,
                             N, F);
    return weighted_sum(dout, out);
  };
  loss();
  std::vector<float> dx(N * F), dw(F), db(F);
  hybrid_layernorm_backward(dx.data(), dw.data(), db.data(), dout.data(), x.data(), w.data(),
                            mean.data(), rstd.data(), segs, N, F);
  expect_gradient("dx", x, dx, loss);
  expect_gradient("dweight", w, dw, loss);
  expect_gradient("dbias", b, db, loss);
}

TEST(HybridLayerNorm, RejectsSegmentsThatDoNotTileTheRow) {
  std::vector<float> x(10), w(5), b(5), out(10);
  const std::vector<NormSegment> short_segs = {{"text", 2}, {"image", 2}};
  EXPECT_THROW(hybrid_layernorm_forward(out.data(), nullptr, nullptr, x.data(), w.data(), b.data(),
                                        short_segs, 2, 5),
               InvalidArgument);
  const std::vector<NormSegment> empty_seg = {{"text", 5}, {"image", 0}};
  EXPECT_THROW(segment_offsets(empty_seg, 5), InvalidArgument);
  EXPECT_THROW(segment_offsets({}, 5), InvalidArgument);
}

}  // namespace
}  // namespace kessel
