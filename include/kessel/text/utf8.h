// UTF-8 decoding with validation, and the code point classes the tokenizer works with.
//
// Decoding is strict by default: the first malformed sequence (stray continuation byte, truncated
// sequence, overlong form, surrogate, value above U+10FFFF) throws kessel::ParseError naming the
// file, the line and the byte offset. Lossy mode, which the caller must ask for, replaces each
// malformed byte by U+FFFD instead. Byte offsets always refer to the caller's original bytes.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace kessel::text {

enum class Utf8Mode { strict, lossy };

// A decoded string: code points plus the byte offset where each starts in the original input.
// byte_offsets has cps.size() + 1 entries; the last is the input length, so code point i spans
// bytes [byte_offsets[i], byte_offsets[i + 1]).
struct DecodedText {
  std::vector<char32_t> cps;
  std::vector<std::int64_t> byte_offsets;
  std::int64_t replaced = 0;  // malformed bytes replaced by U+FFFD (lossy mode only)
  std::size_t size() const { return cps.size(); }
};

// Decodes `bytes`. In strict mode a malformed sequence throws
// ParseError(file, line, "invalid UTF-8 at byte offset N (0xXX): <why>"); `file` and `line` only
// label the message (line 0 means "not from a line-oriented file").
DecodedText decode_utf8(std::string_view bytes, Utf8Mode mode = Utf8Mode::strict,
                        const std::string& file = "<string>", long line = 0);

// Byte offset of the first malformed sequence, or nullopt when `bytes` is valid UTF-8.
std::optional<std::int64_t> find_invalid_utf8(std::string_view bytes);
inline bool is_valid_utf8(std::string_view bytes) { return !find_invalid_utf8(bytes).has_value(); }

// Valid UTF-8 copy of `bytes` with each malformed byte replaced by U+FFFD.
std::string sanitize_utf8(std::string_view bytes);

// The code point that starts at bytes[*at], read as decode_utf8 reads it in lossy mode (a malformed
// sequence is one byte read as U+FFFD), with *at moved past it; *at must be < bytes.size(). For
// loops that look at each code point once (counting, classifying, normalizing a token): a
// DecodedText costs two vector allocations, which on short texts cost more than the decoding.
char32_t next_code_point(std::string_view bytes, std::size_t* at);

void append_utf8(std::string& out, char32_t cp);
std::string encode_utf8(char32_t cp);
std::string encode_utf8(const char32_t* cps, std::size_t n);

// ---- code point classes
// -------------------------------------------------------------------------- cjk: Han ideographs
// (BMP, extension A and the supplementary planes), kana, Hangul syllables. latin: ASCII letters,
// Latin-1 / Latin Extended letters, fullwidth Latin letters. digit: ASCII and fullwidth digits.
// emoji: Extended_Pictographic as approximated by emoji_base() plus the emoji components
//        (regional indicators, skin tones, ZWJ, VS15/VS16, keycap mark, tag characters).
// punct: ASCII punctuation and symbols, General Punctuation, CJK punctuation, fullwidth
// punctuation. space: Unicode white space.
enum class CharClass { cjk, latin, digit, emoji, punct, space, other };
CharClass char_class(char32_t cp);
const char* to_string(CharClass c);

bool is_cjk(char32_t cp);
bool is_latin_letter(char32_t cp);
bool is_digit(char32_t cp);  // ASCII or fullwidth
bool is_space(char32_t cp);
bool is_punct(char32_t cp);

// CJK characters and Latin letters counted over one or more texts, and kessel's one rule for calling
// text Chinese: CJK at least 30% of the two (the summarizer's language of a dialogue, the ROUGE
// protocol of a reference file).
struct ScriptCounts {
  std::size_t cjk = 0, latin = 0;
  void add(std::string_view text);  // lossy: a malformed byte counts as neither
  bool mostly_cjk() const { return cjk > 0 && 10 * cjk >= 3 * (cjk + latin); }
};

// Emoji building blocks (Unicode TR51). emoji_base is Unicode's Extended_Pictographic property (a
// table generated from ICU, src/text/emoji_table.inc, Unicode 15.0; it includes the code points
// reserved for future emoji) without the regional indicators and skin tones, which have their own
// tests below; the ASCII characters (digits, '#', '*') only become emoji inside keycap sequences.
bool is_emoji_base(char32_t cp);
inline bool is_regional_indicator(char32_t cp) { return cp >= 0x1F1E6 && cp <= 0x1F1FF; }
inline bool is_skin_tone(char32_t cp) { return cp >= 0x1F3FB && cp <= 0x1F3FF; }
inline bool is_variation_selector(char32_t cp) { return cp == 0xFE0F || cp == 0xFE0E; }
inline bool is_zwj(char32_t cp) { return cp == 0x200D; }
inline bool is_keycap_mark(char32_t cp) { return cp == 0x20E3; }
inline bool is_emoji_tag(char32_t cp) { return cp >= 0xE0020 && cp <= 0xE007F; }
inline bool is_keycap_base(char32_t cp) {
  return (cp >= '0' && cp <= '9') || cp == '#' || cp == '*';
}
// What may trail a sentence after its last word or mark without ending it: space, an emoji and its
// modifiers ("能送吗？😊").
inline bool is_trailing_symbol(char32_t cp) {
  return is_space(cp) || is_emoji_base(cp) || is_variation_selector(cp) || is_skin_tone(cp);
}

// ASCII lowercase of a code point (other code points unchanged; fullwidth Latin folds to ASCII).
char32_t fold_case(char32_t cp);
// `s` with A-Z lowered and every other byte as it is (UTF-8 stays valid).
std::string ascii_lower(std::string_view s);

}  // namespace kessel::text
