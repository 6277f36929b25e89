// kessel summarize: one JSON object per input dialogue, in input order.
#include <cstdio>
#include <fstream>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>

#include "cli_data.h"
#include "commands.h"
#include "report_html.h"
#include "summarizer_flags.h"
#include "kessel/error.h"
#include "kessel/summarize/summarizer.h"
#include "kessel/summarize/summary.h"
#include "kessel/summarize/summary_json.h"
#include "util/progress.h"

namespace kessel::cli {

namespace {

struct SummarizeOptions {
  InputOptions input;
  LexiconOptions lexicon;
  std::string output;
  SummarizerFlags summarizer;
  bool explain = false;
  bool pretty = false;
  std::string html;
};

// A reader's view of one result: the summary, then each customer emotion and where it came from.
void print_pretty(std::ostream& out, const summarize::Prepared& p, const summarize::Summary& s) {
  out << "== " << s.id << " (" << p.units.size() << " sentences, "
      << (p.dialogue ? p.dialogue->turns.size() : 0) << " turns)\n";
  out << s.summary << "\n";
  for (const auto& e : s.emotions)
    out << "  emotion " << e.emotion << " \"" << e.term << "\" turn " << e.turn << " [" << e.start
        << ", " << e.end << ")" << (e.in_summary ? " kept" : "") << "\n";
  out << "  constraint " << (s.constraint_satisfied ? "satisfied" : "NOT satisfied") << "\n";
}

}  // namespace

void add_summarize_command(CLI::App& app) {
  auto options = std::make_shared<SummarizeOptions>();
  CLI::App* cmd = app.add_subcommand(
      "summarize", "Summarize customer-service dialogues, keeping the customer's emotion words");
  add_input_options(*cmd, options->input);
  add_lexicon_options(*cmd, options->lexicon);
  cmd->add_option("--output,-o", options->output, "Output JSONL (default, or '-': standard output)");
  add_summarizer_flags(*cmd, options->summarizer);
  cmd->add_flag("--explain", options->explain, "Add the attention map to each record");
  cmd->add_flag("--pretty", options->pretty, "Readable text instead of JSON lines");
  cmd->add_option("--html", options->html,
                  "Also write a review page: highlighted emotions, summary-to-turn links, attention map");
  cmd->callback([options, cmd] {
    const auto& o = *options;
    const text::Lexicon lexicon = load_lexicon(o.lexicon);
    const text::ReadResult input = read_input(o.input);
    const summarize::Summarizer summarizer = summarize::make_summarizer(summarizer_options(o.summarizer, *cmd), lexicon);

    std::ofstream file;
    const bool to_stdout = o.output.empty() || o.output == "-";
    if (!to_stdout) {
      file.open(o.output);
      if (!file) throw IoError("--output " + o.output + ": cannot open for writing");
    }
    std::ostream& out = to_stdout ? std::cout : file;
    Progress progress("summarize", static_cast<std::int64_t>(input.dialogues.size()));
    std::int64_t done = 0, unsatisfied = 0;
    HtmlReport report;
    for (const auto& dialogue : input.dialogues) {
      const auto [p, scores, s] = summarizer.run(dialogue, lexicon);
      unsatisfied += s.constraint_satisfied ? 0 : 1;
      if (o.pretty) print_pretty(out, p, s);
      else out << summarize::summary_to_json(p, s, o.explain ? &scores : nullptr).dump() << '\n';
      if (!o.html.empty()) report.add(p, s, scores);
      progress.update(++done);
    }
    if (!out) throw IoError("--output " + o.output + ": write failed");
    progress.finish(std::to_string(unsatisfied) + " without a kept emotion");
    if (!o.html.empty()) report.write(o.html);
  });
}

}  // namespace kessel::cli
