// One dialogue through one EACA network, with everything an independent implementation needs to
// recompute it: the inputs the network sees, the training labels, the parameters, the outputs, the
// loss and the gradient of every parameter tensor. tests/python/test_eaca_torch.py rebuilds the
// network in PyTorch from these and compares outputs and autograd gradients (kessel._eaca_trace).
#pragma once

#include <cstdint>
#include <vector>

#include "kessel/summarize/eaca.h"
#include "kessel/text/dialogue.h"
#include "kessel/text/lexicon.h"
#include "summarize/eaca_features.h"
#include "summarize/eaca_model.h"

namespace kessel::summarize {

struct EacaTrace {
  EacaDims dims;
  EacaSwitches switches;
  LossWeights loss_weights;
  UnitFeatures features;          // compute_features, as training sees them
  std::vector<int> mention_unit;  // [M] Prepared::mention_unit
  EacaTargets targets;            // make_example's labels (the greedy oracle; no human selections)
  std::vector<ParamSpec> specs;   // eaca_param_specs(dims): names, shapes, offsets into params/grads
  std::vector<float> params;      // flat, by specs
  EacaActivations activations;    // eaca_forward
  double loss = 0.0;              // eaca_backward's loss
  std::vector<float> grads;       // flat, by specs: d loss / d params
};

// `config` fixes dims and switches (members is ignored: one network). Parameters start from
// eaca_init(seed); `params`, when not empty, replaces them (it must have eaca_param_count entries).
EacaTrace eaca_trace(const text::Dialogue& dialogue, const text::Lexicon& lexicon, const EacaConfig& config,
                     std::uint64_t seed, const std::vector<float>& params = {}, const LossWeights& loss_weights = {});

}  // namespace kessel::summarize
