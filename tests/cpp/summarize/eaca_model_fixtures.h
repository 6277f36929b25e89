// The tiny EACA model the eaca_model_*_test.cc files share: a five-turn zh dialogue (timed or not)
// with an expressed emotion, its features, tiny dims with odd widths, initialized parameters and
// training targets.
#pragma once

#include <cstddef>
#include <vector>

#include "kessel/summarize/summary.h"
#include "kessel/text/dialogue.h"
#include "kessel/text/lexicon.h"
#include "summarize/eaca_features.h"
#include "summarize/eaca_model.h"
#include "test_dialogues.h"

namespace kessel::summarize::testing {

inline text::Dialogue tiny_dialogue(bool timed) {
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

// tiny_dialogue prepared, featurized and given targets for dims small enough to difference every
// tensor: V 61 buckets, E 4, D 5 (6 with the BiLSTM), A 3; parameters from eaca_init with seed 7.
struct Fixture {
  text::Lexicon lex = default_lexicon();
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

}  // namespace kessel::summarize::testing
