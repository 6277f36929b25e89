// kessel analyze: the four constraint quadrants of a dialogue file (compute, data, cognitive, physical).
#include <cstdio>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>

#include "cli_data.h"
#include "commands.h"
#include "kessel/summarize/analyze.h"
#include "quiet.h"
#include "summarizer_flags.h"
#include "util/progress.h"

namespace kessel::cli {

namespace {

struct AnalyzeOptions {
  InputOptions input;
  LexiconOptions lexicon;
  SummarizerFlags summarizer;  // --model or --ranker, and the budget overrides, as in kessel summarize
  bool json = false;
};

nlohmann::json to_json(const summarize::Analysis& a) {
  nlohmann::json stages = nlohmann::json::array();
  for (const auto& s : a.stages)
    stages.push_back({{"stage", s.stage}, {"total_ms", s.total_ms}, {"per_dialogue_ms", s.per_dialogue_ms},
                      {"gflop", s.gflop}});
  nlohmann::json terms = nlohmann::json::array();
  for (const auto& [term, count] : a.top_terms) terms.push_back({{"term", term}, {"count", count}});
  return {{"dialogues", a.dialogues},
          {"turns", a.turns},
          {"units", a.units},
          {"compute", {{"scorer", a.scorer}, {"stages", stages}, {"attention_kernels", a.attention_kernels}}},
          {"data",
           {{"tokens", a.tokens},
            {"vocabulary", a.vocabulary},
            {"token_entropy_bits", a.token_entropy_bits},
            {"units_per_dialogue_mean", a.units_per_dialogue_mean},
            {"units_per_dialogue_max", a.units_per_dialogue_max},
            {"customer_unit_share", a.customer_unit_share},
            {"with_references", a.with_references},
            {"oracle_positive_share", a.oracle_positive_share},
            {"dialogues_with_customer_emotion", a.dialogues_with_customer_emotion},
            {"emotion_counts", a.emotion_counts},
            {"top_terms", terms}}},
          {"cognitive",
           {{"enforced", a.enforced},
            {"constraint_binds", a.constraint_binds},
            {"constraint_satisfied", a.constraint_satisfied},
            {"budget_binds", a.budget_binds}}},
          {"physical",
           {{"token_kinds", a.token_kinds},
            {"turns_with_emoji", a.turns_with_emoji},
            {"dialogues_with_times", a.dialogues_with_times},
            {"time_span_s", {a.time_span_s_min, a.time_span_s_max}},
            {"turn_chars_mean", a.turn_chars_mean},
            {"turn_chars_max", a.turn_chars_max}}}};
}

void print_text(const summarize::Analysis& a, const std::string& path, std::size_t skipped) {
  std::printf("%s: %zu dialogues, %zu turns, %zu sentence units", path.c_str(), a.dialogues, a.turns, a.units);
  if (skipped > 0) std::printf("; %zu records skipped (--on-error skip)", skipped);
  std::printf("\n\n");
  std::printf("COMPUTE (%s, one thread)\n", a.scorer.c_str());
  for (const auto& s : a.stages) {
    char gflop[48] = "";
    if (s.gflop > 0) std::snprintf(gflop, sizeof gflop, "  %.4f GFLOP", s.gflop);
    std::printf("  %-60s %9.3f ms/dialogue  %10.1f ms total%s\n", s.stage.c_str(), s.per_dialogue_ms,
                s.total_ms, gflop);
  }
  for (const auto& [kernel, count] : a.attention_kernels)  // kessel/attention_choice.h
    std::printf("  EACA attention kernel %s: %zu dialogues\n", kernel.c_str(), count);
  std::printf("\nDATA\n  tokens %zu, vocabulary %zu, token entropy %.2f bits\n", a.tokens, a.vocabulary,
              a.token_entropy_bits);
  std::printf("  units per dialogue: mean %.1f, max %zu; customer share %.1f%%\n", a.units_per_dialogue_mean,
              a.units_per_dialogue_max, 100 * a.customer_unit_share);
  if (a.with_references)
    std::printf("  label balance: the greedy oracle selects %.1f%% of units (%zu dialogues with references)\n",
                100 * a.oracle_positive_share, a.with_references);
  std::printf("  dialogues with an expressed customer emotion: %.1f%%\n", 100 * a.dialogues_with_customer_emotion);
  std::printf("  emotions:");
  for (const auto& [e, c] : a.emotion_counts) std::printf(" %s %zu", e.c_str(), c);
  std::printf("\n  top terms:");
  for (const auto& [t, c] : a.top_terms) std::printf(" %s(%zu)", t.c_str(), c);
  std::printf("\n\nCOGNITIVE (constraints enforced and how often they bind)\n");
  std::printf("  emotion constraint (hard): binds in %.1f%% of dialogues, satisfied in %.1f%%\n",
              100 * a.constraint_binds, 100 * a.constraint_satisfied);
  std::printf("  sentence budget: binds in %.1f%% (more units than the budget)\n", 100 * a.budget_binds);
  std::printf("  enforced:");
  for (std::size_t i = 0; i < a.enforced.size(); ++i) std::printf("%s %s", i ? ";" : "", a.enforced[i].c_str());
  std::printf("\n");
  std::printf("\nPHYSICAL (modalities)\n  token kinds:");
  for (const auto& [k, c] : a.token_kinds) std::printf(" %s %zu", k.c_str(), c);
  std::printf("\n  turns with emoji %.1f%%; dialogues with times %.1f%%", 100 * a.turns_with_emoji,
              100 * a.dialogues_with_times);
  if (a.dialogues_with_times > 0)
    std::printf(" (duration %.0f..%.0f s)", a.time_span_s_min, a.time_span_s_max);
  std::printf("\n  turn length: mean %.1f, max %zu characters\n", a.turn_chars_mean, a.turn_chars_max);
}

}  // namespace

void add_analyze_command(CLI::App& app) {
  auto options = std::make_shared<AnalyzeOptions>();
  CLI::App* cmd = app.add_subcommand(
      "analyze", "The four constraint quadrants of a dialogue file: compute, data, cognitive, physical");
  add_input_options(*cmd, options->input, "--data");
  add_lexicon_options(*cmd, options->lexicon);
  add_summarizer_flags(*cmd, options->summarizer);
  cmd->add_flag("--json", options->json, "Print JSON");
  cmd->callback([options, cmd] {
    const auto& o = *options;
    const text::Lexicon lexicon = load_lexicon(o.lexicon);
    const summarize::Summarizer summarizer =
        summarize::make_summarizer(summarizer_options(o.summarizer, *cmd), lexicon);
    const text::ReadResult input = read_input(o.input);
    warn_language(*summarizer.scorer, input.dialogues);
    Progress progress("analyze", static_cast<std::int64_t>(input.dialogues.size()),
                      progress_stream());
    const summarize::Analysis a =
        summarize::analyze(input.dialogues, lexicon, *summarizer.scorer, summarizer.decode, 15,
                           [&](std::size_t done) { progress.update(static_cast<std::int64_t>(done)); });
    progress.finish();
    // The records --on-error skip left out belong in the report, not only on stderr.
    if (o.json) {
      nlohmann::json j = to_json(a);
      j["input"] = o.input.path;  // ("data" is the data quadrant)
      j["format"] = text::to_string(input.format);
      j["skipped"] = input.skipped.size();
      std::cout << j.dump(2) << '\n';
    } else {
      print_text(a, o.input.path, input.skipped.size());
    }
  });
}

}  // namespace kessel::cli
