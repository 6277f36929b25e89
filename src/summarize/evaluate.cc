#include "kessel/summarize/evaluate.h"

#include <algorithm>
#include <chrono>
#include <cmath>

#include "kessel/error.h"
#include "summarize/oracle.h"
#include "util/splitmix.h"

namespace kessel::summarize {

namespace {
double percentile(std::vector<double> v, double q) {
  if (v.empty()) return 0.0;
  std::sort(v.begin(), v.end());
  // Nearest rank: the smallest value with at least q of the samples at or below it.
  const std::size_t rank = static_cast<std::size_t>(std::ceil(q * static_cast<double>(v.size())));
  return v[std::min(v.size() - 1, rank == 0 ? 0 : rank - 1)];
}
}  // namespace

EvalRow evaluate(const std::vector<text::Dialogue>& dialogues, const text::Lexicon& lexicon,
                 const Scorer& scorer, const DecodeOptions& options, const std::string& name,
                 const EvalProbes& probes) {
  EvalRow row;
  row.name = name;
  const WordBoundaries per_character = per_character_words();
  const WordBoundaries& words = probes.words ? *probes.words : per_character;
  std::size_t strongest = 0;
  std::vector<double> latencies;
  double total_s = 0.0;
  std::size_t kept = 0, satisfied = 0, bound = 0;
  // One untimed pass over the first dialogue: thread pools and caches start warm, as in a service.
  if (!dialogues.empty()) {
    const Prepared warm = prepare(dialogues.front(), lexicon);
    decode(warm, scorer.score(warm), options);
  }
  for (const auto& dialogue : dialogues) {
    const auto start = std::chrono::steady_clock::now();
    const Prepared p = prepare(dialogue, lexicon);
    const UnitScores scores = scorer.score(p);
    const Summary summary = decode(p, scores, options);
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();

    const auto refs = reference_texts(dialogue, p.lang);
    if (refs.empty()) continue;
    latencies.push_back(1e3 * seconds);
    total_s += seconds;
    const auto lang = p.lang == Lang::zh ? text::RougeLang::zh : text::RougeLang::en;
    const auto r = text::rouge_multi(scored_text(summary, p.lang), refs, lang, text::ZhSplit::period);
    row.rouge1_best += r.best.rouge1.f1;
    row.rouge2_best += r.best.rouge2.f1;
    row.rougeL_best += r.best.rougeL.f1;
    row.rouge1_avg += r.avg.rouge1.f1;
    row.rouge2_avg += r.avg.rouge2.f1;
    row.rougeL_avg += r.avg.rougeL.f1;
    row.rougeL_dialogues.push_back(100.0 * r.best.rougeL.f1);
    ++row.dialogues;
    satisfied += summary.constraint_satisfied ? 1 : 0;
    bound += summary.constraint_bound ? 1 : 0;
    // The measured properties, outside the timed part.
    const FaithReport faith = check_faithfulness(p, summary, words);
    row.faith_sentences += static_cast<std::size_t>(faith.sentences);
    for (FaithFinding::Kind k : kAllFaithKinds)
      row.faith_findings[static_cast<std::size_t>(k)] += static_cast<std::size_t>(faith.count(k));
    if (const DialogueLabels* labels = probes.labels ? probes.labels->find(dialogue.id) : nullptr;
        labels && labels->strongest()) {
      ++row.labelled_with_emotion;
      strongest += strongest_kept(p, summary, *labels) ? 1 : 0;
    }
    if (p.customer_expressed_emotion()) {
      ++row.with_emotion;
      kept += std::any_of(summary.emotions.begin(), summary.emotions.end(),
                          [](const SummaryEmotion& e) { return e.in_summary; })
                  ? 1
                  : 0;
    }
  }
  KESSEL_CHECK_ARG(row.dialogues > 0, "evaluate: none of the ", dialogues.size(),
                   " dialogues has a reference summary");
  const double n = static_cast<double>(row.dialogues);
  for (double* v : {&row.rouge1_best, &row.rouge2_best, &row.rougeL_best, &row.rouge1_avg,
                    &row.rouge2_avg, &row.rougeL_avg})
    *v = 100.0 * *v / n;
  row.constraint_satisfied = static_cast<double>(satisfied) / n;
  row.constraint_bound = static_cast<double>(bound) / n;
  row.emotion_recall = row.with_emotion ? static_cast<double>(kept) / static_cast<double>(row.with_emotion) : 1.0;
  row.strongest_kept =
      row.labelled_with_emotion ? static_cast<double>(strongest) / static_cast<double>(row.labelled_with_emotion) : 0.0;
  row.p50_ms = percentile(latencies, 0.50);
  row.p95_ms = percentile(latencies, 0.95);
  row.p99_ms = percentile(latencies, 0.99);
  row.dialogues_per_s = total_s > 0 ? n / total_s : 0.0;
  return row;
}

Interval bootstrap_mean_interval(const std::vector<double>& values, int resamples, double level, std::uint64_t seed) {
  KESSEL_CHECK_ARG(!values.empty(), "bootstrap_mean_interval: no values");
  KESSEL_CHECK_ARG(resamples >= 1, "bootstrap_mean_interval: resamples must be >= 1, got ", resamples);
  KESSEL_CHECK_ARG(level > 0.0 && level < 1.0, "bootstrap_mean_interval: level must be in (0, 1), got ", level);
  for (std::size_t i = 0; i < values.size(); ++i)
    KESSEL_CHECK_ARG(std::isfinite(values[i]), "bootstrap_mean_interval: values[", i, "] is not finite");
  const std::size_t n = values.size();
  std::vector<double> means(static_cast<std::size_t>(resamples));
  std::uint64_t state = seed;
  for (auto& mean : means) {
    double sum = 0.0;
    for (std::size_t i = 0; i < n; ++i) sum += values[static_cast<std::size_t>(splitmix64(state) % n)];
    mean = sum / static_cast<double>(n);
  }
  return {percentile(means, (1.0 - level) / 2.0), percentile(means, (1.0 + level) / 2.0)};
}

}  // namespace kessel::summarize
