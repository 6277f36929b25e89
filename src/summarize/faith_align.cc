// Pieces, reported-speech frames and the alignment (faith_align.h).
#include "summarize/faith_align.h"

#include <algorithm>
#include <climits>
#include <cstdint>
#include <initializer_list>
#include <string_view>

#include "kessel/text/utf8.h"

namespace kessel::summarize::faith {

namespace {

bool is_apostrophe(char32_t cp) { return cp == U'\'' || cp == U'\u2019'; }
bool is_word_char(char32_t cp) { return text::is_latin_letter(cp) || text::is_digit(cp); }

// The key of an en word: case-folded, apostrophes made ASCII, any "Xn't" the one key "n't".
std::u32string word_key(const std::vector<char32_t>& cps, int start, int end) {
  std::u32string key;
  for (int i = start; i < end; ++i) {
    const char32_t cp = cps[static_cast<std::size_t>(i)];
    key.push_back(is_apostrophe(cp) ? U'\'' : text::fold_case(cp));
  }
  if (key.size() > 3 && key.ends_with(U"n't")) return U"n't";
  return key;
}

}  // namespace

std::vector<Piece> pieces(const std::vector<char32_t>& cps, Lang lang) {
  std::vector<Piece> out;
  const int n = static_cast<int>(cps.size());
  if (lang == Lang::zh) {
    for (int i = 0; i < n; ++i) {
      const char32_t cp = cps[static_cast<std::size_t>(i)];
      if (text::is_space(cp) || text::is_punct(cp)) continue;
      out.push_back({std::u32string(1, text::fold_case(cp)), i, i + 1});
    }
    return out;
  }
  // en: runs of letters and digits, with apostrophes inside a run ("can't", "customer's").
  for (int i = 0; i < n;) {
    if (!is_word_char(cps[static_cast<std::size_t>(i)])) {
      ++i;
      continue;
    }
    int j = i + 1;
    while (j < n && (is_word_char(cps[static_cast<std::size_t>(j)]) ||
                     (is_apostrophe(cps[static_cast<std::size_t>(j)]) && j + 1 < n &&
                      is_word_char(cps[static_cast<std::size_t>(j + 1)]))))
      ++j;
    out.push_back({word_key(cps, i, j), i, j});
    i = j;
  }
  return out;
}

namespace {

// Whether body's pieces from `at` spell `word` (zh: one piece per code point; en: one per word).
std::size_t match_at(const std::vector<Piece>& body, std::size_t at, std::u32string_view word, Lang lang) {
  if (lang == Lang::zh) {
    if (at + word.size() > body.size()) return 0;
    for (std::size_t k = 0; k < word.size(); ++k)
      if (body[at + k].key.size() != 1 || body[at + k].key[0] != word[k]) return 0;
    return word.size();
  }
  return at < body.size() && body[at].key == word ? 1 : 0;
}

// The longest of `options` (each a sequence of words) that body spells from `at`; its length in pieces.
std::size_t longest_at(const std::vector<Piece>& body, std::size_t at,
                       std::initializer_list<std::initializer_list<std::u32string_view>> options, Lang lang) {
  std::size_t best = 0;
  for (const auto& option : options) {
    std::size_t n = 0;
    bool all = true;
    for (std::u32string_view w : option) {
      const std::size_t k = match_at(body, at + n, w, lang);
      if (k == 0) {
        all = false;
        break;
      }
      n += k;
    }
    if (all) best = std::max(best, n);
  }
  return best;
}

std::size_t raw_frame_length(const std::vector<Piece>& body, Lang lang) {
  if (lang == Lang::zh) {
    const std::size_t subject = longest_at(body, 0, {{U"用户"}, {U"客户"}, {U"顾客"}, {U"客服"}, {U"对方"}}, lang);
    // A one-character verb (问 称 说) frames only after a subject: a body opening with 问 is more often
    // the source's own 问题 or 问下 ("我想问下啥时候" -> "问下啥时候") than a report.
    const std::size_t verb =
        subject > 0 ? longest_at(body, subject,
                                 {{U"再次询问"}, {U"询问"}, {U"咨询"}, {U"问"}, {U"表示"}, {U"希望"}, {U"要求"}, {U"称"}, {U"说"},
                                  {U"反映"}, {U"反馈"}, {U"提出"}, {U"想知道"}, {U"请求"}},
                                 lang)
                    : longest_at(body, 0,
                                 {{U"再次询问"}, {U"询问"}, {U"咨询"}, {U"表示"}, {U"希望"}, {U"要求"}, {U"反映"}, {U"反馈"},
                                  {U"提出"}, {U"想知道"}, {U"请求"}},
                                 lang);
    return verb > 0 ? subject + verb : 0;
  }
  return longest_at(body, 0,
                    {{U"the", U"agent", U"asks", U"whether"},
                     {U"the", U"agent", U"asks", U"if"},
                     {U"the", U"agent", U"asks", U"the", U"customer", U"to"},
                     {U"the", U"agent", U"asks"},
                     {U"they", U"ask", U"whether"},
                     {U"they", U"ask", U"if"},
                     {U"they", U"ask", U"the", U"customer", U"to"},
                     {U"they", U"ask"},
                     {U"the", U"customer", U"asks", U"whether"},
                     {U"the", U"customer", U"asks", U"if"},
                     {U"the", U"customer", U"asks"},
                     {U"the", U"customer", U"says", U"that"},
                     {U"the", U"customer", U"says"}},
                    lang);
}

}  // namespace

std::size_t frame_length(const std::vector<Piece>& body, const std::vector<Piece>& source, Lang lang) {
  const std::size_t n = raw_frame_length(body, lang);
  if (n == 0 || source.size() < n) return n;
  for (std::size_t k = 0; k < n; ++k)
    if (body[k].key != source[k].key) return n;
  return 0;  // the source opens with the same words: they are its own
}

namespace {

Alignment empty_alignment(std::size_t body, std::size_t source) {
  Alignment a;
  a.body_to_source.assign(body, -1);
  a.source_to_body.assign(source, -1);
  return a;
}

void link(Alignment& a, std::size_t b, std::size_t s) {
  a.body_to_source[b] = static_cast<int>(s);
  a.source_to_body[s] = static_cast<int>(b);
}

// Greedy: each body piece to the next equal source piece (for units too long for the exact table).
void align_greedy(Alignment& a, const std::vector<Piece>& body, std::size_t skip, const std::vector<Piece>& source) {
  std::size_t s = 0;
  for (std::size_t b = skip; b < body.size(); ++b) {
    std::size_t t = s;
    while (t < source.size() && source[t].key != body[b].key) ++t;
    if (t == source.size()) continue;  // an insertion
    link(a, b, t);
    s = t + 1;
  }
}

// Exact: the most pieces kept, then the fewest runs. score = kept * big - runs, with big larger than
// any run count. S1[i][j]: body piece i-1 kept as source piece j-1; S0[i][j]: the best otherwise.
void align_exact(Alignment& a, const std::vector<Piece>& body, std::size_t skip, const std::vector<Piece>& source) {
  const std::size_t n = body.size() - skip, m = source.size();
  const std::size_t w = m + 1;
  const std::int32_t big = static_cast<std::int32_t>(n + m + 2), neg = INT32_MIN / 4;
  std::vector<std::int32_t> s0((n + 1) * w, 0), s1((n + 1) * w, neg);
  auto at = [w](std::size_t i, std::size_t j) { return i * w + j; };
  auto run_cost = [&](std::size_t j) -> std::int32_t { return source[j].word_start ? 1 : 3; };
  // A run that ends just before source piece j, inside the word j continues, costs 2 more.
  auto end_cost = [&](std::size_t j) -> std::int32_t { return j < m && !source[j].word_start ? 2 : 0; };
  for (std::size_t i = 1; i <= n; ++i)
    for (std::size_t j = 1; j <= m; ++j) {
      if (body[skip + i - 1].key == source[j - 1].key)
        s1[at(i, j)] = std::max(s1[at(i - 1, j - 1)], s0[at(i - 1, j - 1)] - run_cost(j - 1)) + big;
      s0[at(i, j)] = std::max({s0[at(i - 1, j)], s1[at(i - 1, j)] - end_cost(j), s0[at(i, j - 1)],
                               s1[at(i, j - 1)] - end_cost(j - 1)});
    }
  std::size_t i = n, j = m;
  bool kept = n > 0 && m > 0 && s1[at(i, j)] >= s0[at(i, j)];
  while (i > 0 && j > 0) {
    if (kept) {
      link(a, skip + i - 1, j - 1);
      kept = s1[at(i - 1, j - 1)] >= s0[at(i - 1, j - 1)] - run_cost(j - 1);
      --i, --j;
      continue;
    }
    // Ties go to skipping source pieces first: body pieces keep the earliest equal occurrence.
    const std::int32_t v = s0[at(i, j)];
    if (s0[at(i, j - 1)] == v) {
      --j;
    } else if (s1[at(i, j - 1)] - end_cost(j - 1) == v) {
      --j, kept = true;
    } else if (s0[at(i - 1, j)] == v) {
      --i;
    } else {
      --i, kept = true;
    }
  }
}

}  // namespace

void mark_word_starts(std::vector<Piece>& pieces, const std::vector<text::WordSpan>& words) {
  std::size_t w = 0;
  for (Piece& piece : pieces) {
    while (w < words.size() && words[w].char_end <= piece.start) ++w;
    piece.word_start = w >= words.size() || words[w].char_start == piece.start;
  }
}

Alignment align(const std::vector<Piece>& body, std::size_t skip, const std::vector<Piece>& source) {
  Alignment a = empty_alignment(body.size(), source.size());
  skip = std::min(skip, body.size());
  const std::size_t n = body.size() - skip;
  // The common cases first: the body is the unit, or one stretch of it (an emotion clause).
  const auto hit = std::search(source.begin(), source.end(), body.begin() + static_cast<std::ptrdiff_t>(skip),
                               body.end(), [](const Piece& x, const Piece& y) { return x.key == y.key; });
  if (n > 0 && hit != source.end()) {
    const auto s0 = static_cast<std::size_t>(hit - source.begin());
    for (std::size_t k = 0; k < n; ++k) link(a, skip + k, s0 + k);
  } else if ((n + 1) * (source.size() + 1) <= kMaxAlignCells) {
    align_exact(a, body, skip, source);
  } else {
    align_greedy(a, body, skip, source);
  }
  for (std::size_t s = 0; s < source.size(); ++s)
    if (a.source_to_body[s] >= 0) {
      if (a.first < 0) a.first = static_cast<int>(s);
      a.last = static_cast<int>(s);
    }
  return a;
}

}  // namespace kessel::summarize::faith
