// Loading the segmenter's tables: jieba's dict.txt into the prefix trie, finalseg's prob_*.py into
// the character HMM, and the built-in table (segment_builtin.inc, generated from jieba's files by
// tools/gen_segment_builtin.py; jieba is MIT-licensed, Copyright (c) 2013 Sun Junyi).
#include "text/segment_tables.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <limits>
#include <sstream>

#include "kessel/error.h"
#include "kessel/hmm.h"
#include "kessel/text/segment.h"
#include "kessel/text/utf8.h"
#include "text/py_literal.h"

namespace kessel::text::detail {

// ---- prefix trie --------------------------------------------------------------------------------

PrefixTrie::PrefixTrie() : root_(kRootDirect, kNone), freq_{0}, log_prob_{kNotWord}, class_{0} { rehash(10); }

namespace {
std::size_t slot_of(std::uint64_t k, int bits) {
  return static_cast<std::size_t>((k * 0x9E3779B97F4A7C15ull) >> (64 - bits));
}
}  // namespace

std::int32_t PrefixTrie::find(std::uint64_t k) const {
  const std::size_t mask = slots_.size() - 1;
  for (std::size_t i = slot_of(k, bits_);; i = (i + 1) & mask) {
    if (slots_[i].key == k) return slots_[i].child;
    if (slots_[i].key == 0) return kNone;
  }
}

void PrefixTrie::rehash(int bits) {
  std::vector<Slot> old(std::size_t{1} << bits);
  old.swap(slots_);
  bits_ = bits;
  const std::size_t mask = slots_.size() - 1;
  for (const Slot& s : old) {
    if (s.key == 0) continue;
    std::size_t i = slot_of(s.key, bits_);
    while (slots_[i].key != 0) i = (i + 1) & mask;
    slots_[i] = s;
  }
}

void PrefixTrie::reserve(std::size_t n) {
  int bits = bits_;
  while ((std::size_t{1} << bits) < 2 * n) ++bits;
  if (bits != bits_) rehash(bits);
  freq_.reserve(n);
  log_prob_.reserve(n);
  class_.reserve(n);
}

std::int32_t PrefixTrie::add_child(std::int32_t node, char32_t c) {
  if (node == 0 && c < kRootDirect) {
    if (root_[c] == kNone) {
      root_[c] = static_cast<std::int32_t>(freq_.size());
      freq_.push_back(0);
      log_prob_.push_back(kNotWord);
      class_.push_back(0);
    }
    return root_[c];
  }
  if (2 * (used_ + 1) > slots_.size()) rehash(bits_ + 1);
  const std::uint64_t k = key(node, c);
  const std::size_t mask = slots_.size() - 1;
  std::size_t i = slot_of(k, bits_);
  for (; slots_[i].key != 0; i = (i + 1) & mask) {
    if (slots_[i].key == k) return slots_[i].child;
  }
  slots_[i] = {k, static_cast<std::int32_t>(freq_.size())};
  ++used_;
  freq_.push_back(0);
  log_prob_.push_back(kNotWord);
  class_.push_back(0);
  return slots_[i].child;
}

void PrefixTrie::set_frequency(std::int32_t node, std::int64_t freq) {
  if (freq_[node] == 0 && freq > 0) ++words_;
  if (freq_[node] > 0 && freq == 0) --words_;
  freq_[node] = freq;
}

void PrefixTrie::finish(double log_total) {
  for (std::size_t n = 0; n < freq_.size(); ++n) {
    // jieba's calc: log(FREQ.get(word) or 1) - logtotal, the same two double operations.
    log_prob_[n] = freq_[n] > 0 ? std::log(static_cast<double>(freq_[n])) - log_total : kNotWord;
  }
}

std::int32_t PrefixTrie::find_word(const char32_t* cps, std::size_t n) const {
  std::int32_t node = 0;
  for (std::size_t i = 0; i < n && node != kNone; ++i) node = child(node, cps[i]);
  return n == 0 ? kNone : node;
}

// ---- dict.txt -----------------------------------------------------------------------------------

namespace {

long line_of_offset(std::string_view text, std::size_t offset) {
  long line = 1;
  for (std::size_t i = 0; i < offset && i < text.size(); ++i) line += text[i] == '\n';
  return line;
}

std::string_view strip_ascii_space(std::string_view s) {
  auto space = [](char c) {
    return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\f' || c == '\v';
  };
  while (!s.empty() && space(s.front())) s.remove_prefix(1);
  while (!s.empty() && space(s.back())) s.remove_suffix(1);
  return s;
}

std::int64_t parse_frequency(std::string_view f, const std::string& file, long line) {
  if (f.empty())
    throw ParseError(file, line, "expected 'word frequency [tag]' with one space between fields");
  std::int64_t v = 0;
  for (const char c : f) {
    if (c < '0' || c > '9') {
      throw ParseError(file, line,
                       "frequency '" + std::string(f) + "' is not a non-negative integer");
    }
    if (v > (std::numeric_limits<std::int64_t>::max() - 9) / 10) {
      throw ParseError(file, line, "frequency '" + std::string(f) + "' is too large");
    }
    v = v * 10 + (c - '0');
  }
  return v;
}

// ICTCLAS tags, as jieba's dict.txt writes them, in WordClass's coarse classes: n ns nt nz ng (and j,
// abbreviations) are nouns, v vn vd vg vi vq verbs, a ad an ag adjectives, d adverbs, m numerals, q
// measure words, r pronouns, u y e o particles; the rest (p c f s t x z b i l zg ...) other, and so
// are the person names nr nrt nrfg, the dictionary's least reliable tag (今天下午 nr, 银行卡 nr).
WordClass class_of_tag(std::string_view tag) {
  if (tag.empty()) return WordClass::unknown;
  switch (tag[0]) {
    case 'n':
      return tag.size() > 1 && tag[1] == 'r' ? WordClass::other : WordClass::noun;
    case 'j':
      return WordClass::noun;
    case 'v':
      return WordClass::verb;
    case 'a':
      return WordClass::adjective;
    case 'd':
      return WordClass::adverb;
    case 'm':
      return WordClass::numeral;
    case 'q':
      return WordClass::measure;
    case 'r':
      return WordClass::pronoun;
    case 'u':
    case 'y':
    case 'e':
    case 'o':
      return WordClass::particle;
    default:
      return WordClass::other;
  }
}

}  // namespace

// jieba's gen_pfdict: word, freq = line.strip().split(' ')[:2]; FREQ[word] = int(freq); every
// prefix of the word enters FREQ with 0 unless present; total adds every line. Blank lines (which
// jieba rejects) are skipped.
void add_dictionary_text(SegmentTables& tables, std::string_view text, const std::string& file) {
  if (const auto bad = find_invalid_utf8(text)) {
    throw ParseError(file, line_of_offset(text, static_cast<std::size_t>(*bad)), "invalid UTF-8");
  }
  if (text.substr(0, 3) == "\xEF\xBB\xBF") text.remove_prefix(3);
  // About 1.5 nodes per line in jieba's dictionary.
  tables.dict.reserve(tables.dict.nodes() +
                      static_cast<std::size_t>(std::count(text.begin(), text.end(), '\n')) * 3 / 2);
  std::vector<char32_t> path_cps;        // the previous word
  std::vector<std::int32_t> path_nodes;  // its nodes, one per code point
  long line = 0;
  std::size_t at = 0;
  while (at < text.size()) {
    ++line;
    std::size_t eol = text.find('\n', at);
    if (eol == std::string_view::npos) eol = text.size();
    const std::string_view row = strip_ascii_space(text.substr(at, eol - at));
    at = eol + 1;
    if (row.empty()) continue;
    const std::size_t sp = row.find(' ');
    if (sp == std::string_view::npos)
      throw ParseError(file, line, "expected 'word frequency [tag]', found no frequency");
    const std::size_t sp2 = row.find(' ', sp + 1);
    const std::int64_t freq = parse_frequency(
        row.substr(sp + 1, sp2 == std::string_view::npos ? sp2 : sp2 - sp - 1), file, line);
    if (tables.total > std::numeric_limits<std::int64_t>::max() - freq)
      throw ParseError(file, line, "frequencies sum past 2^63");
    tables.total += freq;
    // dict.txt is sorted: the previous word's nodes serve the prefix the two share.
    const std::string_view word = row.substr(0, sp);
    std::size_t depth = 0;
    for (std::size_t i = 0; i < word.size(); ++depth) {
      const char32_t c = next_code_point(word, &i);
      if (depth < path_cps.size() && path_cps[depth] == c) continue;
      path_cps.resize(depth);
      path_nodes.resize(depth);
      path_nodes.push_back(tables.dict.add_child(depth == 0 ? 0 : path_nodes[depth - 1], c));
      path_cps.push_back(c);
    }
    path_cps.resize(depth);
    path_nodes.resize(depth);
    tables.dict.set_frequency(path_nodes.back(), freq);
    if (sp2 != std::string_view::npos)
      tables.dict.set_word_class(path_nodes.back(),
                                 static_cast<std::uint8_t>(class_of_tag(strip_ascii_space(row.substr(sp2 + 1)))));
  }
}

void finish_dictionary(SegmentTables& tables) {
  tables.log_total = std::log(static_cast<double>(tables.total));
  tables.dict.finish(tables.log_total);
}

// ---- finalseg's prob_*.py -----------------------------------------------------------------------

namespace {

int state_of(const PyItem& item, const std::string& file) {
  if (item.key.size() == 1) {
    switch (item.key[0]) {
      case 'B':
        return kB;
      case 'M':
        return kM;
      case 'E':
        return kE;
      case 'S':
        return kS;
      default:
        break;
    }
  }
  throw ParseError(
      file, item.line,
      "key '" + encode_utf8(item.key.data(), item.key.size()) + "' is not a state B, M, E or S");
}

const char* letter(int state) {
  return state == kB ? "B" : state == kM ? "M" : state == kE ? "E" : "S";
}

// A log probability: a number <= 0 (jieba's MIN_FLOAT, -3.14e100, reads as probability 0).
double probability(const PyLiteral& v, const std::string& file, const char* what) {
  if (v.kind != PyLiteral::Kind::number)
    throw ParseError(file, v.line, std::string(what) + " must be a number");
  if (!(v.number <= 1e-12)) {
    throw ParseError(
        file, v.line,
        std::string(what) + " is " + std::to_string(v.number) + ", not a log probability (<= 0)");
  }
  return std::exp(std::min(v.number, 0.0));
}

// The four states, each once; calls on_state(state, value) in file order.
template <typename F>
void for_each_state(const PyLiteral& p, const std::string& file, F&& on_state) {
  if (p.kind != PyLiteral::Kind::dict)
    throw ParseError(file, p.line, "P must be a dict keyed by state");
  bool seen[kHmmStates] = {false, false, false, false};
  for (const PyItem& item : p.items) {
    const int s = state_of(item, file);
    if (seen[s])
      throw ParseError(file, item.line, std::string("state ") + letter(s) + " appears twice");
    seen[s] = true;
    on_state(s, item);
  }
  for (int s = 0; s < kHmmStates; ++s) {
    if (!seen[s]) throw ParseError(file, p.line, std::string("state ") + letter(s) + " is missing");
  }
}

void check_sums_to_one(double sum, const std::string& file, long line, const std::string& what) {
  if (std::fabs(sum - 1.0) > hmm::kProbabilityTolerance) {
    std::ostringstream os;
    os << what << " sums to " << sum << " as probabilities (must be 1 within "
       << hmm::kProbabilityTolerance << ")";
    throw ParseError(file, line, os.str());
  }
}

// finalseg's PrevStatus: the transitions its Viterbi considers (B->E, B->M, E->B, E->S, ...).
bool bmes_allows(int from, int to) {
  switch (from) {
    case kB:
      return to == kE || to == kM;
    case kM:
      return to == kE || to == kM;
    case kE:
      return to == kB || to == kS;
    default:
      return to == kB || to == kS;
  }
}

}  // namespace

void set_hmm_start(CharHmm& hmm, std::string_view text, const std::string& file) {
  const PyLiteral p = parse_py_assignment(text, file, "P");
  double sum = 0.0;
  for_each_state(p, file, [&](int s, const PyItem& item) {
    hmm.start[s] = probability(item.value, file, "start probability");
    sum += hmm.start[s];
  });
  check_sums_to_one(sum, file, p.line, "start");
}

void set_hmm_trans(CharHmm& hmm, std::string_view text, const std::string& file) {
  const PyLiteral p = parse_py_assignment(text, file, "P");
  hmm.trans.fill(0.0);
  for_each_state(p, file, [&](int from, const PyItem& row) {
    if (row.value.kind != PyLiteral::Kind::dict)
      throw ParseError(file, row.line, "a transition row must be a dict");
    double sum = 0.0;
    for (const PyItem& item : row.value.items) {
      const int to = state_of(item, file);
      const std::string name = std::string(letter(from)) + "->" + letter(to);
      if (!bmes_allows(from, to))
        throw ParseError(file, item.line, "transition " + name + " breaks the B/M/E/S order");
      double& slot = hmm.trans[from * kHmmStates + to];
      if (slot != 0.0) throw ParseError(file, item.line, "transition " + name + " appears twice");
      slot = probability(item.value, file, "transition probability");
      sum += slot;
    }
    check_sums_to_one(sum, file, row.line, std::string("row ") + letter(from));
  });
}

void finish_hmm(CharHmm& hmm) { hmm.logs = hmm::transition_logs(hmm.start, hmm.trans); }

void set_hmm_emit(CharHmm& hmm, std::string_view text, const std::string& file) {
  const PyLiteral p = parse_py_assignment(text, file, "P");
  std::fill(hmm.emit.begin(), hmm.emit.end(), 0.0);
  for_each_state(p, file, [&](int s, const PyItem& row) {
    if (row.value.kind != PyLiteral::Kind::dict)
      throw ParseError(file, row.line, "an emission row must be a dict");
    std::vector<bool> seen(CharHmm::kLast - CharHmm::kFirst + 1, false);
    for (const PyItem& item : row.value.items) {
      if (item.key.size() != 1)
        throw ParseError(file, item.line, "an emission key must be one character");
      const double prob = probability(item.value, file, "emission probability");
      const char32_t c = item.key[0];
      if (c < CharHmm::kFirst || c > CharHmm::kLast) continue;  // finalseg never looks these up
      if (seen[c - CharHmm::kFirst])
        throw ParseError(file, item.line, "character appears twice in the row");
      seen[c - CharHmm::kFirst] = true;
      hmm.emit[(c - CharHmm::kFirst) * kHmmStates + s] = prob;
    }
  });
}

std::string read_whole_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary | std::ios::ate);
  if (!in) throw IoError("segmenter: cannot open '" + path + "'");
  const std::streamoff size = in.tellg();
  std::string text(size > 0 ? static_cast<std::size_t>(size) : 0, '\0');
  in.seekg(0);
  if (size < 0 || !in.read(text.data(), size))
    throw IoError("segmenter: cannot read '" + path + "'");
  return text;
}

