#include "kessel/text/utf8.h"

#include <algorithm>
#include <cstdio>
#include <iterator>

#include "kessel/error.h"

namespace kessel::text {

namespace {

bool is_continuation(unsigned char b) { return (b & 0xC0) == 0x80; }

// The sequences that need none of decode_checked's range checks: ASCII, two bytes led by C2..DF, and
// three bytes led by E1..EC, EE or EF (no overlong form, surrogate or value past U+10FFFF can start
// so), with their continuation bytes in place. Returns the bytes consumed and stores the code point,
// or returns 0 for every other sequence (E0, ED, four bytes, malformed), which decode_checked reads.
int decode_plain(std::string_view bytes, std::size_t i, char32_t* cp) {
  const auto b0 = static_cast<unsigned char>(bytes[i]);
  if (b0 < 0x80) {
    *cp = b0;
    return 1;
  }
  const std::size_t left = bytes.size() - i;
  if (b0 >= 0xE1 && b0 != 0xED && b0 <= 0xEF && left >= 3) {
    const auto b1 = static_cast<unsigned char>(bytes[i + 1]), b2 = static_cast<unsigned char>(bytes[i + 2]);
    if (!is_continuation(b1) || !is_continuation(b2)) return 0;
    *cp = (static_cast<char32_t>(b0 & 0x0F) << 12) | (static_cast<char32_t>(b1 & 0x3F) << 6) | (b2 & 0x3F);
    return 3;
  }
  if (b0 >= 0xC2 && b0 <= 0xDF && left >= 2) {
    const auto b1 = static_cast<unsigned char>(bytes[i + 1]);
    if (!is_continuation(b1)) return 0;
    *cp = (static_cast<char32_t>(b0 & 0x1F) << 6) | (b1 & 0x3F);
    return 2;
  }
  return 0;
}

// Decodes one sequence at bytes[i], any sequence, with every check. Returns the number of bytes
// consumed (>= 1) and stores the code point, or returns 0 and stores a reason when the sequence is
// malformed.
int decode_checked(std::string_view bytes, std::size_t i, char32_t* cp, const char** why) {
  const auto b0 = static_cast<unsigned char>(bytes[i]);
  if (b0 < 0x80) {
    *cp = b0;
    return 1;
  }
  int len;
  char32_t value;
  char32_t min_value;
  if (b0 >= 0xC2 && b0 <= 0xDF) {
    len = 2, value = b0 & 0x1F, min_value = 0x80;
  } else if (b0 >= 0xE0 && b0 <= 0xEF) {
    len = 3, value = b0 & 0x0F, min_value = 0x800;
  } else if (b0 >= 0xF0 && b0 <= 0xF4) {
    len = 4, value = b0 & 0x07, min_value = 0x10000;
  } else if (b0 >= 0x80 && b0 <= 0xBF) {
    *why = "unexpected continuation byte";
    return 0;
  } else {
    *why = (b0 == 0xC0 || b0 == 0xC1) ? "overlong encoding" : "byte never valid in UTF-8";
    return 0;
  }
  if (i + len > bytes.size()) {
    *why = "truncated sequence at end of input";
    return 0;
  }
  for (int k = 1; k < len; ++k) {
    const auto b = static_cast<unsigned char>(bytes[i + k]);
    if ((b & 0xC0) != 0x80) {
      *why = "truncated sequence (missing continuation byte)";
      return 0;
    }
    value = (value << 6) | (b & 0x3F);
  }
  if (value < min_value) {
    *why = "overlong encoding";
    return 0;
  }
  if (value >= 0xD800 && value <= 0xDFFF) {
    *why = "UTF-16 surrogate";
    return 0;
  }
  if (value > 0x10FFFF) {
    *why = "code point above U+10FFFF";
    return 0;
  }
  *cp = value;
  return len;
}

// decode_checked, through decode_plain where that applies: the same result for every input.
int decode_one(std::string_view bytes, std::size_t i, char32_t* cp, const char** why) {
  if (const int n = decode_plain(bytes, i, cp)) return n;
  return decode_checked(bytes, i, cp, why);
}

}  // namespace

DecodedText decode_utf8(std::string_view bytes, Utf8Mode mode, const std::string& file, long line) {
  DecodedText out;
  out.cps.reserve(bytes.size());
  out.byte_offsets.reserve(bytes.size() + 1);
  std::size_t i = 0;
  while (i < bytes.size()) {
    char32_t cp = 0;
    const char* why = "";
    const int n = decode_one(bytes, i, &cp, &why);
    out.byte_offsets.push_back(static_cast<std::int64_t>(i));
    if (n == 0) {
      if (mode == Utf8Mode::strict) {
        char hex[8];
        std::snprintf(hex, sizeof hex, "0x%02X", static_cast<unsigned char>(bytes[i]));
        throw ParseError(file, line,
                         detail::concat("invalid UTF-8 at byte offset ", i, " (", hex, "): ", why));
      }
      out.cps.push_back(0xFFFD);
      ++out.replaced;
      ++i;
      continue;
    }
    out.cps.push_back(cp);
    i += static_cast<std::size_t>(n);
  }
  out.byte_offsets.push_back(static_cast<std::int64_t>(bytes.size()));
  return out;
}

std::optional<std::int64_t> find_invalid_utf8(std::string_view bytes) {
  std::size_t i = 0;
  while (i < bytes.size()) {
    char32_t cp;
    const char* why;
    const int n = decode_one(bytes, i, &cp, &why);
    if (n == 0) return static_cast<std::int64_t>(i);
    i += static_cast<std::size_t>(n);
  }
  return std::nullopt;
}

std::string sanitize_utf8(std::string_view bytes) {
  const DecodedText d = decode_utf8(bytes, Utf8Mode::lossy);
  return encode_utf8(d.cps.data(), d.cps.size());
}

char32_t next_code_point(std::string_view bytes, std::size_t* at) {
  char32_t cp = 0;
  const char* why = "";
  const int n = decode_one(bytes, *at, &cp, &why);
  if (n == 0) {
    ++*at;
    return 0xFFFD;
  }
  *at += static_cast<std::size_t>(n);
  return cp;
}

void append_utf8(std::string& out, char32_t cp) {
  if (cp < 0x80) {
    out.push_back(static_cast<char>(cp));
  } else if (cp < 0x800) {
    out.push_back(static_cast<char>(0xC0 | (cp >> 6)));
    out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else if (cp < 0x10000) {
    out.push_back(static_cast<char>(0xE0 | (cp >> 12)));
    out.push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else {
    out.push_back(static_cast<char>(0xF0 | (cp >> 18)));
    out.push_back(static_cast<char>(0x80 | ((cp >> 12) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  }
}

std::string encode_utf8(char32_t cp) {
  std::string s;
  append_utf8(s, cp);
  return s;
}

std::string encode_utf8(const char32_t* cps, std::size_t n) {
  std::string s;
  s.reserve(n * 3);
  for (std::size_t i = 0; i < n; ++i) append_utf8(s, cps[i]);
  return s;
}

// ---- classes
// -------------------------------------------------------------------------------------

bool is_cjk(char32_t c) {
  return (c >= 0x4E00 && c <= 0x9FFF) || (c >= 0x3400 && c <= 0x4DBF) ||
         (c >= 0x20000 && c <= 0x3134F) || (c >= 0xF900 && c <= 0xFAFF) ||
         (c >= 0x3040 && c <= 0x309F) || (c >= 0x30A0 && c <= 0x30FF && c != 0x30FB) ||
         (c >= 0xAC00 && c <= 0xD7AF) || c == 0x3007;
}

bool is_latin_letter(char32_t c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
         (c >= 0xC0 && c <= 0x24F && c != 0xD7 && c != 0xF7) || (c >= 0xFF21 && c <= 0xFF3A) ||
         (c >= 0xFF41 && c <= 0xFF5A);
}

bool is_digit(char32_t c) { return (c >= '0' && c <= '9') || (c >= 0xFF10 && c <= 0xFF19); }

bool is_space(char32_t c) {
  return c == ' ' || (c >= 0x09 && c <= 0x0D) || c == 0x85 || c == 0xA0 || c == 0x1680 ||
         (c >= 0x2000 && c <= 0x200A) || c == 0x2028 || c == 0x2029 || c == 0x202F || c == 0x205F ||
         c == 0x3000;
}

bool is_punct(char32_t c) {
  if (c < 0x80) return c > 0x20 && c < 0x7F && !is_digit(c) && !is_latin_letter(c);
  return (c >= 0xA1 && c <= 0xBF) || c == 0xD7 || c == 0xF7 || (c >= 0x2010 && c <= 0x2027) ||
         (c >= 0x2030 && c <= 0x205E) || (c >= 0x3001 && c <= 0x3006) ||
         (c >= 0x3008 && c <= 0x303F && c != 0x3030 && c != 0x303D) || c == 0x30FB ||
         (c >= 0xFF01 && c <= 0xFF0F) || (c >= 0xFF1A && c <= 0xFF20) ||
         (c >= 0xFF3B && c <= 0xFF40) || (c >= 0xFF5B && c <= 0xFF65) ||
         (c >= 0xFE30 && c <= 0xFE4F);
}

namespace {

struct CodeRange {
  char32_t first, last;
};

// Unicode's Extended_Pictographic without regional indicators and skin tones (generated).
constexpr CodeRange kEmojiBase[] = {
#include "text/emoji_table.inc"
};

}  // namespace

bool is_emoji_base(char32_t c) {
  if (c < kEmojiBase[0].first) return false;
  const CodeRange* after = std::upper_bound(std::begin(kEmojiBase), std::end(kEmojiBase), c,
                                            [](char32_t x, const CodeRange& r) { return x < r.first; });
  return c <= (after - 1)->last;
}

CharClass char_class(char32_t c) {
  if (is_space(c)) return CharClass::space;
  if (is_cjk(c)) return CharClass::cjk;
  if (is_digit(c)) return CharClass::digit;
  if (is_latin_letter(c)) return CharClass::latin;
  if (is_emoji_base(c) || is_regional_indicator(c) || is_skin_tone(c) || is_variation_selector(c) ||
      is_zwj(c) || is_keycap_mark(c) || is_emoji_tag(c)) {
    return CharClass::emoji;
  }
  if (is_punct(c)) return CharClass::punct;
  return CharClass::other;
}

const char* to_string(CharClass c) {
  switch (c) {
    case CharClass::cjk:
      return "cjk";
    case CharClass::latin:
      return "latin";
    case CharClass::digit:
      return "digit";
    case CharClass::emoji:
      return "emoji";
    case CharClass::punct:
      return "punct";
    case CharClass::space:
      return "space";
    case CharClass::other:
      return "other";
  }
  return "other";
}

char32_t fold_case(char32_t c) {
  if (c >= 'A' && c <= 'Z') return c + 32;
  if (c >= 0xFF21 && c <= 0xFF3A) return c - 0xFF21 + 'a';
  if (c >= 0xFF41 && c <= 0xFF5A) return c - 0xFF41 + 'a';
  if (c >= 0xC0 && c <= 0xDE && c != 0xD7) return c + 32;
  return c;
}

void ScriptCounts::add(std::string_view text) {
  for (std::size_t at = 0; at < text.size();) {
    const char32_t cp = next_code_point(text, &at);
    if (is_cjk(cp)) ++cjk;
    else if (is_latin_letter(cp)) ++latin;
  }
}

std::string ascii_lower(std::string_view s) {
  std::string out(s);
  for (char& ch : out)
    if (ch >= 'A' && ch <= 'Z') ch = static_cast<char>(ch - 'A' + 'a');
  return out;
}

}  // namespace kessel::text
