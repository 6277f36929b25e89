// normalize_term and TermMatcher against plain versions of their rules, on odd texts
// (text/odd_text.h): both sit on the tokenizer's hot path and have fast implementations.
#include "kessel/text/lexicon.h"

#include <gtest/gtest.h>

#include <cctype>
#include <set>

#include "kessel/text/tokenize.h"
#include "kessel/text/utf8.h"
#include "text/odd_text.h"
#include "text/test_paths.h"

namespace kessel::text {
namespace {

// normalize_term's rule as first written: decode, trim white space, drop variation selectors, fold.
std::string plain_normalize_term(std::string_view term) {
  const DecodedText d = decode_utf8(term, Utf8Mode::lossy);
  std::size_t b = 0, e = d.cps.size();
  while (b < e && is_space(d.cps[b])) ++b;
  while (e > b && is_space(d.cps[e - 1])) --e;
  std::string out;
  for (std::size_t i = b; i < e; ++i) {
    if (is_variation_selector(d.cps[i])) continue;
    append_utf8(out, fold_case(d.cps[i]));
  }
  return out;
}

TEST(NormalizeTerm, MatchesThePlainRule) {
  std::vector<std::string> texts = {"",
                                    " ",
                                    "  \t",
                                    "Ok",
                                    " Thank You ",
                                    "\xEF\xB8\x8F",
                                    " \xEF\xB8\x8F ",
                                    "\xEF\xB8\x8F x",
                                    "x \xEF\xB8\x8F",
                                    "❤\xEF\xB8\x8F",
                                    "ＡＢｃ",
                                    "ÀÉ",
                                    "\xE3\x80\x80好的\xE3\x80\x80",
                                    "[数字]",
                                    "👩‍💻",
                                    "\xFF",
                                    "a\xE4\xB8"};
  std::mt19937_64 rng(3);
  for (int k = 0; k < 3000; ++k) texts.push_back(testing::odd_text(rng));
  for (const auto& s : texts) EXPECT_EQ(normalize_term(s), plain_normalize_term(s)) << s;
  EXPECT_EQ(normalize_term(" \xEF\xB8\x8F x"),
            " x");  // the selector is not white space: the space stays
}

// normalizes_to_itself says yes only where normalize_term gives the text back as it is, and the
// tokenizer's lower forms (which trust it) are normalize_term's.
TEST(NormalizeTerm, NormalizesToItselfOnlyWhereTheTextStays) {
  std::vector<std::string> texts = {"", "ok", "Ok", "好", "好的", " 好", "’", "'", "ÀÉ", "àé", "ｃ", "Ｃ",
                                    "❤\xEF\xB8\x8F", "👩‍💻", "[数字]", "\xFF", "a\xE4\xB8"};
  std::mt19937_64 rng(5);
  for (int k = 0; k < 3000; ++k) texts.push_back(testing::odd_text(rng));
  for (const auto& s : texts) {
    const DecodedText d = decode_utf8(s, Utf8Mode::lossy);
    if (d.replaced == 0 && normalizes_to_itself(d.cps.data(), d.cps.size())) {
      EXPECT_EQ(normalize_term(s), s) << s;
    }
    for (const Token& t : tokenize(s, TokenizeOptions{nullptr, Utf8Mode::lossy}))
      EXPECT_EQ(t.lower, normalize_term(t.text)) << s;
  }
  const std::u32string folds = U"Ok", stays = U"ok";
  EXPECT_FALSE(normalizes_to_itself(folds.data(), folds.size()));
  EXPECT_TRUE(normalizes_to_itself(stays.data(), stays.size()));
}

// TermMatcher::longest_match's rule, one term at a time: the text, folded and without variation
// selectors, starts with the term; the longest such term wins.
std::size_t plain_longest_match(const std::vector<std::u32string>& terms, const char32_t* cps,
                                std::size_t n, std::size_t* consumed) {
  std::size_t best = 0, best_consumed = 0;
  for (const auto& term : terms) {
    std::size_t i = 0, k = 0;
    for (; k < term.size(); ++k, ++i) {
      while (i < n && is_variation_selector(cps[i])) ++i;
      if (i == n || fold_case(cps[i]) != term[k]) break;
    }
    if (k == term.size() && !term.empty() && term.size() > best) {
      best = term.size();
      best_consumed = i;
    }
  }
  *consumed = best_consumed;
  return best;
}

void expect_same_matches(const TermMatcher& matcher, const std::vector<std::u32string>& terms,
                         const std::vector<std::string>& texts) {
  for (const auto& s : texts) {
    const DecodedText d = decode_utf8(s, Utf8Mode::lossy);
    for (std::size_t i = 0; i <= d.size(); ++i) {
      std::size_t fast_consumed = 99, plain_consumed = 99;
      const std::size_t fast =
          matcher.longest_match(d.cps.data() + i, d.size() - i, &fast_consumed);
      const std::size_t plain =
          plain_longest_match(terms, d.cps.data() + i, d.size() - i, &plain_consumed);
      ASSERT_EQ(fast, plain) << s << " at " << i;
      ASSERT_EQ(fast_consumed, plain_consumed) << s << " at " << i;
    }
  }
}

TEST(TermMatcher, MatchesThePlainRuleOnRandomTerms) {
  std::mt19937_64 rng(5);
  TermMatcher matcher;
  std::vector<std::u32string> terms;
  std::set<std::u32string> distinct;
  // Enough terms that the edge table grows several times; empty terms and repeats included.
  for (int k = 0; k < 3000; ++k) {
    const std::string term = normalize_term(testing::odd_text(rng, 4));
    matcher.insert(term);
    const DecodedText d = decode_utf8(term, Utf8Mode::lossy);
    terms.emplace_back(d.cps.begin(), d.cps.end());
    if (!d.cps.empty()) distinct.insert(terms.back());
  }
  EXPECT_EQ(matcher.size(), distinct.size());
  std::vector<std::string> texts = {"", "x"};
  for (int k = 0; k < 300; ++k) texts.push_back(testing::odd_text(rng, 10));
  expect_same_matches(matcher, terms, texts);
}

// find looks a term up under normalize_term's key, whether it reads the term as it is (already
// normalized) or normalizes it first: the default lexicon's terms as written, with white space
// around, in upper case, with a variation selector, and odd texts.
TEST(Lexicon, FindLooksUpTheNormalizedKey) {
  const Lexicon lex = load_default_lexicon(testing::lexicon_dir());
  std::vector<std::string> texts = {"", " ", "\xFF", "\xEF\xBF\xBD"};
  std::mt19937_64 rng(9);
  for (int k = 0; k < 500; ++k) texts.push_back(testing::odd_text(rng, 6));
  for (const auto& [term, entries] : lex.entries()) {
    std::string upper = term;
    for (char& c : upper) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    for (const std::string& v : {term, " " + term + " ", upper, term + "\xEF\xB8\x8F"}) texts.push_back(v);
  }
  for (const std::string& s : texts) {
    const auto it = lex.entries().find(normalize_term(s));
    const std::vector<LexiconEntry>* expected = it == lex.entries().end() ? nullptr : &it->second;
    ASSERT_EQ(lex.find(s), expected) << s;
  }
}

TEST(TermMatcher, MatchesThePlainRuleOnTheDefaultLexicon) {
  const Lexicon lex = load_default_lexicon(testing::lexicon_dir());
  std::vector<std::u32string> terms;
  for (const auto& [term, entries] : lex.entries()) {
    const DecodedText d = decode_utf8(term, Utf8Mode::lossy);
    terms.emplace_back(d.cps.begin(), d.cps.end());
  }
  for (const auto* list : {&polite_formulas(), &apology_formulas()})
    for (const auto& p : *list) {
      const DecodedText d = decode_utf8(p, Utf8Mode::lossy);
      terms.emplace_back(d.cps.begin(), d.cps.end());
    }
  std::vector<std::string> texts = {"真的气死我了，这下芭比Q了。Thank you though",
                                    "祝您生活愉快😊😡\xEF\xB8\x8F", "THANK  YOU",
                                    "thank\xEF\xB8\x8F you", "不开心 不满意 垃圾"};
  std::mt19937_64 rng(9);
  for (int k = 0; k < 300; ++k) texts.push_back(testing::odd_text(rng));
  expect_same_matches(lex.matcher(), terms, texts);
}

TEST(TermMatcher, MayContainNeverRulesOutATermOfTheLexicon) {
  // Lexicon::find and primary skip the map when may_contain says no: against the map itself.
  const Lexicon lex = load_default_lexicon(testing::lexicon_dir());
  for (const auto& [term, entries] : lex.entries()) EXPECT_TRUE(lex.matcher().may_contain(term)) << term;
  std::vector<std::string> texts = {"", " ", "气死", "气死我了", "GREAT", "thank you", "\xEF\xBF\xBD", "x\xFFy"};
  std::mt19937_64 rng(11);
  for (int k = 0; k < 2000; ++k) texts.push_back(testing::odd_text(rng, 4));
  for (const auto& [term, entries] : lex.entries()) {
    texts.push_back(term.substr(0, term.size() - 1));  // cut inside its last code point
    texts.push_back(term + "了");
  }
  for (const std::string& t : texts) {
    const std::string key = normalize_term(t);
    const bool in_map = lex.entries().count(key) > 0;
    EXPECT_EQ(lex.find(t) != nullptr, in_map) << t;
    if (in_map) {
      EXPECT_TRUE(lex.matcher().may_contain(key)) << t;
    }
  }
}

TEST(TermMatcher, EmptyMatcherMatchesNothing) {
  const TermMatcher matcher;
  const std::u32string text = U"abc";
  std::size_t consumed = 7;
  EXPECT_EQ(matcher.longest_match(text.data(), text.size(), &consumed), 0u);
  EXPECT_EQ(consumed, 0u);
  EXPECT_EQ(matcher.longest_match(text.data(), 0, nullptr), 0u);
  EXPECT_EQ(matcher.size(), 0u);
}

}  // namespace
}  // namespace kessel::text
