#include "kessel/summarize/summarizer.h"

#include "kessel/error.h"
#include "kessel/summarize/eaca.h"
#include "kessel/summarize/scorers.h"

namespace kessel::summarize {

Summarized Summarizer::run(const text::Dialogue& dialogue, const text::Lexicon& lexicon,
                           bool with_attention_map) const {
  Summarized out;
  out.prepared = prepare(dialogue, lexicon);
  out.scores = with_attention_map ? scorer->score(out.prepared) : scorer->score_without_map(out.prepared);
  out.summary = summarize::decode(out.prepared, out.scores, decode);
  return out;
}

Summarizer make_summarizer(const SummarizerOptions& o, const text::Lexicon& lexicon) {
  KESSEL_CHECK_ARG(!o.max_sentences || *o.max_sentences >= 1, "make_summarizer: max_sentences must be >= 1, got ",
                   o.max_sentences.value_or(0));
  KESSEL_CHECK_ARG(!o.max_chars || *o.max_chars >= 0, "make_summarizer: max_chars must be >= 0, got ", o.max_chars.value_or(0));
  KESSEL_CHECK_ARG(!o.redundancy || (*o.redundancy >= 0.0f && *o.redundancy <= 1.0f),
                   "make_summarizer: redundancy must be in [0, 1], got ", o.redundancy.value_or(0.0f));
  Summarizer s;
  if (!o.model.empty()) {
    auto model = std::make_unique<EacaModel>(EacaModel::load(o.model, lexicon));
    s.decode = model->decode_options();
    // Either length override replaces the model's character budget: --max-chars with a fixed one,
    // --max-sentences alone with none (the user asked for N sentences, and a stored budget would
    // quietly give fewer).
    if (o.max_chars || o.max_sentences) model->mutable_config().budget_max = 0;
    if (o.max_sentences && !o.max_chars) s.decode.max_chars = 0;
    // The same for the expected-F1 stop, which would cut the summary below the length asked for.
    if (o.max_chars || o.max_sentences) s.decode.f1_stop_chars = 0.0f;
    if (o.reported_speech) model->mutable_config().reported_speech = *o.reported_speech;
    model->set_kv_dtype(o.kv);
    model->set_attention_kernel(o.attention_kernel);
    s.scorer = std::move(model);
  } else {
    KESSEL_CHECK_ARG(!o.reported_speech, "make_summarizer: voice needs a model (the unsupervised rankers render "
                                         "the sentences verbatim)");
    KESSEL_CHECK_ARG(o.attention_kernel == AttentionKernel::kAuto, "make_summarizer: attention_kernel '",
                     attention_kernel_name(o.attention_kernel), "' needs a model (the EACA attention's kernel)");
    KESSEL_CHECK_ARG(o.kv == KvDtype::kFloat32, "make_summarizer: kv int8 needs a model (the unsupervised "
                     "rankers keep no K/V: centrality's keys are its queries, the others use no attention)");
    if (o.ranker == "centrality") {
      CentralityOptions c;
      c.normalizer = o.attention;
      s.scorer = std::make_unique<CentralityScorer>(c);
    } else if (o.ranker == "lead") {
      s.scorer = std::make_unique<LeadScorer>();
    } else if (o.ranker == "longest") {
      s.scorer = std::make_unique<LongestScorer>();
    } else if (o.ranker == "lexrank") {
      s.scorer = std::make_unique<LexRankScorer>();
    } else {
      throw InvalidArgument("make_summarizer: ranker must be centrality, lead, longest or lexrank, got '" + o.ranker + "'");
    }
    s.decode.max_sentences = 4;
    s.decode.max_chars = 0;
    s.decode.redundancy = o.ranker == "centrality" ? 0.5f : 0.0f;
    s.decode.skip_fillers = o.ranker == "centrality";
    s.decode.report_questions = o.ranker == "centrality";
  }
  if (o.max_sentences) s.decode.max_sentences = *o.max_sentences;
  if (o.max_chars) s.decode.max_chars = *o.max_chars;
  s.decode.length_asked = o.max_sentences.has_value() || o.max_chars.has_value();
  if (o.redundancy) s.decode.redundancy = *o.redundancy;
  s.decode.emotion_constraint = o.constraint;
  if (o.emotion_clause) s.decode.emotion_clause = *o.emotion_clause;
  return s;
}

}  // namespace kessel::summarize
