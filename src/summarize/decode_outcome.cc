// The dialogue's outcome (decode_parts.h, outcome_unit): what the agent last did or promised for the
// customer (已经帮您提交了售后申请, 专员会在[数字]小时给您回电), which a summary ending on the customer's
// question leaves the reader to guess; in English, the customer's word that it works (resolution_unit:
// "Power reset it. Working now.").
#include <algorithm>
#include <cctype>
#include <span>
#include <string>

#include "decode_parts.h"
#include "summarize/render.h"
#include "kessel/text/utf8.h"

namespace kessel::summarize::decoding {

namespace {

bool is_negation(char32_t cp) { return cp == U'没' || cp == U'不' || cp == U'未' || cp == U'无' || cp == U'别'; }

// What an agent does for a customer: the verbs of an action taken or promised.
constexpr std::u32string_view kActions[] = {
    U"申请", U"提交", U"登记", U"反馈", U"催", U"处理", U"安排", U"备注", U"升级", U"补发", U"退款", U"取消",
    U"修改", U"加急", U"留言", U"报备", U"联系", U"回电", U"致电", U"回复", U"跟进", U"核实", U"审核", U"派送",
    U"送达", U"发货", U"到账", U"退回", U"补偿", U"赔付", U"换货",
    // A change made or a document issued (已经帮您改好了呢 after the invoice title was corrected).
    U"改好", U"改过", U"改成", U"开具", U"补开", U"重开", U"办好", U"弄好"};

// Whether an action verb starts within `reach` letters after `at`, a placeholder counting as one (会在
// [数字]个工作日内审核处理); no mark between (已经。。好的，申请 is two clauses), and no negation (就没给您
// 发货, 已经不能取消 report nothing done).
bool action_within(std::u32string_view text, std::size_t at, std::size_t reach) {
  std::size_t letters = 0;
  bool placeholder = false;
  for (std::size_t i = at; i < text.size() && letters <= reach; ++i) {
    const char32_t cp = text[i];
    if (placeholder) {
      placeholder = cp != U']';
      letters += placeholder ? 0 : 1;
      continue;
    }
    if (cp == U'[') {
      placeholder = true;
      continue;
    }
    if (!text::is_cjk(cp) && !(cp >= U'0' && cp <= U'9')) return false;
    if (is_negation(cp)) return false;
    for (std::u32string_view verb : kActions)
      if (text.substr(i, verb.size()) == verb) return true;
    ++letters;
  }
  return false;
}

// Whether the customer is the subject right before `at`: 您, 你, or 您/你 + 自己/这边/那边 (我看您已经申请了,
// 您自己已经申请了么).
bool customer_before(std::u32string_view text, std::size_t at) {
  const std::u32string_view head = text.substr(0, at);
  for (std::u32string_view subject : {U"您", U"你", U"您自己", U"你自己", U"您这边", U"你这边", U"您那边", U"你那边"})
    if (head.ends_with(subject)) return true;
  return false;
}

// Whether one of `markers` opens an action within `reach` letters. The marker must be the agent's: not
// after the customer as subject (customer_before: the customer's own step) nor within two letters
// after a negation (没给您发货, 暂时无法帮您处理, 也不能帮您联系).
bool action_after_any(std::u32string_view text, std::initializer_list<std::u32string_view> markers, std::size_t reach) {
  for (std::u32string_view m : markers)
    for (std::size_t at = text.find(m); at != std::u32string_view::npos; at = text.find(m, at + 1)) {
      const char32_t before = at > 0 ? text[at - 1] : U' ', before2 = at > 1 ? text[at - 2] : U' ';
      if (customer_before(text, at) || is_negation(before) || is_negation(before2)) continue;
      if (action_within(text, at + m.size(), reach)) return true;
    }
  return false;
}

// The letters that say what an agent's outcome is about: Chinese letters outside placeholders and
// apologies (不好意思, 抱歉), but for particles, the words for whom it is done and the marks of tense (帮 您
// 为 给 了 的 已 经 会 …).
constexpr std::u32string_view kOutcomeFunction = U"帮您你为给了的呢哦啊吧是这边亲小妹下一也都我们已经会将在哈";
std::u32string outcome_letters(std::u32string_view text) {
  std::u32string letters;
  bool placeholder = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char32_t cp = text[i];
    if (cp == U'[' || cp == U']') {
      placeholder = cp == U'[';
      continue;
    }
    if (placeholder) continue;
    if (text.substr(i, 4) == U"不好意思" || text.substr(i, 2) == U"抱歉") {
      i += text.substr(i, 2) == U"抱歉" ? 1 : 3;
      continue;
    }
    if (text::is_cjk(cp) && kOutcomeFunction.find(cp) == std::u32string_view::npos) letters.push_back(cp);
  }
  return letters;
}

// Whether `outcome` tells nothing that the shown agent statement `shown` does not: two thirds of its
// outcome_letters are in `shown`, it reports no result that `shown` does not (成功, 通过, 完成, 好了, 到账),
// and `shown` does not merely advise or suppose (可以, 建议, 需要, 的话): 已经催促站点的 after 这边催促一下站点呢,
// 款项会安排原路退支付白条 after 这个退款会原路退支付白条, 这边专员会在[数字]小时给您回电，不好意思 after 专员会在
// [数字]小时给… tell nothing new; 已经为您申请价保成功了 after 为您申请价保 tells that it went through, 已经帮申请
// 交易纠纷了 after 已经申请好了 what was filed, and 给您取消订单 after 可以取消订单的 that it was done.
bool adds_nothing_to(std::u32string_view shown, std::u32string_view outcome) {
  for (std::u32string_view result : {U"成功", U"通过", U"完成", U"好了", U"到账"})
    if (outcome.find(result) != std::u32string_view::npos && shown.find(result) == std::u32string_view::npos) return false;
  if (holds_any(shown, {U"可以", U"建议", U"需要", U"的话"})) return false;
  if (outcome.find(U'已') != std::u32string_view::npos && shown.find(U'已') == std::u32string_view::npos) return false;
  const std::u32string letters = outcome_letters(outcome);
  const auto covered = std::count_if(letters.begin(), letters.end(),
                                     [&](char32_t cp) { return shown.find(cp) != std::u32string_view::npos; });
  return 3 * static_cast<std::size_t>(covered) >= 2 * letters.size();
}

// A supposition states a policy (如果没有问题会退款), not what was done; a closing formula asks for nothing.
bool supposes_or_closes(std::u32string_view text) {
  return holds_any(text, {U"如果", U"要是", U"的话", U"若"}) || closes_conversation(text);
}

// Where the sentence budget is full, the unit that leaves for the outcome v: the least salient shown
// agent unit before v. It is no customer unit (the customer's issue, questions and complaints are what the
// outcome answers), no agent unit that refuses, reports an action or answers a shown unit (但资质未过，还不能
// 开, 不会的), not the reply shown under a customer's question, nothing another shown unit answers or goes on
// with, and its leaving keeps the customer's strongest emotion. -1 when none: the outcome stays out.
int room_for_outcome(const Context& c, const ConstrainedSelection& s, int v) {
  const std::vector<int>& units = s.units;
  const bool kept_before = keeps_strongest(c, s);
  const auto is_shown = [&](int u) { return std::find(units.begin(), units.end(), u) != units.end(); };
  int weakest = -1;
  for (int w : units) {
    const auto wx = static_cast<std::size_t>(w);
    if (w > v || w == s.clause_unit || c.p.units[wx].speaker != text::Speaker::agent) continue;
    const std::u32string_view text = source_of(c, wx);
    if (refuses(text) || reports_an_action(text) || (c.answers[wx] >= 0 && is_shown(c.answers[wx]))) continue;
    // The reply shown under a customer's question: the shown unit right before it asks.
    int before = -1;
    for (int x : units)
      if (x < w && x > before) before = x;
    if (before >= 0 && c.p.units[static_cast<std::size_t>(before)].speaker == text::Speaker::customer &&
        asks(c, static_cast<std::size_t>(before)))
      continue;
    if (std::any_of(units.begin(), units.end(), [&](int x) {
          return c.answers[static_cast<std::size_t>(x)] == w || c.continues[static_cast<std::size_t>(x)] == w;
        }))
      continue;
    if (weakest >= 0 && c.scores.salience[wx] >= c.scores.salience[static_cast<std::size_t>(weakest)]) continue;
    ConstrainedSelection without = s;
    without.units.erase(std::find(without.units.begin(), without.units.end(), w));
    if (kept_before && !keeps_strongest(c, without)) continue;
    weakest = w;
  }
  return weakest;
}

// Whether a change to the customer's account or order is reported done with no marker before it (操作完成
// 哦了直接用刚刚绑定的手机号码登录就可以了, 绑定成功啦): the step right before its result, the result closing its
// clause (a particle, a mark or the end), with no time or promise before it ([数字]个工作日修改完成, 会在…办理
// 完成), no condition after it (操作完成后, 绑定成功会…) and no negation within three letters before (没有操作成
// 功). Filing and refunds are not among the steps: 申请成功会有短信 and 等退款成功 are still to come, and the
// markers of reports_an_action read them.
bool reports_a_result(std::u32string_view text) {
  static constexpr std::u32string_view kSteps[] = {U"操作", U"绑定", U"换绑", U"解绑", U"修改", U"办理", U"设置"};
  static constexpr std::u32string_view kResults[] = {U"完成", U"成功"};
  static constexpr std::u32string_view kClosing = U"了啦哦的呢哈啊呀，,。.！!~～";
  for (std::u32string_view step : kSteps)
    for (std::size_t at = text.find(step); at != std::u32string_view::npos; at = text.find(step, at + 1)) {
      const std::size_t r = at + step.size();
      for (std::u32string_view result : kResults) {
        if (text.substr(r, result.size()) != result) continue;
        const std::size_t after = r + result.size();
        const std::u32string_view before = text.substr(0, at);
        const std::u32string_view near = before.substr(before.size() > 4 ? before.size() - 4 : 0);
        const bool closes = after == text.size() || kClosing.find(text[after]) != std::u32string_view::npos;
        if (closes && !holds_any(near, {U"会", U"将", U"日", U"天", U"等", U"待", U"后", U"预计"}) &&
            std::none_of(near.end() - std::min<std::size_t>(near.size(), 3), near.end(), is_negation))
          return true;
      }
    }
  return false;
}

}  // namespace

