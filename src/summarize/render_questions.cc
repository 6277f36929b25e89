// Rendering (src/summarize/render.h): whether a unit asks (a question mark, a question without one, a
// tail sent as the next turn, a tag that asks to be confirmed) and how a customer's question is reported
// (用户:询问…). The rest of rendering, the text of a sentence and the summary's assembly, is render.cc's.
#include <algorithm>
#include <optional>
#include <string_view>

#include "kessel/text/segment.h"
#include "kessel/text/utf8.h"
#include "render.h"
#include "summarize/zh_questions.h"

namespace kessel::summarize::render {

namespace {

// The tag (zh_question::kConfirmingTags, or a bare 吧) that ends `t`, taken off with the marks and a final 的
// before it (可以提现的吧 -> 可以提现); false, `t` untouched, when there is none or the segmenter joins it to
// the word before (货是|吧, 包吧: no tag but a word's letter).
bool take_off_tag(std::u32string& t) {
  std::u32string_view tag;
  for (std::u32string_view confirming : zh_question::kConfirmingTags)
    if (t.ends_with(confirming)) {
      tag = confirming;
      break;
    }
  if (tag.empty() && t.ends_with(U"吧")) tag = U"吧";
  if (tag.empty()) return false;
  // Segmented only once a tag ends the text: most reported questions end otherwise (吗, a question word).
  std::vector<std::int64_t> word_starts;
  for (const text::WordSpan& w : text::Segmenter::default_segmenter().segment(std::span<const char32_t>(t.data(), t.size())))
    word_starts.push_back(w.char_start);
  const auto starts_word = [&](std::size_t at) {
    return std::binary_search(word_starts.begin(), word_starts.end(), static_cast<std::int64_t>(at));
  };
  if (!starts_word(t.size() - tag.size())) return false;
  std::u32string rest = t.substr(0, t.size() - tag.size());
  while (!rest.empty() && (rest.back() == U'，' || rest.back() == U',' || rest.back() == U' ')) rest.pop_back();
  if (rest.empty()) return false;
  if (rest.back() == U'的' && starts_word(rest.size() - 1)) rest.pop_back();
  t = std::move(rest);
  return true;
}

// Whether 是否 can ask the clause `last`: not where it already asks whether (是否, 是不是) or with a question
// word, goes on from the clause before (然后再注册…: 是否 would ask only the second step), negates (是否 before
// 不可能 or 不是 reads as a double negative: 生鲜产品不可能…烂掉对吧 presumes) or gives in (好吧你查过…).
bool whether_can_ask(std::u32string_view last) {
  if (last.empty() || zh_question::holds_question_word(last) || last.find_first_of(U"不没未别") != std::u32string_view::npos)
    return false;
  for (std::u32string_view lead : {U"然后", U"而且", U"并且", U"再"})
    if (last.starts_with(lead)) return false;
  for (std::u32string_view word : {U"是否", U"是不是", U"好吧"})
    if (last.find(word) != std::u32string_view::npos) return false;
  return true;
}

// A reported question that presumes and asks to be confirmed (退到原支付卡上是吧。, 可以提现的吧。) asks
// whether, as the references report it: its tag goes (take_off_tag) and 是否 opens its last clause
// (是否退到原支付卡上。; 要新建才行，是吧 -> 是否要新建才行), after a pronoun that opens it (你们是否会自动改). A 是 that
// opened the clause, or what restates with one (就是, 意思是, 就是说), is 是否's own (是全部退款是吧 -> 是否全部退款;
// 意思是还有退款吧 -> 是否还有退款). Where 是否 cannot ask the clause (whether_can_ask) it stays as written.
std::string whether_for_tag(const std::string& body) {
  const std::vector<char32_t> cps = text::decode_utf8(body, text::Utf8Mode::lossy).cps;
  std::u32string t(cps.begin(), cps.end());
  const bool stop = !t.empty() && t.back() == U'。';
  if (stop) t.pop_back();
  if (!take_off_tag(t)) return body;
  const std::size_t comma = t.find_last_of(U"，,");
  const std::size_t start = comma == std::u32string::npos ? 0 : comma + 1;
  const std::u32string_view last = std::u32string_view(t).substr(start);
  if (!whether_can_ask(last)) return body;
  std::size_t at = start;
  for (std::u32string_view pronoun : {U"我们", U"你们", U"我", U"您", U"你"})
    if (last.starts_with(pronoun)) {
      at += pronoun.size();
      break;
    }
  const std::u32string_view rest = std::u32string_view(t).substr(at);
  std::size_t drop = 0;
  for (std::u32string_view restates : {U"也就是说", U"就是说", U"意思是", U"就是", U"是"})
    if (rest.starts_with(restates) && !rest.starts_with(U"是否")) {
      drop = restates.size();
      break;
    }
  t.replace(at, drop, U"是否");
  std::string out = text::encode_utf8(t.data(), t.size());
  return stop ? out + "。" : out;
}

}  // namespace

std::string reported_question(const std::string& body) {
  std::string text = body;
  static const std::string kMark = "？", kAsked = "询问";
  if (text.size() >= kMark.size() && text.compare(text.size() - kMark.size(), kMark.size(), kMark) == 0)
    text.replace(text.size() - kMark.size(), kMark.size(), "。");
  // What opens a customer's question and says nothing once it is reported: greetings, "may I ask", and
  // the acknowledgements and interjections before it, and "check for me" before the question it asks
  // (你好，想问下这款冰箱有货吗 -> 询问这款冰箱有货吗; 问是不是…, what deletion left of 问下是不是…, -> 询问是不是…;
  // 哦，对了，为什么白条还需要航班信息呢 -> 询问为什么…; 请查东西在哪里 -> 询问东西在哪里, not 询问请查…; 帮我看下什么时候
  // 会有货, or the 看 deletion left of it, -> 询问什么时候会有货; thanks in
  // either script: 謝謝你大概什么时间能开好 -> 询问大概什么时间能开好).
  static const std::string kOpeners[] = {"你好", "您好", "在吗", "在不在", "亲", "请问一下", "请问下", "请问",
                                         "想问一下", "想问下", "想问", "我想问一下", "我想问下", "我想问",
                                         "我问一下", "我问下", "问一下", "问下", "问", "哦", "噢", "喔", "嗯嗯",
                                         "嗯", "额", "呃", "对了", "好的", "谢谢你", "谢谢您", "謝謝你", "謝謝您", "谢谢", "謝謝",
                                         "请帮我查一下", "请帮我查下",
                                         "请帮我查", "帮我查一下", "帮我查下", "帮我查", "帮忙查一下", "帮忙查下",
                                         "帮忙查", "请查一下", "请查下", "请查", "帮我看一下", "帮我看下", "帮我看看",
                                         "帮我看", "帮忙看一下", "帮忙看下", "帮忙看", "麻烦看一下", "麻烦看下",
                                         "麻烦查一下", "麻烦查下", "你查一下", "你查下", "看一下", "看下", "查一下",
                                         "查下", "告诉我一下", "告诉我", "麻烦问一下", "麻烦问下", "我想知道", "想知道", "，", ",", " "};
  // Only where a word ends: 亲开专用票 is 亲开|专用票 to the segmenter, and its 亲 stays.
  for (bool stripped = true; stripped;) {
    stripped = false;
    // The code point offsets where the segmenter ends a word, once per pass.
    const auto cps = text::decode_utf8(text, text::Utf8Mode::lossy);
    const text::Segmenter& segmenter = text::Segmenter::default_segmenter();
    const std::vector<text::WordSpan> words = segmenter.segment(std::span<const char32_t>(cps.cps));
    std::vector<std::int64_t> word_ends;
    for (const text::WordSpan& w : words) word_ends.push_back(w.char_end);
    // An opener's 问 that the segmenter's unknown-word model joined to what follows (想|问京豆) still ends
    // the opener; a dictionary word (想|问题) does not.
    const auto ask_joined_to_unknown = [&](std::int64_t ask) {
      for (const text::WordSpan& w : words)
        if (w.char_start == ask && w.char_end > ask + 1)
          return segmenter.word_class(std::u32string_view(cps.cps.data() + w.char_start,
                                                          static_cast<std::size_t>(w.char_end - w.char_start))) ==
                 text::WordClass::unknown;
      return false;
    };
    for (const std::string& o : kOpeners) {
      if (text.size() <= o.size() || text.rfind(o, 0) != 0) continue;
      const auto at = static_cast<std::int64_t>(text::decode_utf8(o, text::Utf8Mode::lossy).size());
      if (!std::binary_search(word_ends.begin(), word_ends.end(), at) &&
          !(o.size() > 3 && o.ends_with("问") && ask_joined_to_unknown(at - 1)))
        continue;
      text.erase(0, o.size());
      stripped = true;
      break;  // the text changed: segment it again
    }
  }
  // A bare 看 or 查 (what deletion left of 帮我看下) before a question word: "check when it comes".
  for (const std::string check : {"看", "查"})
    if (text.rfind(check, 0) == 0 && zh_question::opens_with_question_word(text.substr(check.size()))) text.erase(0, check.size());
  if (text.rfind(kAsked, 0) == 0) return text;
  return kAsked + whether_for_tag(text);
}

namespace {

// A unit's end: its code points, where the run of terminal marks before any trailing space and emoji
// starts (`body_end`) and ends (`marks_end`; equal when it has none).
// Where a unit's text ends: its terminal marks run over [body_end, marks_end) of its code points.
struct UnitEnd {
  std::size_t body_end = 0, marks_end = 0;
};

UnitEnd unit_end(const std::vector<char32_t>& cps) {
  UnitEnd e;
  std::size_t end = cps.size();
  // Trailing space and emoji or other symbols ("能送吗？😊") do not end the sentence.
  while (end > 0 && !is_terminal_punct(cps[end - 1]) && text::is_trailing_symbol(cps[end - 1])) --end;
  e.marks_end = end;
  while (end > 0 && is_terminal_punct(cps[end - 1])) --end;
  e.body_end = end;
  // A closing address after a comma ("您现在是在哪个界面呢，亲") is no clause of its own: the sentence ends
  // where the clause before it does, with that comma as its mark.
  for (std::u32string_view address : {U"亲爱的", U"亲亲", U"亲"}) {
    const std::u32string_view body(cps.data(), e.body_end);
    if (!body.ends_with(address) || body.size() <= address.size()) continue;
    std::size_t mark = body.size() - address.size();
    if (std::u32string_view(U"，,").find(cps[mark - 1]) == std::u32string_view::npos) continue;
    e.marks_end = mark;
    while (mark > 0 && is_terminal_punct(cps[mark - 1])) --mark;
    e.body_end = mark;
    break;
  }
  return e;
}

std::vector<char32_t> decoded(const std::string& text) { return text::decode_utf8(text, text::Utf8Mode::lossy).cps; }

// Where a unit's last clause and its sentence begin, and where its body ends; empty when a mark other than
// a comma (，, 、) ends the unit: it has said how it ends.
struct OpenClause {
  std::size_t body_end = 0, clause = 0, sentence = 0;
};

// Whether an agent's clause asks what happened to the customer's thing (这个商品怎么了, 订单是什么情况, 您遇到
// 什么问题了): it ends in 怎么了 or 怎么回事, or in 什么 and a problem's noun, past a final 了. Not when the
// agent says it does not know (不清楚是怎么回事, 不知道什么原因) or that it is looking into it (核实一下是什么情况).
bool asks_what_happened(std::u32string_view clause) {
  if (clause.ends_with(U"了") && !clause.ends_with(U"怎么了")) clause.remove_suffix(1);
  bool ends = false;
  for (std::u32string_view what : {U"怎么了", U"怎么回事", U"什么问题", U"什么情况", U"什么原因"})
    ends = ends || clause.ends_with(what);
  if (!ends) return false;
  for (std::u32string_view unknowing : {U"知道", U"清楚", U"明白", U"核实", U"查", U"看看", U"看下", U"看一下", U"了解"})
    if (clause.find(unknowing) != std::u32string_view::npos) return false;
  return true;
}

std::optional<OpenClause> last_open_clause(const std::vector<char32_t>& cps) {
  const UnitEnd e = unit_end(cps);
  if (e.body_end < e.marks_end && std::u32string_view(U"，,、").find(cps[e.marks_end - 1]) == std::u32string_view::npos)
    return std::nullopt;
  OpenClause c;
  c.body_end = c.clause = e.body_end;
  while (c.clause > 0 && !is_terminal_punct(cps[c.clause - 1])) --c.clause;
  c.sentence = c.clause;
  while (c.sentence > 0 && std::u32string_view(U"。！？!?…").find(cps[c.sentence - 1]) == std::u32string_view::npos)
    --c.sentence;
  return c;
}

// Whether clause cps[a, b), which asks, asks plainly: it opens with why, how or when (为什么我这个手机没有电话打来,
// 那为什么这边的配送员都不送上门的) or ends in 吗, 呢 or 么 (可是冰糕为啥不用呢, 拒收的现在还可以签收吗). A question word
// inside it may be indefinite (没有地方查我当时怎么支付的了).
bool asks_plainly(const std::vector<char32_t>& cps, std::size_t a, std::size_t b) {
  std::u32string_view clause(cps.data() + a, b - a);
  for (std::u32string_view lead : {U"那么", U"那", U"可是", U"但是", U"请问"})
    if (clause.starts_with(lead)) clause.remove_prefix(lead.size());
  while (!clause.empty() && std::u32string_view(U"啊呀哦").find(clause.back()) != std::u32string_view::npos)
    clause.remove_suffix(1);
  for (std::u32string_view opener : {U"为什么", U"为啥", U"怎么", U"咋", U"什么时候", U"啥时候"})
    if (clause.starts_with(opener)) return true;
  return !clause.empty() && std::u32string_view(U"吗呢么").find(clause.back()) != std::u32string_view::npos;
}

// The end of the last clause before [from, to)'s last that asks (`plainly`: asks plainly), or `to` when none
// does: the sentence goes on with why it asks or what it is about (啥时候能完成退款，我想现在拍那个大尺寸的; 那得等
// 多久，我要用手机呢; 为什么我还没收到货，订单就已经完成).
std::size_t earlier_asking_clause_end(const std::vector<char32_t>& cps, std::size_t from, std::size_t to,
                                      bool plainly = false) {
  std::size_t found = to;
  for (std::size_t a = from; a < to;) {
    std::size_t b = a;
    while (b < to && !is_terminal_punct(cps[b])) ++b;
    if (b > a && b < to && zh_question::clause_asks(cps, a, b) && (!plainly || asks_plainly(cps, a, b))) found = b;
    a = b + 1;
  }
  return found;
}

// Whether a clause before the sentence's open last one asks. In a turn the data cut off (`cut_off`), whose
// last clause may be anything, only one that asks plainly counts (asks_plainly).
bool an_earlier_clause_asks(const std::vector<char32_t>& cps, const OpenClause& c, bool cut_off = false) {
  return earlier_asking_clause_end(cps, c.sentence, c.clause, cut_off) != c.clause;
}

}  // namespace

bool ends_as_question(const std::string& text) { return ends_as_question(decoded(text)); }

bool ends_as_question(const std::vector<char32_t>& cps) {
  const UnitEnd e = unit_end(cps);
  for (std::size_t i = e.body_end; i < e.marks_end; ++i)
    if (cps[i] == U'?' || cps[i] == U'？') return true;
  return false;
}

bool asks_without_mark(const std::string& text, bool cut_off) { return asks_without_mark(decoded(text), cut_off); }

bool asks_without_mark(const std::vector<char32_t>& cps, bool cut_off) {
  // Ended by a mark other than a comma (、 too: 您自己已经申请了么、) the sentence has said how it ends.
  const std::optional<OpenClause> c = last_open_clause(cps);
  if (!c) return false;
  if (zh_question::clause_asks(cps, c->clause, c->body_end, cut_off)) return true;
  if (an_earlier_clause_asks(cps, *c, cut_off)) return true;
  if (zh_question::checks_what_is_meant(std::u32string_view(cps.data(), c->body_end))) return true;
  // A choice asked across the sentence's clauses (是京东负责还是专卖店负责, 需要不需要…，还是到时自动启动).
  return zh_question::asks_alternative(cps, c->sentence, c->body_end);
}

bool asks_in_an_earlier_clause(const std::string& text) {
  const std::vector<char32_t> cps = decoded(text);
  const std::optional<OpenClause> c = last_open_clause(cps);
  return c && !zh_question::clause_asks(cps, c->clause, c->body_end) && an_earlier_clause_asks(cps, *c);
}

std::string with_mark_after_asking_clause(const std::string& body) {
  std::vector<char32_t> cps = decoded(body);
  std::size_t end = cps.size();
  while (end > 0 && is_terminal_punct(cps[end - 1])) --end;  // the body's final mark
  std::size_t last = end;                                     // where its last clause starts
  while (last > 0 && !is_terminal_punct(cps[last - 1])) --last;
  const std::size_t at = earlier_asking_clause_end(cps, 0, last);
  if (at == last) return body;
  cps[at] = U'？';
  return text::encode_utf8(cps.data(), cps.size());
}

bool agent_asks_without_mark(const std::string& text) {
  const std::vector<char32_t> cps = decoded(text);
  const std::optional<OpenClause> c = last_open_clause(cps);
  if (!c) return false;
  std::u32string_view clause(cps.data() + c->clause, c->body_end - c->clause);
  while (!clause.empty() && std::u32string_view(U"啊呀哦哈亲").find(clause.back()) != std::u32string_view::npos)
    clause.remove_suffix(1);
  if (clause.ends_with(U"吗")) return true;
  // 嘛 asks (是嘛, 好嘛, 有新订单嘛) but after an adverb that insists it asserts (毕竟是专业的客服嘛).
  if (clause.ends_with(U"嘛")) {
    for (std::u32string_view insists : {U"毕竟", U"本来", U"当然", U"反正", U"明明", U"本身"})
      if (clause.find(insists) != std::u32string_view::npos) return false;
    return true;
  }
  if (clause.ends_with(U"么"))
    return !(clause.ends_with(U"什么") || clause.ends_with(U"怎么") || clause.ends_with(U"这么") ||
             clause.ends_with(U"那么") || clause.ends_with(U"多么"));
  if (clause.ends_with(U"呢")) {
    for (std::u32string_view hedge : {U"建议", U"可能", U"会", U"才", U"就", U"一下", U"看看", U"可以", U"的话", U"放心"})
      if (clause.find(hedge) != std::u32string_view::npos) return false;
    return zh_question::holds_question_word(clause);
  }
  if (asks_what_happened(clause) || zh_question::agent_clause_asks(cps, c->clause, c->body_end)) return true;
  const std::u32string_view whole(cps.data(), c->body_end);
  if (zh_question::checks_what_is_meant(whole)) return true;
  std::u32string_view opening = whole.substr(c->sentence);
  for (std::u32string_view address : {U"亲爱的", U"亲亲", U"亲", U"请问", U"，", U","})
    if (opening.starts_with(address)) opening.remove_prefix(address.size());
  return opening.starts_with(U"是") && zh_question::asks_alternative(cps, c->sentence, c->body_end);
}

bool is_question_tail(const std::string& text) { return is_question_tail(decoded(text)); }

bool is_question_tail(const std::vector<char32_t>& cps) {
  bool asks = false;
  int letters = 0;
  std::u32string words;  // the letters, for the permission tails
  for (char32_t cp : cps) {
    if (text::is_space(cp)) continue;
    if (std::u32string_view(U"吗么呢嘛?？").find(cp) != std::u32string_view::npos) {
      asks = true;
    } else if (cp != U'吧' && cp != U'啊') {
      words.push_back(cp);
      continue;
    }
    ++letters;
  }
  if (words.empty()) return asks && letters <= 3;
  // "May I?": the statement before it asks for permission or confirmation (那我把退货申请取消 可以吗).
  static constexpr std::u32string_view kPermission[] = {U"可以", U"行", U"好", U"能", U"对", U"是"};
  const bool permission = std::find(std::begin(kPermission), std::end(kPermission), words) != std::end(kPermission);
  return permission && asks && letters <= 3;
}

bool urges_with_marks(const std::vector<char32_t>& text, const std::vector<char32_t>& tail) {
  const bool marks_only = std::all_of(tail.begin(), tail.end(), [](char32_t cp) {
    return cp == U'?' || cp == U'？' || text::is_space(cp);
  });
  if (!marks_only) return false;
  std::u32string_view clause(text.data(), text.size());
  while (!clause.empty() && (is_terminal_punct(clause.back()) || clause.back() == U'，' || clause.back() == U',' ||
                             text::is_space(clause.back())))
    clause.remove_suffix(1);
  const std::size_t comma = clause.find_last_of(U"，,。；;!！?？");
  if (comma != std::u32string_view::npos) clause.remove_prefix(comma + 1);
  for (std::u32string_view opener : {U"那么", U"那"})
    if (clause.starts_with(opener)) {
      clause.remove_prefix(opener.size());
      break;
    }
  if (clause.starts_with(U"请问")) return false;  // asks
  for (std::u32string_view request : {U"我想", U"我要", U"我需要", U"请", U"帮我", U"麻烦", U"给我"})
    if (clause.starts_with(request)) return true;
  return clause.ends_with(U"给我");
}

bool asked_by_next_unit(const Prepared& p, std::size_t u) {
  if (p.lang != Lang::zh || u + 1 >= p.units.size()) return false;
  const Unit& here = p.units[u];
  const Unit& next = p.units[u + 1];
  return next.speaker == here.speaker && is_question_tail(next.text) &&
         !urges_with_marks(decoded(here.text), decoded(next.text));
}

bool asks_to_confirm(const Prepared& p, std::size_t u, const std::string& text) {
  if (p.lang != Lang::zh) return false;
  const std::vector<char32_t> cps = decoded(text);
  const std::u32string_view shown(cps.data(), cps.size());
  if (zh_question::ends_in_confirming_tag(shown)) return true;
  if (p.units[u].speaker != text::Speaker::customer || !zh_question::ends_in_tag(shown)) return false;
  for (std::u32string_view gives_in : {U"好吧", U"行吧", U"算了吧"})
    if (shown.find(gives_in) != std::u32string_view::npos) return false;
  // A presumption turns on a modal, the copula or 有 (明天就能到吧, 晚上可以送货的吧, 不会坏吧); a 吧 after an
  // action (到时候联系快递吧) proposes it, and a yes agrees.
  const std::u32string verb = zh_question::polar_verb(shown);
  static constexpr std::u32string_view kPresumed[] = {U"可以", U"需要", U"是", U"有", U"能", U"会"};
  if (std::find(std::begin(kPresumed), std::end(kPresumed), verb) == std::end(kPresumed)) return false;
  // 的 before the tag presumes a fact and asks it be confirmed, whatever the reply says (系统会自动生成的吧,
  // 金额卡上有显示的吧).
  if (zh_question::ends_in_tag_after_de(shown)) return true;
  for (std::size_t v = u + 1; v < p.units.size(); ++v) {
    if (p.units[v].speaker == p.units[u].speaker) continue;
    const std::vector<char32_t> reply = decoded(p.units[v].text);
    return zh_question::answers_polar(std::u32string_view(reply.data(), reply.size()), verb) >= 1;
  }
  return false;
}

}  // namespace kessel::summarize::render
