// Every bad input to the attention entry points throws InvalidArgument naming the argument.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <limits>
#include <string>
#include <vector>

#include "attention/attention_test_util.h"
#include "kessel/attention.h"

namespace kessel {
namespace {

using testing::AttentionTestData;
using ::testing::HasSubstr;

constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();
constexpr float kInf = std::numeric_limits<float>::infinity();

// Runs f, expects InvalidArgument, returns its message (empty if none was thrown, which fails).
std::string invalid_argument_message(const std::function<void()>& f) {
  try {
    f();
  } catch (const InvalidArgument& e) {
    return e.what();
  } catch (const std::exception& e) {
    ADD_FAILURE() << "expected InvalidArgument, got another exception: " << e.what();
    return "";
  }
  ADD_FAILURE() << "expected InvalidArgument, nothing was thrown";
  return "";
}

// The message of validate_attention for (d's inputs, spec), also checked through attention_forward
// with the reference path so the entry point validates too.
std::string validation_message(const AttentionTestData& d, const AttentionSpec& spec) {
  const AttentionInputs in = d.inputs();
  std::string msg = invalid_argument_message([&] { validate_attention(in, spec); });
  AttentionSpec ref = spec;
  ref.impl = AttentionImpl::kReference;
  std::vector<float> out(d.out_size()), lse(d.lse_size());
  const std::string forward_msg =
      invalid_argument_message([&] { attention_forward(out.data(), lse.data(), in, ref); });
  EXPECT_EQ(msg, forward_msg);
  return msg;
}

AttentionTestData small_data() { return AttentionTestData(2, 2, 5, 7, 4, 3, 11); }

TEST(Validation, AcceptsAFullyLoadedValidInput) {
  AttentionTestData d = small_data();
  d.add_key_lengths(0);
  d.add_allowed_keys();
  d.add_mask({1, 2, 1, 7});
  d.add_bias({2, 1, 5, 7});
  d.add_alibi();
  d.add_rel_bias(8);
  d.add_times();
  d.add_key_boost();
  AttentionSpec spec;
  spec.rel_buckets = 8;
  spec.time_decay = 0.1f;
  spec.min_lag = 1;
  spec.lag_by_time = true;
  spec.zscore = true;
  EXPECT_NO_THROW(validate_attention(d.inputs(), spec));
}

TEST(Validation, ZeroDimension) {
  AttentionTestData d = small_data();
  d.Lk = 0;
  EXPECT_THAT(validation_message(d, {}), HasSubstr("Lk=0"));
  d = small_data();
  d.D = 0;
  EXPECT_THAT(validation_message(d, {}), HasSubstr("D=0"));
}

TEST(Validation, NullRequiredTensor) {
  AttentionTestData d = small_data();
  AttentionInputs in = d.inputs();
  in.k = nullptr;
  EXPECT_THAT(invalid_argument_message([&] { validate_attention(in, {}); }),
              HasSubstr("k is null"));
}

// AttentionInputs has one D shared by q and k, so a D mismatch between q and k cannot be expressed;
// the mismatches that can are the broadcast shapes and the per-batch/per-head vectors.
TEST(Validation, MismatchedShapes) {
  AttentionTestData d = small_data();
  d.add_bias({2, 2, 5, 6});  // Lk is 7
  EXPECT_THAT(validation_message(d, {}), HasSubstr("bias has shape [2, 2, 5, 6]"));

  d = small_data();
  d.add_mask({3, 1, 1, 7});  // B is 2
  const std::string msg = validation_message(d, {});
  EXPECT_THAT(msg, HasSubstr("mask"));
  EXPECT_THAT(msg, HasSubstr("dimension B must be 1 or 2"));

  d = small_data();
  d.alibi_slopes = {0.5f};  // H is 2
  EXPECT_THAT(validation_message(d, {}), HasSubstr("alibi_slopes has 1 entries but H=2"));

  d = small_data();
  d.key_lengths = {7};  // B is 2
  EXPECT_THAT(validation_message(d, {}), HasSubstr("key_lengths has 1 entries but B=2"));
}

TEST(Validation, BroadcastDimensionNeedsZeroStride) {
  AttentionTestData d = small_data();
  d.add_bias({1, 2, 5, 7});
  AttentionInputs in = d.inputs();
  in.bias.strides[0] = 70;  // would read past the data for b = 1
  EXPECT_THAT(invalid_argument_message([&] { validate_attention(in, {}); }),
              HasSubstr("bias broadcasts dimension B"));
}

TEST(Validation, NonFiniteTensorsNameTensorAndFlatIndex) {
  AttentionTestData d = small_data();
  d.q[17] = kNaN;
  std::string msg = validation_message(d, {});
  EXPECT_THAT(msg, HasSubstr("q[17]"));
  EXPECT_THAT(msg, HasSubstr("nan"));

  d = small_data();
  d.k[3] = kInf;
  EXPECT_THAT(validation_message(d, {}), HasSubstr("k[3] is inf"));

  d = small_data();
  d.v[40] = -kInf;
  EXPECT_THAT(validation_message(d, {}), HasSubstr("v[40] is -inf"));

  d = small_data();
  d.add_bias({1, 2, 5, 7});
  d.bias[9] = kNaN;
  EXPECT_THAT(validation_message(d, {}), HasSubstr("bias[9]"));

  d = small_data();
  d.add_key_boost();
  d.key_boost[13] = kNaN;
  EXPECT_THAT(validation_message(d, {}), HasSubstr("key_boost[13]"));
}

// Finite inputs whose scores would overflow float32 (and come out as NaN or as rows with every key
// hidden) are refused before any work, naming what to change; ordinary magnitudes pass.
TEST(Validation, ScoresThatWouldOverflowFloat32) {
  AttentionTestData d = small_data();
  for (float& x : d.q) x *= 1e15f;
  for (float& x : d.k) x *= 1e15f;
  std::string msg = validation_message(d, {});
  EXPECT_THAT(msg, HasSubstr("q and k are too large for float32 scores"));
  EXPECT_THAT(msg, HasSubstr("rescale q and k"));
  AttentionSpec cosine;
  cosine.similarity = Similarity::kCosine;  // bounded similarity, but |q|^2 itself overflows
  EXPECT_THAT(validation_message(d, cosine), HasSubstr("too large for float32 scores"));

  d = small_data();
  AttentionSpec cold;
  cold.temperature = 1e-35f;
  msg = validation_message(d, cold);
  EXPECT_THAT(msg, HasSubstr("the logits can overflow float32"));
  EXPECT_THAT(msg, HasSubstr("temperature"));

  d = small_data();
  d.add_times();
  for (float& t : d.q_times) t *= 1e30f;
  for (float& t : d.k_times) t *= 1e30f;
  AttentionSpec decay;
  decay.time_decay = 10.0f;
  EXPECT_THAT(validation_message(d, decay), HasSubstr("score terms up to"));

  d = small_data();  // large but safe: |q| = |k| = 1e6, D = 4, logits up to 2e12
  for (float& x : d.q) x *= 1e6f;
  for (float& x : d.k) x *= 1e6f;
  EXPECT_NO_THROW(validate_attention(d.inputs(), {}));
}

TEST(Validation, NonFiniteTimes) {
  AttentionTestData d = small_data();
  d.add_times();
  d.k_times[8] = kNaN;
  AttentionSpec spec;
  spec.time_decay = 0.5f;
  EXPECT_THAT(validation_message(d, spec), HasSubstr("k_times[8]"));

  d = small_data();
  d.add_times();
  d.q_times[4] = kInf;
  EXPECT_THAT(validation_message(d, spec), HasSubstr("q_times[4] is inf"));
}

TEST(Validation, MissingTimes) {
  AttentionTestData d = small_data();
  AttentionSpec spec;
  spec.time_decay = 0.5f;
  EXPECT_THAT(validation_message(d, spec), HasSubstr("q_times/k_times are required by time_decay"));

  spec = {};
  spec.min_lag = 2;
  spec.lag_by_time = true;
  EXPECT_THAT(validation_message(d, spec), HasSubstr("min_lag with lag_by_time"));

  d.add_times();
  d.q_times.clear();
  EXPECT_THAT(validation_message(d, {}), HasSubstr("q_times and k_times must be given together"));
}

TEST(Validation, KeyLengthsOutOfRange) {
  AttentionTestData d = small_data();
  d.key_lengths = {7, 8};
  EXPECT_THAT(validation_message(d, {}),
              HasSubstr("key_lengths[1] = 8 is outside [0, Lk] = [0, 7]"));
  d.key_lengths = {-1, 3};
  EXPECT_THAT(validation_message(d, {}), HasSubstr("key_lengths[0] = -1"));
}

TEST(Validation, SpecRanges) {
  const AttentionTestData d = small_data();
  AttentionSpec spec;
  spec.normalizer = Normalizer::kFuzzy;
  for (float m : {1.0f, 0.5f, kNaN, kInf}) {
    spec.m = m;
    EXPECT_THAT(validation_message(d, spec), HasSubstr("fuzzy exponent m must be finite and > 1"))
        << "m=" << m;
  }
  spec = {};
  for (float t : {0.0f, -1.0f, kNaN, kInf}) {
    spec.temperature = t;
    EXPECT_THAT(validation_message(d, spec), HasSubstr("temperature")) << "temperature=" << t;
  }
  spec = {};
  spec.similarity = Similarity::kConstrainedCosine;
  for (float beta : {-0.1f, 1.5f, kNaN}) {
    spec.beta = beta;
    EXPECT_THAT(validation_message(d, spec), HasSubstr("beta must be in [0, 1]")) << beta;
  }
  spec = {};
  spec.scale = kInf;
  EXPECT_THAT(validation_message(d, spec), HasSubstr("scale must be finite"));
  spec = {};
  spec.fuzzy_eps = -1e-3f;
  EXPECT_THAT(validation_message(d, spec), HasSubstr("fuzzy_eps"));
  spec = {};
  spec.zscore_eps = 0.0f;
  EXPECT_THAT(validation_message(d, spec), HasSubstr("zscore_eps"));
  spec = {};
  spec.cosine_eps = 0.0f;
  EXPECT_THAT(validation_message(d, spec), HasSubstr("cosine_eps"));
  spec = {};
  spec.chunk_size = -2;
  EXPECT_THAT(validation_message(d, spec), HasSubstr("chunk_size"));
  spec = {};
  spec.chunk_size = 3;
  AttentionTestData more_queries(1, 1, 6, 4, 2, 2, 1);
  EXPECT_THAT(validation_message(more_queries, spec), HasSubstr("chunk_size = 3 needs Lq <= Lk"));
  spec = {};
  spec.time_decay = -0.5f;
  EXPECT_THAT(validation_message(d, spec), HasSubstr("time_decay must be finite and >= 0"));
}

TEST(Validation, RelativeBiasSettings) {
  AttentionTestData d = small_data();
  d.add_rel_bias(1);
  AttentionSpec spec;
  spec.rel_buckets = 1;  // bidirectional needs two halves
  EXPECT_THAT(validation_message(d, spec), HasSubstr("rel_buckets must be >= 2 (bidirectional)"));
  spec.rel_bidirectional = false;
  EXPECT_NO_THROW(validate_attention(d.inputs(), spec));
  spec.rel_max_distance = 0;
  EXPECT_THAT(validation_message(d, spec), HasSubstr("rel_max_distance must be >= 1"));
}

TEST(Validation, FuzzyWithAnExplicitSimilarity) {
  const AttentionTestData d = small_data();
  AttentionSpec spec;
  spec.normalizer = Normalizer::kFuzzy;
  spec.similarity = Similarity::kCosine;
  std::string msg = validation_message(d, spec);
  EXPECT_THAT(msg, HasSubstr("normalizer = fuzzy"));
  EXPECT_THAT(msg, HasSubstr("got cosine"));
  spec.similarity = Similarity::kConstrainedCosine;
  EXPECT_THAT(validation_message(d, spec), HasSubstr("got constrained_cosine"));
  spec.similarity = Similarity::kNegSqEuclidean;
  EXPECT_NO_THROW(validate_attention(d.inputs(), spec));
}

TEST(Validation, Int8NeedsScalesAndIsForwardOnly) {
  AttentionTestData d = small_data();
  d.quantize_kv();
  AttentionInputs in = d.inputs();
  EXPECT_NO_THROW(validate_attention(in, {}));

  AttentionInputs missing = in;
  missing.v_scale = nullptr;
  EXPECT_THAT(invalid_argument_message([&] { validate_attention(missing, {}); }),
              HasSubstr("v_scale is null"));

  d.k_scale[5] = -1.0f;
  EXPECT_THAT(validation_message(d, {}), HasSubstr("k_scale[5]"));
  d.k_scale[5] = 0.0f;  // an all-zero row quantizes to scale 0: allowed
  EXPECT_NO_THROW(validate_attention(d.inputs(), {}));

  std::vector<float> out(d.out_size()), lse(d.lse_size()), dout(d.out_size(), 1.0f);
  AttentionSpec spec;
  spec.impl = AttentionImpl::kReference;
  attention_forward(out.data(), lse.data(), d.inputs(), spec);
  std::vector<float> dq(d.q.size());
  AttentionGrads grads;
  grads.dq = dq.data();
  EXPECT_THAT(invalid_argument_message([&] {
                attention_backward(grads, dout.data(), out.data(), lse.data(), d.inputs(), spec);
              }),
              HasSubstr("int8"));
}

TEST(Validation, EntryPointsRejectNullOutputs) {
  const AttentionTestData d = small_data();
  const AttentionInputs in = d.inputs();
  AttentionSpec spec;
  spec.impl = AttentionImpl::kReference;
  EXPECT_THAT(invalid_argument_message([&] { attention_forward(nullptr, nullptr, in, spec); }),
              HasSubstr("out is null"));
  EXPECT_THAT(invalid_argument_message([&] { attention_weights(nullptr, in, spec); }),
              HasSubstr("weights is null"));
  std::vector<float> out(d.out_size());
  EXPECT_THAT(invalid_argument_message(
                  [&] { attention_backward({}, out.data(), out.data(), nullptr, in, spec); }),
              HasSubstr("lse"));
  std::vector<float> lse(d.lse_size()), dbias(4);
  AttentionGrads grads;
  grads.dbias = dbias.data();
  EXPECT_THAT(invalid_argument_message(
                  [&] { attention_backward(grads, out.data(), out.data(), lse.data(), in, spec); }),
              HasSubstr("dbias is set but there is no bias"));
}

TEST(Validation, ParsersNameTheUnknownValue) {
  EXPECT_EQ(parse_similarity("constrained_cosine"), Similarity::kConstrainedCosine);
  EXPECT_EQ(parse_normalizer("fuzzy"), Normalizer::kFuzzy);
  EXPECT_EQ(parse_time_decay_mode("multiplicative"), TimeDecayMode::kMultiplicative);
  EXPECT_EQ(parse_attention_impl("reference"), AttentionImpl::kReference);
  EXPECT_EQ(parse_kv_dtype("int8"), KvDtype::kInt8);
  const std::string msg = invalid_argument_message([] { parse_similarity("cos"); });
  EXPECT_THAT(msg, HasSubstr("parse_similarity: unknown similarity 'cos'"));
  EXPECT_THAT(msg, HasSubstr("neg_sq_euclidean"));
  EXPECT_THAT(invalid_argument_message([] { parse_normalizer("Softmax"); }),
              HasSubstr("'Softmax'"));
  EXPECT_THAT(invalid_argument_message([] { parse_kv_dtype("fp16"); }), HasSubstr("'fp16'"));
}

}  // namespace
}  // namespace kessel
