// kessel rouge PRED REF [--lang zh|en|auto] [--json] [--zh-split period|none|period-eos]
// kessel lexicon expand --seeds FILE --corpus FILE [--corpus-format text|stc3] [--top N] [--json]
#include <cstdio>
#include <fstream>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "commands.h"
#include "kessel/error.h"
#include "kessel/text/lexicon_expand.h"
#include "kessel/text/rouge.h"
#include "kessel/text/utf8.h"
#include "quiet.h"
#include "util/json_strict.h"
#include "util/progress.h"

namespace kessel::cli {

namespace {

std::vector<std::string> read_lines(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw IoError("rouge: cannot open '" + path + "'");
  std::vector<std::string> lines;
  std::string line;
  long line_no = 0;
  while (std::getline(in, line)) {
    ++line_no;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (const auto bad = text::find_invalid_utf8(line)) {
      throw ParseError(path, line_no, detail::concat("line: invalid UTF-8 at byte offset ", *bad));
    }
    lines.push_back(std::move(line));
  }
  return lines;
}

// A REF line is either plain text (one reference) or a JSON array of strings (several references).
std::vector<std::string> parse_references(const std::string& line, const std::string& path,
                                          long line_no) {
  if (!line.empty() && line.front() == '[' && line.back() == ']') {
    nlohmann::json j;
    try {
      j = util::parse_json_strict(line);
    } catch (const util::JsonStructureError& e) {
      throw ParseError(path, line_no, std::string("references: ") + e.what());
    } catch (const nlohmann::json::parse_error&) {
      return {line};  // e.g. "[数字]...[地址]": text that happens to start and end with brackets
    }
    if (j.is_array()) {
      std::vector<std::string> refs;
      for (std::size_t i = 0; i < j.size(); ++i) {
        if (!j[i].is_string()) {
          throw ParseError(path, line_no, detail::concat("references[", i, "]: expected a string"));
        }
        refs.push_back(j[i].get<std::string>());
      }
      if (refs.empty()) throw ParseError(path, line_no, "references: empty JSON array");
      return refs;
    }
  }
  return {line};
}

nlohmann::json score_json(const text::RougeScores& s) {
  auto one = [](const text::RougeScore& r) {
    return nlohmann::json{{"p", r.precision * 100}, {"r", r.recall * 100}, {"f", r.f1 * 100}};
  };
  return {{"rouge1", one(s.rouge1)}, {"rouge2", one(s.rouge2)}, {"rougeL", one(s.rougeL)}};
}

void run_rouge(const std::string& pred, const std::string& ref, const std::string& lang_name,
               const std::string& split_name, bool as_json) {
  const text::ZhSplit split = text::parse_zh_split(split_name);
  const auto preds = read_lines(pred);
  const auto ref_lines = read_lines(ref);
  if (preds.size() != ref_lines.size()) {
    throw InvalidArgument(detail::concat("rouge: ", pred, " has ", preds.size(), " lines but ", ref,
                                         " has ", ref_lines.size()));
  }
  // A table of zeros over no pairs would read as a score.
  if (preds.empty()) throw InvalidArgument(detail::concat("rouge: ", pred, " and ", ref, " have no lines to score"));
  std::vector<std::vector<std::string>> refs;
  for (std::size_t i = 0; i < ref_lines.size(); ++i) {
    refs.push_back(parse_references(ref_lines[i], ref, static_cast<long>(i + 1)));
  }
  // "auto": the references decide (a zh reference scored by words, or the reverse, gives a number
  // that looks plausible and is wrong).
  std::vector<std::string> all;
  if (lang_name == "auto")
    for (const auto& r : refs) all.insert(all.end(), r.begin(), r.end());
  const text::RougeLang lang = text::resolve_rouge_lang(lang_name, all);
  const std::string lang_shown =
      std::string(text::to_string(lang)) + (lang_name == "auto" ? " (detected from " + ref + ")" : "");
  const text::RougeCorpus c = text::rouge_corpus(preds, refs, lang, split);
  if (as_json) {
    nlohmann::json j = {{"count", c.count},
                        {"lang", text::to_string(lang)},
                        {"lang_detected", lang_name == "auto"},
                        {"best", score_json(c.mean.best)},
                        {"avg", score_json(c.mean.avg)}};
    if (lang == text::RougeLang::zh) j["zh_split"] = split_name;
    std::printf("%s\n", j.dump(2).c_str());
    return;
  }
  std::printf("%zu pairs, lang %s%s\n", c.count, lang_shown.c_str(),
              lang == text::RougeLang::zh ? (", sentence split " + split_name).c_str() : "");
  std::printf("%-6s %8s %8s %8s   (F1 x100; P/R in --json)\n", "", "ROUGE-1", "ROUGE-2", "ROUGE-L");
  std::printf("%-6s %8.2f %8.2f %8.2f\n", "best", c.mean.best.rouge1.f1 * 100,
              c.mean.best.rouge2.f1 * 100, c.mean.best.rougeL.f1 * 100);
  std::printf("%-6s %8.2f %8.2f %8.2f\n", "avg", c.mean.avg.rouge1.f1 * 100,
              c.mean.avg.rouge2.f1 * 100, c.mean.avg.rougeL.f1 * 100);
}

struct ExpandArgs {
  std::string seeds, corpus, corpus_format = "text";
  text::ExpandOptions options;
  bool json = false;
};

void run_expand(const ExpandArgs& a) {
  const auto seeds = text::read_seed_file(a.seeds);
  note("lexicon expand: %zu seeds from %s\n", seeds.size(), a.seeds.c_str());
  const auto lines = text::read_corpus_lines(a.corpus, a.corpus_format);
  note("lexicon expand: %zu corpus lines from %s\n", lines.size(), a.corpus.c_str());
  std::unique_ptr<Progress> bar;
  std::string stage;
  auto progress = [&](const std::string& s, std::int64_t done, std::int64_t total) {
    if (s != stage) {
      if (bar) bar->finish();
      bar = std::make_unique<Progress>("expand " + s, total, progress_stream());
      stage = s;
    }
    bar->update(done);
  };
  const text::ExpandResult r = text::expand_lexicon(lines, seeds, a.options, progress);
  if (bar) bar->finish();
  note("lexicon expand: %zu seeds found, %zu below min count; %lld candidates scored\n",
       r.seeds_found.size(), r.seeds_missing.size(), static_cast<long long>(r.candidate_count));
  if (a.json) {
    nlohmann::json j;
    j["emotions"] = nlohmann::json::array();
    for (auto e : r.emotions) j["emotions"].push_back(text::to_string(e));
    j["seeds_found"] = r.seeds_found;
    j["seeds_missing"] = r.seeds_missing;
    j["candidates"] = nlohmann::json::array();
    for (const auto& c : r.candidates) {
      j["candidates"].push_back({{"term", c.term},
                                 {"emotion", text::to_string(c.emotion)},
                                 {"membership", c.membership},
                                 {"count", c.count},
                                 {"memberships", c.memberships}});
    }
    std::printf("%s\n", j.dump(2).c_str());
    return;
  }
  std::printf("%-4s %-16s %-13s %10s %8s\n", "rank", "term", "emotion", "membership", "count");
  for (std::size_t i = 0; i < r.candidates.size(); ++i) {
    const auto& c = r.candidates[i];
    std::printf("%-4zu %-16s %-13s %10.3f %8lld\n", i + 1, c.term.c_str(),
                text::to_string(c.emotion), c.membership, static_cast<long long>(c.count));
  }
}

}  // namespace

void add_text_commands(CLI::App& app) {
  struct RougeArgs {
    std::string pred, ref, lang = "auto", zh_split = "period";
    bool json = false;
  };
  auto rouge_args = std::make_shared<RougeArgs>();
  CLI::App* rouge = app.add_subcommand("rouge",
                                       "ROUGE-1/2/L F1 of line-aligned PRED and REF files (REF "
                                       "lines: text, or a JSON array of strings "
                                       "for several references)");
  rouge->add_option("pred", rouge_args->pred, "candidate summaries, one per line")->required();
  rouge->add_option("ref", rouge_args->ref, "references, one line per candidate")->required();
  rouge->add_option("--lang", rouge_args->lang,
                    "zh (CSDS protocol, characters) | en (words) | auto (default: zh when CJK characters are "
                    ">= 30% of the references' letters)")
      ->check(CLI::IsMember({"zh", "en", "auto"}));
  rouge
      ->add_option("--zh-split", rouge_args->zh_split,
                   "zh sentence units: period (break after 。, the default: the published CSDS protocol, "
                   "checked against the systems' released outputs) | none (whole summary) | period-eos "
                   "(break after 。 with an eos token counted; NOT the published protocol, kept only to show "
                   "the difference; docs/text.md)")
      ->check(CLI::IsMember({"period", "none", "period-eos"}));
  rouge->add_flag("--json", rouge_args->json, "print JSON (F1, precision and recall, x100)");
  rouge->callback([rouge_args] {
    run_rouge(rouge_args->pred, rouge_args->ref, rouge_args->lang, rouge_args->zh_split,
              rouge_args->json);
  });

  CLI::App* lexicon = app.add_subcommand("lexicon", "emotion lexicon tools");
  lexicon->require_subcommand(1);
  auto ea = std::make_shared<ExpandArgs>();
  CLI::App* expand = lexicon->add_subcommand(
      "expand",
      "propose emotion terms from a corpus: PPMI co-occurrence vectors + fuzzy memberships");
  expand
      ->add_option("--seeds", ea->seeds,
                   "seed terms: term<TAB>emotion per line (a lexicon TSV works)")
      ->required();
  expand->add_option("--corpus", ea->corpus, "corpus file")->required();
  expand
      ->add_option("--corpus-format", ea->corpus_format, "text (one unit per line) or stc3 (json)")
      ->check(CLI::IsMember({"text", "stc3"}));
  expand->add_option("--top", ea->options.top, "number of proposals to print")
      ->capture_default_str();
  expand->add_option("--min-count", ea->options.min_count, "minimum candidate frequency")
      ->capture_default_str();
  expand->add_option("--window", ea->options.window, "context window (units each side)")
      ->capture_default_str();
  expand->add_option("--max-ngram", ea->options.max_ngram, "longest CJK n-gram")
      ->capture_default_str();
  expand
      ->add_option("--context-vocab", ea->options.context_vocab,
                   "context features (most frequent units)")
      ->capture_default_str();
  expand
      ->add_option("--max-candidates", ea->options.max_candidates,
                   "most frequent candidates scored")
      ->capture_default_str();
  expand->add_option("--fuzziness", ea->options.fuzziness, "fuzzy c-means exponent m > 1")
      ->capture_default_str();
  expand->add_flag("--json", ea->json, "print JSON");
  expand->callback([ea] { run_expand(*ea); });
}

}  // namespace kessel::cli
