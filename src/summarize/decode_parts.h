// The decoder's parts (decode() in summary.cc runs them in order): the context every part reads,
// the greedy MMR selection under the budget (decode_select.cc; what a unit needs beside it, answers,
// continuations and fragments, decode_answers.cc; the answers a selected question brings,
// decode_direct_answers.cc; the customer's repeats and what another shown unit says in full,
// decode_repeats.cc; the dialogue's outcome, decode_outcome.cc; the customer's decision,
// decode_decision.cc; the customer's issue, decode_issue.cc; the reply to the customer's last words,
// decode_last_reply.cc; what an English agent did, decode_agent_actions.cc), the expected-F1 stop
// (expected_f1_prefix, summary.h) and the emotion constraint (decode_emotion.cc). Rendering is
// render.h's.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "kessel/summarize/summary.h"

namespace kessel::summarize::decoding {

// Redundancy n-grams of a unit: sorted distinct ids (a zh character bigram packed into 64 bits, an en
// word's number among the dialogue's distinct words).
using Grams = std::vector<std::uint64_t>;
double jaccard(const Grams& a, const Grams& b);

// What the parts share: the dialogue, the scores, the options, and what is derived from them once.
struct Context {
  Context(const Prepared& p, const UnitScores& scores, const DecodeOptions& options);

  const Prepared& p;
  const UnitScores& scores;
  const DecodeOptions& options;
  const std::vector<std::vector<char32_t>>& source;  // [U] the unit's text as written, decoded (Prepared::unit_cps)
  std::vector<int> unit_chars;         // [U] code points as rendered (compressed when given)
  int max_chars = 0;                   // the scorer's budget when it has one, else the options'
  std::vector<Grams> grams;            // [U] when redundancy > 0
  std::vector<char> selectable;        // [U] has rendered content and is no fragment (is_fragment)
  std::vector<std::u32string> keys;    // [U] repeat keys, when redundancy > 0
  // [U] zh, with skip_fillers and redundancy > 0: a unit's repeat key without its clauses' closing
  // particles (预计呢 -> 预计), for said_within
  std::vector<std::u32string> said_keys;
  // [U] the other speaker's unit that u answers when u says nothing without it, else -1; all -1
  // unless options.skip_fillers (answered_unit). A bare answer answers a question ("用户:白条。" after
  // "是普通储蓄卡，还是信用卡呢?"), a resignation what the agent said (用户:好吧。 after 这个没有办法修改呢).
  std::vector<int> answers;
  // [U] zh: the same speaker's unit right before u that u goes on with (continues_previous_message), else
  // -1. Unlike an answer, u does not bring it: u is a candidate only once that unit is selected.
  std::vector<int> continues;
  std::vector<int> turn_letters;       // [U] letters (en: words) of the unit's whole turn, with skip_fillers
  // [U] with skip_fillers, each unit's own facts, worked out once: the selection rules ask them of
  // a unit many times over (unit_asks, unit_letters).
  std::vector<char> asking;            // [U] whether the unit asks (unit_asks)
  std::vector<int> letters;            // [U] letters (en: words) of the unit as written (unit_letters)
  std::vector<char> question_tail;     // [U] zh: the unit is a question's tail (render::is_question_tail)
  // [U] the customer's expressed emotion in the unit, with skip_fillers: none, only resignations
  // (emotion.h rule 8), mentions beyond resignations but none of kind feeling (联系不上, a report, says
  // what happened), or a feeling (气死我了 says how it felt).
  enum class Expressed : std::uint8_t { none, only_resignation, no_feeling, feeling };
  std::vector<Expressed> expressed;
  // [U] zh, with skip_fillers: the customer gives in with the lexicon's 算了, 行吧 or 那好吧 (judgements
  // wherever they stand, so no rule-8 resignation): 用户:哦，那就算了。 says nothing without what it gives
  // in to, as 好吧 does (answered_unit).
  std::vector<char> gives_in;
  float lo = 0.0f, hi = 0.0f;          // salience range

  // A unit as rendered: the scorer's text (compressed, addressing dropped, reported) when it gives one.
  const std::string& rendered(std::size_t u) const;
  // Salience rescaled to [0, 1], so the redundancy weight means the same for every scorer.
  float norm(std::size_t u) const;
  // MMR: what unit u adds beside units it overlaps by `overlap`.
  double mmr_value(std::size_t u, double overlap) const;
  double overlap(std::size_t u, std::size_t v) const;
  // Whether u repeats a chosen unit, up to case, spaces and punctuation (only with redundancy > 0).
  bool repeats(std::size_t u, const std::vector<int>& chosen) const;

