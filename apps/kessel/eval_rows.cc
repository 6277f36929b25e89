#include "eval_rows.h"

#include <filesystem>

#include "kessel/summarize/eaca.h"
#include "kessel/summarize/scorers.h"

namespace kessel::cli {

std::vector<EvalSystem> eval_systems(const std::string& model_path, const std::vector<std::string>& compare,
                                     const text::Lexicon& lexicon, int max_sentences, float redundancy,
                                     bool english, bool int8_kv) {
  summarize::DecodeOptions plain;
  plain.max_sentences = max_sentences;
  plain.redundancy = redundancy;
  plain.report_questions = true;  // as make_summarizer builds the unsupervised mode
  const std::string n = std::to_string(max_sentences);
  std::vector<EvalSystem> systems;
  auto add = [&](std::string name, std::shared_ptr<const summarize::Scorer> scorer,
                 summarize::DecodeOptions decode, std::string model_file = "") {
    systems.push_back({std::move(name), std::move(scorer), decode, false, std::move(model_file)});
  };
  // Baselines as published: no redundancy control, no constraint, every sentence rankable.
  summarize::DecodeOptions baseline = plain;
  baseline.redundancy = 0.0f;
  baseline.emotion_constraint = false;
  baseline.skip_fillers = false;
  baseline.report_questions = false;
  add("Lead-" + n, std::make_shared<summarize::LeadScorer>(), baseline);
  add("Longest-" + n, std::make_shared<summarize::LongestScorer>(), baseline);
  add("LexRank-" + n, std::make_shared<summarize::LexRankScorer>(), baseline);

  summarize::CentralityOptions softmax;
  summarize::CentralityOptions fuzzy;
  fuzzy.normalizer = Normalizer::kFuzzy;
  summarize::DecodeOptions unconstrained = plain;
  unconstrained.emotion_constraint = false;
  add("centrality softmax, no constraint", std::make_shared<summarize::CentralityScorer>(softmax),
      unconstrained);
  add("centrality softmax (unsupervised mode)", std::make_shared<summarize::CentralityScorer>(softmax),
      plain);
  systems.back().reference = model_path.empty();  // without a model, the others are compared with this one
  add("centrality fuzzy m=2", std::make_shared<summarize::CentralityScorer>(fuzzy), plain);

  if (!model_path.empty()) {
    auto model = std::make_shared<summarize::EacaModel>(summarize::EacaModel::load(model_path, lexicon));
    summarize::DecodeOptions trained = model->decode_options();
    summarize::DecodeOptions free = trained;
    free.emotion_constraint = false;
    add("EACA, no constraint", model, free, model_path);
    if (model->config().compress_threshold > 0.0f) {
      auto whole = std::make_shared<summarize::EacaModel>(*model);
      whole->mutable_config().compress_threshold = 0.0f;
      add("EACA, no token deletion", whole, trained, model_path);
    }
    if (english && model->config().reported_speech) {
      auto verbatim = std::make_shared<summarize::EacaModel>(*model);
      verbatim->mutable_config().reported_speech = false;
      add("EACA, verbatim (no reported speech)", verbatim, trained, model_path);
    }
    add("EACA", model, trained, model_path);
    systems.back().reference = true;
    if (int8_kv) {
      auto int8 = std::make_shared<summarize::EacaModel>(*model);
      int8->set_kv_dtype(KvDtype::kInt8);
      add("EACA, int8 K/V", int8, trained, model_path);
    }
    // Without trained variants to compare (--compare-model), the plain and fuzzy rows come from the
    // same networks with the attention swapped at inference: what the emotion terms and the
    // normalizer do inside this trained model (train with --attention plain|fuzzy for the trained rows).
    if (compare.empty()) {
      for (const char* variant : {"plain", "fuzzy"}) {
        auto swapped = std::make_shared<summarize::EacaModel>(*model);
        summarize::set_attention_variant(swapped->mutable_config(), variant);
        const bool is_plain = std::string(variant) == "plain";
        add(is_plain ? "EACA networks, plain softmax attention at inference, no constraint"
                     : "EACA networks, fuzzy m=2 attention at inference",
            swapped, is_plain ? free : trained, model_path);
      }
    }
  }
  for (const auto& path : compare) {
    auto other = std::make_shared<summarize::EacaModel>(summarize::EacaModel::load(path, lexicon));
    const auto& c = other->config();
    summarize::DecodeOptions decode = other->decode_options();
    std::string name;
    if (!c.emotion_terms) {
      decode.emotion_constraint = false;
      name = std::string("EACA plain ") + (c.normalizer == Normalizer::kFuzzy ? "fuzzy" : "softmax") +
             " attention, no constraint";
    } else {
      name = std::string("EACA, ") + (c.normalizer == Normalizer::kFuzzy ? "fuzzy m=2" : "softmax") + " attention";
    }
    // The context encoder is named when it is not the default's, so that a row of an older
    // self-attention model is not read as the same network with another attention.
    if (c.context_encoder && !c.context_bilstm) name += ", self-attention context";
    if (!c.context_encoder) name += ", no context layer";
    add(name + " (" + std::filesystem::path(path).filename().string() + ")", other, decode, path);
  }
  return systems;
}

}  // namespace kessel::cli
