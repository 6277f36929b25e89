#include "kessel/text/lexicon_expand.h"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <limits>
#include <nlohmann/json.hpp>
#include <sstream>
#include <unordered_map>
#include <unordered_set>

#include "kessel/error.h"
#include "kessel/text/lexicon.h"
#include "kessel/text/utf8.h"
#include "util/json_strict.h"

namespace kessel::text {

namespace {

// A line as a sequence of units: CJK characters and lowercased Latin words. run[i] numbers the
// maximal CJK runs so n-grams never cross a non-CJK unit or punctuation.
struct Units {
  std::vector<int> ids;  // unified unit vocabulary
  std::vector<int> cjk;  // CJK-local id (< 65535) or -1 for a word
  std::vector<int> run;
};

struct Vocab {
  std::unordered_map<std::string, int> unit_id;
  std::vector<std::string> unit_text;
  std::unordered_map<char32_t, int> cjk_id;
  std::vector<std::string> cjk_text;
  int unit(const std::string& s) {
    auto [it, inserted] = unit_id.emplace(s, static_cast<int>(unit_text.size()));
    if (inserted) unit_text.push_back(s);
    return it->second;
  }
  int cjk(char32_t c) {
    auto [it, inserted] = cjk_id.emplace(c, static_cast<int>(cjk_text.size()));
    if (inserted) cjk_text.push_back(encode_utf8(c));
    return it->second;
  }
};

Units split_units(const std::string& line, Vocab* vocab) {
  Units u;
  const DecodedText d = decode_utf8(line, Utf8Mode::lossy);
  int run = 0;
  bool in_cjk = false;
  std::size_t i = 0;
  while (i < d.cps.size()) {
    const char32_t c = d.cps[i];
    if (is_cjk(c)) {
      if (!in_cjk) ++run;
      in_cjk = true;
      u.ids.push_back(vocab->unit(encode_utf8(c)));
      u.cjk.push_back(vocab->cjk(c));
      u.run.push_back(run);
      ++i;
    } else if (is_latin_letter(c)) {
      in_cjk = false;
      std::string w;
      while (i < d.cps.size() && (is_latin_letter(d.cps[i]) || d.cps[i] == '\'')) {
        append_utf8(w, fold_case(d.cps[i]));
        ++i;
      }
      u.ids.push_back(vocab->unit(w));
      u.cjk.push_back(-1);
      u.run.push_back(-1);
    } else {
      in_cjk = false;
      ++i;
    }
  }
  return u;
}

// Key of a CJK n-gram (n <= 4) from CJK-local ids; the top bits hold n.
std::uint64_t ngram_key(const Units& u, std::size_t p, int n) {
  std::uint64_t key = static_cast<std::uint64_t>(n) << 60;
  for (int k = 0; k < n; ++k) key |= static_cast<std::uint64_t>(u.cjk[p + k] & 0x7FFF) << (15 * k);
  return key;
}

bool ngram_ok(const Units& u, std::size_t p, int n) {
  if (p + static_cast<std::size_t>(n) > u.ids.size() || u.cjk[p] < 0) return false;
  for (int k = 0; k < n; ++k) {
    if (u.cjk[p + k] < 0 || u.cjk[p + k] >= 0x7FFF || u.run[p + k] != u.run[p]) return false;
  }
  return true;
}

}  // namespace

ExpandResult expand_lexicon(const std::vector<std::string>& corpus_lines,
                            const std::vector<SeedTerm>& seeds, const ExpandOptions& o,
                            const ExpandProgress& progress) {
  KESSEL_CHECK_ARG(o.max_ngram >= 1 && o.max_ngram <= 4, "expand_lexicon: max_ngram=", o.max_ngram,
                   " must be in 1..4");
  KESSEL_CHECK_ARG(o.min_count >= 1, "expand_lexicon: min_count=", o.min_count, " must be >= 1");
  KESSEL_CHECK_ARG(o.window >= 1, "expand_lexicon: window=", o.window, " must be >= 1");
  KESSEL_CHECK_ARG(o.context_vocab >= 1, "expand_lexicon: context_vocab=", o.context_vocab,
                   " must be >= 1");
  KESSEL_CHECK_ARG(o.max_candidates >= 1, "expand_lexicon: max_candidates=", o.max_candidates,
                   " must be >= 1");
  KESSEL_CHECK_ARG(o.top >= 1, "expand_lexicon: top=", o.top, " must be >= 1");
  KESSEL_CHECK_ARG(o.fragment_share > 0.0f, "expand_lexicon: fragment_share=", o.fragment_share,
                   " must be > 0");
  KESSEL_CHECK_ARG(o.fuzziness > 1.0f, "expand_lexicon: fuzziness m=", o.fuzziness, " must be > 1");

  ExpandResult result;
  result.lines = static_cast<std::int64_t>(corpus_lines.size());
  Vocab vocab;
  std::vector<Units> lines;
  lines.reserve(corpus_lines.size());
  std::vector<std::int64_t> unit_count;
  std::unordered_map<std::uint64_t, std::int64_t> ngram_count;
  std::unordered_map<int, std::int64_t> word_count;
  // Pass 1: units and candidate counts.
  for (std::size_t li = 0; li < corpus_lines.size(); ++li) {
    lines.push_back(split_units(corpus_lines[li], &vocab));
    const Units& u = lines.back();
    unit_count.resize(vocab.unit_text.size(), 0);
    for (std::size_t p = 0; p < u.ids.size(); ++p) {
      ++unit_count[static_cast<std::size_t>(u.ids[p])];
      if (u.cjk[p] < 0) {
        ++word_count[u.ids[p]];
        continue;
      }
      // One longer than max_ngram so the longest candidates can be tested as fragments too; keys
      // hold at most 4 characters.
      for (int n = 1; n <= std::min(o.max_ngram + 1, 4); ++n) {
        if (!ngram_ok(u, p, n)) break;
        ++ngram_count[ngram_key(u, p, n)];
      }
    }
    if (progress && (li % 2000 == 0 || li + 1 == corpus_lines.size())) {
      progress("count", static_cast<std::int64_t>(li + 1),
               static_cast<std::int64_t>(corpus_lines.size()));
    }
  }
  auto key_text = [&](std::uint64_t key) {
    const int n = static_cast<int>(key >> 60);
    std::string s;
    for (int k = 0; k < n; ++k) s += vocab.cjk_text[(key >> (15 * k)) & 0x7FFF];
    return s;
  };

  // Candidates: (text, key, count); words get keys above the n-gram space.
  struct Cand {
    std::string text;
    std::uint64_t key;
    std::int64_t count;
  };
  std::vector<Cand> cands;
  // Seeds stay candidates even when they look like fragments or the cap cuts the tail.
  std::unordered_set<std::string> seed_terms;
  for (const auto& s : seeds) seed_terms.insert(normalize_term(s.term));
  // Left and right one-character extensions of every n-gram: the largest extension count.
  std::unordered_map<std::uint64_t, std::int64_t> max_extension;
  for (const auto& [key, count] : ngram_count) {
    const int n = static_cast<int>(key >> 60);
    if (n < 2 || count < o.min_count) continue;
    const std::uint64_t body = key & ((std::uint64_t{1} << 60) - 1);
    const std::uint64_t mask = (std::uint64_t{1} << (15 * (n - 1))) - 1;
    const std::uint64_t left =
        (static_cast<std::uint64_t>(n - 1) << 60) | (body & mask);  // drop last
    const std::uint64_t right =
        (static_cast<std::uint64_t>(n - 1) << 60) | (body >> 15);  // drop first
    for (std::uint64_t sub : {left, right}) {
      auto& m = max_extension[sub];
      m = std::max(m, count);
    }
  }
  for (const auto& [key, count] : ngram_count) {
    if (count < o.min_count || static_cast<int>(key >> 60) > o.max_ngram) continue;
    auto ext = max_extension.find(key);
    const bool fragment =
        ext != max_extension.end() &&
        static_cast<double>(ext->second) >= o.fragment_share * static_cast<double>(count);
    if (fragment && !seed_terms.count(key_text(key))) continue;
    cands.push_back(Cand{key_text(key), key, count});
  }
  for (const auto& [id, count] : word_count) {
    if (count >= o.min_count) {
      cands.push_back(Cand{vocab.unit_text[static_cast<std::size_t>(id)],
                           (std::uint64_t{1} << 63) | static_cast<std::uint64_t>(id), count});
    }
  }
  std::sort(cands.begin(), cands.end(), [](const Cand& a, const Cand& b) {
    return a.count != b.count ? a.count > b.count : a.text < b.text;
  });
  // Seeds must stay in even when the cap cuts the tail.
  std::vector<Cand> kept;
  for (std::size_t i = 0; i < cands.size(); ++i) {
    if (static_cast<int>(kept.size()) < o.max_candidates || seed_terms.count(cands[i].text)) {
      kept.push_back(cands[i]);
    }
  }
  cands.swap(kept);
  std::unordered_map<std::uint64_t, int> cand_index;
  for (std::size_t i = 0; i < cands.size(); ++i)
    cand_index.emplace(cands[i].key, static_cast<int>(i));

  // Context features: the most frequent units.
  std::vector<int> order(unit_count.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = static_cast<int>(i);
  std::sort(order.begin(), order.end(), [&](int a, int b) {
    return unit_count[static_cast<std::size_t>(a)] != unit_count[static_cast<std::size_t>(b)]
               ? unit_count[static_cast<std::size_t>(a)] > unit_count[static_cast<std::size_t>(b)]
               : a < b;
  });
  const std::size_t F =
      std::min<std::size_t>(static_cast<std::size_t>(o.context_vocab), order.size());
  std::vector<int> feature_of(unit_count.size(), -1);
  for (std::size_t f = 0; f < F; ++f)
    feature_of[static_cast<std::size_t>(order[f])] = static_cast<int>(f);

  // Pass 2: dense co-occurrence counts [C, F].
  const std::size_t C = cands.size();
  std::vector<float> M(C * F, 0.0f);
  auto add_context = [&](const Units& u, std::size_t p, std::size_t len, int ci) {
    float* row = M.data() + static_cast<std::size_t>(ci) * F;
    const std::size_t lo =
        p >= static_cast<std::size_t>(o.window) ? p - static_cast<std::size_t>(o.window) : 0;
    const std::size_t hi = std::min(u.ids.size(), p + len + static_cast<std::size_t>(o.window));
    for (std::size_t q = lo; q < hi; ++q) {
      if (q >= p && q < p + len) continue;
      const int f = feature_of[static_cast<std::size_t>(u.ids[q])];
      if (f >= 0) row[f] += 1.0f;
    }
  };
  for (std::size_t li = 0; li < lines.size(); ++li) {
    const Units& u = lines[li];
    for (std::size_t p = 0; p < u.ids.size(); ++p) {
      if (u.cjk[p] < 0) {
        auto it = cand_index.find((std::uint64_t{1} << 63) | static_cast<std::uint64_t>(u.ids[p]));
        if (it != cand_index.end()) add_context(u, p, 1, it->second);
        continue;
      }
      for (int n = 1; n <= o.max_ngram; ++n) {
        if (!ngram_ok(u, p, n)) break;
        auto it = cand_index.find(ngram_key(u, p, n));
        if (it != cand_index.end()) add_context(u, p, static_cast<std::size_t>(n), it->second);
      }
    }
    if (progress && (li % 2000 == 0 || li + 1 == lines.size())) {
      progress("cooccur", static_cast<std::int64_t>(li + 1),
               static_cast<std::int64_t>(lines.size()));
    }
  }

  // PPMI, then L2-normalized rows.
  std::vector<double> row_sum(C, 0.0), col_sum(F, 0.0);
  double total = 0.0;
  for (std::size_t c = 0; c < C; ++c) {
    for (std::size_t f = 0; f < F; ++f) {
      row_sum[c] += M[c * F + f];
      col_sum[f] += M[c * F + f];
    }
    total += row_sum[c];
  }
  for (std::size_t c = 0; c < C; ++c) {
    double norm2 = 0.0;
    for (std::size_t f = 0; f < F; ++f) {
      float& x = M[c * F + f];
      if (x > 0.0f) {
        const double pmi = std::log(static_cast<double>(x) * total / (row_sum[c] * col_sum[f]));
        x = pmi > 0.0 ? static_cast<float>(pmi) : 0.0f;
      }
      norm2 += static_cast<double>(x) * x;
    }
    if (norm2 > 0.0) {
      const float inv = static_cast<float>(1.0 / std::sqrt(norm2));
      for (std::size_t f = 0; f < F; ++f) M[c * F + f] *= inv;
    }
  }

  // Centres from seeds.
  std::unordered_map<std::string, int> text_index;
  for (std::size_t i = 0; i < C; ++i) text_index.emplace(cands[i].text, static_cast<int>(i));
  std::vector<std::vector<double>> centre(kNumEmotions);
  std::vector<int> centre_n(kNumEmotions, 0);
  std::unordered_set<std::string> seen_seed;
  for (const auto& s : seeds) {
    const std::string t = normalize_term(s.term);
    std::string seed_key = t;
    seed_key += '\t';
    seed_key.append(to_string(s.emotion));
    if (!seen_seed.insert(seed_key).second) continue;
    auto it = text_index.find(t);
    if (it == text_index.end()) {
      result.seeds_missing.push_back(t);
      continue;
    }
    result.seeds_found.push_back(t);
    auto& ce = centre[static_cast<std::size_t>(s.emotion)];
    ce.resize(F, 0.0);
    for (std::size_t f = 0; f < F; ++f) ce[f] += M[static_cast<std::size_t>(it->second) * F + f];
    ++centre_n[static_cast<std::size_t>(s.emotion)];
  }
  std::vector<int> emo_slots;
  for (int e = 0; e < kNumEmotions; ++e) {
    if (centre_n[static_cast<std::size_t>(e)] == 0) continue;
    for (double& v : centre[static_cast<std::size_t>(e)])
      v /= centre_n[static_cast<std::size_t>(e)];
    emo_slots.push_back(e);
    result.emotions.push_back(static_cast<Emotion>(e));
  }
  KESSEL_CHECK_ARG(emo_slots.size() >= 2, "expand_lexicon: only ", emo_slots.size(),
                   " emotion(s) have seeds in the corpus (need >= 2); seeds found: ",
                   result.seeds_found.size(), ", missing: ", result.seeds_missing.size(),
                   " (a seed is found when it occurs at least min_count = ", o.min_count,
                   " times in the corpus; lower --min-count for a small corpus)");

  // Fuzzy memberships to the fixed centres.
  const double expo = 1.0 / (static_cast<double>(o.fuzziness) - 1.0);
  std::vector<ExpandCandidate> scored;
  for (std::size_t c = 0; c < C; ++c) {
    const std::string& t = cands[c].text;
    bool overlaps = false;
    for (const auto& s : seed_terms) {
      if (t.find(s) != std::string::npos || s.find(t) != std::string::npos) {
        overlaps = true;
        break;
      }
    }
    if (overlaps || row_sum[c] == 0.0) continue;
    std::vector<double> d2(emo_slots.size());
    for (std::size_t k = 0; k < emo_slots.size(); ++k) {
      const auto& ce = centre[static_cast<std::size_t>(emo_slots[k])];
      double s = 0.0;
      for (std::size_t f = 0; f < F; ++f) {
        const double diff = M[c * F + f] - ce[f];
        s += diff * diff;
      }
      d2[k] = std::max(s, 1e-12);
    }
    ExpandCandidate out;
    out.term = t;
    out.count = cands[c].count;
    out.memberships.resize(emo_slots.size());
    for (std::size_t i = 0; i < emo_slots.size(); ++i) {
      double denom = 0.0;
      for (std::size_t l = 0; l < emo_slots.size(); ++l) denom += std::pow(d2[i] / d2[l], expo);
      out.memberships[i] = static_cast<float>(1.0 / denom);
      if (out.memberships[i] > out.membership) {
        out.membership = out.memberships[i];
        out.emotion = static_cast<Emotion>(emo_slots[i]);
      }
    }
    scored.push_back(std::move(out));
  }
  result.candidate_count = static_cast<std::int64_t>(scored.size());
  std::sort(scored.begin(), scored.end(), [](const ExpandCandidate& a, const ExpandCandidate& b) {
    if (a.membership != b.membership) return a.membership > b.membership;
    if (a.count != b.count) return a.count > b.count;
    return a.term < b.term;
  });
  if (scored.size() > static_cast<std::size_t>(o.top))
    scored.resize(static_cast<std::size_t>(o.top));
  result.candidates = std::move(scored);
  return result;
}

std::vector<SeedTerm> read_seed_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw IoError("read_seed_file: cannot open '" + path + "'");
  std::vector<SeedTerm> seeds;
  std::string line;
  long line_no = 0;
  while (std::getline(in, line)) {
    ++line_no;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.empty() || line[0] == '#') continue;
    if (const auto bad = find_invalid_utf8(line)) {
      throw ParseError(path, line_no, detail::concat("term: invalid UTF-8 at byte offset ", *bad));
    }
    const auto tab = line.find('\t');
    if (tab == std::string::npos) throw ParseError(path, line_no, "expected term<TAB>emotion");
    const std::size_t tab2 = line.find('\t', tab + 1);
    const std::string name =
        line.substr(tab + 1, tab2 == std::string::npos ? std::string::npos : tab2 - tab - 1);
    const auto e = parse_emotion(name);
    if (!e) throw ParseError(path, line_no, "emotion: unknown emotion '" + name + "'");
    const std::string term = normalize_term(line.substr(0, tab));
    if (term.empty()) throw ParseError(path, line_no, "term: empty");
    seeds.push_back(SeedTerm{term, *e});
  }
  return seeds;
}