bool closes_conversation(std::u32string_view text) {
  return holds_any(text, {U"还有其他", U"其他问题", U"祝您", U"感谢", U"评价", U"满意", U"再见"});
}

bool reports_an_action(std::u32string_view text) {
  // 专员 (a specialist) takes the case over: 专员会联系您, 升级到专员处理; not 我不是专员 or 专员不在.
  for (std::size_t at = text.find(U"专员"); at != std::u32string_view::npos; at = text.find(U"专员", at + 1)) {
    const bool negated_before = (at > 0 && is_negation(text[at - 1])) || (at > 1 && is_negation(text[at - 2]));
    const bool negated_after = at + 2 < text.size() && is_negation(text[at + 2]);
    if (!negated_before && !negated_after) return true;
  }
  return action_after_any(text, {U"已经", U"已"}, kActionReach) || action_after_any(text, {U"会", U"将"}, kActionReach) ||
         action_after_any(text, {U"帮您", U"为您", U"给您", U"帮你", U"给你", U"为你", U"帮"}, 0) ||
         reports_a_result(text);
}

int outcome_unit(const Context& c) {
  const Prepared& p = c.p;
  if (p.lang != Lang::zh) return -1;
  for (std::size_t u = p.units.size(); u-- > 0;) {
    if (p.units[u].speaker != text::Speaker::agent || !c.selectable[u] || asks(c, u) ||
        c.letters[u] < kOutcomeMinLetters || c.unit_chars[u] < kOutcomeMinChars)
      continue;
    const std::u32string_view text = source_of(c, u);
    if (!reports_an_action(text) || supposes_or_closes(text) || answers_nothing(text)) continue;
    // What the summary shows must still report it: token deletion may leave only its opening, or a
    // purpose clause of a longer sentence (以便更快帮处理退款).
    const std::vector<char32_t> shown = text::decode_utf8(c.rendered(u), text::Utf8Mode::lossy).cps;
    const std::u32string_view shown_text(shown.data(), shown.size());
    if (holds_any(shown_text.substr(0, 2), {U"以便", U"以免", U"从而", U"并且", U"而且", U"然后", U"所以", U"因此"}))
      continue;
    if (reports_an_action(shown_text)) return static_cast<int>(u);
  }
  return -1;
}

