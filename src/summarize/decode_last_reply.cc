// The agent's reply to the customer's last shown words (decode_parts.h, last_reply): a summary that ends
// on the customer (用户:主要是怕接不到电话。) leaves the reader to guess whether the agent answered.
#include <algorithm>
#include <array>
#include <string>

#include "decode_parts.h"
#include "kessel/text/utf8.h"
#include "render.h"
#include "reported_speech_words.h"

namespace kessel::summarize::decoding {

namespace {

// An agent's words that close the conversation, thank, wish, reassure or only apologize: no reply to
// what the customer said (CSDS val showed 幸福快乐，前程锦绣, 太客气，是应该做的, 原谅疏忽之处 in that place).
bool closes_or_apologizes(std::u32string_view text) {
  return closes_conversation(text) ||
         holds_any(text, {U"谢谢", U"支持", U"客气", U"应该做", U"应该的", U"幸福", U"快乐", U"愉快", U"前程", U"谅解",
                          U"见谅", U"原谅", U"理解", U"疏忽", U"抱歉", U"不好意思", U"对不起", U"不便", U"赔个不是",
                          U"努力完善", U"改进", U"不要担心", U"别担心", U"别急", U"慢慢来", U"一直在", U"不打扰"});
}

// A form's field (申请时间:[日期][时间]): a label and a colon before a placeholder tells a reader nothing.
bool is_form_field(std::u32string_view text) {
  const std::size_t colon = std::min(text.find(U':'), text.find(U'\uFF1A'));
  return colon != std::u32string_view::npos && text.find(U'[', colon) != std::u32string_view::npos;
}

// The first agent unit after unit `last`, within `reach` units of it, that passes `replies`, before the
// customer says anything selectable again (what follows that answers it, not `last`); -1 when none, or when
// it says again what a shown agent unit says (says_again).
template <class Test>
int first_reply_after(const Context& c, const std::vector<int>& units, std::size_t last, std::size_t reach,
                      Test replies) {
  for (std::size_t v = last + 1; v < c.p.units.size() && v <= last + reach; ++v) {
    if (c.p.units[v].speaker == text::Speaker::customer) {
      if (c.selectable[v]) return -1;
      continue;
    }
    if (replies(v)) return says_again(c, units, static_cast<int>(v)) ? -1 : static_cast<int>(v);
  }
  return -1;
}

// en: whether a word (lower case) addresses the reader before a tweet's matter: hi, hey, hello, there.
bool addresses(std::string_view lower) {
  return lower == "hi" || lower == "hey" || lower == "hello" || lower == "there";
}

// en: whether agent unit v only apologizes, regrets, thanks, hopes, wishes or offers more help ("Sorry for
// the trouble!", "We sincerely apologize", "We regret that you are so upset", "Thanks for reaching out.",
// "We hope this helps.", "Let us know if you need anything else.", "Feel free to reach out", "Keep us
// posted", "Have a great weekend", "You're most welcome"): past addressing, it opens with such a formula,
// or with a subject (we, I, we're, we'd, …, then am/are/would/be and adverbs: really, so, sincerely) and
// one of those a subject takes (sorry, apologize, thank, hope, glad, happy, regret, welcome).
bool only_courtesy(const Prepared& p, std::size_t v) {
  static constexpr auto kOpenings = std::to_array<std::string_view>(
      {"sorry", "apologies", "thanks", "thank", "cheers", "ty", "hope", "glad", "welcome", "let", "feel", "keep",
       "have", "enjoy", "fingers"});
  static constexpr auto kSubjects = std::to_array<std::string_view>(
      {"we", "i", "we're", "i'm", "we’re", "i’m", "we'd", "i'd", "we’d", "i’d", "you're", "you’re", "your"});
  static constexpr auto kBetween = std::to_array<std::string_view>(
      {"are", "am", "do", "would", "be", "really", "so", "very", "sincerely", "truly", "deeply", "most"});
  static constexpr auto kAfterSubject = std::to_array<std::string_view>(
      {"sorry", "apologise", "apologize", "thank", "hope", "glad", "happy", "regret", "welcome", "appreciate"});
  std::vector<std::string_view> words;
  for (const text::Token& t : p.unit_tokens[v])
    if (t.kind == text::TokenKind::word && !addresses(t.lower)) words.push_back(t.lower);
  if (words.empty() || reported::contains(kOpenings, words[0])) return true;
  // "That's good news", "That's great to hear", "That's a great device".
  static constexpr auto kGood = std::to_array<std::string_view>({"good", "great", "awesome", "brilliant", "fantastic"});
  if (words[0] == "that's" || words[0] == "that’s") {
    const std::size_t good = words.size() > 2 && (words[1] == "a" || words[1] == "so" || words[1] == "really") ? 2 : 1;
    if (good < words.size() && reported::contains(kGood, words[good])) return true;
  }
  if (!reported::contains(kSubjects, words[0])) return false;
  std::size_t at = 1;
  while (at < words.size() && reported::contains(kBetween, words[at])) ++at;
  return at < words.size() && reported::contains(kAfterSubject, words[at]);
}

// en: whether unit v ends on "here", pointing to a link the summary does not show ("You can find that
// information here").
bool points_to_a_link(const Prepared& p, std::size_t v) {
  const auto& tokens = p.unit_tokens[v];
  for (auto t = tokens.rbegin(); t != tokens.rend(); ++t)
    if (t->kind == text::TokenKind::word) return t->lower == "here";
  return false;
}

// en: whether customer unit u only thanks, praises or wishes well ("Really appreciate your help!", "Great
// customer service!", "Sweeeet!"): it holds a positive feeling and no negative one. It needs no reply.
bool only_positive(const Prepared& p, std::size_t u) {
  bool positive = false;
  for (std::size_t m = 0; m < p.mentions.size(); ++m) {
    if (static_cast<std::size_t>(p.mention_unit[m]) != u) continue;
    if (p.mentions[m].polarity == text::Polarity::negative) return false;
    positive = positive || p.mentions[m].polarity == text::Polarity::positive;
  }
  return positive;
}

}  // namespace

bool opens_with_a_pronoun(const Prepared& p, std::size_t v) {
  static constexpr std::string_view kPointing[] = {"they", "it", "that", "this", "those", "these", "he", "she", "them"};
  for (const text::Token& t : p.unit_tokens[v]) {
    if (t.kind != text::TokenKind::word) continue;
    if (addresses(t.lower)) continue;
    return std::find(std::begin(kPointing), std::end(kPointing), t.lower) != std::end(kPointing);
  }
  return false;
}

namespace {

// zh: whether agent unit v, `shown` as rendered, can stand as a reply (last_reply, answer_to_question):
// selectable, asking nothing, kLastReplyMinLetters letters as written and kLastReplyMinRenderedLetters as
// shown, no mere wait or request for details, closing, apology or form field.
bool replies_zh(const Context& c, std::size_t v, std::u32string_view shown) {
  if (!c.selectable[v] || asks(c, v) || c.letters[v] < kLastReplyMinLetters) return false;
  const std::u32string_view text = source_of(c, v);
  if (answers_nothing(text) || closes_or_apologizes(text) || is_form_field(text)) return false;
  // Deletion may leave a bare verb of it (好的呢这边为您记录 -> 记录), which tells nothing.
  return std::count_if(shown.begin(), shown.end(), [](char32_t cp) { return text::is_cjk(cp); }) >=
         kLastReplyMinRenderedLetters;
}

std::vector<char32_t> shown_cps(const Context& c, std::size_t v) {
  return text::decode_utf8(c.rendered(v), text::Utf8Mode::lossy).cps;
}

}  // namespace

int last_reply(const Context& c, const std::vector<int>& units) {
  const Prepared& p = c.p;
  if (units.empty()) return -1;
  const auto last = static_cast<std::size_t>(*std::max_element(units.begin(), units.end()));
  if (p.units[last].speaker != text::Speaker::customer) return -1;
  if (p.lang == Lang::en) {
    // A question is answer_to_last_question's; "Working now" and thanks need no reply.
    if (asks(c, last) || reports_resolution(p.units[last].text) || only_positive(p, last)) return -1;
    return first_reply_after(c, units, last, kLastReplyReach, [&](std::size_t v) {
      return c.selectable[v] && !asks(c, v) && c.letters[v] >= kEnglishLastReplyMinWords && !opens_with_a_pronoun(p, v) &&
             !only_courtesy(p, v) && !points_to_a_link(p, v) && !render::continues_previous_tweet(p, v);
    });
  }
  return first_reply_after(c, units, last, kLastReplyReach, [&](std::size_t v) {
    const std::vector<char32_t> shown = shown_cps(c, v);
    return replies_zh(c, v, {shown.data(), shown.size()});
  });
}

void add_last_reply(const Context& c, ConstrainedSelection& s) {
  if (!c.options.skip_fillers || c.p.lang != Lang::zh) return;
  add_below_cap(c, s, last_reply(c, s.units));
}

int answer_to_question(const Context& c, const std::vector<int>& units, std::size_t q) {
  const Prepared& p = c.p;
  if (p.lang != Lang::zh || p.units[q].speaker != text::Speaker::customer || !asks(c, q)) return -1;
  // Followed in the summary by an agent line, it has its answer (or a reply).
  int next = -1;
  for (int u : units)
    if (u > static_cast<int>(q) && (next < 0 || u < next)) next = u;
  if (next >= 0 && p.units[static_cast<std::size_t>(next)].speaker == text::Speaker::agent) return -1;
  // More than the last reply's floor: a sentence of its own (not 了解意思, 为了享受更好的服务), mostly
  // Chinese (not a product's title pasted as the answer to which one: 飞科FLYCO)FS[数字]全身水洗电动剃须刀).
  return first_reply_after(c, units, q, kLastReplyReach, [&](std::size_t v) {
    const std::vector<char32_t> cps = shown_cps(c, v);
    const std::u32string_view shown(cps.data(), cps.size());
    if (!replies_zh(c, v, shown)) return false;
    std::size_t cjk = 0, latin = 0;
    for (char32_t cp : shown) {
      cjk += text::is_cjk(cp);
      latin += text::is_latin_letter(cp) || text::is_digit(cp);
    }
    return cjk >= kAnswerMinLetters && latin * 4 <= cjk && !shown.starts_with(U"为了") && !shown.starts_with(U"了解");
  });
}

void add_answers_to_questions(const Context& c, ConstrainedSelection& s) {
  if (!c.options.skip_fillers || c.p.lang != Lang::zh) return;
  std::vector<int> questions = s.units;
  std::sort(questions.begin(), questions.end());
  for (int q : questions) add_below_cap(c, s, answer_to_question(c, s.units, static_cast<std::size_t>(q)));
}

void add_english_last_reply(const Context& c, ConstrainedSelection& s) {
  if (!c.options.skip_fillers || c.p.lang != Lang::en) return;
  add_below_cap(c, s, last_reply(c, s.units));
}

namespace {

// en: the words of a unit that can carry its matter, cut to their first five letters so that a verb
// and its noun meet ("complain" / "complaint", "refund" / "refunded"): words of four letters or more
// that are not among the most common.
std::vector<std::string> content_stems(const std::vector<text::Token>& tokens) {
  static constexpr std::string_view kCommon[] = {"this", "that", "there", "their", "they", "them", "then", "than", "what",
                                                 "when", "where", "which", "will", "would", "could", "should", "have",
                                                 "with", "from", "your", "yours", "about", "just", "please", "thanks",
                                                 "thank", "here", "some", "been", "were", "does", "doing", "know",
                                                 "want", "like", "still", "also", "into", "only", "very", "help"};
  std::vector<std::string> out;
  for (const text::Token& t : tokens) {
    if (t.kind != text::TokenKind::word || t.lower.size() < 4) continue;
    if (std::find(std::begin(kCommon), std::end(kCommon), t.lower) != std::end(kCommon)) continue;
    out.push_back(t.lower.substr(0, 5));
  }
  return out;
}

bool shares_a_stem(const std::vector<std::string>& a, const std::vector<std::string>& b) {
  return std::any_of(a.begin(), a.end(), [&](const std::string& w) { return std::find(b.begin(), b.end(), w) != b.end(); });
}

}  // namespace

int answer_to_last_question(const Context& c, const std::vector<int>& units) {
  const Prepared& p = c.p;
  if (p.lang != Lang::en || units.empty()) return -1;
  const auto last = static_cast<std::size_t>(*std::max_element(units.begin(), units.end()));
  if (p.units[last].speaker != text::Speaker::customer || !asks(c, last)) return -1;
  const std::vector<std::string> asked = content_stems(p.unit_tokens[last]);
  return first_reply_after(c, units, last, p.units.size(), [&](std::size_t v) {
    return c.selectable[v] && !asks(c, v) && c.letters[v] >= kAgentReplyMinWords && !opens_with_a_pronoun(p, v) &&
           shares_a_stem(asked, content_stems(p.unit_tokens[v]));
  });
}

void add_answer_to_last_question(const Context& c, ConstrainedSelection& s) {
  if (!c.options.skip_fillers) return;
  add_below_cap(c, s, answer_to_last_question(c, s.units));
}

int agent_reply(const Context& c, const std::vector<int>& units) {
  const Prepared& p = c.p;
  if (p.lang != Lang::en || units.empty()) return -1;
  for (int u : units)
    if (p.units[static_cast<std::size_t>(u)].speaker == text::Speaker::agent) return -1;
  int best = -1;
  for (std::size_t v = 0; v < p.units.size(); ++v) {
    if (p.units[v].speaker != text::Speaker::agent || !c.selectable[v] || c.letters[v] < kAgentReplyMinWords) continue;
    if (c.answers[v] >= 0 && !std::binary_search(units.begin(), units.end(), c.answers[v])) continue;
    if (opens_with_a_pronoun(p, v) && !std::binary_search(units.begin(), units.end(), static_cast<int>(v) - 1)) continue;
    if (best < 0 || c.scores.salience[v] > c.scores.salience[static_cast<std::size_t>(best)]) best = static_cast<int>(v);
  }
  return best;
}

void add_agent_reply(const Context& c, ConstrainedSelection& s) {
  if (!c.options.skip_fillers) return;
  std::vector<int> sorted = s.units;
  std::sort(sorted.begin(), sorted.end());
  add_below_cap(c, s, agent_reply(c, sorted));
}

}  // namespace kessel::summarize::decoding
