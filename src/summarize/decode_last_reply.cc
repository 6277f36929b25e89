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

// en: whether unit v opens (past its addressing and salutation) with a pronoun that points back to
// something said before it ("They would be best to advise.", "That should fix it.").
bool opens_with_a_pronoun(const Prepared& p, std::size_t v) {
  static constexpr std::string_view kPointing[] = {"they", "it", "that", "this", "those", "these", "he", "she", "them"};
  for (const text::Token& t : p.unit_tokens[v]) {
    if (t.kind != text::TokenKind::word) continue;
    if (t.lower == "hi" || t.lower == "hey" || t.lower == "hello" || t.lower == "there") continue;
    return std::find(std::begin(kPointing), std::end(kPointing), t.lower) != std::end(kPointing);
  }
  return false;
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

// en: whether agent unit v only apologizes, regrets, thanks, hopes, wishes or offers more help ("Sorry for
// the trouble!", "We sincerely apologize", "We regret that you are so upset", "Thanks for reaching out.",
// "We hope this helps.", "Let us know if you need anything else.", "Feel free to reach out", "Keep us
// posted", "Have a great weekend", "You're most welcome"): past addressing, it opens with such a formula,
// or with a subject (we, I, we're, we'd, …, then am/are/would/be and adverbs: really, so, sincerely) and
// one of those a subject takes (sorry, apologize, thank, hope, glad, happy, regret, welcome).
bool only_courtesy(const Prepared& p, std::size_t v) {
  static constexpr auto kGreetings = std::to_array<std::string_view>({"hi", "hey", "hello", "there"});
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
    if (t.kind == text::TokenKind::word && !reported::contains(kGreetings, t.lower)) words.push_back(t.lower);
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

// en: whether customer unit u only thanks, praises or wishes well ("Really appreciate your help!", "Great
// customer service!", "Sweeeet!"): it holds a positive feeling and no negative one. It needs no reply.
// en: whether unit v ends on "here", pointing to a link the summary does not show ("You can find that
// information here").
bool points_to_a_link(const Prepared& p, std::size_t v) {
  const auto& tokens = p.unit_tokens[v];
  for (auto t = tokens.rbegin(); t != tokens.rend(); ++t)
    if (t->kind == text::TokenKind::word) return t->lower == "here";
  return false;
}

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
    if (!c.selectable[v] || asks(c, v) || c.letters[v] < kLastReplyMinLetters) return false;
    const std::u32string_view text = source_of(c, v);
    return !answers_nothing(text) && !closes_or_apologizes(text) && !is_form_field(text);
  });
}

