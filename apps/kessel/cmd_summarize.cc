// kessel summarize: one JSON object per input dialogue, in input order.
#include <algorithm>
#include <cstdio>
#include <exception>
#include <fstream>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <vector>

#include "cli_data.h"
#include "commands.h"
#include "kessel/error.h"
#include "kessel/summarize/summarizer.h"
#include "kessel/summarize/summary.h"
#include "kessel/summarize/summary_json.h"
#include "kessel/text/utf8.h"
#include "quiet.h"
#include "report_html.h"
#include "summarizer_flags.h"
#include "util/atomic_file.h"
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
  int threads = 1;
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

// Says on standard error what became of --output when an error ends the command before it is
// written (the error itself is printed by main).
class NoteIfNotWritten {
 public:
  explicit NoteIfNotWritten(const std::optional<util::AtomicFile>& file)
      : file_(file), exceptions_(std::uncaught_exceptions()) {}
  ~NoteIfNotWritten() {
    if (armed_ && file_ && std::uncaught_exceptions() > exceptions_)
      std::fprintf(stderr, "kessel: %s\n", file_->not_written_note().c_str());
  }
  void disarm() { armed_ = false; }

 private:
  const std::optional<util::AtomicFile>& file_;
  int exceptions_;
  bool armed_ = true;
};

}  // namespace

void add_summarize_command(CLI::App& app) {
  auto options = std::make_shared<SummarizeOptions>();
  CLI::App* cmd = app.add_subcommand(
      "summarize", "Summarize customer-service dialogues, keeping the customer's emotion words");
  add_input_options(*cmd, options->input);
  add_lexicon_options(*cmd, options->lexicon);
  cmd->add_option("--output,-o", options->output, "Output JSONL (default, or '-': standard output)");
  add_summarizer_flags(*cmd, options->summarizer);
  cmd->add_flag("--explain", options->explain,
                "Add the attention map to each record (dialogues of up to 512 sentences; otherwise "
                "\"attention_omitted\" says why)");
  cmd->add_flag("--pretty", options->pretty, "Readable text instead of JSON lines");
  cmd->add_option("--html", options->html,
                  "Also write a review page: highlighted emotions, summary-to-turn links, attention map");
  cmd->add_option("--threads", options->threads,
                  "Dialogues summarized at once (each on one thread); the output is the same, in input order")
      ->capture_default_str()
      ->check(CLI::Range(1, 1024));
  cmd->callback([options, cmd] {
    const auto& o = *options;
    const text::Lexicon lexicon = load_lexicon(o.lexicon);
    const text::ReadResult input = read_input(o.input);
    const summarize::Summarizer summarizer = summarize::make_summarizer(summarizer_options(o.summarizer, *cmd), lexicon);
    warn_language(*summarizer.scorer, input.dialogues);

    // --output appears whole or not at all (a temporary beside it, renamed at the end): a refused
    // record or a full disk leaves the previous file as it was, and says so.
    const bool to_stdout = o.output.empty() || o.output == "-";
    std::optional<util::AtomicFile> file;
    if (!to_stdout) file.emplace(o.output, "--output " + o.output);
    std::ostream& out = to_stdout ? std::cout : file->stream();
    Progress progress("summarize", static_cast<std::int64_t>(input.dialogues.size()),
                      progress_stream());
    std::int64_t done = 0, unsatisfied = 0, refused = 0, unsupported = 0;
    const bool skip = text::parse_on_error(o.input.on_error) == text::OnError::skip;
    HtmlReport report;
    // Blocks of dialogues are summarized in parallel, then written in input order; each dialogue's
    // work is single-threaded, so the output does not depend on --threads.
    const std::size_t n = input.dialogues.size(), block = 64 * static_cast<std::size_t>(o.threads);
    NoteIfNotWritten note(file);
    for (std::size_t b0 = 0; b0 < n; b0 += block) {
      const std::size_t b1 = std::min(n, b0 + block);
      std::vector<std::optional<summarize::Summarized>> results(b1 - b0);
      std::vector<std::exception_ptr> errors(b1 - b0);
#pragma omp parallel for schedule(dynamic) num_threads(o.threads)
      for (std::size_t i = b0; i < b1; ++i) {
        try {
          results[i - b0] = summarizer.run(input.dialogues[i], lexicon);
        } catch (...) {
          errors[i - b0] = std::current_exception();
        }
      }
      for (std::size_t i = b0; i < b1; ++i) {
        if (errors[i - b0]) {
          // A dialogue the summarizer refuses (InvalidArgument: one too long for the graph rankers)
          // is a bad record like any other: --on-error skip reports it, counts it and goes on.
          if (!skip) std::rethrow_exception(errors[i - b0]);
          try {
            std::rethrow_exception(errors[i - b0]);
          } catch (const InvalidArgument& e) {
            std::fprintf(stderr, "skipped %s:%ld: %s\n", o.input.path.c_str(), input.dialogues[i].line,
                         text::sanitize_utf8(e.what()).c_str());
            ++refused;
            progress.update(++done);
            continue;
          }
        }
        const auto& [p, scores, s] = *results[i - b0];
        unsatisfied += s.constraint_satisfied ? 0 : 1;
        unsupported += static_cast<std::int64_t>(s.unsupported_languages.size());
        if (o.pretty) print_pretty(out, p, s);
        else out << summarize::summary_to_json(p, s, o.explain ? &scores : nullptr).dump() << '\n';
        if (!o.html.empty()) report.add(p, s, scores);
        progress.update(++done);
      }
    }
    progress.finish(std::to_string(unsatisfied) + " without a kept emotion" +
                    (unsupported > 0 ? ", " + std::to_string(unsupported) +
                                           " turns in a language without a lexicon (no emotions detected there; "
                                           "\"unsupported_languages\" in each record)"
                                     : "") +
                    (refused > 0 ? ", " + std::to_string(refused) + (refused == 1 ? " dialogue" : " dialogues") +
                                       " skipped (--on-error skip)"
                                 : ""));
    if (refused == static_cast<std::int64_t>(n))
      throw InvalidArgument(o.input.path + ": every dialogue was skipped (" + std::to_string(refused) + ")");
    note.disarm();  // commit()'s own errors say what became of the file
    if (file) file->commit();
    else if (!out.flush()) throw IoError("standard output: write failed");
    if (!o.html.empty()) report.write(o.html);
  });
}

}  // namespace kessel::cli
