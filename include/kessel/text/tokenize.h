// Tokenization of customer-service text (Chinese, English, mixed, with emoji and emoticons).
//
// Rules, tried in this order at each position (white space separates and is dropped):
//   [..]       a bracketed run of 1–10 characters: `placeholder` when the content is a known
//              anonymization slot ([数字] [地址] [姓名] [订单编号] ..., see is_placeholder_name),
//              or `weibo_emoticon` when it is a known Weibo emoticon ([怒] [哈哈] [泪] ...) or the
//              bracketed form is in the lexicon; otherwise '[' is plain punctuation.
//   url        http://, https:// or www. up to white space or a CJK character.
//   emoji      one token per cluster: flags (two regional indicators), keycaps (0-9 # * [FE0F]
//   20E3),
//              tag sequences (subdivision flags), base emoji with variation selectors and skin
//              tones, joined by ZWJ into one cluster (👩‍💻, 👨‍👩‍👧).
//   term       the longest lexicon term (TermMatcher) when it is longer than the natural token at
//   this
//              position (气死我了, 芭比Q了, "thank you"); Latin ends must fall on word boundaries.
//              A term made only of ASCII symbols is reported as `emoticon`.
//   mention, hashtag   @name, #tag (ASCII word characters).
//   emoticon   built-in ASCII emoticons (builtin_emoticons(): ":(", ":-)", ":D", "T_T", ">_<",
//   "orz",
//              ":'(", "^_^", "<3", ...): longest first; an emoticon starting (ending) with a letter
//              or digit must not touch a letter or digit on that side (":Default" is not ":D"); one
//              ending with an opening bracket that the following text closes within 12 characters, or
//              that CJK text follows at once, is punctuation ("订单号:[订单编号]", "note:(see below)"),
//              and so are ":[" and ":]" right after a CJK character (a label: "信息发送:[订单编号:[").
//   word       Latin letters with inner apostrophes or hyphens (don't, e-mail), digits allowed
//   after a
//              letter (v2); `lower` is the case-folded form.
//   number     digits with inner . , : / between digits (3.5, 1,000, 10:30, 2024/03/01).
//   cjk        one token per CJK character.
//   punct      a run of the same punctuation character is one token (!!!, ???, 。。。, ...).
//   other      anything else, one code point.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "kessel/text/utf8.h"

namespace kessel::text {

class TermMatcher;

enum class TokenKind {
  cjk,
  word,
  number,
  placeholder,
  emoji,
  emoticon,
  weibo_emoticon,
  term,
  url,
  mention,
  hashtag,
  punct,
  other
};
const char* to_string(TokenKind k);

struct Token {
  std::string text;   // as written
  std::string lower;  // normalize_term(text): case-folded, emoji variation selectors removed
  TokenKind kind = TokenKind::other;
  std::int64_t byte_start = 0;  // into the original bytes, end exclusive
  std::int64_t byte_end = 0;
  std::int64_t char_start = 0;  // code point offsets, end exclusive
  std::int64_t char_end = 0;
};

struct TokenizeOptions {
  const TermMatcher* terms = nullptr;  // lexicon terms for forward maximum matching (optional)
  Utf8Mode utf8 = Utf8Mode::strict;    // strict: invalid UTF-8 throws ParseError
};

std::vector<Token> tokenize(std::string_view text, const TokenizeOptions& options = {});
// A token that carries no word: punctuation runs and lone other code points.
inline bool is_punctuation(const Token& t) { return t.kind == TokenKind::punct || t.kind == TokenKind::other; }
// Same, on text the caller already decoded (`bytes` must be the text `decoded` came from).
std::vector<Token> tokenize(std::string_view bytes, const DecodedText& decoded,
                            const TokenizeOptions& options = {});

// Length in code points of the emoji cluster starting at cps[0], 0 when none starts there.
std::size_t emoji_cluster_length(const char32_t* cps, std::size_t n);

const std::vector<std::string>& builtin_emoticons();
bool is_placeholder_name(std::string_view content);     // 数字, 地址, 姓名, 订单编号, ...
bool is_weibo_emoticon_name(std::string_view content);  // 怒, 哈哈, 泪, 抓狂, ...

}  // namespace kessel::text
