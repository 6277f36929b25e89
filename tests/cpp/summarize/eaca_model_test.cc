// EACA model: finite-difference check of the hand-written backward on a tiny model (every parameter
// tensor, with and without times and each attention switch), determinism, save/load round trip.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "kessel/attention_choice.h"
#include "kessel/cpu.h"
#include "kessel/error.h"
#include "kessel/summarize/eaca.h"
#include "kessel/text/lexicon.h"
#include "summarize/compress.h"
#include "summarize/eaca_features.h"
#include "summarize/eaca_model.h"
#include "summarize/safetensors.h"
#include "test_dialogues.h"

namespace kessel::summarize {
namespace {

text::Lexicon lexicon() { return text::load_default_lexicon(std::string(KESSEL_SOURCE_DIR) + "/data/lexicon"); }

text::Dialogue tiny_dialogue(bool timed) {
  text::Dialogue d;
  d.id = "tiny";
  const char* texts[] = {"在吗？我的快递三天了还没到，气死我了", "您好，请提供一下订单号。", "订单号[订单编号]，太失望了",
                         "已为您催促快递员，今天送达。", "好的，谢谢"};
  for (int t = 0; t < 5; ++t) {
    text::Turn turn;
    turn.speaker = t % 2 == 0 ? text::Speaker::customer : text::Speaker::agent;
    turn.text = texts[t];
    turn.sentences = text::split_sentences(turn.text);
    if (timed) turn.time = 1000.0 + 37.0 * t * t;
    d.turns.push_back(turn);
  }
  d.references = {{"用户询问快递为何未到。", "客服表示已催促快递员。"}};
  return d;
}


struct Fixture {
  text::Lexicon lex = lexicon();
  text::Dialogue dialogue;
  Prepared prepared;
  UnitFeatures features;
  EacaDims dims{61, 4, 5, 3};
  std::vector<float> params;
  EacaTargets targets;
  // bilstm: the BiLSTM context encoder, with an even D (3 units per direction); modality_norm: the
  // per-modality normalization before the fusion layer, its gain and bias moved off 1 and 0.
  // boost_gate: the gated key boost, its w_q, w_k and b_g moved off their start (0, 0, 2).
  explicit Fixture(bool timed, bool bilstm = false, bool modality_norm = false, bool boost_gate = false)
      : dialogue(tiny_dialogue(timed)) {
    if (bilstm) dims = EacaDims{61, 4, 6, 3, true};
    dims.modality_norm = modality_norm;
    dims.boost_gate = boost_gate;
    prepared = prepare(dialogue, lex);
    features = compute_features(prepared, dims.V);
    params.assign(static_cast<std::size_t>(eaca_param_count(dims)), 0.0f);
    eaca_init(params.data(), dims, 7);
    if (modality_norm) {
      const EacaWeights w = carve_weights(params.data(), dims);
      for (int c = 0; c < dims.M(); ++c) {
        w.mnorm_w[c] = 1.0f + 0.1f * static_cast<float>(c % 3);
        w.mnorm_b[c] = 0.05f * static_cast<float>(c % 4) - 0.05f;
      }
    }
    if (boost_gate) {
      const EacaWeights w = carve_weights(params.data(), dims);
      for (int c = 0; c < dims.G(); ++c) w.boost_gate[c] = 0.4f * static_cast<float>(c % 5) - 0.7f;
      w.boost[0] = 2.0f;  // a boost large enough for its gate to matter
    }
    for (std::size_t u = 0; u < prepared.units.size(); ++u) targets.salience.push_back(u % 3 == 0 ? 1.0f : 0.2f);
    targets.has_emotion = 1.0f;
    for (std::size_t m = 0; m < prepared.mentions.size(); ++m)
      targets.mention.push_back(prepared.mentions[m].expressed ? static_cast<float>(m % 2) : -1.0f);
  }
};

// only: the tensors to check (all when empty).
void check_gradients(bool timed, EacaSwitches sw, bool bilstm = false, const std::vector<std::string>& only = {},
                     bool modality_norm = false, bool boost_gate = false) {
  Fixture fx(timed, bilstm, modality_norm, boost_gate);
  ASSERT_GE(fx.features.customer_units.size(), 2u);
  ASSERT_TRUE(fx.features.any_expressed) << "the tiny dialogue must carry an expressed emotion";
  const LossWeights lw{0.3f, 0.3f};
  std::vector<float> grads(fx.params.size(), 0.0f);
  const EacaWeights w = carve_weights(fx.params.data(), fx.dims);
  EacaActivations act;
  eaca_forward(act, w, fx.dims, sw, fx.features, fx.prepared.mention_unit);
  const double loss = eaca_backward(carve_weights(grads.data(), fx.dims), act, w, fx.dims, sw, fx.features,
                                    fx.prepared.mention_unit, fx.targets, lw);
  EXPECT_NEAR(loss, eaca_loss(w, fx.dims, sw, fx.features, fx.prepared.mention_unit, fx.targets, lw), 1e-6);

  // Central differences in double around float parameters; step 1e-3 balances truncation and rounding.
  const float h = 1e-3f;
  int checked = 0;
  double worst = 0.0;
  for (const auto& spec : eaca_param_specs(fx.dims)) {
    if (!only.empty() && std::find(only.begin(), only.end(), spec.name) == only.end()) continue;
    const std::int64_t n = spec.size();
    const std::int64_t stride = std::max<std::int64_t>(1, n / 12);
    for (std::int64_t i = 0; i < n; i += stride) {
      float& p = fx.params[static_cast<std::size_t>(spec.offset + i)];
      const float saved = p;
      p = saved + h;
      const double up = eaca_loss(w, fx.dims, sw, fx.features, fx.prepared.mention_unit, fx.targets, lw);
      p = saved - h;
      const double down = eaca_loss(w, fx.dims, sw, fx.features, fx.prepared.mention_unit, fx.targets, lw);
      p = saved;
      const double numeric = (up - down) / (2.0 * h);
      const double analytic = grads[static_cast<std::size_t>(spec.offset + i)];
      const double err = std::fabs(numeric - analytic) / std::max(1e-2, std::fabs(numeric) + std::fabs(analytic));
      worst = std::max(worst, err);
      EXPECT_LT(err, 2e-2) << spec.name << "[" << i << "] numeric " << numeric << " analytic " << analytic;
      ++checked;
    }
  }
  EXPECT_GT(checked, only.empty() ? 100 : static_cast<int>(only.size()));
}

TEST(EacaModel, GradientsMatchFiniteDifferencesUntimed) { check_gradients(false, {true, true, 0.0f}); }
TEST(EacaModel, GradientsMatchFiniteDifferencesWithTimeDecay) { check_gradients(true, {true, true, 0.01f}); }
TEST(EacaModel, GradientsMatchFiniteDifferencesNoContext) { check_gradients(true, {false, true, 0.01f}); }
TEST(EacaModel, GradientsMatchFiniteDifferencesNoEmotionAttention) { check_gradients(false, {true, false, 0.0f}); }
// The comparison variants of `kessel eval`: plain attention (no wheel, boost or decay) and fuzzy
// membership in both layers.
TEST(EacaModel, GradientsMatchFiniteDifferencesPlainAttention) {
  check_gradients(true, {true, true, 0.01f, false, Normalizer::kSoftmax});
}
TEST(EacaModel, GradientsMatchFiniteDifferencesFuzzyAttention) {
  check_gradients(true, {true, true, 0.01f, true, Normalizer::kFuzzy});
}
// The BiLSTM context encoder (`kessel train --context bilstm`): backpropagation through time in both
// directions, under the EACA attention and under plain attention.
TEST(EacaModel, GradientsMatchFiniteDifferencesBiLstm) { check_gradients(true, {true, true, 0.01f}, true); }
TEST(EacaModel, GradientsMatchFiniteDifferencesBiLstmPlainAttention) {
  check_gradients(false, {true, true, 0.0f, false, Normalizer::kSoftmax}, true);
}

// The adaptive temperature (seed 004 §3.2) in both attention layers: the gradient goes through each
// query's temperature, so every tensor, the query projections included, matches the differences.
EacaSwitches adaptive(EacaSwitches sw, float coef) {
  sw.adaptive_temperature = coef;
  return sw;
}
TEST(EacaModel, GradientsMatchFiniteDifferencesAdaptiveTemperature) {
  check_gradients(true, adaptive({true, true, 0.01f}, 0.5f));
  check_gradients(false, adaptive({true, true, 0.0f, false, Normalizer::kSoftmax}, 0.1f));
}
// The emotion-ratio balance: the key boost's scalar learns through gamma rho, the query projections
// through 1 - gamma rho.
TEST(EacaModel, GradientsMatchFiniteDifferencesEmotionBalance) {
  EacaSwitches sw{true, true, 0.01f};
  sw.emotion_balance = 0.5f;
  check_gradients(true, sw);
  check_gradients(false, adaptive(sw, 0.3f));
}
TEST(EacaModel, GradientsMatchFiniteDifferencesAdaptiveTemperatureBiLstm) {
  check_gradients(true, adaptive({true, true, 0.01f}, 0.5f), true);
}

// Chunk-and-bridge (EacaSwitches::kernel, issue 27 item 5) with chunks of 2-3 units, so that the tiny
// dialogue's queries see their own chunk and the bridges: the EACA attention runs every unit as a query
// with the customer rows scattered in (eaca_model.h, EacaAttnCall), and its backward gathers dq back;
// the self-attention context layer takes the same kernel.
EacaSwitches chunked(EacaSwitches sw, Index chunk) {
  sw.kernel = AttentionKernel::kChunkBridge;
  sw.kernel_table.chunk_size = chunk;
  return sw;
}
TEST(EacaModel, GradientsMatchFiniteDifferencesChunkBridge) {
  check_gradients(true, chunked({true, true, 0.01f}, 2));
  check_gradients(false, adaptive(chunked({true, true, 0.0f}, 3), 0.5f), true);
  check_gradients(true, chunked({true, true, 0.01f, true, Normalizer::kFuzzy}, 2));
}

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

// Per-modality normalization (EacaConfig::modality_norm, issue 27 item 7): the text, wheel and time
// columns each layer-normalized before the fusion layer; the gain and bias learn, and the embedding's
// gradient passes through the norm. Timed (the time group varies) and untimed (it is all zeros).
TEST(EacaModel, GradientsMatchFiniteDifferencesModalityNorm) {
  check_gradients(true, {true, true, 0.01f}, false, {}, true);
  check_gradients(false, {true, true, 0.0f}, true, {}, true);
  check_gradients(true, chunked({true, true, 0.01f}, 2), true, {}, true);
}

// The gated boost (EacaConfig::boost_gate, issue 27 item 2): the gate's parameters learn, and its terms
// reach the EACA query and key projections; timed and untimed, both context encoders, chunk-and-bridge.
TEST(EacaModel, GradientsMatchFiniteDifferencesBoostGate) {
  check_gradients(true, {true, true, 0.01f}, false, {}, false, true);
  check_gradients(false, {true, true, 0.0f}, true, {}, false, true);
  check_gradients(true, chunked({true, true, 0.01f}, 2), true, {}, false, true);
  check_gradients(true, {true, true, 0.01f}, false, {"boost_gate", "boost", "wqe", "wke"}, false, true);
}

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

// The warm-up scale (EacaSwitches::zscore_logits) is a constant of the step: no gradient flows into
// it, so finite differences agree only for the tensors downstream of the q.k products (the key boost
// and the heads). They check that the backward runs each layer with the scale its forward used.
EacaSwitches zscored(EacaSwitches sw) {
  sw.zscore_logits = true;
  return sw;
}
const std::vector<std::string> kDownstreamOfTheScale = {"boost", "ws", "bs", "vs", "cs", "wh", "bh", "wm", "wi", "bm"};
TEST(EacaModel, ZscoredGradientsMatchFiniteDifferencesDownstreamOfTheScale) {
  check_gradients(true, zscored({true, true, 0.01f}), false, kDownstreamOfTheScale);
  check_gradients(false, zscored({true, true, 0.0f}), true, kDownstreamOfTheScale);
}

// std over all query-key pairs of the rows' dot products, computed here independently.
double std_of_products(const std::vector<float>& q, int Lq, const std::vector<float>& k, int Lk, int D) {
  std::vector<double> dots;
  for (int i = 0; i < Lq; ++i)
    for (int j = 0; j < Lk; ++j) {
      double s = 0.0;
      for (int c = 0; c < D; ++c) s += double(q[std::size_t(i * D + c)]) * k[std::size_t(j * D + c)];
      dots.push_back(s);
    }
  double mean = 0.0, var = 0.0;
  for (double v : dots) mean += v / double(dots.size());
  for (double v : dots) var += (v - mean) * (v - mean) / double(dots.size());
  return std::sqrt(var);
}

TEST(EacaModel, ZscoredLogitsHaveUnitStandardDeviationAndScoringKeepsSqrtWidth) {
  Fixture fx(true);
  const EacaWeights w = carve_weights(fx.params.data(), fx.dims);
  EacaActivations act;
  EacaSwitches sw{true, true, 0.01f};
  sw.context_encoder = true;  // the tiny dims' self-attention context layer
  eaca_forward(act, w, fx.dims, zscored(sw), fx.features, fx.prepared.mention_unit);
  const int U = act.U, Q = act.Q, A = fx.dims.A, Ae = fx.dims.Ae();
  ASSERT_TRUE(std::isfinite(act.emotion_scale));
  ASSERT_TRUE(std::isfinite(act.context_scale));
  EXPECT_NEAR(act.emotion_scale * std_of_products(act.qe, Q, act.ke, U, Ae), 1.0, 1e-4);
  EXPECT_NEAR(act.context_scale * std_of_products(act.qc, U, act.kc, U, A), 1.0, 1e-4);
  // The activations are reused across dialogues: a plain forward resets both scales.
  eaca_forward(act, w, fx.dims, sw, fx.features, fx.prepared.mention_unit);
  EXPECT_TRUE(std::isnan(act.emotion_scale));
  EXPECT_TRUE(std::isnan(act.context_scale));
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

TEST(EacaModel, EmbeddingGradientOnlyTouchesUsedBuckets) {
  Fixture fx(false);
  std::vector<float> grads(fx.params.size(), 0.0f);
  const EacaWeights w = carve_weights(fx.params.data(), fx.dims);
  EacaActivations act;
  const EacaSwitches sw{true, true, 0.0f};
  eaca_forward(act, w, fx.dims, sw, fx.features, fx.prepared.mention_unit);
  eaca_backward(carve_weights(grads.data(), fx.dims), act, w, fx.dims, sw, fx.features, fx.prepared.mention_unit,
                fx.targets, {0.3f, 0.3f});
  std::vector<char> used(static_cast<std::size_t>(fx.dims.V), 0);
  for (auto id : fx.features.token_ids) used[static_cast<std::size_t>(id)] = 1;
  for (int v = 0; v < fx.dims.V; ++v) {
    if (used[static_cast<std::size_t>(v)]) continue;
    for (int e = 0; e < fx.dims.E; ++e) {
      EXPECT_EQ(grads[static_cast<std::size_t>(v * fx.dims.E + e)], 0.0f);
    }
  }
}

TEST(EacaModel, ScoreIsDeterministicAndSaveLoadRoundTrips) {
  Fixture fx(true);
  EacaConfig c = testing::small_eaca_config();
  c.max_chars = 40;
  EacaModel a(c, 3), b(c, 3);
  const UnitScores sa = a.score(fx.prepared), sb = b.score(fx.prepared);
  EXPECT_EQ(sa.salience, sb.salience);
  ASSERT_EQ(sa.salience.size(), fx.prepared.units.size());
  ASSERT_EQ(sa.mention_source.size(), fx.prepared.mentions.size());
  EXPECT_GT(sa.has_emotion, 0.0f);
  EXPECT_LT(sa.has_emotion, 1.0f);
  // The explanation: one row per customer unit, a distribution over all units.
  ASSERT_EQ(sa.attention.rank(), 2);
  EXPECT_EQ(static_cast<std::size_t>(sa.attention.dim(0)), sa.attention_queries.size());
  for (Index q = 0; q < sa.attention.dim(0); ++q) {
    double sum = 0.0;
    for (Index k = 0; k < sa.attention.dim(1); ++k) sum += sa.attention.data()[q * sa.attention.dim(1) + k];
    EXPECT_NEAR(sum, 1.0, 1e-5);
  }
  // attention_map (no size limit, for kessel stress) is the same ensemble map.
  const AttentionMap map = a.attention_map(fx.prepared);
  EXPECT_EQ(map.queries, sa.attention_queries);
  ASSERT_EQ(map.weights.size(), sa.attention.size());
  for (Index i = 0; i < sa.attention.size(); ++i) ASSERT_EQ(map.weights[i], sa.attention[i]) << i;

  a.metadata()["lexicon"] = fx.lex.identity();
  const auto path = (std::filesystem::temp_directory_path() / "kessel_eaca_roundtrip.safetensors").string();
  a.save(path);
  const EacaModel loaded = EacaModel::load(path);
  EXPECT_EQ(EacaModel::load(path, fx.lex).parameters(), a.parameters());  // load and check the lexicon
  EXPECT_THROW(EacaModel::load(path, text::Lexicon{}), InvalidArgument);
  std::filesystem::remove(path);
  EXPECT_EQ(loaded.parameters(), a.parameters());
  EXPECT_EQ(loaded.config().max_chars, 40);
  EXPECT_EQ(loaded.score(fx.prepared).salience, sa.salience);
  EXPECT_NO_THROW(loaded.check_lexicon(fx.lex));
  text::Lexicon other;
  EXPECT_THROW(loaded.check_lexicon(other), InvalidArgument);
}

// A loaded model scores through its weights' transposed copies (EacaModel::keep_transposed); the
// mutable parameters() drops them, so a changed weight is never scored through a stale copy.
TEST(EacaModel, TransposedCopiesScoreAsTheWeightsDoAndGoWhenTheWeightsMayChange) {
  Fixture fx(true);
  for (const bool bilstm : {false, true}) {
    EacaConfig c = testing::small_eaca_config();
    c.context_bilstm = bilstm;
    c.members = 2;
    EacaModel made(c, 5);
    made.metadata()["lexicon"] = fx.lex.identity();
    const auto path = (std::filesystem::temp_directory_path() / "kessel_eaca_transposed.safetensors").string();
    made.save(path);
    EacaModel loaded = EacaModel::load(path);
    std::filesystem::remove(path);
    const UnitScores before = made.score(fx.prepared);
    const UnitScores cached = loaded.score(fx.prepared);
    EXPECT_EQ(cached.salience, before.salience) << "bilstm " << bilstm;
    EXPECT_EQ(cached.mention_source, before.mention_source);
    EXPECT_EQ(cached.has_emotion, before.has_emotion);
    // Move one fusion weight of each member, in both models: the scores move, and stay equal.
    const EacaDims d = dims_of(c);
    const std::int64_t P = eaca_param_count(d);
    std::int64_t w_in = -1;
    for (const auto& spec : eaca_param_specs(d))
      if (spec.name == "w_in") w_in = spec.offset;
    ASSERT_GE(w_in, 0);
    for (EacaModel* m : {&made, &loaded})
      for (int k = 0; k < c.members; ++k) m->parameters()[static_cast<std::size_t>(P * k + w_in)] += 0.75f;
    const UnitScores moved = loaded.score(fx.prepared);
    EXPECT_NE(moved.salience, before.salience);
    EXPECT_EQ(moved.salience, made.score(fx.prepared).salience);
  }
}

TEST(EacaModel, PerDialogueBudgetIsScoredSavedAndOptional) {
  EacaConfig c = testing::small_eaca_config();
  c.max_chars = 40;
  EXPECT_EQ(length_budget(c, 500), 0);  // budget_max = 0: none, the fixed max_chars decides
  c.budget_intercept = 20.0f;
  c.budget_slope = 0.1f;
  c.budget_min = 30;
  c.budget_max = 90;
  EXPECT_EQ(length_budget(c, 300), 50);   // 20 + 0.1 * 300
  EXPECT_EQ(length_budget(c, 0), 30);     // clamped below
  EXPECT_EQ(length_budget(c, 5000), 90);  // and above
  c.budget_scale = 1.5f;
  EXPECT_EQ(length_budget(c, 300), 75);  // the dev-chosen scale applies after the clamp
  EXPECT_EQ(length_budget(c, 5000), 135);
  EXPECT_THROW(length_budget(c, -1), InvalidArgument);

  Fixture fx(false);
  long chars = 0;
  for (const auto& unit : fx.prepared.units) chars += unit.chars;
  EacaModel a(c, 3);
  EXPECT_EQ(a.score(fx.prepared).max_chars, length_budget(c, chars));
  const auto path = (std::filesystem::temp_directory_path() / "kessel_eaca_budget.safetensors").string();
  a.save(path);
  const EacaModel loaded = EacaModel::load(path);
  EXPECT_EQ(loaded.config().budget_intercept, 20.0f);
  EXPECT_EQ(loaded.config().budget_slope, 0.1f);
  EXPECT_EQ(loaded.config().budget_min, 30);
  EXPECT_EQ(loaded.config().budget_max, 90);
  EXPECT_EQ(loaded.config().budget_scale, 1.5f);
  EXPECT_EQ(loaded.score(fx.prepared).max_chars, length_budget(c, chars));

  // A model saved before the per-dialogue budget existed has none of its keys: the fixed budget.
  auto meta = config_metadata(c);
  for (const char* k : {"budget_intercept", "budget_slope", "budget_min", "budget_max", "budget_scale"}) meta.erase(k);
  const EacaConfig old = config_from_metadata(meta, "old.safetensors");
  EXPECT_EQ(old.budget_max, 0);
  EXPECT_EQ(old.max_chars, 40);
  EXPECT_EQ(EacaModel(old, 3).score(fx.prepared).max_chars, 0);
  // Some keys but not all, or an inverted clamp: a damaged file, not an old one.
  meta["budget_max"] = "90";
  EXPECT_THROW(config_from_metadata(meta, "partial.safetensors"), ParseError);
  meta = config_metadata(c);
  meta["budget_min"] = "100";
  EXPECT_THROW(config_from_metadata(meta, "inverted.safetensors"), ParseError);
  std::filesystem::remove(path);
}

TEST(EacaModel, ExpectedF1StopIsScoredSavedAndOptional) {
  Fixture fx(false);
  EacaConfig c = testing::small_eaca_config();
  c.f1_stop_chars = 125.0f;
  EacaModel a(c, 3);
  const UnitScores s = a.score(fx.prepared);
  // The inclusion probabilities are the sigmoid of the (ensemble-averaged) salience logits.
  ASSERT_EQ(s.inclusion.size(), s.salience.size());
  for (std::size_t u = 0; u < s.salience.size(); ++u)
    EXPECT_FLOAT_EQ(s.inclusion[u], 1.0f / (1.0f + std::exp(-s.salience[u])));
  EXPECT_EQ(a.decode_options().f1_stop_chars, 125.0f);
  const auto path = (std::filesystem::temp_directory_path() / "kessel_eaca_f1_stop.safetensors").string();
  a.save(path);
  EXPECT_EQ(EacaModel::load(path).decode_options().f1_stop_chars, 125.0f);
  std::filesystem::remove(path);
  // A model saved before the stop existed has no key: off, the full budget as before.
  auto meta = config_metadata(c);
  meta.erase("f1_stop_chars");
  EXPECT_EQ(config_from_metadata(meta, "old.safetensors").f1_stop_chars, 0.0f);
  meta["f1_stop_chars"] = "-5";
  try {
    config_from_metadata(meta, "bad.safetensors");
    FAIL();
  } catch (const ParseError& e) {
    EXPECT_NE(std::string(e.what()).find("f1_stop_chars"), std::string::npos) << e.what();
  }
}

TEST(EacaModel, EmotionClauseIsSavedAndOffForOlderModels) {
  EacaConfig c = testing::small_eaca_config();
  EXPECT_TRUE(c.emotion_clause);  // new models keep the emotion clause
  EXPECT_TRUE(EacaModel(c, 3).decode_options().emotion_clause);
  for (bool on : {false, true}) {
    c.emotion_clause = on;
    EXPECT_EQ(config_from_metadata(config_metadata(c), "m.safetensors").emotion_clause, on);
  }
  // A model saved before the key existed chose its budget and stop with whole sentences: it keeps them.
  auto meta = config_metadata(c);
  meta.erase("emotion_clause");
  EXPECT_FALSE(config_from_metadata(meta, "old.safetensors").emotion_clause);
  meta["emotion_clause"] = "maybe";
  try {
    config_from_metadata(meta, "bad.safetensors");
    FAIL();
  } catch (const ParseError& e) {
    EXPECT_NE(std::string(e.what()).find("emotion_clause"), std::string::npos) << e.what();
  }
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

// render() redoes what score() adds after the networks, under the config as it is now: training's
// decoding grid keeps the scores and re-renders them per setting instead of scoring again.
TEST(EacaModel, RenderRedoesTheBudgetAndTheRenderingUnderTheCurrentConfig) {
  Fixture fx(false);
  EacaConfig c = testing::small_eaca_config();
  c.compress_threshold = 0.3f;
  EacaModel a(c, 5);
  a.compressor().resize(kCompressBuckets + 1);
  for (std::size_t i = 0; i < a.compressor().size(); ++i)
    a.compressor()[i] = std::sin(static_cast<float>(i));  // varied weights: thresholds differ
  UnitScores kept = a.score(fx.prepared);
  bool texts_changed = false;
  for (float threshold : {0.6f, 0.0f, 0.45f}) {
    a.mutable_config().compress_threshold = threshold;
    a.mutable_config().max_chars = 25;
    a.mutable_config().budget_intercept = 10.0f;
    a.mutable_config().budget_slope = 0.2f;
    a.mutable_config().budget_min = 12;
    a.mutable_config().budget_max = 60;
    a.mutable_config().budget_scale = threshold + 1.0f;
    const std::vector<std::string> before = kept.unit_text;
    a.render(fx.prepared, kept);
    const UnitScores fresh = a.score(fx.prepared);
    EXPECT_EQ(kept.max_chars, fresh.max_chars) << threshold;
    EXPECT_EQ(kept.unit_text, fresh.unit_text) << threshold;
    EXPECT_EQ(kept.salience, fresh.salience) << threshold;  // untouched: the networks did not run
    texts_changed |= kept.unit_text != before;
  }
  EXPECT_TRUE(texts_changed) << "the thresholds must change the rendering for this test to mean anything";
}

// A damaged file is a ParseError naming what is wrong, whatever its metadata promises.
TEST(EacaModel, LoadRejectsMetadataTheTensorsDoNotBackAndNonFiniteWeights) {
  EacaModel a(testing::small_eaca_config(), 2);
  const auto path = (std::filesystem::temp_directory_path() / "kessel_eaca_damaged.safetensors").string();
  a.save(path);
  const SafetensorsFile good = read_safetensors(path);
  auto load_error = [&](const SafetensorsFile& f) {
    write_safetensors(path, f);
    try {
      EacaModel::load(path);
    } catch (const ParseError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  SafetensorsFile f = good;
  f.metadata["hidden"] = "40000";  // would need gigabytes; the tensors are checked first
  EXPECT_NE(load_error(f).find(
                "tensor w_in: shape [8, 30], but the metadata's hyperparameters give [40000, 30]"),
            std::string::npos)
      << load_error(f);
  f.metadata["hidden"] = "2000000000";  // would overflow the parameter count
  EXPECT_NE(load_error(f).find("too large"), std::string::npos) << load_error(f);
  f = good;
  for (auto& t : f.tensors)
    if (t.name == "ws") t.data[3] = std::nanf("");
  EXPECT_NE(load_error(f).find("tensor ws: non-finite value"), std::string::npos) << load_error(f);
  std::filesystem::remove(path);
}

// Issue 23's model-file reproductions: a tensor the hyperparameters do not give (a compress.weight
// of [2] where the hash needs [2^18 + 1], a wrong width, a tensor no member has) and weights a
// forward pass would overflow on are refused at load, naming the file, the tensor, the shapes or
// the index.
TEST(EacaModel, LoadChecksEveryTensorAgainstTheHyperparametersAndTheWeightRange) {
  EacaConfig c = testing::small_eaca_config();
  c.members = 1;
  EacaModel a(c, 2);
  a.compressor().assign(kCompressBuckets + 1, 0.25f);
  const auto path =
      (std::filesystem::temp_directory_path() / "kessel_eaca_checked.safetensors").string();
  a.save(path);
  const SafetensorsFile good = read_safetensors(path);
  auto load_error = [&](const SafetensorsFile& f) {
    write_safetensors(path, f);
    try {
      EacaModel::load(path);
    } catch (const ParseError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  auto edited = [&](const std::string& name, auto edit) {
    SafetensorsFile f = good;
    for (auto& t : f.tensors)
      if (t.name == name) edit(t);
    return f;
  };
  ASSERT_EQ(load_error(good), "no error");
  std::string e = load_error(edited("compress.weight", [](NamedTensor& t) {
    t.shape = {2};
    t.data = {0.5f, -1.0f};
  }));
  EXPECT_EQ(
      e,
      path +
          ": tensor compress.weight: shape [2], but the metadata's hyperparameters give [262145]");
  e = load_error(edited("ws", [](NamedTensor& t) { t.shape = {16, 8}; }));  // D×2D stored as 2D×D
  EXPECT_EQ(e,
            path + ": tensor ws: shape [16, 8], but the metadata's hyperparameters give [8, 16]");
  SafetensorsFile extra = good;
  extra.tensors.push_back({"member1.emb", {1}, {0.0f}});
  EXPECT_EQ(
      load_error(extra),
      path + ": tensor member1.emb: not part of a model with these hyperparameters (1 member(s))");
  e = load_error(edited("ws", [](NamedTensor& t) { t.data[19] = 3e38f; }));
  EXPECT_EQ(e, path + ": tensor ws: value 3e+38 at [1, 3] is outside ±10000");
  e = load_error(edited("emb", [](NamedTensor& t) { t.data[7] = -3e38f; }));
  EXPECT_EQ(e, path + ": tensor emb: value -3e+38 at [1, 1] is outside ±10000");
  e = load_error(edited("compress.weight", [](NamedTensor& t) { t.data.back() = -INFINITY; }));
  EXPECT_EQ(e, path + ": tensor compress.weight: non-finite value -inf at [262144]");
  std::filesystem::remove(path);
}

// The weight bound is one the forward pass survives: a model with every weight at ±10000 scores
// finite numbers (so the bound refuses damaged files, not merely unusual ones).
TEST(EacaModel, WeightsAtTheLoadBoundScoreFinite) {
  Fixture fx(true);
  EacaConfig c = testing::small_eaca_config();
  c.context_encoder = true;
  EacaModel a(c, 3);
  for (std::size_t i = 0; i < a.parameters().size(); ++i)
    a.parameters()[i] = (i % 3 == 0 ? -1.0f : 1.0f) * 1e4f;
  const auto path =
      (std::filesystem::temp_directory_path() / "kessel_eaca_bound.safetensors").string();
  a.save(path);
  const EacaModel loaded = EacaModel::load(path);
  std::filesystem::remove(path);
  const UnitScores s = loaded.score(fx.prepared);
  ASSERT_FALSE(s.salience.empty());
  for (float v : s.salience) EXPECT_TRUE(std::isfinite(v)) << v;
}

TEST(EacaModel, EnsembleAveragesItsMembersAndRoundTrips) {
  Fixture fx(false);
  EacaConfig c = testing::small_eaca_config();
  c.members = 1;
  // Member k of a seeded ensemble is the single model from member_seed(seed, k); member 0 is seed's.
  EXPECT_EQ(member_seed(9, 0), 9u);
  EXPECT_NE(member_seed(9, 1), member_seed(9, 2));
  std::vector<EacaModel> singles;
  for (int k = 0; k < 3; ++k) singles.emplace_back(c, member_seed(9, k));
  EacaConfig c3 = c;
  c3.members = 3;
  const EacaModel seeded(c3, 9);
  EacaModel joined = EacaModel::ensemble(singles);
  EXPECT_EQ(joined.config().members, 3);
  EXPECT_EQ(joined.parameters(), seeded.parameters());

  // Scores are the members' mean logits; the attention map is their mean (still a distribution).
  const UnitScores e = joined.score(fx.prepared);
  std::vector<UnitScores> m;
  for (const auto& single : singles) m.push_back(single.score(fx.prepared));
  for (std::size_t u = 0; u < e.salience.size(); ++u)
    EXPECT_NEAR(e.salience[u], (m[0].salience[u] + m[1].salience[u] + m[2].salience[u]) / 3.0f, 1e-5f);
  for (std::size_t k = 0; k < e.mention_source.size(); ++k)
    EXPECT_NEAR(e.mention_source[k], (m[0].mention_source[k] + m[1].mention_source[k] + m[2].mention_source[k]) / 3.0f,
                1e-5f);
  ASSERT_EQ(e.attention.size(), m[0].attention.size());
  for (Index i = 0; i < e.attention.size(); ++i)
    EXPECT_NEAR(e.attention[i], (m[0].attention[i] + m[1].attention[i] + m[2].attention[i]) / 3.0f, 1e-6f);

  const auto path = (std::filesystem::temp_directory_path() / "kessel_eaca_ensemble.safetensors").string();
  joined.metadata()["lexicon"] = fx.lex.identity();
  joined.save(path);
  const EacaModel loaded = EacaModel::load(path);
  EXPECT_EQ(loaded.config().members, 3);
  EXPECT_EQ(loaded.parameters(), joined.parameters());
  EXPECT_EQ(loaded.score(fx.prepared).salience, e.salience);
  std::filesystem::remove(path);

  // A file without the key is a single model; an out-of-range count is a damaged file.
  auto meta = config_metadata(c3);
  meta.erase("members");
  EXPECT_EQ(config_from_metadata(meta, "old.safetensors").members, 1);
  meta["members"] = "0";
  EXPECT_THROW(config_from_metadata(meta, "bad.safetensors"), ParseError);
  // Members must agree and be single models.
  EacaConfig wider = c;
  wider.hidden = 9;
  EXPECT_THROW(EacaModel::ensemble({EacaModel(c, 1), EacaModel(wider, 2)}), InvalidArgument);
  EXPECT_THROW(EacaModel::ensemble({seeded}), InvalidArgument);
  EXPECT_THROW(EacaModel::ensemble({}), InvalidArgument);
}

TEST(EacaModel, RejectsBadConfig) {
  EacaConfig c;
  c.hidden = 0;
  EXPECT_THROW(EacaModel(c, 1), InvalidArgument);
  c = EacaConfig{};
  c.members = 0;
  EXPECT_THROW(EacaModel(c, 1), InvalidArgument);
  c.members = 65;
  EXPECT_THROW(EacaModel(c, 1), InvalidArgument);
}

}  // namespace
}  // namespace kessel::summarize
