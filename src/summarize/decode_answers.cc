// What a unit needs beside it to mean anything (decode_parts.h): what a short answer answers and what a
// few words go on with, and which units are fragments. The answers a selected question brings with it
// are decode_direct_answers.cc's.
#include <algorithm>
#include <array>
#include <cctype>
#include <span>
#include <string_view>

#include "decode_parts.h"
#include "kessel/text/segment.h"
#include "kessel/text/utf8.h"
#include "render.h"
#include "summarize/zh_questions.h"

namespace kessel::summarize::decoding {

namespace {

int letters_of(const Context& c, std::size_t u) { return c.letters[u]; }

// What resignation u gives in to: the most salient selectable unit that says more than a fragment
// and asks nothing among what the agent said since the customer last spoke (the refusal
// 号码一旦充值无法退回, not the closing 非常抱歉没能帮到您 sent after it, a cut-off 充…, or 是您的支付密码忘记了是吗,
// which 好吧 would seem to answer); -1 when there is none.
int told_unit(const Context& c, std::size_t u) {
  const Prepared& p = c.p;
  int best = -1;
  for (std::size_t v = u; v-- > 0 && p.units[v].speaker != p.units[u].speaker;) {
    if (!c.selectable[v] || asks(c, v) || letters_of(c, v) <= kFragmentZh) continue;
    if (best < 0 || c.scores.salience[v] > c.scores.salience[static_cast<std::size_t>(best)]) best = static_cast<int>(v);
  }
  return best;
}

}  // namespace

// Whether unit u opens with a yes or a no ("No, unfortunately", "Yeah it's still broken", 没有呢, 是的):
// whatever feeling it holds, it answers.
bool opens_with_yes_or_no(const Prepared& p, std::size_t u) {
  if (p.lang == Lang::en) {
    const auto& t = p.unit_tokens[u];
    std::size_t i = 0;
    while (i < t.size() && t[i].kind == text::TokenKind::mention) ++i;
    static constexpr std::string_view kWords[] = {"no", "yes", "nope", "yeah", "yep", "nah", "yup"};
    return i < t.size() && std::find(std::begin(kWords), std::end(kWords), t[i].lower) != std::end(kWords);
  }
  const std::string& text = p.units[u].text;
  for (std::string_view w : {"不是", "没有", "是的", "对的"})
    if (text.starts_with(w)) return true;
  return false;
}

bool continues_previous_message(const Context& c, std::size_t u) {
  const Prepared& p = c.p;
  if (p.lang != Lang::zh || u == 0 || !c.selectable[u] || !c.selectable[u - 1]) return false;
  const Unit& unit = p.units[u];
  const Unit& before = p.units[u - 1];
  if (before.speaker != unit.speaker || before.turn + 1 != unit.turn) return false;
  if (c.turn_letters[u] > kContinuationZh || asks(c, u) || asks(c, u - 1)) return false;
  return c.expressed[u] == Context::Expressed::none && !opens_with_yes_or_no(p, u);
}

// zh: whether unit a opens with a yes or a no to yes/no question q (zh_question::answers_polar on the
// verb q turns on): 可以的… after 能…吗, 没有… after 有…吗, 是的… .
bool replies_yes_or_no(const Context& c, std::size_t q, std::size_t a) {
  const std::u32string verb = zh_question::polar_verb(source_of(c, q));
  return !verb.empty() && zh_question::answers_polar(source_of(c, a), verb) >= 1;
}

// zh: whether unit v is a few words its speaker sent after their question, as a turn of its own, that
// belong to the question (有现货? / 激光色): an answer after them answers the question.
bool completes_a_question(const Context& c, std::size_t v) {
  const Prepared& p = c.p;
  if (p.lang != Lang::zh || v == 0 || asks(c, v) || c.turn_letters[v] > kContinuationZh) return false;
  const Unit& before = p.units[v - 1];
  return before.speaker == p.units[v].speaker && before.turn + 1 == p.units[v].turn && asks(c, v - 1);
}

int in_order_question(const Context& c, std::size_t u) {
  const Prepared& p = c.p;
  if (p.lang != Lang::zh || p.units[u].speaker != text::Speaker::agent) return -1;
  std::size_t run = u;  // the agent's run of units that u is in: [run, end)
  while (run > 0 && p.units[run - 1].speaker == text::Speaker::agent) --run;
  const std::size_t end = customer_after(c, u);
  int before_u = 0, replies = 0;
  for (std::size_t v = run; v < end; ++v) {
    if (!c.selectable[v]) continue;
    ++replies;
    if (v < u) ++before_u;
  }
  // The customer's questions right before the run, one a turn (its last asking unit), in order.
  std::vector<int> questions;
  for (std::size_t v = run; v-- > 0 && p.units[v].speaker == text::Speaker::customer;) {
    const bool asking = asks(c, v) || zh_question::ends_in_tag(source_of(c, v));
    if (!asking || c.question_tail[v] || letters_of(c, v) == 0) continue;
    if (!questions.empty() && p.units[static_cast<std::size_t>(questions.back())].turn == p.units[v].turn) continue;
    questions.push_back(static_cast<int>(v));
  }
  std::reverse(questions.begin(), questions.end());
  if (questions.size() < 2 || replies < 2 || !c.selectable[u] || before_u >= static_cast<int>(questions.size()))
    return -1;
  return questions[static_cast<std::size_t>(before_u)];
}

// zh: whether a customer's few words challenge what the agent just said and mean nothing without it:
// 为什么啊, 谁说的, 什么意思, 怎么回事, 那咋办, 然后呢, or 那 + a thing + 呢 (那钱呢 after 您可以重新下单).
bool challenges_what_was_said(std::u32string_view text) {
  auto strip = [&](std::u32string_view marks) {
    while (!text.empty() && marks.find(text.back()) != std::u32string_view::npos) text.remove_suffix(1);
  };
  strip(U"?？!！。，,.~～ ");
  const bool na_ne = text.starts_with(U"那") && text.ends_with(U"呢");
  strip(U"啊呀呢吗哈?？!！。，,.~～ ");  // not 么: 为什么 ends in it
  for (std::u32string_view opener : {U"那么", U"那", U"可是", U"但是", U"所以"})
    if (text.starts_with(opener)) {
      text.remove_prefix(opener.size());
      break;
    }
  static constexpr std::u32string_view kChallenges[] = {U"为什么", U"为啥", U"凭什么", U"谁说的", U"什么意思",
                                                        U"啥意思", U"是什么意思", U"怎么回事", U"咋回事", U"怎么搞的",
                                                        U"怎么搞得", U"怎么办", U"咋办", U"然后", U"怎么会"};
  if (std::find(std::begin(kChallenges), std::end(kChallenges), text) != std::end(kChallenges)) return true;
  return na_ne && !text.empty() && text.size() <= 3;
}

// zh: whether customer unit u, a turn of a few words (at most kElaborationZh letters), says more of the
// bare yes or no v they sent as the turn before, an answer to the agent's question: 您刚才是联系我…的吗 /
// 不是 / 昨天的快递师傅. Alone "用户:昨天的快递师傅。" answers a question the reader is not shown; it is
// shown after its yes or no, with their question, or not at all.
bool elaborates_a_bare_answer(const Context& c, std::size_t v, std::size_t u) {
  const Prepared& p = c.p;
  if (p.lang != Lang::zh || p.units[u].speaker != text::Speaker::customer || v + 1 != u ||
      p.units[v].turn + 1 != p.units[u].turn)
    return false;
  return c.answers[v] >= 0 && c.turn_letters[v] <= kBareYesNoZh && opens_with_yes_or_no(p, v) &&
         c.turn_letters[u] <= kElaborationZh && c.expressed[u] == Context::Expressed::none && !asks(c, u);
}

namespace {

// Whether `text`, its Chinese letters without the closing `particles`, is one of `words` (不是的 says 不是).
bool says_only(std::u32string_view text, std::u32string_view particles, std::span<const std::u32string_view> words) {
  std::u32string plain;
  for (char32_t cp : text)
    if (text::is_cjk(cp) && particles.find(cp) == std::u32string_view::npos) plain += cp;
  return std::find(words.begin(), words.end(), std::u32string_view(plain)) != words.end();
}

}  // namespace

bool is_bare_denial(std::u32string_view text) {
  static constexpr std::u32string_view kDenials[] = {U"不是", U"不对", U"没有", U"并不是"};
  return says_only(text, U"啊呀哦呢啦的", kDenials);  // 不是的, 不是啊 say 不是
}

bool is_bare_yes_or_no(std::u32string_view text) {
  static constexpr std::u32string_view kReplies[] = {U"是", U"是的", U"对", U"对的", U"嗯", U"嗯嗯", U"恩", U"恩恩",
                                                     U"可以", U"可以的", U"好的", U"不是", U"不对", U"没有",
                                                     U"不用", U"不用了", U"不需要", U"需要", U"有", U"有的"};
  return says_only(text, U"啊呀哦呢啦哈哒滴", kReplies);  // 对的呀, 是的呢 say 对的, 是的 (的 stays: 是的)
}

int answered_unit(const Context& c, std::size_t u) {
  const Prepared& p = c.p;
  // A challenge (为什么啊, 那钱呢) asks about what the agent said since the customer last spoke.
  if (p.lang == Lang::zh && p.units[u].speaker == text::Speaker::customer && c.selectable[u] &&
      c.turn_letters[u] <= kShortAnswerZh && c.expressed[u] != Context::Expressed::feeling &&
      challenges_what_was_said(source_of(c, u)))
    return told_unit(c, u);
  // A short turn that gives in with the lexicon's 算了 or 行吧 does as a resignation does, except after a
  // question, which it answers (用户:算了算了。 after 帮您提交服务单申请行吗).
  const bool gives_in = p.lang == Lang::zh && c.expressed[u] == Context::Expressed::no_feeling && c.gives_in[u] &&
                        c.turn_letters[u] <= kShortAnswerZh;
  const bool resigns = c.expressed[u] == Context::Expressed::only_resignation || gives_in;
  // The whole turn is short as written: a short sentence of a longer turn has its context beside it,
  // unless it is a yes or no to the question before it (可以的，免费送货入户并安装 after 能送货上门安装吗; the
  // customer's 不用到增值税的 after 需要开增值税发票吗).
  const bool zh_reply = p.lang == Lang::zh && !resigns;
  const bool agent_reply = zh_reply && p.units[u].speaker == text::Speaker::agent;
  const bool short_turn =
      c.turn_letters[u] <= (p.lang == Lang::en ? kShortAnswerEn : agent_reply ? kAgentReplyZh : kShortAnswerZh);
  // A feeling stands alone; a short Chinese turn that only reports (联系不上 after 请问您是和配送联系了吗)
  // answers like any other.
  const Context::Expressed e = c.expressed[u];
  const bool expresses = e == Context::Expressed::feeling ||
                         (e == Context::Expressed::no_feeling && !(p.lang == Lang::zh && short_turn));
  const bool feels = expresses && !opens_with_yes_or_no(p, u);
  if (!c.selectable[u] || feels || asks(c, u)) return -1;
  if (!short_turn && !zh_reply) return -1;
  if (agent_reply) {
    const int paired = in_order_question(c, u);
    if (paired >= 0) return (short_turn || replies_yes_or_no(c, static_cast<std::size_t>(paired), u)) ? paired : -1;
  }
  bool past_own_question = false;  // u's speaker asked something of their own between
  for (std::size_t v = u; v-- > 0;) {
    if (p.units[v].speaker == p.units[u].speaker) {
      if (c.selectable[v] && elaborates_a_bare_answer(c, v, u)) return static_cast<int>(v);
      // A yes or no right after the speaker's own question answers the other speaker's question before it
      // (客服:要不要加注册地址开户行信息这些呢? / 用户:发票通常都什么时候会开好? / 用户:不用，就一般企业发票就行):
      // no one answers their own question.
      if (c.selectable[v] && zh_reply && !past_own_question && asks(c, v) && v + 1 == u) {
        past_own_question = true;
        continue;
      }
      if (c.selectable[v]) return -1;  // the speaker said something of their own first
      continue;
    }
    if (c.unit_chars[v] <= 0) continue;  // nothing but addressing ("^FC" after the question mark)
    if (c.question_tail[v]) continue;     // "吗?": its question is the unit before it
    if (past_own_question) return c.selectable[v] && asks(c, v) && replies_yes_or_no(c, v, u) ? static_cast<int>(v) : -1;
    if (completes_a_question(c, v)) continue;
    if (resigns && !(gives_in && asks(c, v))) {
      // What the lexicon's 算了 or 行吧 gives in to is shown with it only when it reads whole: an agent
      // turn the data cut off (--还好您还有家人给您接呢有些时候这种点单换地方没人接…) reads as a line that needs
      // what the customer said before it.
      const int told = told_unit(c, v + 1);
      if (gives_in && told >= 0 && render::ends_cut_turn(p, static_cast<std::size_t>(told))) return -1;
      return told;
    }
    if (!c.selectable[v]) return -1;
    // An agent's 是的 / 不是 / 对的 after a customer's statement confirms or corrects it (是的哈，这款是非常
    // 适合公司会议使用的 after 我想买一个，公司开会用).
    // The customer's bare no to an agent's statement denies it (客服:您的订单预计[数字]月[数字]日送达您手中 /
    // 用户:不是): a statement shown without it reads as true.
    const bool denies =
        p.lang == Lang::zh && p.units[u].speaker == text::Speaker::customer && is_bare_denial(source_of(c, u));
    if (!asks(c, v) && denies) {
      // A question earlier in the agent's run is what the no answers (客服:[订单编号]此单是吗 / 客服:您的订单预计…
      // 送达您手中 / 用户:不是: not this order); without one, the statement.
      for (std::size_t k = v; k-- > 0 && p.units[k].speaker == p.units[v].speaker;)
        if (c.selectable[k] && asks(c, k)) return static_cast<int>(k);
      return static_cast<int>(v);
    }
    if (!asks(c, v)) return agent_reply && opens_with_yes_or_no(p, u) ? static_cast<int>(v) : -1;
    return short_turn || replies_yes_or_no(c, v, u) ? static_cast<int>(v) : -1;
  }
  return -1;
}

// zh: whether unit u is a word or two its speaker added after a question in the same turn
// (我的订单还能到吗?今天): it belongs to the question and says nothing alone ("用户:今天。").
bool adds_to_a_question(const Context& c, std::size_t u) {
  const Prepared& p = c.p;
  if (p.lang != Lang::zh || u == 0 || p.units[u - 1].turn != p.units[u].turn) return false;
  return letters_of(c, u) <= kFragmentZh && asks(c, u - 1) && !asks(c, u);
}

// What is done in a service dialogue, though jieba's dictionary tags it a noun: "今天下午发货" says when,
// not what.
constexpr std::u32string_view kServiceActs[] = {U"发货", U"收货", U"换货", U"开票", U"核实", U"联系",
                                                U"评价", U"下单", U"充值", U"上门", U"退换", U"到货"};

bool names_only_things(std::string_view text) {
  return names_only_things(std::span<const char32_t>(text::decode_utf8(text, text::Utf8Mode::lossy).cps));
}

bool names_only_things(std::span<const char32_t> text) {
  const text::Segmenter& segmenter = text::Segmenter::default_segmenter();
  bool noun = false;
  int in_placeholder = 0;  // [数字], [订单编号]: what the data masked says nothing of the phrase's kind
  for (const text::WordSpan& w : segmenter.segment(text)) {
    const std::u32string_view word(text.data() + w.char_start, static_cast<std::size_t>(w.char_end - w.char_start));
    if (word == U"[") ++in_placeholder;
    if (word == U"]" && in_placeholder > 0) --in_placeholder;
    if (in_placeholder > 0) continue;
    if (text::is_cjk(word.front())) {
      switch (segmenter.word_class(word)) {
        case text::WordClass::noun:
          if (std::find(std::begin(kServiceActs), std::end(kServiceActs), word) != std::end(kServiceActs))
            return false;
          noun = true;
          break;
        case text::WordClass::numeral:
        case text::WordClass::measure:
          break;
        default:
          if (word != U"的") return false;
      }
    } else if (std::all_of(word.begin(), word.end(), [](char32_t ch) { return ch < 0x80 && std::isalpha(static_cast<int>(ch)); })) {
      return false;  // a Latin word may be anything (a model name, "ok")
    }
    // Digits, marks and placeholders' brackets say nothing of the phrase's kind.
  }
  return noun;
}

// Whether u is a customer's first selectable unit: their opening words name what the dialogue is about
// (用户:退货, 用户:笔记本手提包), however short.
bool opens_the_topic(const Context& c, std::size_t u) {
  const Prepared& p = c.p;
  if (p.units[u].speaker != text::Speaker::customer) return false;
  for (std::size_t v = 0; v < u; ++v)
    if (p.units[v].speaker == text::Speaker::customer && c.selectable[v]) return false;
  return true;
}

// A bare yes or no ("No, unfortunately.", 不是的), whatever feeling it holds, answers something.
bool bare_yes_or_no(const Context& c, std::size_t u) {
  const bool zh = c.p.lang == Lang::zh;
  return c.turn_letters[u] <= (zh ? kBareYesNoZh : kShortAnswerEn) && opens_with_yes_or_no(c.p, u) && !asks(c, u);
}

// en: whether a unit only points back at what was said before ("as i have stated before.", "As mentioned
// in my last tweet"): a clause of "as" that a main clause should follow, reported alone it reads "As the
// customer has stated before." and says nothing.
bool only_points_back(const Prepared& p, std::size_t u) {
  static constexpr auto kOpeners = std::to_array<std::string_view>({"and", "but", "like", "just", "again"});
  static constexpr auto kSubjects =
      std::to_array<std::string_view>({"i", "we", "you", "u", "he", "she", "they", "i've", "i’ve", "we've", "we’ve"});
  static constexpr auto kAuxiliaries = std::to_array<std::string_view>({"have", "has", "had", "'ve", "’ve", "already"});
  static constexpr auto kSaid = std::to_array<std::string_view>(
      {"stated", "said", "mentioned", "explained", "told", "informed", "noted", "advised", "say", "state", "mention"});
  static constexpr auto kRest = std::to_array<std::string_view>(
      {"you", "u", "before", "already", "earlier", "previously", "above", "again", "many", "multiple", "several",
       "times", "twice", "in", "my", "our", "your", "the", "previous", "last", "first", "tweet", "tweets", "dm",
       "dms", "message", "messages", "post", "to"});
  std::vector<std::string_view> words;
  for (const text::Token& t : p.unit_tokens[u])
    if (t.kind == text::TokenKind::word) words.push_back(t.lower);
  std::size_t i = 0;
  const auto among = [&](const auto& list) { return i < words.size() && std::find(list.begin(), list.end(), words[i]) != list.end(); };
  while (among(kOpeners)) ++i;
  if (i >= words.size() || words[i] != "as") return false;
  ++i;
  if (among(kSubjects)) ++i;
  while (among(kAuxiliaries)) ++i;
  if (!among(kSaid)) return false;
  for (++i; i < words.size(); ++i)
    if (!among(kRest)) return false;
  return true;
}

bool is_fragment(const Context& c, std::size_t u) {
  const Prepared& p = c.p;
  const bool zh = p.lang == Lang::zh;
  // A short resignation says nothing without what it gives in to (用户:好吧。).
  const int short_answer = zh ? kShortAnswerZh : kShortAnswerEn;
  if (c.selectable[u] && c.expressed[u] == Context::Expressed::only_resignation)
    return c.answers[u] < 0 && c.turn_letters[u] <= short_answer;
  if (!c.selectable[u]) return false;
  // A bare yes or no and a bare thing named (用户:牛仔裤。, 用户:电子发票。) answer or go on with something the
  // reader is not shown; with what they answer (Context::answers) or after the message they go on with
  // (Context::continues), they are shown.
  const bool placed = c.answers[u] >= 0 || c.continues[u] >= 0;
  if (!placed && bare_yes_or_no(c, u)) return !opens_the_topic(c, u);
  if (c.expressed[u] != Context::Expressed::none) return false;
  if (letters_of(c, u) == 0) return true;  // marks alone ("????"), even asking, say nothing a reader can use
  if (!zh && only_points_back(p, u)) return true;
  if (c.question_tail[u]) return true;  // "吗?": the turn before asks
  if (adds_to_a_question(c, u)) return true;
  if (asks(c, u)) return false;
  // A condition alone ("赔偿的话", "如果是换货的话") waits for a consequence the unit does not hold.
  if (zh && render::dangling_condition_start(c.rendered(u)) == 0) return true;
  if (c.answers[u] >= 0) return false;
  const bool tiny = c.turn_letters[u] <= (zh ? kFragmentZh : kFragmentEn);
  const bool bare_thing =
      !placed && zh && c.turn_letters[u] <= kContinuationZh && names_only_things(c.source[u]);
  return (tiny || bare_thing) && !opens_the_topic(c, u);
}

std::vector<int> with_what_it_answers(const Context& c, int u) {
  std::vector<int> chain{u};
  for (int q = c.answers[static_cast<std::size_t>(u)]; q >= 0 && q < chain.front();
       q = c.answers[static_cast<std::size_t>(q)])
    chain.insert(chain.begin(), q);
  return chain;
}

void drop_unasked_answers(const Context& c, std::vector<int>& units) {
  auto orphan = [&](int u) {
    const auto missing = [&](int q) { return q >= 0 && std::find(units.begin(), units.end(), q) == units.end(); };
    return missing(c.answers[static_cast<std::size_t>(u)]) || missing(c.continues[static_cast<std::size_t>(u)]);
  };
  // An answer dropped may leave what answered it orphaned in turn (好吧 after 不可以的呢 after a question).
  for (auto end = units.end(); (end = std::remove_if(units.begin(), units.end(), orphan)) != units.end();)
    units.erase(end, units.end());
}

void add_rest_of_open_sentences(const Context& c, ConstrainedSelection& s) {
  std::vector<int>& units = s.units;
  for (std::size_t i = 0; i < units.size(); ++i) {  // units grows: a rest may go on in turn
    const int rest = units[i] + 1;
    if (units[i] == s.clause_unit || !render::continues_previous_tweet(c.p, static_cast<std::size_t>(rest))) continue;
    if (std::find(units.begin(), units.end(), rest) != units.end()) continue;
    // A length the user asked for holds (DecodeOptions::length_asked), and the open sentence is shown cut.
    const bool capped = c.options.length_asked && (static_cast<int>(units.size()) >= c.options.max_sentences ||
                                                   !fits_user_chars(c, units, rest));
    if (!capped) units.push_back(rest);
  }
}

int what_a_closing_feeling_is_about(const Context& c, std::size_t u) {
  const Prepared& p = c.p;
  if (!c.options.skip_fillers || p.lang != Lang::en || p.units[u].speaker != text::Speaker::customer || !c.selectable[u])
    return -1;
  if (c.expressed[u] == Context::Expressed::none || c.letters[u] > kShortAnswerEn) return -1;
  for (std::size_t v = u; v-- > 0 && p.units[v].turn == p.units[u].turn;)
    if (c.selectable[v]) return static_cast<int>(v);
  // A feeling that opens its tweet is about what the tweet says next ("Disgraceful. We are not as
  // privileged as others to shop on Amazon"), when that says something of its own: at least
  // kAboutWordsEn words, opening a sentence (not "way is the customer supposed to prove…", the rest of
  // a sentence the data split).
  for (std::size_t v = u + 1; v < p.units.size() && p.units[v].turn == p.units[u].turn; ++v)
    if (c.selectable[v])
      return c.letters[v] >= kAboutWordsEn && !std::islower(static_cast<unsigned char>(p.units[v].text[0]))
                 ? static_cast<int>(v)
                 : -1;
  return -1;
}

void add_what_closing_feelings_are_about(const Context& c, ConstrainedSelection& s) {
  std::vector<int> shown = s.units;  // as they stood before this part added any
  std::sort(shown.begin(), shown.end());
  for (int u : shown) {
    if (u == s.clause_unit) continue;
    const int about = what_a_closing_feeling_is_about(c, static_cast<std::size_t>(u));
    if (about < 0 || std::binary_search(shown.begin(), shown.end(), about)) continue;
    // After the customer's own shown words, with no agent turn between, it reads as said of them.
    const auto before = std::lower_bound(shown.begin(), shown.end(), u);  // the shown unit before u, if any
    if (before != shown.begin()) {
      const auto b = static_cast<std::size_t>(*(before - 1));
      bool agent_between = false;
      for (std::size_t v = b + 1; v < static_cast<std::size_t>(u) && !agent_between; ++v)
        agent_between = c.p.units[v].speaker == text::Speaker::agent;
      if (c.p.units[b].speaker == text::Speaker::customer && !agent_between) continue;
    }
    add_below_cap(c, s, about);
  }
}

}  // namespace kessel::summarize::decoding