void add_last_reply(const Context& c, ConstrainedSelection& s) {
  if (!c.options.skip_fillers || c.p.lang != Lang::zh) return;
  add_below_cap(c, s, last_reply(c, s.units));
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

namespace {

// en: the services an agent reports doing for the customer, in the forms the rules read: `base` after
// "we'll" ("we'll refund"), `past` after "we've" or "has been" ("we've refunded", "has been refunded"), and
// `offer` after "we can" ("we can certainly refund you") where the offer is itself the outcome. An empty
// form is one that misleads: "we'll need your email" asks for one; "noted" is absent, since "we've noted
// your concern" is a holding reply; "aware" stands for "has been made aware".
struct Service {
  std::string_view base, past, offer;
};
constexpr Service kServices[] = {
    {"pass", "passed", ""},          {"escalate", "escalated", ""}, {"refund", "refunded", "refund"},
    {"send", "sent", ""},            {"resend", "resent", "resend"}, {"forward", "forwarded", ""},
    {"share", "shared", ""},         {"report", "reported", ""},   {"raise", "raised", ""},
    {"log", "logged", ""},           {"flag", "flagged", ""},      {"credit", "credited", "credit"},
    {"replace", "replaced", "replace"}, {"fix", "fixed", ""},      {"cancel", "cancelled", ""},
    {"cancel", "canceled", ""},      {"arrange", "arranged", ""},  {"process", "processed", ""},
    {"reach", "reached", ""},        {"contact", "contacted", ""}, {"follow", "followed", ""},
    {"investigate", "investigated", ""}, {"update", "updated", ""}, {"reverse", "reversed", "reverse"},
    {"", "issued", ""},              {"apply", "applied", ""},     {"remove", "removed", ""},
    {"resolve", "resolved", ""},     {"book", "booked", ""},       {"rebook", "rebooked", "rebook"},
    {"change", "changed", ""},       {"waive", "waived", "waive"}, {"reinstate", "reinstated", ""},
    {"restore", "restored", ""},     {"unlock", "unlocked", ""},   {"reactivate", "reactivated", ""},
    {"submit", "submitted", ""},     {"correct", "corrected", ""}, {"adjust", "adjusted", ""},
    {"reset", "reset", ""},          {"", "emailed", ""},          {"", "aware", ""}};

// Whether `word` is a service's `form` (Service::base, past or offer).
bool names_a_service(std::string_view word, std::string_view Service::*form) {
  return !word.empty() && std::any_of(std::begin(kServices), std::end(kServices),
                                      [&](const Service& s) { return s.*form == word; });
}

}  // namespace

bool reports_agent_action(const std::vector<text::Token>& tokens) {
  // A subject with its auxiliary: one word ("we'll") or two ("we will").
  static constexpr auto kSubjects =
      std::to_array<std::string_view>({"we'll", "we’ll", "we've", "we’ve", "i'll", "i’ll", "i've", "i’ve"});
  static constexpr auto kPronouns = std::to_array<std::string_view>({"we", "i"});
  static constexpr auto kAuxiliaries = std::to_array<std::string_view>({"will", "have"});
  std::vector<std::string_view> words;
  for (const text::Token& t : tokens)
    if (t.kind == text::TokenKind::word) words.push_back(t.lower);
  for (std::size_t i = 0; i < words.size(); ++i) {
    std::size_t after = 0;  // the words of the subject and its auxiliary
    if (reported::contains(kSubjects, words[i])) after = 1;
    else if (i + 1 < words.size() && reported::contains(kPronouns, words[i]) && reported::contains(kAuxiliaries, words[i + 1]))
      after = 2;
    if (after == 0) continue;
    // The verb within three words ("we'll be passing", "we'll get this passed on", "I'll have someone
    // reach out"), before any "you": "we'll need you to send" is the customer's step.
    for (std::size_t j = i + after; j < words.size() && j <= i + after + 2; ++j) {
      if (words[j] == "not" || words[j] == "never" || words[j] == "you") break;
      if (names_a_service(words[j], &Service::base) || names_a_service(words[j], &Service::past) || words[j] == "passing")
        return true;
    }
  }
  return false;
}

bool reports_done(const std::vector<text::Token>& tokens) {
  // "we've" or "I have" (with a few words between: "we have now", "I've gone ahead and"), or "has been" /
  // "have been" (the refund has been processed), then a service done, within four words.
  static constexpr auto kPerfect = std::to_array<std::string_view>({"we've", "we’ve", "i've", "i’ve"});
  static constexpr auto kPronouns = std::to_array<std::string_view>({"we", "i"});
  std::vector<std::string_view> words;
  for (const text::Token& t : tokens)
    if (t.kind == text::TokenKind::word) words.push_back(t.lower);
  const auto done_within = [&](std::size_t from, std::string_view Service::*form) {
    for (std::size_t j = from; j < words.size() && j <= from + 3; ++j) {
      if (words[j] == "not" || words[j] == "never" || words[j] == "n't") return false;
      if (names_a_service(words[j], form)) return true;
    }
    return false;
  };
  for (std::size_t i = 0; i < words.size(); ++i) {
    const bool next = i + 1 < words.size();
    if (reported::contains(kPerfect, words[i]) && done_within(i + 1, &Service::past)) return true;
    if (next && reported::contains(kPronouns, words[i]) && words[i + 1] == "have" && done_within(i + 2, &Service::past)) return true;
    // "has been" or "have been", an adverb between allowed ("this has all been forwarded onto our depot"),
    // but not a guess ("they may have been booked by someone else"), a hope ("I hope the issue has now
    // been resolved") nor what is to be checked ("happy to check if a refund has been issued").
    static constexpr auto kModals = std::to_array<std::string_view>({"may", "might", "could", "would", "should", "must"});
    const bool guessed = i > 0 && reported::contains(kModals, words[i - 1]);
    static constexpr auto kUnsure = std::to_array<std::string_view>({"if", "whether", "hope", "hopefully", "think"});
    bool asked = false;  // or hoped: "I hope the issue has now been resolved"
    for (std::size_t k = i >= 4 ? i - 4 : 0; k < i; ++k) asked = asked || reported::contains(kUnsure, words[k]);
    if ((words[i] == "has" || words[i] == "have") && !guessed && !asked) {
      const std::size_t been = next && words[i + 1] == "been" ? i + 1 : i + 2 < words.size() && words[i + 2] == "been" ? i + 2 : 0;
      if (been > 0 && done_within(been + 1, &Service::past)) return true;
    }
    // An offer made ("we can certainly refund you"), not a condition ("we can't", "if we can").
    if (next && words[i] == "we" && words[i + 1] == "can" && !(i > 0 && words[i - 1] == "if") &&
        done_within(i + 2, &Service::offer))
      return true;
  }
  return false;
}

int agent_outcome(const Context& c, const std::vector<int>& units) {
  const Prepared& p = c.p;
  if (p.lang != Lang::en || units.empty()) return -1;
  for (int u : units) {
    const auto ux = static_cast<std::size_t>(u);
    if (p.units[ux].speaker == text::Speaker::agent &&
        (reports_done(p.unit_tokens[ux]) || reports_agent_action(p.unit_tokens[ux])))
      return -1;
  }
  int found = -1;
  for (std::size_t v = 0; v < p.units.size(); ++v)
    if (p.units[v].speaker == text::Speaker::agent && c.selectable[v] && !asks(c, v) &&
        c.letters[v] >= kAgentReplyMinWords && reports_done(p.unit_tokens[v]) && !opens_with_a_pronoun(p, v) &&
        (c.answers[v] < 0 || std::find(units.begin(), units.end(), c.answers[v]) != units.end()) &&
        !render::continues_previous_tweet(p, v))
      found = static_cast<int>(v);
  return found >= 0 && !says_again(c, units, found) ? found : -1;
}

void add_agent_outcome(const Context& c, ConstrainedSelection& s) {
  if (!c.options.skip_fillers) return;
  add_below_cap(c, s, agent_outcome(c, s.units));
}

int closing_action(const Context& c, const std::vector<int>& units) {
  const Prepared& p = c.p;
  if (p.lang != Lang::en || units.empty()) return -1;
  const auto last = static_cast<std::size_t>(*std::max_element(units.begin(), units.end()));
  if (p.units[last].speaker == text::Speaker::agent && !asks(c, last)) return -1;
  int found = -1;
  for (std::size_t v = last + 1; v < p.units.size(); ++v)
    if (p.units[v].speaker == text::Speaker::agent && c.selectable[v] && !asks(c, v) &&
        c.letters[v] >= kAgentReplyMinWords && reports_agent_action(p.unit_tokens[v]) &&
        !opens_with_a_pronoun(p, v) && c.answers[v] < 0 && !render::continues_previous_tweet(p, v))
      found = static_cast<int>(v);
  return found >= 0 && !says_again(c, units, found) ? found : -1;
}

void add_closing_action(const Context& c, ConstrainedSelection& s) {
  if (!c.options.skip_fillers) return;
  add_below_cap(c, s, closing_action(c, s.units));
}

}  // namespace kessel::summarize::decoding
