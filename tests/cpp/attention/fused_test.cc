// The fused path against the reference path through the public API (spec.impl = kFused vs
// kReference), over odd sizes, every similarity x normalizer, each mask and score term alone and
// combined, zscore, int8, fully masked and crisp rows; thread-count determinism; backward gradients.
//
// Metric (normwise relative): max_e |fused_e - ref_e| / max(max_e |ref_e|, 1e-3); equal infinities
// count as 0, a NaN or mismatched infinity as +inf. Forward (out, lse) <= 1e-5, gradients <= 1e-4.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include "attention/attention_test_util.h"
#include "attention/staged_scores.h"
#include "kessel/attention.h"
#include "kessel/error.h"

namespace kessel {
namespace {

using testing::AttentionTestData;

constexpr double kForwardTol = 1e-5;
constexpr double kGradTol = 1e-4;

double scaled_rel_diff(const std::vector<float>& got, const std::vector<float>& want,
                       double floor = 1e-3) {
  double peak = floor;
  for (float x : want)
    if (std::isfinite(x)) peak = std::max(peak, static_cast<double>(std::fabs(x)));
  return testing::max_abs_diff(got, want) / peak;
}

struct Forward {
  std::vector<float> out, lse;
  AttentionStats stats;
};

Forward run_forward(const AttentionTestData& d, AttentionSpec spec, AttentionImpl impl,
                    int threads = 0) {
  spec.impl = impl;
  spec.threads = threads;
  Forward f;
  f.out.assign(d.out_size(), -7.0f);  // poison: every element must be written
  f.lse.assign(d.lse_size(), -7.0f);
  f.stats = attention_forward(f.out.data(), f.lse.data(), d.inputs(), spec);
  return f;
}

void expect_forward_matches(const AttentionTestData& d, const AttentionSpec& spec,
                            const std::string& what) {
  SCOPED_TRACE(what);
  const Forward ref = run_forward(d, spec, AttentionImpl::kReference);
  const Forward fus = run_forward(d, spec, AttentionImpl::kFused);
  EXPECT_LE(scaled_rel_diff(fus.out, ref.out), kForwardTol);
  EXPECT_LE(scaled_rel_diff(fus.lse, ref.lse), kForwardTol);
  EXPECT_TRUE(testing::all_finite(fus.out));
  EXPECT_EQ(fus.stats.fully_masked_rows, ref.stats.fully_masked_rows);
  EXPECT_EQ(fus.stats.crisp_rows, ref.stats.crisp_rows);
  // The materialized weights (attention_weights) on the same tiles and score code.
  AttentionSpec ws = spec;
  std::vector<float> w_ref(d.weights_size(), -7.0f), w_fus(d.weights_size(), -7.0f);  // poison
  ws.impl = AttentionImpl::kReference;
  const AttentionStats sr = attention_weights(w_ref.data(), d.inputs(), ws);
  ws.impl = AttentionImpl::kFused;
  const AttentionStats sf = attention_weights(w_fus.data(), d.inputs(), ws);
  EXPECT_LE(testing::max_abs_diff(w_fus, w_ref), kForwardTol);  // weights are in [0, 1]
  EXPECT_TRUE(testing::all_finite(w_fus));
  EXPECT_EQ(sf.fully_masked_rows, sr.fully_masked_rows);
  EXPECT_EQ(sf.crisp_rows, sr.crisp_rows);
  // Hidden keys get exactly 0, as in the reference.
  for (size_t e = 0; e < w_ref.size(); ++e)
    if (w_ref[e] == 0.0f) {
      EXPECT_LE(w_fus[e], 1e-30f) << "element " << e;
    }
}

struct Grads {
  std::vector<float> dq, dk, dv, dbias, drel_bias, dkey_boost;
  std::vector<float> dm, dtime_decay;  // one element each, when fuzzy / when times are given
  std::vector<float> dtemperature_coef;  // one element, under an adaptive temperature
  std::vector<float> dboost_gate;        // [H, 2D+1], with the key boost's gate
};

Grads run_backward(const AttentionTestData& d, AttentionSpec spec, AttentionImpl impl,
                   const std::vector<float>& dout, int threads = 0) {
  spec.impl = impl;
  spec.threads = threads;
  const Forward f = run_forward(d, spec, impl, threads);
  Grads g;
  g.dq.assign(d.q.size(), 0.0f);
  g.dk.assign(d.k.size(), 0.0f);
  g.dv.assign(d.v.size(), 0.0f);
  AttentionGrads ag;
  ag.dq = g.dq.data(), ag.dk = g.dk.data(), ag.dv = g.dv.data();
  if (!d.bias.empty()) ag.dbias = (g.dbias.assign(d.bias.size(), 0.0f), g.dbias.data());
  if (!d.rel_bias.empty())
    ag.drel_bias = (g.drel_bias.assign(d.rel_bias.size(), 0.0f), g.drel_bias.data());
  if (!d.key_boost.empty())
    ag.dkey_boost = (g.dkey_boost.assign(d.key_boost.size(), 0.0f), g.dkey_boost.data());
  if (spec.normalizer == Normalizer::kFuzzy) ag.dm = (g.dm.assign(1, 0.0f), g.dm.data());
  if (!d.q_times.empty()) ag.dtime_decay = (g.dtime_decay.assign(1, 0.0f), g.dtime_decay.data());
  if (spec.adaptive_temperature)
    ag.dtemperature_coef = (g.dtemperature_coef.assign(1, 0.0f), g.dtemperature_coef.data());
  if (!d.boost_gate.empty())
    ag.dboost_gate = (g.dboost_gate.assign(d.boost_gate.size(), 0.0f), g.dboost_gate.data());
  attention_backward(ag, dout.data(), f.out.data(), f.lse.data(), d.inputs(), spec);
  return g;
}

void expect_backward_matches(AttentionTestData& d, const AttentionSpec& spec,
                             const std::string& what) {
  SCOPED_TRACE(what);
  const std::vector<float> dout = d.uniform(static_cast<Index>(d.out_size()), -1.0f, 1.0f);
  const Grads ref = run_backward(d, spec, AttentionImpl::kReference, dout);
  const Grads fus = run_backward(d, spec, AttentionImpl::kFused, dout);
  EXPECT_LE(scaled_rel_diff(fus.dq, ref.dq), kGradTol) << "dq";
  EXPECT_LE(scaled_rel_diff(fus.dk, ref.dk), kGradTol) << "dk";
  EXPECT_LE(scaled_rel_diff(fus.dv, ref.dv), kGradTol) << "dv";
  // A bias broadcast over keys has an exactly zero gradient (softmax is shift invariant), so only
  // rounding is left to compare: hence the larger floor.
  EXPECT_LE(scaled_rel_diff(fus.dbias, ref.dbias, 1e-2), kGradTol) << "dbias";
  EXPECT_LE(scaled_rel_diff(fus.drel_bias, ref.drel_bias), kGradTol) << "drel_bias";
  EXPECT_LE(scaled_rel_diff(fus.dkey_boost, ref.dkey_boost), kGradTol) << "dkey_boost";
  EXPECT_LE(scaled_rel_diff(fus.dtime_decay, ref.dtime_decay), kGradTol) << "dtime_decay";
  EXPECT_LE(scaled_rel_diff(fus.dboost_gate, ref.dboost_gate), kGradTol) << "dboost_gate";
  EXPECT_EQ(fus.dboost_gate.size(), d.boost_gate.size());
  EXPECT_LE(scaled_rel_diff(fus.dtemperature_coef, ref.dtemperature_coef), kGradTol) << "dtemperature_coef";
  EXPECT_EQ(fus.dtemperature_coef.empty(), !spec.adaptive_temperature);
  // Under zscore dm is only what zscore_eps leaves (~1e-3): the fused path takes it from the row
  // statistics (docs/attention.md), so it is held to the same relative tolerance.
  EXPECT_LE(scaled_rel_diff(fus.dm, ref.dm), kGradTol) << "dm";
  ASSERT_EQ(fus.dm.size(), ref.dm.size());
  if (!fus.dm.empty() && d.Lk > 1) {
    EXPECT_NE(ref.dm[0], 0.0f);  // a zero dm would make the comparison empty (one key: w = 1)
  }
}

// ---- forward ----------------------------------------------------------------------------------------

TEST(FusedForward, OddSizesSoftmaxAndFuzzy) {
  const Index lengths[] = {1, 7, 64, 129, 300};
  std::uint32_t seed = 1;
  for (Index lq : lengths)
    for (Index lk : lengths) {
      AttentionTestData d(1, 2, lq, lk, 16, 9, seed++);
      AttentionSpec spec;
      expect_forward_matches(d, spec, "softmax Lq=" + std::to_string(lq) + " Lk=" + std::to_string(lk));
      spec.causal = true;
      expect_forward_matches(d, spec, "causal Lq=" + std::to_string(lq) + " Lk=" + std::to_string(lk));
      AttentionSpec fz;
      fz.normalizer = Normalizer::kFuzzy;
      expect_forward_matches(d, fz, "fuzzy Lq=" + std::to_string(lq) + " Lk=" + std::to_string(lk));
    }
}

TEST(FusedForward, HeadSizes) {
  const Index dims[][2] = {{1, 1}, {16, 16}, {64, 64}, {80, 80}, {64, 33}, {1, 70}, {80, 17}};
  for (const auto& dd : dims) {
    AttentionTestData d(2, 2, 129, 70, dd[0], dd[1], 7);
    const std::string tag = "D=" + std::to_string(dd[0]) + " Dv=" + std::to_string(dd[1]);
    expect_forward_matches(d, AttentionSpec{}, "softmax " + tag);
    AttentionSpec fz;
    fz.normalizer = Normalizer::kFuzzy;
    fz.m = 1.5f;
    expect_forward_matches(d, fz, "fuzzy m=1.5 " + tag);
  }
}

TEST(FusedForward, EverySimilarityAndNormalizer) {
  AttentionTestData d(2, 2, 67, 131, 24, 20, 3);
  d.add_key_lengths(40);
  const Similarity sims[] = {Similarity::kDot, Similarity::kCosine, Similarity::kConstrainedCosine,
                             Similarity::kNegSqEuclidean};
  for (Similarity s : sims)
    for (bool causal : {false, true}) {
      AttentionSpec spec;
      spec.similarity = s;
      spec.causal = causal;
      expect_forward_matches(d, spec, "softmax sim " + std::to_string(static_cast<int>(s)));
    }
  for (Similarity s : {Similarity::kDot, Similarity::kNegSqEuclidean})
    for (float m : {2.0f, 1.5f, 3.0f, 1.1f}) {
      AttentionSpec spec;
      spec.normalizer = Normalizer::kFuzzy;
      spec.similarity = s;
      spec.m = m;
      expect_forward_matches(d, spec, "fuzzy m=" + std::to_string(m));
      d.add_key_boost(0.5f);
      expect_forward_matches(d, spec, "fuzzy+boost m=" + std::to_string(m));
      d.key_boost.clear();
    }
}

// An adaptive temperature is a per-row temperature: row i's logits scale <q_i, k_j> a_i / temperature,
// a_i = 1 + c mean|q_i|, are built here independently as the plain logits plus the bias
// (a_i / temperature - 1) scale <q_i, k_j>, and both paths, with masks and a key boost, agree with it.
TEST(FusedForward, AdaptiveTemperatureIsAPerRowTemperature) {
  const Index B = 2, H = 3, Lq = 9, Lk = 13, D = 8, Dv = 5;
  const float c = 0.4f, temperature = 0.8f, scale = 1.0f / std::sqrt(static_cast<float>(D));
  for (bool causal : {false, true}) {
    AttentionTestData d(B, H, Lq, Lk, D, Dv, causal ? 71u : 70u);
    d.add_key_boost();
    d.add_key_lengths(3);
    AttentionSpec adaptive;
    adaptive.adaptive_temperature = true, adaptive.temperature_coef = c, adaptive.temperature = temperature;
    adaptive.causal = causal;
    for (auto& x : d.q) x *= 3.0f;  // queries of different sizes: the factors a_i differ by row
    AttentionTestData plain = d;
    plain.bias_shape = {B, H, Lq, Lk};
    plain.bias.assign(static_cast<std::size_t>(B * H * Lq * Lk), 0.0f);
    for (Index r = 0; r < B * H * Lq; ++r) {
      double mean = 0.0;
      for (Index e = 0; e < D; ++e) mean += std::fabs(d.q[r * D + e]) / D;
      const double a = 1.0 + c * mean;
      const Index bh = r / Lq;
      for (Index j = 0; j < Lk; ++j) {
        double dot = 0.0;
        for (Index e = 0; e < D; ++e) dot += static_cast<double>(d.q[r * D + e]) * d.k[(bh * Lk + j) * D + e];
        plain.bias[r * Lk + j] = static_cast<float>((a / temperature - 1.0) * scale * dot);
      }
    }
    AttentionSpec fixed;
    fixed.causal = causal;
    const Forward want = run_forward(plain, fixed, AttentionImpl::kReference);
    for (AttentionImpl impl : {AttentionImpl::kReference, AttentionImpl::kFused}) {
      const Forward got = run_forward(d, adaptive, impl);
      EXPECT_LE(scaled_rel_diff(got.out, want.out), kForwardTol);
      EXPECT_LE(scaled_rel_diff(got.lse, want.lse), kForwardTol);
    }
    expect_forward_matches(d, adaptive, causal ? "adaptive causal" : "adaptive");
    const Forward one = run_forward(d, adaptive, AttentionImpl::kFused, 1);
    const Forward two = run_forward(d, adaptive, AttentionImpl::kFused, 2);
    EXPECT_EQ(one.out, two.out);  // bit-identical for any thread count, as every fused path
  }
}

TEST(FusedForward, AdaptiveTemperatureRefusesWhatItCannotScale) {
  AttentionTestData d(1, 1, 3, 4, 4, 4, 5u);
  std::vector<float> out(d.out_size());
  AttentionSpec s;
  s.adaptive_temperature = true;
  s.similarity = Similarity::kCosine;
  EXPECT_THROW(attention_forward(out.data(), nullptr, d.inputs(), s), InvalidArgument);
  s.similarity = Similarity::kDot, s.zscore = true;
  EXPECT_THROW(attention_forward(out.data(), nullptr, d.inputs(), s), InvalidArgument);
  s.zscore = false, s.normalizer = Normalizer::kFuzzy;
  EXPECT_THROW(attention_forward(out.data(), nullptr, d.inputs(), s), InvalidArgument);
  s.normalizer = Normalizer::kSoftmax, s.temperature_coef = -0.1f;
  EXPECT_THROW(attention_forward(out.data(), nullptr, d.inputs(), s), InvalidArgument);
  s.temperature_coef = 0.1f;
  EXPECT_NO_THROW(attention_forward(out.data(), nullptr, d.inputs(), s));
}

// Each mask and each score term alone, then combinations; softmax and fuzzy, plain and zscore.
TEST(FusedForward, MasksAndScoreTerms) {
  using Setup = std::function<void(AttentionTestData&, AttentionSpec&)>;
  const std::vector<std::pair<std::string, Setup>> cases = {
      {"causal", [](auto&, auto& s) { s.causal = true; }},
      {"key_lengths", [](auto& d, auto&) { d.add_key_lengths(1); }},
      {"window", [](auto&, auto& s) { s.window = 9; }},
      {"min_lag", [](auto&, auto& s) { s.min_lag = 3; }},
      {"min_lag_by_time", [](auto& d, auto& s) { d.add_times(), s.min_lag = 2, s.lag_by_time = true; }},
      {"allowed_keys", [](auto& d, auto&) { d.add_allowed_keys(0.7); }},
      {"mask_full", [](auto& d, auto&) { d.add_mask({2, 2, 77, 150}, 0.6); }},
      {"mask_broadcast", [](auto& d, auto&) { d.add_mask({1, 2, 1, 150}, 0.6); }},
      {"chunk", [](auto&, auto& s) { s.chunk_size = 8; }},
      {"chunk_causal", [](auto&, auto& s) { s.chunk_size = 5, s.causal = true; }},
      {"chunk_large", [](auto&, auto& s) { s.chunk_size = 70; }},
      {"temperature", [](auto&, auto& s) { s.temperature = 0.37f; }},
      {"bias_full", [](auto& d, auto&) { d.add_bias({2, 2, 77, 150}); }},
      {"bias_broadcast", [](auto& d, auto&) { d.add_bias({1, 2, 1, 150}); }},
      {"alibi", [](auto& d, auto&) { d.add_alibi(); }},
      {"rel_bias", [](auto& d, auto& s) { s.rel_buckets = 16, d.add_rel_bias(16); }},
      {"decay_additive", [](auto& d, auto& s) { d.add_times(), s.time_decay = 0.05f; }},
      {"decay_multiplicative",
       [](auto& d, auto& s) {
         d.add_times(), s.time_decay = 0.05f, s.time_decay_mode = TimeDecayMode::kMultiplicative;
       }},
      {"key_boost", [](auto& d, auto&) { d.add_key_boost(); }},
      {"combined",
       [](auto& d, auto& s) {
         s.causal = true, s.window = 40, d.add_key_lengths(20), d.add_bias({2, 1, 77, 150});
         d.add_alibi(), d.add_key_boost(), d.add_times(), s.time_decay = 0.02f;
       }},
      {"combined_chunk",
       [](auto& d, auto& s) {
         s.chunk_size = 6, s.causal = true, d.add_allowed_keys(0.8), s.rel_buckets = 8;
         d.add_rel_bias(8), s.temperature = 2.0f;
       }},
  };
  std::uint32_t seed = 100;
  for (const auto& [name, setup] : cases)
    for (int variant = 0; variant < 4; ++variant) {
      AttentionTestData d(2, 2, 77, 150, 16, 12, seed++);
      AttentionSpec spec;
      setup(d, spec);
      if (variant & 1) spec.normalizer = Normalizer::kFuzzy, spec.temperature = 1.0f;
      if (variant & 2) spec.zscore = true;
      expect_forward_matches(d, spec, name + " variant " + std::to_string(variant));
    }
}

TEST(FusedForward, Int8KeysAndValues) {
  AttentionTestData d(2, 3, 100, 130, 32, 24, 11);
  d.quantize_kv();
  AttentionSpec spec;
  expect_forward_matches(d, spec, "int8 softmax");
  spec.causal = true;
  spec.chunk_size = 7;
  expect_forward_matches(d, spec, "int8 causal chunk");
  AttentionSpec fz;
  fz.normalizer = Normalizer::kFuzzy;
  expect_forward_matches(d, fz, "int8 fuzzy");
}

TEST(FusedForward, FullyMaskedRows) {
  // Lq > Lk with causal: the first Lq - Lk queries sit before every key.
  AttentionTestData d(1, 2, 90, 20, 8, 8, 5);
  AttentionSpec spec;
  spec.causal = true;
  const Forward f = run_forward(d, spec, AttentionImpl::kFused);
  EXPECT_EQ(f.stats.fully_masked_rows, 2 * 70);
  for (Index i = 0; i < 70; ++i) {
    EXPECT_EQ(f.lse[static_cast<size_t>(i)], -std::numeric_limits<float>::infinity());
    EXPECT_EQ(f.out[static_cast<size_t>(i * 8)], 0.0f);
  }
  expect_forward_matches(d, spec, "causal Lq > Lk");
  spec.normalizer = Normalizer::kFuzzy;
  expect_forward_matches(d, spec, "fuzzy causal Lq > Lk");
  AttentionTestData e(2, 1, 30, 40, 8, 8, 6);
  e.allowed_keys.assign(80, 0);  // batch 0: nothing allowed
  std::fill(e.allowed_keys.begin() + 40, e.allowed_keys.end(), 1);
  expect_forward_matches(e, AttentionSpec{}, "allowed_keys all zero for b = 0");
}

TEST(FusedForward, CrispRowsMatchReference) {
  AttentionTestData d(1, 2, 70, 90, 12, 10, 8);
  // Queries 3, 40 and 69 of head 0 coincide with keys (two keys for query 40): crisp rows.
  const auto copy_q_to_k = [&](Index i, Index j) {
    std::copy_n(d.q.begin() + i * 12, 12, d.k.begin() + j * 12);
  };
  copy_q_to_k(3, 5), copy_q_to_k(40, 10), copy_q_to_k(40, 77), copy_q_to_k(69, 89);
  for (float m : {2.0f, 1.7f}) {
    AttentionSpec spec;
    spec.normalizer = Normalizer::kFuzzy;
    spec.m = m;
    const Forward f = run_forward(d, spec, AttentionImpl::kFused);
    EXPECT_EQ(f.stats.crisp_rows, 3);
    EXPECT_EQ(f.lse[40], std::numeric_limits<float>::infinity());
    expect_forward_matches(d, spec, "crisp m=" + std::to_string(m));
    spec.causal = true;  // key 77 is after query 40's position (60): only key 10 is visible
    expect_forward_matches(d, spec, "crisp causal");
    spec.causal = false;
    d.add_key_boost();
    expect_forward_matches(d, spec, "crisp boost");
    d.key_boost.clear();
    // The staged path (time decay, zscore) finds the same exact matches as the hot one.
    d.add_times();
    spec.time_decay = 0.05f;
    expect_forward_matches(d, spec, "crisp time decay");
    spec.time_decay = 0.0f;
    d.q_times.clear(), d.k_times.clear();
    spec.zscore = true;
    expect_forward_matches(d, spec, "crisp zscore");
  }
}

// A match tolerance above the cancellation threshold (1/16 of |q|^2 + |k|^2): near keys, not only
// equal ones, make a row crisp, on the hot and the staged path alike.
TEST(FusedForward, LargeMatchToleranceMatchesReference) {
  AttentionTestData d(1, 2, 70, 90, 12, 10, 19);
  for (Index i : {3, 40, 69})  // keys close to, not equal to, these queries
    for (Index e = 0; e < 12; ++e) d.k[static_cast<size_t>((i + 7) * 12 + e)] = d.q[static_cast<size_t>(i * 12 + e)] * 1.2f;
  AttentionSpec spec;
  spec.normalizer = Normalizer::kFuzzy;
  spec.fuzzy_match_tol = 0.2f;
  const Forward f = run_forward(d, spec, AttentionImpl::kFused);
  EXPECT_GE(f.stats.crisp_rows, 3);
  expect_forward_matches(d, spec, "tol 0.2");
  spec.zscore = true;
  expect_forward_matches(d, spec, "tol 0.2 staged");
}

// Z-score statistics under a large common offset: similarities of 1000 that differ by about 10. The
// per-tile sums are float, in two passes (mean, then squared deviations); a one-pass
// E[x^2] - E[x]^2 would lose the variance here. Much larger offsets run into the float similarities'
// own rounding: at 1e4 with a spread of 100 the outputs miss the reference by 1.06e-5, the same
// whether or not the offset is subtracted before the float sums.
TEST(FusedForward, ZscoreStatisticsSurviveALargeCommonOffset) {
  AttentionTestData d(1, 1, 70, 200, 4, 4, 23);
  for (Index i = 0; i < 70; ++i) {
    d.q[static_cast<size_t>(i * 4)] = 100.0f;
    for (Index e = 1; e < 4; ++e) d.q[static_cast<size_t>(i * 4 + e)] *= 0.01f;
  }
  for (Index j = 0; j < 200; ++j) d.k[static_cast<size_t>(j * 4)] = 10.0f + 0.1f * d.k[static_cast<size_t>(j * 4)];
  AttentionSpec spec;
  spec.scale = 1.0f;
  spec.zscore = true;
  expect_forward_matches(d, spec, "offset 1000, spread 10");
}

// The z-score statistics pass keeps the raw products Q K^T of up to kMaxKeptProductTiles key tiles
// for the pass after it; a block that sees more keys recomputes them. Both sides of that limit,
// forward (out, lse, weights) and backward, against the reference.
TEST(FusedForward, ZscoreKeptAndRecomputedProducts) {
  using attention_detail::kBlockK;
  using attention_detail::kMaxKeptProductTiles;
  for (const Index lk : {kMaxKeptProductTiles * kBlockK, kMaxKeptProductTiles * kBlockK + 5}) {
    AttentionTestData d(1, 1, 3, lk, 4, 4, 31);
    AttentionSpec spec;
    spec.zscore = true;
    expect_forward_matches(d, spec, "Lk " + std::to_string(lk));
    expect_backward_matches(d, spec, "Lk " + std::to_string(lk));
  }
}

TEST(FusedForward, TileSkippingIsCounted) {
  AttentionTestData d(1, 1, 512, 512, 8, 8, 9);
  AttentionSpec spec;
  const Forward dense = run_forward(d, spec, AttentionImpl::kFused);
  EXPECT_EQ(dense.stats.key_tiles_visited, 8 * 8);
  EXPECT_EQ(dense.stats.key_tiles_skipped, 0);
  spec.causal = true;
  const Forward causal = run_forward(d, spec, AttentionImpl::kFused);
  EXPECT_EQ(causal.stats.key_tiles_visited, 8 * 9 / 2);
  EXPECT_EQ(causal.stats.key_tiles_skipped, 8 * 7 / 2);
  spec.causal = false;
  spec.chunk_size = 64;  // own chunk = one tile, plus bridge tiles of stride 64
  const Forward chunk = run_forward(d, spec, AttentionImpl::kFused);
  EXPECT_EQ(chunk.stats.key_tiles_visited, 8 + 7);  // own tile + one bridge tile for qb >= 1
  expect_forward_matches(d, spec, "chunk 64");
}

TEST(FusedForward, ThreadCountsGiveBitIdenticalResults) {
  AttentionTestData d(2, 3, 150, 200, 20, 12, 12);
  d.add_key_boost();
  for (bool fuzzy : {false, true}) {
    AttentionSpec spec;
    spec.causal = true;
    if (fuzzy) spec.normalizer = Normalizer::kFuzzy, spec.m = 1.6f;
    const Forward f1 = run_forward(d, spec, AttentionImpl::kFused, 1);
    for (int t : {2, 3}) {
      const Forward ft = run_forward(d, spec, AttentionImpl::kFused, t);
      EXPECT_EQ(0, std::memcmp(f1.out.data(), ft.out.data(), f1.out.size() * sizeof(float)));
      EXPECT_EQ(0, std::memcmp(f1.lse.data(), ft.lse.data(), f1.lse.size() * sizeof(float)));
    }
  }
}

// ---- backward ---------------------------------------------------------------------------------------

TEST(FusedBackward, MatchesReferenceOnOddSizes) {
  const Index sizes[][4] = {{1, 1, 1, 1}, {7, 9, 5, 3}, {64, 64, 16, 16}, {129, 70, 33, 20},
                            {70, 300, 16, 24}, {300, 129, 8, 8}};
  std::uint32_t seed = 200;
  for (const auto& s : sizes) {
    AttentionTestData d(1, 2, s[0], s[1], s[2], s[3], seed++);
    const std::string tag = "Lq=" + std::to_string(s[0]) + " Lk=" + std::to_string(s[1]);
    AttentionSpec spec;
    expect_backward_matches(d, spec, "softmax " + tag);
    spec.causal = true;
    expect_backward_matches(d, spec, "causal " + tag);
    AttentionSpec fz;
    fz.normalizer = Normalizer::kFuzzy;
    expect_backward_matches(d, fz, "fuzzy " + tag);
  }
}

TEST(FusedBackward, EveryFeature) {
  using Setup = std::function<void(AttentionTestData&, AttentionSpec&)>;
  const std::vector<std::pair<std::string, Setup>> cases = {
      {"plain", [](auto&, auto&) {}},
      {"cosine", [](auto&, auto& s) { s.similarity = Similarity::kCosine; }},
      {"constrained_cosine", [](auto&, auto& s) { s.similarity = Similarity::kConstrainedCosine; }},
      {"neg_sq", [](auto&, auto& s) { s.similarity = Similarity::kNegSqEuclidean; }},
      {"fuzzy_m1.5", [](auto&, auto& s) { s.normalizer = Normalizer::kFuzzy, s.m = 1.5f; }},
      {"fuzzy_boost", [](auto& d, auto& s) { s.normalizer = Normalizer::kFuzzy, d.add_key_boost(); }},
      {"fuzzy_m3_boost", [](auto& d, auto& s) { s.normalizer = Normalizer::kFuzzy, s.m = 3.0f, d.add_key_boost(); }},
      {"fuzzy_m1.5_boost_masks",
       [](auto& d, auto& s) {
         s.normalizer = Normalizer::kFuzzy, s.m = 1.5f, d.add_key_boost(), s.causal = true, d.add_key_lengths(10);
       }},
      {"zscore", [](auto&, auto& s) { s.zscore = true; }},
      {"zscore_fuzzy", [](auto&, auto& s) { s.zscore = true, s.normalizer = Normalizer::kFuzzy; }},
      {"temperature", [](auto&, auto& s) { s.temperature = 0.5f; }},
      {"adaptive_temperature", [](auto&, auto& s) { s.adaptive_temperature = true, s.temperature_coef = 0.3f; }},
      {"adaptive_temperature_masks_decay",
       [](auto& d, auto& s) {
         s.adaptive_temperature = true, s.temperature = 0.7f, s.causal = true, d.add_key_lengths(10);
         d.add_times(), s.time_decay = 0.1f, s.time_decay_mode = TimeDecayMode::kMultiplicative;
         d.add_key_boost();
       }},
      {"key_boost", [](auto& d, auto&) { d.add_key_boost(); }},
      {"emotion_ratio", [](auto& d, auto& s) { d.add_key_boost(), d.emotion_ratio = {0.2f, 0.9f}, s.balance = 0.7f; }},
      {"boost_gate", [](auto& d, auto&) { d.add_key_boost(2.0f), d.add_boost_gate(); }},
      {"boost_gate_masks_padding",
       [](auto& d, auto& s) {
         d.add_key_boost(2.0f), d.add_boost_gate(), s.causal = true, d.add_key_lengths(10);
         d.add_mask({1, 2, 77, 100}, 0.8);
       }},
      {"boost_gate_cosine_zscore_decay",
       [](auto& d, auto& s) {
         d.add_key_boost(2.0f), d.add_boost_gate(), s.similarity = Similarity::kCosine, s.zscore = true;
         d.add_times(), s.time_decay = 0.05f, s.chunk_size = 9;
       }},
      {"bias_full", [](auto& d, auto&) { d.add_bias({2, 2, 77, 100}); }},
      {"bias_over_b", [](auto& d, auto&) { d.add_bias({1, 2, 77, 100}); }},
      {"bias_row", [](auto& d, auto&) { d.add_bias({2, 1, 1, 100}); }},
      {"bias_col", [](auto& d, auto&) { d.add_bias({1, 2, 77, 1}); }},
      {"alibi_rel", [](auto& d, auto& s) { d.add_alibi(), s.rel_buckets = 12, d.add_rel_bias(12); }},
      {"decay_add", [](auto& d, auto& s) { d.add_times(), s.time_decay = 0.1f; }},
      {"decay_mult",
       [](auto& d, auto& s) {
         d.add_times(), s.time_decay = 0.1f, s.time_decay_mode = TimeDecayMode::kMultiplicative;
       }},
      // lambda = 0 with times: the forward leaves the terms out, the backward still gives dlambda.
      {"decay_add_zero_rate", [](auto& d, auto&) { d.add_times(); }},
      {"decay_mult_zero_rate_fuzzy",
       [](auto& d, auto& s) {
         d.add_times(), s.time_decay_mode = TimeDecayMode::kMultiplicative;
         s.normalizer = Normalizer::kFuzzy, s.m = 1.8f;
       }},
      {"decay_mult_fuzzy_temperature",
       [](auto& d, auto& s) {
         d.add_times(), s.time_decay = 0.05f, s.time_decay_mode = TimeDecayMode::kMultiplicative;
         s.normalizer = Normalizer::kFuzzy, s.m = 2.5f, d.add_key_boost(), s.causal = true;
       }},
      {"masks",
       [](auto& d, auto& s) {
         s.causal = true, s.window = 30, d.add_key_lengths(10), d.add_mask({1, 2, 77, 100}, 0.8);
       }},
      {"chunk", [](auto& d, auto& s) { s.chunk_size = 7, d.add_allowed_keys(0.9); }},
      {"everything",
       [](auto& d, auto& s) {
         s.causal = true, s.zscore = true, d.add_bias({1, 1, 77, 100}), d.add_key_boost();
         s.rel_buckets = 10, d.add_rel_bias(10), d.add_times(), s.time_decay = 0.03f;
         s.similarity = Similarity::kCosine, s.temperature = 0.8f;
       }},
  };
  std::uint32_t seed = 300;
  for (const auto& [name, setup] : cases) {
    AttentionTestData d(2, 2, 77, 100, 12, 10, seed++);
    AttentionSpec spec;
    setup(d, spec);
    expect_backward_matches(d, spec, name);
  }
}

TEST(FusedBackward, SingleHeadSplitsKeysIntoGroups) {
  // B*H = 1: the key range is split into groups with dq partials (and dbias/dkey_boost reductions).
  AttentionTestData d(1, 1, 100, 600, 16, 16, 17);
  d.add_key_boost();
  d.add_bias({1, 1, 100, 1});
  AttentionSpec spec;
  expect_backward_matches(d, spec, "one head");
  spec.normalizer = Normalizer::kFuzzy;
  expect_backward_matches(d, spec, "one head fuzzy");
  d.add_boost_gate();  // du partials per key group, reduced in group order
  expect_backward_matches(d, AttentionSpec{}, "one head gated boost");
}

TEST(FusedBackward, LargeMatchToleranceGivesTheForwardsCrispRows) {
  AttentionTestData d(1, 2, 70, 90, 12, 10, 19);
  for (Index i : {3, 40, 69})  // keys close to, not equal to, these queries (as in the forward test)
    for (Index e = 0; e < 12; ++e) d.k[static_cast<size_t>((i + 7) * 12 + e)] = d.q[static_cast<size_t>(i * 12 + e)] * 1.2f;
  AttentionSpec spec;
  spec.normalizer = Normalizer::kFuzzy;
  spec.fuzzy_match_tol = 0.2f;
  expect_backward_matches(d, spec, "tol 0.2");
  d.add_times();
  spec.time_decay = 0.05f;
  expect_backward_matches(d, spec, "tol 0.2 staged");
}

TEST(FusedBackward, CrispRowsGiveOnlyDv) {
  AttentionTestData d(1, 1, 20, 30, 6, 5, 18);
  std::copy_n(d.q.begin() + 4 * 6, 6, d.k.begin() + 7 * 6);
  AttentionSpec spec;
  spec.normalizer = Normalizer::kFuzzy;
  expect_backward_matches(d, spec, "crisp");
  d.add_times();
  spec.time_decay = 0.05f;  // the staged path
  expect_backward_matches(d, spec, "crisp staged");
}

TEST(FusedBackward, ThreadCountsGiveBitIdenticalGradients) {
  AttentionTestData d(1, 3, 130, 260, 16, 8, 19);
  d.add_key_boost();
  d.add_bias({1, 3, 1, 260});
  for (bool fuzzy : {false, true}) {
    AttentionSpec spec;
    spec.causal = true;
    if (fuzzy) spec.normalizer = Normalizer::kFuzzy;
    const std::vector<float> dout = d.uniform(static_cast<Index>(d.out_size()), -1.0f, 1.0f);
    const Grads g1 = run_backward(d, spec, AttentionImpl::kFused, dout, 1);
    for (int t : {2, 3}) {
      const Grads gt = run_backward(d, spec, AttentionImpl::kFused, dout, t);
      const auto same = [](const std::vector<float>& a, const std::vector<float>& b) {
        return a.size() == b.size() && (a.empty() || std::memcmp(a.data(), b.data(), a.size() * sizeof(float)) == 0);
      };
      EXPECT_TRUE(same(g1.dq, gt.dq));
      EXPECT_TRUE(same(g1.dk, gt.dk));
      EXPECT_TRUE(same(g1.dv, gt.dv));
      EXPECT_TRUE(same(g1.dbias, gt.dbias));
      EXPECT_TRUE(same(g1.dkey_boost, gt.dkey_boost));
      EXPECT_TRUE(same(g1.dm, gt.dm));
    }
  }
}

// Finite differences on the fused path itself (loss = sum dout . out), independent of the reference:
// central differences in float with step 1e-2 on a small problem, each gradient entry checked (dm
// and dtime_decay too, on the hot and the staged fuzzy paths).
TEST(FusedBackward, FiniteDifferences) {
  for (int variant = 0; variant < 5; ++variant) {
    AttentionTestData d(1, 2, 9, 11, 5, 4, 400 + variant);
    AttentionSpec spec;
    if (variant == 1) spec.normalizer = Normalizer::kFuzzy;  // m = 2, direct weights
    if (variant == 2) {
      spec.causal = true, spec.zscore = true, spec.similarity = Similarity::kCosine;
      d.add_key_boost(), d.add_bias({1, 2, 9, 11});
    }
    if (variant == 3) spec.normalizer = Normalizer::kFuzzy, spec.m = 1.6f, d.add_key_boost();
    if (variant == 4) {  // the staged fuzzy path, with both scalars
      spec.normalizer = Normalizer::kFuzzy, spec.m = 2.5f, spec.causal = true;
      d.add_times(), spec.time_decay = 0.2f;
    }
    SCOPED_TRACE(variant);
    const std::vector<float> dout = d.uniform(static_cast<Index>(d.out_size()), -1.0f, 1.0f);
    const auto loss = [&]() {
      const Forward f = run_forward(d, spec, AttentionImpl::kFused);
      double l = 0.0;
      for (size_t e = 0; e < f.out.size(); ++e) l += static_cast<double>(dout[e]) * f.out[e];
      return l;
    };
    const Grads g = run_backward(d, spec, AttentionImpl::kFused, dout);
    const auto check = [&](std::vector<float>& x, const std::vector<float>& grad, const char* name) {
      for (size_t e = 0; e < x.size(); e += 3) {
        const float keep = x[e], h = 1e-2f;
        x[e] = keep + h;
        const double up = loss();
        x[e] = keep - h;
        const double down = loss();
        x[e] = keep;
        EXPECT_NEAR(grad[e], (up - down) / (2.0 * h), 2e-3) << name << "[" << e << "]";
      }
    };
    check(d.q, g.dq, "dq");
    check(d.k, g.dk, "dk");
    check(d.v, g.dv, "dv");
    if (variant == 2) {
      check(d.key_boost, g.dkey_boost, "dkey_boost");
      check(d.bias, g.dbias, "dbias");
    }
    const auto check_scalar = [&](float& x, const std::vector<float>& grad, const char* name) {
      ASSERT_EQ(grad.size(), 1u) << name;
      const float keep = x, h = 1e-2f;
      x = keep + h;
      const double up = loss();
      x = keep - h;
      const double down = loss();
      x = keep;
      const double fd = (up - down) / (2.0 * h);
      EXPECT_NEAR(grad[0], fd, 2e-3 + 1e-3 * std::fabs(fd)) << name;
      EXPECT_GT(std::fabs(grad[0]), 1e-2) << name << " is (nearly) zero: the check would be empty";
    };
    if (spec.normalizer == Normalizer::kFuzzy) check_scalar(spec.m, g.dm, "dm");
    if (variant == 4) check_scalar(spec.time_decay, g.dtime_decay, "dtime_decay");
  }
}

}  // namespace
}  // namespace kessel
