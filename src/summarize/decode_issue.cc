// The customer's issue (decode_parts.h, issue_unit): a summary that opens on the agent's words
// (客服:预计明天会为您送达) leaves the reader to guess what the customer came about.
#include <algorithm>
#include <cctype>

#include "decode_parts.h"
#include "kessel/text/utf8.h"

namespace kessel::summarize::decoding {

namespace {

// Text the customer pasted rather than wrote: a system notice (顾客通过点击web咚咚…发送, [站点]客户，已受理了
// 服务单…) or an order form's labels (订单编号[数字]，订单金额，下单时间).
bool is_pasted(std::u32string_view text) {
  if (holds_any(text, {U"顾客通过", U"已受理"})) return true;
  int labels = 0;
  for (std::u32string_view label : {U"订单编号", U"订单金额", U"下单时间", U"商品ID", U"商品编号"})
    labels += text.find(label) != std::u32string_view::npos ? 1 : 0;
  return labels >= 2;
}

// What a reader gets from unit u as the customer's issue: enough Chinese letters as shown, nothing pasted.
bool says_an_issue(const Context& c, std::size_t u) {
  if (c.p.lang != Lang::zh) return c.letters[u] >= kIssueMinWordsEn;
  const std::vector<char32_t> shown = text::decode_utf8(c.rendered(u), text::Utf8Mode::lossy).cps;
  const std::u32string_view text(shown.data(), shown.size());
  // A unit that opens on a connective goes on with something said before it (但是周末不上班).
  static constexpr std::u32string_view kConnectives[] = {U"但是", U"但", U"可是", U"不过", U"而且", U"所以", U"然后", U"那"};
  const bool goes_on = std::any_of(std::begin(kConnectives), std::end(kConnectives),
                                   [&](std::u32string_view w) { return text.starts_with(w); });
  return letters_outside_placeholders(text) >= kIssueMinLettersZh && !goes_on && !is_pasted(source_of(c, u));
}

// Whether unit u says what a unit among `units` says, letter for letter but a greeting's few
// (kGreetingLetters: 你好，怎么使用京东E卡 then 怎么使用京东E卡). Context::repeats needs redundancy n-grams,
// which a model may not use.
constexpr std::size_t kGreetingLetters = 3;
bool said_again(const Context& c, std::size_t u, const std::vector<int>& units) {
  auto letters = [&](std::size_t v) {
    std::u32string out;
    for (char32_t cp : source_of(c, v))
      if (text::is_cjk(cp) || (cp < 0x80 && std::isalnum(static_cast<int>(cp)))) out.push_back(cp);
    return out;
  };
  const std::u32string mine = letters(u);
  return std::any_of(units.begin(), units.end(), [&](int v) {
    const std::u32string theirs = letters(static_cast<std::size_t>(v));
    const std::u32string& longer = theirs.size() > mine.size() ? theirs : mine;
    const std::u32string& shorter = theirs.size() > mine.size() ? mine : theirs;
    return !shorter.empty() && longer.size() - shorter.size() <= kGreetingLetters &&
           longer.find(shorter) != std::u32string::npos;
  });
}

// The most salient customer unit before unit `end` that could be the issue: selectable, answering
// nothing, going on with nothing, not shown nor said again, and saying something as shown
// (says_an_issue) in at least `min_letters` letters (en: words); -1 when none.
int most_salient_issue_before(const Context& c, const std::vector<int>& units, int end, int min_letters = 0) {
  const Prepared& p = c.p;
  int best = -1;
  for (int u = 0; u < end; ++u) {
    const auto ux = static_cast<std::size_t>(u);
    if (p.units[ux].speaker != text::Speaker::customer || !c.selectable[ux] || c.answers[ux] >= 0 ||
        c.continues[ux] >= 0 || c.repeats(ux, units) || said_again(c, ux, units) || !says_an_issue(c, ux) ||
        c.letters[ux] < min_letters || std::find(units.begin(), units.end(), u) != units.end())
      continue;
    if (best < 0 || c.scores.salience[ux] > c.scores.salience[static_cast<std::size_t>(best)]) best = u;
  }
  return best;
}

}  // namespace

int issue_unit(const Context& c, const std::vector<int>& units) {
  if (units.empty()) return -1;
  const int first = *std::min_element(units.begin(), units.end());
  if (c.p.units[static_cast<std::size_t>(first)].speaker == text::Speaker::agent)
    return most_salient_issue_before(c, units, first);
  // zh: so does one whose customer lines before the first agent line shown hold at most kBareOpeningLetters
  // letters each (用户:低低[数字]。, a user name sent before the agent asked for it; 用户:人呢。).
  if (c.p.lang != Lang::zh) return -1;
  int end = static_cast<int>(c.p.units.size());
  for (int u : units) {
    const auto ux = static_cast<std::size_t>(u);
    if (c.p.units[ux].speaker == text::Speaker::agent) end = std::min(end, u);
  }
  for (int u : units) {
    if (u >= end) continue;
    const std::vector<char32_t> shown = text::decode_utf8(c.rendered(static_cast<std::size_t>(u)), text::Utf8Mode::lossy).cps;
    if (letters_outside_placeholders(std::u32string_view(shown.data(), shown.size())) > kBareOpeningLetters) return -1;
  }
  return most_salient_issue_before(c, units, end);
}

int english_issue_unit(const Context& c, const std::vector<int>& units) {
  const Prepared& p = c.p;
  if (p.lang != Lang::en || units.empty()) return -1;
  int end = static_cast<int>(p.units.size());
  for (int u : units) {
    const auto ux = static_cast<std::size_t>(u);
    if (p.units[ux].speaker == text::Speaker::agent) end = std::min(end, u);
    else if (says_an_issue(c, ux)) return -1;
  }
  return most_salient_issue_before(c, units, end, kEnglishIssueMinWords);
}

void add_issue(const Context& c, ConstrainedSelection& s) {
  if (!c.options.skip_fillers) return;
  const int v = issue_unit(c, s.units);
  if (v < 0) return;
  if (!fits_user_chars(c, s.units, v)) return;
  // At the cap (added_unit_cap) the issue takes the place of the least salient unit no other needs
  // (add_within_budget, Chinese only).
  if (static_cast<int>(s.units.size()) < added_unit_cap(c)) s.units.push_back(v);
  else add_within_budget(c, s, v, v);
}

void add_english_issue(const Context& c, ConstrainedSelection& s) {
  if (!c.options.skip_fillers) return;
  add_below_cap(c, s, english_issue_unit(c, s.units));
}

}  // namespace kessel::summarize::decoding
