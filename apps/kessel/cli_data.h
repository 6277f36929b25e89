// Shared by the CLI commands that read dialogues (summarize, eval, analyze, train): where the default
// lexicon lives, how external lexicons are added, and how a dialogue file is read with its skipped
// records reported.
#pragma once

#include <CLI/CLI.hpp>
#include <string>
#include <vector>

#include "kessel/summarize/summary.h"
#include "kessel/text/dialogue.h"
#include "kessel/text/lexicon.h"

namespace kessel::cli {

struct LexiconOptions {
  std::string dir;                  // --lexicon-dir: holds default_{zh,en,emoji}.tsv
  std::vector<std::string> extra;   // --lexicon KIND=PATH (dutir, nrc, emoji-sentiment, emoji-emotion, emoticon, tsv)
};
void add_lexicon_options(CLI::App& cmd, LexiconOptions& options);

// The project's default lexicon directory: --lexicon-dir, else $KESSEL_HOME/data/lexicon, else the
// installed <prefix>/share/kessel/lexicon (found from bin/kessel's own place), else, for the binary
// in its build tree only, the source tree's data/lexicon. Throws IoError listing the places tried.
std::string default_lexicon_dir(const std::string& given);
// The bundled sample dialogues data/samples/dialogues_<lang>.jsonl, searched like the lexicon
// ($KESSEL_HOME/data, <prefix>/share/kessel, the build tree's source). IoError naming every path
// tried, prefixed by `context`.
std::string bundled_samples_path(const std::string& lang, const std::string& context);
// The default lexicon plus each --lexicon in order; load reports go to stderr.
text::Lexicon load_lexicon(const LexiconOptions& options);

struct InputOptions {
  std::string path;
  std::string format;    // empty: detect
  std::string on_error = "fail";
};
void add_input_options(CLI::App& cmd, InputOptions& options, const std::string& flag = "--input");
// --format and --on-error as ReadOptions.
text::ReadOptions read_options(const InputOptions& options);
// Prints each skipped record and each warning of `read` to stderr.
void report_read(const text::ReadResult& read);
// Reads the file; with on_error=skip prints each skipped record and a count to stderr.
text::ReadResult read_input(const InputOptions& options);

// Prints summarize::language_warning for `scorer` on `dialogues` to stderr ("warning: LABEL: ..."
// when a label is given), or nothing when there is none.
void warn_language(const summarize::Scorer& scorer, const std::vector<text::Dialogue>& dialogues,
                   const std::string& label = "");
// The two halves of it for a stream: the warning that Chinese words come from the built-in table
// (when `langs` has Chinese), and summarize::language_warning from counts over `dialogues` in all.
void warn_builtin_segmenter(const summarize::LangCounts& langs);
void warn_language(const summarize::Scorer& scorer, const summarize::LangCounts& langs,
                   std::size_t dialogues, const std::string& label = "");

}  // namespace kessel::cli
