// One dialogue through one EACA network, for parity tests (eaca_trace.h).
#include "summarize/eaca_trace.h"

#include "kessel/error.h"
#include "summarize/eaca_labels.h"
#include "summarize/eaca_modality_norm.h"

namespace kessel::summarize {

EacaTrace eaca_trace(const text::Dialogue& dialogue, const text::Lexicon& lexicon, const EacaConfig& config,
                     std::uint64_t seed, const std::vector<float>& params, const LossWeights& loss_weights) {
  EacaTrace t;
  t.dims = dims_of(config);
  t.switches = switches_of(config);
  t.loss_weights = loss_weights;
  const TrainingExample ex = make_example(dialogue, lexicon, t.dims, 0.0f);
  t.features = ex.features;
  t.mention_unit = ex.prepared.mention_unit;
  t.targets = ex.targets;
  t.specs = eaca_param_specs(t.dims);
  const auto count = static_cast<std::size_t>(eaca_param_count(t.dims));
  if (params.empty()) {
    t.params.assign(count, 0.0f);
    eaca_init(t.params.data(), t.dims, seed);
    if (config.zero_text_init) zero_text_columns(t.params.data(), t.dims);
  } else {
    KESSEL_CHECK_ARG(params.size() == count, "eaca_trace: params has ", params.size(), " entries, the network has ",
                     count);
    t.params = params;
  }
  t.grads.assign(count, 0.0f);
  const EacaWeights w = carve_weights(t.params.data(), t.dims);
  eaca_forward(t.activations, w, t.dims, t.switches, t.features, t.mention_unit);
  t.loss = eaca_backward(carve_weights(t.grads.data(), t.dims), t.activations, w, t.dims, t.switches, t.features,
                         t.mention_unit, t.targets, t.loss_weights);
  return t;
}

}  // namespace kessel::summarize
