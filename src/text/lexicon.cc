#include "kessel/text/lexicon.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "kessel/error.h"
#include "kessel/text/emotion.h"
#include "kessel/text/utf8.h"
#include "util/hash.h"

namespace kessel::text {

std::string normalize_term(std::string_view term) {
  const DecodedText d = decode_utf8(term, Utf8Mode::lossy);
  std::size_t b = 0, e = d.cps.size();
  while (b < e && is_space(d.cps[b])) ++b;
  while (e > b && is_space(d.cps[e - 1])) --e;
  std::string out;
  out.reserve(term.size());
  for (std::size_t i = b; i < e; ++i) {
    if (is_variation_selector(d.cps[i])) continue;
    append_utf8(out, fold_case(d.cps[i]));
  }
  return out;
}

// ---- TermMatcher
// -----------------------------------------------------------------------------------

void TermMatcher::insert(std::string_view normalized_term) {
  const DecodedText d = decode_utf8(normalized_term, Utf8Mode::lossy);
  if (d.cps.empty()) return;
  std::int32_t node = 0;
  for (char32_t cp : d.cps) {
    const std::uint64_t key = (static_cast<std::uint64_t>(node) << 21) | cp;
    auto it = edges_.find(key);
    if (it == edges_.end()) {
      nodes_.push_back(Node{});
      const auto child = static_cast<std::int32_t>(nodes_.size() - 1);
      edges_.emplace(key, child);
      node = child;
    } else {
      node = it->second;
    }
  }
  if (!nodes_[static_cast<std::size_t>(node)].terminal) ++terms_;
  nodes_[static_cast<std::size_t>(node)].terminal = true;
}

std::size_t TermMatcher::longest_match(const char32_t* cps, std::size_t n,
                                       std::size_t* consumed) const {
  std::int32_t node = 0;
  std::size_t matched = 0, best = 0, best_consumed = 0;
  for (std::size_t i = 0; i < n; ++i) {
    if (is_variation_selector(cps[i])) continue;
    const std::uint64_t key = (static_cast<std::uint64_t>(node) << 21) | fold_case(cps[i]);
    auto it = edges_.find(key);
    if (it == edges_.end()) break;
    node = it->second;
    ++matched;
    if (nodes_[static_cast<std::size_t>(node)].terminal) {
      best = matched;
      best_consumed = i + 1;
    }
  }
  if (consumed != nullptr) *consumed = best_consumed;
  return best;
}

// ---- Lexicon
// ---------------------------------------------------------------------------------------

Lexicon::Lexicon() {
  for (const auto& p : polite_formulas()) matcher_.insert(p);
  for (const auto& p : apology_formulas()) matcher_.insert(p);
}

void Lexicon::add(std::string_view term, const LexiconEntry& entry) {
  const std::string key = normalize_term(term);
  KESSEL_CHECK_ARG(!key.empty(), "Lexicon::add: empty term (source '", entry.source, "')");
  KESSEL_CHECK_ARG(
      std::isfinite(entry.intensity) && entry.intensity >= 0.0f && entry.intensity <= 1.0f,
      "Lexicon::add: term '", key, "' has intensity ", entry.intensity, " outside [0, 1]");
  auto& list = entries_[key];
  if (list.empty()) matcher_.insert(key);
  list.push_back(entry);
  if (source_counts_.empty() || source_counts_.back().first != entry.source) {
    bool found = false;
    for (auto& [name, count] : source_counts_) {
      if (name == entry.source) {
        ++count;
        found = true;
      }
    }
    if (!found) source_counts_.emplace_back(entry.source, 1);
  } else {
    ++source_counts_.back().second;
  }
}

void Lexicon::add_phrase(std::string_view term) {
  const std::string key = normalize_term(term);
  if (!key.empty()) matcher_.insert(key);
}

const std::vector<LexiconEntry>* Lexicon::find(std::string_view term) const {
  auto it = entries_.find(normalize_term(term));
  return it == entries_.end() ? nullptr : &it->second;
}

const LexiconEntry* Lexicon::primary(std::string_view term) const {
  const auto* list = find(term);
  if (list == nullptr || list->empty()) return nullptr;
  const std::string& first_source = list->front().source;
  const LexiconEntry* best = nullptr;
  for (const auto& e : *list) {
    if (e.source != first_source) continue;
    const bool better = best == nullptr || (e.expressive && !best->expressive) ||
                        (e.expressive == best->expressive && e.intensity > best->intensity);
    if (better) best = &e;
  }
  return best;
}

std::string Lexicon::identity() const {
  std::string out;
  for (const auto& [name, count] : source_counts_) {
    if (!out.empty()) out += ",";
    out += name + ":" + std::to_string(count);
  }
  // The content: every entry, terms in sorted order, each term's entries in the order they were
  // added. An edited row (smh anger -> joy) changes it while the counts stay.
  std::vector<const std::string*> terms;
  terms.reserve(entries_.size());
  for (const auto& kv : entries_) terms.push_back(&kv.first);
  std::sort(terms.begin(), terms.end(), [](const std::string* a, const std::string* b) { return *a < *b; });
  std::uint64_t h = fnv1a64("");
  for (const std::string* term : terms) {
    h = fnv1a64(*term, h);
    for (const auto& e : entries_.at(*term)) {
      char row[96];
      std::snprintf(row, sizeof row, "\t%s\t%.6g\t%s\t%d\n", to_string(e.emotion), static_cast<double>(e.intensity),
                    to_string(e.polarity), e.expressive ? 1 : 0);
      h = fnv1a64(e.source, h);
      h = fnv1a64(row, h);
    }
  }
  char hex[24];
  std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(h));
  return out + ";fnv1a64=" + hex;
}