std::vector<std::string> read_corpus_lines(const std::string& path, const std::string& format) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw IoError("read_corpus_lines: cannot open '" + path + "'");
  std::vector<std::string> out;
  if (format == "text") {
    std::string line;
    long line_no = 0;
    while (std::getline(in, line)) {
      ++line_no;
      if (const auto bad = find_invalid_utf8(line)) {
        throw ParseError(path, line_no,
                         detail::concat("line: invalid UTF-8 at byte offset ", *bad));
      }
      if (!line.empty()) out.push_back(std::move(line));
    }
    return out;
  }
  if (format != "stc3") {
    throw InvalidArgument("read_corpus_lines: format='" + format + "' is not text or stc3");
  }
  std::stringstream ss;
  ss << in.rdbuf();
  nlohmann::json j;
  try {
    j = util::parse_json_strict(ss.str());
  } catch (const util::JsonStructureError& e) {
    throw ParseError(path, 0, std::string("stc3: ") + e.what());
  } catch (const nlohmann::json::exception& e) {
    throw ParseError(path, 0, std::string("stc3: invalid JSON: ") + e.what());
  }
  if (!j.is_array()) throw ParseError(path, 0, "stc3: expected a list of dialogues");
  for (std::size_t d = 0; d < j.size(); ++d) {
    const std::string f = detail::concat("[", d, "]");
    if (!j[d].is_object() || !j[d].contains("turns") || !j[d]["turns"].is_array()) {
      throw ParseError(path, 0, f + ".turns: missing or not a list");
    }
    for (std::size_t t = 0; t < j[d]["turns"].size(); ++t) {
      const auto& turn = j[d]["turns"][t];
      const std::string ft = detail::concat(f, ".turns[", t, "]");
      if (!turn.is_object() || !turn.contains("utterances") || !turn["utterances"].is_array()) {
        throw ParseError(path, 0, ft + ".utterances: missing or not a list");
      }
      for (const auto& u : turn["utterances"]) {
        if (!u.is_string()) throw ParseError(path, 0, ft + ".utterances: expected strings");
        out.push_back(u.get<std::string>());
      }
    }
  }
  return out;
}

}  // namespace kessel::text
