// What a selected unit brings with it so that a reader can follow it (decode_parts.h): the agent's
// direct answer to a customer's yes/no question, its refusal of a customer's request, or its reply to
// an open question (decode_open_answers.cc); the customer's reply to an agent's question; the question
// an agent's answer answers when the summary would show it under another; and how each is added to a
// selection under the sentence budget.
#include <algorithm>

#include "decode_parts.h"
#include "kessel/text/utf8.h"
#include "summarize/render.h"
#include "summarize/zh_questions.h"

namespace kessel::summarize::decoding {

int direct_answer(const Context& c, std::size_t q) {
  const Prepared& p = c.p;
  if (p.lang != Lang::zh || p.units[q].speaker != text::Speaker::customer) return -1;
  const std::u32string_view q_text = source_of(c, q);
  if (!asks(c, q) && !zh_question::ends_in_tag(q_text)) return -1;
  // An agent's yes or no paired with q by its place (in_order_question) answers it, though the customer
  // asked again before the agent replied: 直接和他说拒收是吧 / 会不会影响小哥绩效考核 / 是的呢直接拒收就好哦 / 这个
  // 是不会的哈 (te157 746 showed the second answer only).
  for (std::size_t v = q + 1; v < p.units.size() && v <= q + 2 * kAnswerReach; ++v)
    if (p.units[v].speaker == text::Speaker::agent && in_order_question(c, v) == static_cast<int>(q) &&
        !asks(c, v) && c.unit_chars[v] > 0 && c.unit_chars[v] <= kDirectAnswerChars &&
        opens_with_yes_or_no(p, v))
      return static_cast<int>(v);
  const std::u32string verb = zh_question::polar_verb(q_text);
  if (verb.empty()) return -1;
  // The answer that repeats the question's verb wins over an earlier plain yes, which may answer
  // something else (会不会影响…: 是的呢直接拒收就好哦 answered the turn before, 这个是不会的哈 this one).
  int best = -1, best_rank = 0;
  bool replied = false;
  for (std::size_t v = q + 1; v < p.units.size() && v <= q + kAnswerReach; ++v) {
    if (p.units[v].speaker == text::Speaker::customer) {
      // Asked again, or, once the agent has replied, said something new (已经申请等待审核中 / 我现在要的是运费…
      // / 是的呢): what follows answers that.
      if (asks(c, v) || (replied && c.selectable[v])) break;
      continue;
    }
    const int rank = asks(c, v) ? 0 : zh_question::answers_polar(source_of(c, v), verb);
    // A plain yes that is no content alone (对哒) is a reply too: a statement of the customer's after it is
    // what the next reply answers (是按用卷后优惠金额计算吗 / 对哒 / 这个活动搞的好矛盾 / 不是的).
    replied = replied || c.selectable[v] || rank > 0;
    if (c.unit_chars[v] <= 0 || c.unit_chars[v] > kDirectAnswerChars) continue;
    if (rank > best_rank) best = static_cast<int>(v), best_rank = rank;
  }
  return best;
}

namespace {

// Whether `text`, past an apology or address (非常抱歉了亲, 不好意思, 亲亲), opens with a no: 没有的, 不是的, 不会的.
bool opens_with_a_no(std::u32string_view text) {
  static constexpr std::u32string_view kOpeners[] = {U"非常抱歉", U"很抱歉", U"抱歉", U"不好意思", U"亲爱的", U"亲亲",
                                                     U"亲", U"了", U"呢", U"哦", U"哈", U"，", U",", U"～", U"~"};
  for (bool stripped = true; stripped;) {
    stripped = false;
    for (std::u32string_view w : kOpeners)
      if (text.starts_with(w)) text.remove_prefix(w.size()), stripped = true;
  }
  static constexpr std::u32string_view kNos[] = {U"没有的", U"没有呢", U"没有哦", U"没有哈", U"不是的", U"不会的"};
  return std::any_of(std::begin(kNos), std::end(kNos), [&](std::u32string_view w) { return text.starts_with(w); });
}

}  // namespace

bool refuses(std::u32string_view text) {
  static constexpr std::u32string_view kRefusals[] = {U"无法", U"不能", U"不可以", U"不支持", U"不行", U"没法", U"没有办法"};
  if (text.find(U"如果") != std::u32string_view::npos || text.find(U"要是") != std::u32string_view::npos) return false;
  if (opens_with_a_no(text)) return true;
  for (std::u32string_view w : kRefusals)
    for (std::size_t at = text.find(w); at != std::u32string_view::npos; at = text.find(w, at + 1))
      if (text.substr(at + w.size(), 2) != U"的话") return true;
  // A verb that cannot be done, V不了 (送不了, 改不了, 退不了), after a letter; not 不了解 or 不了了之.
  for (std::size_t at = text.find(U"不了"); at != std::u32string_view::npos; at = text.find(U"不了", at + 1))
    if (at > 0 && text::is_cjk(text[at - 1]) && text.substr(at + 2, 1) != U"解" && text.substr(at + 2, 1) != U"了" &&
        text.substr(at + 2, 2) != U"的话")
      return true;
  return false;
}

int refusal_of(const Context& c, std::size_t q) {
  const Prepared& p = c.p;
  if (p.lang != Lang::zh || p.units[q].speaker != text::Speaker::customer) return -1;
  for (std::size_t v = q + 1; v < p.units.size() && v <= q + kAnswerReach; ++v) {
    if (p.units[v].speaker == text::Speaker::customer) {
      if (c.selectable[v]) return -1;  // the customer said more: a refusal after it refuses that
      continue;
    }
    if (!c.selectable[v] || asks(c, v) || c.unit_chars[v] > kDirectAnswerChars) continue;
    if (refuses(source_of(c, v))) return static_cast<int>(v);
  }
  return -1;
}

// Whether unit u says nothing but placeholders ([订单编号], [数字]) and marks.
bool only_placeholders(const Prepared& p, std::size_t u) {
  const auto& tokens = p.unit_tokens[u];
  const auto placeholder = [](const text::Token& t) { return t.kind == text::TokenKind::placeholder; };
  return std::any_of(tokens.begin(), tokens.end(), placeholder) &&
         std::all_of(tokens.begin(), tokens.end(), [&](const text::Token& t) { return placeholder(t) || text::is_punctuation(t); });
}

namespace {

// A text without the marks and symbols after its last Chinese letter: 可以吗? -> 可以吗.
std::u32string_view to_last_letter(std::u32string_view text) {
  while (!text.empty() && !text::is_cjk(text.back())) text.remove_suffix(1);
  return text;
}

}  // namespace

bool asks_yes_or_no(const Context& c, std::size_t q) {
  const std::u32string_view text = source_of(c, q);
  if (zh_question::holds_question_word(text)) return false;
  const std::u32string_view body = to_last_letter(text);
  return !zh_question::polar_verb(text).empty() || zh_question::ends_in_tag(text) || body.ends_with(U"吗") ||
         body.ends_with(U"么");
}

int customer_reply(const Context& c, std::size_t q, const std::vector<int>& units) {
  const Prepared& p = c.p;
  if (p.units[q].speaker != text::Speaker::agent || !asks(c, q)) return -1;
  auto shown = [&](std::size_t v) { return std::find(units.begin(), units.end(), static_cast<int>(v)) != units.end(); };
  for (std::size_t v = q + 1; v < p.units.size() && v <= q + kAnswerReach; ++v) {
    if (p.units[v].speaker == text::Speaker::agent) {
      // Asked again: what follows answers that. A turn's questions are one asking (您的发票抬头是从化安城山庄吗？/
      // 税号是[数字]W吗？ / 用户:不是): the reply answers each.
      if (asks(c, v) && p.units[v].turn != p.units[q].turn) return -1;
      continue;
    }
    if (shown(v)) return -1;  // the summary shows a reply already
    // A bare yes or no (对的, 是的呢) answers a yes/no question (客服:是要解绑换绑新的手机号吗? / 用户:对), though
    // alone it is no content.
    if (!c.selectable[v] && p.lang == Lang::zh && is_bare_yes_or_no(source_of(c, v)) && asks_yes_or_no(c, q))
      return render::has_content(c.rendered(v)) ? static_cast<int>(v) : -1;
    if (!c.selectable[v] || asks(c, v)) return -1;
    // An order number sent after a yes/no question is what the agent asked for before, not the answer
    // (客服:买的是抽纸吗。用户:[订单编号]。); after 多少 / 哪 it may be ([数字] after 转账的金额是多少呢).
    if (only_placeholders(p, v) && !zh_question::holds_question_word(p.units[q].text)) return -1;
    const int size = p.lang == Lang::zh ? c.unit_chars[v] : c.letters[v];
    return size <= (p.lang == Lang::zh ? kDirectAnswerChars : kReplyWordsEn) ? static_cast<int>(v) : -1;
  }
  return -1;
}

int customer_denial(const Context& c, std::size_t q, const std::vector<int>& units) {
  const Prepared& p = c.p;
  if (p.lang != Lang::zh || p.units[q].speaker != text::Speaker::agent || asks(c, q)) return -1;
  const std::size_t v = customer_after(c, q);
  if (v >= p.units.size() || !is_bare_denial(source_of(c, v)) ||
      std::find(units.begin(), units.end(), static_cast<int>(v)) != units.end())
    return -1;
  // It answers q, or a question of the agent's before q in the same run (the caller brings that too).
  const int asked = c.answers[v];
  if (asked < 0 || asked > static_cast<int>(q)) return -1;
  for (std::size_t k = static_cast<std::size_t>(asked); k < q; ++k)
    if (p.units[k].speaker != text::Speaker::agent) return -1;
  return static_cast<int>(v);
}

namespace {

// Whether agent unit w is the agent's only shown reply to a customer question of `units`: the last
// selectable unit before it is that question, and no other unit of `units` after the question and before
// the customer's next shown unit is the agent's (询问大概什么时间能开好 / 客服:[数字]小时内会有提醒的; te157 727
// lost that answer to make room for an earlier one, and ended on the question). Not when that question
// is q, which the answer being added replies to.
bool only_reply_to_shown_question(const Context& c, const std::vector<int>& units, std::size_t w, int q) {
  if (c.p.units[w].speaker != text::Speaker::agent) return false;
  const auto shown = [&](std::size_t k) { return std::find(units.begin(), units.end(), static_cast<int>(k)) != units.end(); };
  std::size_t k = w;
  while (k > 0 && !c.selectable[k - 1]) --k;
  if (k == 0) return false;
  const std::size_t question = k - 1;
  if (c.p.units[question].speaker != text::Speaker::customer || !asks(c, question) || !shown(question) ||
      static_cast<int>(question) == q)  // the answer the caller adds replies to it
    return false;
  for (std::size_t x = question + 1; x < c.p.units.size(); ++x) {
    if (!shown(x) || x == w) continue;
    if (c.p.units[x].speaker == text::Speaker::customer) break;
    return false;  // another reply of the agent's is shown
  }
  return true;
}

// Whether dropping w from `units` would leave another of them without what it answers or goes on with,
// or a question of them other than q (which the caller answers anew) without its answer
// (Context::answers), direct answer (`direct[i]`, that of units[i]) or the agent's only reply shown after it.
bool others_need(const Context& c, const std::vector<int>& units, const std::vector<int>& direct, int w, int q) {
  const int asked = c.answers[static_cast<std::size_t>(w)];
  if (asked >= 0 && asked != q && std::find(units.begin(), units.end(), asked) != units.end()) return true;
  if (only_reply_to_shown_question(c, units, static_cast<std::size_t>(w), q)) return true;
  for (std::size_t i = 0; i < units.size(); ++i) {
    const int x = units[i];
    const auto xx = static_cast<std::size_t>(x);
    if (c.answers[xx] == w || c.continues[xx] == w || (x != q && x < w && direct[i] == w)) return true;
  }
  return false;
}

// A customer's question, a tag question in 吧 too (会有短信验证码的对吧 / 客服:是的: dropped to make room,
// it left 是的 under another question).
bool customer_question(const Context& c, std::size_t u) {
  return c.p.units[u].speaker == text::Speaker::customer &&
         (asks(c, u) || (c.p.lang == Lang::zh && zh_question::ends_in_tag(source_of(c, u))));
}

}  // namespace

int added_unit_cap(const Context& c) {
  return c.options.max_sentences + (c.options.f1_stop_chars > 0.0f ? 1 : 0);
}

bool fits_user_chars(const Context& c, const std::vector<int>& units, int v) {
  if (c.scores.max_chars > 0 || c.options.max_chars <= 0) return true;
  int chars = c.unit_chars[static_cast<std::size_t>(v)];
  for (int u : units) chars += c.unit_chars[static_cast<std::size_t>(u)];
  return chars <= c.options.max_chars;
}

void add_below_cap(const Context& c, ConstrainedSelection& s, int v) {
  if (v >= 0 && static_cast<int>(s.units.size()) < added_unit_cap(c) && fits_user_chars(c, s.units, v))
    s.units.push_back(v);
}

void add_within_budget(const Context& c, ConstrainedSelection& s, int q, int v) {
  std::vector<int>& units = s.units;
  if (static_cast<int>(units.size()) >= c.options.max_sentences) {
    // An English summary of three tweets has no room to give: a reply in a tweet's place cost
    // TweetSumm CV 40.49 -> 40.07.
    if (c.p.lang != Lang::zh) return;
    const bool kept_before = keeps_strongest(c, s);
    std::vector<int> direct(units.size());  // each shown unit's direct answer, found once
    for (std::size_t i = 0; i < units.size(); ++i) direct[i] = direct_answer(c, static_cast<std::size_t>(units[i]));
    int weakest = -1;
    for (int w : units) {
      const auto wx = static_cast<std::size_t>(w);
      if (w == q || w == s.clause_unit || customer_question(c, wx) || others_need(c, units, direct, w, q)) continue;
      if (weakest >= 0 && c.scores.salience[wx] >= c.scores.salience[static_cast<std::size_t>(weakest)]) continue;
      ConstrainedSelection without = s;
      without.units.erase(std::find(without.units.begin(), without.units.end(), w));
      if (kept_before && !keeps_strongest(c, without)) continue;
      weakest = w;
    }
    if (weakest < 0) return;
    units.erase(std::find(units.begin(), units.end(), weakest));
  }
  units.push_back(v);
}

namespace {

// zh: the customer's question that agent unit a, a statement, answers when the summary would show a
// under another customer unit or with no customer unit before it: after the last customer unit q shown
// before a (or from the dialogue's start when there is none, 客服:联想扬天售后…提供四年售后上门服务 opening
// a summary without 保修多久), the agent replied, and the customer asked again (a selectable unit that
// asks, not shown) as the last thing they said before a. 用户:询问能送到门口吗。客服:…可以申请价格保护
// answered 是到[数字]那天活动更大吗, asked after the agent's reply to 能送到门口吗; 用户:我用专业螺丝刀都扭不
// 出来。客服:到电脑店去看看。客服:审核完成后会短信通知 answered 申请售后了? A statement of the customer's
// after the question (手机端不可以吗 / 我想算下钱对不对 / 客服:实际已支付金额) is what a replies to, and a
// question of fewer than kAskedBetweenLetters letters (询问补贴) or one that repeats q (送到了吗 / 送到了吗)
// makes none. -1 when there is none.
constexpr int kAskedBetweenLetters = 4;
// Whether a message goes on from an earlier one (还是先申请, 或者…): brought alone it is a fragment.
bool goes_on(std::u32string_view text) {
  static constexpr std::u32string_view kOpenings[] = {U"还是", U"或者", U"然后", U"那", U"而且", U"并且", U"所以"};
  return std::any_of(std::begin(kOpenings), std::end(kOpenings), [&](std::u32string_view w) { return text.starts_with(w); });
}
int question_asked_between(const Context& c, const std::vector<int>& sorted_units, int a) {
  const Prepared& p = c.p;
  const auto ax = static_cast<std::size_t>(a);
  if (p.lang != Lang::zh || p.units[ax].speaker != text::Speaker::agent || asks(c, ax)) return -1;
  // The last shown customer unit before a: only agent units are shown between it and a. With none,
  // a opens what the summary shows of the customer's side, and the question it answers is as missing.
  auto at = std::lower_bound(sorted_units.begin(), sorted_units.end(), a);
  while (at != sorted_units.begin() && p.units[static_cast<std::size_t>(*(at - 1))].speaker != text::Speaker::customer) --at;
  const int q = at == sorted_units.begin() ? -1 : *(at - 1);
  const auto same_as_q = [&](std::size_t v) {
    return q >= 0 && (c.repeats(v, {q}) || c.source[v] == c.source[static_cast<std::size_t>(q)]);
  };
  // A question asked just before q, in the same run of the customer's messages (出问题了售后找谁 / 没有在京东上买过 /
  // 客服:自营的找京东售后): when q is a statement with no agent unit after it before a, the question is
  // what a answers.
  const bool run_to_a = q >= 0 && !asks(c, static_cast<std::size_t>(q)) &&
                        std::none_of(p.units.begin() + q + 1, p.units.begin() + a, [&](const Unit& u) {
                          return u.speaker == text::Speaker::agent;
                        });
  if (run_to_a) {
    for (int v = q - 1; v >= 0 && p.units[static_cast<std::size_t>(v)].speaker == text::Speaker::customer; --v) {
      const auto vx = static_cast<std::size_t>(v);
      if (!c.selectable[vx]) continue;
      if (std::binary_search(sorted_units.begin(), sorted_units.end(), v)) break;  // shown: nothing left out
      if (asks(c, vx) && c.letters[vx] >= kAskedBetweenLetters && !same_as_q(vx) && !goes_on(source_of(c, vx))) return v;
    }
  }
  bool replied = q < 0;
  int asked = -1;
  for (int v = q + 1; v < a; ++v) {
    const auto vx = static_cast<std::size_t>(v);
    if (!c.selectable[vx]) continue;
    if (p.units[vx].speaker == text::Speaker::agent) {
      replied = true;
    } else {
      const bool asks_anew = replied && asks(c, vx) && c.letters[vx] >= kAskedBetweenLetters && !same_as_q(vx);
      // Whatever the customer said last before a is what a replies to: a statement after the
      // question (手机端不可以吗 / 我想算下钱对不对 / 客服:实际已支付金额) leaves no question to bring.
      asked = asks_anew ? v : -1;
    }
  }
  return asked;
}

}  // namespace

bool says_again(const Context& c, const std::vector<int>& units, int v) {
  return std::any_of(units.begin(), units.end(), [&](int x) {
    return c.p.units[static_cast<std::size_t>(x)].speaker == text::Speaker::agent &&
           c.overlap(static_cast<std::size_t>(v), static_cast<std::size_t>(x)) >= kSaysAgainOverlap;
  });
}

void add_direct_answers(const Context& c, ConstrainedSelection& s) {
  if (!c.options.skip_fillers) return;
  std::vector<int>& units = s.units;
  const std::vector<int> chosen = units;
  const auto shown = [&](int u) { return std::find(units.begin(), units.end(), u) != units.end(); };
  // An answer is shown in dialogue order: with a shown unit of its speaker between it and its question
  // it would read as part of that unit ([数字]点之前会有人打电话，对的 for 我的电话么 / 对的), unless that unit is
  // another reply to the same question or the reply to a shown question asked before it, the two answers
  // then following the two questions in order (直接和他说拒收是吧 / 会不会影响小哥绩效考核 / 客服:是的呢直接拒收就好哦
  // / 这个是不会的哈).
  auto reads_after = [&](int q, int v) {
    const text::Speaker answerer = c.p.units[static_cast<std::size_t>(v)].speaker;
    return std::none_of(units.begin(), units.end(), [&](int x) {
      const auto xx = static_cast<std::size_t>(x);
      const int asked = c.answers[xx];
      const bool in_order = asked == q || (asked >= 0 && asked < q && shown(asked));
      return q < x && x < v && c.p.units[xx].speaker == answerer && !in_order;
    });
  };
  // A refusal that says again what a shown agent unit says (具体时间这边不能跟您保证呢 beside 具体时间这边没法跟您
  // 保证呢) adds nothing.
  for (int q : chosen) {
    if (!shown(q)) continue;  // made room for an answer
    int v = direct_answer(c, static_cast<std::size_t>(q));
    if (v < 0) {
      v = refusal_of(c, static_cast<std::size_t>(q));
      if (v >= 0 && says_again(c, units, v)) continue;
    }
    if (v < 0) v = open_answer(c, static_cast<std::size_t>(q), units);
    if (v < 0) {
      // A plain reply comes only where the sentence budget has room, and never says again what a shown
      // agent unit says: making room for it cost other answers (不会的 for 是不是看到退款了，然后不处理了).
      v = plain_reply(c, static_cast<std::size_t>(q), units);
      if (v >= 0 && !shown(v) && reads_after(q, v) && !says_again(c, units, v) &&
          static_cast<int>(units.size()) < added_unit_cap(c))
        units.push_back(v);
      continue;
    }
    if (!shown(v) && reads_after(q, v)) add_within_budget(c, s, q, v);
  }
  for (int q : chosen) {
    if (!shown(q)) continue;
    int v = customer_reply(c, static_cast<std::size_t>(q), units);
    if (v < 0) {
      v = customer_denial(c, static_cast<std::size_t>(q), units);
      // A no to the agent's question before q comes with that question (客服:此单是吗？客服:订单预计…送达。用户:不是。).
      const int asked = v >= 0 ? c.answers[static_cast<std::size_t>(v)] : -1;
      if (asked >= 0 && asked != q && !shown(asked)) {
        add_within_budget(c, s, q, asked);
        if (!shown(asked)) continue;
      }
    }
    // A bare yes or no comes last, where the budget still has room (add_bare_replies).
    if (v >= 0 && !c.selectable[static_cast<std::size_t>(v)]) continue;
    if (v >= 0 && reads_after(q, v)) add_within_budget(c, s, q, v);
    // A reply that asks back brings its own answer (客服:您看是否有时间直接联系快递小哥拒收呢? / 用户:直接和他说拒收
    // 是吧 / 客服:是的呢直接拒收就好哦): the first loop looked only at the units chosen before.
    const int answer = v >= 0 && shown(v) ? direct_answer(c, static_cast<std::size_t>(v)) : -1;
    if (answer >= 0 && !shown(answer) && reads_after(v, answer)) add_within_budget(c, s, v, answer);
  }
  // An agent's answer shown under a customer unit it did not answer brings the question it did, and
  // that question its own direct answer when one came before a (明天会不会还到不了 / 不会的 / 这是准确到货时间哦).
  for (int a : chosen) {
    if (!shown(a)) continue;
    std::vector<int> sorted = units;
    std::sort(sorted.begin(), sorted.end());
    const int q = question_asked_between(c, sorted, a);
    if (q < 0) continue;
    add_within_budget(c, s, a, q);
    const int v = shown(q) ? direct_answer(c, static_cast<std::size_t>(q)) : -1;
    if (v >= 0 && v < a && !shown(v)) add_within_budget(c, s, q, v);
  }
}

namespace {

// Whether `units` shows a unit strictly between q and v: an answer shown after it would answer that one.
bool shown_between(const std::vector<int>& units, int q, int v) {
  return std::any_of(units.begin(), units.end(), [&](int x) { return q < x && x < v; });
}

}  // namespace

int alternative_of(const Context& c, std::size_t q) {
  const Prepared& p = c.p;
  const std::size_t v = q + 1;
  if (p.lang != Lang::zh || v >= p.units.size() || p.units[v].speaker != p.units[q].speaker || !asks(c, q) ||
      !c.selectable[q])
    return -1;
  const std::u32string_view text = source_of(c, v);
  if (!text.starts_with(U"还是") || letters_outside_placeholders(text) < kAlternativeMinLetters ||
      render::ends_cut_turn(p, v))
    return -1;
  // A question of its own (还是[数字]号是吧: "still the [数字]th, right?") is no other option.
  const std::u32string_view body = to_last_letter(text);
  if (zh_question::ends_in_tag(text) || body.ends_with(U"吗") || body.ends_with(U"么") || body.ends_with(U"嘛"))
    return -1;
  return static_cast<int>(v);
}

void add_alternatives(const Context& c, ConstrainedSelection& s) {
  if (!c.options.skip_fillers) return;
  const std::vector<int> chosen = s.units;
  for (int q : chosen) {
    if (std::find(s.units.begin(), s.units.end(), q) == s.units.end()) continue;  // made room
    const int v = alternative_of(c, static_cast<std::size_t>(q));
    if (v >= 0 && std::find(s.units.begin(), s.units.end(), v) == s.units.end()) add_below_cap(c, s, v);
  }
}

namespace {

// zh: whether a customer's statement checks back what they may now do, and the agent's reply says yes (那我现在
// 可以再从新下单了 / 是的哦): a statement with 可以 or 能 that ends in 了, answered by a bare yes (是的, 对的, 可以的, 嗯).
// Shown alone it reads as the customer's own assertion.
bool checks_back(std::u32string_view statement, std::u32string_view reply) {
  if (!statement.ends_with(U"了") || !holds_any(statement, {U"可以", U"能"})) return false;
  return is_bare_yes_or_no(reply) &&
         (reply.starts_with(U"是") || reply.starts_with(U"对") || reply.starts_with(U"可以") || reply.starts_with(U"嗯"));
}

}  // namespace

int agent_bare_reply(const Context& c, std::size_t q, const std::vector<int>& units) {
  const Prepared& p = c.p;
  if (p.lang != Lang::zh || p.units[q].speaker != text::Speaker::customer) return -1;
  // A question, or a tag that asks to confirm a fact (保价[数字]天是吧, 对吧); not a request in 吧 (电话联系我吧), whose
  // 好的 only acknowledges.
  const std::u32string_view q_body = to_last_letter(source_of(c, q));
  const bool confirms = q_body.ends_with(U"是吧") || q_body.ends_with(U"对吧") || q_body.ends_with(U"是不是") ||
                        q_body.ends_with(U"对不对");
  std::size_t v = q + 1;
  while (v < p.units.size() && p.units[v].speaker == text::Speaker::customer && !c.selectable[v]) ++v;
  if (v >= p.units.size() || p.units[v].speaker != text::Speaker::agent || c.selectable[v]) return -1;
  if (!((asks(c, q) || confirms) && asks_yes_or_no(c, q)) && !checks_back(q_body, source_of(c, v))) return -1;
  if (std::find(units.begin(), units.end(), static_cast<int>(v)) != units.end()) return -1;
  // The summary shows no other reply of the agent's after q before the customer's next shown unit.
  for (int x : units)
    if (x > static_cast<int>(q) && p.units[static_cast<std::size_t>(x)].speaker == text::Speaker::agent &&
        std::none_of(units.begin(), units.end(), [&](int y) {
          return y > static_cast<int>(q) && y < x && p.units[static_cast<std::size_t>(y)].speaker == text::Speaker::customer;
        }))
      return -1;
  // The agent's 好的 or 好 acknowledges; it answers nothing.
  const std::u32string_view reply = source_of(c, v);
  if (reply.starts_with(U"好")) return -1;
  return is_bare_yes_or_no(reply) && render::has_content(c.rendered(v)) ? static_cast<int>(v) : -1;
}

void add_bare_replies(const Context& c, ConstrainedSelection& s) {
  if (!c.options.skip_fillers || c.p.lang != Lang::zh) return;
  std::vector<int> sorted = s.units;
  std::sort(sorted.begin(), sorted.end());
  for (int q : sorted) {
    int v = customer_reply(c, static_cast<std::size_t>(q), s.units);
    if (v < 0) v = agent_bare_reply(c, static_cast<std::size_t>(q), s.units);
    if (v < 0 || c.selectable[static_cast<std::size_t>(v)]) continue;
    // Right after its question: with another shown unit between them it would answer that one.
    if (!shown_between(s.units, q, v)) add_below_cap(c, s, v);
  }
}

namespace {

// en: whether a text gives a phone or account number: seven digits or more in one run, which dashes,
// brackets, a plus and spaces may split ("Sure 202-867-0033"), but not a letter or a point (a version,
// "iOS 11.0.3 NTC 5.7.0", is an answer): a detail the agent asked for, which a summary need not repeat.
constexpr int kNumberDigits = 7;
bool gives_a_number(const std::string& text) {
  int run = 0;
  for (char ch : text) {
    if (ch >= '0' && ch <= '9') {
      if (++run >= kNumberDigits) return true;
    } else if (ch != '-' && ch != ' ' && ch != '(' && ch != ')' && ch != '+') {
      run = 0;
    }
  }
  return false;
}

}  // namespace

void add_english_customer_replies(const Context& c, ConstrainedSelection& s) {
  if (!c.options.skip_fillers || c.p.lang != Lang::en) return;
  std::vector<int> sorted = s.units;
  std::sort(sorted.begin(), sorted.end());
  for (int q : sorted) {
    const int v = customer_reply(c, static_cast<std::size_t>(q), s.units);
    if (v < 0 || gives_a_number(c.p.units[static_cast<std::size_t>(v)].text)) continue;
    // Right after its question: with another shown unit between them it would answer that one.
    if (!shown_between(s.units, q, v)) add_below_cap(c, s, v);
  }
}

}  // namespace kessel::summarize::decoding
