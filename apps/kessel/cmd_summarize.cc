// kessel summarize: one JSON object per input dialogue, in input order, streamed.
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
#include "kessel/text/dialogue_stream.h"
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

// Where the dialogues come from: the --input file, or standard input for '-'.
class InputSource {
 public:
  explicit InputSource(const std::string& path) : name_(path == "-" ? "<stdin>" : path) {
    if (path == "-") return;
    file_.open(path, std::ios::binary);
    if (!file_) throw IoError("read_dialogues: cannot open '" + path + "'");
  }
  std::istream& stream() { return file_.is_open() ? file_ : std::cin; }
  const std::string& name() const { return name_; }
  // Non-blank lines of the file (a JSONL file's records), for the progress bar; 0 (unknown) for
  // standard input.
  std::int64_t count_lines() const {
    if (!file_.is_open()) return 0;
    std::ifstream in(name_, std::ios::binary);
    std::int64_t n = 0;
    for (std::string line; std::getline(in, line);)
      n += line.find_first_not_of(" \t\r") != std::string::npos ? 1 : 0;
    return n;
  }

 private:
  std::string name_;
  std::ifstream file_;
};

struct SummarizeCounts {
  std::int64_t read = 0, skipped_records = 0, done = 0, unsatisfied = 0, refused = 0, unsupported = 0;
  summarize::LangCounts langs;

  std::string finish_line() const {
    return std::to_string(unsatisfied) + " without a kept emotion" +
           (unsupported > 0 ? ", " + std::to_string(unsupported) +
                                  " turns in a language without a lexicon (no emotions detected there; "
                                  "\"unsupported_languages\" in each record)"
                            : "") +
           (refused > 0 ? ", " + std::to_string(refused) + (refused == 1 ? " dialogue" : " dialogues") +
                              " skipped (--on-error skip)"
                        : "");
  }
};

// Summarizes one block of dialogues in parallel (each dialogue's work single-threaded, so the output
// does not depend on --threads) and writes the records in input order.
void summarize_block(const SummarizeOptions& o, const summarize::Summarizer& summarizer,
                     const text::Lexicon& lexicon, const std::vector<text::Dialogue>& dialogues,
                     std::ostream& out, HtmlReport& report, SummarizeCounts& counts, Progress& progress) {
  const std::size_t n = dialogues.size();
  std::vector<std::optional<summarize::Summarized>> results(n);
  std::vector<std::exception_ptr> errors(n);
#pragma omp parallel for schedule(dynamic) num_threads(o.threads)
  for (std::size_t i = 0; i < n; ++i) {
    try {
      // The attention map only for the output that shows it (--explain, --html).
      results[i] = summarizer.run(dialogues[i], lexicon, o.explain || !o.html.empty());
    } catch (...) {
      errors[i] = std::current_exception();
    }
  }
  const bool skip = text::parse_on_error(o.input.on_error) == text::OnError::skip;
  for (std::size_t i = 0; i < n; ++i) {
    if (errors[i]) {
      // A dialogue the summarizer refuses (InvalidArgument: one too long for the graph rankers) is a
      // bad record like any other: --on-error skip reports it, counts it and goes on.
      if (!skip) std::rethrow_exception(errors[i]);
      try {
        std::rethrow_exception(errors[i]);
      } catch (const InvalidArgument& e) {
        std::fprintf(stderr, "skipped %s:%ld: %s\n", o.input.path.c_str(), dialogues[i].line,
                     text::sanitize_utf8(e.what()).c_str());
        ++counts.refused;
        progress.update(++counts.done + counts.skipped_records);
        continue;
      }
    }
    const auto& [p, scores, s] = *results[i];
    counts.unsatisfied += s.constraint_satisfied ? 0 : 1;
    counts.unsupported += static_cast<std::int64_t>(s.unsupported_languages.size());
    if (o.pretty) print_pretty(out, p, s);
    else if (!o.explain) out << summarize::summary_json_text(p, s) << '\n';
    else out << summarize::summary_to_json(p, s, &scores).dump() << '\n';
    if (!o.html.empty()) report.add(p, s, scores);
    progress.update(++counts.done + counts.skipped_records);
  }
}

// The input is read a block at a time (DialogueStream) and each block's records are written, and
// flushed to standard output, before the next is read: memory stays bounded and the command works
// in a pipe. With one thread a block is one dialogue, so each record follows its line at once.
void run_summarize(const SummarizeOptions& o, const CLI::App& cmd) {
  const text::Lexicon lexicon = load_lexicon(o.lexicon);
  InputSource source(o.input.path);
  text::DialogueStream stream(source.stream(), source.name(), read_options(o.input));
  const summarize::Summarizer summarizer =
      summarize::make_summarizer(summarizer_options(o.summarizer, cmd), lexicon);

  // --output appears whole or not at all (a temporary beside it, renamed at the end): a refused
  // record or a full disk leaves the previous file as it was, and says so.
  const bool to_stdout = o.output.empty() || o.output == "-";
  std::optional<util::AtomicFile> file;
  if (!to_stdout) file.emplace(o.output, "--output " + o.output);
  std::ostream& out = to_stdout ? std::cout : file->stream();
  NoteIfNotWritten note(file);
  const std::size_t block = o.threads == 1 ? 1 : 8 * static_cast<std::size_t>(o.threads);
  std::optional<Progress> progress;
  SummarizeCounts counts;
  HtmlReport report;
  while (!stream.done()) {
    const text::ReadResult batch = stream.next(block);
    report_read(batch);
    counts.read += static_cast<std::int64_t>(batch.dialogues.size());
    counts.skipped_records += static_cast<std::int64_t>(batch.skipped.size());
    if (!progress) {  // once the format is known: a JSONL file's lines are its records
      const bool jsonl = stream.format() != text::DialogueFormat::transcript;
      progress.emplace("summarize", jsonl ? source.count_lines() : 0, progress_stream());
    }
    const summarize::LangCounts langs = summarize::count_langs(batch.dialogues);
    if (langs.zh > 0 && counts.langs.zh == 0) warn_builtin_segmenter(langs);
    counts.langs.zh += langs.zh;
    counts.langs.en += langs.en;
    summarize_block(o, summarizer, lexicon, batch.dialogues, out, report, counts, *progress);
    if (to_stdout && !out.flush()) throw IoError("standard output: write failed");
  }
  if (counts.skipped_records > 0)
    std::fprintf(stderr, "%s: %lld dialogues read, %lld records skipped\n", o.input.path.c_str(),
                 static_cast<long long>(counts.read), static_cast<long long>(counts.skipped_records));
  if (counts.read == 0)  // "nothing to do" would hide a wrong file
    throw InvalidArgument(o.input.path + ": no dialogues (" +
                          std::to_string(counts.read + counts.skipped_records) + " non-empty lines, " +
                          std::to_string(counts.skipped_records) + " skipped)");
  warn_language(*summarizer.scorer, counts.langs, static_cast<std::size_t>(counts.read));
  progress->finish(counts.finish_line());
  if (counts.refused == counts.read)
    throw InvalidArgument(o.input.path + ": every dialogue was skipped (" + std::to_string(counts.refused) + ")");
  note.disarm();  // commit()'s own errors say what became of the file
  if (file) file->commit();
  if (!o.html.empty()) report.write(o.html);
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
  cmd->callback([options, cmd] { run_summarize(*options, *cmd); });
}

}  // namespace kessel::cli
