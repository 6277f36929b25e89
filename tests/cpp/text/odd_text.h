// Random texts made of the pieces the text layer's fast paths must treat as the plain ones do:
// ASCII of both cases, digits, white space of several kinds (tab, U+00A0, U+3000), variation
// selectors, ZWJ emoji sequences and skin tones, fullwidth and Latin-1 letters, CJK, placeholders
// ([数字]), emoticons, and malformed UTF-8 (a stray continuation byte, a truncated sequence, an
// overlong form, a byte never valid).
#pragma once

#include <cstdint>
#include <random>
#include <string>
#include <vector>

namespace kessel::text::testing {

inline const std::vector<std::string>& odd_pieces() {
  // clang-format off
  static const std::vector<std::string> pieces = {
      "a", "Z", "q", "7", "０", " ", "\t", "\n",
      "\xC2\xA0", "\xE3\x80\x80",                  // U+00A0, U+3000
      "\xEF\xB8\x8F", "\xEF\xB8\x8E", "\xE2\x80\x8D",  // VS16, VS15, ZWJ
      "👩", "💻", "👩‍💻", "❤", "👍🏽", "🇨🇳", "1️⃣", "Ａ", "ｚ", "À", "é", "ß",
      "中", "气", "死", "我", "了", "不", "开", "心", "好", "的", "谢", "[数字]", "[怒]", "【", "】",
      "[", "]", ":", "(", ")", "-", "_", "'", ".", "。", "！", "？", "，", "…", ":(", ":-)", "T_T", "orz",
      "¯\\_(ツ)_/¯", "http://x.cn", "@a", "#t",
      "\x80", "\xE4\xB8", "\xC0\xAF", "\xFF"};  // stray, truncated, overlong, never valid
  // clang-format on
  return pieces;
}

// A text of up to `max_pieces` odd pieces (possibly none).
inline std::string odd_text(std::mt19937_64& rng, int max_pieces = 12) {
  const auto& pieces = odd_pieces();
  std::uniform_int_distribution<int> count(0, max_pieces);
  std::uniform_int_distribution<std::size_t> pick(0, pieces.size() - 1);
  std::string s;
  for (int k = count(rng); k > 0; --k) s += pieces[pick(rng)];
  return s;
}

}  // namespace kessel::text::testing
