// The agent's reply to a customer's open question (decode_parts.h, open_answer): which agent unit
// answers 如何 / 什么时候 / 多久 / 哪 / 多少 when no yes or no does, and which only seems to (a hold, a
// greeting, an id, a form's field, a product or an address pasted).
#include <algorithm>
#include <cctype>

#include "decode_parts.h"
#include "kessel/text/utf8.h"
#include "summarize/zh_questions.h"

namespace kessel::summarize::decoding {

bool answers_nothing(std::u32string_view text) {
  return holds_any(text, {U"稍等", U"稍后", U"等一下", U"查一下", U"查询一下", U"查下", U"看一下", U"看下", U"核实一下",
                          U"核实下", U"为您查", U"帮您查", U"给您查", U"为您核实", U"帮您核实", U"为您看", U"帮您看",
                          U"请提供", U"提供下", U"提供一下", U"提供订单", U"提供您", U"订单号", U"服务单号",
                          U"为您服务", U"[商品", U"理解心情", U"理解您的心情", U"理解您的感受"});
}

int letters_outside_placeholders(std::u32string_view text) {
  int n = 0;
  bool inside = false;
  for (char32_t cp : text) {
    if (cp == U'[') inside = true;
    else if (cp == U']') inside = false;
    else if (!inside && text::is_cjk(cp)) ++n;
  }
  return n;
}

namespace {

// Whether a text is a form's field: a label and a colon (申请时间:[日期][时间], 订单编号:[订单编号]).
bool is_field(std::u32string_view text) {
  return text.find(U':') != std::u32string_view::npos || text.find(U'\uFF1A') != std::u32string_view::npos;
}

// Whether an answer says something in words: kOpenAnswerMinChars letters outside placeholders, or
// kOpenAnswerMinCharsBeside beside one when it is no form's field: [时间]前联系您 says when;
// USERID_10805591] and 申请时间:[日期][时间] say nothing to a reader.
bool says_in_words(std::u32string_view answer) {
  const int words = letters_outside_placeholders(answer);
  if (words >= kOpenAnswerMinChars) return true;
  const bool placeholder = answer.find(U'[') != std::u32string_view::npos;
  return placeholder && !is_field(answer) && words >= kOpenAnswerMinCharsBeside;
}

// Whether an open question asks "why" as a complaint (为什么不能今天上门取件, 为啥还没到): the agent's next
// words rarely answer it (a product title and an order's time stamp did).
bool asks_why(std::u32string_view q) {
  return holds_any(q, {U"为什么", U"为啥", U"为何", U"凭什么", U"怎么还", U"怎么又", U"怎么会", U"怎么就", U"难道"});
}

// Whether question q asks for a number (电话是多少, 几号到, 多少钱), whether a number alone answers it (those, and
// 多久: [数字]天呢 for 价保期多久, though 很快就可以到账的 answers 多久 too), and whether a text holds one: digits
// or a placeholder, or (holds_a_number) a Chinese numeral too.
bool asks_a_number(std::u32string_view q) { return holds_any(q, {U"多少", U"几", U"电话", U"号码"}); }
bool a_number_answers(std::u32string_view q) { return asks_a_number(q) || holds_any(q, {U"多久", U"多长时间"}); }
bool holds_digits(std::u32string_view text) {
  return std::any_of(text.begin(), text.end(), [](char32_t cp) { return (cp >= U'0' && cp <= U'9') || cp == U'['; });
}
bool holds_a_number(std::u32string_view text) {
  return holds_digits(text) ||
         holds_any(text, {U"一", U"二", U"两", U"三", U"四", U"五", U"六", U"七", U"八", U"九", U"十", U"半"});
}

// Whether an address or a phone number answers question q: it asks where, or how to reach someone.
bool asks_where_or_contact(std::u32string_view q) { return holds_any(q, {U"哪", U"地址", U"联系", U"电话", U"号码"}); }

// Whether agent statement `answer` can be the reply to open question `q`, as far as its words tell.
bool could_answer(std::u32string_view q, std::u32string_view answer) {
  if (answers_nothing(answer)) return false;
  // 电话是多少哈 is not answered by 引导客户手机APP我的订单申请售后.
  if (asks_a_number(q) && !holds_a_number(answer)) return false;
  // A number alone answers such a question (the hotline's number, [数字]天呢 for 价保期多久), unless it is a
  // form's field (订单编号:[订单编号]); other answers say something in words.
  const bool number_alone = a_number_answers(q) && holds_digits(answer) && !is_field(answer);
  if (!number_alone && !says_in_words(answer)) return false;
  // An address or a phone number pasted (增票江苏[地址]发票组收[电话]) answers where or how to reach, not what.
  return !holds_any(answer, {U"[地址]", U"[电话]"}) || asks_where_or_contact(q);
}

// Whether q asks when (什么时候发货, 几号到, 多久能退款), and whether an answer tells it: a number or a time's
// placeholder, a word of time (明天, 三天, 小时, 工作日, 马上; not the 一 of 一下), or the stage the order has reached
// (已经进入出库环节, 正在派送). 这边看到已经认款成功了 does not tell when the goods ship.
bool asks_when(std::u32string_view q) {
  return holds_any(q, {U"什么时候", U"啥时候", U"几时", U"多久", U"多长时间", U"哪天", U"几号", U"几点", U"几天"});
}
bool tells_when(std::u32string_view answer) {
  return holds_digits(answer) ||
         holds_any(answer, {U"今天", U"明天", U"后天", U"天", U"小时", U"分钟", U"工作日", U"周", U"月", U"号", U"点",
                            U"马上", U"尽快", U"立即", U"稍后", U"之后", U"以后", U"前", U"出库", U"发货", U"发出",
                            U"揽收", U"派送", U"配送", U"送达", U"到货", U"到账"});
}

// Whether a text ends (past marks) in 吗, 么 or 嘛: a question, or a reply that asks back with a 嘛 that
// unit_asks does not count (有新订单嘛 is no answer to 有保价吗).
bool ends_in_ma(std::u32string_view text) {
  while (!text.empty() && !text::is_cjk(text.back())) text.remove_suffix(1);
  return text.ends_with(U"吗") || text.ends_with(U"么") || text.ends_with(U"嘛");
}

// Whether q doubts a fact it names (不是三十天吗, 不是七天无理由退换吗): the agent's reply confirms or corrects
// it (大家电是[数字]天) without a yes or a no that direct_answer would find.

bool challenges_a_fact(std::u32string_view q) {
  return q.find(U"不是") != std::u32string_view::npos && ends_in_ma(q);
}

// Whether a reply names a product by its model: a run of four Latin letters or more (a pasted title,
// 华硕ASUSPlus-M[数字]飞行堡垒电竞鼠标垫, answers no question by itself).
bool names_a_model(std::u32string_view reply) {
  int run = 0;
  for (char32_t cp : reply) {
    run = (cp < 0x80 && std::isalpha(static_cast<int>(cp))) ? run + 1 : 0;
    if (run >= 4) return true;
  }
  return false;
}

// Whether the summary shows a reply to q already: the first unit it shows after q is the agent's, and
// tells when if q asks when.
bool replied_in(const Context& c, std::size_t q, const std::vector<int>& units) {
  int next = -1;
  for (int x : units)
    if (x > static_cast<int>(q) && (next < 0 || x < next)) next = x;
  if (next < 0 || c.p.units[static_cast<std::size_t>(next)].speaker != text::Speaker::agent) return false;
  return !asks_when(source_of(c, q)) || tells_when(source_of(c, static_cast<std::size_t>(next)));
}

// Whether customer unit v, after q, replies to a question the agent asked since q: the last unit before v
// that is not the customer's is the agent's and asks (能退货吗 / 客服:购买的是抽纸吗? / 用户:是): the agent's
// answer to q may come after that exchange.
bool replies_to_agent_question(const Context& c, std::size_t q, std::size_t v) {
  for (std::size_t k = v; k-- > q + 1;) {
    if (c.p.units[k].speaker == text::Speaker::customer) continue;
    return asks(c, k);
  }
  return false;
}

// The last unit that may hold the agent's reply to q: kAnswerReach units on, and one more for each unit of
// an exchange the agent opened with a question (its question and the customer's replies to it), up to
// kAnswerReach more.
std::size_t reply_reach(const Context& c, std::size_t q) {
  std::size_t end = q + kAnswerReach;
  for (std::size_t v = q + 1; v < c.p.units.size() && v <= end && end < q + 2 * kAnswerReach; ++v) {
    const bool agent_asks = c.p.units[v].speaker == text::Speaker::agent && asks(c, v);
    const bool reply = c.p.units[v].speaker == text::Speaker::customer && replies_to_agent_question(c, q, v);
    if (agent_asks || reply) ++end;
  }
  return end;
}

}  // namespace

int open_answer(const Context& c, std::size_t q, const std::vector<int>& units) {
  const Prepared& p = c.p;
  if (p.lang != Lang::zh || p.units[q].speaker != text::Speaker::customer || !asks(c, q)) return -1;
  const std::u32string_view question = source_of(c, q);
  const bool open = zh_question::holds_question_word(question) || challenges_a_fact(question);
  if (!open || asks_why(question) || replied_in(c, q, units)) return -1;
  // The first reply that could answer; to a "when", the first that tells when, if one does (什么时候发货呢 /
  // 这边看到已经认款成功了 / 订单已经进入出库环节了呢), else the first (啥时候有货 / 所在区域暂时无货).
  int first = -1;
  const std::size_t reach = reply_reach(c, q);
  for (std::size_t v = q + 1; v < p.units.size() && v <= reach; ++v) {
    if (p.units[v].speaker == text::Speaker::customer) {
      // The customer said more: what follows answers that, unless it replies to the agent's question.
      if (c.selectable[v] && !replies_to_agent_question(c, q, v)) break;
      continue;
    }
    if (!c.selectable[v] || asks(c, v) || c.unit_chars[v] > kDirectAnswerChars || !could_answer(question, source_of(c, v)))
      continue;
    // A hold, a request for details or a line of sympathy answers nothing (非常理解您的心情).
    if (answers_nothing(source_of(c, v))) continue;
    if (!asks_when(question) || tells_when(source_of(c, v))) return static_cast<int>(v);
    if (first < 0) first = static_cast<int>(v);
  }
  return first;
}

namespace {

// Whether two texts share a content word of two letters (作废么 / 可以作废): two Chinese letters in a row
// in both, not a function pair (可以, 这个, 是的, 没有, …) that any reply holds.
bool shares_a_word(std::u32string_view a, std::u32string_view b) {
  static constexpr std::u32string_view kFunction[] = {U"可以", U"这个", U"那个", U"是的", U"没有", U"什么", U"怎么",
                                                      U"一下", U"我们", U"你们", U"您的", U"这边", U"就是", U"已经",
                                                      U"现在", U"的呢", U"的哦", U"不是", U"不能", U"可能", U"需要"};
  for (std::size_t i = 0; i + 1 < a.size(); ++i) {
    if (!text::is_cjk(a[i]) || !text::is_cjk(a[i + 1])) continue;
    const std::u32string_view pair = a.substr(i, 2);
    if (std::find(std::begin(kFunction), std::end(kFunction), pair) != std::end(kFunction)) continue;
    if (b.find(pair) != std::u32string_view::npos) return true;
  }
  return false;
}

}  // namespace

int plain_reply(const Context& c, std::size_t q, const std::vector<int>& units) {
  const Prepared& p = c.p;
  if (p.lang != Lang::zh || p.units[q].speaker != text::Speaker::customer || !asks(c, q)) return -1;
  const std::u32string_view question = source_of(c, q);
  if (asks_why(question) || replied_in(c, q, units)) return -1;
  bool said_more = false;  // a statement of the customer's came after the question
  const std::size_t reach = reply_reach(c, q);
  for (std::size_t v = q + 1; v < p.units.size() && v <= reach; ++v) {
    if (p.units[v].speaker == text::Speaker::customer) {
      if (replies_to_agent_question(c, q, v)) continue;  // 客服:购买的是抽纸吗? / 用户:是
      // Questions in a row get one reply (售后大概多久 / 能在放假前完成吗 / 这个以售后的审核意见为准的呢); a statement
      // of the customer's after the question is what the next reply answers, unless that reply takes up a
      // word of the question (财务可以帮忙作废么 / 这张专票我们用不了 / 可以作废).
      said_more = said_more || (c.selectable[v] && !asks(c, v));
      continue;
    }
    if (!c.selectable[v] || asks(c, v) || c.unit_chars[v] > kPlainReplyChars) continue;
    const std::u32string_view reply = source_of(c, v);
    // A hold or a request for details comes before the reply (稍等 / 这个以售后的审核意见为准的呢).
    if (closes_conversation(reply) || answers_nothing(reply)) continue;
    if (said_more && !shares_a_word(question, reply)) return -1;
    return could_answer(question, reply) && !ends_in_ma(reply) && !names_a_model(reply) ? static_cast<int>(v) : -1;
  }
  return -1;
}

}  // namespace kessel::summarize::decoding
