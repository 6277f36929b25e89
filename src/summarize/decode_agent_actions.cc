// What the agent did for an English-speaking customer (decode_parts.h: reports_agent_action, reports_done,
// agent_outcome, closing_action): a summary that shows the complaint and a request for details, and not
// "We have reversed the transaction", leaves out what a lead most wants to know.
#include <algorithm>
#include <array>
#include <string>

#include "decode_parts.h"
#include "render.h"
#include "reported_speech_words.h"

namespace kessel::summarize::decoding {

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
