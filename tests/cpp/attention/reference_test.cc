// The reference path against hand-computed cases: each step of include/kessel/attention.h, the mask
// patterns written out literally, the FCM membership, crisp and fully masked rows, int8 K/V.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "attention/attention_test_util.h"
#include "kessel/attention.h"

namespace kessel {
namespace {

using testing::all_finite;
using testing::AttentionTestData;
using testing::max_abs_diff;

constexpr float kInf = std::numeric_limits<float>::infinity();

AttentionSpec reference_spec() {
  AttentionSpec spec;
  spec.impl = AttentionImpl::kReference;
  return spec;
}

struct Result {
  std::vector<float> out, lse, weights;
  AttentionStats stats;
};

Result run(const AttentionTestData& d, const AttentionSpec& spec) {
  Result r;
  r.out.assign(d.out_size(), -7.0f);  // poison: every element must be written
  r.lse.assign(d.lse_size(), -7.0f);
  r.weights.assign(d.weights_size(), -7.0f);
  r.stats = attention_forward(r.out.data(), r.lse.data(), d.inputs(), spec);
  const AttentionStats ws = attention_weights(r.weights.data(), d.inputs(), spec);
  EXPECT_EQ(ws.fully_masked_rows, r.stats.fully_masked_rows);
  EXPECT_EQ(ws.crisp_rows, r.stats.crisp_rows);
  return r;
}

TEST(Reference, SoftmaxDotOnTwoKeys) {
  AttentionTestData d(1, 1, 1, 2, 2, 1, 0);
  d.q = {1.0f, 0.0f};
  d.k = {1.0f, 0.0f, 0.0f, 1.0f};
  d.v = {2.0f, -1.0f};
  const Result r = run(d, reference_spec());
  const double l0 = 1.0 / std::sqrt(2.0);  // scale 1/sqrt(D) * <q, k0>; <q, k1> = 0
  const double w0 = std::exp(l0) / (std::exp(l0) + 1.0);
  EXPECT_NEAR(r.weights[0], w0, 1e-6);
  EXPECT_NEAR(r.weights[1], 1.0 - w0, 1e-6);
  EXPECT_NEAR(r.out[0], 2.0 * w0 - (1.0 - w0), 1e-6);
  EXPECT_NEAR(r.lse[0], std::log(std::exp(l0) + 1.0), 1e-6);
}

TEST(Reference, FuzzyEqualsFuzzyCMeansMembership) {
  for (float m : {1.5f, 2.0f, 3.0f}) {
    AttentionTestData d(1, 2, 4, 5, 3, 2, 3);
    AttentionSpec spec = reference_spec();
    spec.normalizer = Normalizer::kFuzzy;
    spec.m = m;
    spec.fuzzy_eps = 0.0f;
    const Result r = run(d, spec);
    EXPECT_EQ(r.stats.crisp_rows, 0);
    // u_ij = 1 / sum_l (d_ij^2 / d_il^2)^(1/(m-1)), written independently of the engine's form.
    for (Index h = 0; h < 2; ++h) {
      for (Index i = 0; i < 4; ++i) {
        std::vector<double> d2(5, 0.0);
        for (Index j = 0; j < 5; ++j)
          for (Index c = 0; c < 3; ++c) {
            const double diff = d.q[(h * 4 + i) * 3 + c] - d.k[(h * 5 + j) * 3 + c];
            d2[j] += diff * diff;
          }
        for (Index j = 0; j < 5; ++j) {
          double denom = 0.0;
          for (Index l = 0; l < 5; ++l) denom += std::pow(d2[j] / d2[l], 1.0 / (m - 1.0));
          EXPECT_NEAR(r.weights[(h * 4 + i) * 5 + j], 1.0 / denom, 1e-6)
              << "m=" << m << " h=" << h << " i=" << i << " j=" << j;
        }
      }
    }
  }
}

TEST(Reference, FuzzyExactMatchesMakeCrispRows) {
  // Row 0 equals key 1; row 1 equals keys 0 and 2 (identical keys); row 2 matches nothing.
  AttentionTestData d(1, 1, 3, 3, 2, 2, 0);
  d.k = {0.5f, -0.25f, 1.0f, 2.0f, 0.5f, -0.25f};
  d.q = {1.0f, 2.0f, 0.5f, -0.25f, 3.0f, 3.0f};
  d.v = {1.0f, 0.0f, 0.0f, 1.0f, 3.0f, 5.0f};
  AttentionSpec spec = reference_spec();
  spec.normalizer = Normalizer::kFuzzy;
  const Result r = run(d, spec);
  EXPECT_EQ(r.stats.crisp_rows, 2);
  EXPECT_EQ(r.lse[0], kInf);
  EXPECT_EQ(r.lse[1], kInf);
  EXPECT_TRUE(std::isfinite(r.lse[2]));
  EXPECT_THAT(std::vector<float>(r.weights.begin(), r.weights.begin() + 6),
              ::testing::ElementsAre(0.0f, 1.0f, 0.0f, 0.5f, 0.0f, 0.5f));
  EXPECT_FLOAT_EQ(r.out[0], 0.0f);
  EXPECT_FLOAT_EQ(r.out[1], 1.0f);
  EXPECT_FLOAT_EQ(r.out[2], 2.0f);  // (v0 + v2) / 2
  EXPECT_FLOAT_EQ(r.out[3], 2.5f);

  // Only v gets a gradient from a crisp row: dout / (number of exact keys).
  std::vector<float> dout = {0, 0, 4, 8, 0, 0}, dq(6, 0.0f), dk(6, 0.0f), dv(6, 0.0f);
  AttentionGrads g;
  g.dq = dq.data(), g.dk = dk.data(), g.dv = dv.data();
  attention_backward(g, dout.data(), r.out.data(), r.lse.data(), d.inputs(), spec);
  EXPECT_THAT(dv, ::testing::ElementsAre(2.0f, 4.0f, 0.0f, 0.0f, 2.0f, 4.0f));
  EXPECT_THAT(dq, ::testing::Each(0.0f));
  EXPECT_THAT(dk, ::testing::Each(0.0f));
}

TEST(Reference, FuzzyExponentLimits) {
  // Squared distances 1, 2, 4 from q = 0 to the three keys.
  AttentionTestData d(1, 1, 1, 3, 2, 1, 0);
  d.q = {0.0f, 0.0f};
  d.k = {1.0f, 0.0f, 1.0f, 1.0f, 0.0f, 2.0f};
  d.v = {1.0f, 2.0f, 3.0f};
  AttentionSpec spec = reference_spec();
  spec.normalizer = Normalizer::kFuzzy;
  spec.m = 1.05f;  // weights ~ d2^-20: the nearest key takes all but ~2^-20
  Result r = run(d, spec);
  EXPECT_GT(r.weights[0], 1.0f - 2e-6f);
  spec.m = 50.0f;  // weights ~ d2^(-1/49): nearly uniform
  r = run(d, spec);
  for (int j = 0; j < 3; ++j) EXPECT_NEAR(r.weights[j], 1.0 / 3.0, 0.006) << j;
  EXPECT_GT(r.weights[0], r.weights[1]);
  EXPECT_GT(r.weights[1], r.weights[2]);
}

TEST(Reference, FullyMaskedRowsGiveZeroOutputAndNoNaN) {
  // Batch 1 has no keys at all; with causal and Lq > Lk the first queries precede every key.
  AttentionTestData d(2, 2, 4, 2, 3, 2, 5);
  d.key_lengths = {2, 0};
  AttentionSpec spec = reference_spec();
  spec.causal = true;
  for (Normalizer norm : {Normalizer::kSoftmax, Normalizer::kFuzzy}) {
    spec.normalizer = norm;
    const Result r = run(d, spec);
    // batch 0: rows 0, 1 (pos_q = -2, -1) in each head; batch 1: all 4 rows in each head.
    EXPECT_EQ(r.stats.fully_masked_rows, 2 * 2 + 2 * 4);
    for (Index bh = 0; bh < 4; ++bh)
      for (Index i = 0; i < 4; ++i) {
        const bool masked = bh >= 2 || i < 2;
        if (!masked) continue;
        EXPECT_EQ(r.lse[bh * 4 + i], -kInf);
        for (Index c = 0; c < 2; ++c) EXPECT_EQ(r.out[(bh * 4 + i) * 2 + c], 0.0f);
        for (Index j = 0; j < 2; ++j) EXPECT_EQ(r.weights[(bh * 4 + i) * 2 + j], 0.0f);
      }
    EXPECT_TRUE(all_finite(r.out));
    EXPECT_TRUE(all_finite(r.weights));

    std::vector<float> dout(d.out_size(), 1.0f), dq(d.q.size()), dk(d.k.size()), dv(d.v.size());
    AttentionGrads g;
    g.dq = dq.data(), g.dk = dk.data(), g.dv = dv.data();
    attention_backward(g, dout.data(), r.out.data(), r.lse.data(), d.inputs(), spec);
    EXPECT_TRUE(all_finite(dq) && all_finite(dk) && all_finite(dv));
    for (Index e = 2 * 4 * 3; e < 4 * 4 * 3; ++e) EXPECT_EQ(dq[e], 0.0f);  // batch 1: no gradient
    for (Index e = 2 * 2 * 2; e < 4 * 2 * 2; ++e) EXPECT_EQ(dv[e], 0.0f);
  }
}

// The visibility pattern of one head: row i is a string of '1' (weight > 0) and '0'. With q = k = 0
// every visible key has the same logit, so weight > 0 exactly where the mask lets a key through.
std::vector<std::string> visibility(AttentionTestData& d, const AttentionSpec& spec) {
  std::fill(d.q.begin(), d.q.end(), 0.0f);
  std::fill(d.k.begin(), d.k.end(), 0.0f);
  std::vector<float> w(d.weights_size());
  attention_weights(w.data(), d.inputs(), spec);
  std::vector<std::string> rows;
  for (Index i = 0; i < d.Lq; ++i) {
    std::string row;
    for (Index j = 0; j < d.Lk; ++j) row += w[i * d.Lk + j] > 0.0f ? '1' : '0';
    rows.push_back(row);
  }
  return rows;
}

using ::testing::ElementsAre;

TEST(ReferenceMasks, CausalAlignsQueriesToTheEnd) {
  AttentionTestData d(1, 1, 3, 5, 1, 1, 0);
  AttentionSpec spec = reference_spec();
  spec.causal = true;
  EXPECT_THAT(visibility(d, spec), ElementsAre("11100", "11110", "11111"));
}

TEST(ReferenceMasks, Window) {
  AttentionTestData d(1, 1, 5, 5, 1, 1, 0);
  AttentionSpec spec = reference_spec();
  spec.window = 1;
  EXPECT_THAT(visibility(d, spec), ElementsAre("11000", "11100", "01110", "00111", "00011"));
}

TEST(ReferenceMasks, MinLagByPosition) {
  AttentionTestData d(1, 1, 5, 5, 1, 1, 0);
  AttentionSpec spec = reference_spec();
  spec.min_lag = 2;
  EXPECT_THAT(visibility(d, spec), ElementsAre("00000", "00000", "10000", "11000", "11100"));
}

TEST(ReferenceMasks, MinLagByTime) {
  AttentionTestData d(1, 1, 5, 5, 1, 1, 0);
  d.q_times = {0.0f, 0.5f, 1.0f, 3.0f, 3.2f};
  d.k_times = d.q_times;
  AttentionSpec spec = reference_spec();
  spec.min_lag = 1;  // seconds: t_j <= t_i - 1
  spec.lag_by_time = true;
  EXPECT_THAT(visibility(d, spec), ElementsAre("00000", "00000", "10000", "11100", "11100"));
}

TEST(ReferenceMasks, ChunkAndBridge) {
  // C = 3: chunks {0,1,2} {3,4,5} {6,7,8} {9}; the bridges are the last tokens 2, 5, 8.
  AttentionTestData d(1, 1, 10, 10, 1, 1, 0);
  AttentionSpec spec = reference_spec();
  spec.chunk_size = 3;
  EXPECT_THAT(visibility(d, spec),
              ElementsAre("1110000000",  //
                          "1110000000",  //
                          "1110000000",  //
                          "0011110000",  //
                          "0011110000",  //
                          "0011110000",  //
                          "0010011110",  //
                          "0010011110",  //
                          "0010011110",  //
                          "0010010011"));
}

TEST(ReferenceMasks, TensorMasksAreAnded) {
  AttentionTestData d(1, 1, 3, 4, 1, 1, 0);
  d.key_lengths = {3};
  d.allowed_keys = {1, 0, 1, 1};
  d.mask = {1, 1, 1, 1,  //
            0, 1, 1, 1,  //
            1, 1, 0, 1};
  d.mask_shape = {1, 1, 3, 4};
  AttentionSpec spec = reference_spec();
  EXPECT_THAT(visibility(d, spec), ElementsAre("1010", "0010", "1000"));
}

TEST(Reference, ScoreTermsCompose) {
  // One head, Lq = 2, Lk = 3, D = 1, every term on; expected logits written from the header's
  // steps.
  AttentionTestData d(1, 1, 2, 3, 1, 1, 0);
  d.q = {0.5f, -1.0f};
  d.k = {1.0f, -2.0f, 0.25f};
  d.v = {1.0f, -1.0f, 2.0f};
  d.bias = {0.1f, -0.2f, 0.3f};  // [1, 1, 1, 3]
  d.bias_shape = {1, 1, 1, 3};
  d.alibi_slopes = {0.5f};
  d.rel_bias = {0.01f, 0.02f, 0.03f, 0.04f};  // 4 buckets, bidirectional, max_distance 4
  d.q_times = {1.0f, 3.0f};
  d.k_times = {0.0f, 1.5f, 2.5f};
  d.key_boost = {0.0f, 0.7f, -0.3f};
  for (TimeDecayMode mode : {TimeDecayMode::kAdditive, TimeDecayMode::kMultiplicative}) {
    AttentionSpec spec = reference_spec();
    spec.scale = 2.0f;
    spec.temperature = 0.5f;
    spec.time_decay = 0.3f;
    spec.time_decay_mode = mode;
    spec.rel_buckets = 4;
    spec.rel_max_distance = 4;
    const Result r = run(d, spec);
    for (int i = 0; i < 2; ++i) {
      const int pos_q = i + 1;  // Lk - Lq = 1
      std::vector<double> logit(3);
      double sum = 0.0;
      for (int j = 0; j < 3; ++j) {
        const double dt = std::fabs(d.q_times[i] - d.k_times[j]);
        double sim = 2.0 * d.q[i] * d.k[j];
        if (mode == TimeDecayMode::kMultiplicative) sim *= std::exp(-0.3 * dt);
        sim /= 0.5;
        // T5 with 4 buckets: 2 per direction, max_exact 1: n = 0 -> 0, n >= 1 -> 1, future +2.
        const int n = pos_q - j;
        const int bucket = (n < 0 ? 2 : 0) + (n == 0 ? 0 : 1);
        logit[j] =
            sim + d.bias[j] - 0.5 * std::abs(j - pos_q) + d.rel_bias[bucket] + d.key_boost[j];
        if (mode == TimeDecayMode::kAdditive) logit[j] -= 0.3 * dt;
        sum += std::exp(logit[j]);
      }
      EXPECT_NEAR(r.lse[i], std::log(sum), 1e-5) << i;
      for (int j = 0; j < 3; ++j)
        EXPECT_NEAR(r.weights[i * 3 + j], std::exp(logit[j]) / sum, 1e-6) << i << "," << j;
    }
  }
}

TEST(Reference, ZscoreStandardizesOverVisibleKeys) {
  // zscore with a huge dot scale: the logits stay O(1), so the weights are the softmax of the
  // standardized similarities, independent of the scale.
  AttentionTestData d(1, 1, 1, 3, 1, 1, 0);
  d.q = {1.0f};
  d.k = {1.0f, 2.0f, 4.0f};
  d.allowed_keys = {1, 1, 1};
  AttentionSpec spec = reference_spec();
  spec.zscore = true;
  spec.zscore_eps = 1e-6f;
  const double mean = 7.0 / 3.0;
  const double sd = std::sqrt(
      ((1 - mean) * (1 - mean) + (2 - mean) * (2 - mean) + (4 - mean) * (4 - mean)) / 3.0 + 1e-6);
  for (float scale : {1.0f, 1000.0f}) {
    spec.scale = scale;
    const double s = scale;
    const double sd_s = std::sqrt(sd * sd * s * s - 1e-6 * s * s + 1e-6);
    const Result r = run(d, spec);
    double sum = 0.0;
    std::vector<double> z(3);
    for (int j = 0; j < 3; ++j) sum += std::exp(z[j] = s * (d.k[j] - mean) / sd_s);
    for (int j = 0; j < 3; ++j) EXPECT_NEAR(r.weights[j], std::exp(z[j]) / sum, 1e-6) << scale;
  }
}

TEST(Reference, ExtremeScoresStayFinite) {
  AttentionTestData d(1, 2, 3, 4, 2, 2, 9);
  d.add_bias({1, 1, 3, 4});
  for (size_t e = 0; e < d.bias.size(); ++e) d.bias[e] = (e % 4 == 1) ? 1e4f : -1e4f;
  const Result r = run(d, reference_spec());
  EXPECT_TRUE(all_finite(r.out));
  EXPECT_TRUE(all_finite(r.lse));
  for (Index row = 0; row < 6; ++row)
    for (Index j = 0; j < 4; ++j) EXPECT_NEAR(r.weights[row * 4 + j], j == 1 ? 1.0f : 0.0f, 1e-6);
  // -1e4 everywhere and q = 0 (every similarity 0): lse = -1e4 + log 4, uniform weights.
  std::fill(d.bias.begin(), d.bias.end(), -1e4f);
  std::fill(d.q.begin(), d.q.end(), 0.0f);
  const Result low = run(d, reference_spec());
  for (float w : low.weights) EXPECT_NEAR(w, 0.25f, 1e-6);
  for (float l : low.lse) EXPECT_NEAR(l, -1e4 + std::log(4.0), 1e-2);
}

TEST(Reference, SingleKeySingleQuery) {
  AttentionTestData d(1, 1, 1, 1, 3, 2, 4);
  for (Normalizer norm : {Normalizer::kSoftmax, Normalizer::kFuzzy}) {
    AttentionSpec spec = reference_spec();
    spec.normalizer = norm;
    const Result r = run(d, spec);
    EXPECT_FLOAT_EQ(r.weights[0], 1.0f);
    EXPECT_FLOAT_EQ(r.out[0], d.v[0]);
    EXPECT_FLOAT_EQ(r.out[1], d.v[1]);
  }
}

TEST(Reference, ThreadCountDoesNotChangeResults) {
  AttentionTestData d(3, 3, 9, 11, 5, 4, 21);
  d.add_bias({1, 3, 1, 11});
  AttentionSpec spec = reference_spec();
  spec.zscore = true;
  spec.threads = 1;
  const Result one = run(d, spec);
  spec.threads = 3;
  const Result three = run(d, spec);
  EXPECT_EQ(one.out, three.out);
  EXPECT_EQ(one.lse, three.lse);
}

TEST(Reference, QuantizeRowsErrorBound) {
  AttentionTestData d(1, 1, 1, 1, 1, 1, 8);
  const Index rows = 6, cols = 37;
  std::vector<float> x = d.uniform(rows * cols, -1.0f, 1.0f);
  for (Index c = 0; c < cols; ++c) {
    x[1 * cols + c] *= 1e-20f;  // tiny magnitudes
    x[2 * cols + c] *= 3e4f;    // large magnitudes
    x[3 * cols + c] = 0.0f;     // an all-zero row
  }
  std::vector<std::int8_t> q(x.size());
  std::vector<float> scale(rows);
  quantize_rows(q.data(), scale.data(), x.data(), rows, cols);
  for (Index r = 0; r < rows; ++r) {
    float amax = 0.0f;
    for (Index c = 0; c < cols; ++c) amax = std::max(amax, std::fabs(x[r * cols + c]));
    EXPECT_EQ(scale[r], amax / 127.0f) << r;
    for (Index c = 0; c < cols; ++c) {
      const double xe = x[r * cols + c], s = scale[r];
      const double err = std::fabs(xe - q[r * cols + c] * s);
      EXPECT_LE(err, s / 2 * (1 + 1e-6)) << r << "," << c;  // the (1 + 1e-6): float rounding of s
      EXPECT_GE(q[r * cols + c], -127);
      if (std::fabs(xe) == amax && amax > 0) {
        EXPECT_EQ(std::abs(q[r * cols + c]), 127);
      }
    }
  }
}

TEST(Reference, Int8KeysAndValuesMatchTheirDequantizedFloats) {
  const Index D = 16;
  AttentionTestData d(2, 2, 6, 9, D, 5, 13);
  AttentionSpec spec = reference_spec();
  const Result fp32 = run(d, spec);
  d.quantize_kv();
  const Result int8 = run(d, spec);
  // Exactly the computation on the dequantized tensors ...
  AttentionTestData deq = d;
  deq.use_int8 = false;
  deq.k = d.dequantized_k();
  deq.v = d.dequantized_v();
  const Result ref = run(deq, spec);
  EXPECT_LE(max_abs_diff(int8.out, ref.out), 1e-6);
  // ... and close to float32 within the bound that quantization implies. Entries lie in [-1, 1], so
  // each k and v element moves by at most s/2 <= 1/254. A logit moves by at most
  // delta = scale * |q|_1 / 254 <= sqrt(D) / 254, a weight by a factor in [e^-2delta, e^2delta],
  // so |out' - out| <= (e^(2 delta) - 1) max|v'| + 1/254.
  const double delta = std::sqrt(static_cast<double>(D)) / 254.0;
  const double bound = std::expm1(2.0 * delta) * (1.0 + 1.0 / 254.0) + 1.0 / 254.0;
  const double diff = max_abs_diff(int8.out, fp32.out);
  EXPECT_LE(diff, bound);
  EXPECT_GT(diff, 0.0);  // quantization did change something: the int8 path was used
}

TEST(Reference, T5RelativeBucketByHand) {
  // Bidirectional, 32 buckets (16 per direction, max_exact 8), max_distance 128.
  // n = -rel; large n: 8 + floor(ln(n/8) / ln(16) * 8).
  EXPECT_EQ(t5_relative_bucket(0, 32, 128, true), 0);
  EXPECT_EQ(t5_relative_bucket(-3, 32, 128, true), 3);
  EXPECT_EQ(t5_relative_bucket(3, 32, 128, true), 19);
  EXPECT_EQ(t5_relative_bucket(-7, 32, 128, true), 7);
  EXPECT_EQ(t5_relative_bucket(-8, 32, 128, true), 8);    // ln 1 = 0
  EXPECT_EQ(t5_relative_bucket(-12, 32, 128, true), 9);   // 8 * ln 1.5 / ln 16 = 1.17
  EXPECT_EQ(t5_relative_bucket(-16, 32, 128, true), 10);  // exactly 2
  EXPECT_EQ(t5_relative_bucket(16, 32, 128, true), 26);
  EXPECT_EQ(t5_relative_bucket(-100, 32, 128, true), 15);  // 7.29
  EXPECT_EQ(t5_relative_bucket(-127, 32, 128, true), 15);  // 7.98
  EXPECT_EQ(t5_relative_bucket(-500, 32, 128, true), 15);  // clamped
  EXPECT_EQ(t5_relative_bucket(500, 32, 128, true), 31);
  // Unidirectional, 32 buckets (max_exact 16), max_distance 128: future keys share bucket 0.
  EXPECT_EQ(t5_relative_bucket(5, 32, 128, false), 0);
  EXPECT_EQ(t5_relative_bucket(-15, 32, 128, false), 15);
  EXPECT_EQ(t5_relative_bucket(-20, 32, 128, false), 17);  // 16 * ln 1.25 / ln 8 = 1.72
  EXPECT_EQ(t5_relative_bucket(-64, 32, 128, false), 26);  // 16 * ln 4 / ln 8 = 10.67
  EXPECT_EQ(t5_relative_bucket(-200, 32, 128, false), 31);
  // Degenerate: one bucket per direction.
  EXPECT_EQ(t5_relative_bucket(-9, 2, 4, true), 0);
  EXPECT_EQ(t5_relative_bucket(9, 2, 4, true), 1);
  EXPECT_EQ(t5_relative_bucket(-2, 2, 4, true), 0);
  EXPECT_EQ(t5_relative_bucket(0, 1, 4, false), 0);
}

TEST(Reference, FlopCounts) {
  EXPECT_EQ(attention_forward_flops(2, 3, 5, 7, 4, 6), 2.0 * 6 * 5 * 7 * (4 + 6));
  EXPECT_EQ(attention_backward_flops(2, 3, 5, 7, 4, 6), 2.0 * 6 * 5 * 7 * (3 * 4 + 2 * 6));
}

}  // namespace
}  // namespace kessel
