#include "summarize/reported_speech.h"

#include <algorithm>
#include <array>
#include <string_view>

namespace kessel::summarize {

namespace {

using text::Token;

// A word's lower-case form with the typographic apostrophe (U+2019) folded to '.
std::string key_of(const Token& t) {
  std::string k = t.lower;
  for (std::size_t at; (at = k.find("\xE2\x80\x99")) != std::string::npos;) k.replace(at, 3, "'");
  return k;
}

struct Form {
  std::string_view from, to;
};

// First person, both speakers.
constexpr std::array kFirstPerson{
    Form{"i", "they"},           Form{"me", "them"},          Form{"my", "their"},
    Form{"mine", "theirs"},      Form{"myself", "themselves"}, Form{"i'm", "they're"},
    Form{"im", "they're"},       Form{"i've", "they've"},     Form{"ive", "they've"},
    Form{"i'll", "they'll"},     Form{"i'd", "they'd"},       Form{"we", "they"},
    Form{"us", "them"},          Form{"our", "their"},        Form{"ours", "theirs"},
    Form{"ourselves", "themselves"}, Form{"we're", "they're"}, Form{"we've", "they've"},
    Form{"we'll", "they'll"},    Form{"we'd", "they'd"},
};
// Second person in an agent's unit: the customer.
constexpr std::array kSecondPerson{
    Form{"you", "the customer"},          Form{"your", "their"},
    Form{"u", "the customer"},            Form{"ur", "their"},
    Form{"yours", "theirs"},              Form{"yourself", "themselves"},
    Form{"yourselves", "themselves"},     Form{"you're", "the customer is"},
    Form{"you've", "the customer has"},   Form{"you'll", "the customer will"},
    Form{"you'd", "the customer would"},
};
// Second person in a customer's unit: the company the customer writes to ("you lost my bag", "fix your
// app"). A report has no reader to be "you", so it names the company, with the verb agreeing.
constexpr std::array kCompanySecondPerson{
    Form{"you", "the company"},           Form{"your", "the company's"},
    Form{"u", "the company"},             Form{"ur", "the company's"},
    Form{"yours", "the company's"},       Form{"yourself", "itself"},
    Form{"yourselves", "themselves"},     Form{"you're", "the company is"},
    Form{"you've", "the company has"},    Form{"you'll", "the company will"},
    Form{"you'd", "the company would"},
};
// Words after a customer's "you" that keep it as written: a group address ("you guys", "you all") that
// "the company" cannot replace word for word, set phrases ("you know?", "see you", "if you ask me"), and
// "you as a company", which names itself.
constexpr auto kCustomerYouKept =
    std::to_array<std::string_view>({"guys", "all", "people", "folks", "lot", "ask", "as"});
// A verb next to "you" that changes with the subject: "you are" -> "the customer is", "are you" ->
// "is the customer".
constexpr std::array kAgreement{
    Form{"are", "is"},       Form{"were", "was"},       Form{"have", "has"},     Form{"do", "does"},
    Form{"aren't", "isn't"}, Form{"weren't", "wasn't"}, Form{"haven't", "hasn't"}, Form{"don't", "doesn't"},
};
// Base forms that follow a subject "you" in service conversations and take -s after "the customer".
constexpr auto kBaseVerbs = std::to_array<std::string_view>({
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
    "love",     "hate",    "report",   "suspect",  "guess",    "owe",
});
// Adverbs that may stand between "you" and its verb ("you also need").
constexpr auto kAdverbs = std::to_array<std::string_view>({"also", "just", "still", "only", "really", "already",
                                                          "never", "ever", "always", "often", "usually",
                                                          "currently", "actually", "probably", "simply",
                                                          "seriously", "honestly"});
// Words before "you" that make it an object or an inverted subject: the verb after it stays a base
// form ("can you check", "let you know", "help you get").
constexpr auto kBaseAfter = std::to_array<std::string_view>({
    "can",   "could", "will",  "would",  "shall",  "should", "may",     "might",    "must",   "do",
    "does",  "did",   "don't", "doesn't", "didn't", "let",   "help",    "make",     "made",   "have",
    "has",   "had",   "see",   "watch",  "hear",   "won't",  "wouldn't", "can't",   "couldn't"});
// Question words that open a wh-question, and the auxiliaries report_question reports after them.
constexpr auto kWhWords = std::to_array<std::string_view>({"what", "which", "where", "when", "how", "why"});
constexpr auto kQuestionAux = std::to_array<std::string_view>({"are", "were", "have", "do"});
// Words after which an auxiliary starts a question ("How long have you ..."), besides the unit's
// start and punctuation.
constexpr auto kQuestionLead = std::to_array<std::string_view>({"what", "where", "when", "why", "how", "which",
                                                               "who", "long", "much", "many", "and", "but",
                                                               "so", "or", "if"});

// Imperatives an agent opens a unit with to ask the customer to act ("DM us your email", "Try
// restarting the app"). Only verbs that are seldom a sentence's first noun.
constexpr auto kImperatives = std::to_array<std::string_view>({
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
constexpr auto kImperativesWithObject = std::to_array<std::string_view>({
    "call", "email", "text", "check", "update", "visit", "reply", "message", "tweet", "look", "use",
    "open", "switch", "head", "download", "power",
});
constexpr auto kObjectsAndParticles = std::to_array<std::string_view>({
    "us", "me", "them", "it", "this", "that", "these", "those", "the", "a", "an", "your", "our", "my",
    "out", "back", "in", "on", "off", "up", "over", "into", "to", "at", "with", "for", "again", "here",
    "there",
});
// "Please be advised that..." informs; it does not ask.
constexpr auto kNotAsked = std::to_array<std::string_view>({"advised", "informed", "aware", "assured", "noted"});

template <typename List>
bool contains(const List& list, std::string_view k) {
  return std::find(list.begin(), list.end(), k) != list.end();
}
template <std::size_t N>
const Form* find_form(const std::array<Form, N>& list, std::string_view k) {
  for (const auto& f : list)
    if (f.from == k) return &f;
  return nullptr;
}

bool is_word(const Token& t) { return t.kind == text::TokenKind::word; }
bool is_upper(char c) { return c >= 'A' && c <= 'Z'; }
bool all_upper(const std::string& s) {
  bool letters = false;
  for (char c : s) {
    if (c >= 'a' && c <= 'z') return false;
    letters = letters || is_upper(c);
  }
  return letters;
}
// The token starts a sentence: first in the unit, or after . ! ? or an ellipsis.
bool starts_sentence(std::span<const Token> t, std::size_t i) {
  // Addressing before it (@mentions, links) is not rendered.
  while (i > 0 && (t[i - 1].kind == text::TokenKind::mention || t[i - 1].kind == text::TokenKind::url)) --i;
  if (i == 0) return true;
  const Token& prev = t[i - 1];
  if (prev.kind != text::TokenKind::punct) return false;
  return prev.text.find_first_of(".!?") != std::string::npos || prev.text.find("\xE2\x80\xA6") != std::string::npos;
}

// "My" or "Your" capitalized inside a sentence names a product or a place ("the My Verizon app",
// "visit your nearest My Idea store"), not the speaker or the customer.
bool is_brand_pronoun(std::span<const Token> t, std::size_t i) {
  const std::string& w = t[i].text;
  return (w == "My" || w == "Your") && !starts_sentence(t, i);
}

// Whether the words around token i are written in capitals ("WHY CAN'T I VIEW MY NOTIFICATIONS"): the
// nearest word of two letters or more on each side that has one, and at least one such word.
bool among_capitals(std::span<const Token> t, std::size_t i) {
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
std::string styled(std::string to, const Token& source, bool sentence_start, bool pronoun_i, bool shouted = false) {
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
std::string third_singular(const std::string& verb) {
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
std::string third_person(const Token& verb) {
  const std::string k = key_of(verb);
  if (k == "go") return styled("goes", verb, false, false);
  if (k == "have") return styled("has", verb, false, false);
  return third_singular(verb.text);
}

// A word that now follows a lead ("They ask the customer to send"), its initial in lower case unless
// the word is written in capitals ("DM").
std::string lower(std::string w) {
  for (char& c : w) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return w;
}
std::string upper(std::string w) {
  for (char& c : w) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return w;
}

std::string lowered_initial(std::string w) {
  if (!all_upper(w) && is_upper(w[0])) w[0] = static_cast<char>(w[0] - 'A' + 'a');
  return w;
}

// The kept tokens in order, and the position among them of the first word: a request or a question
// must open the unit as it is rendered (after any salutation that was dropped).
struct KeptTokens {
  std::vector<std::size_t> at;
  std::size_t first = 0;
};
KeptTokens kept_tokens(std::span<const Token> t, const std::vector<char>& keep) {
  KeptTokens k;
  for (std::size_t i = 0; i < t.size(); ++i)
    if (keep[i]) k.at.push_back(i);
  while (k.first < k.at.size() && !is_word(t[k.at[k.first]])) ++k.first;
  return k;
}
bool ends_in_question_mark(std::span<const Token> t, const std::vector<std::size_t>& k) {
  return !k.empty() && t[k.back()].kind == text::TokenKind::punct && t[k.back()].text.find('?') != std::string::npos;
}


// The verb after a singular noun that replaced I or we: "I am" / "we are" -> "is", "I was" -> "was",
// "we have" -> "has"; an inverted "am I" / "are we" -> "is".
constexpr std::array kSingular{
    Form{"am", "is"},       Form{"are", "is"},     Form{"was", "was"},       Form{"were", "was"},
    Form{"have", "has"},    Form{"do", "does"},    Form{"don't", "doesn't"}, Form{"haven't", "hasn't"},
    Form{"aren't", "isn't"}, Form{"weren't", "wasn't"},
};

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
  for (std::size_t i = 0; i < n; ++i) {
    if (out[i].empty() || key[i].empty()) continue;
    const std::string& k = key[i];
    if (out[i].find("the customer") != std::string::npos) customer_named = true;
    if (speaker == text::Speaker::agent && (k == "your" || k == "yours") && !customer_named) {
      out[i] = styled("the customer's", t[i], starts_sentence(t, i), false);
      customer_named = true;
      continue;
    }
    if (self_named || find_form(kFirstPerson, k) == nullptr) continue;
    static constexpr std::array kNamed{
        Form{"i", ""},         Form{"we", ""},        Form{"me", ""},           Form{"us", ""},
        Form{"my", "'s"},      Form{"our", "'s"},     Form{"mine", "'s"},       Form{"ours", "'s"},
        Form{"i'm", " is"},    Form{"im", " is"},     Form{"we're", " is"},     Form{"i've", " has"},
        Form{"ive", " has"},   Form{"we've", " has"}, Form{"i'll", " will"},    Form{"we'll", " will"},
        Form{"i'd", " would"}, Form{"we'd", " would"},
    };
    const Form* f = find_form(kNamed, k);
    if (f == nullptr) continue;  // myself, ourselves: reflexive, after a subject
    // An agent's "our" is the company's (our store, our team, our website), as reported_forms wrote it;
    // the agent is named by their next first-person word.
    if (speaker == text::Speaker::agent && (k == "our" || k == "ours")) {
      if (starts_sentence(t, i) && out[i][0] == 't') out[i][0] = 'T';
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


// Once a lead has named the customer ("The agent asks the customer to"), a later "the customer's"
// that stood for "your" reads "their": "... to share their details", not "to share the customer's
// details".
void after_customer_named(std::vector<std::string>& forms, std::size_t lead) {
  for (std::size_t i = lead + 1; i < forms.size(); ++i) {
    if (forms[i] == "the customer's") forms[i] = "their";
    if (forms[i] == "The customer's") forms[i] = "Their";
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
  for (std::size_t i = 0; i < n; ++i) {
    if (key[i].empty() || forced[i]) continue;
    const std::string& k = key[i];
    if (const Form* f = find_form(kFirstPerson, k)) {
      if (k == "us" && t[i].text == "US") continue;              // the country
      if ((k == "im" || k == "ive") && all_upper(t[i].text)) continue;  // IM, IVE: not pronouns
      if (k == "my" && i >= 1 && word_at(i - 1) == "oh") continue;     // "oh my"
      if (is_brand_pronoun(t, i)) continue;                           // "visit My Idea store"
      const bool pronoun_i = k == "i" || k == "i'm" || k == "im" || k == "i've" || k == "ive" || k == "i'll" ||
                             k == "i'd";
      set(i, speaker == text::Speaker::agent && (k == "our" || k == "ours") ? "the company's" : f->to, pronoun_i);
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
    if (you && behind == "thank") continue;  // "thank you" is said, not reported
    if (!agent && you && (contains(kCustomerYouKept, after) || behind == "see" || behind == "love" ||
                          (after == "know" && (next + 1 >= n || !is_word(t[next + 1])))))
      continue;
    set(i, f->to);
    if (!you) continue;
    // Subject-verb agreement.
    if (const Form* a = find_form(kAgreement, after); a != nullptr && !contains(kBaseAfter, behind)) {
      set(next, a->to);
    } else if (const Form* q = find_form(kAgreement, behind); q != nullptr) {
      // "are you", "do you": a question. "have you" only where a question starts ("Have you tried",
      // "how long have you had"), not in "we have you booked".
      const bool object_reading = q->from == "have" || q->from == "haven't";
      const bool question_start = prev == 0 || !is_word(t[prev - 1]) || contains(kQuestionLead, key[prev - 1]);
      if (!object_reading || question_start) set(prev, q->to);
    } else if (!contains(kBaseAfter, behind)) {
      std::size_t v = next;
      if (v < n && contains(kAdverbs, key[v])) ++v;  // an adverb is skipped, an emotion word too ("seriously")
      if (contains(kBaseVerbs, word_at(v))) out[v] = third_person(t[v]);
    }
  }
  name_first_reference(t, speaker, forced, key, out);
  return out;
}

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

bool report_request(std::span<const Token> t, std::vector<char>& keep, std::vector<std::string>& forms,
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
    // A question form is a request when it ends in "?", or says please ("Could you please DM us.").
    if (!question_mark && !polite) return false;
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
  if (replaced.empty()) {
    forms[k[verb]] = "The agent asks the customer to " + lowered_initial(t[k[verb]].text);  // "to send", "to DM"
    after_customer_named(forms, k[verb]);
    return true;
  }
  forms[k[first]] = "The agent asks the customer to";
  for (std::size_t r = 1; r < replaced.size(); ++r) keep[k[replaced[r]]] = 0;
  if (question && question_mark) forms[k.back()] = ".";
  after_customer_named(forms, k[first]);
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