void add_outcome(const Context& c, ConstrainedSelection& s) {
  if (!c.options.skip_fillers) return;
  const int v = outcome_unit(c);
  if (v < 0 || std::find(s.units.begin(), s.units.end(), v) != s.units.end() || says_again(c, s.units, v)) return;
  // An outcome that opens with a no to a question the summary does not show (不需要了呢，专员[数字]个工作日内跟您
  // 联系的 after 还需要别的吗) would read as a refusal of whatever is shown before it. A yes reads as the
  // confirmation it is (是的已帮操作退款了, 可以的现在帮提交).
  const int answered = c.answers[static_cast<std::size_t>(v)];
  const std::u32string_view opening = source_of(c, static_cast<std::size_t>(v));
  if (answered >= 0 && std::find(s.units.begin(), s.units.end(), answered) == s.units.end() && !opening.empty() &&
      is_negation(opening.front()))
    return;
  // A shown agent statement may tell it already (adds_nothing_to); a question (建议联系取件员可以吗) does not
  // tell that the agent will do it (可以帮联系一下的).
  const std::u32string_view outcome = source_of(c, static_cast<std::size_t>(v));
  for (int u : s.units) {
    const auto ux = static_cast<std::size_t>(u);
    if (c.p.units[ux].speaker == text::Speaker::agent && !asks(c, ux) && adds_nothing_to(source_of(c, ux), outcome))
      return;
  }
  if (static_cast<int>(s.units.size()) >= added_unit_cap(c) && fits_user_chars(c, s.units, v)) {
    const int w = room_for_outcome(c, s, v);
    if (w < 0) return;
    s.units.erase(std::find(s.units.begin(), s.units.end(), w));
  }
  add_below_cap(c, s, v);
}

