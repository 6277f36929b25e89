// Reported speech for English summaries: the first and second person of an extracted unit rewritten
// into the third person, as a summary reports a conversation ("I was charged twice" -> "they were
// charged twice"; "Could you DM us your order number?" -> "They ask the customer to DM them their
// order number.").
//
// Why: a summary reports what each side said; it does not quote them. The TweetSumm references are
// written that way ("Customer is complaining that his order...", "Agent asks to DM the account's
// email"), and so is every CSDS reference (用户表示…). Chinese gets there through learned token
// deletion (compress.h); English word deletion breaks the grammar, but a pronoun rewrite keeps it.
//
// The rules (one pass over the unit's word tokens; docs/eaca.md lists them with their measured effect):
//  - both speakers: I / me / my / mine / myself and we / us / our / ours / ourselves (and their
//    contractions I'm, I've, I'll, I'd, we're, ...) become they / them / their / theirs / themselves;
//    "I am" / "am I" -> "they are" / "are they", "I was" / "was I" -> "they were" / "were they".
//    "US" in capitals (the country) and "oh my" stay.
//  - agent units only: "you" (the customer, in a one-to-one service conversation) becomes "the
//    customer", "your" / "yours" / "yourself" become "their" / "theirs" / "themselves", and the verb
//    agrees: "you are" -> "the customer is", "are you" -> "is the customer", "you have" -> "the
//    customer has", "do you" -> "does the customer", "you don't" -> "the customer doesn't", "you need"
//    -> "the customer needs" (a verb from a fixed list of common base forms, after an optional adverb,
//    and only when "you" is not the object of a modal, do, let, help or make). "Thank you" stays.
//  - an agent's request that opens the unit ("Could/Can/Would you (please) X?", "Please/Kindly X")
//    is reported as one: "They ask the customer to X." (report_request below), and so is one that
//    opens with an imperative ("DM us your email", "Try restarting"; a fixed list of verbs).
//  - an agent's question about the customer ("Have you tried X?", "Are you still X?", "Do you have
//    X?", "How long have you had it?") is reported as a question: "They ask whether the customer has
//    tried X.", "They ask how long the customer has had it." (report_question below).
//  - a customer's "you" (the company) stays: the references name the agent, not "you".
//  - tokens inside an expressed emotion mention are never rewritten, so the emotion the summary keeps
//    is still written as the customer wrote it.
// The rewrite is a rendering: unit texts, salience and emotion offsets are unchanged.
#pragma once

#include <initializer_list>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "kessel/text/tokenize.h"
#include "kessel/text/dialogue.h"

