#include "summarize/reported_speech.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <string>
#include <string_view>

#include "kessel/text/utf8.h"
#include "summarize/reported_speech_words.h"

namespace kessel::summarize {

using namespace reported;  // NOLINT: the shared words of reported_speech_words.h

namespace {

// A second verb of the same subject after "and" / "but" agrees with it too: "I've had my phone since
// Thursday and still don't have my apps" -> "The customer has had their phone since Thursday and still
// doesn't have their apps". The scan from `from` stops at the sentence's end, at another subject, a
// modal, or an infinitive or clause that could own the verb ("I want you to fix it and call me", "we
// will go ahead and send"), and after 15 words. After an auxiliary ("we have sent a report but
// remember...") a bare base verb is an imperative as often, and stays.
template <typename WordAt>
void agree_coordinated_verb(std::span<const Token> t, const WordAt& word_at, std::vector<std::string>& out,
                            std::size_t from, bool after_auxiliary) {
  static constexpr auto kStops = std::to_array<std::string_view>(
      {"you", "u", "he", "she", "it", "they", "we", "i", "there", "who", "which", "that", "to", "if", "when",
       "because", "so", "or", "while", "until", "unless", "can", "could", "will", "would", "shall", "should",
       "may", "might", "must", "let's", "please"});
  if (contains(kAdverbs, word_at(from))) ++from;
  if (find_form(kSingular, word_at(from)) != nullptr) after_auxiliary = true;
  const std::size_t n = t.size();
  for (std::size_t j = from, words = 0; j < n && words < 15; ++j) {
    if (!is_word(t[j])) {
      if (t[j].text.find_first_of(".!?;:") != std::string::npos) return;
      continue;
    }
    ++words;
    const std::string w = word_at(j);
    if (contains(kStops, w)) return;
    if (w != "and" && w != "but") continue;
    std::size_t v = j + 1;
    if (contains(kAdverbs, word_at(v))) ++v;
    if (const Form* a = find_form(kSingular, word_at(v)); a != nullptr) {
      out[v] = styled(std::string(a->to), t[v], false, false);
    } else if (!after_auxiliary && contains(kBaseVerbs, word_at(v))) {
      out[v] = third_person(t[v]);
    }
    return;
  }
}

// The speaker's own first reference in a unit, named: "I'll record your feedback" -> "The agent will
// record the customer's feedback", not "they'll record their feedback" (whose feedback?). The first
// first-person word becomes "the customer" / "the agent" (with its verb agreeing: "I am" -> "the
// customer is", "I need" -> "the customer needs"), "my" -> "the customer's"; later ones stay "they" /
// "their", which now have an antecedent. An agent's "your" before any "the customer" becomes "the
// customer's".
void name_first_reference(std::span<const Token> t, text::Speaker speaker, const std::vector<char>& forced,
                          const std::vector<std::string>& key, std::vector<std::string>& out) {
  const std::string self = speaker == text::Speaker::agent ? "the agent" : "the customer";
  const std::size_t n = t.size();
  auto word_at = [&](std::size_t j) -> std::string {
    return j < n && is_word(t[j]) && !forced[j] ? key[j] : std::string();
  };
  bool customer_named = false;
  bool self_named = false;
  // A third person the speaker names after naming themself ("I've spoken to the management and they
  // informed me") makes a later "them" / "their" for the speaker ambiguous: the speaker is named again.
  static constexpr auto kThirdPersons = std::to_array<std::string_view>({"they", "them", "their", "he", "she", "him", "her"});
  bool other_person_since = false;
  for (std::size_t i = 0; i < n; ++i) {
    if (self_named && out[i].empty() && !key[i].empty() && contains(kThirdPersons, key[i])) other_person_since = true;
    if (self_named && other_person_since && !out[i].empty() &&
        (key[i] == "me" || key[i] == "us" || key[i] == "my" || key[i] == "mine")) {
      self_named = false;  // named again below, as an object or a possessive
      other_person_since = false;
    }
    if (out[i].empty() || key[i].empty()) continue;
    const std::string& k = key[i];
    if (out[i].find("the customer") != std::string::npos) customer_named = true;
    if (speaker == text::Speaker::agent && (k == "your" || k == "yours") && !customer_named) {
      out[i] = styled("the customer's", t[i], starts_sentence(t, i), false);
      customer_named = true;
      continue;
    }
    if (self_named || find_form(kFirstPerson, k) == nullptr) continue;
    const Form* f = find_form(kNamedSelf, k);
    if (f == nullptr) continue;  // myself, ourselves: reflexive, after a subject
    // An agent's "our" is the company's (our store, our team, our website), as reported_forms wrote it;
    // the agent is named by their next first-person word.
    if (speaker == text::Speaker::agent && (k == "our" || k == "ours")) {
      if (starts_sentence(t, i) && out[i][0] == 't') out[i][0] = 'T';
      continue;
    }
    // So is an agent's "us" that a customer has something with or chose ("video services with us", "thanks
    // for contacting us"): "with the agent" would make the service the agent's own. Not "bear with us",
    // "share with us", "reach out to us": the agent is who will answer.
    static constexpr auto kCompanyAfter = std::to_array<std::string_view>({"with", "contacting", "choosing", "joining"});
    static constexpr auto kPersonalWith = std::to_array<std::string_view>(
        {"bear", "share", "shares", "check", "speak", "talk", "chat", "connect", "touch", "follow", "work"});
    if (speaker == text::Speaker::agent && k == "us" && i > 0 && contains(kCompanyAfter, word_at(i - 1)) &&
        !(word_at(i - 1) == "with" && i > 1 && contains(kPersonalWith, word_at(i - 2)))) {
      out[i] = styled("the company", t[i], false, false);
      continue;
    }
    // A subject whose verb is an emotion mention, which is never rewritten ("I hate it"): "they hate
    // it" agrees, "the customer hate it" would not. The unit then stays with "they" throughout, so
    // that no later "the customer's" reads as someone else.
    if ((k == "i" || k == "we") && i + 1 < n && forced[i + 1]) {
      self_named = true;
      continue;
    }
    const bool pronoun_i = k[0] == 'i';  // "I" is written in capitals anywhere; "the customer" is not
    out[i] = styled(self + std::string(f->to), t[i], starts_sentence(t, i), pronoun_i, pronoun_i && among_capitals(t, i));
    if (starts_sentence(t, i) && out[i][0] == 't') out[i][0] = 'T';
    self_named = true;
    if (speaker == text::Speaker::customer) customer_named = true;
    static constexpr auto kAgreeingSubjects =
        std::to_array<std::string_view>({"i", "we", "i'm", "im", "we're", "i've", "ive", "we've"});
    // Not in a question, where an auxiliary before the subject carries the tense ("Shall I cancel it and
    // process a refund").
    static constexpr auto kInverting = std::to_array<std::string_view>(
        {"can", "could", "will", "would", "shall", "should", "may", "might", "must", "do", "did", "does", "am", "are",
         "was", "were", "have", "had"});
    if (contains(kAgreeingSubjects, k) && !contains(kInverting, word_at(i >= 1 ? i - 1 : n)))
      agree_coordinated_verb(t, word_at, out, i + 1, k != "i" && k != "we");
    if (k != "i" && k != "we") continue;
    // The verb agrees with the singular noun: "I am" / "we are" -> "is", "I was" -> "was", "we have"
    // -> "has", "I need" -> "needs"; an inverted "am I" / "are we" -> "is".
    const std::size_t next = i + 1, prev = i >= 1 ? i - 1 : n;
    // After a modal the verb stays a base form: "what should I do" -> "what should the customer do".
    static constexpr auto kModals = std::to_array<std::string_view>(
        {"can", "could", "will", "would", "shall", "should", "may", "might", "must"});
    if (contains(kModals, word_at(prev))) continue;
    if (const Form* a = find_form(kSingular, word_at(next)); a != nullptr) {
      out[next] = styled(std::string(a->to), t[next], false, false);
    } else if (const Form* q = find_form(kSingular, word_at(prev)); q != nullptr && !contains(kBaseAfter, word_at(next))) {
      out[prev] = styled(std::string(q->to), t[prev], starts_sentence(t, prev), false);
    } else {
      std::size_t v = next;
      if (v < n && contains(kAdverbs, key[v])) ++v;  // an adverb is skipped, an emotion word too ("seriously")
      if (contains(kBaseVerbs, word_at(v)) && !contains(kBaseAfter, word_at(prev))) out[v] = third_person(t[v]);
    }
  }
}



}  // namespace

std::vector<std::string> reported_forms(std::span<const Token> t, text::Speaker speaker,
                                        const std::vector<char>& forced, const std::vector<char>& kept) {
  const std::size_t n = t.size();
  std::vector<std::string> out(n);
  std::vector<std::string> key(n);
  for (std::size_t i = 0; i < n; ++i)
    if (is_word(t[i]) && (kept.empty() || kept[i])) key[i] = key_of(t[i]);
  // A neighbouring word that may still be rewritten ("" when there is none: punctuation, the unit's
  // edge, an emotion mention).
  auto word_at = [&](std::size_t j) -> const std::string& {
    static const std::string none;
    return j < n && is_word(t[j]) && !forced[j] ? key[j] : none;
  };
  auto set = [&](std::size_t j, std::string_view to, bool pronoun_i = false) {
    out[j] = styled(std::string(to), t[j], starts_sentence(t, j), pronoun_i, pronoun_i && among_capitals(t, j));
  };

  bool first_person = false;  // a first-person word was rewritten
  // A sentence that opens with "To me" or "For me" gives the speaker's view: reported, "The agent says to
  // the agent customer service is…" read as said to them (TweetSumm valid 44bd3dc7). The position of its
  // "me", or n.
  std::size_t opinion = n;
  for (std::size_t i = 0; i < n; ++i) {
    if (key[i].empty() || forced[i]) continue;
    const std::string& k = key[i];
    if (const Form* f = find_form(kFirstPerson, k)) {
      if (k == "us" && t[i].text == "US") continue;              // the country
      if ((k == "im" || k == "ive") && all_upper(t[i].text)) continue;  // IM, IVE: not pronouns
      if (k == "my" && i >= 1 && word_at(i - 1) == "oh") continue;     // "oh my"
      if (is_brand_pronoun(t, i)) continue;                           // "visit My Idea store"
      if (k == "i" && i >= 1 && (word_at(i - 1) == "the" || word_at(i - 1) == "an")) continue;  // "the I" icon
      const bool pronoun_i = k == "i" || k == "i'm" || k == "im" || k == "i've" || k == "ive" || k == "i'll" ||
                             k == "i'd";
      const bool ours = speaker == text::Speaker::agent && (k == "our" || k == "ours");
      // "our company's policy" -> "the company's policy", not "the company's company's policy"; "our call"
      // (the agent's with the customer) -> "the call", not "the company's call".
      const std::string& next = word_at(i + 1);
      static constexpr auto kShared = std::to_array<std::string_view>(
          {"company", "company's", "companys", "call", "conversation", "chat", "telecon", "discussion", "talk"});
      if (k == "me" && i >= 1 && (word_at(i - 1) == "to" || word_at(i - 1) == "for") && starts_sentence(t, i - 1) &&
          i + 1 < n && is_word(t[i + 1]))
        opinion = i;
      if (ours && k == "our" && contains(kShared, next)) {
        set(i, "the");
      } else {
        set(i, ours ? "the company's" : f->to, pronoun_i);
      }
      first_person = true;
      if (k == "i") {  // "I am" / "I was", "am I" / "was I"
        for (std::size_t j : {i + 1, i >= 1 ? i - 1 : n}) {
          const std::string& v = word_at(j);
          if (v == "am") set(j, "are");
          if (v == "was") set(j, "were");
        }
      }
    }
  }
  // Second person: an agent's "you" is the customer; a customer's is the company, rewritten only in a
  // unit that is reported anyway (it has a first-person word): elsewhere the unit stays a labelled quote,
  // where "you" is clear, and a generic "you" ("Raise your hand if ...") is not misread as the company.
  const bool agent = speaker == text::Speaker::agent;
  const bool second_person = agent || first_person;
  for (std::size_t i = 0; i < n; ++i) {
    if (!second_person || key[i].empty() || forced[i]) continue;
    const std::string& k = key[i];
    const Form* f = find_form(agent ? kSecondPerson : kCompanySecondPerson, k);
    if (f == nullptr || is_brand_pronoun(t, i)) continue;
    // Texting's "u" and "ur" only as written in lower case: "U.S." and "UR" are no pronouns.
    if ((k == "u" || k == "ur") && t[i].text != k) continue;
    const bool you = k == "you" || k == "u";
    // The words next to this one (the tokenizer keeps no white space, so they are i - 1 and i + 1).
    const std::size_t next = i + 1, prev = i >= 1 ? i - 1 : n;
    const std::string& after = word_at(next);
    const std::string& behind = word_at(prev);
    // "thank you" is said, not reported; "to thank you for" reports it ("would like to thank the company").
    if (you && behind == "thank" && (agent || prev == 0 || word_at(prev - 1) != "to")) continue;
    if (!agent && you && (contains(kCustomerYouKept, after) || behind == "see" || behind == "love" ||
                          (after == "know" && (next + 1 >= n || !is_word(t[next + 1])))))
      continue;
    const bool group = !agent && you && contains(kGroupAddress, after);
    if (group) {
      set(i, "the");
      out[next] = styled("company", t[next], false, false);
    } else {
      set(i, f->to);
    }
    if (!you) continue;
    // Subject-verb agreement, with the word after the subject's last word.
    const std::size_t verb = group ? next + 1 : next;
    if (const Form* a = find_form(kAgreement, word_at(verb)); a != nullptr && !contains(kBaseAfter, behind)) {
      set(verb, a->to);
    } else if (const Form* q = find_form(kAgreement, behind); q != nullptr) {
      // "are you", "do you": a question. "have you" only where a question starts ("Have you tried",
      // "how long have you had"), not in "we have you booked".
      const bool object_reading = q->from == "have" || q->from == "haven't";
      const bool question_start = prev == 0 || !is_word(t[prev - 1]) || contains(kQuestionLead, key[prev - 1]);
      if (!object_reading || question_start) set(prev, q->to);
    } else if (!contains(kBaseAfter, behind)) {
      std::size_t v = verb;
      if (v < n && contains(kAdverbs, key[v])) ++v;  // an adverb is skipped, an emotion word too ("seriously")
      if (contains(kBaseVerbs, word_at(v))) out[v] = third_person(t[v]);
    }
  }
  name_first_reference(t, speaker, forced, key, out);
  if (opinion < n) {
    set(opinion - 1, "in");
    out[opinion] = speaker == text::Speaker::agent ? "the agent's view" : "the customer's view";
  }
  return out;
}

bool opens_with_any(std::string_view body, std::initializer_list<std::string_view> leads) {
  for (std::string_view lead : leads) {
    if (body.size() < lead.size()) continue;
    bool same = true;
    for (std::size_t i = 0; i < lead.size() && same; ++i)
      same = std::tolower(static_cast<unsigned char>(body[i])) == static_cast<unsigned char>(lead[i]);
    if (same) return true;
  }
  return false;
}

bool names_a_speaker(std::string_view body) {
  static constexpr auto kThirdPersonWords = std::to_array<std::string_view>({"they", "them", "their", "theirs", "themselves"});
  const std::string lower = text::ascii_lower(body);
  if (lower.find("the customer") != std::string::npos || lower.find("the agent") != std::string::npos) return true;
  std::size_t start = 0;
  for (std::size_t i = 0; i <= lower.size(); ++i) {
    if (i < lower.size() && std::isalpha(static_cast<unsigned char>(lower[i]))) continue;
    const std::string_view word = std::string_view(lower).substr(start, i - start);
    if (contains(kThirdPersonWords, word)) return true;
    start = i + 1;
  }
  return false;
}


namespace {

// The first word of `text` in lower case (letters and apostrophes), and where the text after it starts.
std::string_view first_word(std::string_view text, std::size_t* after) {
  std::size_t b = 0;
  while (b < text.size() && !std::isalpha(static_cast<unsigned char>(text[b]))) ++b;
  std::size_t e = b;
  while (e < text.size() && (std::isalpha(static_cast<unsigned char>(text[e])) || text[e] == '\'')) ++e;
  *after = e;
  return text.substr(b, e - b);
}

}  // namespace

bool opens_with_a_bare_pronoun(std::string_view body) {
  // Past what opens it without a word: emoji, marks, spaces ("🤤 they give up!!").
  std::size_t at = 0;
  while (at < body.size() && !std::isalnum(static_cast<unsigned char>(body[at]))) ++at;
  return opens_with_any(body.substr(at), {"they ", "they'", "they’", "their "});
}

bool reports_two_sentences(std::string_view body) {
  // Titles and initials whose stop is no sentence's end ("Mr. Smith", "St. Pancras").
  static constexpr std::string_view kTitles[] = {"mr", "mrs", "ms", "dr", "st", "jr", "sr", "vs", "no"};
  for (std::size_t i = 1; i + 2 < body.size(); ++i) {
    const char c = body[i];
    if (c != '.' && c != '!' && c != '?') continue;
    if (body[i + 1] != ' ' || !std::isupper(static_cast<unsigned char>(body[i + 2]))) continue;
    std::size_t w = i;  // the word before the mark, past the marks of an ellipsis or a "!!!"
    while (w > 0 && (body[w - 1] == '.' || body[w - 1] == '!' || body[w - 1] == '?')) --w;
    std::size_t start = w;
    while (start > 0 && std::isalpha(static_cast<unsigned char>(body[start - 1]))) --start;
    const std::string word = text::ascii_lower(body.substr(start, w - start));
    if (word.size() <= 1 && w == i) continue;  // an initial ("J. Smith")
    if (std::find(std::begin(kTitles), std::end(kTitles), word) != std::end(kTitles)) continue;
    return true;
  }
  return false;
}

bool reports_a_customer_apology(std::string_view body) {
  return opens_with_any(body, {"the customer is sorry", "the customer is so sorry", "the customer is very sorry",
                               "the customer apologi"});
}

bool reads_as_command(std::string_view body) {
  static constexpr auto kCommands = std::to_array<std::string_view>(
      {"let's", "lets", "let", "please", "pls", "plz", "do", "don't", "go", "reach", "be", "come", "thanks", "thank", "sorry",
       "kindly", "dm", "follow", "try", "check", "feel", "just", "click", "tap", "send", "visit", "contact", "call",
       "head", "keep", "make", "apologies"});
  static constexpr auto kOpeners = std::to_array<std::string_view>({"if", "when", "once", "going", "in", "should"});
  const std::string lower = text::ascii_lower(body);
  std::string_view rest(lower);
  std::size_t after = 0;
  std::string_view word = first_word(rest, &after);
  // An opening condition or "Going forward," before the main clause: look past its comma.
  if (contains(kOpeners, word)) {
    const std::size_t comma = rest.find(',');
    if (comma == std::string_view::npos) return false;
    word = first_word(rest.substr(comma + 1), &after);
  }
  return contains(kCommands, word);
}

}  // namespace kessel::summarize
