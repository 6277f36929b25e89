// Reading zh tokens for token deletion (compress.cc, compress_words.cc) and its meaning guards
// (compress_guards.cc): a token's character, whether it ends its clause, the person words and pronouns
// that stay with the word before them. Internal to src/summarize; inline, since the guards ask these of every token.
#pragma once

#include <cstddef>
#include <cstring>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "kessel/text/tokenize.h"
#include "kessel/text/utf8.h"

namespace kessel::summarize {

// Whether a token's text is `s`. meaning_guards asks about twenty of these a token, most of them of
// one CJK character (3 bytes) against a token of one: inlined with a literal, the length is a constant
// and the compare a few instructions, where std::string == const char* calls memcmp.
inline bool spells(const text::Token& t, std::string_view s) {
  return t.text.size() == s.size() && std::memcmp(t.text.data(), s.data(), s.size()) == 0;
}

// The code point of a CJK token (one code point; its text is valid UTF-8, as every token's is). The
// meaning guards ask about a token's character a dozen times: the three-byte characters of the BMP,
// nearly all of them, are read here in line rather than through next_code_point's checks.
inline char32_t cjk_code_point(const text::Token& t) {
  if (t.text.size() != 3) {
    std::size_t at = 0;
    return text::next_code_point(t.text, &at);
  }
  const auto byte = [&](std::size_t i) { return static_cast<char32_t>(static_cast<unsigned char>(t.text[i])); };
  return ((byte(0) & 0x0F) << 12) | ((byte(1) & 0x3F) << 6) | (byte(2) & 0x3F);
}

inline bool first_cp_in(const text::Token& t, std::u32string_view set) {
  if (t.kind != text::TokenKind::cjk) return false;
  return set.find(cjk_code_point(t)) != std::u32string_view::npos;
}

// Whether token i ends its clause: punctuation, the end, or only modal particles and emoji before them.
inline bool ends_clause(std::span<const text::Token> tokens, std::size_t i) {
  for (std::size_t j = i + 1; j < tokens.size(); ++j) {
    if (tokens[j].kind == text::TokenKind::punct) return true;
    // Modal particles, emoji and the address 亲 ("您有开通白条吗亲") may follow the clause's last word.
    if (tokens[j].kind == text::TokenKind::emoji || first_cp_in(tokens[j], U"啊呀啦哈嘛哦噢喔呗亲")) continue;
    return false;
  }
  return true;
}

// Whether the word at token i names a person someone does something for (朋友, 家人, 老人, 孩子, 妈妈, …).
inline bool is_person_word(std::span<const text::Token> tokens, std::size_t i) {
  static constexpr std::string_view kPersons[] = {"朋友", "家人", "老人", "孩子", "小孩", "妈妈", "爸爸", "父母", "老婆",
                                                  "老公", "媳妇", "儿子", "女儿", "同事", "客户", "别人", "家里", "老妈",
                                                  "老爸", "宝宝", "亲戚", "客服", "商家", "卖家", "快递", "小哥", "师傅"};
  // The bytes of the next two CJK tokens: a UTF-8 prefix is a prefix of code points.
  std::string next;
  for (std::size_t j = i; j < tokens.size() && j < i + 2 && tokens[j].kind == text::TokenKind::cjk; ++j) next += tokens[j].text;
  for (std::string_view w : kPersons)
    if (std::string_view(next).starts_with(w)) return true;
  return false;
}

// Whether a token is a one-letter preposition that takes a person (为 替 跟 和 对 向 与). It and its
// person (a pronoun, a person word or both: 跟你们, 为您, 和我老妈) stay or go together (word_end): "本来早上
// 跟你们说了要延期" must not become "你们说了要延期", where the company said it, nor "会为您配送" "会为配送"
// (the references' third person drops both: "会配送"). Not 给, which is also the verb "give"
// (能第一时间给我订单号 would lose it with its 我); meaning_guards keeps 给 before a person word.
inline bool is_person_preposition(const text::Token& t) { return t.text.size() == 3 && first_cp_in(t, U"为替跟和对向与"); }

// The token after a pronoun (你 您 他 她 我, and a 们 after it) at token k, or k when there is none.
inline std::size_t after_pronoun(std::span<const text::Token> tokens, std::size_t k) {
  if (k >= tokens.size() || tokens[k].text.size() != 3 || !first_cp_in(tokens[k], U"你您他她我")) return k;
  return k + 1 < tokens.size() && spells(tokens[k + 1], "们") ? k + 2 : k + 1;
}

// The meaning guards of a zh unit's tokens (compress_guards.cc): 1 where deletion must keep the token so
// that the sentence neither flips nor stops asking. `words` gives each token's word (empty: each token is
// one); `customer` whether the customer wrote the unit.
std::vector<char> meaning_guards(std::span<const text::Token> tokens, std::span<const int> words, bool customer);

}  // namespace kessel::summarize