namespace {

// The customer unit an agent's unit u answers: the last selectable one before it; -1 when none.
int customer_unit_before(const Context& c, std::size_t u) {
  for (std::size_t k = u; k-- > 0;)
    if (c.p.units[k].speaker == text::Speaker::customer && c.selectable[k]) return static_cast<int>(k);
  return -1;
}

// Whether unit u, as rendered, still refuses and stands as a sentence: deletion may leave the consequence
// of a condition it dropped (就无法申请) or a reason without what it explains (因为这个目前还不支持).
bool refuses_as_rendered(const Context& c, std::size_t u) {
  const std::vector<char32_t> rendered = text::decode_utf8(c.rendered(u), text::Utf8Mode::lossy).cps;
  const std::u32string_view text(rendered.data(), rendered.size());
  if (holds_any(text.substr(0, 2), {U"就", U"所以", U"因为", U"但", U"而且", U"并且", U"也", U"还", U"然后", U"很"}))
    return false;
  return refuses(text);
}

}  // namespace

int refusal_unit(const Context& c, const std::vector<int>& shown) {
  const Prepared& p = c.p;
  if (p.lang != Lang::zh || shown.empty()) return -1;
  const auto is_shown = [&](int u) { return std::find(shown.begin(), shown.end(), u) != shown.end(); };
  const auto first_shown = static_cast<std::size_t>(*std::min_element(shown.begin(), shown.end()));
  for (std::size_t u = p.units.size(); u-- > first_shown + 1;) {
    if (p.units[u].speaker != text::Speaker::agent || !c.selectable[u] || asks(c, u) ||
        c.letters[u] < kOutcomeMinLetters || !refuses(source_of(c, u)) || render::ends_cut_turn(p, u))
      continue;
    // What it refuses is what the customer last said before it: shown, or the no refuses something the
    // reader never sees (下周末不可以呢 after 那下周末呢, with 上门取件可以晚上么 shown).
    const int asked = customer_unit_before(c, u);
    if (asked >= 0 && is_shown(asked) && refuses_as_rendered(c, u)) return static_cast<int>(u);
  }
  return -1;
}