SegmentTables load_jieba_tables(const std::string& jieba_dir) {
  namespace fs = std::filesystem;
  const fs::path dir(jieba_dir);
  SegmentTables t;
  const std::string dict = (dir / "dict.txt").string();
  add_dictionary_text(t, read_whole_file(dict), dict);
  if (t.total <= 0) throw ParseError(dict, 0, "no word with a frequency above 0");
  finish_dictionary(t);
  const std::string start = (dir / "finalseg" / "prob_start.py").string();
  const std::string trans = (dir / "finalseg" / "prob_trans.py").string();
  const std::string emit = (dir / "finalseg" / "prob_emit.py").string();
  set_hmm_start(t.hmm, read_whole_file(start), start);
  set_hmm_trans(t.hmm, read_whole_file(trans), trans);
  set_hmm_emit(t.hmm, read_whole_file(emit), emit);
  finish_hmm(t.hmm);
  return t;
}

// ---- the built-in table -------------------------------------------------------------------------

namespace {
struct BuiltinEmission {
  char32_t cp;
  std::int16_t log_centi[4];  // B, M, E, S: jieba's log probability x 100, rounded; 1 = no entry
};
#include "text/segment_builtin.inc"
}  // namespace

SegmentTables builtin_tables() {
  SegmentTables t;
  add_dictionary_text(t, kBuiltinDict, "<builtin dict>");
  t.total = kBuiltinTotal;  // jieba's total, so that the words keep jieba's probabilities
  finish_dictionary(t);
  set_hmm_start(t.hmm, kBuiltinStart, "<builtin prob_start>");
  set_hmm_trans(t.hmm, kBuiltinTrans, "<builtin prob_trans>");
  const int order[4] = {kB, kM, kE, kS};
  for (const BuiltinEmission& e : kBuiltinEmit) {
    for (int j = 0; j < 4; ++j) {
      if (e.log_centi[j] > 0) continue;
      t.hmm.emit[(e.cp - CharHmm::kFirst) * kHmmStates + order[j]] =
          std::exp(e.log_centi[j] / 100.0);
    }
  }
  finish_hmm(t.hmm);
  return t;
}

}  // namespace kessel::text::detail
