// kessel stress: the seed's four stress tests (length, modality, emotion density, kernels) on a
// summarizer; exit code 1 when a test fails (include/kessel/summarize/stress.h).
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>

#include "cli_data.h"
#include "commands.h"
#include "exit_codes.h"
#include "kessel/summarize/eaca.h"
#include "kessel/summarize/stress.h"
#include "quiet.h"
#include "summarizer_flags.h"

namespace kessel::cli {

namespace {

struct StressCliOptions {
  InputOptions input;  // optional: the bundled samples of the model's language otherwise
  LexiconOptions lexicon;
  SummarizerFlags summarizer;
  summarize::StressOptions stress;
  std::string
      lang;  // the samples' language without --data: zh | en (default: the model's, else zh)
  bool json = false;
};

const char* mark(bool ok) { return ok ? "ok  " : "FAIL"; }

nlohmann::json to_json(const summarize::StressReport& r) {
  nlohmann::json lengths = nlohmann::json::array(), modality = nlohmann::json::array(),
                 density = nlohmann::json::array(), kernels = nlohmann::json::array();
  for (const auto& l : r.lengths)
    lengths.push_back({{"requested", l.requested},
                       {"units", l.units},
                       {"queries", l.queries},
                       {"ms", l.ms},
                       {"us_per_unit", l.us_per_unit},
                       {"peak_rss_mb", l.peak_rss_mb},
                       {"entropy_norm", l.entropy_norm},
                       {"entropy_bits", l.entropy_bits},
                       {"max_weight", l.max_weight},
                       {"summary_units", l.summary_units},
                       {"repeated", l.repeated},
                       {"attention_kernel", l.attention_kernel},
                       {"full_ms", l.full_ms},
                       {"full_summary_jaccard", l.full_summary_jaccard},
                       {"full_max_inclusion_diff", l.full_max_inclusion_diff},
                       {"problems", l.problems}});
  for (const auto& c : r.modality)
    modality.push_back({{"name", c.name}, {"what", c.what}, {"ok", c.ok}, {"detail", c.detail}});
  for (const auto& d : r.density)
    density.push_back({{"target", d.target},
                       {"density", d.density},
                       {"with_emotion", d.with_emotion},
                       {"satisfied", d.satisfied},
                       {"bound", d.bound},
                       {"kept_mentions", d.kept_mentions},
                       {"summary_units", d.summary_units},
                       {"emotional_summary_units", d.emotional_summary_units}});
  for (const auto& k : r.kernels)
    kernels.push_back({{"variant", k.variant},
                       {"keys", k.keys},
                       {"queries", k.queries},
                       {"dim", k.dim},
                       {"max_diff_weights", k.max_diff_weights},
                       {"max_diff_output", k.max_diff_output},
                       {"threads_identical", k.threads_identical},
                       {"fused_ms", k.fused_ms},
                       {"reference_ms", k.reference_ms}});
  return {
      {"scorer", r.scorer},
      {"kernel_variant", r.kernel_variant},
      {"base_dialogues", r.base_dialogues},
      {"passed", r.passed()},
      {"length",
       {{"rows", lengths},
        {"entropy_measured", r.entropy_measured},
        {"entropy_change", r.entropy_change},
        {"entropy_units", {r.entropy_from, r.entropy_to}},
        {"entropy_ok", r.length_entropy_ok}}},
      {"modality", modality},
      {"density",
       {{"rows", density}, {"slope", r.density_slope}, {"r2", r.density_r2}, {"ok", r.density_ok}}},
      {"kernels", {{"rows", kernels}, {"ok", r.kernels_ok}}}};
}

void print_text(const summarize::StressReport& r, const std::string& base, double tolerance) {
  std::printf("kessel stress: %s scorer, %zu base dialogues (%s), attention kernels %s\n\n",
              r.scorer.c_str(), r.base_dialogues, base.c_str(), r.kernel_variant.c_str());
  std::printf(
      "1. LENGTH (one thread; entropy of the attention rows, normalized by ln of the keys they "
      "see)\n");
  std::printf("  %7s %6s %7s %10s %9s %9s %8s %8s %8s %5s\n", "units", "rows", "summary", "ms",
              "us/unit", "peak MB", "H/ln n", "H bits", "max w", "");
  for (const auto& l : r.lengths) {
    std::printf("  %7d %6d %7d %10.2f %9.2f %9.1f", l.units, l.queries, l.summary_units, l.ms,
                l.us_per_unit, l.peak_rss_mb);
    if (l.entropy_norm >= 0)
      std::printf(" %8.3f %8.2f %8.4f", l.entropy_norm, l.entropy_bits, l.max_weight);
    else
      std::printf(" %8s %8s %8s", "-", "-", "-");
    std::printf(" %s%s%s%s\n", mark(l.problems.empty()), l.repeated ? " (base repeated)" : "",
                l.problems.empty() ? "" : " ", l.problems.c_str());
    if (!l.attention_kernel.empty()) std::printf("          EACA attention kernel: %s", l.attention_kernel.c_str());
    if (l.full_ms >= 0)
      std::printf("; full attention %.2f ms, summary units in common %.3f, max |inclusion diff| %.4f",
                  l.full_ms, l.full_summary_jaccard, l.full_max_inclusion_diff);
    if (!l.attention_kernel.empty()) std::printf("\n");
  }
  if (r.entropy_measured)
    std::printf("  %s normalized entropy %+.1f%% from %d to %d units (the seed's bound: %.0f%%)\n",
                mark(r.length_entropy_ok), 100 * r.entropy_change, r.entropy_from, r.entropy_to,
                100 * tolerance);
  else if (r.lengths.front().entropy_norm < 0)
    std::printf(
        "  entropy not measured: the scorer has no attention map\n");  // (Lead, Longest, LexRank)
  else
    std::printf(
        "  entropy change not measured: fewer than two lengths fit in the base dialogues without "
        "repeating "
        "them (give --data a larger file)\n");

  std::printf(
      "\n2. MODALITY (finite scores and features, a summary, the constraint, offsets inside "
      "turns)\n");
  for (const auto& c : r.modality)
    std::printf("  %s %-16s %s: %s\n", mark(c.ok), c.name.c_str(), c.what.c_str(),
                c.detail.c_str());

  std::printf(
      "\n3. EMOTION DENSITY (an emotion phrase added to a growing share of customer units)\n");
  std::printf("  %7s %8s %10s %9s %7s %8s %8s %10s\n", "target", "density", "emotional", "kept",
              "bound", "mentions", "units", "emo units");
  for (const auto& d : r.density)
    std::printf("  %6.0f%% %7.1f%% %9.1f%% %8.1f%% %6.1f%% %8.2f %8.2f %9.1f%%\n", 100 * d.target,
                100 * d.density, 100 * d.with_emotion, 100 * d.satisfied, 100 * d.bound,
                d.kept_mentions, d.summary_units, 100 * d.emotional_summary_units);
  std::printf(
      "  %s constraint kept at every level; mentions in the summary = %.2f x density + c (R^2 "
      "%.3f)\n",
      mark(r.density_ok), r.density_slope, r.density_r2);

  std::printf(
      "\n4. KERNELS (EACA-shaped attention: the fused tiles of every SIMD variant this CPU runs against\n"
      "   the double-precision reference; the other tests ran %s)\n",
      r.kernel_variant.c_str());
  std::printf("  %-10s %7s %6s %12s %12s %8s %10s %12s\n", "variant", "keys", "rows", "max |dw|",
              "max |dout|", "threads", "fused ms", "reference ms");
  for (const auto& k : r.kernels)
    std::printf("  %-10s %7d %6d %12.2e %12.2e %8s %10.2f %12.2f\n", k.variant.c_str(), k.keys, k.queries,
                k.max_diff_weights, k.max_diff_output, k.threads_identical ? "same" : "DIFFER",
                k.fused_ms, k.reference_ms);
  std::printf("  %s differences within 1e-4 and thread counts bit-identical\n", mark(r.kernels_ok));
  std::printf("\n%s\n", r.passed() ? "all stress tests passed" : "some stress tests FAILED");
}

}  // namespace

void add_stress_command(CLI::App& app) {
  auto options = std::make_shared<StressCliOptions>();
  CLI::App* cmd = app.add_subcommand(
      "stress",
      "The seed's four stress tests on a summarizer: length, modality, emotion density, kernels");
  add_input_options(*cmd, options->input, "--data");
  cmd->get_option("--data")->required(false)->description(
      "Base dialogues for the length and density tests (default: the bundled samples of --lang)");
  cmd->add_option("--lang", options->lang,
                  "Language of the bundled samples without --data: zh | en "
                  "(default: the model's, else zh)")
      ->check(CLI::IsMember({"zh", "en"}));
  add_lexicon_options(*cmd, options->lexicon);
  add_summarizer_flags(*cmd, options->summarizer);
  cmd->add_option("--lengths", options->stress.lengths, "Dialogue lengths in units")
      ->delimiter(',')
      ->check(CLI::Range(1, summarize::kMaxStressLength));
  cmd->add_option("--densities", options->stress.densities,
                  "Shares of customer units with an emotion")
      ->delimiter(',')
      ->check(CLI::Range(0.0, 1.0));
  cmd->add_option("--min-seconds", options->stress.min_seconds,
                  "Time per length (repeats until spent)")
      ->check(CLI::Range(0.0, 600.0));
  cmd->add_option("--entropy-tolerance", options->stress.entropy_tolerance,
                  "Largest relative change of the normalized attention entropy across lengths (the "
                  "seed's 0.15)")
      ->check(CLI::Range(0.0, 10.0));
  cmd->add_option("--threads", options->stress.kernel_threads,
                  "Threads compared with one in the kernel test")
      ->check(CLI::Range(1, 256));
  cmd->add_flag("--json", options->json, "Print JSON");
  cmd->callback([options, cmd] {
    auto& o = *options;
    const text::Lexicon lexicon = load_lexicon(o.lexicon);
    const summarize::Summarizer summarizer =
        summarize::make_summarizer(summarizer_options(o.summarizer, *cmd), lexicon);
    if (o.input.path.empty()) {
      std::string lang = o.lang;
      if (lang.empty()) {
        lang = "zh";
        if (const auto* model =
                dynamic_cast<const summarize::EacaModel*>(summarizer.scorer.get())) {
          const auto it = model->metadata().find("languages");
          if (it != model->metadata().end() && it->second == "en") lang = "en";
        }
      }
      o.input.path = bundled_samples_path(lang, "stress: ");
    } else if (!o.lang.empty()) {
      throw UsageError("--lang chooses the bundled samples; it cannot be used with --data");
    }
    const text::ReadResult input = read_input(o.input);
    warn_language(*summarizer.scorer, input.dialogues);
    const summarize::StressReport report =
        summarize::run_stress(input.dialogues, lexicon, summarizer, o.stress,
                              [](const std::string& line) { note("stress: %s\n", line.c_str()); });
    if (o.json) {
      nlohmann::json j = to_json(report);
      j["data"] = o.input.path;
      std::cout << j.dump(2) << '\n';
    } else {
      print_text(report, o.input.path, o.stress.entropy_tolerance);
    }
    if (!report.passed())
      throw CheckFailed("stress: some stress tests failed (the report says which)");
  });
}

}  // namespace kessel::cli
