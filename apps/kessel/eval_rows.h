// The systems `kessel eval` compares in one run.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "kessel/summarize/summary.h"
#include "kessel/text/lexicon.h"

namespace kessel::cli {

struct EvalSystem {
  std::string name;
  std::shared_ptr<const summarize::Scorer> scorer;
  summarize::DecodeOptions decode;
  bool reference = false;  // the row the others are compared with: EACA, or the unsupervised mode without a model
  std::string model_file;  // the model file the row's networks come from; empty for the baselines
};

// Lead-N, Longest-N, LexRank, attention centrality (softmax, fuzzy, and softmax without the emotion
// constraint); with a model: EACA as trained (constraint on), without the constraint, without
// token deletion when it has a compressor, (`english`) verbatim when it renders reported speech, and,
// without `compare` models, the same networks with plain and with fuzzy attention swapped in at
// inference. Each `compare` model adds one row named after its attention
// variant (kessel train --attention): plain attention is decoded without the constraint (the seed's
// "standard Transformer" row), the others with it. Every model must have been trained with `lexicon`
// (InvalidArgument otherwise). With `int8_kv`, the row after EACA is the same networks scored with
// int8 K/V (EacaModel::set_kv_dtype; InvalidArgument when the model runs no engine attention).
std::vector<EvalSystem> eval_systems(const std::string& model_path, const std::vector<std::string>& compare,
                                     const text::Lexicon& lexicon, int max_sentences, float redundancy,
                                     bool english, bool int8_kv = false);

}  // namespace kessel::cli
