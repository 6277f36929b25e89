// kessel eval: ROUGE, the emotion constraint, faithfulness findings and latency for the summarizer and,
// in the same run, the baselines — the table of the seed, measured.
#include <algorithm>
#include <cstdio>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>
#include <set>

#include "cli_data.h"
#include "commands.h"
#include "eval_rows.h"
#include "exit_codes.h"
#include "kessel/attention.h"
#include "kessel/error.h"
#include "kessel/summarize/emotion_labels.h"
#include "kessel/summarize/evaluate.h"
#include "kessel/summarize/faithfulness.h"
#include "kessel/summarize/scorers.h"
#include "quiet.h"
#include "util/progress.h"

namespace kessel::cli {

namespace {

struct EvalOptions {
  InputOptions input;
  LexiconOptions lexicon;
  std::string model;
  std::vector<std::string> compare;
  std::string kv = "float32";  // int8: one more row, EACA with int8 K/V
  int max_sentences = 4;
  float redundancy = 0.5f;
  bool json = false;
  int bootstrap = summarize::kBootstrapResamples;  // resamples for the intervals; 0: none
  std::string emotion_labels;  // a labelled emotion set (emotion_labels.h); empty: none
  double min_rougeL = -1;      // targets for the reference row (exit 1 when missed); < 0: none
  double min_constraint = -1;
};

// The --min-* targets, checked on the reference row (EACA with --model, the unsupervised mode
// without).
struct Targets {
  nlohmann::json json = nlohmann::json::array();
  std::vector<std::string> lines;  // "ok   ROUGE-L 35.03 >= 30.00 (EACA)", one per target
  std::string missed;              // empty: every target met
};

Targets check_targets(const EvalOptions& o, const summarize::EvalRow& row) {
  Targets t;
  auto check = [&](const char* metric, const char* flag, double value, double min) {
    if (min < 0) return;
    const bool ok = value >= min;
    char line[200];
    std::snprintf(line, sizeof line, "%s %s %.2f %s %.2f (%s)", ok ? "ok  " : "FAIL", metric, value,
                  ok ? ">=" : "<", min, row.name.c_str());
    t.lines.push_back(line);
    t.json.push_back(
        {{"metric", metric}, {"flag", flag}, {"min", min}, {"value", value}, {"ok", ok}});
    if (!ok) {
      std::snprintf(line, sizeof line, "%s %.2f of '%s' is below %s %.2f", metric, value,
                    row.name.c_str(), flag, min);
      t.missed += (t.missed.empty() ? "" : "; ") + std::string(line);
    }
  };
  check("ROUGE-L", "--min-rougeL", row.rougeL_best, o.min_rougeL);
  check("constraint %", "--min-constraint", 100 * row.constraint_satisfied, o.min_constraint);
  return t;
}

// Each row's ROUGE-L interval and its paired difference from the reference row (none for that row).
struct RowIntervals {
  summarize::Interval rougeL;
  bool compared = false;
  double delta = 0.0;
  summarize::Interval delta_ci;
};

std::vector<RowIntervals> intervals(const std::vector<summarize::EvalRow>& rows, std::size_t ref, int resamples) {
  std::vector<RowIntervals> out(rows.size());
  for (std::size_t i = 0; i < rows.size(); ++i) {
    out[i].rougeL = summarize::bootstrap_mean_interval(rows[i].rougeL_dialogues, resamples,
                                                       summarize::kIntervalLevel, summarize::kBootstrapSeed);
    if (i == ref || ref >= rows.size()) continue;
    std::vector<double> diff(rows[i].rougeL_dialogues.size());
    for (std::size_t d = 0; d < diff.size(); ++d) diff[d] = rows[i].rougeL_dialogues[d] - rows[ref].rougeL_dialogues[d];
    out[i].compared = true;
    out[i].delta = rows[i].rougeL_best - rows[ref].rougeL_best;
    out[i].delta_ci =
        summarize::bootstrap_mean_interval(diff, resamples, summarize::kIntervalLevel, summarize::kBootstrapSeed);
  }
  return out;
}

void print_intervals(const std::vector<summarize::EvalRow>& rows, const std::vector<RowIntervals>& ci,
                     std::size_t ref, int resamples) {
  int width = 40;
  for (const auto& r : rows) width = std::max(width, static_cast<int>(r.name.size()));
  std::printf("\nROUGE-L with %.0f%% bootstrap intervals (%d resamples of the %zu dialogues), and each row minus %s,\n"
              "paired on the same dialogues (an interval that excludes 0 is a difference the sample supports):\n",
              100 * summarize::kIntervalLevel, resamples, rows.front().dialogues, rows[ref].name.c_str());
  std::printf("%-*s %6s %16s | %7s %16s\n", width, "system", "R-L", "95% interval", "diff", "95% interval");
  for (std::size_t i = 0; i < rows.size(); ++i) {
    std::printf("%-*s %6.2f  [%6.2f, %6.2f] |", width, rows[i].name.c_str(), rows[i].rougeL_best, ci[i].rougeL.lo,
                ci[i].rougeL.hi);
    if (ci[i].compared)
      std::printf(" %+7.2f  [%+6.2f, %+6.2f]\n", ci[i].delta, ci[i].delta_ci.lo, ci[i].delta_ci.hi);
    else
      std::printf(" %7s\n", "(ref)");
  }
}

using Kind = summarize::FaithFinding::Kind;

// ROUGE, then the faithfulness findings (and, with labels, the strongest emotion kept) beside it, then
// the constraint and latency.
void print_table(const std::vector<summarize::EvalRow>& rows, bool english, bool labels) {
  int width = 40;  // the system column fits the longest name
  for (const auto& r : rows) width = std::max(width, static_cast<int>(r.name.size()));
  std::printf("%-*s %6s %6s %6s %s| %5s %5s %5s %5s %s| %6s %6s %6s | %7s %7s %7s %8s\n", width, "system", "R-1",
              "R-2", "R-L", english ? "(best; avg R-L) " : "", "neg", "q>a", "cut", "merge", labels ? "strong " : "",
              "constr", "emoRec", "bound", "p50 ms", "p95 ms", "p99 ms", "dlg/s");
  for (const auto& r : rows) {
    char extra[32] = "", strong[16] = "";
    if (english) std::snprintf(extra, sizeof extra, "(%5.2f)         ", r.rougeL_avg);
    if (labels) std::snprintf(strong, sizeof strong, "%5.1f%% ", 100 * r.strongest_kept);
    std::printf("%-*s %6.2f %6.2f %6.2f %s| %5zu %5zu %5zu %5zu %s| %5.1f%% %5.1f%% %5.1f%% | %7.3f %7.3f %7.3f %8.0f\n",
                width, r.name.c_str(), r.rouge1_best, r.rouge2_best, r.rougeL_best, extra, r.faith(Kind::negation_lost),
                r.faith(Kind::question_asserted), r.faith(Kind::word_cut), r.faith(Kind::cross_turn_merge), strong,
                100 * r.constraint_satisfied, 100 * r.emotion_recall, 100 * r.constraint_bound,
                r.p50_ms, r.p95_ms, r.p99_ms, r.dialogues_per_s);
  }
}

// What the faithfulness and label columns mean, and how far the labels reach.
void print_faith_notes(const std::vector<summarize::EvalRow>& rows, bool english, const summarize::WordBoundaries& words,
                       const summarize::DetectionCounts* detection) {
  std::printf("\nneg / q>a / cut / merge: faithfulness findings over all summaries (%zu sentences in the first row; "
              "docs/eaca.md, Faithfulness):\n  negation lost, question rendered as an assertion, word cut, one label "
              "across the other speaker's turn\n",
              rows.empty() ? std::size_t{0} : rows.front().faith_sentences);
  if (!english && words.per_character())
    std::printf("note: cut needs the Chinese word segmenter; with one word per character it is 0 by construction\n");
  if (detection)
    std::printf("strong: %% of the %zu labelled dialogues with emotion whose summary keeps the strongest one (or an "
                "equal); detection against %zu labelled dialogues: precision %.1f%% (%zu of %zu detected), recall "
                "%.1f%% (%zu of %zu labelled)\n",
                rows.empty() ? std::size_t{0} : rows.front().labelled_with_emotion, detection->dialogues,
                100 * detection->precision(), detection->detected_matched, detection->detected,
                100 * detection->recall(), detection->labelled_found, detection->labelled);
}

nlohmann::json row_json(const summarize::EvalRow& r) {
  return {{"system", r.name},
          {"dialogues", r.dialogues},
          {"with_emotion", r.with_emotion},
          {"rouge1", r.rouge1_best},
          {"rouge2", r.rouge2_best},
          {"rougeL", r.rougeL_best},
          {"rouge1_avg", r.rouge1_avg},
          {"rouge2_avg", r.rouge2_avg},
          {"rougeL_avg", r.rougeL_avg},
          {"constraint_satisfied", r.constraint_satisfied},
          {"emotion_recall", r.emotion_recall},
          {"constraint_bound", r.constraint_bound},
          {"latency_ms", {{"p50", r.p50_ms}, {"p95", r.p95_ms}, {"p99", r.p99_ms}}},
          {"dialogues_per_s", r.dialogues_per_s}};
}

nlohmann::json faith_json(const summarize::EvalRow& r) {
  nlohmann::json j = {{"sentences", r.faith_sentences}};
  for (Kind k : summarize::kAllFaithKinds) j[summarize::to_string(k)] = r.faith(k);
  return j;
}

}  // namespace

void add_eval_command(CLI::App& app) {
  auto options = std::make_shared<EvalOptions>();
  CLI::App* cmd = app.add_subcommand(
      "eval", "ROUGE, emotion constraint and latency of the summarizer and the baselines");
  add_input_options(*cmd, options->input, "--data");
  add_lexicon_options(*cmd, options->lexicon);
  cmd->add_option("--model", options->model, "A trained EACA model (kessel train)")->check(CLI::ExistingFile);
  cmd->add_option("--compare-model", options->compare,
                  "More trained models to score in the same run, e.g. ones trained with --attention plain "
                  "or fuzzy (repeatable; a plain-attention model is decoded without the constraint)")
      ->check(CLI::ExistingFile);
  cmd->add_option("--kv", options->kv,
                  "int8: with --model, add a row 'EACA, int8 K/V' (the same networks, their attention K/V stored "
                  "as int8 while scoring) to compare with EACA in the same run; float32 (default): no such row")
      ->check(CLI::IsMember({"float32", "int8"}));
  cmd->add_option("--max-sentences", options->max_sentences,
                  "Summary length in sentences for the rows without a model")
      ->check(CLI::Range(1, 1000));
  cmd->add_option("--redundancy", options->redundancy, "MMR redundancy weight in [0, 1]")
      ->check(CLI::Range(0.0, 1.0));
  cmd->add_flag("--json", options->json, "Print a JSON document instead of the table");
  cmd->add_option("--bootstrap", options->bootstrap,
                  "Resamples for the 95% bootstrap intervals of ROUGE-L and of each row's paired difference from "
                  "EACA (the unsupervised mode without a model); 0: none")
      ->check(CLI::Range(0, 100000))
      ->capture_default_str();
  cmd->add_option("--emotion-labels", options->emotion_labels,
                  "A labelled emotion set (JSON lines, tools/emotion_labels.py): adds the share of labelled dialogues "
                  "whose summary keeps the strongest emotion, and the detector's precision and recall")
      ->check(CLI::ExistingFile);
  cmd->add_option("--min-rougeL", options->min_rougeL,
                  "Target: exit 1 when the ROUGE-L (best, x100) of EACA (with --model; the "
                  "unsupervised mode "
                  "without) is below this, after printing the results")
      ->check(CLI::Range(0.0, 100.0));
  cmd->add_option("--min-constraint", options->min_constraint,
                  "Target: exit 1 when the share of its summaries that satisfy the emotion "
                  "constraint (%) is "
                  "below this")
      ->check(CLI::Range(0.0, 100.0));
  cmd->callback([options] {
    const auto& o = *options;
    const text::Lexicon lexicon = load_lexicon(o.lexicon);
    const text::ReadResult input = read_input(o.input);
    bool english = false;
    if (!input.dialogues.empty())
      english = summarize::detect_lang(input.dialogues.front()) == summarize::Lang::en;
    // Chinese word boundaries for the word_cut probe. One word per character makes word_cut 0; with the
    // segmenter merged this line becomes segmenter_words(text::Segmenter::default_segmenter()).
    const summarize::WordBoundaries words = summarize::segmenter_words(text::Segmenter::default_segmenter());
    const bool labelled = !o.emotion_labels.empty();
    const summarize::EmotionLabelSet labels = labelled ? summarize::load_emotion_labels(o.emotion_labels)
                                                       : summarize::EmotionLabelSet{};
    const summarize::EvalProbes probes{&words, labelled ? &labels : nullptr};
    const bool int8 = parse_kv_dtype(o.kv) == KvDtype::kInt8;
    if (int8 && o.model.empty()) throw UsageError("--kv int8: needs --model (the int8 row is the model's)");
    const auto systems = eval_systems(o.model, o.compare, lexicon, o.max_sentences, o.redundancy, english, int8);
    // Once per model file, however many rows its networks make.
    std::set<std::string> warned;
    for (const auto& system : systems)
      if (!system.model_file.empty() && warned.insert(system.model_file).second)
        warn_language(*system.scorer, input.dialogues, system.model_file);

    std::size_t ref = systems.size();
    for (std::size_t i = 0; i < systems.size(); ++i)
      if (systems[i].reference) ref = i;
    std::vector<summarize::EvalRow> rows;
    Progress progress("eval", static_cast<std::int64_t>(systems.size()), progress_stream());
    for (const auto& system : systems) {
      rows.push_back(summarize::evaluate(input.dialogues, lexicon, *system.scorer, system.decode,
                                         system.name, probes));
      progress.update(static_cast<std::int64_t>(rows.size()), system.name);
    }
    progress.finish();
    // The detector does not depend on the row: once per run.
    const summarize::DetectionCounts detection =
        labelled ? summarize::score_detection(input.dialogues, lexicon, labels) : summarize::DetectionCounts{};
    if (labelled && detection.dialogues < labels.dialogues.size())
      std::fprintf(stderr, "%s: %zu of %zu labelled dialogues are not in %s\n", o.emotion_labels.c_str(),
                   labels.dialogues.size() - detection.dialogues, labels.dialogues.size(), o.input.path.c_str());
    // evaluate() scores only the dialogues that have a reference; say how many were left out.
    const std::size_t scored = rows.empty() ? 0 : rows.front().dialogues;
    const std::size_t unscored = input.dialogues.size() - scored;
    if (unscored > 0)
      std::fprintf(stderr, "%s: %zu of %zu dialogues have no reference summary and are not scored\n",
                   o.input.path.c_str(), unscored, input.dialogues.size());
    const std::vector<RowIntervals> ci = o.bootstrap > 0 ? intervals(rows, ref, o.bootstrap) : std::vector<RowIntervals>{};
    const Targets targets = ref < rows.size() ? check_targets(o, rows[ref]) : Targets{};
    if (o.json) {
      nlohmann::json j;
      j["data"] = o.input.path;
      j["format"] = text::to_string(input.format);
      j["skipped"] = input.skipped.size();
      j["read"] = input.dialogues.size();
      j["without_reference"] = unscored;
      j["rows"] = nlohmann::json::array();
      for (std::size_t i = 0; i < rows.size(); ++i) {
        nlohmann::json r = row_json(rows[i]);
        r["faithfulness"] = faith_json(rows[i]);
        if (labelled)
          r["strongest_kept"] = {{"labelled_with_emotion", rows[i].labelled_with_emotion},
                                 {"share", rows[i].strongest_kept}};
        if (!ci.empty()) {
          r["rougeL_interval"] = {ci[i].rougeL.lo, ci[i].rougeL.hi};
          if (ci[i].compared)
            r["rougeL_minus_reference"] = {{"diff", ci[i].delta}, {"interval", {ci[i].delta_ci.lo, ci[i].delta_ci.hi}}};
        }
        j["rows"].push_back(std::move(r));
      }
      if (!ci.empty())
        j["bootstrap"] = {{"resamples", o.bootstrap},
                          {"level", summarize::kIntervalLevel},
                          {"seed", summarize::kBootstrapSeed},
                          {"reference", ref < rows.size() ? rows[ref].name : ""}};
      j["word_boundaries"] = words.source;
      if (!targets.lines.empty()) j["targets"] = targets.json;
      if (labelled)
        j["emotion_detection"] = {{"labels", o.emotion_labels},
                                  {"dialogues", detection.dialogues},
                                  {"detected", detection.detected},
                                  {"detected_matched", detection.detected_matched},
                                  {"labelled", detection.labelled},
                                  {"labelled_found", detection.labelled_found},
                                  {"precision", detection.precision()},
                                  {"recall", detection.recall()}};
      std::cout << j.dump(2) << '\n';
    } else {
      std::printf("%s: %zu dialogues (%s), %zu with customer emotion", o.input.path.c_str(), scored,
                  text::to_string(input.format), rows.empty() ? 0 : rows.front().with_emotion);
      if (unscored > 0) std::printf("; %zu more without a reference, not scored", unscored);
      if (!input.skipped.empty()) std::printf("; %zu records skipped (--on-error skip)", input.skipped.size());
      std::printf("\n");
      print_table(rows, english, labelled);
      print_faith_notes(rows, english, words, labelled ? &detection : nullptr);
      if (!ci.empty() && ref < rows.size()) print_intervals(rows, ci, ref, o.bootstrap);
      if (!targets.lines.empty()) std::printf("\ntargets:\n");
      for (const std::string& line : targets.lines) std::printf("  %s\n", line.c_str());
    }
    if (!targets.missed.empty()) throw CheckFailed("eval: " + targets.missed);
  });
}

}  // namespace kessel::cli
