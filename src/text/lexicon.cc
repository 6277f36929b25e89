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
#include "lexicon_lines.h"
#include "kessel/text/utf8.h"
#include "util/hash.h"

namespace kessel::text {

namespace {

// A term's code point as it is compared: case folded, and the typographic apostrophe (U+2019, as
// tweets write "I’m done") as the ASCII one the lexicon rows use.
char32_t term_fold(char32_t cp) { return cp == U'\u2019' ? U'\'' : fold_case(cp); }

// Whether normalize_term(term) is `term` itself: no white space, variation selector, malformed or
// replacement character, or letter that term_fold changes. Most lookups are of a token's `lower`,
// which is normalized already, and then the key needs no string of its own.
bool is_normalized(std::string_view term) {
  for (std::size_t at = 0; at < term.size();) {
    const char32_t cp = next_code_point(term, &at);
    if (cp == 0xFFFD || is_space(cp) || is_variation_selector(cp) || term_fold(cp) != cp) return false;
  }
  return true;
}

// The lexicon key of `term`: the term itself when it is normalized, else normalize_term's result,
// kept in `storage`.
std::string_view key_of(std::string_view term, std::string& storage) {
  if (is_normalized(term)) return term;
  storage = normalize_term(term);
  return storage;
}

}  // namespace

std::string normalize_term(std::string_view term) {
  // One pass, no DecodedText: every token's `lower` and every lexicon lookup comes through here.
  // Leading white space is skipped; later white space is copied as it comes, and the trailing run
  // is cut off at the end.
  std::string out;
  out.reserve(term.size());
  std::size_t kept = 0;  // out's length up to its last code point that is not white space
  bool started = false;  // past the leading white space
  for (std::size_t at = 0; at < term.size();) {
    const char32_t cp = next_code_point(term, &at);
    const bool space = is_space(cp);
    if (space && !started) continue;
    started = true;
    if (!is_variation_selector(cp)) append_utf8(out, term_fold(cp));
    if (!space) kept = out.size();
  }
  out.resize(kept);
  return out;
}

bool normalizes_to_itself(const char32_t* cps, std::size_t n) {
  for (std::size_t i = 0; i < n; ++i)
    if (is_space(cps[i]) || is_variation_selector(cps[i]) || term_fold(cps[i]) != cps[i]) return false;
  return true;
}

// ---- TermMatcher
// -----------------------------------------------------------------------------------

std::size_t TermMatcher::slot_of(std::uint64_t key) const {
  // Fibonacci hashing: the multiply carries the key's bits (node and code point) upwards, and the
  // shift folds the high half back onto the low bits, which index the table.
  const std::uint64_t mixed = key * 0x9E3779B97F4A7C15ull;
  return static_cast<std::size_t>(mixed ^ (mixed >> 32)) & (edges_.size() - 1);
}

std::int32_t TermMatcher::child(std::uint64_t key) const {
  if (edges_.empty()) return -1;
  for (std::size_t s = slot_of(key);; s = (s + 1) & (edges_.size() - 1)) {
    const Edge& e = edges_[s];
    if (e.child < 0) return -1;  // the table is never full, so a probe always meets an empty slot
    if (e.key == key) return e.child;
  }
}

void TermMatcher::add_edge(std::uint64_t key, std::int32_t child) {
  if (2 * (edge_count_ + 1) > edges_.size()) {
    std::vector<Edge> old = std::move(edges_);
    edges_.assign(std::max<std::size_t>(64, 2 * old.size()), Edge{});
    edge_count_ = 0;
    for (const Edge& e : old)
      if (e.child >= 0) add_edge(e.key, e.child);
  }
  std::size_t s = slot_of(key);
  while (edges_[s].child >= 0) s = (s + 1) & (edges_.size() - 1);
  edges_[s] = Edge{key, child};
  ++edge_count_;
}

void TermMatcher::insert(std::string_view normalized_term) {
  const DecodedText d = decode_utf8(normalized_term, Utf8Mode::lossy);
  if (d.cps.empty()) return;
  std::int32_t node = 0;
  for (char32_t cp : d.cps) {
    const std::uint64_t key = (static_cast<std::uint64_t>(node) << 21) | cp;
    std::int32_t next = child(key);
    if (next < 0) {
      nodes_.push_back(Node{});
      next = static_cast<std::int32_t>(nodes_.size() - 1);
      add_edge(key, next);
    }
    node = next;
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
    node = child((static_cast<std::uint64_t>(node) << 21) | term_fold(cps[i]));
    if (node < 0) break;
    ++matched;
    if (nodes_[static_cast<std::size_t>(node)].terminal) {
      best = matched;
      best_consumed = i + 1;
    }
  }
  if (consumed != nullptr) *consumed = best_consumed;
  return best;
}

bool TermMatcher::may_contain(std::string_view normalized_term) const {
  if (normalized_term.empty()) return false;
  std::int32_t node = 0;
  for (std::size_t at = 0; at < normalized_term.size();) {
    const std::size_t start = at;
    const char32_t cp = next_code_point(normalized_term, &at);
    const bool clean = cp != U'\uFFFD' || normalized_term.substr(start, at - start) == "\xEF\xBF\xBD";
    if (!clean) return true;  // insert() decoded its terms with decode_utf8: leave the odd case to the map
    node = child((static_cast<std::uint64_t>(node) << 21) | cp);
    if (node < 0) return false;
  }
  return nodes_[static_cast<std::size_t>(node)].terminal;
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
  std::string storage;
  const std::string_view key = key_of(term, storage);
  if (!matcher_.may_contain(key)) return nullptr;  // every key of entries_ is a term of matcher_
  auto it = entries_.find(std::string(key));
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

const LexiconEntry* Lexicon::primary(std::string_view term, Language turn_language) const {
  std::string storage;
  const std::string_view key = key_of(term, storage);
  if (!matcher_.may_contain(key)) return nullptr;  // every key of entries_ is a term of matcher_
  auto it = entries_.find(std::string(key));
  if (it == entries_.end()) return nullptr;
  const LexiconEntry* best = nullptr;
  for (const auto& e : it->second) {
    if (!entry_applies(e, key, turn_language)) continue;
    if (best != nullptr && e.source != best->source) continue;  // the earliest applicable source
    const bool better = best == nullptr || (e.expressive && !best->expressive) ||
                        (e.expressive == best->expressive && e.intensity > best->intensity);
    if (better) best = &e;
  }
  return best;
}

bool entry_applies(const LexiconEntry& entry, std::string_view normalized_term, Language turn_language) {
  if (entry.language == Language::unknown || entry.language == turn_language) return true;
  if (entry.language == Language::zh) {
    if (turn_language == Language::ja) return false;
    for (std::size_t at = 0; at < normalized_term.size();) {
      const char32_t cp = next_code_point(normalized_term, &at);
      if (is_cjk(cp)) return true;
    }
    return false;
  }
  return entry.language == Language::en && turn_language == Language::zh;
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
      // Language and kind are hashed only when set, so that lexicons without them keep their identity.
      std::string extra;
      if (e.language != Language::unknown) extra += std::string("\t") + to_string(e.language);
      if (e.kind != MentionKind::feeling) extra += std::string("\t") + to_string(e.kind);
      std::snprintf(row, sizeof row, "\t%s\t%.6g\t%s\t%d%s\n", to_string(e.emotion), static_cast<double>(e.intensity),
                    to_string(e.polarity), e.expressive ? 1 : 0, extra.c_str());
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

namespace {
// '#' opens a comment, except a hashtag row: '#' then a word character, with tab-separated fields
// ("#fail<TAB>anger<TAB>0.7<TAB>neg"). Comments start "# " (or are a bare "#", "##...").
bool is_tsv_comment(std::string_view line) {
  if (line[0] != '#') return false;
  const bool hashtag = line.size() > 1 && line[1] != ' ' && line[1] != '#' && line[1] != '\t' &&
                       line.find('\t') != std::string_view::npos;
  return !hashtag;
}
}  // namespace

void add_lexicon_tsv(Lexicon& lexicon, const std::string& path, const std::string& source,
                     LoadReport* report, Language language) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw IoError("add_lexicon_tsv: cannot open '" + path + "'");
  std::string line;
  long line_no = 0;
  std::int64_t loaded = 0;
  while (std::getline(in, line)) {
    ++line_no;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.empty() || is_tsv_comment(line)) continue;
    refuse_nul_byte(line, path, line_no);
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
    MentionKind kind = MentionKind::feeling;
    if (fields.size() >= 5 && !fields[4].empty()) {
      const auto k = parse_mention_kind(fields[4]);
      if (!k) throw ParseError(path, line_no, "kind: unknown kind '" + fields[4] + "' (feeling, report, judgement, request)");
      kind = *k;
    }
    if (normalize_term(fields[0]).empty()) throw ParseError(path, line_no, "term: empty");
    lexicon.add(fields[0], LexiconEntry{*emotion, intensity, *polarity, source, true, language, kind});
    ++loaded;
  }
  if (report != nullptr) {
    report->path = path;
    report->loaded += loaded;
  }
}

Lexicon load_default_lexicon(const std::string& dir) {
  Lexicon lexicon;
  add_lexicon_tsv(lexicon, dir + "/default_zh.tsv", "default", nullptr, Language::zh);
  add_lexicon_tsv(lexicon, dir + "/default_en.tsv", "default", nullptr, Language::en);
  add_lexicon_tsv(lexicon, dir + "/default_emoji.tsv", "default", nullptr, Language::unknown);
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