void add_refusal(const Context& c, ConstrainedSelection& s) {
  if (!c.options.skip_fillers) return;
  const int v = refusal_unit(c, s.units);
  if (v < 0 || std::find(s.units.begin(), s.units.end(), v) != s.units.end() || says_again(c, s.units, v)) return;
  for (int u : s.units) {
    const auto ux = static_cast<std::size_t>(u);
    if (c.p.units[ux].speaker == text::Speaker::agent && refuses(source_of(c, ux))) return;
  }
  add_below_cap(c, s, v);
}

bool reports_resolution(std::string_view text) {
  static constexpr std::string_view kSolved[] = {
      "working now", "works now", "working again", "works again", "it worked", "that worked", "did the trick",
      "done the trick", "does the trick",
      "problem solved", "issue solved", "problem resolved", "issue resolved", "all sorted", "sorted now",
      "fixed now", "it's fixed", "it’s fixed", "all good now", "that fixed it", "got it working", "it's working",
      "it’s working", "its working", "that did it", "fixed it", "all fixed", "figured it out", "all set now",
      "fine now", "is okay now", "is ok now"};
  static constexpr std::string_view kDenials[] = {"not ", "n't ", "n’t ", "never ", "no longer ", "stopped "};
  const std::string lower = text::ascii_lower(text);
  for (std::string_view phrase : kSolved)
    for (std::size_t at = lower.find(phrase); at != std::string::npos; at = lower.find(phrase, at + 1)) {
      const bool starts_word = at == 0 || !std::isalpha(static_cast<unsigned char>(lower[at - 1]));
      const std::size_t end = at + phrase.size();
      const bool ends_word = end == lower.size() || !std::isalpha(static_cast<unsigned char>(lower[end]));
      // "still not working now", "isn't working again": the words just before deny it.
      const std::string_view before = std::string_view(lower).substr(at >= 12 ? at - 12 : 0, at >= 12 ? 12 : at);
      const bool denied = std::any_of(std::begin(kDenials), std::end(kDenials),
                                      [&](std::string_view d) { return before.find(d) != std::string_view::npos; });
      // What follows may take it back: "It worked perfectly before and now…", "It worked for a little bit",
      // "All good now, but…". After a past "worked" only an end, a mark, now or thanks may come.
      std::size_t next = end;
      while (next < lower.size() && (lower[next] == ' ' || lower[next] == ',')) ++next;
      const std::string_view rest = std::string_view(lower).substr(next);
      const bool contrasted = rest.starts_with("but ") || rest.starts_with("but.") || rest == "but";
      const bool past = phrase.ends_with("worked");
      const bool past_ok = !past || rest.empty() || !std::isalpha(static_cast<unsigned char>(rest[0])) ||
                           rest.starts_with("thank") || rest.starts_with("now") || rest.starts_with("ty");
      if (starts_word && ends_word && !denied && !contrasted && past_ok) return true;
    }
  return false;
}

