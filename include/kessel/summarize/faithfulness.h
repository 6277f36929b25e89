// Faithfulness of a summary to its dialogue, as measured properties (issue 22): independent checks
// ("probes") that read a Summary beside the dialogue it came from and report, per summary sentence,
// where the rendering says something the source did not. They look at text only, never at how the
// decoder chose or rendered, so a change to the decoder is measured by them rather than trusted.
//
// Alignment. Each sentence's body (SummarySentence::body, the rendered text without its role label) is
// aligned to its source unit's text (Prepared::units[unit].text) as a subsequence:
//  - zh: code points, ignoring spaces and punctuation (so the terminal mark too); letters fold case.
//  - en: lowercase words (letters, digits and apostrophes); every "Xn't" is one key, so reported speech's
//    "you don't" -> "the customer doesn't" still keeps its negation. Unmatched body words are rewrites
//    (pronouns, verb agreement), not failures.
// The alignment keeps as many items as possible and, among those, as few runs as possible (a run: items
// consecutive in both texts), so a kept phrase maps onto one occurrence rather than onto scattered
// characters. A reported-speech frame opening the body (zh: an optional subject 用户/客户/顾客/客服/对方
// then 询问 咨询 问 表示 希望 要求 称 说 反映 反馈 提出 想知道 请求; en: "they ask (whether|if|the customer
// to)", "the agent asks (whether|if|the customer to)", "the customer asks (whether|if)", "the customer
// says (that)"; zh 问 称 说 only after a subject) is not aligned unless the source
// opens with the same words. Other body characters missing from the source are insertions; no probe
// reports them.
// The extent of a sentence is the source from its first to its last aligned item (not widened to clauses).
//
// The probes:
//  - negation_lost: a negator of the source inside the extent that the body does not keep.
//    zh: each occurrence of 不 没 未 别 无 非 否 counts (so 无法, 没事, 不错 and 无语 do: dropping the character
//    flips or breaks the word), except where it does not negate: the 不/没 of an A不A / A没A question
//    (能不能, 有没有; question_asserted's business), 是否 and 能否, and the compounds 非常 特别 区别 分别 差别
//    级别 类别 性别 告别 识别 个别 别人 别的 别处 无论 否则 不然 不过 不管 差不多.
//    en: the words not, no, never, nothing, nobody, none, cannot, without and any "Xn't".
//  - question_asserted: a question clause of the source that overlaps the extent, while the body has no
//    question form. Clauses end at ， 。 ！ ？ ； ： 、 … ～ and their ASCII forms (zh also at spaces; en's
//    . , ; : only before a space or the end); quotes and brackets stay inside.
//    zh question clause: one closed by ？ or ? (emoji and spaces may come between), one ending in 吗 or
//    its chat spelling 么 (also 什么, 怎么), or in 呢 not closed by 。 ！ ! . when the clause has a question
//    word (什么 怎么 为啥 哪 谁 多少 几 如何 啥 咋) or opens with 那 (呢 alone also softens a statement:
//    这边帮您申请换货呢) — trailing emoji and the particles 啊 呀 啦 哈 嘛 哦 噢 喔 呗 may follow — or one
//    holding an A不A / A没A pattern (any CJK A but the negators), 是否 or 能否.
//    zh body question form: ？ ?, a question clause by the rules above (the body's 。 is the renderer's, so
//    it does not make a 呢 a statement), 询问, 咨询, 想知道, or 问 not followed by 题.
//    en question clause: one closed by '?'. en body question form: '?', or one of the words ask, asks,
//    asked, asking, whether, if, wonder, wonders, wondering.
//  - word_cut: a word of the source (WordBoundaries) of two or more letters of which some but not all
//    are aligned (zh 怎么办 -> 么办). en: an unaligned body word (2+ letters, not a reported-speech word)
//    that is a proper prefix of an unaligned source word inside the extent (should never happen).
//  - cross_turn_merge: a sentence with shares_label (rendered under the previous sentence's role label)
//    while a turn of the other speaker lies strictly between the previous sentence's turn and its own
//    (用户:能送货上门安装吗，太好了 across the agent's answer).
#pragma once

#include <array>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "kessel/summarize/summary.h"
#include "kessel/text/segment.h"

namespace kessel::summarize {

// How the probes learn Chinese word boundaries: `split` returns the words of a UTF-8 text as code point
// spans covering it in order (text::Segmenter::segment's contract); `source` names where they come from
// ("per-character" for the stand-in, a segmenter's source() otherwise; segmenter_words below).
struct WordBoundaries {
  std::function<std::vector<text::WordSpan>(std::string_view)> split;
  std::string source;
  // True for the stand-in below: word_cut cannot fire, and reports should say so.
  bool per_character() const { return source == "per-character"; }
};

// One word per code point: the stand-in until a segmenter is plugged in (word_cut never fires).
WordBoundaries per_character_words();

// A segmenter's words (segmenter_words(text::Segmenter::default_segmenter())); `segmenter` must outlive
// the result.
inline WordBoundaries segmenter_words(const text::Segmenter& segmenter) {
  return {[&segmenter](std::string_view s) { return segmenter.segment(s); }, segmenter.source()};
}

struct FaithFinding {
  enum class Kind { negation_lost, question_asserted, word_cut, cross_turn_merge };
  Kind kind = Kind::negation_lost;
  int sentence = 0;  // index into Summary::sentences
  int unit = 0;      // the sentence's unit (Prepared::units)
  std::string detail;
};
inline constexpr int kFaithKinds = 4;
inline constexpr std::array<FaithFinding::Kind, kFaithKinds> kAllFaithKinds = {
    FaithFinding::Kind::negation_lost, FaithFinding::Kind::question_asserted, FaithFinding::Kind::word_cut,
    FaithFinding::Kind::cross_turn_merge};
// "negation_lost", "question_asserted", "word_cut", "cross_turn_merge".
const char* to_string(FaithFinding::Kind kind);

struct FaithReport {
  std::vector<FaithFinding> findings;  // by sentence, then kind
  int sentences = 0;                   // sentences checked
  std::array<int, kFaithKinds> counts{};  // findings of each kind, indexed by the Kind's value
  int count(FaithFinding::Kind kind) const { return counts[static_cast<std::size_t>(kind)]; }
};

// Runs every probe on every sentence of `summary`, a summary of `p` (InvalidArgument when a sentence's
// unit or turn is not one of p's, or p has no dialogue). `words` splits zh units into words
// (word_cut); it is not called for en.
FaithReport check_faithfulness(const Prepared& p, const Summary& summary, const WordBoundaries& words);

}  // namespace kessel::summarize