 private:
  void add_unit_facts();  // source, asking, letters, question_tail: each unit's text decoded once
  // With skip_fillers: a turn in a language kessel has no lexicon or rendering for (es, fr, id, …;
  // Prepared::unsupported_turns, reported in the output) is no content the summary can show a reader of
  // the dialogue's language ("Customer: Tidak bisa save spotify ke SD…"), when other turns say
  // something: its units are not selectable. A dialogue with nothing else keeps them.
  void leave_out_unsupported_turns();
};

// Context works these facts out once a unit; the rules of decode_answers.cc, decode_direct_answers.cc
// and decode_open_answers.cc ask them many times over.
inline bool asks(const Context& c, std::size_t u) { return c.asking[u] != 0; }
inline std::u32string_view source_of(const Context& c, std::size_t u) {
  return {c.source[u].data(), c.source[u].size()};
}
// The redundancy overlap (Context::overlap) at which an agent unit says again what a shown agent unit
// says (a refusal, an outcome: 订单付款之后会尽快安排配送的 twice over adds nothing).
inline constexpr double kSaysAgainOverlap = 0.5;
// Whether agent unit v says again what an agent unit among `units` says (never without redundancy
// n-grams: DecodeOptions::redundancy 0).
bool says_again(const Context& c, const std::vector<int>& units, int v);
// Whether `text` holds any of `words`.
inline bool holds_any(std::u32string_view text, std::initializer_list<std::u32string_view> words) {
  for (std::u32string_view w : words)
    if (text.find(w) != std::u32string_view::npos) return true;
  return false;
}
// zh: the Chinese letters of `text` outside placeholders ([地址], [数字]): 咨询订单号[订单编号] has five.
int letters_outside_placeholders(std::u32string_view text);
// zh: whether an agent unit answers nothing whatever it is asked: it puts the customer on hold (稍等, 我帮您
// 查一下, 这边为您核实), asks for details (还请提供下订单号), greets (为您服务), pastes a product ([商品快照]) or
// a service order's number (服务单号[数字]…), or only says it understands (非常理解心情). CSDS's [订单编号]
// placeholder is no request: "[订单编号]不符合价保的" answers.
bool answers_nothing(std::u32string_view text);

// What a short answer needs to mean anything: the unit u answers when u is a statement whose whole
// turn is short (zh: at most kShortAnswerZh letters as written; en: kShortAnswerEn words) and is its
// speaker's first content unit since the other speaker spoke, and either
//   - u holds no expressed customer emotion (in Chinese, none of kind feeling: 联系不上, a report, answers
//     请问您是和配送联系了吗) and the other speaker's last unit before it is a selectable question (a bare
//     answer), or
//   - u's only expressed mentions are resignations (emotion.h rule 8: 好吧 after an agent turn that
//     asks nothing) and the most salient selectable unit, beyond a fragment's size, of what the
//     other speaker said since u's speaker last spoke is what they give in to;
// -1 otherwise. In Chinese a statement of any length that opens with a yes or no to the other
// speaker's question right before it (zh_question::answers_polar: 可以的，免费送货入户并安装 after
// 能送货上门安装吗; the customer's 不用到增值税的… after 需要开增值税发票吗) answers it too.
// A few words the other speaker sent after their question as a turn of its own belong to the question
// (completes_a_question: 有现货? / 激光色 / 客服:是无货的呢 answers 有现货?).
// An agent's reply right after a customer's question answers it up to kAgentReplyZh letters: 客服:不需要。
// after 还需要别的吗, 客服:这边没有图的。 after 有图看看吗 mislead under another question of the summary.
// When the customer asked in two or more turns in a row and the agent replies in two or more units,
// they pair in order (in_order_question): 你们店里有配支架吗 / 有图看看吗 / 客服:没有单独售卖的支架 / 客服:我们
// 这边没有图的; 直接和他说拒收是吧 / 会不会影响小哥绩效考核 / 客服:是的呢直接拒收就好哦 / 客服:这个是不会的哈.
// A customer's challenge of at most kShortAnswerZh letters (为什么啊, 谁说的, 什么意思, 怎么回事, 那咋办, 然后呢, or
// 那 + a thing + 呢: 那钱呢), with no feeling in it, answers what the agent said since the customer last
// spoke (its most salient selectable statement, as a resignation does): 询问为什么呢 after 是不可以的.
// A Chinese yes or no right after its speaker's own question answers the other speaker's yes/no question
// before that one, or nothing (客服:要不要加注册地址呢? / 用户:发票什么时候会开好? / 用户:不需要，就一般企业发票就行):
// no one answers their own question.
// A customer's few words right after their own bare yes or no (不是 / 昨天的快递师傅, at most kElaborationZh
// letters) say more of that answer: they answer what it answers (elaborates_a_bare_answer).
inline constexpr int kShortAnswerZh = 5, kShortAnswerEn = 3, kAgentReplyZh = 10, kElaborationZh = 8;
int answered_unit(const Context& c, std::size_t u);
// Whether unit u opens with a yes or a no ("No, unfortunately", "Yeah it's still broken", 没有呢, 是的):
// whatever feeling it holds, it answers.
bool opens_with_yes_or_no(const Prepared& p, std::size_t u);
// zh: whether a text only says yes or no: 是, 对, 嗯, 可以, 好的, 有, 需要, 不是, 不对, 没有, 不用, 不需要 …,
// with closing particles (对的呀, 是的呢). Such a turn is no content alone (a filler), but it is the
// customer's answer to the agent's yes/no question right before it (customer_reply).
bool is_bare_yes_or_no(std::u32string_view text);
// zh: whether a text only says no: 不是, 不对, 没有 or 并不是, with closing particles (不是的, 不是啊) and marks.
// A customer's bare no answers the agent's statement right before it as it would a question, or the
// question earlier in that agent run when there is one (answered_unit): 客服:[订单编号]此单是吗 / 客服:您的订单
// 预计[数字]月[数字]日送达您手中 / 用户:不是 answers the question.
bool is_bare_denial(std::u32string_view text);
// zh: the customer question that agent unit u answers by its place in such a pair of runs (the j-th
// selectable unit of the agent's run answers the j-th question turn, by its last asking unit or tag
// question in 吧), or -1 when u is in none or past the questions.
int in_order_question(const Context& c, std::size_t u);

// zh: whether unit u is a message of a few words (its whole turn at most kContinuationZh letters) that
// goes on with its speaker's message right before it, a separate turn: "银行卡的卡号" after "麻烦提供以下
// 资料:开户名、开户银行名、银行卡号…", "退款两个字" after "我没看到哪里有", "通话质量啊" after "还有其他的影响".
// Neither asks, u holds no expressed customer emotion and opens with no yes or no; both are selectable.
// Such a unit says nothing alone ("客服:银行卡的卡号。"): the decoder shows it after the message it
// continues or not at all (Context::continues). Unlike an English tweet that goes on with an open
// sentence (render::continues_previous_tweet, an answer), it does not bring that message in: a few
// words are too little to choose a longer message for.
inline constexpr int kContinuationZh = 6;
bool continues_previous_message(const Context& c, std::size_t u);

// Whether unit u asks: en a question mark; zh a question mark, a question particle (render.h), a
// question word ("多少", "几号到" ask without either), or its tail sent as the next turn ("吗?").
bool unit_asks(const Prepared& p, std::size_t u);
// The letters a reader gets from unit u as written: zh CJK characters, digits and Latin letters; en
// words. An @handle says nothing (a tweet opens with the one it answers).
int unit_letters(const Prepared& p, std::size_t u);

// A fragment says nothing to a reader and is not selectable: a unit whose whole turn has at most
// kFragmentZh letters (en: kFragmentEn words), that answers no question (answers), asks nothing and
// holds no expressed customer emotion: "客服:预计。" (the agent went on in the next turn), "用户:改。".
// The customer's first content unit is no fragment: it names the topic ("用户:退货。"). A short
// resignation (rule 8) with nothing it answers is one: "用户:好吧。" alone says nothing. So is a word or
// two added after a question in the same turn (我的订单还能到吗?今天 -> "用户:今天。").
// A short unit is one too when all it says is a yes or a no (opens_with_yes_or_no, its whole turn at
// most kBareYesNoZh letters or kShortAnswerEn words: "No, unfortunately.", 不是的) or names a thing
// (names_only_things, its whole turn at most kContinuationZh letters: 用户:牛仔裤。, 用户:电子发票。), and
// it neither answers (Context::answers) nor goes on with (Context::continues) a unit the decoder can
// show with it: it answers or goes on with a turn the reader is not shown. A bare yes or no is one
// whatever feeling it holds ("No, unfortunately."). The customer's first selectable unit never is. A
// unit of marks alone ("????") without an expressed emotion is one even when it asks. So is an English unit
// that only points back at what was said ("as i have stated before."): reported alone it says nothing.
inline constexpr int kFragmentZh = 2, kFragmentEn = 1, kBareYesNoZh = 3;
bool is_fragment(const Context& c, std::size_t u);

// zh: whether `text` is nothing but nouns (at least one), numerals and measure words, with 的, digits,
// marks and placeholders ([数字] is no noun): 牛仔裤, 一个保险柜, 电子发票, 京东白条 (text::Segmenter's words
// and their dictionary classes). A word the dictionary does not tag (an unknown word; every word of
// the built-in table, so without jieba's dict.txt the rule is off), a person name (银行卡 is one to
// jieba), a service act the dictionary calls a noun (发货, 联系, ...) or a Latin word makes it none.
bool names_only_things(std::span<const char32_t> text);
bool names_only_things(std::string_view text);

// Unit u after what it answers (Context::answers), and what that answers in turn, earliest first:
// {u} when it needs nothing ("子账号可以查看吗? / 不可以的呢 / 好吧" is one chain).
std::vector<int> with_what_it_answers(const Context& c, int u);

// Drops each unit whose answered unit (Context::answers) or continued unit (Context::continues) is not
// among `units`: an answer is shown with what it answers or not at all.
void drop_unasked_answers(const Context& c, std::vector<int>& units);

// zh: the agent's direct answer to customer unit q, a yes/no question (zh_question::polar_verb; a tag
// question in 吧 too, zh_question::ends_in_tag): among the next kAnswerReach units, before the customer
// asks again, the agent unit that asks nothing, has at most kDirectAnswerChars code points as rendered,
// and answers it best (zh_question::answers_polar), the earliest among equals. -1 when none.
inline constexpr int kAnswerReach = 4, kDirectAnswerChars = 30;
int direct_answer(const Context& c, std::size_t q);
// zh: whether `text` refuses: it opens with a no (past an apology or address: 非常抱歉了亲没有的哦, 不会的) or
// says 无法, 不能, 不可以, 不支持, 不行, 没法 (没办法 too), 没有办法 or V不了 (明天送不了哦; not 不了解), not as a
// supposition (不行的话…, 如果不能…).
bool refuses(std::u32string_view text);
// zh: the agent's refusal of customer unit q: in the agent's reply to q (the next kAnswerReach units,
// before the customer says anything more), the first unit that refuses (opens with a no past an apology:
// 非常抱歉了亲没有的哦, 不会的; or says 无法, 不能, 不可以, 不支持, 不行, 没法, 没办法, 没有办法, V不了: 明天送不了哦,
// not 不了解; not as a supposition: 不行的话, 如果不能), asks nothing and has at most
// kDirectAnswerChars code points as rendered. 用户:想更改地址。 without 客服:自提无法修改的 reads as if the
// address were changed; 现在能不能在订单上加备注 / 这个没有办法呢. -1 when none.
int refusal_of(const Context& c, std::size_t q);
// zh: the agent's reply to customer unit q, an open question (zh_question::holds_question_word: 如何,
// 什么时候, 多久, 哪 …) or a doubted fact (不是…吗: 不是三十天吗, answered 大家电是[数字]天) that the summary
// shows unanswered (the first unit shown after q is no agent's, or, to a question of when, tells no
// time): in
// the agent's reply to q (the next kAnswerReach units, before the customer says anything more), the
// first unit that asks nothing, has at most kDirectAnswerChars code points as rendered and could answer
// q by its words (decode_open_answers.cc): kOpenAnswerMinChars Chinese letters outside placeholders, or
// kOpenAnswerMinCharsBeside beside one when it is no form's field ([时间]前联系您; not USERID_10805591],
// 申请时间:[日期][时间]), or a number alone when q asks 多少, 几, 多久, 电话 ([数字]天呢 for 价保期多久); no
// hold, request for details, greeting or product pasted (稍等, 还请提供下订单号,
// 为您服务, [商品快照]); no address or phone number unless q asks where or how to reach someone; a number
// when q asks for one (电话是多少, 几号到); to a question of when, the first that tells when (a number, a
// word of time, the order's stage: 出库), else the first. A "why" asked as a complaint (为什么不能今天上门取件, 为啥还没到)
// brings nothing: the agent's next words rarely answer it. 用户:询问如何申请开通京东货到付款 ended a summary
// as if unanswered; 客服:专员会在[数字]个工作日内联系您 follows it now. -1 when none.
// In it and in plain_reply, an exchange the agent opens with a question (客服:购买的是抽纸吗? / 用户:是) is no
// new word of the customer's, and each of its units extends the reach by one, up to kAnswerReach more
// (te157 709: 打开之后呢 / 客服:遇到了什么问题了吗? / … / 客服:点击优惠券).
inline constexpr int kOpenAnswerMinChars = 6, kOpenAnswerMinCharsBeside = 3;
int open_answer(const Context& c, std::size_t q, const std::vector<int>& units);
// zh: the agent's plain reply to customer question q, when neither direct_answer, refusal_of nor
// open_answer finds one and the summary shows q unanswered (the first unit it shows after q is no
// agent's): the agent's first selectable unit among the next kAnswerReach, past holds and requests for
// details (answers_nothing) and closings, past the customer's further questions (questions in a row get
// one reply) and, when the reply takes up a two-letter content word of q (作废么 / 这张专票我们用不了 / 可以作废),
// past the customer's statements too (else a statement after q is what the reply answers), that asks nothing (a final 嘛, 吗 or 么 asks back), has at
// most kPlainReplyChars code points as rendered and names no model (four Latin letters in a row: a
// product title pasted), when it could answer q by its words (open_answer's test: a number when q asks
// for one; no address pasted unless q asks where); -1 otherwise, and for a "why" asked as a complaint.
// add_direct_answers adds it only where the sentence budget has room (added_unit_cap) and it says
// nothing a shown agent unit says. A third of the customer questions te157 summaries showed had no
// agent sentence after them (用户:询问售后大概多久 with 这个以售后的审核意见为准的呢 left out).
inline constexpr int kPlainReplyChars = 40;
int plain_reply(const Context& c, std::size_t q, const std::vector<int>& units);
// The customer's reply to agent question q when `units` shows none: the customer's first unit among the
// next kAnswerReach, before the agent asks again in a later turn (a turn's questions are one asking),
// when it is selectable, asks nothing and is short (zh:
// kDirectAnswerChars code points as rendered; en: kReplyWordsEn words). -1 otherwise. "The agent asks:
// Did the app crash at any point during the 30 minutes?" left unanswered reads as if the customer did not
// know; "Customer: No it did not." follows it now. English replies stop at 12 words: at 30, TweetSumm CV
// ROUGE-L fell 40.46 -> 40.26 (the references rarely repeat a reply), at 12 it is 40.49.
inline constexpr int kReplyWordsEn = 12;
int customer_reply(const Context& c, std::size_t q, const std::vector<int>& units);
// The first unit after agent unit q's run of the agent's units (the customer's, where the customer speaks
// again); the unit count when the dialogue ends on the agent.
inline std::size_t customer_after(const Context& c, std::size_t q) {
  std::size_t v = q + 1;
  while (v < c.p.units.size() && c.p.units[v].speaker == text::Speaker::agent) ++v;
  return v;
}
// zh: whether agent question q asks yes or no: a verb it turns on (zh_question::polar_verb: 是要…吗, 可以吗), a
// tag (是吧), or a final 吗 or 么, and no question word (什么, 哪, 多少: 对 answers none of those).
bool asks_yes_or_no(const Context& c, std::size_t q);
// zh: the customer's bare denial of agent statement q when `units` does not show it: the customer's first
// unit after the agent's run only says no (is_bare_denial) and answers q or a question of the agent's
// before q in the same run (Context::answers), which add_direct_answers then brings too. te157 691 showed
// 客服:订单预计[数字]月[数字]日送达手中 without the customer's 不是 to the agent's 此单是吗: the reader took the
// missing order to be on its way. -1 otherwise.
int customer_denial(const Context& c, std::size_t q, const std::vector<int>& units);

// Greedy MMR under the sentence and char budgets (the first pick may exceed the char budget alone),
// most valuable first. A bare answer (Context::answers) comes with what it answers
// (with_what_it_answers): the chain is one candidate, worth the mean of its units' MMR values, and
// enters the order earliest first.
std::vector<int> greedy_selection(const Context& c);

// The emotion constraint's outcome: the units to keep, and, in emotion-clause mode, the unit shown as
// one clause and that clause (clause_unit -1: none).
struct ConstrainedSelection {
  std::vector<int> units;
  bool bound = false;          // the constraint changed the selection
  int clause_unit = -1;
  std::string clause_text;     // the clause as it stands in the rendered unit
  std::string clause_shown;    // as shown in the summary
  double cost = 0.0;           // the ranking value given up for the emotion (>= 0)
  int target = -1;             // the learned choice of the unit with the strongest feeling (-1: none)
};

// Whether mention m's words survive its unit's rendering (and, for the clause unit, the clause).
bool survives(const Context& c, std::size_t m, const ConstrainedSelection& s);
// Whether any expressed mention is kept by `units` as rendered.
bool keeps_emotion(const Context& c, const std::vector<int>& units, const ConstrainedSelection& s);
// The strength a summary must keep: that of the strongest expressed mention a selectable unit keeps
// (less a rounding margin); -1 when there is none. Mentions that reach it are "comparable": among them
// the ranking's cost decides.
double required_strength(const Context& c);
// Whether `s` keeps its learned target (s.target, emotion_salience.h) or a mention of the required
// strength: true when there is no target and the customer expressed nothing, false when no unit can
// keep what they expressed (compression removed it).
bool keeps_strongest(const Context& c, const ConstrainedSelection& s);

// Adds to `s.units` the direct answer of each selected customer question that lacks it, so that another
// agent sentence after the question does not stand as its answer (询问是…配送站吗。客服:不会的已经告知站点了,
// where the answer was 是的), or, without one, the agent's refusal of a selected customer unit
// (refusal_of); the customer's reply to each selected agent question that lacks one (customer_reply), or
// their bare denial of a selected agent statement (customer_denial);
// and the customer's question that a selected agent statement answers when the summary would show it
// under another customer unit or first of the customer's side (the agent had replied, and the customer
// asked again as the last thing they said before this reply: 用户:询问能送到门口吗。客服:…可以申请价格保护 answered 是到[数字]那天活动更大吗). A refusal that
// says again what a shown agent unit says (redundancy overlap at least 0.5) is not added. The sentence budget holds: when it is full, the least salient unit that is neither
// the question nor another customer question (询问怎么这次到青县了 is worth more than an answer's 不是的),
// that no other unit answers or goes on with, and whose leaving keeps the customer's strongest
// emotion (keeps_strongest) makes room in Chinese (in English, three tweets long, the answer needs a free
// place); when none can, the answer stays out. Nor is an answer added when a shown unit of its speaker
// lies between it and its question: it would read as part of that unit. With skip_fillers only (the
// baselines show what they select).
void add_direct_answers(const Context& c, ConstrainedSelection& s);
// zh: the customer's bare yes or no (is_bare_yes_or_no, through customer_reply) to each shown yes/no
// question of the agent's, and the agent's to the customer's (agent_bare_reply), right after it, where the
// sentence budget still has room: 客服:是要解绑换绑新的手机号吗？用户:对。 A blind reading of the CSDS val
// summaries a first version changed preferred them 46 to 4 (the losses: the reply had taken the place the
// outcome needed). decode() runs it before the outcome since the thirtieth session: a question whose reply
// has no room leaves (drop_unanswered_agent_questions), and the outcome can make its own room
// (room_for_outcome); blind reading of the 4 CSDS val summaries the move changed: 3 to 1.
void add_bare_replies(const Context& c, ConstrainedSelection& s);
// zh: the agent's bare yes or no right after customer yes/no question q (保价[数字]天是吧 / 客服:嗯呢), past the
// customer's units that are no content, when the summary shows no other reply of the agent's to q; -1 when
// none, and for a request in 吧 (电话联系我吧) or an agent's 好的, which only acknowledges (a blind reader called
// te157 677's 客服:好的。 noise). A statement that checks back what the customer may now do (那我现在可以再从新
// 下单了 / 是的哦, te157 621) counts as such a question. add_bare_replies shows it as it shows the customer's.
int agent_bare_reply(const Context& c, std::size_t q, const std::vector<int>& units);

// zh: the other option of an alternative question q: the unit right after q, of q's speaker, that opens
// with 还是, holds at least kAlternativeMinLetters letters besides placeholders, is no turn the data cut off
// and asks no question of its own (not 还是[数字]号是吧, "still the [数字]th, right?") (这个是补充胶原蛋白的? /
// 还是护发的?; 您要延期吗 / 还是要提前呢); -1 when none. Shown without it, q reads as a yes/no question: CSDS
// val 306's 用户:询问是补充胶原蛋白的 asked something else.
inline constexpr int kAlternativeMinLetters = 4;
int alternative_of(const Context& c, std::size_t q);
// Adds the other option (alternative_of) of each shown question where the sentence budget has room
// (add_below_cap): making room for it had cost te157 628 the customer's answer 提前. With skip_fillers only.
void add_alternatives(const Context& c, ConstrainedSelection& s);
// The sentence cap of the parts that add a unit after the selection (add_outcome, add_issue,
// add_last_reply): options.max_sentences, plus one with a model's expected-F1 stop (the stop sets the
// length itself, and its cap is a bound an added unit may pass by one; a number of sentences the user
// asked for, which turns the stop off, holds).
int added_unit_cap(const Context& c);
// Whether unit v fits beside `units` in a length the user set (DecodeOptions::max_chars with no budget of
// the scorer's: --max-chars); true when there is none. A model's learned budget is what its ranking fills,
// and an added unit goes beyond it as answers do.
bool fits_user_chars(const Context& c, const std::vector<int>& units, int v);
// Adds unit v to `s.units` when there is one (v >= 0), the selection is below added_unit_cap and v fits
// a length the user set (fits_user_chars): how the parts that add a unit after the ranking (the outcome,
// the last reply, …) add it, none making room by dropping what the ranking chose.
void add_below_cap(const Context& c, ConstrainedSelection& s, int v);

// Adds unit v, which goes with unit q (its answer, the question it answers, or the issue itself when
// q is v), to `s.units` within the sentence budget (options.max_sentences): when the budget is full,
// the least salient unit that is neither q nor a customer question (another question of the
// customer's is worth more than an answer; an agent's 请问有什么可以帮您 is not), that no other unit needs
// and whose leaving keeps the customer's strongest emotion (keeps_strongest) makes room (Chinese only);
// when none can, v stays out.
void add_within_budget(const Context& c, ConstrainedSelection& s, int q, int v);
// zh: of two customer units in `s.units` that say the same thing (redundancy overlap at least
// kSaysAgainOverlap, the same negators) before the agent replied (no selectable agent unit between them
// in the dialogue but one that answers nothing: 询问是上门维修吗 / 询问师傅，是上门维修吗), the one with
// fewer letters leaves (on a tie the earlier), unless it holds an expressed emotion or a run of digits
// the other lacks (three 咨询订单号…商品ID lines of three products), is the constraint's clause, answers
// a unit, or a shown unit answers it or goes on from it. A repeat after the agent's reply stays: the
// customer asking again says the reply did not settle it. With skip_fillers and redundancy n-grams only.
void drop_customer_repeats(const Context& c, ConstrainedSelection& s);
// zh: whether unit u says nothing that a unit among `chosen` of its speaker does not say: u's words
// (Context::said_keys) lie inside that unit's and are fewer, with the same negators (需要的 is not said
// within 不需要的); u asks only where that unit asks too, answers nothing among `chosen` (Context::answers:
// the selection takes an answer with its question), holds no expressed emotion, and no chosen unit of the
// other speaker lies between the two (客服:好哒通知站点 after 用户:允许开箱验货 answers that request, though
// 客服:通知站点安排 came before it). 客服:升级。 beside 客服:帮您升级[数字]小时内回复, 用户:发票。 beside
// 用户:询问已付款订单如何修改发票信息呢 (CSDS val 56, 701). The selection passes such a unit by
// (greedy_selection). With skip_fillers and redundancy n-grams only.
bool said_within(const Context& c, std::size_t u, const std::vector<int>& chosen);
// Drops from `s.units` each unit said within another shown one (said_within) that may leave: it is not
// the constraint's clause, and no shown unit answers it or goes on from it. The constraint and the
// expected-F1 stop may bring a unit the selection had passed by, or one that a later pick contains.
void drop_units_said_within(const Context& c, ConstrainedSelection& s);

// en: each shown unit whose sentence goes on in the next tweet (render::continues_previous_tweet) brings
// that tweet's first unit, the rest of its sentence, past the budget: "…since the birthday is
// tomorrow, the agent put in a" needs "note asking to sing \"Happy Birthday\" to him…". The two are one
// sentence to the reader (render::assemble joins them); without the rest the unit was shown cut ("…").
// The constraint's clause unit is shown as a clause and brings nothing. A number of sentences or
// characters the user asked for (DecodeOptions::length_asked) holds: there the open sentence stays cut.
void add_rest_of_open_sentences(const Context& c, ConstrainedSelection& s);

// en: when customer unit u is a feeling of at most kShortAnswerEn words that closes a tweet, the
// nearest selectable unit before it in that tweet: what the feeling is about ("…now it's nothing more
// than a city bus. Ugh!", "Bounced from rep to rep (6 today) all assuring resolution. Maddening."); when
// it opens its tweet, the nearest after it ("Disgraceful. We are not as privileged as others…"); -1
// otherwise, and always without skip_fillers (baselines). (The tweet's most salient unit was tried:
// "…the lavatory rules in 1st. Ugh!" said less.)
// After the feeling, what it is about has at least kAboutWordsEn words.
inline constexpr int kAboutWordsEn = 3;
int what_a_closing_feeling_is_about(const Context& c, std::size_t u);
// en: a shown closing feeling (what_a_closing_feeling_is_about) that follows the agent's words, or opens
// the summary, brings what it is about where the cap has room (add_below_cap: a model's cap may be
// passed by one, a number of sentences or characters the user asked for holds): "Customer: Ugh!"
// after "The agent will share the customer's feedback…" is about nothing the reader is shown. Right
// after the customer's own shown words, with no agent turn between ("Customer: Why does this error keep
// happening? Customer: It's ridiculous."), it reads as said of them, and nothing is added; with an agent
// turn between, the reader is not shown what it answers ("Customer: Most unsatisfactory!!" long after
// the opening complaint), and what it is about comes too.
void add_what_closing_feelings_are_about(const Context& c, ConstrainedSelection& s);

// zh: the dialogue's outcome, what the agent last did or promised for the customer: the last agent
// unit that reports an action (reports_an_action), asks nothing, is selectable, holds at least
// kOutcomeMinLetters letters as written and kOutcomeMinChars code points as rendered (客服:帮修改。 says
// too little), still reports it as rendered (a turn the data cut off, 这边为您申请一下原地, shown as 确实出现
// 问题…, does not), and neither supposes (如果, 的话: a policy, not what was done), closes
// (还有其他…, 祝您…, 评价) nor answers nothing (answers_nothing: 稍等, 帮您查一下). -1 when none.
// The CSDS references end on it (客服…为用户申请交易纠纷, 会帮助用户催促站点) where the summaries left
// it out in 37 of the 61 te157 dialogues that have one.
inline constexpr int kOutcomeMinLetters = 5, kOutcomeMinChars = 6;
int outcome_unit(const Context& c);
// zh: whether an agent's text reports an action taken or promised for the customer: 已(经) before an
// action verb within kActionReach letters (已经帮您提交了售后申请, 已为您催促), 会 or 将 before one
// (专员会在[数字]小时给您回电, 会尽快为您处理), 帮您/为您/给您 or 帮 right before one (这边帮您反馈下, 帮取消), 专员,
// or a change reported done with no marker (操作完成哦了, 绑定成功啦; not [数字]个工作日修改完成 nor 操作完成后);
// with no negation before the marker or between it and the verb (就没给您发货; 我不是专员, 专员不在), and not
// the customer's step (我看您已经申请了).
inline constexpr int kActionReach = 8;
bool reports_an_action(std::u32string_view text);
// zh: whether an agent's text holds a closing formula (还有其他…, 其他问题, 祝您, 感谢, 评价, 满意, 再见): it asks for
// nothing and does nothing; neither an outcome nor a reply (outcome_unit, last_reply).
bool closes_conversation(std::u32string_view text);
// Adds the outcome (outcome_unit) to `s.units` when it is not shown, says nothing a shown agent unit
// says (says_again), tells nothing a shown agent statement tells (two thirds of its letters but particles,
// tense and apologies in that statement, no result or deed done that it lacks, and the statement no
// advice: 款项会安排原路退支付白条 after 这个退款会原路退支付白条), and fits a character budget the user set
// (options.max_chars without one of the scorer's); a model's learned budget it may pass, as answers do.
// Where the sentence budget is full, the least salient shown agent statement before it makes room, when
// one may go: not a refusal, an action reported, an answer to a shown unit, the reply shown under a
// customer's question, what a shown unit answers or goes on with, nor one whose leaving loses the
// customer's strongest emotion; the customer's lines never go. A blind reading of the 100 unsupervised
// CSDS val summaries it changed preferred them 73 to 19 (te157 708 now ends on 已经在审核中了，预计…到账
// rather than 客服:不好意思，打错了). An outcome that opens with a no (不, 没, 无, 别, 未) to a question the
// summary does not show (Context::answers: 不需要了呢，专员…联系 after 还需要别的吗) stays out: it would read
// as a refusal of what is shown before it. With skip_fillers only.
void add_outcome(const Context& c, ConstrainedSelection& s);
// zh: the agent's last refusal (refuses: 亲真的很抱歉不行的哦, 您的商品已经出库超过[数字]天，无法退货了呢, 自提无法修改的)
// whose customer unit before it (the last selectable one: what it refuses) the summary shows, that asks
// nothing, has at least kOutcomeMinLetters letters, is no turn the data cut off, and as rendered still
// refuses and opens no clause that needs one before it (就, 所以, 因为, 但, 也, 还 …); -1 when none. A
// summary that shows the request but not the no reads as if the request went through: strict readers
// failed te157 650 and 693 for it.
int refusal_unit(const Context& c, const std::vector<int>& shown);
// Adds it below add_outcome's sentence cap, unless a shown agent unit refuses already or says the same
// (says_again). With skip_fillers only.
void add_refusal(const Context& c, ConstrainedSelection& s);

// en: whether a customer's text says the problem is solved ("Power reset it. Working now.", "Problem
// solved. Thank you!", "Changed it and it works now", "That did it, thanks", "nvm I fixed it", "the
// problem is okay now"; not "ok now what?"): one of a few phrases, as whole words, that none of
// not, n't, never, no longer or stopped comes shortly before ("still not working now"), no "but" follows
// ("All good now, but…"), and, after a past "worked", only an end, a mark, now or thanks ("It worked
// perfectly before and now…" is none).
bool reports_resolution(std::string_view text);
// en: the customer's last selectable unit that comes after the agent spoke, asks nothing and reports
// the problem solved (reports_resolution), unless a later message of the customer's takes it back with
// a denial or the trouble again ("Issue resolved yesterday" / "Today the network is down again"); -1
// when none. A lead reading "the agent asks the customer to reseat the coax" wants to know whether it
// worked: of the 50 TweetSumm valid summaries the sixteenth session's readers judged, two failed for that.
int resolution_unit(const Context& c);
// Adds it below add_outcome's sentence cap, a character budget the user set holding. With skip_fillers only.
void add_resolution(const Context& c, ConstrainedSelection& s);
// en: the customer's last word when it says the trouble stays: the dialogue's last selectable unit is the
// customer's, asks nothing, holds a denial (not, never, still, n't: "Can't claim delay repay as the train
// has only 25 minutes delay", "Router still orange") and at most kUnresolvedWords words unless it answers the
// agent's question shown last ("The agent asks: Is the screen still functional?"), the summary shows an
// agent unit before it and nothing of its message; -1 otherwise. The counterpart of resolution_unit: a
// lead reading the agent's offer wants to know that it did not settle the matter (TweetSumm valid
// 9ea6c23a). A longer last word (a second complaint, a tweet of thanks) cost ROUGE-L on TweetSumm train
// about six points a summary it changed.
inline constexpr int kUnresolvedWords = 14;
int unresolved_unit(const Context& c, const std::vector<int>& units);
// Adds it below add_outcome's sentence cap, a character budget the user set holding. With skip_fillers only.
void add_unresolved(const Context& c, ConstrainedSelection& s);

// zh: the customer's decision, how they chose to go on once the agent had answered: the customer's last
// selectable unit, when it asks nothing, has at least kDecisionMinLetters letters and opens with a 那 of
// consequence followed by 我, 就, 先, 再, 不, 还是 or 只能 (那不换了, 那我再考虑下, 那我就等着, 那我先不支付定金
// 了; not 那个…, 那么…, nor an acknowledgement: 那就好, 那就行); -1 otherwise. te157 768 ended on the agent's
// cancel-and-reorder advice without the customer's 那不换了.
inline constexpr int kDecisionMinLetters = 4;
int decision_unit(const Context& c);
// Adds it below the cap (add_below_cap) when the summary shows an agent unit before it (what it decides
// on). With skip_fillers only.
void add_decision(const Context& c, ConstrainedSelection& s);

// The customer's last feeling when it turns: the unit of the customer's last expressed mention (not a
// request, not neutral) when the summary does not show it, it is selectable and says more than a short
// answer (kShortAnswerZh letters, kShortAnswerEn words), the customer says nothing selectable in a later
// turn, and every feeling the summary shows has the other polarity (CSDS val 665 showed only the complaint
// 货物一天都一直没有流转信息 and now ends on the customer's 不然今天可以到的，别影响对京东的信任); -1 otherwise. A lead
// reads how the customer left, not only how they felt most.
int turning_feeling_unit(const Context& c, const ConstrainedSelection& s);
// Adds it below the cap (add_below_cap). With skip_fillers only.
void add_turning_feeling(const Context& c, ConstrainedSelection& s);

// zh: the agent's reply to the customer's last shown words, when the summary ends on them: within the
// next kLastReplyReach units, before the customer says anything selectable again, the first agent unit
// that is selectable, asks nothing, holds at least kLastReplyMinLetters letters as written and
// kLastReplyMinRenderedLetters Chinese letters as shown (not 记录 of 好的呢这边为您记录), and neither
// answers nothing (answers_nothing: 稍等, 请提供订单号), closes (还有其他…, 祝您…, 评价) nor only apologizes
// (抱歉, 见谅, 给您带来不便); -1 when none, or when it says again what a shown agent unit says
// (says_again). 用户:主要是怕接不到电话。 ended a summary whose agent had replied 如果您忙时没有接到电话，您可以联系
// 快递师傅改天给您配送.
inline constexpr std::size_t kLastReplyReach = 4;
inline constexpr int kLastReplyMinLetters = 5, kLastReplyMinRenderedLetters = 3;
// zh: the agent's reply to shown customer question q that the summary leaves unanswered (no agent line
// shown after q before the customer's next shown line): the first agent unit after q, before the customer
// says anything selectable again, that can stand as a reply as last_reply's does, holds kAnswerMinLetters
// Chinese letters as shown, at most one Latin letter or digit for four of them (not a product's pasted
// title) and opens with no 为了 or 了解; -1 when none or when q is answered. 用户:询问申请退货运费会扣除吗。
// was followed by the customer's next line in 400 of the 1,518 customer questions of the CSDS val EACA
// summaries.
inline constexpr std::size_t kAnswerMinLetters = 5;
int answer_to_question(const Context& c, const std::vector<int>& units, std::size_t q);
// Adds each (answer_to_question), in the order of the questions, below the cap (add_below_cap). With
// skip_fillers only.
void add_answers_to_questions(const Context& c, ConstrainedSelection& s);
// en: the same when the summary ends on a customer statement that neither reports the problem solved
// (reports_resolution) nor only thanks or praises (a positive feeling and no negative one): the first
// agent unit within kLastReplyReach, before the customer says more, that is selectable, asks nothing, has
// at least kEnglishLastReplyMinWords words, opens with no pronoun pointing back, goes on with no tweet
// before it and is more than a courtesy ("Sorry for the trouble", "We hope this helps", "Feel free to
// reach out"). "Customer: Great the 9:11 has been cancelled anyways 😭" ended a summary whose agent had
// answered "Unfortunately we have now received reports of a signalling issue between Leeds and Wakefield".
inline constexpr int kEnglishLastReplyMinWords = 6;
int last_reply(const Context& c, const std::vector<int>& units);
// Adds the last reply (last_reply) to `s.units` below add_outcome's sentence cap, a character budget
// the user set holding: zh after the outcome; en last of the parts after the ranking (what the agent did,
// the issue, come first). With skip_fillers only.
void add_last_reply(const Context& c, ConstrainedSelection& s);
void add_english_last_reply(const Context& c, ConstrainedSelection& s);
// en: the agent's answer to the customer's question a summary ends on: the first agent unit after it,
// before the customer says anything selectable again, that is selectable, asks nothing, has at least
// kAgentReplyMinWords words, opens with no pronoun pointing back and takes up a word of the question (its
// first five letters: "How do I formally complain?" / "You can make a complaint by emailing…"; not "Sorry
// for the inconvenience"); -1 when none, or when it says again what a shown agent unit says.
int answer_to_last_question(const Context& c, const std::vector<int>& units);
// Adds it below add_outcome's sentence cap, a character budget the user set holding. With skip_fillers only.
void add_answer_to_last_question(const Context& c, ConstrainedSelection& s);
// en: the agent's most salient unit, when no agent unit is shown: a summary of only the customer's
// words (three tweets of a rant) leaves the reader to guess whether anyone answered. A selectable unit of
// at least kAgentReplyMinWords words that needs no unit the summary leaves out (Context::answers); -1
// when none, or when an agent unit is shown.
inline constexpr int kAgentReplyMinWords = 4;
// en: whether unit v opens (past its addressing and salutation) with a pronoun that points back to
// something said before it ("They would be best to advise.", "That should fix it.").
bool opens_with_a_pronoun(const Prepared& p, std::size_t v);
int agent_reply(const Context& c, const std::vector<int>& units);
// Adds it below add_outcome's sentence cap, a character budget the user set holding. With skip_fillers only.
void add_agent_reply(const Context& c, ConstrainedSelection& s);

// en: whether an agent's unit says the company did or will do something for the customer: "we'll",
// "we've", "I'll", "I've" (and their long forms) with an action verb within three words ("We'll pass
// this on", "we've escalated this", "I have refunded", "we'll get this passed on to our devs", "I'll have
// someone reach out"); "not", "never" or "you" before it makes none ("we'll need you to send" is the
// customer's step).
bool reports_agent_action(const std::vector<text::Token>& tokens);
// en: whether a unit's words say the agent has done a service ("We have reversed the transaction", "I've
// refunded the charge", "your refund has been processed") or offers one ("we can certainly refund you");
// "not" or "never" before the verb makes none.
bool reports_done(const std::vector<text::Token>& tokens);
// en: what the agent did for the customer, when the summary shows no agent unit that reports an action
// (reports_done, reports_agent_action): the agent's last selectable unit that reports one done or
// offered, asks nothing, has at least kAgentReplyMinWords words, opens with no pronoun pointing back,
// answers nothing the summary leaves out and goes on with no tweet before it, unless a shown agent unit
// says it; -1 otherwise. TweetSumm valid 816389a1 showed the hakikisha advice of the agent's tweet
// without its first sentence, "We have reversed the transaction."
int agent_outcome(const Context& c, const std::vector<int>& units);
// Adds it below add_outcome's sentence cap, a character budget the user set holding. With skip_fillers only.
void add_agent_outcome(const Context& c, ConstrainedSelection& s);
// en: the agent's last word of what was done, when the summary ends on the customer or on an agent's
// question: the agent's last selectable unit after the last shown one that asks nothing, has at least
// kAgentReplyMinWords words, reports an action (reports_agent_action), opens with no pronoun pointing
// back, answers nothing the summary leaves out (Context::answers), goes on with no tweet before it
// (render::continues_previous_tweet: "If different from what's on twitter) and we'll arrange…") and says
// nothing a shown agent unit says; -1 otherwise. TweetSumm valid fce3b9b9 ended on "did
// you watch the video ad…?", without "We'll get this passed on to our devs".
int closing_action(const Context& c, const std::vector<int>& units);
// Adds it below add_outcome's sentence cap, a character budget the user set holding. With skip_fillers only.
void add_closing_action(const Context& c, ConstrainedSelection& s);

// The customer's issue, when the summary opens on the agent's words (zh: or on customer lines that say no
// issue, kBareOpeningLetters below): the most salient customer unit before the first shown unit (zh: the
// first shown agent unit) that is selectable, answers nothing and goes on with nothing
// (Context::answers, Context::continues), repeats no shown unit and says something as shown: zh at
// least kIssueMinLettersZh Chinese letters outside placeholders (not 咨询订单号[订单编号], 一个手机; a menu
// entry, 账户与财务咨询, is not selectable: content.h), no pasted text (a system
// notice: 顾客通过点击web咚咚…, 已受理了服务单; two labels of an order form: 订单编号[数字]，订单金额，下单时间)
// and no connective opening it (但是周末不上班 goes on with something said before); en at least
// kIssueMinWordsEn words. 客服:预计明天会为您送达 opened a summary whose dialogue began with
// 我的快递是到太原了，还是还在广州呢; the CSDS references open on the customer's issue. -1 when none.
inline constexpr int kIssueMinLettersZh = 6, kIssueMinWordsEn = 4;
// zh: customer lines this short (letters outside placeholders) before the first agent line shown say no
// issue either: issue_unit reads a summary that opens on them as one that opens on the agent.
inline constexpr int kBareOpeningLetters = 3;
int issue_unit(const Context& c, const std::vector<int>& units);
// Adds the issue (issue_unit) to `s.units`: below add_outcome's sentence cap it is added, at the cap it
// takes the place of the least salient unit no other needs (add_within_budget; Chinese only), and a
// character budget the user set holds. With skip_fillers only.
void add_issue(const Context& c, ConstrainedSelection& s);
// en: the customer's issue, when no shown customer unit says anything as shown ("Customer: Disgraceful.",
// "#horribleservice@sprint", kept for the feeling): the most salient customer unit before the first shown
// agent unit (before the end when none) that issue_unit's tests pass and that has at least
// kEnglishIssueMinWords words ("My zip is 80593" says too little); -1 otherwise. TweetSumm valid
// 3af258a3 showed "Disgraceful." without the goods Amazon would not ship to the customer's address.
inline constexpr int kEnglishIssueMinWords = 6;
int english_issue_unit(const Context& c, const std::vector<int>& units);
// Adds it below add_outcome's sentence cap, after the agent's parts (what the agent did or answered
// comes first), a character budget the user set holding. With skip_fillers only.
void add_english_issue(const Context& c, ConstrainedSelection& s);

// en: an agent's question the summary shows with the customer's reply to it (customer_reply: the next
// customer unit, short, asking nothing, before the agent asks again) right after it, where the sentence
// cap has room once every other adder has had its turn: "The agent asks: What device, operating system,
// and Spotify version is the customer on? Customer: Galaxy s7 edge." A reply in a ranked unit's place
// cost TweetSumm CV 40.49 -> 40.07 (add_within_budget); the outcome and the agent's last word come first.
// A reply that gives a phone or account number (seven digits or more) is a detail, not shown.
void add_english_customer_replies(const Context& c, ConstrainedSelection& s);
// An agent's question whose answer the summary leaves out leaves too: a reader sees a question with no
// answer. en: the customer's next turn, which answers it, is selectable and not shown (no room was left for
// it, or it was too long to add: "Agent: So we're on the same page is this the Apple News app or the
// website…?" with "Apple news app" left out); not a request ("Can you DM us…?", report_request: the
// customer answers it by doing it). zh: a yes/no question shown as one (客服:请问是这个商品吗？, not an offer
// holding 能否) whose reply (customer_reply: 对, 是的, a short answer) add_bare_replies had no room for.
// Never the constraint's clause, nor the summary's only agent unit, which says what the agent did. Run
// after every adder, so that a reply that fits comes first; returns whether one left, and decode() then
// runs the adders again for the room it leaves. With skip_fillers only.
bool drop_unanswered_agent_questions(const Context& c, ConstrainedSelection& s);
// The hard constraint: when the learned choice names a target unit (emotion_salience.h) and `selected`
// keeps neither it nor the strongest expressed mention, the target is added; without a target, when the
// customer expressed an emotion and `selected` keeps none as strong as the strongest, the candidate units
// that keep one are tried in its place and the best is taken (decode_emotion.cc). `order` is the greedy
// order before the stop. The result's `target` is set even with the constraint off.
ConstrainedSelection constrain_emotion(Context& c, const std::vector<int>& selected, const std::vector<int>& order);

// The selected Chinese customer unit that holds the summary's strongest expressed emotion (the
// learned target when it is selected) and is shown in the customer's own words, without token
// deletion: short (at most whole_unit_chars code points as written) and not cut to its emotion clause.
// The feeling and its reason are one short sentence (你们这样经常降价，我都不敢买了), and a deleted word of
// it (这样, 就, 我的) saves little and changes how it reads. -1 when none (English keeps its rendering:
// reported speech).
int verbatim_emotion_unit(const Context& c, const ConstrainedSelection& s);

}  // namespace kessel::summarize::decoding
