#include "summarizer_flags.h"

#include "exit_codes.h"
#include "kessel/attention.h"
#include "kessel/error.h"
#include "kessel/summarize/eaca.h"

namespace kessel::cli {

void add_summarizer_flags(CLI::App& cmd, SummarizerFlags& f) {
  cmd.add_option("--model", f.model,
                 "A trained EACA model (kessel train); its stored length budget and redundancy apply "
                 "unless --max-sentences/--max-chars/--redundancy are given")
      ->check(CLI::ExistingFile);
  cmd.add_option("--ranker", f.ranker,
                 "Unit ranker without a model: centrality (attention, default) | lead | longest | lexrank")
      ->check(CLI::IsMember({"centrality", "lead", "longest", "lexrank"}));
  cmd.add_option("--attention", f.attention, "Centrality attention: softmax | fuzzy")
      ->check(CLI::IsMember({"softmax", "fuzzy"}));
  cmd.add_option("--kv", f.kv,
                 "With --model, how its attention layers store K and V while scoring: float32 (default) | int8 "
                 "(per-row scales; on CSDS the same ROUGE and p95 within noise, docs/eaca.md)")
      ->check(CLI::IsMember({"float32", "int8"}));
  cmd.add_option("--attention-kernel", f.attention_kernel,
                 "With --model, the EACA attention's kernel: auto (default: fused, chunk-and-bridge on long "
                 "dialogues, from the measured table in docs/benchmarks.md) | reference | fused | chunk_bridge")
      ->check(CLI::IsMember({"auto", "reference", "fused", "chunk_bridge"}));
  cmd.add_option("--max-sentences", f.max_sentences,
                 "Summary length in sentences (with --model: the model's expected-F1 stop is off, and without "
                 "--max-chars its character budget is dropped)")
      ->check(CLI::Range(1, 1000));
  cmd.add_option("--max-chars", f.max_chars,
                 "Optional length budget in characters (0: off; with --model it replaces the model's budget and "
                 "turns its expected-F1 stop off)")
      ->check(CLI::NonNegativeNumber);
  cmd.add_option("--redundancy", f.redundancy,
                 "MMR redundancy weight in [0, 1] (default 0.5 for centrality, 0 for the baselines, "
                 "as in kessel eval)")
      ->check(CLI::Range(0.0, 1.0));
  cmd.add_flag("--no-constraint", f.no_constraint, "Do not force an expressed customer emotion into the summary");
  cmd.add_option("--voice", f.voice,
                 "With --model, English rendering: reported (first and second person rewritten into the third) | "
                 "verbatim; default: the model's (kessel train --voice)")
      ->check(CLI::IsMember({"reported", "verbatim"}));
  cmd.add_option("--emotion-span", f.emotion_span,
                 "What the emotion constraint adds: clause (only the clause of the sentence that holds the emotion "
                 "words, when it has several) | sentence; default: the model's, sentence without one")
      ->check(CLI::IsMember({"clause", "sentence"}));
}

summarize::SummarizerOptions summarizer_options(const SummarizerFlags& f, const CLI::App& cmd) {
  if (!f.model.empty() && cmd.count("--ranker") > 0)
    throw UsageError("--ranker: cannot be combined with --model (the model is the ranker)");
  summarize::SummarizerOptions so;
  so.model = f.model;
  so.ranker = f.ranker;
  so.attention = parse_normalizer(f.attention);
  so.kv = parse_kv_dtype(f.kv);
  if (so.kv == KvDtype::kInt8 && f.model.empty())
    throw UsageError("--kv int8: needs --model (the unsupervised rankers keep no K/V to store as int8)");
  so.attention_kernel = parse_attention_kernel(f.attention_kernel);
  if (so.attention_kernel != AttentionKernel::kAuto && f.model.empty())
    throw UsageError("--attention-kernel: needs --model (it picks the EACA attention's kernel)");
  if (cmd.count("--max-sentences") > 0) so.max_sentences = f.max_sentences;
  if (cmd.count("--max-chars") > 0) so.max_chars = f.max_chars;
  if (cmd.count("--redundancy") > 0) so.redundancy = f.redundancy;
  so.constraint = !f.no_constraint;
  if (!f.voice.empty()) {
    if (f.model.empty())
      throw UsageError("--voice: needs --model (the unsupervised rankers render verbatim)");
    so.reported_speech = summarize::parse_voice(f.voice);
  }
  if (!f.emotion_span.empty()) so.emotion_clause = summarize::parse_emotion_span(f.emotion_span);
  return so;
}

}  // namespace kessel::cli
