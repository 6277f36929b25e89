// The key boost's gate (include/kessel/attention.h, step 5): g_ij = sigmoid(<w_q, q_i> + <w_k, k_j>
// + b_g) on key_boost. Fused against reference forward on odd sizes, masks, causal, padding;
// outputs and gradients bit-identical across thread counts; the gate at its limits (b_g -> +inf is
// the plain boost, -inf no boost); the fused backward against finite differences; typed errors for
// what it refuses. The fused-vs-reference backward cases are in fused_test.cc
// (FusedBackward.EveryFeature), the reference gradients' finite differences in gradcheck_test.cc
// (Gradcheck.BoostGate).
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include "attention/attention_test_util.h"
#include "kessel/attention.h"
#include "kessel/error.h"

namespace kessel {
namespace {

using testing::AttentionTestData;

struct Result {
  std::vector<float> out, lse, dq, dk, dv, dboost, dgate;
};

Result run(const AttentionTestData& d, AttentionSpec spec, AttentionImpl impl, int threads,
        const std::vector<float>* dout = nullptr) {
  spec.impl = impl;
  spec.threads = threads;
  Result r;
  r.out.assign(d.out_size(), -7.0f);
  r.lse.assign(d.lse_size(), -7.0f);
  attention_forward(r.out.data(), r.lse.data(), d.inputs(), spec);
  if (!dout) return r;
  r.dq.assign(d.q.size(), 0.0f), r.dk.assign(d.k.size(), 0.0f), r.dv.assign(d.v.size(), 0.0f);
  r.dboost.assign(d.key_boost.size(), 0.0f), r.dgate.assign(d.boost_gate.size(), 0.0f);
  AttentionGrads g;
  g.dq = r.dq.data(), g.dk = r.dk.data(), g.dv = r.dv.data();
  g.dkey_boost = r.dboost.data(), g.dboost_gate = r.dgate.data();
  attention_backward(g, dout->data(), r.out.data(), r.lse.data(), d.inputs(), spec);
  return r;
}

double rel_diff(const std::vector<float>& got, const std::vector<float>& want) {
  double peak = 1e-3;
  for (float x : want)
    if (std::isfinite(x)) peak = std::max(peak, static_cast<double>(std::fabs(x)));
  return testing::max_abs_diff(got, want) / peak;
}

bool same_bits(const std::vector<float>& a, const std::vector<float>& b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(float)) == 0;
}

TEST(BoostGate, FusedMatchesReferenceOnOddSizesAndMasks) {
  const Index sizes[][4] = {{1, 1, 1, 1}, {7, 9, 5, 3}, {129, 70, 33, 20}, {70, 300, 16, 24}};
  std::uint32_t seed = 700;
  for (const auto& s : sizes)
    for (int variant = 0; variant < 4; ++variant) {
      AttentionTestData d(2, 2, s[0], s[1], s[2], s[3], seed++);
      d.add_key_boost(2.0f);
      d.add_boost_gate();
      AttentionSpec spec;
      if (variant == 1) spec.causal = true, d.add_key_lengths(1);
      if (variant == 2) d.add_mask({2, 1, s[0], s[1]}, 0.7), spec.similarity = Similarity::kCosine;
      if (variant == 3) spec.zscore = true, spec.temperature = 0.6f, d.add_allowed_keys(0.8);
      SCOPED_TRACE(std::to_string(s[0]) + "x" + std::to_string(s[1]) + " variant " +
                   std::to_string(variant));
      const Result ref = run(d, spec, AttentionImpl::kReference, 0);
      const Result fus = run(d, spec, AttentionImpl::kFused, 0);
      EXPECT_LE(rel_diff(fus.out, ref.out), 1e-5);
      EXPECT_LE(testing::max_abs_diff(fus.lse, ref.lse), 1e-4);
      // The materialized weights take the same score code.
      std::vector<float> w_ref(d.weights_size()), w_fus(d.weights_size());
      spec.impl = AttentionImpl::kReference;
      attention_weights(w_ref.data(), d.inputs(), spec);
      spec.impl = AttentionImpl::kFused;
      attention_weights(w_fus.data(), d.inputs(), spec);
      EXPECT_LE(testing::max_abs_diff(w_fus, w_ref), 1e-5);
    }
}

TEST(BoostGate, TheGateChangesTheWeightsAndItsLimitsAreThePlainBoost) {
  AttentionTestData d(1, 2, 9, 13, 6, 4, 710);
  d.add_key_boost(3.0f);
  AttentionSpec spec;
  const Result plain = run(d, spec, AttentionImpl::kFused, 1);
  const Result none = [&] {
    AttentionTestData n = d;
    n.key_boost.clear();
    return run(n, spec, AttentionImpl::kFused, 1);
  }();
  d.add_boost_gate();
  const Result gated = run(d, spec, AttentionImpl::kFused, 1);
  EXPECT_GT(testing::max_abs_diff(gated.out, plain.out), 1e-3);
  // w = 0 and b_g = +-30: g = 1 (the plain boost) or 0 (no boost) up to e^-30.
  for (float b : {30.0f, -30.0f}) {
    std::fill(d.boost_gate.begin(), d.boost_gate.end(), 0.0f);
    for (Index h = 0; h < d.H; ++h)
      d.boost_gate[static_cast<size_t>(h * (2 * d.D + 1) + 2 * d.D)] = b;
    for (AttentionImpl impl : {AttentionImpl::kReference, AttentionImpl::kFused}) {
      const Result r = run(d, spec, impl, 1);
      EXPECT_LE(testing::max_abs_diff(r.out, b > 0 ? plain.out : none.out), 1e-6) << b;
    }
  }
}

TEST(BoostGate, Int8KeysGateAsTheirDequantizedFloats) {
  AttentionTestData d(2, 2, 33, 70, 16, 8, 715);
  d.add_key_boost(2.0f);
  d.add_boost_gate();
  d.quantize_kv();
  AttentionTestData f = d;  // the same values as float32
  f.use_int8 = false;
  f.k = d.dequantized_k();
  f.v = d.dequantized_v();
  AttentionSpec spec;
  for (AttentionImpl impl : {AttentionImpl::kReference, AttentionImpl::kFused}) {
    const Result a = run(d, spec, impl, 1), b = run(f, spec, impl, 1);
    EXPECT_LE(rel_diff(a.out, b.out), 1e-5);
  }
}

TEST(BoostGate, ThreadCountsGiveBitIdenticalResultsAndGradients) {
  for (const auto& [B, H] : {std::pair<Index, Index>{1, 1}, {2, 3}}) {  // 1 x 1: key groups
    AttentionTestData d(B, H, 130, 260, 16, 8, 720);
    d.add_key_boost(2.0f);
    d.add_boost_gate();
    d.add_key_lengths(100);
    AttentionSpec spec;
    spec.causal = true;
    const std::vector<float> dout = d.uniform(static_cast<Index>(d.out_size()), -1.0f, 1.0f);
    for (AttentionImpl impl : {AttentionImpl::kFused, AttentionImpl::kReference}) {
      const Result r1 = run(d, spec, impl, 1, &dout);
      for (int t : {2, 3}) {
        const Result rt = run(d, spec, impl, t, &dout);
        EXPECT_TRUE(same_bits(r1.out, rt.out));
        EXPECT_TRUE(same_bits(r1.lse, rt.lse));
        EXPECT_TRUE(same_bits(r1.dq, rt.dq));
        EXPECT_TRUE(same_bits(r1.dk, rt.dk));
        EXPECT_TRUE(same_bits(r1.dv, rt.dv));
        EXPECT_TRUE(same_bits(r1.dboost, rt.dboost));
        EXPECT_TRUE(same_bits(r1.dgate, rt.dgate));
      }
    }
  }
}

// Central differences on the fused path itself (loss = sum dout . out), every third element.
TEST(BoostGate, FusedBackwardFiniteDifferences) {
  for (int variant = 0; variant < 2; ++variant) {
    AttentionTestData d(2, 2, 9, 11, 5, 4, 730 + variant);
    d.add_key_boost(2.0f);
    d.add_boost_gate(0.8f);
    AttentionSpec spec;
    if (variant == 1)
      spec.causal = true, spec.similarity = Similarity::kCosine, d.add_key_lengths(4);
    SCOPED_TRACE(variant);
    const std::vector<float> dout = d.uniform(static_cast<Index>(d.out_size()), -1.0f, 1.0f);
    const auto loss = [&]() {
      const Result f = run(d, spec, AttentionImpl::kFused, 1);
      double l = 0.0;
      for (size_t e = 0; e < f.out.size(); ++e) l += static_cast<double>(dout[e]) * f.out[e];
      return l;
    };
    const Result g = run(d, spec, AttentionImpl::kFused, 1, &dout);
    const auto check = [&](std::vector<float>& x, const std::vector<float>& grad,
                           const char* name) {
      double largest = 0.0;
      for (size_t e = 0; e < x.size(); e += 3) {
        const float keep = x[e], h = 1e-2f;
        x[e] = keep + h;
        const double up = loss();
        x[e] = keep - h;
        const double down = loss();
        x[e] = keep;
        EXPECT_NEAR(grad[e], (up - down) / (2.0 * h), 2e-3) << name << "[" << e << "]";
        largest = std::max(largest, std::fabs(static_cast<double>(grad[e])));
      }
      EXPECT_GT(largest, 1e-2) << name << ": gradient (nearly) zero, the check would be empty";
    };
    check(d.q, g.dq, "dq");
    check(d.k, g.dk, "dk");
    check(d.key_boost, g.dboost, "dkey_boost");
    check(d.boost_gate, g.dgate, "dboost_gate");
  }
}

void expect_refused(const AttentionTestData& d, const AttentionSpec& spec,
                    const std::string& needle) {
  std::vector<float> out(d.out_size());
  try {
    attention_forward(out.data(), nullptr, d.inputs(), spec);
    ADD_FAILURE() << "accepted; expected an error naming " << needle;
  } catch (const InvalidArgument& e) {
    EXPECT_NE(std::string(e.what()).find(needle), std::string::npos) << e.what();
  }
}

TEST(BoostGate, RefusesWhatItDoesNotSupportWithTypedErrors) {
  AttentionTestData d(2, 2, 5, 6, 4, 3, 740);
  d.add_boost_gate();
  AttentionSpec spec;
  expect_refused(d, spec, "there is no key_boost");
  d.add_key_boost();
  d.boost_gate[3] = std::nanf("");
  expect_refused(d, spec, "boost_gate[3]");
  d.boost_gate[3] = 0.1f;
  spec.normalizer = Normalizer::kFuzzy;
  expect_refused(d, spec, "boost_gate needs normalizer='softmax'");
  spec.normalizer = Normalizer::kSoftmax;
  spec.adaptive_temperature = true;
  expect_refused(d, spec, "boost_gate cannot be combined");
  spec.adaptive_temperature = false;
  AttentionTestData r = d;
  r.emotion_ratio = {0.5f, 0.5f};
  expect_refused(r, spec, "boost_gate cannot be combined");
  // A gradient for a gate that is not there.
  d.boost_gate.clear();
  std::vector<float> out(d.out_size()), lse(d.lse_size()), dgate(9);
  attention_forward(out.data(), lse.data(), d.inputs(), spec);
  AttentionGrads g;
  g.dboost_gate = dgate.data();
  EXPECT_THROW(attention_backward(g, out.data(), out.data(), lse.data(), d.inputs(), spec),
               InvalidArgument);
}

}  // namespace
}  // namespace kessel
