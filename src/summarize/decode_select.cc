// The decoder's context and its greedy MMR selection (decode_parts.h), and the expected-F1 stop.
#include <algorithm>
#include <cctype>
#include <cmath>
#include <map>
#include <string_view>

#include "decode_parts.h"
#include "kessel/error.h"
#include "render.h"
#include "summarize/content.h"
#include "summarize/zh_questions.h"
#include "kessel/text/segment.h"
#include "kessel/text/utf8.h"

namespace kessel::summarize {

namespace decoding {

namespace {

// What makes two rendered units the same sentence to a reader: their code points without spaces
// and punctuation, ASCII lowercased ("Ok thanks!" and "ok, thanks" match; "-Chris" twice matches).
std::u32string repeat_key(const std::string& text) {
  std::u32string key;
  for (char32_t cp : text::decode_utf8(text, text::Utf8Mode::lossy).cps) {
    if (text::is_space(cp) || text::is_punct(cp)) continue;
    key.push_back(cp >= U'A' && cp <= U'Z' ? cp - U'A' + U'a' : cp);
  }
  return key;
}

// Redundancy between two units: Jaccard overlap of their character bigrams (zh) or lowercase words
// (en). Cheap and language-appropriate; only relative values matter to MMR. Each unit's n-grams are
// sorted distinct ids, so an overlap is one merge: a zh bigram is its two code points packed into 64
// bits (a one-character unit its code point with the top bit set), an en word its number among the
// dialogue's distinct words. Both are exact: equal ids are equal n-grams.

std::vector<Grams> dialogue_grams(const std::vector<Unit>& units, Lang lang) {
  std::vector<Grams> out(units.size());
  std::map<std::u32string, std::uint64_t> word_ids;  // en
  for (std::size_t u = 0; u < units.size(); ++u) {
    const auto decoded = text::decode_utf8(units[u].text, text::Utf8Mode::lossy);
    Grams& grams = out[u];
    if (lang == Lang::zh) {
      for (std::size_t i = 0; i + 1 < decoded.cps.size(); ++i)
        grams.push_back(static_cast<std::uint64_t>(decoded.cps[i]) << 32 | decoded.cps[i + 1]);
      if (decoded.cps.size() == 1) grams.push_back(std::uint64_t{1} << 63 | decoded.cps[0]);
    } else {
      std::u32string word;
      auto add = [&] {
        const auto [at, fresh] = word_ids.emplace(word, word_ids.size());
        grams.push_back(at->second);
        word.clear();
      };
      for (char32_t cp : decoded.cps) {
        if (text::is_latin_letter(cp) || text::is_digit(cp))
          word.push_back(cp < 128 ? static_cast<char32_t>(std::tolower(static_cast<int>(cp))) : cp);
        else if (!word.empty())
          add();
      }
      if (!word.empty()) add();
    }
    std::sort(grams.begin(), grams.end());
    grams.erase(std::unique(grams.begin(), grams.end()), grams.end());
  }
  return out;
}

}  // namespace

double jaccard(const Grams& a, const Grams& b) {
  if (a.empty() || b.empty()) return 0.0;
  std::size_t common = 0;
  for (auto i = a.begin(), j = b.begin(); i != a.end() && j != b.end();) {
    if (*i < *j) {
      ++i;
    } else if (*j < *i) {
      ++j;
    } else {
      ++common, ++i, ++j;
    }
  }
  return static_cast<double>(common) / static_cast<double>(a.size() + b.size() - common);
}

namespace {

// The letters a reader gets from a unit: zh CJK characters, digits and Latin letters; en words. An
// @handle says nothing (a tweet opens with the one it answers).
int rendered_size(const std::vector<char32_t>& cps, Lang lang) {
  int letters = 0, words = 0;
  bool in_word = false, in_handle = false;
  for (char32_t cp : cps) {
    in_handle = cp == U'@' || (in_handle && !text::is_space(cp));
    const bool letter = !in_handle && (text::is_cjk(cp) || text::is_latin_letter(cp) || text::is_digit(cp));
    letters += letter;
    words += letter && !in_word;
    in_word = letter || cp == U'\'' || cp == U'’';
  }
  return lang == Lang::zh ? letters : words;
}

// [U] the size of each unit's whole turn as written, from the units' own sizes (Context::letters).
std::vector<int> turn_sizes(const Prepared& p, const std::vector<int>& unit_size) {
  std::map<int, int> by_turn;
  for (std::size_t u = 0; u < p.units.size(); ++u) by_turn[p.units[u].turn] += unit_size[u];
  std::vector<int> turn_size(p.units.size());
  for (std::size_t u = 0; u < p.units.size(); ++u) turn_size[u] = by_turn[p.units[u].turn];
  return turn_size;
}

// The selection rules below ask these of a unit many times over; Context works each out once.
bool asks(const Context& c, std::size_t u) { return c.asking[u] != 0; }
int letters_of(const Context& c, std::size_t u) { return c.letters[u]; }

std::vector<char32_t> decoded(const std::string& text) { return text::decode_utf8(text, text::Utf8Mode::lossy).cps; }

// unit_asks(p, u) from the units' decoded source texts and which of them are zh question tails
// (render::is_question_tail), so that no unit is decoded twice.
bool asks_decoded(const Prepared& p, std::size_t u, const std::vector<char32_t>& cps, const std::vector<char>& tails) {
  const std::string& text = p.units[u].text;
  if (p.lang == Lang::en) return text.find('?') != std::string::npos;
  const bool asked_next = p.lang == Lang::zh && u + 1 < p.units.size() &&
                          p.units[u + 1].speaker == p.units[u].speaker && tails[u + 1];  // render::asked_by_next_unit
  if (asked_next) return true;
  if (render::ends_as_question(cps) || render::asks_without_mark(cps)) return true;
  return zh_question::holds_question_word(std::u32string_view(cps.data(), cps.size()));
}

// The expressed emotion of every unit, one pass over the mentions (Context::expressed).
std::vector<Context::Expressed> expressed_by_unit(const Prepared& p) {
  using E = Context::Expressed;
  std::vector<E> out(p.units.size(), E::none);
  for (std::size_t m = 0; m < p.mentions.size(); ++m) {
    if (!p.mentions[m].expressed || p.mention_unit[m] < 0) continue;
    E& e = out[static_cast<std::size_t>(p.mention_unit[m])];
    const bool resigned = p.mentions[m].source == "cue:resigned";
    if (e == E::none) e = resigned ? E::only_resignation : E::other;
    else if (!resigned) e = E::other;
  }
  return out;
}

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

bool unit_asks(const Prepared& p, std::size_t u) {
  const std::string& text = p.units[u].text;
  if (p.lang == Lang::en) return text.find('?') != std::string::npos;
  if (render::asked_by_next_unit(p, u)) return true;
  if (render::ends_as_question(text) || render::asks_without_mark(text)) return true;
  return zh_question::holds_question_word(text);
}

int unit_letters(const Prepared& p, std::size_t u) { return rendered_size(decoded(p.units[u].text), p.lang); }

void Context::add_unit_facts() {
  const std::size_t U = p.units.size();
  std::vector<std::vector<char32_t>> source(U);
  question_tail.assign(U, 0);
  for (std::size_t u = 0; u < U; ++u) {
    source[u] = decoded(p.units[u].text);
    question_tail[u] = p.lang == Lang::zh && render::is_question_tail(source[u]);
  }
  asking.resize(U);
  letters.resize(U);
  for (std::size_t u = 0; u < U; ++u) {
    asking[u] = asks_decoded(p, u, source[u], question_tail);
    letters[u] = rendered_size(source[u], p.lang);
  }
}

Context::Context(const Prepared& prepared, const UnitScores& s, const DecodeOptions& o)
    : p(prepared), scores(s), options(o) {
  const std::size_t U = p.units.size();
  unit_chars.resize(U);
  std::vector<char> shows_content(U);  // render::has_content of each unit as rendered
  for (std::size_t u = 0; u < U; ++u) {
    const std::vector<char32_t> shown = decoded(rendered(u));
    unit_chars[u] = scores.unit_text.empty() ? p.units[u].chars : static_cast<int>(shown.size());
    shows_content[u] = render::has_content(shown);
  }
  max_chars = scores.max_chars > 0 ? scores.max_chars : options.max_chars;
  if (U) {
    lo = *std::min_element(scores.salience.begin(), scores.salience.end());
    hi = *std::max_element(scores.salience.begin(), scores.salience.end());
  }
  if (options.redundancy > 0.0f) {
    grams = dialogue_grams(p.units, p.lang);
    // Redundancy control never lets a unit in twice: MMR only discounts an exact repeat, and a very
    // salient one ("客服:嗯嗯。", an agent's "-Chris" sign-off) still beats the rest. Without
    // redundancy control (the published baselines) the ranking is taken as it is.
    for (std::size_t u = 0; u < U; ++u) keys.push_back(repeat_key(rendered(u)));
  }
  // Fillers, courtesies and sign-offs are not content (DecodeOptions::skip_fillers, content.h).
  const std::vector<char> content = options.skip_fillers ? content_mask(p) : std::vector<char>(U, 1);
  selectable.assign(U, 0);
  for (std::size_t u = 0; u < U; ++u)
    selectable[u] = unit_chars[u] > 0 && shows_content[u] && content[u];
  answers.assign(U, -1);
  continues.assign(U, -1);
  if (!options.skip_fillers) return;
  add_unit_facts();
  turn_letters = turn_sizes(p, letters);
  expressed = expressed_by_unit(p);
  for (std::size_t u = 0; u < U; ++u) answers[u] = answered_unit(*this, u);
  // A tweet that goes on with its speaker's open sentence is shown after that tweet or not at all.
  for (std::size_t u = 1; u < U; ++u)
    if (answers[u] < 0 && selectable[u - 1] && render::continues_previous_tweet(p, u)) answers[u] = static_cast<int>(u - 1);
  continues.assign(U, -1);
  for (std::size_t u = 1; u < U; ++u)
    if (answers[u] < 0 && continues_previous_message(*this, u)) continues[u] = static_cast<int>(u - 1);
  std::vector<char> fragments(U, 0);
  for (std::size_t u = 0; u < U; ++u) fragments[u] = is_fragment(*this, u);
  for (std::size_t u = 0; u < U; ++u)
    if (fragments[u]) selectable[u] = 0;
}

const std::string& Context::rendered(std::size_t u) const {
  return scores.unit_text.empty() ? p.units[u].text : scores.unit_text[u];
}

float Context::norm(std::size_t u) const { return hi > lo ? (scores.salience[u] - lo) / (hi - lo) : 1.0f; }

double Context::mmr_value(std::size_t u, double overlap_with_selected) const {
  return (1.0 - options.redundancy) * norm(u) - options.redundancy * overlap_with_selected;
}

double Context::overlap(std::size_t u, std::size_t v) const {
  return options.redundancy > 0.0f ? jaccard(grams[u], grams[v]) : 0.0;
}

bool Context::repeats(std::size_t u, const std::vector<int>& chosen) const {
  if (keys.empty()) return false;
  for (int s : chosen)
    if (keys[static_cast<std::size_t>(s)] == keys[u]) return true;
  return false;
}

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
bool replies_yes_or_no(const Prepared& p, std::size_t q, std::size_t a) {
  const auto question = text::decode_utf8(p.units[q].text, text::Utf8Mode::lossy).cps;
  const std::u32string verb = zh_question::polar_verb(std::u32string_view(question.data(), question.size()));
  if (verb.empty()) return false;
  const auto answer = text::decode_utf8(p.units[a].text, text::Utf8Mode::lossy).cps;
  return zh_question::answers_polar(std::u32string_view(answer.data(), answer.size()), verb) >= 1;
}

int answered_unit(const Context& c, std::size_t u) {
  const Prepared& p = c.p;
  const bool resigns = c.expressed[u] == Context::Expressed::only_resignation;
  const bool feels = c.expressed[u] == Context::Expressed::other && !opens_with_yes_or_no(p, u);
  if (!c.selectable[u] || feels || asks(c, u)) return -1;
  // The whole turn is short as written: a short sentence of a longer turn has its context beside it,
  // unless it is an agent's yes or no to the question before it (可以的，免费送货入户并安装 after 能送货上门安装吗).
  const bool agent_reply = p.lang == Lang::zh && p.units[u].speaker == text::Speaker::agent && !resigns;
  const bool short_turn =
      c.turn_letters[u] <= (p.lang == Lang::en ? kShortAnswerEn : agent_reply ? kAgentReplyZh : kShortAnswerZh);
  if (!short_turn && !agent_reply) return -1;
  for (std::size_t v = u; v-- > 0;) {
    if (p.units[v].speaker == p.units[u].speaker) {
      if (c.selectable[v]) return -1;  // the speaker said something of their own first
      continue;
    }
    if (c.unit_chars[v] <= 0) continue;  // nothing but addressing ("^FC" after the question mark)
    if (c.question_tail[v]) continue;     // "吗?": its question is the unit before it
    if (resigns) return told_unit(c, v + 1);
    if (!c.selectable[v] || !asks(c, v)) return -1;
    return short_turn || replies_yes_or_no(p, v, u) ? static_cast<int>(v) : -1;
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
  const text::DecodedText d = text::decode_utf8(text, text::Utf8Mode::lossy);
  const text::Segmenter& segmenter = text::Segmenter::default_segmenter();
  bool noun = false;
  int in_placeholder = 0;  // [数字], [订单编号]: what the data masked says nothing of the phrase's kind
  for (const text::WordSpan& w : segmenter.segment(std::span<const char32_t>(d.cps))) {
    const std::u32string_view word(d.cps.data() + w.char_start, static_cast<std::size_t>(w.char_end - w.char_start));
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
  if (c.question_tail[u]) return true;  // "吗?": the turn before asks
  if (adds_to_a_question(c, u)) return true;
  if (asks(c, u)) return false;
  // A condition alone ("赔偿的话", "如果是换货的话") waits for a consequence the unit does not hold.
  if (zh && render::dangling_condition_start(c.rendered(u)) == 0) return true;
  if (c.answers[u] >= 0) return false;
  const bool tiny = c.turn_letters[u] <= (zh ? kFragmentZh : kFragmentEn);
  const bool bare_thing =
      !placed && zh && c.turn_letters[u] <= kContinuationZh && names_only_things(p.units[u].text);
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

int direct_answer(const Context& c, std::size_t q) {
  const Prepared& p = c.p;
  if (p.lang != Lang::zh || p.units[q].speaker != text::Speaker::customer) return -1;
  const auto question = text::decode_utf8(p.units[q].text, text::Utf8Mode::lossy).cps;
  const std::u32string_view q_text(question.data(), question.size());
  if (!asks(c, q) && !zh_question::ends_in_tag(q_text)) return -1;
  const std::u32string verb = zh_question::polar_verb(q_text);
  if (verb.empty()) return -1;
  // The answer that repeats the question's verb wins over an earlier plain yes, which may answer
  // something else (会不会影响…: 是的呢直接拒收就好哦 answered the turn before, 这个是不会的哈 this one).
  int best = -1, best_rank = 0;
  for (std::size_t v = q + 1; v < p.units.size() && v <= q + kAnswerReach; ++v) {
    if (p.units[v].speaker == text::Speaker::customer) {
      if (asks(c, v)) break;  // asked again: what follows answers that
      continue;
    }
    if (c.unit_chars[v] <= 0 || c.unit_chars[v] > kDirectAnswerChars || asks(c, v)) continue;
    const auto answer = text::decode_utf8(p.units[v].text, text::Utf8Mode::lossy).cps;
    const int rank = zh_question::answers_polar(std::u32string_view(answer.data(), answer.size()), verb);
    if (rank > best_rank) best = static_cast<int>(v), best_rank = rank;
  }
  return best;
}

// Whether a text is nothing but placeholders ([订单编号], [数字]), marks and spaces.
bool only_placeholders(std::string_view text) {
  bool any = false;
  for (std::size_t at = 0; at < text.size();) {
    const char32_t cp = text::next_code_point(text, &at);
    if (cp == U'[') {
      const std::size_t close = text.find(']', at);
      if (close == std::string_view::npos) return false;
      at = close + 1;
      any = true;
    } else if (!text::is_space(cp) && !render::is_terminal_punct(cp) && cp != U'，' && cp != U',') {
      return false;
    }
  }
  return any;
}

int customer_reply(const Context& c, std::size_t q, const std::vector<int>& units) {
  const Prepared& p = c.p;
  if (p.units[q].speaker != text::Speaker::agent || !asks(c, q)) return -1;
  auto shown = [&](std::size_t v) { return std::find(units.begin(), units.end(), static_cast<int>(v)) != units.end(); };
  for (std::size_t v = q + 1; v < p.units.size() && v <= q + kAnswerReach; ++v) {
    if (p.units[v].speaker == text::Speaker::agent) {
      if (asks(c, v)) return -1;  // asked again: what follows answers that
      continue;
    }
    if (shown(v)) return -1;  // the summary shows a reply already
    if (!c.selectable[v] || asks(c, v)) return -1;
    // An order number sent after a yes/no question is what the agent asked for before, not the answer
    // (客服:买的是抽纸吗。用户:[订单编号]。); after 多少 / 哪 it may be ([数字] after 转账的金额是多少呢).
    if (only_placeholders(p.units[v].text) && !zh_question::holds_question_word(p.units[q].text)) return -1;
    const int size = p.lang == Lang::zh ? c.unit_chars[v] : c.letters[v];
    return size <= (p.lang == Lang::zh ? kDirectAnswerChars : kReplyWordsEn) ? static_cast<int>(v) : -1;
  }
  return -1;
}

void add_direct_answers(const Context& c, std::vector<int>& units) {
  if (!c.options.skip_fillers) return;
  const std::vector<int> chosen = units;
  for (int q : chosen) {
    const int v = direct_answer(c, static_cast<std::size_t>(q));
    if (v >= 0 && std::find(units.begin(), units.end(), v) == units.end()) units.push_back(v);
  }
  for (int q : chosen) {
    const int v = customer_reply(c, static_cast<std::size_t>(q), units);
    if (v >= 0) units.push_back(v);
  }
}

std::vector<int> greedy_selection(const Context& c) {
  const std::size_t U = c.p.units.size();
  std::vector<int> selected;
  std::vector<char> in(U, 0);
  int chars = 0;
  auto fits = [&](int sentences, int more) {
    return static_cast<int>(selected.size()) + sentences <= c.options.max_sentences &&
           (c.max_chars <= 0 || selected.empty() || chars + more <= c.max_chars);
  };
  auto value_of = [&](std::size_t u) {
    double overlap = 0.0;
    for (int s : selected) overlap = std::max(overlap, c.overlap(u, static_cast<std::size_t>(s)));
    return c.mmr_value(u, overlap);
  };
  auto take = [&](std::size_t u) {
    in[u] = 1;
    selected.push_back(static_cast<int>(u));
    chars += c.unit_chars[u];
  };
  while (static_cast<int>(selected.size()) < c.options.max_sentences) {
    std::vector<int> best;  // a unit, after what it answers that is not in yet
    double best_value = -1e300;
    for (std::size_t u = 0; u < U; ++u) {
      if (in[u] || !c.selectable[u] || c.repeats(u, selected)) continue;
      if (c.continues[u] >= 0 && !in[static_cast<std::size_t>(c.continues[u])]) continue;
      std::vector<int> lead;
      int more = 0;
      double value = 0.0;
      bool repeated = false;
      for (int v : with_what_it_answers(c, static_cast<int>(u))) {
        const auto vx = static_cast<std::size_t>(v);
        if (in[vx]) continue;
        repeated = repeated || c.repeats(vx, selected);
        lead.push_back(v);
        more += c.unit_chars[vx];
        value += value_of(vx);
      }
      if (repeated || !fits(static_cast<int>(lead.size()), more)) continue;
      value /= static_cast<double>(lead.size());
      if (value > best_value) {
        best_value = value;
        best = std::move(lead);
      }
    }
    if (best.empty()) break;
    for (int v : best) take(static_cast<std::size_t>(v));
  }
  return selected;
}

}  // namespace decoding

std::size_t expected_f1_prefix(const std::vector<int>& order, const std::vector<float>& inclusion,
                               const std::vector<int>& unit_chars, float prior_chars, double* value,
                               std::size_t min_length) {
  KESSEL_CHECK_ARG(std::isfinite(prior_chars) && prior_chars > 0.0f, "expected_f1_prefix: prior_chars must be > 0, got ",
                   prior_chars);
  const std::size_t shortest = std::min(std::max<std::size_t>(min_length, 1), order.size());
  std::size_t best = shortest;
  double best_value = -1.0, matched = 0.0, length = 0.0;
  for (std::size_t i = 0; i < order.size(); ++i) {
    const auto u = static_cast<std::size_t>(order[i]);
    KESSEL_CHECK_ARG(u < inclusion.size() && u < unit_chars.size(), "expected_f1_prefix: unit ", u, " out of range");
    KESSEL_CHECK_ARG(inclusion[u] >= 0.0f && inclusion[u] <= 1.0f, "expected_f1_prefix: inclusion[", u, "] = ",
                     inclusion[u], " is not in [0, 1]");
    matched += static_cast<double>(inclusion[u]) * unit_chars[u];
    length += unit_chars[u];
    const double v = 2.0 * matched / (length + static_cast<double>(prior_chars));
    if (i + 1 >= shortest && v > best_value) {
      best_value = v;
      best = i + 1;
    }
  }
  if (value) *value = best_value;
  return best;
}

}  // namespace kessel::summarize
