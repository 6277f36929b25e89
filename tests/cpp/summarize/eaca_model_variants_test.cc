// EACA model variants: each attention kernel and each CPU SIMD variant against the reference path,
// and each optional part of the architecture (gated boost, modality norm, zero text init, BiLSTM
// context, adaptive temperature, emotion balance, no emotion terms, fuzzy membership) initialized,
// scored and saved.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "eaca_model_fixtures.h"
#include "kessel/attention.h"
#include "kessel/attention_choice.h"
#include "kessel/cpu.h"
#include "kessel/error.h"
#include "kessel/summarize/eaca.h"
#include "summarize/compress.h"
#include "summarize/eaca_model.h"
#include "test_dialogues.h"

namespace kessel::summarize {
namespace {

using testing::Fixture;

double max_abs_diff(const std::vector<float>& a, const std::vector<float>& b) {
  EXPECT_EQ(a.size(), b.size());
  double m = 0.0;
  for (std::size_t i = 0; i < std::min(a.size(), b.size()); ++i) m = std::max(m, std::fabs(double(a[i]) - b[i]));
  return m;
}

// The forward through each kernel: the reference path and chunk-and-bridge with one chunk over every
// unit give the fused path's results; chunks of 2 units change the EACA output.
TEST(EacaModel, EachKernelAgreesWithFullAttentionWhereItShould) {
  for (const bool bilstm : {false, true}) {
    Fixture fx(true, bilstm);
    const EacaWeights w = carve_weights(fx.params.data(), fx.dims);
    auto forward = [&](AttentionKernel kernel, Index chunk) {
      EacaSwitches sw{true, true, 0.01f};
      sw.kernel = kernel;
      sw.kernel_table.chunk_size = chunk;
      EacaActivations a;
      eaca_forward(a, w, fx.dims, sw, fx.features, fx.prepared.mention_unit);
      std::vector<float> map(static_cast<std::size_t>(a.Q) * static_cast<std::size_t>(a.U));
      eaca_emotion_weights(map.data(), a, fx.dims, sw, fx.features);
      return std::make_tuple(a.e, a.salience, map);
    };
    const auto [e, sal, map] = forward(AttentionKernel::kFused, 0);
    for (const auto& [kernel, chunk] : std::vector<std::pair<AttentionKernel, Index>>{
             {AttentionKernel::kReference, 0}, {AttentionKernel::kChunkBridge, 1000}, {AttentionKernel::kAuto, 0}}) {
      const auto [e2, sal2, map2] = forward(kernel, chunk);
      SCOPED_TRACE(attention_kernel_name(kernel));
      EXPECT_LE(max_abs_diff(e, e2), 1e-5);
      EXPECT_LE(max_abs_diff(sal, sal2), 1e-5);
      EXPECT_LE(max_abs_diff(map, map2), 1e-5);
    }
    const auto [e3, sal3, map3] = forward(AttentionKernel::kChunkBridge, 2);
    EXPECT_GT(max_abs_diff(e, e3), 1e-4);
    for (float x : map3) EXPECT_TRUE(std::isfinite(x));
  }
}

// Every SIMD variant this CPU runs (kessel/cpu.h) against the scalar reference, forward and
// backward, on the tiny dims (odd widths: every kernel runs a tail). The tolerance is docs/eaca.md's:
// logits within 1e-5 absolute, gradients within 1e-4 of the largest. The same variant twice gives
// the same bits.
void check_variants(bool bilstm) {
  Fixture fx(true, bilstm);
  const EacaSwitches sw{true, true, 0.01f};
  const LossWeights lw{0.3f, 0.3f};
  const EacaWeights w = carve_weights(fx.params.data(), fx.dims);
  auto run = [&](const std::string& variant, EacaActivations& act, std::vector<float>& grads) {
    const ScopedCpuVariant scoped(variant);
    grads.assign(fx.params.size(), 0.0f);
    eaca_forward(act, w, fx.dims, sw, fx.features, fx.prepared.mention_unit);
    eaca_backward(carve_weights(grads.data(), fx.dims), act, w, fx.dims, sw, fx.features, fx.prepared.mention_unit,
                  fx.targets, lw);
  };
  EacaActivations ref;
  std::vector<float> ref_grads;
  run("scalar", ref, ref_grads);
  float largest = 0.0f;
  for (float g : ref_grads) largest = std::max(largest, std::fabs(g));
  for (const std::string& variant : cpu_variants_available()) {
    EacaActivations act;
    std::vector<float> grads;
    run(variant, act, grads);
    ASSERT_NE(act.kernels, nullptr);
    EXPECT_EQ(std::string(act.kernels->variant), variant);
    for (std::size_t u = 0; u < ref.salience.size(); ++u)
      EXPECT_NEAR(act.salience[u], ref.salience[u], 1e-5) << variant;
    for (std::size_t m = 0; m < ref.mention_logit.size(); ++m)
      EXPECT_NEAR(act.mention_logit[m], ref.mention_logit[m], 1e-5) << variant;
    EXPECT_NEAR(act.has_logit, ref.has_logit, 1e-5) << variant;
    for (std::size_t i = 0; i < grads.size(); ++i)
      EXPECT_NEAR(grads[i], ref_grads[i], 1e-4 * largest) << variant << " " << i;
    // The same variant again: bit for bit.
    EacaActivations again;
    std::vector<float> again_grads;
    run(variant, again, again_grads);
    EXPECT_EQ(again.salience, act.salience) << variant;
    EXPECT_EQ(again_grads, grads) << variant;
  }
}

TEST(EacaModel, EveryCpuVariantMatchesTheScalarReference) { check_variants(false); }
TEST(EacaModel, EveryCpuVariantMatchesTheScalarReferenceBiLstm) { check_variants(true); }

// The gate changes the EACA output, starts at b_g = 2, is saved with the model (a model without it
// saves no key and loads as before), and is refused where the engine cannot gate.
TEST(EacaModel, BoostGateIsInitializedSavedAndRefusedWhereItCannotApply) {
  EacaConfig config;
  config.members = 1;
  const EacaModel plain(config, 3);
  config.boost_gate = true;
  const EacaModel gated(config, 3);
  const EacaDims d = dims_of(config);
  ASSERT_EQ(eaca_param_count(d), eaca_param_count(dims_of(EacaConfig{})) + d.G());
  const EacaWeights w = carve_weights(const_cast<float*>(gated.parameters().data()), d);
  for (int c = 0; c + 1 < d.G(); ++c) EXPECT_EQ(w.boost_gate[c], 0.0f);
  EXPECT_EQ(w.boost_gate[d.G() - 1], 2.0f);
  const auto path = std::filesystem::temp_directory_path() / "eaca_boost_gate_test.safetensors";
  gated.save(path.string());
  const EacaModel loaded = EacaModel::load(path.string());
  EXPECT_TRUE(loaded.config().boost_gate);
  EXPECT_EQ(loaded.parameters(), gated.parameters());
  plain.save(path.string());
  EXPECT_FALSE(EacaModel::load(path.string()).config().boost_gate);
  std::filesystem::remove(path);
  // The gate at its start scales every boost by sigmoid(2) = 0.88: the EACA output moves.
  Fixture fx(true);
  Fixture fg(true, false, false, true);
  const EacaWeights wg = carve_weights(fg.params.data(), fg.dims);
  std::fill_n(wg.boost_gate, fg.dims.G() - 1, 0.0f);
  wg.boost_gate[fg.dims.G() - 1] = 2.0f;
  wg.boost[0] = 0.5f;
  std::copy_n(fx.params.data(), fx.params.size(), fg.params.data());  // the same tensors but the gate
  EacaActivations a, b;
  eaca_forward(a, carve_weights(fx.params.data(), fx.dims), fx.dims, {true, true, 0.01f}, fx.features,
               fx.prepared.mention_unit);
  eaca_forward(b, wg, fg.dims, {true, true, 0.01f}, fg.features, fg.prepared.mention_unit);
  EXPECT_GT(max_abs_diff(a.e, b.e), 1e-6);
  EXPECT_TRUE(boost_gate_supported(EacaConfig{}));
  EacaConfig bad;
  bad.emotion_balance = 0.5f;
  EXPECT_FALSE(boost_gate_supported(bad));
  bad = EacaConfig{};
  set_attention_variant(bad, "plain");
  EXPECT_FALSE(boost_gate_supported(bad));
}

// The seed's initialization (EacaConfig::zero_text_init) zeroes W_in's text columns and nothing else;
// both options are saved with the model, and a model without them saves no key for them.
TEST(EacaModel, ModalityNormAndZeroTextInitAreSavedAndInitialized) {
  EacaConfig config;
  config.members = 1;
  const EacaModel plain(config, 3);
  config.zero_text_init = true;
  const EacaModel zeroed(config, 3);
  const EacaDims d = dims_of(config);
  const auto specs = eaca_param_specs(d);
  for (const auto& s : specs)
    for (std::int64_t i = 0; i < s.size(); ++i) {
      const auto at = static_cast<std::size_t>(s.offset + i);
      const bool text_col = s.name == "w_in" && i % d.F() < d.E;
      EXPECT_EQ(zeroed.parameters()[at], text_col ? 0.0f : plain.parameters()[at]) << s.name << "[" << i << "]";
    }
  config.modality_norm = true;
  const EacaModel normed(config, 3);
  const EacaDims dn = dims_of(config);
  ASSERT_EQ(eaca_param_count(dn), eaca_param_count(d) + 2 * dn.M());
  const EacaWeights w = carve_weights(const_cast<float*>(normed.parameters().data()), dn);
  for (int c = 0; c < dn.M(); ++c) {
    EXPECT_EQ(w.mnorm_w[c], 1.0f);
    EXPECT_EQ(w.mnorm_b[c], 0.0f);
  }
  const auto path = std::filesystem::temp_directory_path() / "eaca_modality_norm_test.safetensors";
  normed.save(path.string());
  const EacaModel loaded = EacaModel::load(path.string());
  EXPECT_TRUE(loaded.config().modality_norm);
  EXPECT_TRUE(loaded.config().zero_text_init);
  EXPECT_EQ(loaded.parameters(), normed.parameters());
  plain.save(path.string());
  EXPECT_FALSE(EacaModel::load(path.string()).config().modality_norm);
  std::filesystem::remove(path);
}

TEST(EacaModel, BiLstmParametersReplaceTheSelfAttentionProjections) {
  const EacaDims attention{61, 4, 6, 3}, bilstm{61, 4, 6, 3, true};
  auto names = [](const EacaDims& d) {
    std::vector<std::string> out;
    for (const auto& s : eaca_param_specs(d)) out.push_back(s.name);
    return out;
  };
  const auto a = names(attention), b = names(bilstm);
  EXPECT_NE(std::find(a.begin(), a.end(), "wq"), a.end());
  EXPECT_EQ(std::find(b.begin(), b.end(), "wq"), b.end());
  EXPECT_NE(std::find(b.begin(), b.end(), "lstm_whh_b"), b.end());
  // 2 directions x (4H x D + 4H x H + 4H) with H = 3, in place of wq, wk (A x D) and wv (D x D).
  EXPECT_EQ(eaca_param_count(bilstm) - eaca_param_count(attention), 2 * (12 * 6 + 12 * 3 + 12) - (2 * 3 * 6 + 6 * 6));
  std::vector<float> params(static_cast<std::size_t>(eaca_param_count(bilstm)));
  eaca_init(params.data(), bilstm, 7);
  const EacaWeights w = carve_weights(params.data(), bilstm);
  EXPECT_EQ(w.wq, nullptr);
  for (int k = 0; k < 12; ++k) EXPECT_EQ(w.fwd.b[k], k >= 3 && k < 6 ? 1.0f : 0.0f) << k;  // forget gate open
  // An odd D cannot split into two directions.
  EacaConfig c;
  c.hidden = 5;
  c.context_bilstm = true;
  EXPECT_THROW(dims_of(c), InvalidArgument);
  // Without the context layer there is no LSTM to split: any D.
  c.context_encoder = false;
  EXPECT_FALSE(dims_of(c).bilstm);
}

// A BiLSTM model saves its kind and its LSTM tensors and scores the same after loading; a file
// written before the key loads as the self-attention model it is.
TEST(EacaModel, BiLstmContextIsSavedAndLoaded) {
  Fixture fx(true);
  EacaConfig c = testing::small_eaca_config();
  c.context_bilstm = true;
  EacaModel a(c, 5);
  const auto path = (std::filesystem::temp_directory_path() / "kessel_eaca_bilstm.safetensors").string();
  a.save(path);
  const EacaModel loaded = EacaModel::load(path);
  EXPECT_TRUE(loaded.config().context_bilstm);
  EXPECT_EQ(loaded.score(fx.prepared).salience, a.score(fx.prepared).salience);
  std::filesystem::remove(path);
  auto meta = config_metadata(c);
  EXPECT_EQ(meta.at("context_bilstm"), "true");
  meta.erase("context_bilstm");
  EXPECT_FALSE(config_from_metadata(meta, "old.safetensors").context_bilstm);
}

TEST(EacaModel, VariantsAndCompressorAreSavedAndLoaded) {
  Fixture fx(false);
  EacaConfig c = testing::small_eaca_config();
  c.emotion_terms = false;
  c.normalizer = Normalizer::kFuzzy;
  c.compress_threshold = 0.3f;
  EacaModel a(c, 5);
  a.compressor().assign(kCompressBuckets + 1, 0.25f);
  a.metadata()["lexicon"] = fx.lex.identity();
  const auto path = (std::filesystem::temp_directory_path() / "kessel_eaca_variant.safetensors").string();
  a.save(path);
  const EacaModel loaded = EacaModel::load(path);
  EXPECT_FALSE(loaded.config().emotion_terms);
  EXPECT_EQ(loaded.config().normalizer, Normalizer::kFuzzy);
  EXPECT_FLOAT_EQ(loaded.config().compress_threshold, 0.3f);
  EXPECT_EQ(loaded.config().adaptive_temperature, 0.0f);
  EXPECT_EQ(loaded.compressor(), a.compressor());
  const UnitScores s = loaded.score(fx.prepared);
  EXPECT_EQ(s.salience, a.score(fx.prepared).salience);
  EXPECT_EQ(s.unit_text.size(), fx.prepared.units.size());  // zh with a threshold: compressed texts
  // A threshold without the weights is a damaged file.
  a.compressor().clear();
  a.save(path);
  EXPECT_THROW(EacaModel::load(path), ParseError);
  std::filesystem::remove(path);
}

TEST(EacaModel, AdaptiveTemperatureAndEmotionBalanceAreSavedLoadedAndScored) {
  Fixture fx(true);
  EacaConfig c = testing::small_eaca_config();
  c.adaptive_temperature = 0.3f;
  c.emotion_balance = 0.4f;
  EacaModel a(c, 5);
  a.metadata()["lexicon"] = fx.lex.identity();
  const auto path = (std::filesystem::temp_directory_path() / "kessel_eaca_adaptive.safetensors").string();
  a.save(path);
  const EacaModel loaded = EacaModel::load(path);
  EXPECT_FLOAT_EQ(loaded.config().adaptive_temperature, 0.3f);
  EXPECT_FLOAT_EQ(loaded.config().emotion_balance, 0.4f);
  EXPECT_EQ(loaded.score(fx.prepared).salience, a.score(fx.prepared).salience);
  // Each option changes the scores and the explanation map (which runs the forward's own call).
  const UnitScores both = a.score(fx.prepared);
  ASSERT_GT(both.attention.size(), 0);
  auto map_of = [](const UnitScores& s) { return std::vector<float>(s.attention.data(), s.attention.data() + s.attention.size()); };
  c.adaptive_temperature = 0.0f;
  const UnitScores no_adaptive = EacaModel(c, 5).score(fx.prepared);
  EXPECT_NE(no_adaptive.salience, both.salience);
  EXPECT_NE(map_of(no_adaptive), map_of(both));
  c.adaptive_temperature = 0.3f;
  c.emotion_balance = 0.0f;
  const UnitScores no_balance = EacaModel(c, 5).score(fx.prepared);
  EXPECT_NE(no_balance.salience, both.salience);
  EXPECT_NE(map_of(no_balance), map_of(both));
  std::filesystem::remove(path);
}

}  // namespace
}  // namespace kessel::summarize