namespace {

// `text` in lower case with its words apart by one space, a space at each end: a run of anything but
// letters (a curly apostrophe is three bytes) is one space.
std::string spaced_words(std::string_view text) {
  std::string out = " ";
  for (char ch : text::ascii_lower(text)) {
    if (std::isalpha(static_cast<unsigned char>(ch))) out += ch;
    else if (out.back() != ' ') out += ' ';
  }
  if (out.back() != ' ') out += ' ';
  return out;
}

bool holds_word(const std::string& spaced, std::span<const std::string_view> words) {
  return std::any_of(words.begin(), words.end(),
                     [&](std::string_view w) { return spaced.find(" " + std::string(w) + " ") != std::string::npos; });
}

// Whether a customer's text denies: n't, not, never, no longer, still, stopped ("Router still orange",
// "Can’t claim delay repay").
bool holds_denial(const std::string& spaced) {
  static constexpr std::string_view kDenials[] = {"not", "never", "no longer", "stopped", "still",
                                                  "cant", "wont", "doesnt", "isnt", "didnt"};
  return spaced.find("n t ") != std::string::npos || holds_word(spaced, kDenials);  // n't, n’t
}

// Whether a later message of the customer's takes a resolution back: a denial or the trouble again
// ("Today the network is down again", "they never activate this #"). A closing ("Nope that is it. Thank
// you") does not.
bool takes_back(std::string_view text) {
  static constexpr std::string_view kAgain[] = {"again", "down"};
  const std::string spaced = spaced_words(text);
  return holds_denial(spaced) || holds_word(spaced, kAgain);
}

}  // namespace

int resolution_unit(const Context& c) {
  const Prepared& p = c.p;
  if (p.lang != Lang::en) return -1;
  bool agent_spoke = false;
  int found = -1;
  for (std::size_t u = 0; u < p.units.size(); ++u) {
    if (p.units[u].speaker == text::Speaker::agent) {
      agent_spoke = agent_spoke || c.selectable[u];
      continue;
    }
    if (!c.selectable[u]) continue;
    // Only the customer's last message counts: "Working now" followed by "It's down again", or by more of
    // a complaint the fix left open (the phone works, the bill is still wrong), is no resolution; the
    // rest of its own tweet ("…working now. It's playing the right song now.") does not take it back.
    if (agent_spoke && !asks(c, u) && reports_resolution(p.units[u].text)) found = static_cast<int>(u);
    else if (found >= 0 && p.units[u].turn != p.units[static_cast<std::size_t>(found)].turn &&
             takes_back(p.units[u].text))
      found = -1;
  }
  return found;
}

void add_resolution(const Context& c, ConstrainedSelection& s) {
  if (!c.options.skip_fillers) return;
  const int v = resolution_unit(c);
  if (v < 0 || std::find(s.units.begin(), s.units.end(), v) != s.units.end()) return;
  add_below_cap(c, s, v);
}

namespace {

// The customer's last selectable unit when no selectable agent unit follows it; the unit count otherwise.
std::size_t customers_last_word(const Context& c) {
  const Prepared& p = c.p;
  for (std::size_t u = p.units.size(); u-- > 0;) {
    if (!c.selectable[u]) continue;
    return p.units[u].speaker == text::Speaker::customer ? u : p.units.size();
  }
  return p.units.size();
}

// Whether the agent's unit shown last before customer unit u asks, and the agent says nothing between
// them: u's message answers that question ("The agent asks: Is the screen still functional?").
bool answers_shown_question(const Context& c, const std::vector<int>& units, std::size_t u) {
  const Prepared& p = c.p;
  std::size_t a = 0;
  bool any = false;
  for (int x : units) {
    const auto xx = static_cast<std::size_t>(x);
    if (xx < u && p.units[xx].speaker == text::Speaker::agent && (!any || xx > a)) a = xx, any = true;
  }
  if (!any || !asks(c, a)) return false;
  for (std::size_t k = a + 1; k < u; ++k)
    if (p.units[k].speaker == text::Speaker::agent && p.units[k].turn != p.units[a].turn) return false;
  return true;
}

}  // namespace

