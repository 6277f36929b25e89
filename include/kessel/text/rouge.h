// ROUGE-1, ROUGE-2 and summary-level ROUGE-L F1, as ROUGE-1.5.5 computes them.
//
// Core (any language, over token ids):
//   ROUGE-N   hits = sum over n-grams of min(count_candidate, count_reference), n-grams taken over
//   the
//             whole summary (sentence breaks do not stop an n-gram, as in ROUGE-1.5.5);
//             P = hits / candidate n-grams, R = hits / reference n-grams, F = 2PR / (P + R) (0 when
//             hits = 0).
//   ROUGE-L   summary level: for each reference sentence r, the union of the LCS positions of r
//   with
//             every candidate sentence; each token in the union is a hit while both its remaining
//             reference count and candidate count are positive (both then decrease). P = hits /
//             candidate tokens, R = hits / reference tokens. LCS ties are broken as ROUGE-1.5.5
//             does (prefer moving up in the reference when the two neighbours are equal).
// Chinese (CSDS protocol, see docs/text.md): every code point is a token except ASCII spaces
// (removed,
//   with "<q>"); leading/trailing white space is stripped; sentences end after each 。
//   (ZhSplit::period) or the whole summary is one sentence (ZhSplit::none, what the CSDS paper's
//   first script did), or (ZhSplit::period_eos) sentences end after each 。 and each 。 is followed,
//   inside its sentence, by an end-of-sentence token that no character equals: the CSDS repository's
//   updated script appends the id 0 after every 。 and calls `files2rouge -e 0`, and files2rouge's
//   current split_files keeps that eos at the end of each sentence, where ROUGE-1.5.5 counts it
//   (alphanumeric); older files2rouge removed it, which is ZhSplit::period (docs/text.md, "ROUGE").
// English: lowercase alphanumeric word tokens ([a-z0-9]+ after case folding); the whole summary is
//   one sentence, so ROUGE-L is the LCS of the two texts (rouge-score's "rougeL"): that variant
//   reproduces the published TweetSumm validation Lead-3 ROUGE-L of 30.6 (30.62 here; the
//   summary-level variant gives 33.6 when the summary carries role labels, see docs/text.md);
//   F1 against each reference, "best" = max over references per metric, "avg" = mean.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace kessel::text {

struct RougeScore {
  double precision = 0.0;
  double recall = 0.0;
  double f1 = 0.0;
};

struct RougeScores {
  RougeScore rouge1, rouge2, rougeL;
};

// Token-id level. A summary is a list of sentences, each a list of token ids.
using TokenSentences = std::vector<std::vector<int>>;
RougeScore rouge_n(const TokenSentences& candidate, const TokenSentences& reference, int n);
RougeScore rouge_l_summary(const TokenSentences& candidate, const TokenSentences& reference);
// Marks in `hit` (size ref.size(); entries are set, never cleared) the positions of `ref` on one
// longest common subsequence of ref and cand, with ROUGE-1.5.5's tie-breaking (prefer stepping back in
// ref). Calling it for several `cand` accumulates the union that summary-level ROUGE-L credits.
void lcs_positions(const std::vector<int>& ref, const std::vector<int>& cand, std::vector<char>* hit);
RougeScores rouge_all(const TokenSentences& candidate, const TokenSentences& reference);

enum class RougeLang { zh, en };
RougeLang parse_rouge_lang(std::string_view name);  // "zh" | "en"
// The protocol the texts call for: zh when CJK characters are at least 30% of their CJK and Latin
// letters (the rule the summarizer uses for a dialogue), else en. Throws InvalidArgument when the
// texts hold no letter of either kind, since then nothing says which protocol applies.
RougeLang detect_rouge_lang(const std::vector<std::string>& texts);
// "zh" | "en" as parse_rouge_lang, "auto" as detect_rouge_lang(references): what front ends call.
RougeLang resolve_rouge_lang(std::string_view name, const std::vector<std::string>& references);
const char* to_string(RougeLang lang);  // "zh" | "en"
enum class ZhSplit { period, none, period_eos };
ZhSplit parse_zh_split(std::string_view name);  // "period" | "none" | "period-eos"

// Sentences of string tokens as the protocols define them.
std::vector<std::vector<std::string>> rouge_tokens_zh(std::string_view text, ZhSplit split);
std::vector<std::vector<std::string>> rouge_tokens_en(std::string_view text);

// One candidate against one reference.
RougeScores rouge(std::string_view candidate, std::string_view reference, RougeLang lang,
                  ZhSplit zh_split = ZhSplit::period);

struct MultiRougeScores {
  RougeScores best;  // per metric, the reference with the highest F1 (P and R from that reference)
  RougeScores avg;   // per metric, the mean of P, R and F1 over references
};
// Throws InvalidArgument when `references` is empty.
MultiRougeScores rouge_multi(std::string_view candidate, const std::vector<std::string>& references,
                             RougeLang lang, ZhSplit zh_split = ZhSplit::period);

// Corpus level: means over dialogues of the per-dialogue scores (ROUGE-1.5.5 "Average_F").
struct RougeCorpus {
  std::size_t count = 0;
  MultiRougeScores mean;
};
// candidates[i] is scored against references[i] (one or more strings). Throws InvalidArgument when
// the sizes differ or a reference list is empty.
RougeCorpus rouge_corpus(const std::vector<std::string>& candidates,
                         const std::vector<std::vector<std::string>>& references, RougeLang lang,
                         ZhSplit zh_split = ZhSplit::period);

}  // namespace kessel::text
