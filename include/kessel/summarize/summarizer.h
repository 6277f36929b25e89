// The summarizer a front end builds from its options: a scorer (a trained EACA model or an
// unsupervised ranker) and the decoder settings that go with it. `kessel summarize` and
// kessel.Summarizer both build theirs here, so the two apply the same defaults and overrides.
#pragma once

#include <memory>
#include <optional>
#include <string>

#include "kessel/attention.h"
#include "kessel/attention_choice.h"
#include "kessel/summarize/summary.h"
#include "kessel/text/lexicon.h"

namespace kessel::summarize {

struct SummarizerOptions {
  std::string model;                  // a trained EACA model (kessel train); empty: use `ranker`
  std::string ranker = "centrality";  // without a model: centrality | lead | longest | lexrank
  Normalizer attention = Normalizer::kSoftmax;  // the centrality ranker's normalizer
  // K/V storage of the model's attention layers while scoring (EacaModel::set_kv_dtype). int8 needs a
  // model that runs attention on the engine: InvalidArgument without a model (the centrality ranker's
  // keys are its queries' own tf-idf rows, so an int8 copy would add memory, not save it, and the
  // other rankers use no attention) and for a model with no engine attention layer.
  KvDtype kv = KvDtype::kFloat32;
  // The EACA attention's kernel (EacaModel::set_attention_kernel): auto chooses by length from the
  // measured table; the others force one. Anything but auto needs a model (InvalidArgument).
  AttentionKernel attention_kernel = AttentionKernel::kAuto;
  // Overrides of the defaults. With a model the defaults are its stored budget and redundancy; an
  // explicit max_chars replaces its character budget (per-dialogue or fixed) with that fixed one, and
  // max_sentences without max_chars drops it (N sentences, however long); either one turns the model's
  // expected-F1 stop off (the length asked for is the length given).
  // Without one: 4 sentences (the median sentence count of the CSDS val references and of the
  // TweetSumm train extractive summaries; docs/eaca.md), no char budget, redundancy 0.5 for centrality and 0 for the baselines
  // (position, length and graph rankers as published, so they reproduce `kessel eval`'s rows), and
  // fillers skipped for centrality only (DecodeOptions::skip_fillers; the baselines rank every sentence).
  std::optional<int> max_sentences;
  std::optional<int> max_chars;
  std::optional<float> redundancy;
  bool constraint = true;  // keep an expressed customer emotion
  // With a model: render English in reported speech (true) or verbatim (false) instead of the model's
  // stored choice. Without one it must be empty: the unsupervised rankers render verbatim.
  std::optional<bool> reported_speech;
  // Keep the constraint's emotion as its clause (true) or its whole sentence (false), instead of the
  // model's stored choice (DecodeOptions::emotion_clause; without a model the default is the sentence).
  std::optional<bool> emotion_clause;
};

// One dialogue through a summarizer. `prepared` points into the dialogue, which must outlive it.
struct Summarized {
  Prepared prepared;
  UnitScores scores;
  Summary summary;
};

struct Summarizer {
  std::unique_ptr<Scorer> scorer;
  DecodeOptions decode;
  // prepare -> score -> decode, as every front end runs it. Const: threads may share one summarizer.
  // Without `with_attention_map`, Summarized::scores may lack the attention map (Scorer::
  // score_without_map): for callers that neither explain nor draw it.
  Summarized run(const text::Dialogue& dialogue, const text::Lexicon& lexicon,
                 bool with_attention_map = true) const;
};

// InvalidArgument for a bad option (naming it), ParseError/IoError for a bad model file, and
// InvalidArgument when the model was trained with another lexicon.
Summarizer make_summarizer(const SummarizerOptions& options, const text::Lexicon& lexicon);

}  // namespace kessel::summarize