int unresolved_unit(const Context& c, const std::vector<int>& units) {
  const Prepared& p = c.p;
  if (p.lang != Lang::en) return -1;
  const std::size_t last = customers_last_word(c);
  if (last == p.units.size() || asks(c, last) || !holds_denial(spaced_words(p.units[last].text))) return -1;
  if (c.letters[last] > kUnresolvedWords && !answers_shown_question(c, units, last)) return -1;
  const auto turn = p.units[last].turn;
  bool agent_before = false;
  for (int x : units) {
    const auto xx = static_cast<std::size_t>(x);
    if (p.units[xx].turn == turn) return -1;  // the summary shows that message already
    agent_before = agent_before || (xx < last && p.units[xx].speaker == text::Speaker::agent);
  }
  return agent_before ? static_cast<int>(last) : -1;
}

void add_unresolved(const Context& c, ConstrainedSelection& s) {
  if (!c.options.skip_fillers) return;
  add_below_cap(c, s, unresolved_unit(c, s.units));
}

int turning_feeling_unit(const Context& c, const ConstrainedSelection& s) {
  const Prepared& p = c.p;
  auto shown = [&](int u) { return std::find(s.units.begin(), s.units.end(), u) != s.units.end(); };
  auto counts = [&](const text::EmotionMention& x) {
    return x.expressed && x.kind != text::MentionKind::request && x.polarity != text::Polarity::neutral;
  };
  std::size_t last = p.mentions.size();  // the customer's last feeling, by unit (mentions are in text order)
  for (std::size_t m = 0; m < p.mentions.size(); ++m)
    if (counts(p.mentions[m]) &&
        (last == p.mentions.size() || p.mention_unit[m] >= p.mention_unit[last]))
      last = m;
  if (last == p.mentions.size()) return -1;
  int u = p.mention_unit[last];
  // A feeling alone says nothing of how it turned ("Customer: 😏", 用户:好吧。, "Great strategy."): the unit
  // says more than a short answer does.
  const int short_answer = p.lang == Lang::zh ? kShortAnswerZh : kShortAnswerEn;
  // An emoji sent as a sentence of its own closes the one before it in its tweet ("He just landed and said
  // no HBD message. 😏"): that sentence says how the customer left.
  if (u > 0 && c.letters[static_cast<std::size_t>(u)] == 0 &&
      p.units[static_cast<std::size_t>(u - 1)].turn == p.units[static_cast<std::size_t>(u)].turn &&
      c.letters[static_cast<std::size_t>(u - 1)] > short_answer)
    --u;
  if (shown(u) || !c.selectable[static_cast<std::size_t>(u)] || c.letters[static_cast<std::size_t>(u)] <= short_answer)
    return -1;
  // It is how the customer left only if they said nothing after it ("10 hours later and still no change!"
  // and then "It loaded, thanks" is no turn to show).
  for (std::size_t v = static_cast<std::size_t>(u) + 1; v < p.units.size(); ++v)
    if (p.units[v].speaker == text::Speaker::customer && p.units[v].turn != p.units[static_cast<std::size_t>(u)].turn &&
        c.selectable[v])
      return -1;
  bool any_shown = false;
  for (std::size_t m = 0; m < p.mentions.size(); ++m) {
    if (!counts(p.mentions[m]) || !shown(p.mention_unit[m]) || !survives(c, m, s)) continue;
    if (p.mentions[m].polarity == p.mentions[last].polarity) return -1;
    any_shown = true;
  }
  return any_shown ? u : -1;
}

void add_turning_feeling(const Context& c, ConstrainedSelection& s) {
  if (!c.options.skip_fillers) return;
  add_below_cap(c, s, turning_feeling_unit(c, s));
}

}  // namespace kessel::summarize::decoding
