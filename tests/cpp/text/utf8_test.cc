#include "kessel/text/utf8.h"

#include <gtest/gtest.h>

#include "kessel/error.h"
#include "text/odd_text.h"

namespace kessel::text {
namespace {

TEST(Utf8, DecodesMixedScriptsWithByteOffsets) {
  const std::string s = "a中😡";  // 1 + 3 + 4 bytes
  const DecodedText d = decode_utf8(s);
  ASSERT_EQ(d.size(), 3u);
  EXPECT_EQ(d.cps[0], U'a');
  EXPECT_EQ(d.cps[1], U'中');
  EXPECT_EQ(d.cps[2], U'😡');
  EXPECT_EQ(d.byte_offsets, (std::vector<std::int64_t>{0, 1, 4, 8}));
  EXPECT_EQ(encode_utf8(d.cps.data(), d.size()), s);
}

TEST(Utf8, StrictModeNamesFileLineAndByteOffset) {
  const std::string bad = std::string("ok中") + "\xFF" + "x";
  try {
    decode_utf8(bad, Utf8Mode::strict, "dialogs.jsonl", 7);
    FAIL() << "expected ParseError";
  } catch (const ParseError& e) {
    EXPECT_EQ(e.file(), "dialogs.jsonl");
    EXPECT_EQ(e.line(), 7);
    EXPECT_NE(std::string(e.what()).find("byte offset 5"), std::string::npos) << e.what();
  }
}

TEST(Utf8, RejectsEveryMalformedKind) {
  const char* cases[] = {
      "\x80",              // stray continuation
      "\xC0\xAF",          // overlong '/'
      "\xE0\x80\xAF",      // overlong 3-byte
      "\xED\xA0\x80",      // surrogate U+D800
      "\xF4\x90\x80\x80",  // above U+10FFFF
      "\xE4\xB8",          // truncated at end
      "\xE4\x41\x41",      // missing continuation
      "\xFE",              // never valid
  };
  for (const char* c : cases) {
    EXPECT_TRUE(find_invalid_utf8(c).has_value()) << "case " << c;
    EXPECT_THROW(decode_utf8(c), ParseError);
  }
  EXPECT_FALSE(find_invalid_utf8("\xF4\x8F\xBF\xBF").has_value());  // U+10FFFF is valid
}

TEST(Utf8, LossyModeReplacesEachBadByte) {
  const std::string bad = std::string("a") + "\xE4\xB8" + "b";
  const DecodedText d = decode_utf8(bad, Utf8Mode::lossy);
  ASSERT_EQ(d.size(), 4u);
  EXPECT_EQ(d.cps[1], 0xFFFDu);
  EXPECT_EQ(d.cps[2], 0xFFFDu);
  EXPECT_EQ(d.replaced, 2);
  EXPECT_EQ(d.byte_offsets[3], 3);  // 'b' keeps its original byte offset
  EXPECT_TRUE(is_valid_utf8(sanitize_utf8(bad)));
}

TEST(Utf8, CharClasses) {
  EXPECT_EQ(char_class(U'中'), CharClass::cjk);
  EXPECT_EQ(char_class(U'あ'), CharClass::cjk);
  EXPECT_EQ(char_class(U'x'), CharClass::latin);
  EXPECT_EQ(char_class(U'é'), CharClass::latin);
  EXPECT_EQ(char_class(U'7'), CharClass::digit);
  EXPECT_EQ(char_class(U'７'), CharClass::digit);
  EXPECT_EQ(char_class(U'😭'), CharClass::emoji);
  EXPECT_EQ(char_class(0x1F3FB), CharClass::emoji);  // skin tone
  EXPECT_EQ(char_class(0x200D), CharClass::emoji);   // ZWJ
  EXPECT_EQ(char_class(U'。'), CharClass::punct);
  EXPECT_EQ(char_class(U'！'), CharClass::punct);
  EXPECT_EQ(char_class(U'?'), CharClass::punct);
  EXPECT_EQ(char_class(U' '), CharClass::space);
  EXPECT_EQ(char_class(0x3000), CharClass::space);
  EXPECT_EQ(fold_case(U'Ａ'), U'a');
}

// next_code_point walks a text as decode_utf8 reads it in lossy mode, on every kind of malformed
// input too.
TEST(Utf8, NextCodePointReadsAsLossyDecoding) {
  std::mt19937_64 rng(11);
  std::vector<std::string> texts = {"", "a", "\xFF", "\xE4\xB8", "a\xE4\xB8" "b", "\xF4\x90\x80\x80", "👩‍💻"};
  for (int k = 0; k < 2000; ++k) texts.push_back(testing::odd_text(rng));
  for (const auto& s : texts) {
    const DecodedText d = decode_utf8(s, Utf8Mode::lossy);
    std::vector<char32_t> cps;
    std::vector<std::int64_t> offsets;
    for (std::size_t at = 0; at < s.size();) {
      offsets.push_back(static_cast<std::int64_t>(at));
      cps.push_back(next_code_point(s, &at));
    }
    offsets.push_back(static_cast<std::int64_t>(s.size()));
    EXPECT_EQ(cps, d.cps) << s;
    EXPECT_EQ(offsets, d.byte_offsets) << s;
  }
}

// RFC 3629 read one sequence at a time, as plainly as it is written: a malformed sequence gives
// U+FFFD for its first byte and reading goes on at the next.
std::vector<char32_t> reference_lossy(const std::string& s) {
  std::vector<char32_t> out;
  for (std::size_t i = 0; i < s.size();) {
    const auto b0 = static_cast<unsigned char>(s[i]);
    std::size_t len = 0;
    char32_t value = 0, min_value = 0;
    if (b0 < 0x80) len = 1, value = b0;
    else if (b0 >= 0xC2 && b0 <= 0xDF) len = 2, value = b0 & 0x1F, min_value = 0x80;
    else if (b0 >= 0xE0 && b0 <= 0xEF) len = 3, value = b0 & 0x0F, min_value = 0x800;
    else if (b0 >= 0xF0 && b0 <= 0xF4) len = 4, value = b0 & 0x07, min_value = 0x10000;
    bool ok = len > 0 && i + len <= s.size();
    for (std::size_t k = 1; ok && k < len; ++k) {
      const auto b = static_cast<unsigned char>(s[i + k]);
      ok = (b & 0xC0) == 0x80;
      value = (value << 6) | (b & 0x3F);
    }
    ok = ok && value >= min_value && !(value >= 0xD800 && value <= 0xDFFF) && value <= 0x10FFFF;
    out.push_back(ok ? value : 0xFFFD);
    i += ok ? len : 1;
  }
  return out;
}

// Every lead byte, with every second byte and the third bytes at the edges of the ranges that
// matter (continuation bytes, the E0 and ED limits, CJK), whole and cut short: the quick path for
// common sequences must read each of them as the full checks do.
TEST(Utf8, EveryShortSequenceDecodesAsTheReference) {
  const unsigned char thirds[] = {0x00, 0x41, 0x7F, 0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xAD, 0xBF, 0xC0, 0xC2, 0xE4, 0xED, 0xF4, 0xFF};
  for (int b0 = 0; b0 < 256; ++b0)
    for (int b1 = 0; b1 < 256; ++b1)
      for (unsigned char b2 : thirds) {
        const std::string s{static_cast<char>(b0), static_cast<char>(b1), static_cast<char>(b2)};
        for (std::size_t n = 1; n <= s.size(); ++n) {
          if (n < 3 && b2 != thirds[0]) continue;  // the prefixes once per (b0, b1)
          const std::string text = s.substr(0, n);
          ASSERT_EQ(decode_utf8(text, Utf8Mode::lossy).cps, reference_lossy(text)) << b0 << " " << b1 << " " << int{b2};
        }
      }
}

}  // namespace
}  // namespace kessel::text
