// Question clauses, question forms and negators (faith_cues.h).
#include "summarize/faith_cues.h"

#include <algorithm>
#include <string_view>

#include "kessel/text/utf8.h"

namespace kessel::summarize::faith {

namespace {

bool is_question_mark(char32_t cp) { return cp == U'？' || cp == U'?'; }
bool is_zh_negator(char32_t cp) {
  return std::u32string_view(U"不没未别无非否").find(cp) != std::u32string_view::npos;
}
bool is_letter(char32_t cp) { return text::is_cjk(cp) || text::is_latin_letter(cp) || text::is_digit(cp); }

// Whether cps[i] ends a clause. zh: the clause marks and any space. en: ! ? and their full-width forms
// always; . , ; : only before a space or the end (2.5, 10:30 and URLs stay whole).
bool is_break(const std::vector<char32_t>& cps, std::size_t i, Lang lang) {
  const char32_t cp = cps[i];
  if (std::u32string_view(U"。！？；：，、…～").find(cp) != std::u32string_view::npos || cp == U'!' || cp == U'?')
    return true;
  if (lang == Lang::zh) return text::is_space(cp) || std::u32string_view(U",.;:~").find(cp) != std::u32string_view::npos;
  if (std::u32string_view(U",.;:").find(cp) == std::u32string_view::npos) return false;
  return i + 1 == cps.size() || text::is_space(cps[i + 1]);
}

// Whether cps[at..] spells `word`.
bool spells(const std::vector<char32_t>& cps, std::size_t at, std::u32string_view word) {
  if (at + word.size() > cps.size()) return false;
  return std::equal(word.begin(), word.end(), cps.begin() + static_cast<std::ptrdiff_t>(at));
}

bool contains(const std::vector<char32_t>& cps, std::size_t a, std::size_t b, std::u32string_view word) {
  for (std::size_t i = a; i + word.size() <= b; ++i)
    if (spells(cps, i, word)) return true;
  return false;
}

// An A不A / A没A question at cps[i - 1..i + 1], i the 不 or 没 (能不能, 有没有, 可不可以).
bool a_not_a_at(const std::vector<char32_t>& cps, std::size_t i) {
  if (i == 0 || i + 1 >= cps.size() || (cps[i] != U'不' && cps[i] != U'没')) return false;
  const char32_t a = cps[i - 1];
  return a == cps[i + 1] && text::is_cjk(a) && !is_zh_negator(a);
}

// The question cue of zh clause cps[a, b), or "" when it has none (closer: the first mark after it).
std::string zh_clause_cue(const std::vector<char32_t>& cps, std::size_t a, std::size_t b, char32_t closer,
                          bool writer_marks) {
  for (std::size_t i = a + 1; i + 1 < b; ++i)
    if (a_not_a_at(cps, i)) return text::encode_utf8(cps.data() + i - 1, 3);
  if (contains(cps, a, b, U"是否")) return "是否";
  if (contains(cps, a, b, U"能否")) return "能否";
  // The clause's last letter, past trailing emoji and particles.
  std::size_t k = b;
  while (k > a && (!is_letter(cps[k - 1]) ||
                   std::u32string_view(U"啊呀啦哈嘛哦噢喔呗").find(cps[k - 1]) != std::u32string_view::npos))
    --k;
  if (k > a && (cps[k - 1] == U'吗' || cps[k - 1] == U'么')) return text::encode_utf8(cps[k - 1]);
  // 呢 also softens statements (这边帮您申请换货呢): it asks with a question word, or after 那 (那我的订单呢)
  // unless the clause does a service for the customer (那小妹为您联系一下派送员呢 tells what the agent will do).
  if (k > a && cps[k - 1] == U'呢') {
    const bool statement = closer == U'。' || closer == U'！' || closer == U'!' || closer == U'.';
    bool serves = false;
    for (std::u32string_view w : {U"为您", U"帮您", U"给您", U"为你", U"帮你", U"给你"}) serves = serves || contains(cps, a, k, w);
    bool wh = spells(cps, a, U"那") && !serves;
    for (std::u32string_view w : {U"什么", U"怎么", U"为啥", U"哪", U"谁", U"多少", U"几", U"如何", U"啥", U"咋"})
      wh = wh || contains(cps, a, k, w);
    if (wh && !(writer_marks && statement)) return "呢";
  }
  return "";
}

}  // namespace

std::vector<QuestionClause> question_clauses(const std::vector<char32_t>& cps, Lang lang, bool writer_marks) {
  std::vector<QuestionClause> out;
  const std::size_t n = cps.size();
  for (std::size_t a = 0; a < n;) {
    if (is_break(cps, a, lang)) {
      ++a;
      continue;
    }
    std::size_t b = a;
    while (b < n && !is_break(cps, b, lang)) ++b;
    // The marks after the clause, up to the next clause: a ？ among them closes a question.
    std::size_t c = b;
    char32_t closer = 0;
    bool asked = false;
    while (c < n && is_break(cps, c, lang)) {
      if (closer == 0 && !text::is_space(cps[c])) closer = cps[c];
      asked = asked || is_question_mark(cps[c]);
      ++c;
    }
    std::string cue = asked ? text::encode_utf8(U'？') : "";
    if (cue.empty() && lang == Lang::zh) cue = zh_clause_cue(cps, a, b, closer, writer_marks);
    if (!cue.empty()) out.push_back({static_cast<int>(a), static_cast<int>(b), std::move(cue)});
    a = c;
  }
  return out;
}

bool binds_demonstrative(char32_t demonstrative, char32_t next_first) {
  return (demonstrative == U'这' || demonstrative == U'那' || demonstrative == U'哪') &&
         kMeasureWords.find(next_first) != std::u32string_view::npos;
}

bool has_question_form(const std::vector<char32_t>& cps, const std::vector<Piece>& pieces, Lang lang) {
  if (std::any_of(cps.begin(), cps.end(), is_question_mark)) return true;
  if (lang == Lang::en) {
    static constexpr std::u32string_view kWords[] = {U"ask",     U"asks", U"asked",   U"asking",   U"whether",
                                                     U"if",      U"wonder", U"wonders", U"wondering"};
    return std::any_of(pieces.begin(), pieces.end(), [](const Piece& p) {
      return std::find(std::begin(kWords), std::end(kWords), p.key) != std::end(kWords);
    });
  }
  if (!question_clauses(cps, lang, /*writer_marks=*/false).empty()) return true;
  if (contains(cps, 0, cps.size(), U"询问") || contains(cps, 0, cps.size(), U"咨询") ||
      contains(cps, 0, cps.size(), U"想知道"))
    return true;
  for (std::size_t i = 0; i < cps.size(); ++i)
    if (cps[i] == U'问' && !(i + 1 < cps.size() && cps[i + 1] == U'题')) return true;
  return false;
}

namespace {

// Whether the zh negator at cps[i] negates: not in an A不A question, 是否 / 能否, or a compound where it
// means something else (非常 "very", 别人 "others", 无论 "whatever", 否则 / 不然 "otherwise", 不过 "but", ...).
bool zh_negates(const std::vector<char32_t>& cps, std::size_t i) {
  if (a_not_a_at(cps, i)) return false;
  static constexpr std::u32string_view kCompounds[] = {U"非常", U"特别", U"区别", U"分别", U"差别", U"级别",
                                                       U"类别", U"性别", U"告别", U"识别", U"个别", U"别人",
                                                       U"别的", U"别处", U"无论", U"否则", U"是否", U"能否",
                                                       U"不然", U"不过", U"不管", U"差不多"};
  for (std::u32string_view c : kCompounds)
    for (std::size_t k = 0; k < c.size(); ++k)
      if (c[k] == cps[i] && i >= k && spells(cps, i - k, c)) return false;
  return true;
}

}  // namespace

std::vector<char> negator_pieces(const std::vector<char32_t>& cps, const std::vector<Piece>& pieces, Lang lang) {
  std::vector<char> out(pieces.size(), 0);
  for (std::size_t k = 0; k < pieces.size(); ++k) {
    const Piece& p = pieces[k];
    if (lang == Lang::zh) {
      const auto i = static_cast<std::size_t>(p.start);
      out[k] = is_zh_negator(cps[i]) && zh_negates(cps, i);
    } else {
      static constexpr std::u32string_view kWords[] = {U"not",  U"no",   U"never",   U"nothing", U"nobody",
                                                       U"none", U"cannot", U"without", U"n't"};
      out[k] = std::find(std::begin(kWords), std::end(kWords), p.key) != std::end(kWords);
    }
  }
  return out;
}

}  // namespace kessel::summarize::faith
