// The generated emoji table (src/text/emoji_table.inc) against the ICU the tests link: every code
// point, so a table generated from another Unicode version shows up here with the first difference.
#include <gtest/gtest.h>
#include <unicode/uchar.h>
#include <unicode/uversion.h>

#include "kessel/text/utf8.h"

namespace kessel::text {
namespace {

TEST(EmojiTable, IsExtendedPictographicWithoutIndicatorsAndSkinTones) {
  UVersionInfo version;
  u_getUnicodeVersion(version);
  if (version[0] != 15 || version[1] != 0)
    GTEST_SKIP() << "the table is Unicode 15.0, this ICU has Unicode " << int{version[0]} << "."
                 << int{version[1]} << ": regenerate it with tools/gen_emoji_table.cc";
  int differences = 0;
  for (UChar32 c = 0; c <= 0x10FFFF; ++c) {
    const bool icu = u_hasBinaryProperty(c, UCHAR_EXTENDED_PICTOGRAPHIC) && !is_regional_indicator(c) &&
                     !is_skin_tone(c);
    if (is_emoji_base(static_cast<char32_t>(c)) != icu && ++differences <= 5)
      ADD_FAILURE() << "U+" << std::hex << c << ": table " << !icu << ", ICU " << icu;
  }
  EXPECT_EQ(differences, 0);
}

TEST(EmojiTable, SymbolsThatAreNotPictographs) {
  // These used to fall in the hand-written ranges: a check mark, triangles, an angle bracket, dingbat
  // quotes and digits, a keyboard symbol.
  for (char32_t c : {0x2713, 0x25B6 + 1, 0x2329, 0x275B, 0x2780, 0x2318}) EXPECT_FALSE(is_emoji_base(c)) << static_cast<unsigned>(c);
  for (char32_t c : {0x1F600, 0x2764, 0x00A9, 0x1F97A, 0x1FAE0, 0x2714}) EXPECT_TRUE(is_emoji_base(c)) << static_cast<unsigned>(c);
}

}  // namespace
}  // namespace kessel::text
