// Words and helpers the English reported-speech rewrites share (reported_speech.cc: pronouns and
// agreement; reported_requests.cc: requests, questions, regrets and a left-out subject). Internal to
// src/summarize.
#pragma once

#include <algorithm>
#include <array>
#include <cctype>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "kessel/text/tokenize.h"

namespace kessel::summarize::reported {

using text::Token;

// A word's lower-case form with the typographic apostrophe (U+2019) folded to '.
inline std::string key_of(const Token& t) {
  std::string k = t.lower;
  for (std::size_t at; (at = k.find("\xE2\x80\x99")) != std::string::npos;) k.replace(at, 3, "'");
  return k;
}

struct Form {
  std::string_view from, to;
};

// First person, both speakers.
inline constexpr std::array kFirstPerson{
    Form{"i", "they"},           Form{"me", "them"},          Form{"my", "their"},
    Form{"mine", "theirs"},      Form{"myself", "themselves"}, Form{"i'm", "they're"},
    Form{"im", "they're"},       Form{"i've", "they've"},     Form{"ive", "they've"},
    Form{"i'll", "they'll"},     Form{"i'd", "they'd"},       Form{"we", "they"},
    Form{"us", "them"},          Form{"our", "their"},        Form{"ours", "theirs"},
    Form{"ourselves", "themselves"}, Form{"we're", "they're"}, Form{"we've", "they've"},
    Form{"we'll", "they'll"},    Form{"we'd", "they'd"},
};
// The verb after a singular noun that replaced I or we: "I am" / "we are" -> "is", "I was" -> "was",
// "we have" -> "has"; an inverted "am I" / "are we" -> "is".
inline constexpr std::array kSingular{
    Form{"am", "is"},       Form{"are", "is"},     Form{"was", "was"},       Form{"were", "was"},
    Form{"have", "has"},    Form{"do", "does"},    Form{"don't", "doesn't"}, Form{"haven't", "hasn't"},
    Form{"aren't", "isn't"}, Form{"weren't", "wasn't"},
};
// A speaker's first-person word named: "the customer" / "the agent" followed by `to` ("I'll" -> "the agent
// will", "my" -> "the agent's"). Reflexives (myself, ourselves) are not here: they follow a subject.
inline constexpr std::array kNamedSelf{
    Form{"i", ""},         Form{"we", ""},        Form{"me", ""},           Form{"us", ""},
    Form{"my", "'s"},      Form{"our", "'s"},     Form{"mine", "'s"},       Form{"ours", "'s"},
    Form{"i'm", " is"},    Form{"im", " is"},     Form{"we're", " is"},     Form{"i've", " has"},
    Form{"ive", " has"},   Form{"we've", " has"}, Form{"i'll", " will"},    Form{"we'll", " will"},
    Form{"i'd", " would"}, Form{"we'd", " would"},
};

// en: words that open a sentence and are no names, in lower case.
inline constexpr auto kCommonOpeners = std::to_array<std::string_view>({
    "the", "a", "an", "this", "that", "that's", "that’s", "these", "those", "it", "it's", "it’s", "its", "there",
    "there's", "here", "what", "when", "where", "which", "who", "how", "why", "if", "as", "because", "since",
    "yes", "no", "unfortunately", "sorry", "please", "all", "any", "some", "every", "each", "one", "both",
    "only", "just", "still", "now", "once", "for", "to", "in", "on", "at", "with", "after", "before",
    "should", "nothing", "everything", "something", "our", "your", "first", "okay", "ok", "due", "according",
    "regarding", "although", "though", "while", "unless", "until", "currently", "actually", "apparently",
    "hopefully", "luckily", "sadly", "basically", "usually", "normally", "sometimes", "again", "rest",
    "very", "really", "quite", "too", "not", "never", "maybe", "perhaps", "probably", "definitely", "totally",
    "absolutely", "completely", "obviously", "clearly", "honestly", "seriously", "however", "otherwise",
    "alternatively", "additionally", "instead", "meanwhile", "therefore", "furthermore", "moreover"});

// Second person in an agent's unit: the customer.
inline constexpr std::array kSecondPerson{
    Form{"you", "the customer"},          Form{"your", "their"},
    Form{"u", "the customer"},            Form{"ur", "their"},
    Form{"yours", "theirs"},              Form{"yourself", "themselves"},
    Form{"yourselves", "themselves"},     Form{"you're", "the customer is"},
    Form{"you've", "the customer has"},   Form{"you'll", "the customer will"},
    Form{"you'd", "the customer would"},  Form{"y'all", "the customer"},
};
// Second person in a customer's unit: the company the customer writes to ("you lost my bag", "fix your
// app"). A report has no reader to be "you", so it names the company, with the verb agreeing.
inline constexpr std::array kCompanySecondPerson{
    Form{"you", "the company"},           Form{"your", "the company's"},
    Form{"u", "the company"},             Form{"ur", "the company's"},
    Form{"yours", "the company's"},       Form{"yourself", "itself"},
    Form{"yourselves", "themselves"},     Form{"you're", "the company is"},
    Form{"you've", "the company has"},    Form{"you'll", "the company will"},
    Form{"you'd", "the company would"},   Form{"y'all", "the company"},
};
// Words after a customer's "you" that keep it as written: set phrases ("if you ask me") and "you as a
// company", which names itself.
inline constexpr auto kCustomerYouKept = std::to_array<std::string_view>({"ask", "as"});
// A customer's group address: "you guys" / "you all" / "you people" is the company, two words for two
// ("You guys left the customer waiting" -> "The company left the customer waiting").
inline constexpr auto kGroupAddress = std::to_array<std::string_view>({"guys", "all", "people", "folks", "lot"});
// A verb next to "you" that changes with the subject: "you are" -> "the customer is", "are you" ->
// "is the customer".
inline constexpr std::array kAgreement{
    Form{"are", "is"},       Form{"were", "was"},       Form{"have", "has"},     Form{"do", "does"},
    Form{"aren't", "isn't"}, Form{"weren't", "wasn't"}, Form{"haven't", "hasn't"}, Form{"don't", "doesn't"},
};
// Base forms that follow a subject "you" in service conversations and take -s after "the customer".
inline constexpr auto kBaseVerbs = std::to_array<std::string_view>({
    "need",     "want",    "use",      "receive",  "get",      "see",      "know",    "like",
    "try",      "mean",    "go",       "say",      "think",    "feel",     "hear",    "call",
    "pay",      "buy",     "order",    "live",     "own",      "work",     "visit",   "travel",
    "fly",      "book",    "check",    "find",     "look",     "wish",     "require", "mention",
    "expect",   "contact", "send",     "make",     "take",     "keep",     "come",    "leave",
    "experience", "notice", "reach",   "qualify",  "remember", "believe",  "agree",   "purchase",
    "plan",     "hold",    "prefer",   "hope",     "continue", "start",    "stay",    "return",
    "update",   "download", "install", "apply",    "click",    "tap",      "enter",   "follow",
    "select",   "choose",  "save",     "change",   "delete",   "reset",    "restart", "lose",
    "miss",     "drive",   "ride",     "rent",     "ship",     "add",      "cancel",  "request",
    "connect",  "share",   "confirm",  "provide",  "understand", "seem",   "play",    "watch",
    "stream",   "subscribe", "upgrade", "switch",  "turn",     "open",     "run",     "appear",
    "lock",     "unlock",  "dm",       "email",    "text",     "reply",    "post",    "sign",
    "log",      "happen",  "encounter", "reinstall", "uninstall", "refresh", "clear",    "enjoy",
    "remain",   "arrive",  "earn",     "discuss",  "investigate", "recommend", "suggest", "advise",
    "offer",    "ask",     "appreciate", "apologize", "apologise", "escalate", "review", "process",
    "refund",   "replace", "resolve",  "fix",      "help",     "assist",   "monitor", "value",
    "love",     "hate",    "report",   "suspect",  "guess",    "owe",      "welcome",  "deal",
    "regret",   "promise",  "charge",   "prove",    "fail",     "ruin",     "lie",
});
// Adverbs that may stand between "you" and its verb ("you also need").
inline constexpr auto kAdverbs = std::to_array<std::string_view>({"also", "just", "still", "only", "really", "already",
                                                          "never", "ever", "always", "often", "usually",
                                                          "currently", "actually", "probably", "simply",
                                                          "seriously", "honestly", "primarily", "generally",
                                                          "normally", "typically", "certainly", "definitely",
                                                          "truly", "sincerely", "deeply", "greatly", "highly",
                                                          "strongly", "fully", "personally", "absolutely",
                                                          "completely", "totally"});
// Words before "you" that make it an object or an inverted subject: the verb after it stays a base
// form ("can you check", "let you know", "help you get").
inline constexpr auto kBaseAfter = std::to_array<std::string_view>({
    "can",   "could", "will",  "would",  "shall",  "should", "may",     "might",    "must",   "do",
    "does",  "did",   "don't", "doesn't", "didn't", "let",   "help",    "make",     "made",   "have",
    "has",   "had",   "see",   "watch",  "hear",   "won't",  "wouldn't", "can't",   "couldn't"});
// Question words that open a wh-question, and the auxiliaries report_question reports after them.
inline constexpr auto kWhWords = std::to_array<std::string_view>({"what", "which", "where", "when", "how", "why"});
inline constexpr auto kQuestionAux = std::to_array<std::string_view>({"are", "were", "have", "do"});
// Words after which an auxiliary starts a question ("How long have you ..."), besides the unit's
// start and punctuation.
inline constexpr auto kQuestionLead = std::to_array<std::string_view>({"what", "where", "when", "why", "how", "which",
                                                               "who", "long", "much", "many", "and", "but",
                                                               "so", "or", "if"});

// Imperatives an agent opens a unit with to ask the customer to act ("DM us your email", "Try
// restarting the app"). Only verbs that are seldom a sentence's first noun.
inline constexpr auto kImperatives = std::to_array<std::string_view>({
    "dm",       "send",      "try",      "follow",    "reach",    "contact", "restart", "reset",  "unplug",
    "click",    "tap",       "refer",    "drop",      "shoot",    "ping",    "clear",   "delete", "reinstall",
    "uninstall", "keep",     "hang",     "give",      "go",       "let",     "make",    "select", "navigate",
    "install",  "enable",    "disable",  "remove",    "hold",     "press",   "provide", "confirm", "share",
    "include",  "attach",    "fill",     "log",       "sign",     "tell",    "double-check", "turn", "ensure",
    "swipe",    "allow",     "verify",
});
// Verbs that are as often a sentence's first noun or adjective ("Call center hours are...", "Update:
// fixed", "Open 24 hours"): imperatives only when an object or particle follows ("Call us", "Email us
// at", "Check your app", "Head over to").
inline constexpr auto kImperativesWithObject = std::to_array<std::string_view>({
    "call", "email", "text", "check", "update", "visit", "reply", "message", "tweet", "look", "use",
    "open", "switch", "head", "download", "power", "meet", "join", "help", "ask",
});
inline constexpr auto kObjectsAndParticles = std::to_array<std::string_view>({
    "us", "me", "them", "it", "this", "that", "these", "those", "the", "a", "an", "your", "our", "my",
    "out", "back", "in", "on", "off", "up", "over", "into", "to", "at", "with", "for", "again", "here",
    "there",
});
// "Please be advised that..." informs; it does not ask.
inline constexpr auto kNotAsked = std::to_array<std::string_view>({"advised", "informed", "aware", "assured", "noted"});

template <typename List>
inline bool contains(const List& list, std::string_view k) {
  return std::find(list.begin(), list.end(), k) != list.end();
}
template <std::size_t N>
inline const Form* find_form(const std::array<Form, N>& list, std::string_view k) {
  for (const auto& f : list)
    if (f.from == k) return &f;
  return nullptr;
}

inline bool is_word(const Token& t) { return t.kind == text::TokenKind::word; }
inline bool is_upper(char c) { return c >= 'A' && c <= 'Z'; }
inline bool all_upper(const std::string& s) {
  bool letters = false;
  for (char c : s) {
    if (c >= 'a' && c <= 'z') return false;
    letters = letters || is_upper(c);
  }
  return letters;
}
// The token starts a sentence: first in the unit, or after . ! ? or an ellipsis.
inline bool starts_sentence(std::span<const Token> t, std::size_t i) {
  // Addressing before it (@mentions, links) is not rendered.
  while (i > 0 && (t[i - 1].kind == text::TokenKind::mention || t[i - 1].kind == text::TokenKind::url)) --i;
  if (i == 0) return true;
  const Token& prev = t[i - 1];
  if (prev.kind != text::TokenKind::punct) return false;
  return prev.text.find_first_of(".!?") != std::string::npos || prev.text.find("\xE2\x80\xA6") != std::string::npos;
}

// "My" or "Your" capitalized inside a sentence names a product or a place ("the My Verizon app",
// "visit your nearest My Idea store"), not the speaker or the customer.
inline bool is_brand_pronoun(std::span<const Token> t, std::size_t i) {
  const std::string& w = t[i].text;
  return (w == "My" || w == "Your") && !starts_sentence(t, i);
}

// Whether the words around token i are written in capitals ("WHY CAN'T I VIEW MY NOTIFICATIONS"): the
// nearest word of two letters or more on each side that has one, and at least one such word.
inline bool among_capitals(std::span<const Token> t, std::size_t i) {
  bool any = false;
  for (int dir : {-1, 1}) {
    for (std::size_t j = i; dir < 0 ? j-- > 0 : ++j < t.size();) {
      if (!is_word(t[j]) || t[j].text.size() < 2) continue;
      if (!all_upper(t[j].text)) return false;
      any = true;
      break;
    }
  }
  return any;
}

// `to` written the way the source token was: capitals kept, the first letter capitalized when the
// source's was (the pronoun I only at a sentence's start; all of it where the words around I are in
// capitals, `shouted`), and the source's apostrophe.
inline std::string styled(std::string to, const Token& source, bool sentence_start, bool pronoun_i, bool shouted = false) {
  if (source.text.find("\xE2\x80\x99") != std::string::npos)
    for (std::size_t at; (at = to.find('\'')) != std::string::npos;) to.replace(at, 1, "\xE2\x80\x99");
  if ((source.text.size() > 1 && all_upper(source.text) && !pronoun_i) || (pronoun_i && shouted)) {
    for (char& c : to)
      if (c >= 'a' && c <= 'z') c = static_cast<char>(c - 'a' + 'A');
    return to;
  }
  const bool capital = is_upper(source.text[0]) && (!pronoun_i || sentence_start);
  if (capital && !to.empty() && to[0] >= 'a' && to[0] <= 'z') to[0] = static_cast<char>(to[0] - 'a' + 'A');
  return to;
}

// "need" -> "needs", "try" -> "tries", "watch" -> "watches", "DM" -> "DMs"; the source's letters kept
// (a word in capitals of three letters or more takes a capital suffix: "NEEDS").
inline std::string third_singular(const std::string& verb) {
  const std::size_t n = verb.size();
  auto lower_at = [&](std::size_t i) { return static_cast<char>(is_upper(verb[i]) ? verb[i] - 'A' + 'a' : verb[i]); };
  const char last = lower_at(n - 1);
  const bool upper = all_upper(verb) && n > 2;
  auto suffix = [&](const char* s) {
    std::string out = verb;
    for (const char* c = s; *c; ++c) out += upper ? static_cast<char>(*c - 'a' + 'A') : *c;
    return out;
  };
  if (last == 'y' && n >= 2 && std::string_view("aeiou").find(lower_at(n - 2)) == std::string_view::npos) {
    std::string out = verb.substr(0, n - 1);
    return out + (upper ? "IES" : "ies");
  }
  const bool sibilant = last == 's' || last == 'x' || last == 'z' || last == 'o' ||
                        (n >= 2 && (lower_at(n - 2) == 's' || lower_at(n - 2) == 'c') && last == 'h');
  return suffix(sibilant ? "es" : "s");
}

// A verb after "the customer": "go" -> "goes", "have" -> "has" (in the source's case), any other
// base form from third_singular ("need" -> "needs").
inline std::string third_person(const Token& verb) {
  const std::string k = key_of(verb);
  if (k == "go") return styled("goes", verb, false, false);
  if (k == "have") return styled("has", verb, false, false);
  return third_singular(verb.text);
}

// A word in lower (upper) case, ASCII letters only.
inline std::string lower(std::string w) {
  for (char& c : w) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return w;
}
inline std::string upper(std::string w) {
  for (char& c : w) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return w;
}

// A word that now follows a lead ("They ask the customer to send"), its initial in lower case unless
// the word is written in capitals ("DM").
inline std::string lowered_initial(std::string w) {
  if (!all_upper(w) && is_upper(w[0])) w[0] = static_cast<char>(w[0] - 'A' + 'a');
  return w;
}

// The kept tokens in order, and the position among them of the first word: a request or a question
// must open the unit as it is rendered (after any salutation that was dropped).
struct KeptTokens {
  std::vector<std::size_t> at;
  std::size_t first = 0;
};
inline KeptTokens kept_tokens(std::span<const Token> t, const std::vector<char>& keep) {
  KeptTokens k;
  for (std::size_t i = 0; i < t.size(); ++i)
    if (keep[i]) k.at.push_back(i);
  while (k.first < k.at.size() && !is_word(t[k.at[k.first]])) ++k.first;
  return k;
}
inline bool ends_in_question_mark(std::span<const Token> t, const std::vector<std::size_t>& k) {
  return !k.empty() && t[k.back()].kind == text::TokenKind::punct && t[k.back()].text.find('?') != std::string::npos;
}

// Once a lead has named the customer ("The agent asks the customer to"), a later "the customer's"
// that stood for "your" reads "their": "... to share their details", not "to share the customer's
// details". Once the agent is named after the customer, "their" would be either's: the customer is named
// ("… and the agent will address the customer's concerns") until the customer is the one named last
// again ("… what happens when the customer tries to restore it to their iPhone").
inline void after_customer_named(std::vector<std::string>& forms, std::size_t lead) {
  static constexpr std::array kTheirs{Form{"the customer's", "their"}, Form{"The customer's", "Their"}};
  static constexpr std::array kTheCustomers{Form{"their", "the customer's"}, Form{"Their", "The customer's"}};
  bool agent_named = false;
  for (std::size_t i = lead + 1; i < forms.size(); ++i) {
    if (forms[i].starts_with("the agent") || forms[i].starts_with("The agent")) agent_named = true;
    if ((forms[i].starts_with("the customer") || forms[i].starts_with("The customer")) && !forms[i].ends_with("'s"))
      agent_named = false;
    if (const Form* f = find_form(agent_named ? kTheCustomers : kTheirs, forms[i]); f != nullptr)
      forms[i] = std::string(f->to);
  }
}

}  // namespace kessel::summarize::reported
