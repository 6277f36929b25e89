// EACA model gradients: finite differences against the hand-written backward on the tiny model of
// eaca_model_fixtures.h (every parameter tensor, with and without times, each attention switch,
// kernel, context encoder and optional part), the z-scored logits' scale, and the embedding
// gradient's sparsity.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "eaca_model_fixtures.h"
#include "kessel/attention.h"
#include "kessel/attention_choice.h"
#include "summarize/eaca_model.h"

namespace kessel::summarize {
namespace {

using testing::Fixture;

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

}  // namespace
}  // namespace kessel::summarize
