// English reported speech for whole sentences (reported_speech.h): an agent's request or question
// reported as one, a regret idiom dropped, and a customer's left-out "I" named.
#include <algorithm>
#include <array>
#include <string_view>

#include "summarize/reported_speech.h"
#include "summarize/reported_speech_words.h"

namespace kessel::summarize {

using namespace reported;  // NOLINT: the shared words of reported_speech_words.h

bool drop_regret_idiom(std::span<const Token> t, std::vector<char>& keep, const std::vector<char>& forced) {
  const std::size_t n = t.size();
  auto key_at = [&](std::size_t j) { return j < n && is_word(t[j]) ? key_of(t[j]) : std::string(); };
  // Drops tokens [from, to) unless one of them is forced (an expressed emotion); whether it did.
  auto drop = [&](std::size_t from, std::size_t to) {
    for (std::size_t j = from; j < to; ++j)
      if (forced[j]) return false;
    for (std::size_t j = from; j < to; ++j) keep[j] = 0;
    return true;
  };
  bool dropped = false;
  for (std::size_t i = 0; i < n; ++i) {
    // The subject and verb: "I'm" / "we're" as one token, or "I am" / "we are".
    const std::string k = key_at(i);
    std::size_t afraid = n;
    if (k == "i'm" || k == "im" || k == "we're") afraid = i + 1;
    else if ((k == "i" && key_at(i + 1) == "am") || (k == "we" && key_at(i + 1) == "are")) afraid = i + 2;
    if (afraid >= n || key_at(afraid) != "afraid") continue;
    std::size_t next = afraid + 1;
    while (next < n && (key_at(next) == "that" || t[next].text == ",")) ++next;
    const std::string after = key_at(next);
    // After a clause and at its end ("awful service tonight I'm afraid."), it regrets that clause,
    // and goes with the comma before it; before a clause it goes with the "that" and comma after it.
    const bool ends = next >= n || t[next].text == "." || t[next].text == "!" || t[next].text == "?";
    std::size_t from = i;
    if (ends && i > 0 && next == afraid + 1) {
      if (t[from - 1].text == ",") --from;
      if (from == 0 || !is_word(t[from - 1])) continue;
    } else if (after.empty() || after == "of" || after == "to" || after == "for" || after == "not" ||
               after == "so") {
      continue;
    }
    if (!drop(from, next)) continue;
    dropped = true;
    i = next - 1;
  }
  return dropped;
}

bool name_the_company(std::span<const Token> t, std::vector<char>& keep, std::vector<std::string>& forms,
                      const std::vector<char>& forced) {
  static constexpr std::string_view kCompanies[] = {"company", "business", "brand", "corporation", "organisation",
                                                    "organization", "retailer"};
  const std::size_t n = t.size();
  bool named = false;
  for (std::size_t i = 0; i + 3 < n; ++i) {
    if (!keep[i] || forced[i] || !is_word(t[i]) || key_of(t[i]) != "you") continue;
    bool plain = true;  // "as a company": three kept words, none an emotion mention
    for (std::size_t j = i + 1; j <= i + 3; ++j) plain = plain && keep[j] && !forced[j] && is_word(t[j]);
    if (!plain || key_of(t[i + 1]) != "as" || (key_of(t[i + 2]) != "a" && key_of(t[i + 2]) != "an")) continue;
    const std::string company = key_of(t[i + 3]);
    if (std::find(std::begin(kCompanies), std::end(kCompanies), company) == std::end(kCompanies)) continue;
    forms[i] = styled("the " + company, t[i], starts_sentence(t, i), false);
    for (std::size_t j = i + 1; j <= i + 3; ++j) keep[j] = 0;
    named = true;
  }
  return named;
}

// A request's closing "please" ("...the store you got these from please?"; ", please."): the report
// "The agent asks the customer to..." already says it, and left at its end it reads as a word too
// many. A comma before it goes with it.
void drop_closing_please(std::span<const Token> t, std::vector<char>& keep, const std::vector<char>& forced) {
  std::size_t last = t.size();
  while (last > 0 && (!keep[last - 1] || !is_word(t[last - 1]))) {
    if (keep[last - 1] && t[last - 1].text.find_first_of(".!?") == std::string::npos) return;  // not a stop
    --last;
  }
  if (last == 0 || key_of(t[last - 1]) != "please" || forced[last - 1]) return;
  keep[last - 1] = 0;
  std::size_t before = last - 1;
  while (before > 0 && !keep[before - 1]) --before;
  if (before > 0 && t[before - 1].text == "," && !forced[before - 1]) keep[before - 1] = 0;
}

// In a request reported as "The agent asks the customer to…", a later "we" or "I" of the agent's is no
// "they": both are named by then, and "DM the agent … and they'll be happy to look into this" leaves the
// reader to guess who will. The first such subject after the request (token position `from` on) is named
// "the agent", with its verb agreeing ("we'll" -> "the agent will", "we can" stays, "we are" -> "the
// agent is", "we need" -> "the agent needs").
void name_agent_after_request(std::span<const Token> t, const std::vector<char>& keep, std::vector<std::string>& forms,
                              const std::vector<char>& forced, std::size_t from) {
  // Subjects only: an object or possessive ("DM us", "our team") is the agent named already.
  static constexpr auto kSubjects = std::to_array<std::string_view>(
      {"we'll", "i'll", "we're", "i'm", "we've", "i've", "we'd", "i'd", "we", "i"});
  for (std::size_t i = from + 1; i < t.size(); ++i) {
    if (!keep[i] || !is_word(t[i]) || forced[i]) continue;
    const std::string k = key_of(t[i]);
    if (!contains(kSubjects, k)) continue;
    const Form* f = find_form(kNamedSelf, k);
    forms[i] = "the agent" + std::string(f->to);
    std::size_t v = i + 1;
    if (!f->to.empty() || v >= t.size() || !keep[v] || forced[v] || !is_word(t[v])) return;
    if (const Form* a = find_form(kSingular, key_of(t[v])); a != nullptr) {
      forms[v] = std::string(a->to);
    } else {
      if (contains(kAdverbs, key_of(t[v])) && v + 1 < t.size() && keep[v + 1] && !forced[v + 1]) ++v;
      if (contains(kBaseVerbs, key_of(t[v]))) forms[v] = third_person(t[v]);
    }
    return;
  }
}

// "DM us your account's email" reported is "DM their account's email": a DM, a message or an email in
// an agent's request goes to the agent, and "to DM the agent their account's email" leaves "their" to
// either of the two. The agent's "us" goes where something is sent after it; "DM us." keeps it (the
// agent).
void drop_us_after_a_message_verb(std::span<const Token> t, const std::vector<std::size_t>& k, std::size_t verb,
                                  std::vector<char>& keep, std::vector<std::string>& forms, const std::vector<char>& forced) {
  static constexpr auto kMessageVerbs =
      std::to_array<std::string_view>({"dm", "message", "pm", "send", "email", "e-mail", "tweet", "text", "inbox"});
  static constexpr auto kWhatIsSent = std::to_array<std::string_view>({"your", "a", "an", "the", "some", "any"});
  if (verb + 2 >= k.size() || !contains(kMessageVerbs, key_of(t[k[verb]])) || key_of(t[k[verb + 1]]) != "us" ||
      forced[k[verb + 1]] || !is_word(t[k[verb + 2]]) || !contains(kWhatIsSent, key_of(t[k[verb + 2]])))
    return;
  keep[k[verb + 1]] = 0;
  forms[k[verb + 1]].clear();  // no "the agent" named where nothing is written
}

namespace {

bool report_request_at_first_word(std::span<const Token> t, std::vector<char>& keep, std::vector<std::string>& forms,
                                  const std::vector<char>& forced) {
  // Named references, not a structured binding: clang 14 (the fuzz and TSan builds) cannot capture a
  // binding in the lambdas below.
  const KeptTokens kept = kept_tokens(t, keep);
  const std::vector<std::size_t>& k = kept.at;
  const std::size_t first = kept.first;
  if (first + 1 >= k.size()) return false;
  auto lower = [&](std::size_t at) { return at < k.size() ? key_of(t[k[at]]) : std::string(); };
  auto word_at = [&](std::size_t at) { return at < k.size() && is_word(t[k[at]]); };
  std::vector<std::size_t> replaced{first};  // token positions (in k) the lead replaces
  std::size_t verb = first + 1;
  auto asks = [](const std::string& w) { return w == "could" || w == "can" || w == "would"; };
  const std::string lead = lower(first);
  bool question = asks(lead);
  bool polite = lead == "please" || lead == "kindly";
  const bool question_mark = ends_in_question_mark(t, k);
  // "Please could you DM us?": the question form after the please ("to DM them", not "to could").
  if (polite && asks(lower(first + 1)) && lower(first + 2) == "you") {
    replaced.push_back(first + 1);
    replaced.push_back(first + 2);
    verb = first + 3;
    question = true;
  } else if (question) {
    if (lower(first + 1) != "you") return false;
    replaced.push_back(first + 1);
    verb = first + 2;
    if (lower(verb) == "please" || lower(verb) == "kindly") {
      replaced.push_back(verb++);
      polite = true;
    }
    if (lower(verb) == "like" && lower(verb + 1) == "to") {  // "would you like to DM us?"
      replaced.push_back(verb);
      replaced.push_back(verb + 1);
      verb += 2;
    }
    // A question form is a request when it ends in "?", says please ("Could you please DM us."), or
    // asks for one of the actions an agent asks for ("Can you DM us your full name.", "Can you unplug
    // the power cord to the cable box."; tweets often drop the "?").
    if (!question_mark && !polite && !contains(kImperatives, lower(verb))) return false;
  } else if (!polite) {
    // An imperative: the verb opens the unit and is the lead itself ("DM us your email").
    const bool imperative =
        contains(kImperatives, lead) ||
        (contains(kImperativesWithObject, lead) && contains(kObjectsAndParticles, lower(first + 1)));
    // "Let's" is the agent's own plan, not a request; a question is not an imperative.
    if (!imperative || t[k[first]].text.find('\'') != std::string::npos ||
        t[k[first]].text.find("\xE2\x80\x99") != std::string::npos || question_mark)
      return false;
    verb = first;
    replaced.clear();
  }
  if (!word_at(verb) || lower(verb) == "mind" || lower(verb) == "you") return false;
  if (lower(verb) == "be" && (!polite || contains(kNotAsked, lower(verb + 1)))) return false;
  for (std::size_t r : replaced)
    if (forced[k[r]]) return false;
  if (forced[k[verb]]) return false;
  drop_closing_please(t, keep, forced);
  drop_us_after_a_message_verb(t, k, verb, keep, forms, forced);
  if (replaced.empty()) {
    forms[k[verb]] = "The agent asks the customer to " + lowered_initial(t[k[verb]].text);  // "to send", "to DM"
    name_agent_after_request(t, keep, forms, forced, k[verb]);
    after_customer_named(forms, k[verb]);
    return true;
  }
  forms[k[first]] = "The agent asks the customer to";
  for (std::size_t r = 1; r < replaced.size(); ++r) keep[k[replaced[r]]] = 0;
  if (question && question_mark) forms[k.back()] = ".";
  name_agent_after_request(t, keep, forms, forced, k[verb]);
  after_customer_named(forms, k[first]);
  return true;
}

// Where a word that links the unit to what came before ends, with its comma ("However, please DM us…",
// "In the meantime, try…", "Alternatively, you can…"), or 0 when the unit opens with none.
std::size_t linking_lead_end(std::span<const Token> t, const std::vector<char>& keep, const std::vector<char>& forced) {
  static constexpr auto kOne = std::to_array<std::string_view>(
      {"however", "meanwhile", "also", "alternatively", "otherwise", "additionally", "so", "now", "ok", "okay"});
  std::size_t i = 0;
  while (i < t.size() && !keep[i]) ++i;
  auto word = [&](std::size_t j) { return j < t.size() && keep[j] && !forced[j] && is_word(t[j]); };
  if (word(i) && contains(kOne, key_of(t[i]))) {
    ++i;
  } else if (word(i) && word(i + 1) && word(i + 2) && key_of(t[i]) == "in" && key_of(t[i + 1]) == "the" &&
             key_of(t[i + 2]) == "meantime") {
    i += 3;
  } else {
    return 0;
  }
  return i < t.size() && t[i].text == "," ? i + 1 : 0;
}

}  // namespace

bool report_request(std::span<const Token> t, std::vector<char>& keep, std::vector<std::string>& forms,
                    const std::vector<char>& forced) {
  if (report_request_at_first_word(t, keep, forms, forced)) return true;
  // The request after a linking word: the report drops the word, which links to what the summary may not
  // show ("The agent says however, please DM the agent…" -> "The agent asks the customer to DM…").
  const std::size_t lead_end = linking_lead_end(t, keep, forced);
  if (lead_end == 0) return false;
  std::vector<char> without_lead = keep;
  for (std::size_t i = 0; i < lead_end; ++i) without_lead[i] = 0;
  std::vector<std::string> reformed = forms;
  if (!report_request_at_first_word(t, without_lead, reformed, forced)) return false;
  keep = std::move(without_lead);
  forms = std::move(reformed);
  return true;
}

bool report_question(std::span<const Token> t, std::vector<char>& keep, std::vector<std::string>& forms,
                     const std::vector<char>& forced) {
  // Named references, not a structured binding: clang 14 (the fuzz and TSan builds) cannot capture a
  // binding in the lambdas below.
  const KeptTokens kept = kept_tokens(t, keep);
  const std::vector<std::size_t>& k = kept.at;
  const std::size_t first = kept.first;
  if (first + 2 >= k.size() || !ends_in_question_mark(t, k)) return false;
  auto lower = [&](std::size_t at) { return at < k.size() && is_word(t[k[at]]) ? key_of(t[k[at]]) : std::string(); };
  // One question: no other sentence end before the final "?".
  for (std::size_t at = first; at + 1 < k.size(); ++at)
    if (t[k[at]].kind == text::TokenKind::punct && t[k[at]].text.find_first_of(".!?") != std::string::npos)
      return false;
  // The auxiliary: the first word, or after a wh-phrase of at most four words ("How long have you",
  // "What version of the app are you").
  std::size_t a = first;
  const bool wh = contains(kWhWords, lower(first));
  if (wh) {
    a = first + 1;
    while (a < k.size() && a <= first + 4 && is_word(t[k[a]]) && !(lower(a + 1) == "you" && contains(kQuestionAux, lower(a))))
      ++a;
    if (a >= k.size() || !is_word(t[k[a]]) || lower(a + 1) != "you" || !contains(kQuestionAux, lower(a))) return false;
  }
  if (lower(a + 1) != "you") return false;
  const std::string aux = lower(a);
  if (!contains(kQuestionAux, aux)) return false;
  // The auxiliary as it agrees with "the customer" ("are" -> "is"); "do" leaves the verb to agree.
  const std::string lead = aux == "do" ? "" : std::string(find_form(kAgreement, aux)->to);
  std::size_t verb = a + 2;
  if (aux == "do") {
    // "Do you (still) have X?" -> "whether the customer (still) has X": the verb takes the -s.
    if (contains(kAdverbs, lower(verb))) ++verb;
    const std::string v = lower(verb);
    if (v != "have" && !contains(kBaseVerbs, v)) return false;
    if (forced[k[verb]]) return false;
  } else if (lower(verb).empty() && !wh) {
    return false;
  }
  for (std::size_t at = first; at <= a + 1; ++at)
    if (forced[k[at]]) return false;
  const std::string subject = lead.empty() ? "the customer" : "the customer " + lead;
  if (wh) {
    // "How long have you had it?" -> "The agent asks how long the customer has had it."
    forms[k[first]] = "The agent asks " + lowered_initial(t[k[first]].text);
    forms[k[a]] = subject;
  } else {
    forms[k[a]] = "The agent asks whether " + subject;
  }
  keep[k[a + 1]] = 0;
  if (aux == "do") forms[k[verb]] = third_person(t[k[verb]]);
  forms[k.back()] = ".";
  return true;
}

bool name_elided_subject(std::span<const Token> t, const std::vector<char>& keep, std::vector<std::string>& forms,
                         const std::vector<char>& forced) {
  const KeptTokens kept = kept_tokens(t, keep);
  const std::vector<std::size_t>& k = kept.at;
  const std::size_t first = kept.first;
  if (first + 1 >= k.size()) return false;
  const std::size_t i = k[first], next = k[first + 1];
  if (forced[i] || !forms[i].empty()) return false;
  for (std::size_t j = 0; j < first; ++j)  // a kept @name before it is the subject ("@116016 won't let me")
    if (t[k[j]].kind != text::TokenKind::punct) return false;
  // "Just lost me", "Couldn't get me to EWR": a first-person object says the subject left out is not I.
  for (std::size_t j = first + 1; j < k.size() && j <= first + 3; ++j) {
    const std::string o = key_of(t[k[j]]);
    if (o == "me" || o == "us") return false;
  }
  const std::string w = key_of(t[i]);
  const std::string after = is_word(t[next]) ? key_of(t[next]) : std::string();
  const bool next_free = !forced[next] && forms[next].empty();  // may take the -s
  // Verbs whose "I" a tweet leaves out; an imperative ("Fix your app", "Just call me") opens with others.
  static constexpr auto kStates = std::to_array<std::string_view>(
      {"need", "want", "hope", "wish", "love", "think", "feel", "guess", "expect", "miss", "keep"});
  static constexpr auto kPast = std::to_array<std::string_view>(
      {"ordered", "bought", "paid", "spent", "tried", "called", "waited", "wasted", "received", "booked", "lost",
       "sent", "got", "returned", "purchased", "contacted", "emailed", "messaged", "missed"});
  static constexpr auto kNegated = std::to_array<std::string_view>(
      {"can't", "cant", "cannot", "didn't", "didnt", "won't", "wont", "couldn't", "wasn't"});
  // Not "don't": it opens an imperative as often ("Don't get me wrong", "Don't worry about it").
  static constexpr std::array kAgreeing{Form{"haven't", "hasn't"}, Form{"havent", "hasn't"}, Form{"am", "is"},
                                        Form{"been", "has been"}, Form{"trying", "is trying"}};
  std::string verb;
  if (w == "just" && contains(kStates, after) && next_free) {
    verb = "just";
    forms[next] = third_person(t[next]);
  } else if ((w == "just" && contains(kPast, after)) || contains(kNegated, w) || contains(kPast, w) ||
             (w == "had" && after == "to")) {
    // A verb the sentence already has (its form as written, or an emotion mention's) stays.
    verb = lower(t[i].text);
  } else if (w == "have" && after == "to") {
    verb = "has";
  } else if ((w == "so" || w == "very" || w == "really" || w == "terribly") && after == "sorry") {
    verb = "is " + lower(t[i].text);  // "very sorry I threw away the packaging": the customer apologizes
  } else if (w == "sorry" && is_word(t[next])) {
    verb = "is sorry";
  } else if (const Form* a = find_form(kAgreeing, w); a != nullptr) {
    verb = std::string(a->to);
  } else if (contains(kStates, w)) {
    verb = lower(third_person(t[i]));
  } else {
    return false;
  }
  const bool shouted = all_upper(t[i].text) && t[i].text.size() > 1;
  forms[i] = shouted ? "THE CUSTOMER " + upper(verb) : "The customer " + verb;
  after_customer_named(forms, i);
  return true;
}

}  // namespace kessel::summarize
