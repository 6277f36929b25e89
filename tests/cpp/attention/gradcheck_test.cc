// Central finite differences against the reference backward, for every learnable input (q, k, v,
// bias in full and broadcast shapes, rel_bias, key_boost, the key boost's gate, and the spec's scalars m, time_decay and the
// adaptive temperature's coefficient),
// across similarities, normalizers, zscore, both time-decay modes, ALiBi and masks.
//
// Loss L = sum(out * R) for a fixed random R, so dL/dout = R. Each float input element is moved by
// +-h and the derivative taken over the difference actually stored in float.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "attention/attention_test_util.h"
#include "kessel/attention.h"

namespace kessel {
namespace {

using testing::AttentionTestData;

constexpr Index kB = 2, kH = 2, kLq = 5, kLk = 7, kD = 4, kDv = 3;
constexpr Index kBuckets = 8;  // 4 per direction, max_exact 2, log-spaced up to distance 6
constexpr float kStep = 1e-3f;
// |fd - analytic| <= kAbsTol + kRelTol |analytic|. The forward's float output limits fd to ~1e-4
// (observed worst case ~8e-5 over every case here).
constexpr double kAbsTol = 5e-4, kRelTol = 5e-3;

struct GradCase {
  std::string name;
  AttentionSpec spec;
  std::array<Index, 4> bias_shape{kB, kH, kLq, kLk};
  bool mask = false;
  bool alibi = false;
  bool times = false;
  bool swap_lengths = false;  // Lq > Lk: queries before the first key
  bool shrink_rows = false;   // every other q and k row scaled by 0.2 (below a cosine floor)
  bool zero_decay = false;    // times given but time_decay = 0: d/d lambda at lambda = 0
  bool emotion_ratio = false;  // the emotion-ratio balance, a share per batch
  bool boost_gate = false;     // the key boost's gate [H, 2D+1]
};

double loss(const AttentionTestData& d, const AttentionSpec& spec, const std::vector<float>& r) {
  std::vector<float> out(d.out_size());
  attention_forward(out.data(), nullptr, d.inputs(), spec);
  double l = 0.0;
  for (size_t e = 0; e < out.size(); ++e) l += static_cast<double>(out[e]) * r[e];
  return l;
}

// Compares analytic with central differences over every element of x (a tensor inside d).
void check_tensor(const char* name, std::vector<float>& x, const std::vector<float>& analytic,
                  AttentionTestData& d, const AttentionSpec& spec, const std::vector<float>& r,
                  bool expect_nonzero = true) {
  ASSERT_EQ(x.size(), analytic.size()) << name;
  double largest = 0.0, worst = 0.0;
  for (size_t e = 0; e < x.size(); ++e) {
    const float original = x[e];
    x[e] = original + kStep;
    const float up = x[e];
    const double l_up = loss(d, spec, r);
    x[e] = original - kStep;
    const float down = x[e];
    const double l_down = loss(d, spec, r);
    x[e] = original;
    const double fd = (l_up - l_down) / (static_cast<double>(up) - down);
    const double an = analytic[e];
    const double err = std::fabs(fd - an);
    EXPECT_LE(err, kAbsTol + kRelTol * std::fabs(an))
        << name << "[" << e << "]: finite difference " << fd << ", backward " << an;
    largest = std::max(largest, std::fabs(an));
    worst = std::max(worst, err);
  }
  // A check against an all-zero gradient would pass trivially: every tensor here matters.
  if (expect_nonzero) {
    EXPECT_GT(largest, 1e-2) << name << ": gradient is (nearly) zero everywhere";
  }
  std::printf("  %-9s max|grad| %.3e  max|fd - grad| %.2e\n", name, largest, worst);
}

// A scalar of the spec (m, time_decay) against finite differences: central, or at the boundary
// of its range (time_decay = 0) the one-sided second-order (-3 L(0) + 4 L(h) - L(2h)) / 2h.
void check_scalar(const char* name, float& x, float analytic, const AttentionTestData& d,
                  const AttentionSpec& spec, const std::vector<float>& r, bool expect_nonzero) {
  const float original = x;
  double fd = 0.0;
  if (original == 0.0f) {
    const double l0 = loss(d, spec, r);
    x = kStep;
    const double l1 = loss(d, spec, r);
    x = 2.0f * kStep;
    const double l2 = loss(d, spec, r);
    fd = (-3.0 * l0 + 4.0 * l1 - l2) / (2.0 * kStep);
  } else {
    x = original + kStep;
    const float up = x;
    const double l_up = loss(d, spec, r);
    x = original - kStep;
    const float down = x;
    const double l_down = loss(d, spec, r);
    fd = (l_up - l_down) / (static_cast<double>(up) - down);
  }
  x = original;
  const double err = std::fabs(fd - analytic);
  EXPECT_LE(err, kAbsTol + kRelTol * std::fabs(analytic))
      << name << ": finite difference " << fd << ", backward " << analytic;
  // 1e-3: well above the differences' error (~1e-4); dm at m = 4 (nearly uniform weights) is 6e-3.
  if (expect_nonzero) {
    EXPECT_GT(std::fabs(analytic), 1e-3) << name << ": gradient is (nearly) zero";
  }
  std::printf("  %-11s grad %+.4e  |fd - grad| %.2e\n", name, analytic, err);
}

void run_case(const GradCase& c, std::uint32_t seed) {
  SCOPED_TRACE(c.name);
  std::printf("%s\n", c.name.c_str());
  const Index Lq = c.swap_lengths ? kLk : kLq, Lk = c.swap_lengths ? kLq : kLk;
  AttentionTestData d(kB, kH, Lq, Lk, kD, kDv, seed);
  std::array<Index, 4> bias_shape = c.bias_shape;
  if (bias_shape[2] != 1) bias_shape[2] = Lq;  // keep broadcast (1) entries, fit the full ones
  if (bias_shape[3] != 1) bias_shape[3] = Lk;
  d.add_bias(bias_shape, 0.5f);
  d.add_rel_bias(kBuckets, 0.5f);
  d.add_key_boost(0.5f);
  if (c.mask) d.add_mask({kB, 1, Lq, Lk}, 0.75);
  if (c.alibi) d.add_alibi();
  if (c.times) d.add_times();
  if (c.emotion_ratio) d.emotion_ratio = {0.3f, 0.85f};
  if (c.boost_gate) {  // a stronger boost, so that the gate matters
    d.add_key_boost(2.0f);
    d.add_boost_gate(0.8f);
  }
  if (c.shrink_rows) {
    for (size_t e = 0; e < d.q.size(); ++e) d.q[e] *= (e / kD) % 2 ? 1.0f : 0.2f;
    for (size_t e = 0; e < d.k.size(); ++e) d.k[e] *= (e / kD) % 2 ? 0.2f : 1.0f;
  }
  AttentionSpec spec = c.spec;
  spec.impl = AttentionImpl::kReference;
  spec.threads = 1;  // thousands of tiny forwards: no thread start-up per call
  spec.rel_buckets = kBuckets;
  spec.rel_max_distance = 6;
  if (c.times && spec.time_decay == 0.0f && !c.zero_decay) spec.time_decay = 0.3f;
  const bool fuzzy = spec.normalizer == Normalizer::kFuzzy;

  const std::vector<float> r = d.uniform(static_cast<Index>(d.out_size()), -1.0f, 1.0f);
  std::vector<float> out(d.out_size()), lse(d.lse_size());
  const AttentionStats stats = attention_forward(out.data(), lse.data(), d.inputs(), spec);
  EXPECT_EQ(stats.crisp_rows, 0);  // crisp rows carry no q/k gradient; keep them out of the check

  std::vector<float> dq(d.q.size()), dk(d.k.size()), dv(d.v.size()), dbias(d.bias.size()),
      drel(d.rel_bias.size()), dboost(d.key_boost.size()), dgate(d.boost_gate.size());
  AttentionGrads g;
  g.dq = dq.data(), g.dk = dk.data(), g.dv = dv.data(), g.dbias = dbias.data();
  g.drel_bias = drel.data(), g.dkey_boost = dboost.data();
  float dm = 0.0f, dlambda = 0.0f, dcoef = 0.0f;
  if (fuzzy) g.dm = &dm;
  if (c.times) g.dtime_decay = &dlambda;
  if (spec.adaptive_temperature) g.dtemperature_coef = &dcoef;
  if (c.boost_gate) g.dboost_gate = dgate.data();
  attention_backward(g, r.data(), out.data(), lse.data(), d.inputs(), spec);

  check_tensor("q", d.q, dq, d, spec, r);
  check_tensor("k", d.k, dk, d, spec, r);
  check_tensor("v", d.v, dv, d, spec, r);
  // A bias constant over the keys cancels in the normalization: its gradient is 0, which the finite
  // differences confirm, so only there is a zero gradient expected.
  check_tensor("bias", d.bias, dbias, d, spec, r, /*expect_nonzero=*/bias_shape[3] != 1);
  check_tensor("rel_bias", d.rel_bias, drel, d, spec, r);
  check_tensor("key_boost", d.key_boost, dboost, d, spec, r);
  if (c.boost_gate) check_tensor("gate", d.boost_gate, dgate, d, spec, r);
  // zscore makes the memberships invariant to the scale 1/(m - 1) of the similarity: dm is then
  // only what zscore_eps leaves (~1e-3 here), which the differences confirm.
  if (fuzzy) check_scalar("m", spec.m, dm, d, spec, r, /*expect_nonzero=*/!spec.zscore);
  if (c.times) check_scalar("time_decay", spec.time_decay, dlambda, d, spec, r, true);
  if (spec.adaptive_temperature) check_scalar("temp_coef", spec.temperature_coef, dcoef, d, spec, r, true);
}

AttentionSpec make_spec(Similarity sim, Normalizer norm, bool zscore) {
  AttentionSpec spec;
  spec.similarity = sim;
  spec.normalizer = norm;
  spec.zscore = zscore;
  return spec;
}

TEST(Gradcheck, SoftmaxEverySimilarity) {
  const std::pair<Similarity, const char*> sims[] = {
      {Similarity::kDot, "dot"},
      {Similarity::kCosine, "cosine"},
      {Similarity::kConstrainedCosine, "constrained"},
      {Similarity::kNegSqEuclidean, "neg_sq_euclidean"}};
  std::uint32_t seed = 100;
  for (const auto& [sim, name] : sims) {
    for (bool zscore : {false, true}) {
      GradCase c;
      c.name = std::string("softmax ") + name + (zscore ? " zscore" : "");
      c.spec = make_spec(sim, Normalizer::kSoftmax, zscore);
      c.spec.temperature = 0.7f;
      c.spec.beta = 0.3f;
      run_case(c, seed++);
    }
  }
}

TEST(Gradcheck, FuzzyMembership) {
  std::uint32_t seed = 200;
  for (float m : {2.0f, 1.5f}) {
    for (bool zscore : {false, true}) {
      GradCase c;
      c.name = "fuzzy m=" + std::to_string(m) + (zscore ? " zscore" : "");
      c.spec = make_spec(Similarity::kDot, Normalizer::kFuzzy, zscore);
      c.spec.m = m;
      c.spec.fuzzy_eps = 1e-6f;
      run_case(c, seed++);
    }
  }
}

TEST(Gradcheck, TimeDecayModes) {
  std::uint32_t seed = 300;
  for (TimeDecayMode mode : {TimeDecayMode::kAdditive, TimeDecayMode::kMultiplicative}) {
    for (Normalizer norm : {Normalizer::kSoftmax, Normalizer::kFuzzy}) {
      GradCase c;
      c.name = std::string(mode == TimeDecayMode::kAdditive ? "additive" : "multiplicative") +
               " decay, " + (norm == Normalizer::kSoftmax ? "softmax" : "fuzzy");
      c.spec = make_spec(Similarity::kDot, norm, /*zscore=*/mode == TimeDecayMode::kMultiplicative);
      c.spec.time_decay = 0.3f;
      c.spec.time_decay_mode = mode;
      c.times = true;
      run_case(c, seed++);
    }
  }
}

TEST(Gradcheck, FuzzifierAcrossItsRange) {
  // m near 1 (sharp memberships) to large m (nearly uniform), with and without a key boost.
  std::uint32_t seed = 250;
  for (float m : {1.2f, 2.0f, 4.0f}) {
    GradCase c;
    c.name = "fuzzy dm, m=" + std::to_string(m);
    c.spec = make_spec(Similarity::kDot, Normalizer::kFuzzy, false);
    c.spec.m = m;
    c.spec.fuzzy_eps = 1e-6f;
    run_case(c, seed++);
  }
}

TEST(Gradcheck, TimeDecayRateAtZero) {
  // lambda = 0 leaves the terms out of the forward, yet d/d lambda is defined (one-sided there).
  std::uint32_t seed = 350;
  for (TimeDecayMode mode : {TimeDecayMode::kAdditive, TimeDecayMode::kMultiplicative}) {
    for (Normalizer norm : {Normalizer::kSoftmax, Normalizer::kFuzzy}) {
      GradCase c;
      c.name = std::string("lambda = 0, ") +
               (mode == TimeDecayMode::kAdditive ? "additive" : "multiplicative") + ", " +
               (norm == Normalizer::kSoftmax ? "softmax" : "fuzzy");
      c.spec = make_spec(Similarity::kDot, norm, false);
      c.spec.time_decay_mode = mode;
      c.spec.temperature = 0.8f;
      c.times = true;
      c.zero_decay = true;
      run_case(c, seed++);
    }
  }
}

TEST(Gradcheck, AdaptiveTemperature) {
  // tau_i = temperature / (1 + c mean|q_i|): the backward goes through tau_i into q, and into c; with
  // masks, ALiBi, multiplicative decay (which multiplies the same scaled similarity) and Lq > Lk.
  std::uint32_t seed = 380;
  for (float coef : {0.1f, 0.6f}) {
    for (int variant = 0; variant < 3; ++variant) {
      GradCase c;
      c.spec = make_spec(Similarity::kDot, Normalizer::kSoftmax, false);
      c.spec.adaptive_temperature = true;
      c.spec.temperature_coef = coef;
      c.spec.temperature = 0.8f;
      c.name = "adaptive temperature c=" + std::to_string(coef);
      if (variant == 1) {
        c.name += ", mask, ALiBi, multiplicative decay";
        c.mask = c.alibi = c.times = true;
        c.spec.time_decay_mode = TimeDecayMode::kMultiplicative;
      } else if (variant == 2) {
        c.name += ", Lq > Lk, causal";
        c.swap_lengths = true;
        c.spec.causal = true;
      }
      run_case(c, seed++);
    }
  }
}

TEST(Gradcheck, EmotionRatioBalance) {
  // (1 - gamma rho_b) sim + gamma rho_b key_boost: q's and the boost's gradients through the weights,
  // alone, with masks and multiplicative decay, and with the adaptive temperature on top.
  std::uint32_t seed = 390;
  for (int variant = 0; variant < 3; ++variant) {
    GradCase c;
    c.spec = make_spec(Similarity::kDot, Normalizer::kSoftmax, false);
    c.spec.balance = 0.6f;
    c.emotion_ratio = true;
    c.name = "emotion-ratio balance";
    if (variant == 1) {
      c.name += ", mask, multiplicative decay";
      c.mask = c.times = true;
      c.spec.time_decay_mode = TimeDecayMode::kMultiplicative;
    } else if (variant == 2) {
      c.name += ", adaptive temperature";
      c.spec.adaptive_temperature = true;
      c.spec.temperature_coef = 0.4f;
    }
    run_case(c, seed++);
  }
}

TEST(Gradcheck, BoostGate) {
  // logit += sigmoid(<w_q, q_i> + <w_k, k_j> + b_g) key_boost_j: the gate's own gradient, and the
  // extra terms into q, k and key_boost; over similarities, zscore, masks, decay and Lq > Lk.
  std::uint32_t seed = 395;
  for (int variant = 0; variant < 4; ++variant) {
    GradCase c;
    c.spec = make_spec(Similarity::kDot, Normalizer::kSoftmax, false);
    c.boost_gate = true;
    c.name = "boost gate";
    if (variant == 1) {
      c.name += ", cosine zscore, mask, ALiBi, additive decay";
      c.spec = make_spec(Similarity::kCosine, Normalizer::kSoftmax, true);
      c.mask = c.alibi = c.times = true;
    } else if (variant == 2) {
      c.name += ", Lq > Lk, causal, temperature";
      c.swap_lengths = true;
      c.spec.causal = true;
      c.spec.temperature = 0.6f;
    } else if (variant == 3) {
      c.name += ", constrained cosine, multiplicative decay";
      c.spec = make_spec(Similarity::kConstrainedCosine, Normalizer::kSoftmax, false);
      c.times = true;
      c.spec.time_decay_mode = TimeDecayMode::kMultiplicative;
    }
    run_case(c, seed++);
  }
}

TEST(Gradcheck, AlibiMasksAndBroadcastBias) {
  const std::array<Index, 4> shapes[] = {{1, kH, kLq, kLk}, {kB, 1, 1, kLk}, {1, 1, 1, 1}};
  std::uint32_t seed = 400;
  for (const auto& shape : shapes) {
    GradCase c;
    c.name = "alibi + mask, bias " + shape_string(shape);
    c.spec = make_spec(Similarity::kCosine, Normalizer::kSoftmax, /*zscore=*/true);
    c.bias_shape = shape;
    c.mask = true;
    c.alibi = true;
    run_case(c, seed++);
  }
  for (Similarity sim : {Similarity::kCosine, Similarity::kConstrainedCosine}) {
    // Norms below cosine_eps are held constant by the floor: both branches of the derivative.
    GradCase c;
    c.name = sim == Similarity::kCosine ? "cosine floor" : "constrained cosine floor";
    c.spec = make_spec(sim, Normalizer::kSoftmax, false);
    c.spec.cosine_eps = 0.5f;
    c.shrink_rows = true;
    run_case(c, seed++);
  }
  GradCase c;
  c.name = "causal + window, Lq > Lk, fuzzy";
  c.spec = make_spec(Similarity::kNegSqEuclidean, Normalizer::kFuzzy, false);
  c.spec.causal = true;
  c.spec.window = 3;
  c.bias_shape = {1, kH, 1, kLk};
  c.alibi = true;
  c.swap_lengths = true;
  run_case(c, seed++);
}

TEST(Gradcheck, BackwardAddsIntoGradients) {
  AttentionTestData d(kB, kH, kLq, kLk, kD, kDv, 7);
  d.add_bias({1, 1, kLq, kLk});
  AttentionSpec spec;
  spec.impl = AttentionImpl::kReference;
  std::vector<float> out(d.out_size()), lse(d.lse_size());
  attention_forward(out.data(), lse.data(), d.inputs(), spec);
  const std::vector<float> dout = d.uniform(static_cast<Index>(out.size()), -1.0f, 1.0f);
  std::vector<float> dq0(d.q.size(), 0.0f), dq1(d.q.size(), 0.5f);
  std::vector<float> db0(d.bias.size(), 0.0f), db1(d.bias.size(), -2.0f);
  AttentionGrads g0, g1;
  g0.dq = dq0.data(), g0.dbias = db0.data();
  g1.dq = dq1.data(), g1.dbias = db1.data();
  attention_backward(g0, dout.data(), out.data(), lse.data(), d.inputs(), spec);
  attention_backward(g1, dout.data(), out.data(), lse.data(), d.inputs(), spec);
  for (size_t e = 0; e < dq0.size(); ++e) EXPECT_FLOAT_EQ(dq1[e], dq0[e] + 0.5f);
  for (size_t e = 0; e < db0.size(); ++e) EXPECT_FLOAT_EQ(db1[e], db0[e] - 2.0f);
}

}  // namespace
}  // namespace kessel
