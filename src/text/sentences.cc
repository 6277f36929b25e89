#include <string>
#include <unordered_set>

#include "kessel/text/dialogue.h"
#include "kessel/text/utf8.h"

namespace kessel::text {

namespace {

bool is_strong_terminator(char32_t c) {
  return c == U'。' || c == U'！' || c == U'？' || c == '!' || c == '?' || c == U'；' ||
         c == U'…' || c == U'｡';
}

bool is_closer(char32_t c) {
  return c == '"' || c == '\'' || c == ')' || c == ']' || c == U'”' || c == U'’' || c == U'」' ||
         c == U'』' || c == U'）' || c == U'】' || c == U'》';
}

// The word (letters and inner dots) that ends right before position `dot`.
std::string word_before(const std::vector<char32_t>& cps, std::size_t dot) {
  std::size_t b = dot;
  while (b > 0 && (is_latin_letter(cps[b - 1]) || cps[b - 1] == '.')) --b;
  std::string w;
  for (std::size_t i = b; i < dot; ++i) append_utf8(w, fold_case(cps[i]));
  return w;
}

bool is_abbreviation(const std::string& w) {
  static const std::unordered_set<std::string> abbr = {
      "mr",   "mrs",  "ms",  "dr",  "prof", "sr",   "jr",  "st",     "vs",   "etc", "e.g",
      "i.e",  "inc",  "ltd", "co",  "corp", "no",   "vol", "approx", "dept", "est", "a.m",
      "p.m",  "u.s",  "u.k", "jan", "feb",  "mar",  "apr", "jun",    "jul",  "aug", "sep",
      "sept", "oct",  "nov", "dec", "mon",  "tue",  "wed", "thu",    "fri",  "sat", "sun",
      "ave",  "blvd", "min", "max", "fig",  "acct", "tel", "ext"};
  if (abbr.count(w)) return true;
  return w.size() == 1 && w[0] >= 'a' && w[0] <= 'z';  // initials: J. Smith
}

}  // namespace

std::vector<std::string> split_sentences(std::string_view text) {
  const DecodedText d = decode_utf8(text, Utf8Mode::lossy);
  const auto& cps = d.cps;
  const std::size_t n = cps.size();
  std::vector<std::string> out;
  std::size_t start = 0;
  // Code points [b, e) as UTF-8: a slice of the text where it is well formed (its bytes are then
  // exactly their code points' encoding), else the code points encoded with their replacements.
  auto sentence_text = [&](std::size_t b, std::size_t e) {
    if (d.replaced > 0) return encode_utf8(cps.data() + b, e - b);
    const auto from = static_cast<std::size_t>(d.byte_offsets[b]), to = static_cast<std::size_t>(d.byte_offsets[e]);
    return std::string(text.substr(from, to - from));
  };
  auto flush = [&](std::size_t end) {
    std::size_t b = start, e = end;
    while (b < e && is_space(cps[b])) ++b;
    while (e > b && is_space(cps[e - 1])) --e;
    if (e > b) out.push_back(sentence_text(b, e));
    start = end;
  };
  std::size_t i = 0;
  while (i < n) {
    const char32_t c = cps[i];
    if (c == '\n' || c == '\r' || c == 0x2028 || c == 0x2029) {
      flush(i);
      ++i;
      start = i;
      continue;
    }
    if (is_strong_terminator(c) ||
        (c == '.' && i + 2 < n && cps[i + 1] == '.' && cps[i + 2] == '.')) {
      std::size_t j = i + 1;
      while (j < n && (is_strong_terminator(cps[j]) || cps[j] == '.')) ++j;
      while (j < n && is_closer(cps[j])) ++j;
      // ASCII ! ? and ... inside Latin text only end a sentence before white space or the end, so
      // "Yahoo!Mail" and "v1...2" stay whole; CJK terminators always end one.
      const bool ascii = c < 0x80;
      if (!ascii || j >= n || !is_latin_letter(cps[j]) || is_space(cps[j])) {
        flush(j);
        i = j;
        continue;
      }
      i = j;
      continue;
    }
    if (c == '.') {
      const bool at_end = i + 1 >= n;
      std::size_t j = i + 1;
      while (j < n && is_closer(cps[j])) ++j;
      const bool before_space = j < n && is_space(cps[j]);
      if ((at_end || before_space || j >= n) && !is_abbreviation(word_before(cps, i))) {
        flush(j);
        i = j;
        continue;
      }
    }
    ++i;
  }
  flush(n);
  return out;
}

}  // namespace kessel::text