bool same_lexicon(std::string_view recorded, std::string_view identity) {
  if (recorded == identity) return true;
  // Identities written before the content hash (2026-11-30) hold the source counts only; they are
  // compared on those, as they always were.
  if (recorded.find(";fnv1a64=") != std::string_view::npos) return false;
  return recorded == identity.substr(0, identity.find(";fnv1a64="));
}

// ---- TSV
// -------------------------------------------------------------------------------------------

namespace {
std::vector<std::string> split_tabs(const std::string& line) {
  std::vector<std::string> out;
  std::string cur;
  for (char ch : line) {
    if (ch == '\t') {
      out.push_back(cur);
      cur.clear();
    } else {
      cur.push_back(ch);
    }
  }
  out.push_back(cur);
  return out;
}
}  // namespace

void add_lexicon_tsv(Lexicon& lexicon, const std::string& path, const std::string& source,
                     LoadReport* report) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw IoError("add_lexicon_tsv: cannot open '" + path + "'");
  std::string line;
  long line_no = 0;
  std::int64_t loaded = 0;
  while (std::getline(in, line)) {
    ++line_no;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.empty() || line[0] == '#') continue;
    if (const auto bad = find_invalid_utf8(line)) {
      throw ParseError(path, line_no, detail::concat("term: invalid UTF-8 at byte offset ", *bad));
    }
    const auto fields = split_tabs(line);
    if (fields.size() < 4) {
      throw ParseError(path, line_no,
                       detail::concat("expected 4 tab-separated fields (term, emotion, intensity, "
                                      "polarity), got ",
                                      fields.size()));
    }
    const auto emotion = parse_emotion(fields[1]);
    if (!emotion) throw ParseError(path, line_no, "emotion: unknown emotion '" + fields[1] + "'");
    char* end = nullptr;
    const float intensity = std::strtof(fields[2].c_str(), &end);
    if (fields[2].empty() || *end != '\0' || !(intensity >= 0.0f && intensity <= 1.0f)) {
      throw ParseError(path, line_no, "intensity: '" + fields[2] + "' is not a number in [0, 1]");
    }
    const auto polarity = parse_polarity(fields[3]);
    if (!polarity)
      throw ParseError(path, line_no, "polarity: unknown polarity '" + fields[3] + "'");
    if (normalize_term(fields[0]).empty()) throw ParseError(path, line_no, "term: empty");
    lexicon.add(fields[0], LexiconEntry{*emotion, intensity, *polarity, source});
    ++loaded;
  }
  if (report != nullptr) {
    report->path = path;
    report->loaded += loaded;
  }
}

Lexicon load_default_lexicon(const std::string& dir) {
  Lexicon lexicon;
  for (const char* name : {"default_zh.tsv", "default_en.tsv", "default_emoji.tsv"}) {
    add_lexicon_tsv(lexicon, dir + "/" + name, "default");
  }
  return lexicon;
}

std::string find_default_lexicon_dir(const std::string& given, const std::vector<std::string>& candidates,
                                     const std::string& what, const std::string& context) {
  auto has_lexicon = [](const std::string& dir) { return std::filesystem::exists(dir + "/default_zh.tsv"); };
  if (!given.empty()) {
    if (!has_lexicon(given)) throw IoError(context + what + " " + given + ": no default_zh.tsv there");
    return given;
  }
  for (const auto& dir : candidates)
    if (has_lexicon(dir)) return dir;
  std::string list;
  for (const auto& dir : candidates) list += " " + dir;
  throw IoError(context + "default lexicon not found (tried" + list + "); pass " + what + " or set KESSEL_HOME");
}

}  // namespace kessel::text