namespace kessel::summarize {

// For each token, its reported form, or an empty string to keep it as written. `forced[i]` marks the
// tokens that must stay (an expressed emotion mention); it has one entry per token. `kept`, when
// given (one entry per token), marks the tokens the rendering keeps: a dropped one is not rewritten,
// so the first reference named "the agent" / "the customer" is the first one a reader sees.
std::vector<std::string> reported_forms(std::span<const text::Token> tokens, text::Speaker speaker,
                                        const std::vector<char>& forced, const std::vector<char>& kept = {});

// "I'm afraid (that) we can't …" and "I am / we're afraid …" before a clause: a polite regret, not a
// fear, which reported speech would turn into a state of the speaker ("The agent is afraid they're
// unable to advise"). Its words (and the "that" and comma after them) lose `keep`; the clause after
// it stays. Not before "of", "to", "for" or the end (a fear of something: "I'm afraid of flying"),
// nor before "not" or "so" (a whole answer), nor through a `forced` token (an expressed emotion).
// After a clause and at its end ("awful service tonight I'm afraid."), it regrets that clause and goes
// too (with a comma before it). Returns whether it dropped one.
bool drop_regret_idiom(std::span<const text::Token> tokens, std::vector<char>& keep, const std::vector<char>& forced);

// A customer's "you as a company" ("as a business", "as a brand") names the company the customer writes
// to, which a report calls "the company": "The customer wants the company to make sure…", not "…wants you
// as a company to make sure…" (TweetSumm valid ec52abc1), where "you" kept reported_forms' as-written form.
// For a unit reported_forms rewrote: the kept "you" gets the form "the company" and "as a company" loses
// `keep`; never through a `forced` token. Returns whether it named one.
bool name_the_company(std::span<const text::Token> tokens, std::vector<char>& keep, std::vector<std::string>& forms,
                      const std::vector<char>& forced);

// An agent's request in indirect speech: "Could you (please) check X?", "Can you ...?", "Would you
// (like to) ...?", "Please / Kindly DM us ..." and an imperative ("DM us ...", "Try restarting ...")
// become "They ask the customer to check X." The lead's first word gets the form "They ask the
// customer to" (an imperative's verb follows it), the words it replaces ("you", "please", "like to")
// lose `keep`, and a final "?" becomes ".". Matches only at the unit's first kept word; a question
// form only when it ends in "?" or says please; an imperative only with a verb from a fixed list
// (verbs that are often nouns, such as "Call" or "Update", only before an object or particle), and
// never as a question or "Let's". Never through a `forced` token, and not for "would you mind", "will
// you" or "please be advised / informed / aware" (those are not requests to act). Returns whether
// it rewrote. `forms` are reported_forms' (the rest of the unit is already in the third person).
bool report_request(std::span<const text::Token> tokens, std::vector<char>& keep, std::vector<std::string>& forms,
                    const std::vector<char>& forced);

// An agent's question about the customer in indirect speech. Yes/no: "Are you (still) X?", "Were
// you X?", "Have you X?" and "Do you V X?" (V from the list of common verbs) become "They ask whether
// the customer is / was / has X." / "... the customer Vs X." Wh-questions whose subject is the
// customer, with up to four words before the auxiliary: "How long have you had it?" -> "They ask how
// long the customer has had it.", "What version are you on?" -> "They ask what version the customer
// is on." Matches only a unit that is one question opening with the auxiliary or the wh-word (after
// any salutation) and ending in "?", never through a `forced` token. "Did you", modals and other
// subjects are left to the pronoun rewrite. Returns whether it rewrote.
bool report_question(std::span<const text::Token> tokens, std::vector<char>& keep, std::vector<std::string>& forms,
                     const std::vector<char>& forced);

// A customer's tweet that leaves its subject "I" out ("Just wasted an hour of my life", "Have to stop
// using Tigo for my Internet", "Need help setting my modem to bridge mode") is reported with the
// customer named as its subject: "The customer just wasted an hour of their life", "The customer has
// to stop using Tigo for their Internet", "The customer needs help setting their modem…". Only when
// the unit's first kept word opens such a sentence: "just", "have to" / "had to", a
// common base verb (need, want, hope, …; it takes -s), a past form from a fixed list (ordered, spent,
// wasted, …), "been", "trying", "am", haven't -> hasn't, or a negated auxiliary (can't, didn't); not
// "don't", "like" or "used to" (an imperative, a discourse word, "Used to be my favorite airline"
// whose subject is the airline), not after a kept @name (the subject), not
// when "me" / "us" follows within three words ("Just lost me": the subject left out is not I), and
// never through a `forced` token. The first later "the customer's" becomes "their". Returns whether
// it rewrote.
bool name_elided_subject(std::span<const text::Token> tokens, const std::vector<char>& keep,
                         std::vector<std::string>& forms, const std::vector<char>& forced);

// What a rendered English report says about its speaker, for the summary's labels (render.cc,
// summary.cc).
// Whether `body` opens with one of `leads` (written in lower case), in any case: "The customer…"
// opens with "the customer".
bool opens_with_any(std::string_view body, std::initializer_list<std::string_view> leads);
// Whether a report refers to who speaks in the third person: "the customer", "the agent", or
// they / them / their / theirs / themselves as words, in any case.
bool names_a_speaker(std::string_view body);
// Whether a report's main clause is an order, a wish or a courtesy (past an opening "If …," / "When
// …," / "Going forward,"): it opens with let's, please, do, go, reach, be, thanks, sorry, kindly, DM,
// try, ... ("Let's have the customer delete the Bluetooth profile", "Do let the agent know…", "Thanks
// for reacting to the customer's main concern."). In the third person it reads as the summary's own
// voice, and whose order or thanks it is gets lost: such a unit is shown in its speaker's words, under
// their label (EacaModel::render).
bool reads_as_command(std::string_view body);
// Whether a report opens with they / their: its speaker stayed a pronoun (an emotion verb, never
// rewritten, keeps "they": "I give up" -> "They give up.") and names nobody. After the same speaker's
// labelled sentence it would read as someone else ("Customer: Can't create an account. They give
// up."): such a unit is shown in its speaker's words too (EacaModel::render).
bool opens_with_a_bare_pronoun(std::string_view body);
// Whether a report is the customer's apology ("The customer is sorry 😡😡😡😡" from "I'm sorry
// 😡😡😡😡"): said in anger as often as in earnest, it keeps its tone only in the customer's own words,
// so such a unit is shown as written too (EacaModel::render).
bool reports_a_customer_apology(std::string_view body);
// Whether a report holds a second sentence: a stop, "!" or "?" (or a run of them: "....") then a space and
// a capital, not after a title or an initial ("Mr. Smith"). "The customer says 1st class WiFi is slower then
// dial up.... What a waste upgrading the customer's ticket 😡" (TweetSumm valid 43d60299): only the first
// sentence is reported, the next reads as the summary's own exclamation. Such a unit is shown in its
// speaker's words too (EacaModel::render).
bool reports_two_sentences(std::string_view body);

}  // namespace kessel::summarize
