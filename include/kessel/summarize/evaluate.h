// Evaluation of a scorer + decoder on dialogues with reference summaries: ROUGE under the official
// protocols, the emotion constraint, faithfulness findings (faithfulness.h), the strongest labelled
// emotion (emotion_labels.h), and latency (`kessel eval`).
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "kessel/summarize/emotion_labels.h"
#include "kessel/summarize/faithfulness.h"
#include "kessel/summarize/summary.h"
#include "kessel/text/rouge.h"

namespace kessel::summarize {

struct EvalRow {
  std::string name;
  std::size_t dialogues = 0;      // scored (those with at least one reference)
  std::size_t with_emotion = 0;   // where the customer expressed an emotion
  // ROUGE F1 x 100 averaged over dialogues. zh (CSDS protocol): one reference, best == avg.
  // en: best = max over references, avg = mean over references.
  double rouge1_best = 0, rouge2_best = 0, rougeL_best = 0;
  double rouge1_avg = 0, rouge2_avg = 0, rougeL_avg = 0;
  double constraint_satisfied = 0;  // share of dialogues whose summary satisfies the constraint
  double emotion_recall = 0;        // share of dialogues with customer emotion whose summary keeps one
  double constraint_bound = 0;      // share of dialogues where the constraint changed the selection
  double p50_ms = 0, p95_ms = 0, p99_ms = 0;  // prepare + score + decode, one dialogue, one thread
  double dialogues_per_s = 0;
  std::vector<double> rougeL_dialogues;  // each scored dialogue's ROUGE-L (best) F1 x 100, in input order
  // Faithfulness probes over every scored summary: sentences checked and findings of each kind
  // (indexed by FaithFinding::Kind).
  std::size_t faith_sentences = 0;
  std::array<std::size_t, kFaithKinds> faith_findings{};
  std::size_t faith(FaithFinding::Kind kind) const { return faith_findings[static_cast<std::size_t>(kind)]; }
  // With labels (EvalProbes::labels): the scored dialogues the labels give an emotion, and the share of
  // them whose summary keeps the strongest one (strongest_kept; 0 when there are none).
  std::size_t labelled_with_emotion = 0;
  double strongest_kept = 0;
};

// What evaluate() measures beyond ROUGE and the constraint. `words` splits zh units into words for the
// word_cut probe (per_character_words() until a segmenter is plugged in); `labels`, when given, adds
// the strongest-emotion metric. Both must outlive the call.
struct EvalProbes {
  const WordBoundaries* words = nullptr;  // nullptr: per_character_words()
  const EmotionLabelSet* labels = nullptr;
};

// Scores every dialogue that has a reference; throws InvalidArgument when none has one.
EvalRow evaluate(const std::vector<text::Dialogue>& dialogues, const text::Lexicon& lexicon,
                 const Scorer& scorer, const DecodeOptions& options, const std::string& name,
                 const EvalProbes& probes = {});

// A confidence interval for a mean.
struct Interval {
  double lo = 0.0, hi = 0.0;
};

// Percentile bootstrap (Efron & Tibshirani 1993, ch. 13): resample `values` with replacement
// `resamples` times and return the (1 - level)/2 and (1 + level)/2 quantiles (nearest rank) of the
// resampled means. Deterministic for a seed (splitmix64). For two systems scored on the same
// dialogues, pass the per-dialogue differences: the paired bootstrap of Koehn (2004).
// InvalidArgument for no values, a non-finite value, resamples < 1 or level outside (0, 1).
Interval bootstrap_mean_interval(const std::vector<double>& values, int resamples, double level, std::uint64_t seed);

// The settings `kessel eval` and `kessel train` report their intervals with (--bootstrap changes the
// resamples of kessel eval).
inline constexpr int kBootstrapResamples = 1000;
inline constexpr double kIntervalLevel = 0.95;
inline constexpr std::uint64_t kBootstrapSeed = 1;

}  // namespace kessel::summarize
