#include "cli_data.h"

#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <sstream>
#include <string>

#include "exit_codes.h"
#include "kessel/error.h"
#include "kessel/summarize/eaca.h"
#include "kessel/text/segment.h"
#include "kessel/text/utf8.h"
#include "quiet.h"

namespace kessel::cli {

namespace fs = std::filesystem;

void add_lexicon_options(CLI::App& cmd, LexiconOptions& options) {
  cmd.add_option("--lexicon-dir", options.dir,
                 "Directory of the default lexicon (default_zh.tsv, default_en.tsv, default_emoji.tsv)");
  cmd.add_option("--lexicon", options.extra,
                 "Extra lexicon KIND=PATH, KIND one of dutir, nrc, emoji-sentiment, emoji-emotion, "
                 "emoticon, tsv (repeatable; loaded after the default lexicon)");
}

namespace {

// The directories that may hold kessel's data (lexicon/, samples/), in search order:
// $KESSEL_HOME/data; the installed <prefix>/share/kessel beside <prefix>/bin/kessel; and, only for
// the binary still in the build tree it was built in, the source tree's data/ (an installed binary
// never reads the checkout it came from).
std::vector<fs::path> data_roots() {
  std::vector<fs::path> roots;
  if (const char* home = std::getenv("KESSEL_HOME")) roots.push_back(fs::path(home) / "data");
  std::error_code ec;
  const fs::path exe_dir = fs::read_symlink("/proc/self/exe", ec).parent_path();
  if (ec) return roots;
  roots.push_back((exe_dir / KESSEL_DATA_FROM_BIN).lexically_normal());
  if (fs::equivalent(exe_dir, KESSEL_BUILD_BIN_DIR, ec))
    roots.push_back(fs::path(KESSEL_SOURCE_DIR) / "data");
  return roots;
}

}  // namespace

std::string default_lexicon_dir(const std::string& given) {
  std::vector<std::string> candidates;
  for (const fs::path& root : data_roots()) candidates.push_back((root / "lexicon").string());
  return text::find_default_lexicon_dir(given, candidates, "--lexicon-dir");
}

std::string bundled_samples_path(const std::string& lang, const std::string& context) {
  const std::string name = "dialogues_" + lang + ".jsonl";
  std::string tried;
  for (const fs::path& root : data_roots()) {
    const fs::path path = root / "samples" / name;
    if (fs::exists(path)) return path.string();
    tried += " " + path.string();
  }
  throw IoError(context + "bundled samples " + name + " not found (tried" + tried +
                "); pass --data or set KESSEL_HOME");
}

text::Lexicon load_lexicon(const LexiconOptions& options) {
  text::Lexicon lexicon = text::load_default_lexicon(default_lexicon_dir(options.dir));
  for (const auto& spec : options.extra) {
    const auto eq = spec.find('=');
    if (eq == std::string::npos)
      throw UsageError("--lexicon: expected KIND=PATH, got '" + spec + "'");
    const std::string kind = spec.substr(0, eq), path = spec.substr(eq + 1);
    text::LoadReport report;
    if (kind == "dutir") text::add_dutir(lexicon, path, &report);
    else if (kind == "nrc") text::add_nrc_emolex(lexicon, path, &report);
    else if (kind == "emoji-sentiment") text::add_emoji_sentiment(lexicon, path, &report);
    else if (kind == "emoji-emotion") text::add_emoji_emotion_json(lexicon, path, &report);
    else if (kind == "emoticon") text::add_emoticon_json(lexicon, path, &report);
    else if (kind == "tsv") text::add_lexicon_tsv(lexicon, path, "tsv", &report);
    else
      throw UsageError("--lexicon: unknown kind '" + kind +
                       "' (dutir, nrc, emoji-sentiment, emoji-emotion, emoticon, tsv)");
    // The count is a note; skipped entries are a warning about the file and stay under --quiet.
    if (!quiet() || report.skipped > 0)
      std::fprintf(stderr, "lexicon %s: %lld entries loaded, %lld skipped\n", path.c_str(),
                   static_cast<long long>(report.loaded), static_cast<long long>(report.skipped));
    for (const auto& [reason, count] : report.skip_reasons)
      std::fprintf(stderr, "  skipped %lld: %s\n", static_cast<long long>(count), reason.c_str());
  }
  return lexicon;
}

void add_input_options(CLI::App& cmd, InputOptions& options, const std::string& flag) {
  cmd.add_option(flag, options.path, "Dialogues (JSONL: csds, tweetsumm or kessel format, or a plain-text transcript; '-': standard input)")->required();
  cmd.add_option("--format", options.format, "csds | tweetsumm | kessel | transcript (detected when omitted)")
      ->check(CLI::IsMember({"csds", "tweetsumm", "kessel", "transcript"}));
  cmd.add_option("--on-error", options.on_error, "What to do with a bad record: fail | skip")
      ->check(CLI::IsMember({"fail", "skip"}));
}

text::ReadOptions read_options(const InputOptions& options) {
  text::ReadOptions ro;
  if (!options.format.empty()) ro.format = text::parse_dialogue_format(options.format);
  ro.on_error = text::parse_on_error(options.on_error);
  return ro;
}

void report_read(const text::ReadResult& read) {
  for (const auto& s : read.skipped)
    // The reason names the file and line, and may quote the malformed record (bad bytes -> U+FFFD).
    std::fprintf(stderr, "skipped %s\n", text::sanitize_utf8(s.reason).c_str());
  for (const auto& w : read.warnings)
    std::fprintf(stderr, "warning: %s\n", text::sanitize_utf8(w.reason).c_str());
}

text::ReadResult read_input(const InputOptions& options) {
  const text::ReadOptions ro = read_options(options);
  text::ReadResult result;
  if (options.path == "-") {  // standard input, named <stdin> in errors
    std::ostringstream content;
    content << std::cin.rdbuf();
    result = text::read_dialogues_from_string(content.str(), "<stdin>", ro);
  } else {
    result = text::read_dialogues(options.path, ro);
  }
  report_read(result);
  if (!result.skipped.empty())
    std::fprintf(stderr, "%s: %zu dialogues read, %zu records skipped\n", options.path.c_str(),
                 result.dialogues.size(), result.skipped.size());
  // An empty result would pass for "nothing to do" (summarize printing nothing, analyze reporting
  // zeros as statistics); name the file instead.
  if (result.dialogues.empty())
    throw InvalidArgument(options.path + ": no dialogues (" + std::to_string(result.lines) +
                          " non-empty lines, " + std::to_string(result.skipped.size()) + " skipped)");
  return result;
}

void warn_builtin_segmenter(const summarize::LangCounts& langs) {
  // Chinese words (token deletion, the word_cut probe) come from jieba's dictionary; without it the
  // small built-in table is used, and the user is told.
  if (langs.zh > 0 && text::Segmenter::default_segmenter().source() == "builtin")
    std::fprintf(stderr,
                 "warning: Chinese word boundaries come from kessel's small built-in table: python3-jieba's "
                 "dictionary was not found (install python3-jieba or set KESSEL_JIEBA_DIR)\n");
}

void warn_language(const summarize::Scorer& scorer, const summarize::LangCounts& langs,
                   std::size_t dialogues, const std::string& label) {
  const std::string w = summarize::language_warning(scorer, langs, dialogues);
  if (w.empty()) return;
  if (label.empty()) std::fprintf(stderr, "warning: %s\n", w.c_str());
  else std::fprintf(stderr, "warning: %s: %s\n", label.c_str(), w.c_str());
}

void warn_language(const summarize::Scorer& scorer, const std::vector<text::Dialogue>& dialogues,
                   const std::string& label) {
  const summarize::LangCounts langs = summarize::count_langs(dialogues);
  warn_builtin_segmenter(langs);
  warn_language(scorer, langs, dialogues.size(), label);
}

}  // namespace kessel::cli
