// What the faithfulness probes look for in a text (include/kessel/summarize/faithfulness.h has the
// definitions): question clauses, question forms of a body, negators.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "kessel/summarize/summary.h"
#include "summarize/faith_align.h"

namespace kessel::summarize::faith {

// A question clause: code points [start, end) of the text, and what makes it one ("？", "吗", "能不能", ...).
struct QuestionClause {
  int start = 0;
  int end = 0;
  std::string cue;
};

// The question clauses of a source unit. For zh, `writer_marks` says the terminal marks are the
// writer's: a clause-final 呢 closed by 。 ！ ! . is then a statement (还没到呢。).
std::vector<QuestionClause> question_clauses(const std::vector<char32_t>& cps, Lang lang, bool writer_marks = true);

// Whether a rendered body still asks (a question mark, a question particle or pattern, a reporting verb).
bool has_question_form(const std::vector<char32_t>& cps, const std::vector<Piece>& pieces, Lang lang);

// For each piece of a source text, whether it is a negator that counts (zh: 不 没 未 别 无 非 否 outside
// A不A questions, 是否/能否 and the non-negating compounds; en: not, no, never, ... and "Xn't").
std::vector<char> negator_pieces(const std::vector<char32_t>& cps, const std::vector<Piece>& pieces, Lang lang);

// zh: the measure words and counts that bind to the demonstrative or numeral before them (这|段时间,
// 一|件, 两|天).
inline constexpr std::u32string_view kMeasureWords = U"段个次件种位条些样份单款台张天边面家回趟批笔项点部本只双套辆年月周几两";

// zh: whether a demonstrative word (这 那 哪) and the word after it, which opens with a measure word or
// a count (段 个 次 件 … 几 两), read as one: 这|段时间 with its 这 gone is 段时间, a cut; 这|几天 becomes
// the question 几天. Token deletion keeps or drops the two together, and the cut-word probe counts
// them as one word.
bool binds_demonstrative(char32_t demonstrative, char32_t next_first);

}  // namespace kessel::summarize::faith
