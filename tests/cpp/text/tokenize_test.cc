#include "kessel/text/tokenize.h"

#include <gtest/gtest.h>

#include <algorithm>

#include "kessel/error.h"
#include "kessel/text/lexicon.h"
#include "text/emoticon_index.h"

namespace kessel::text {
namespace {

std::vector<std::string> texts(const std::vector<Token>& t) {
  std::vector<std::string> out;
  for (const auto& x : t) out.push_back(x.text);
  return out;
}

const Token& find(const std::vector<Token>& toks, const std::string& text) {
  for (const auto& t : toks) {
    if (t.text == text) return t;
  }
  throw std::runtime_error("token not found: " + text);
}

TEST(Tokenize, CjkCharactersWordsNumbersPlaceholders) {
  const auto toks = tokenize("订单[订单编号]在[地址]，Order ABC-12 costs 3.5 dollars");
  EXPECT_EQ(texts(toks),
            (std::vector<std::string>{"订", "单", "[订单编号]", "在", "[地址]", "，", "Order",
                                      "ABC", "-", "12", "costs", "3.5", "dollars"}));
  EXPECT_EQ(find(toks, "[订单编号]").kind, TokenKind::placeholder);
  EXPECT_EQ(find(toks, "Order").lower, "order");
  EXPECT_EQ(find(toks, "3.5").kind, TokenKind::number);
}

TEST(Tokenize, OffsetsAreBytesAndCodePoints) {
  const std::string s = "好😡 ok";
  const auto toks = tokenize(s);
  ASSERT_EQ(toks.size(), 3u);
  EXPECT_EQ(toks[1].kind, TokenKind::emoji);
  EXPECT_EQ(toks[1].byte_start, 3);
  EXPECT_EQ(toks[1].byte_end, 7);
  EXPECT_EQ(toks[1].char_start, 1);
  EXPECT_EQ(toks[1].char_end, 2);
  EXPECT_EQ(toks[2].char_start, 3);
  EXPECT_EQ(s.substr(static_cast<std::size_t>(toks[2].byte_start), 2), "ok");
}

TEST(Tokenize, EmojiClustersAreOneToken) {
  const std::string family = "\U0001F468\u200D\U0001F469\u200D\U0001F467";  // 👨‍👩‍👧
  const std::string thumbs_dark = "\U0001F44D\U0001F3FF";                   // 👍🏿
  const std::string heart = "\u2764\uFE0F";                                 // ❤️
  const std::string keycap = "1\uFE0F\u20E3";                               // 1️⃣
  const std::string flag = "\U0001F1E8\U0001F1F3";                          // 🇨🇳
  const std::string facepalm = "\U0001F926\U0001F3FD\u200D\u2640\uFE0F";    // 🤦🏽‍♀️
  const std::string england =
      "\U0001F3F4\U000E0067\U000E0062\U000E0065\U000E006E\U000E0067\U000E007F";
  const auto toks =
      tokenize(family + thumbs_dark + heart + keycap + flag + facepalm + england + "12");
  EXPECT_EQ(texts(toks), (std::vector<std::string>{family, thumbs_dark, heart, keycap, flag,
                                                   facepalm, england, "12"}));
  for (std::size_t i = 0; i + 1 < toks.size(); ++i) EXPECT_EQ(toks[i].kind, TokenKind::emoji) << i;
  EXPECT_EQ(toks.back().kind, TokenKind::number);
  EXPECT_EQ(find(toks, heart).lower, "\u2764");  // variation selector dropped for lookups
}

TEST(Tokenize, AVariationSelectorAfterALetterStaysInItsWord) {
  const auto toks = tokenize("that I\uFE0F have to pay");
  EXPECT_EQ(texts(toks), (std::vector<std::string>{"that", "I\uFE0F", "have", "to", "pay"}));
  EXPECT_EQ(toks[1].kind, TokenKind::word);
  EXPECT_EQ(toks[1].lower, "i");
  const auto it = tokenize("I\uFE0Ft takes");
  EXPECT_EQ(texts(it), (std::vector<std::string>{"I\uFE0Ft", "takes"}));
  EXPECT_EQ(it[0].lower, "it");
}

TEST(Tokenize, EmoticonsWithBoundaries) {
  const auto toks =
      tokenize("so slow :( T_T >_< orz :'( :-) :D but :Default and https://t.co/x 10:30");
  EXPECT_EQ(find(toks, ":(").kind, TokenKind::emoticon);
  EXPECT_EQ(find(toks, "T_T").kind, TokenKind::emoticon);
  EXPECT_EQ(find(toks, ">_<").kind, TokenKind::emoticon);
  EXPECT_EQ(find(toks, "orz").kind, TokenKind::emoticon);
  EXPECT_EQ(find(toks, ":'(").kind, TokenKind::emoticon);
  EXPECT_EQ(find(toks, ":-)").kind, TokenKind::emoticon);
  EXPECT_EQ(find(toks, ":D").kind, TokenKind::emoticon);
  EXPECT_EQ(find(toks, "Default").kind, TokenKind::word);  // ":Default" is not ":D"
  EXPECT_EQ(find(toks, "https://t.co/x").kind, TokenKind::url);
  EXPECT_EQ(find(toks, "10:30").kind, TokenKind::number);
  // "orz" inside a word is not an emoticon.
  for (const auto& t : tokenize("corzo")) EXPECT_NE(t.kind, TokenKind::emoticon);
}

TEST(Tokenize, AColonBeforeABracketGroupIsNotAnEmoticon) {
  // CSDS writes "订单号:[订单编号]": a colon and a placeholder, not the emoticon ":[" (with or without
  // the lexicon, which also lists ":[").
  Lexicon lex = load_default_lexicon(KESSEL_SOURCE_DIR "/data/lexicon");
  TokenizeOptions with_terms;
  with_terms.terms = &lex.matcher();
  for (const auto& options : {TokenizeOptions{}, with_terms}) {
    const auto toks = tokenize("订单号:[订单编号] note:(see below) sad :( end :[", options);
    EXPECT_EQ(find(toks, "[订单编号]").kind, TokenKind::placeholder);
    EXPECT_EQ(find(toks, ":").kind, TokenKind::punct);
    EXPECT_EQ(find(toks, ":(").kind, TokenKind::emoticon);  // "sad :(" closes nothing
    EXPECT_EQ(find(toks, ":[").kind, TokenKind::emoticon);  // at the end of the text
    EXPECT_EQ(find(toks, "see").kind, TokenKind::word);
    for (const auto& t : tokenize("税号:[数字", options)) EXPECT_NE(t.kind, TokenKind::emoticon);
    // A CSDS system line cut inside its slot, and a label with an empty value: after a CJK
    // character ":[" and ":]" are a label's colon and a bracket.
    for (const char* text : {"信息发送:[订单编号:[", "金额:，下单时间:]"})
      for (const auto& t : tokenize(text, options)) EXPECT_NE(t.kind, TokenKind::emoticon) << text;
  }
}

TEST(Tokenize, WeiboEmoticonsVersusPlaceholders) {
  const auto toks = tokenize("[怒][哈哈]客服电话[电话]，[不存在的词]");
  EXPECT_EQ(find(toks, "[怒]").kind, TokenKind::weibo_emoticon);
  EXPECT_EQ(find(toks, "[哈哈]").kind, TokenKind::weibo_emoticon);
  EXPECT_EQ(find(toks, "[电话]").kind, TokenKind::placeholder);
  // Unknown bracket content: the bracket is punctuation and the content is tokenized normally.
  EXPECT_EQ(find(toks, "[").kind, TokenKind::punct);
  EXPECT_EQ(find(toks, "不").kind, TokenKind::cjk);
}

TEST(Tokenize, ForwardMaximumMatchingFindsLexiconTerms) {
  Lexicon lex;
  lex.add("气死我了", LexiconEntry{Emotion::anger, 0.9f, Polarity::negative, "test"});
  lex.add("气死", LexiconEntry{Emotion::anger, 0.8f, Polarity::negative, "test"});
  lex.add("芭比Q了", LexiconEntry{Emotion::sadness, 0.8f, Polarity::negative, "test"});
  lex.add("thank you", LexiconEntry{Emotion::trust, 0.4f, Polarity::positive, "test"});
  lex.add("ugh", LexiconEntry{Emotion::anger, 0.6f, Polarity::negative, "test"});
  TokenizeOptions o;
  o.terms = &lex.matcher();
  const auto toks = tokenize("真的气死我了，这下芭比q了。Thank you though", o);
  const Token& t = find(toks, "气死我了");
  EXPECT_EQ(t.kind, TokenKind::term);
  EXPECT_EQ(t.char_start, 2);
  EXPECT_EQ(t.char_end, 6);
  EXPECT_EQ(t.byte_start, 6);
  EXPECT_EQ(t.byte_end, 18);
  EXPECT_EQ(find(toks, "芭比q了").kind, TokenKind::term);  // case-folded match, written form kept
  EXPECT_EQ(find(toks, "Thank you").kind, TokenKind::term);
  EXPECT_EQ(find(toks, "though").kind, TokenKind::word);  // "ugh" is not found inside "though"
}

TEST(Tokenize, InvalidUtf8ThrowsOrIsReplaced) {
  const std::string bad = std::string("ab\xC3") + "cd";
  EXPECT_THROW(tokenize(bad), ParseError);
  TokenizeOptions o;
  o.utf8 = Utf8Mode::lossy;
  const auto toks = tokenize(bad, o);
  ASSERT_EQ(toks.size(), 3u);
  EXPECT_EQ(toks[1].text, "\uFFFD");
  EXPECT_EQ(toks[2].byte_start, 3);
}

TEST(Tokenize, EmptyAndWhitespaceOnly) {
  EXPECT_TRUE(tokenize("").empty());
  EXPECT_TRUE(tokenize(" \t\n\u3000").empty());
}

TEST(Tokenize, PunctuationRunsAndHandles) {
  const auto toks = tokenize("@SpotifyCares why??? #fail 太慢了！！！");
  EXPECT_EQ(find(toks, "@SpotifyCares").kind, TokenKind::mention);
  EXPECT_EQ(find(toks, "???").kind, TokenKind::punct);
  EXPECT_EQ(find(toks, "#fail").kind, TokenKind::hashtag);
  EXPECT_EQ(find(toks, "！！！").kind, TokenKind::punct);
}

// The index's groups hold exactly the emoticons that start with their code point, in the order the
// plain list tries them (longest first, stable), for the built-ins and for a list with repeats,
// equal lengths, an empty entry and non-ASCII starts.
TEST(EmoticonIndex, GroupsKeepThePlainListsOrder) {
  const std::vector<std::string> odd = {":)", ":-)", "", ":(", ":-)", "¯\\_(ツ)_/¯", "ツ", "(╯°□°)╯︵ ┻━┻", "(´･ω･`)", "xD"};
  for (const auto* list : {&builtin_emoticons(), &odd}) {
    const EmoticonIndex index(*list);
    std::vector<std::u32string> plain;
    for (const auto& e : *list) {
      const DecodedText d = decode_utf8(e);
      if (!d.cps.empty()) plain.emplace_back(d.cps.begin(), d.cps.end());
    }
    std::stable_sort(plain.begin(), plain.end(), [](const auto& a, const auto& b) { return a.size() > b.size(); });
    EXPECT_EQ(index.longest_first(), plain);
    std::vector<char32_t> cps;
    for (char32_t cp = 0; cp < 0x400; ++cp) cps.push_back(cp);
    for (char32_t cp : {U'ツ', U'中', U'😡', char32_t{0xFFFD}, char32_t{0x10FFFF}}) cps.push_back(cp);
    for (char32_t cp : cps) {
      std::vector<std::u32string> want, got;
      for (const auto& e : plain)
        if (e.front() == cp) want.push_back(e);
      for (const auto& e : index.candidates(cp))
        if (e.front() == cp) got.push_back(e);
      EXPECT_EQ(got, want) << static_cast<unsigned>(cp);
      if (cp < 0x80) {
        EXPECT_EQ(index.candidates(cp).size(), want.size()) << static_cast<unsigned>(cp);
      }
    }
  }
}

}  // namespace
}  // namespace kessel::text
