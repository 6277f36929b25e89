#include "kessel/text/rouge.h"

#include <gtest/gtest.h>

#include "kessel/error.h"

namespace kessel::text {
namespace {

TEST(Rouge, HandComputedEnglish) {
  // cand: the cat sat on the mat (6) ; ref: the cat is on the mat (6)
  // unigrams: the x2, cat, on, mat -> 5 hits; P = R = 5/6
  // bigrams cand: the-cat cat-sat sat-on on-the the-mat; ref: the-cat cat-is is-on on-the the-mat
  // -> 3 LCS: the cat on the mat = 5
  const RougeScores s = rouge("The cat sat on the mat.", "the cat is on the mat", RougeLang::en);
  EXPECT_NEAR(s.rouge1.f1, 5.0 / 6.0, 1e-12);
  EXPECT_NEAR(s.rouge2.precision, 3.0 / 5.0, 1e-12);
  EXPECT_NEAR(s.rouge2.f1, 3.0 / 5.0, 1e-12);
  EXPECT_NEAR(s.rougeL.f1, 5.0 / 6.0, 1e-12);
}

TEST(Rouge, EnglishRougeLIsTheLcsOfTheWholeTexts) {
  // Whole-text LCS, not the summary-level union: "a b. c d." vs "c d a b" has LCS 2 (a b, or c d);
  // the union over the candidate's two sentences would credit all 4.
  const RougeScores s = rouge("A b. C d.", "c d a b", RougeLang::en);
  EXPECT_NEAR(s.rougeL.recall, 0.5, 1e-12);
  EXPECT_NEAR(s.rougeL.precision, 0.5, 1e-12);
  EXPECT_NEAR(s.rouge1.f1, 1.0, 1e-12);
}

TEST(Rouge, SummaryLevelLcsIsTheUnionOverCandidateSentences) {
  // The ROUGE paper's example (Lin 2004, section 3.2): r = w1 w2 w3 w4 w5, c1 = w1 w2 w6 w7 w8,
  // c2 = w1 w3 w8 w9 w5. Union LCS = w1 w2 w3 w5 -> 4 hits; recall 4/5, precision 4/10.
  const TokenSentences ref = {{1, 2, 3, 4, 5}};
  const TokenSentences cand = {{1, 2, 6, 7, 8}, {1, 3, 8, 9, 5}};
  const RougeScore l = rouge_l_summary(cand, ref);
  EXPECT_NEAR(l.recall, 0.8, 1e-12);
  EXPECT_NEAR(l.precision, 0.4, 1e-12);
  EXPECT_NEAR(l.f1, 2 * 0.8 * 0.4 / 1.2, 1e-12);
  // Hits are clipped by counts: a reference token matched in two reference sentences counts once
  // when the candidate has it once.
  const RougeScore clipped = rouge_l_summary({{7}}, {{7}, {7}});
  EXPECT_NEAR(clipped.recall, 0.5, 1e-12);
  EXPECT_NEAR(clipped.precision, 1.0, 1e-12);
}

TEST(Rouge, ChineseCharactersPunctuationAndPeriodSplit) {
  // Characters (incl. punctuation) are tokens; spaces and <q> are removed.
  const auto toks = rouge_tokens_zh(" 用户 问。<q>客服答。 ", ZhSplit::period);
  ASSERT_EQ(toks.size(), 2u);
  EXPECT_EQ(toks[0], (std::vector<std::string>{"用", "户", "问", "。"}));
  EXPECT_EQ(toks[1], (std::vector<std::string>{"客", "服", "答", "。"}));
  EXPECT_EQ(rouge_tokens_zh("用户问。客服答。", ZhSplit::none).size(), 1u);
  // cand 用户问。 (4) vs ref 用户问好。 (5): unigrams 4 hits -> P 1, R 0.8; bigrams 用户 户问 -> 2
  // of 3/4.
  const RougeScores s = rouge("用户问。", "用户问好。", RougeLang::zh);
  EXPECT_NEAR(s.rouge1.f1, 2 * 1.0 * 0.8 / 1.8, 1e-12);
  EXPECT_NEAR(s.rouge2.precision, 2.0 / 3.0, 1e-12);
  EXPECT_NEAR(s.rouge2.recall, 2.0 / 4.0, 1e-12);
  EXPECT_NEAR(s.rougeL.f1, 2 * 1.0 * 0.8 / 1.8, 1e-12);
}

TEST(Rouge, SentenceSplitChangesOnlyRougeL) {
  // Candidate sentences in the opposite order: one long LCS without the split, the union per
  // reference sentence with it.
  const std::string cand = "客服答复了。用户询问。";
  const std::string ref = "用户询问。客服答复了。";
  const RougeScores with = rouge(cand, ref, RougeLang::zh, ZhSplit::period);
  const RougeScores without = rouge(cand, ref, RougeLang::zh, ZhSplit::none);
  EXPECT_DOUBLE_EQ(with.rouge1.f1, without.rouge1.f1);
  EXPECT_DOUBLE_EQ(with.rouge2.f1, without.rouge2.f1);
  EXPECT_NEAR(with.rougeL.f1, 1.0, 1e-12);
  EXPECT_NEAR(without.rougeL.f1, 6.0 / 11.0, 1e-12);  // LCS 客服答复了。 = 6 of 11
}

TEST(Rouge, PeriodEosCountsTheScriptsEndOfSentenceToken) {
  // Each 。 is followed, inside its sentence, by a token no character equals.
  const auto toks = rouge_tokens_zh("用户问。客服答。", ZhSplit::period_eos);
  ASSERT_EQ(toks.size(), 2u);
  EXPECT_EQ(toks[0], (std::vector<std::string>{"用", "户", "问", "。", "</s>"}));
  EXPECT_EQ(toks[1], (std::vector<std::string>{"客", "服", "答", "。", "</s>"}));
  EXPECT_EQ(rouge_tokens_zh("没有句号", ZhSplit::period_eos).front().size(), 4u);
  EXPECT_EQ(parse_zh_split("period-eos"), ZhSplit::period_eos);
  // cand 用户问。</s> (5) vs ref 用户问好。</s> (6): unigrams 5 hits -> P 1, R 5/6; bigrams 用户 户问
  // 。</s> -> 3 of 4 / 5; the LCS takes all five candidate tokens.
  const RougeScores s = rouge("用户问。", "用户问好。", RougeLang::zh, ZhSplit::period_eos);
  EXPECT_NEAR(s.rouge1.f1, 10.0 / 11.0, 1e-12);
  EXPECT_NEAR(s.rouge2.precision, 3.0 / 4.0, 1e-12);
  EXPECT_NEAR(s.rouge2.recall, 3.0 / 5.0, 1e-12);
  EXPECT_NEAR(s.rougeL.f1, 10.0 / 11.0, 1e-12);
  EXPECT_THROW(parse_zh_split("eos"), InvalidArgument);
}

TEST(Rouge, EmptyInputsScoreZero) {
  const RougeScores s = rouge("", "something here", RougeLang::en);
  EXPECT_EQ(s.rouge1.f1, 0.0);
  EXPECT_EQ(s.rougeL.f1, 0.0);
  EXPECT_EQ(rouge("x", "", RougeLang::zh).rouge2.f1, 0.0);
}

TEST(Rouge, MultiReferenceBestAndAverage) {
  const MultiRougeScores m =
      rouge_multi("the cat sat", {"the cat sat", "a dog ran"}, RougeLang::en);
  EXPECT_NEAR(m.best.rouge1.f1, 1.0, 1e-12);
  EXPECT_NEAR(m.avg.rouge1.f1, 0.5, 1e-12);
  EXPECT_THROW(rouge_multi("x", {}, RougeLang::en), InvalidArgument);
  const RougeCorpus c =
      rouge_corpus({"the cat sat", "zzz"}, {{"the cat sat"}, {"a b"}}, RougeLang::en);
  EXPECT_EQ(c.count, 2u);
  EXPECT_NEAR(c.mean.best.rouge1.f1, 0.5, 1e-12);
  EXPECT_THROW(rouge_corpus({"a"}, {}, RougeLang::en), InvalidArgument);
  EXPECT_THROW(parse_rouge_lang("fr"), InvalidArgument);
}

TEST(Rouge, DetectLanguageFromReferences) {
  EXPECT_EQ(detect_rouge_lang({"用户询问快递进度。", "客服回答已发货。"}), RougeLang::zh);
  EXPECT_EQ(detect_rouge_lang({"Customer is asking about the refund."}), RougeLang::en);
  // Mostly Chinese with an English product name is still Chinese; a few CJK characters in English
  // text are not.
  EXPECT_EQ(detect_rouge_lang({"用户的iPhone无法开机。"}), RougeLang::zh);
  EXPECT_EQ(detect_rouge_lang({"The customer ordered 抹茶 tea and it never arrived."}), RougeLang::en);
  EXPECT_THROW(detect_rouge_lang({"123 !!", ""}), InvalidArgument);
  EXPECT_THROW(detect_rouge_lang({}), InvalidArgument);
}

}  // namespace
}  // namespace kessel::text
