// English rendering of a unit (compress.h): addressing dropped (salutations, @mentions, links,
// thread counters, sign-offs and thanks with a name), and with reported speech the first and second
// person put into the third (reported_speech.h).
#include <algorithm>
#include <cctype>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "kessel/text/utf8.h"
#include "summarize/compress.h"
#include "summarize/content.h"
#include "summarize/reported_speech.h"
#include "summarize/reported_speech_words.h"

namespace kessel::summarize {

namespace {

bool is_word(const text::Token& t) { return t.kind == text::TokenKind::word; }
bool is_greeting(const std::string& lower) {
  return lower == "hi" || lower == "hey" || lower == "hello" || lower == "hiya" || lower == "heya" ||
         lower == "howdy" || lower == "yo" || lower == "dear";
}
bool is_upper_ascii(char c) { return c >= 'A' && c <= 'Z'; }

// en: whether a word is written as a name: a capital, then letters with at least one in lower case
// ("Claire", not "UPS"), two to fifteen of them.
bool is_name_like(const text::Token& t) {
  if (t.kind != text::TokenKind::word || t.text.size() < 2 || t.text.size() > 15 || !is_upper_ascii(t.text[0]))
    return false;
  bool lower = false;
  for (std::size_t i = 1; i < t.text.size(); ++i) {
    const char c = t.text[i];
    if (c >= 'a' && c <= 'z') lower = true;
    else if (!is_upper_ascii(c)) return false;
  }
  return lower;
}

bool ends_a_clause(const text::Token& t) { return t.text == "." || t.text == "!" || t.text == "?" || t.text == ","; }

bool signs_off(const text::Token& t) { return is_word(t) && is_thanks(t.lower); }

// en: the names an agent addresses the customer by: a name-like word between a comma or a greeting
// and the end of a clause ("Hi Claire,", "any issues, Claire."); not the agent's own after a
// thanks or regards ("Rgds,Sagar").
std::vector<std::string> addressed_names(const Prepared& p) {
  std::vector<std::string> names;
  for (std::size_t u = 0; u < p.units.size(); ++u) {
    if (p.units[u].speaker != text::Speaker::agent) continue;
    const auto& t = p.unit_tokens[u];
    for (std::size_t i = 1; i < t.size(); ++i) {
      const bool after_comma = t[i - 1].text == ",";
      if (!is_name_like(t[i]) || !(after_comma || (is_word(t[i - 1]) && is_greeting(t[i - 1].lower)))) continue;
      if (i + 1 < t.size() && !ends_a_clause(t[i + 1])) continue;
      if (after_comma && i >= 2 && signs_off(t[i - 2])) continue;
      if (std::find(names.begin(), names.end(), t[i].text) == names.end()) names.push_back(t[i].text);
    }
  }
  return names;
}

}  // namespace

namespace {

// en: whether an agent's unit opens by addressing the customer by name, perhaps after a salutation, before
// a comma and more ("Bob, once Samsung shares the updates…", "Angela, regretfully, …", "Hi Lee Chia Shiun,
// we regret…"): a name-like
// word the agent addresses the customer by elsewhere (`names`), or one to three name-like words each of
// which is no word a sentence opens with (kCommonOpeners, an adverb in -ly, an acknowledgement:
// "Unfortunately,", "Great,", "Strange,"), no sign-off ("Rgds, Idea Care.") and never written in lower
// case in the dialogue. Returns the index of the comma after the name (the name starts after the unit's
// @mentions), or t.size().
std::size_t opening_vocative(const Prepared& p, std::span<const text::Token> t, const std::vector<std::string>& names) {
  static constexpr std::string_view kAcknowledgements[] = {
      "apologies", "understood", "great", "perfect", "awesome", "alright", "alrighty", "right", "hmm", "hm", "ha",
      "haha", "gotcha", "nope", "yup", "yep", "yeah", "sure", "thanks", "cheers", "also", "strange", "beautiful",
      "cool", "excellent", "brilliant", "wonderful", "fantastic", "lovely", "noted", "done", "correct", "indeed",
      "well", "fine", "nice", "wow", "oh", "ah", "aw", "aww", "ugh", "run", "good", "bad", "true", "agreed"};
  std::size_t i = 0;
  while (i < t.size() && t[i].kind == text::TokenKind::mention) ++i;
  // A salutation before a name of two or three words goes with it ("Hi Lee Chia Shiun, we regret…"); one
  // word after it is the salutation's (salutation_length: "Hi Hugh,", "Morning Smart,").
  static constexpr std::string_view kSalutations[] = {"hi", "hello", "hey", "hiya", "dear", "morning", "afternoon", "evening"};
  const bool saluted =
      i + 1 < t.size() && std::find(std::begin(kSalutations), std::end(kSalutations), t[i].lower) != std::end(kSalutations);
  if (saluted) ++i;
  std::size_t comma = i;  // past one to three name-like words
  while (comma < t.size() && comma < i + 3 && is_name_like(t[comma])) ++comma;
  if (comma == i || (saluted && comma == i + 1) || comma + 1 >= t.size() || t[comma].text != "," ||
      !is_word(t[comma + 1]))
    return t.size();
  if (comma == i + 1 && std::find(names.begin(), names.end(), t[i].text) != names.end()) return comma;
  for (std::size_t k = i; k < comma; ++k) {
    const std::string& lower = t[k].lower;
    const bool common = reported::contains(reported::kCommonOpeners, lower) || lower.ends_with("ly") || signs_off(t[k]) ||
                        std::find(std::begin(kAcknowledgements), std::end(kAcknowledgements), lower) != std::end(kAcknowledgements);
    if (common || written_in_lower_case(p, lower)) return t.size();
  }
  return comma;
}

// The names an agent addresses inside a sentence, after a courtesy and before a comma ("No worries Marcella,
// if you…", "So sorry Ray, please…", "Thank you Sonal, can you…", "That's alright Kera, if…"): marked in
// `vocative`. A place after such a word is rare ("Sorry Exeter," would read as addressed too).
void mark_names_after_courtesies(std::span<const text::Token> t, std::vector<char>& vocative) {
  static constexpr std::string_view kCourtesies[] = {"worries", "sorry", "thanks", "problem", "alright", "welcome",
                                                     "apologies", "hi", "hello", "hey", "ok", "okay", "great"};
  for (std::size_t k = 1; k + 1 < t.size(); ++k) {
    if (!is_name_like(t[k]) || t[k + 1].text != "," || !is_word(t[k - 1])) continue;
    const std::string& before = t[k - 1].lower;
    const bool courtesy = std::find(std::begin(kCourtesies), std::end(kCourtesies), before) != std::end(kCourtesies) ||
                          (before == "you" && k >= 2 && t[k - 2].lower == "thank");
    if (!courtesy) continue;
    if (vocative.empty()) vocative.assign(t.size(), 0);
    vocative[k] = 1;
  }
}

}  // namespace

void mark_vocatives(const Prepared& p, std::vector<UnitTokens>& out) {
  const std::vector<std::string> names = addressed_names(p);
  for (std::size_t u = 0; u < p.units.size(); ++u) {
    if (p.units[u].speaker != text::Speaker::agent) continue;
    const auto& t = out[u].tokens;
    if (const std::size_t comma = opening_vocative(p, t, names); comma < t.size()) {
      out[u].vocative.assign(t.size(), 0);
      for (std::size_t k = comma + 1; k-- > 0 && t[k].kind != text::TokenKind::mention;) out[u].vocative[k] = 1;
    }
    mark_names_after_courtesies(t, out[u].vocative);
    if (names.empty()) continue;
    std::size_t end = t.size();
    while (end > 0 && t[end - 1].kind != text::TokenKind::word) --end;
    if (end < 2 || end + 1 < t.size() || (end < t.size() && !ends_a_clause(t[end]))) continue;
    const std::size_t k = end - 1;
    if (!is_name_like(t[k]) || std::find(names.begin(), names.end(), t[k].text) == names.end()) continue;
    if (t[k - 1].kind != text::TokenKind::word && t[k - 1].text != ",") continue;
    if (signs_off(t[k - 1]) || (k >= 2 && t[k - 1].text == "," && signs_off(t[k - 2]))) continue;  // a sign-off
    if (out[u].vocative.empty()) out[u].vocative.assign(t.size(), 0);
    out[u].vocative[k] = 1;
    if (t[k - 1].text == ",") out[u].vocative[k - 1] = 1;
  }
}

namespace {

// Who a greeting addresses without naming anyone: "Hi there", "Hey guys", "Hello team".
bool is_group_address(const std::string& lower) {
  return lower == "there" || lower == "all" || lower == "guys" || lower == "folks" || lower == "team" ||
         lower == "everyone" || lower == "everybody" || lower == "friends";
}

// An agent's opening interjection of sympathy and the mark after it ("Oh no – DM us the Booking ID",
// "Oh dear! Please…", "Oops, …"): it says nothing a report keeps, and without it the request is
// reported as one ("The agent asks the customer to DM…"). Returns the tokens to drop (0: none).
std::size_t interjection_length(const std::vector<text::Token>& t) {
  static constexpr std::string_view kTwo[][2] = {{"oh", "no"}, {"oh", "dear"}, {"uh", "oh"}, {"oh", "man"}};
  static constexpr std::string_view kOne[] = {"oops", "yikes", "aw", "aww", "whoops", "eek"};
  std::size_t n = 0;
  if (t.size() >= 2 && is_word(t[0]) && is_word(t[1]))
    for (const auto& w : kTwo)
      if (t[0].lower == w[0] && t[1].lower == w[1]) n = 2;
  if (n == 0 && !t.empty() && is_word(t[0]) && std::find(std::begin(kOne), std::end(kOne), t[0].lower) != std::end(kOne))
    n = 1;
  if (n == 0 || n >= t.size()) return 0;
  const std::string& mark = t[n].text;
  if (mark != "-" && mark != "–" && mark != "—" && mark != "!" && mark != "," && mark != ".") return 0;
  std::size_t end = n;
  while (end < t.size() && t[end].kind == text::TokenKind::punct) ++end;
  return end < t.size() && is_word(t[end]) ? end : 0;
}

// A hesitation that opens a unit with a comma ("Um, you are AMAZING!", "Er, done - still jacked up"): it
// says nothing a summary keeps. Not before "..." ("Um... great customer service" is irony) or without a mark.
// Returns the tokens to drop (0: none).
std::size_t hesitation_length(const std::vector<text::Token>& t) {
  static constexpr std::string_view kHesitations[] = {"um",  "umm", "ummm", "uh",  "uhh",
                                                      "uhm", "er",  "erm",  "hmm", "hmmm"};
  if (t.empty() || !is_word(t[0]) ||
      std::find(std::begin(kHesitations), std::end(kHesitations), t[0].lower) == std::end(kHesitations))
    return 0;
  if (t.size() < 3 || t[1].text != "," || !is_word(t[2])) return 0;
  return 2;
}

// "Hi there," / "Hello Shayc!" / "Hey," at the start of a unit: the greeting word, at most one more
// word ("there", a name), then the , ! or . that ends the salutation. Without that mark the greeting
// ends where the sentence starts ("Hey it would be nice", "Hi guys can you"), the word after it only
// when it addresses a group ("Hi I need" keeps its I; "hi there is a problem" is "There is a
// problem"; "HI there we are due…" is "We are due…"). Returns the tokens to drop (0: none).
std::size_t salutation_length(const std::vector<text::Token>& t) {
  if (t.empty() || !is_word(t[0])) return 0;
  // "Good morning", "Good evening": the greeting is two words; "Morning," or "Evening Kera," one.
  const auto time_of_day = [](const std::string& w) { return w == "morning" || w == "afternoon" || w == "evening"; };
  std::size_t i = 0;
  if (is_greeting(t[0].lower)) {
    i = 1;
  } else if (t[0].lower == "good" && t.size() > 1 && is_word(t[1]) && time_of_day(t[1].lower)) {
    i = 2;
  } else if (time_of_day(t[0].lower) && t.size() > 1 &&
             (t[1].text == "," || t[1].text == "!" || (is_word(t[1]) && is_upper_ascii(t[1].text[0])))) {
    i = 1;
  } else {
    return 0;
  }
  const std::size_t greeting = i;
  if (i < t.size() && is_word(t[i]) && (is_group_address(t[i].lower) || is_upper_ascii(t[i].text[0])))
    ++i;
  if (i < t.size() && t[i].kind == text::TokenKind::punct &&
      (t[i].text == "," || t[i].text == "!" || t[i].text == "."))
    return i + 1;
  // "there" is addressed when a subject follows it ("HI there we are due to receive…"), and the subject
  // itself where a verb does ("hi there is a problem").
  static constexpr std::string_view kSubjects[] = {"we", "i", "you", "they", "we're", "i'm", "you're", "we've", "we'll"};
  const bool there_addressed =
      t.size() > greeting + 1 && is_word(t[greeting]) && t[greeting].lower == "there" && is_word(t[greeting + 1]) &&
      std::find(std::begin(kSubjects), std::end(kSubjects), t[greeting + 1].lower) != std::end(kSubjects);
  const std::size_t bare = t.size() > greeting && is_word(t[greeting]) &&
                                   ((t[greeting].lower != "there" && is_group_address(t[greeting].lower)) || there_addressed)
                               ? greeting + 1
                               : greeting;
  return bare < t.size() && is_word(t[bare]) ? bare : 0;
}

// An agent's sign-off at the end of t[first, limit): "^XS", "-AB", "*TJ" (a mark, then a 1-4 letter
// word that starts upper-case). A longer capitalized name is a sign-off too when nothing else is
// left ("^CAR", "-Chris") or when the mark is written onto the name after a space or a full stop
// ("... what the situation is.-Chris", "We'll look into it -Leighton") or a dash onto the word before
// it and a space after ("…for further assistance- Mariya"); a mark inside a word ("e-Reader") is not one.
// Returns the index of the mark, or `limit` when there is none.
std::size_t signature_start(const std::vector<text::Token>& t, std::size_t first, std::size_t limit, bool agent) {
  if (limit < first + 2) return limit;
  const auto& mark = t[limit - 2];
  const auto& name = t[limit - 1];
  const bool mark_ok = mark.text == "^" || mark.text == "-" || mark.text == "*" || mark.text == "~";
  // Spotify's agents sign "/CH", "/MC": a slash after a space, written onto two to four capitals.
  const bool slash_initials = mark.text == "/" && mark.byte_end == name.byte_start && name.text.size() >= 2 &&
                              name.text.size() <= 4 && std::all_of(name.text.begin(), name.text.end(), is_upper_ascii) &&
                              (limit - first == 2 || t[limit - 3].byte_end < mark.byte_start);
  if (slash_initials) return limit - 2;
  if (!mark_ok || !is_word(name) || !is_upper_ascii(name.text[0])) return limit;
  const bool alone = limit - first == 2;
  const bool letters_only = std::all_of(name.text.begin(), name.text.end(),
                                        [](char c) { return std::isalpha(static_cast<unsigned char>(c)); });
  const bool attached = mark.byte_end == name.byte_start && letters_only;
  const bool set_off = limit - 2 > first && (t[limit - 3].byte_end < mark.byte_start ||
                                              t[limit - 3].kind == text::TokenKind::punct);
  // The dash written onto the last word and the name after a space: "…for further assistance- Mariya".
  const bool dash_after_word = mark.text == "-" && limit - 2 > first && is_word(t[limit - 3]) &&
                               t[limit - 3].byte_end == mark.byte_start && mark.byte_end < name.byte_start && letters_only;
  // In an agent's tweet, a dash set off by spaces on both sides before a name ("…your order details - Sheree",
  // "…caused - Laura"; every one of the 63 agent tweets of TweetSumm that end so signs off), not a day or a
  // month ("open Monday - Friday"). A customer's is the sentence's ("…waited a whole - Month").
  static constexpr std::string_view kDates[] = {"monday", "tuesday", "wednesday", "thursday", "friday", "saturday",
                                                "sunday", "january", "february", "march", "april", "june", "july",
                                                "august", "september", "october", "november", "december"};
  const bool spaced_dash = agent && mark.text == "-" && set_off && mark.byte_end < name.byte_start && is_name_like(name) &&
                           std::find(std::begin(kDates), std::end(kDates), name.lower) == std::end(kDates);
  return alone || name.text.size() <= 4 || (attached && set_off) || dash_after_word || spaced_dash ? limit - 2 : limit;
}

// A tweet thread's counter, "1/2" or "(2/3)": n/m with 1 <= n <= m <= 9 (not "24/7", "9/15", "0/10").
bool is_thread_counter(const text::Token& t) {
  const std::string& s = t.text;
  return t.kind == text::TokenKind::number && s.size() == 3 && s[1] == '/' && s[0] >= '1' && s[0] <= '9' &&
         s[2] >= '2' && s[2] <= '9' && s[0] <= s[2];
}

// The end of a written continuation mark that opens t[first, limit) ("-(contd)any letter...", "(cont'd)
// ...", "...cont"), or `first` when there is none.
std::size_t continuation_mark_end(std::span<const text::Token> t, std::size_t first, std::size_t limit) {
  std::size_t i = first;
  if (i < limit && (t[i].text == "-" || t[i].text == "..." || t[i].text == "\xE2\x80\xA6")) ++i;
  const bool paren = i < limit && t[i].text == "(";
  if (paren) ++i;
  static constexpr std::string_view kMarks[] = {"contd", "cont'd", "cont", "continued", "ctd"};
  if (i >= limit || t[i].kind != text::TokenKind::word ||
      std::find(std::begin(kMarks), std::end(kMarks), t[i].lower) == std::end(kMarks))
    return first;
  ++i;
  if (i < limit && t[i].text == ".") ++i;
  if (paren) return i < limit && t[i].text == ")" ? i + 1 : first;
  return i;
}

// The end of a thread counter that opens t[first, limit) ("2/2 Facebook by ...", "(1/2) ..."),
// parentheses included, or a continuation mark's, or `first` when there is none.
std::size_t opening_counter_end(const std::vector<text::Token>& t, std::size_t first, std::size_t limit) {
  if (const std::size_t mark = continuation_mark_end(t, first, limit); mark > first) return mark;
  const bool paren = first < limit && t[first].text == "(";
  const std::size_t i = first + (paren ? 1 : 0);
  if (i >= limit || !is_thread_counter(t[i])) return first;
  if (!paren) return i + 1;
  return i + 1 < limit && t[i + 1].text == ")" ? i + 2 : first;
}

// The start of a thread counter that closes t[first, limit) ("... ;) 1/3", "(2/2)"), or `limit`. Just
// before a sign-off a lone digit is one too: the data split "1/2 ^XS" and kept "1 ^XS".
std::size_t closing_counter_start(const std::vector<text::Token>& t, std::size_t first, std::size_t limit,
                                  bool before_signoff) {
  if (limit <= first) return limit;
  if (is_thread_counter(t[limit - 1])) return limit - 1;
  const std::string& last = t[limit - 1].text;
  if (before_signoff && limit > first + 1 && t[limit - 1].kind == text::TokenKind::number && last.size() == 1 &&
      last[0] >= '1' && last[0] <= '9')
    return limit - 1;
  if (limit >= first + 3 && t[limit - 1].text == ")" && is_thread_counter(t[limit - 2]) && t[limit - 3].text == "(")
    return limit - 3;
  return limit;
}

bool is_thanks_word(const std::string& lower) {
  return lower == "thanks" || lower == "thx" || lower == "ty" || lower == "cheers" || lower == "regards";
}

// Where a thanks formula ("Thanks", "TY", "Cheers", "Thank you", "Kind regards") that ends
// t[first, end) starts, or `end` when t[first, end) does not end with one.
std::size_t thanks_formula_start(const std::vector<text::Token>& t, std::size_t first, std::size_t end) {
  if (end == first || !is_word(t[end - 1])) return end;
  const std::string& w = t[end - 1].lower;
  const std::string before = end >= first + 2 && is_word(t[end - 2]) ? t[end - 2].lower : std::string();
  if ((w == "you" && before == "thank") || (w == "thanks" && before == "many") ||
      (w == "regards" && (before == "kind" || before == "best" || before == "warm")))
    return end - 2;
  return is_thanks_word(w) ? end - 1 : end;
}

// An agent's thanks with a name at the end of t[first, limit): "Thanks - Emma", "TY - Kelly.",
// "Cheers, Steve", "Thanks-Mich", "Kind regards, Mahindra" (the name one capitalized word of any
// length, the mark between them optional). When the name already went as a sign-off
// (`named_after`: "Kind Regards - Rob"), the thanks alone. Returns where it starts, or `limit`.
std::size_t thanks_signoff_start(const std::vector<text::Token>& t, std::size_t first, std::size_t limit,
                                 bool named_after) {
  std::size_t j = limit;
  if (j > first && t[j - 1].text == ".") --j;
  if (!named_after) {
    if (j == first || !is_word(t[j - 1])) return limit;
    // Written as one hyphenated word: "Thanks-Mich".
    const std::string& w = t[j - 1].text;
    const auto dash = w.find('-');
    if (dash != std::string::npos && dash + 1 < w.size() && is_upper_ascii(w[dash + 1]) &&
        is_thanks_word(t[j - 1].lower.substr(0, dash)))
      return j - 1;
    if (!is_upper_ascii(w[0])) return limit;
    --j;  // the name
  }
  if (j > first && (t[j - 1].text == "," || t[j - 1].text == "-" || t[j - 1].text == "~")) --j;
  const std::size_t start = thanks_formula_start(t, first, j);
  return start < j ? start : limit;
}

// Where a unit's trailing addressing starts: sign-offs, thread counters and (agent units) a thanks
// with a name, peeled from the end in any order ("Ty - Marian 2/2", "(1/2)^CB").
std::size_t addressing_tail_start(const std::vector<text::Token>& t, std::size_t first, bool agent) {
  std::size_t limit = t.size();
  bool signed_off = false;
  for (;;) {
    std::size_t next = signature_start(t, first, limit, agent);
    const bool sign = next < limit;
    if (next == limit) next = closing_counter_start(t, first, limit, signed_off);
    if (next == limit && agent) next = thanks_signoff_start(t, first, limit, signed_off);
    if (next == limit) {
      // A name left alone once a counter or sign-off went ("Chris 2/2") signs the tweet off too.
      const bool name_alone = agent && limit < t.size() && limit == first + 1 && is_word(t[first]) &&
                              is_upper_ascii(t[first].text[0]);
      return name_alone ? first : limit;
    }
    signed_off = signed_off || sign;
    limit = next;
  }
}


// A mention read as a name: without its @ ("@AmazonHelp" -> "AmazonHelp"); an anonymized handle
// (TweetSumm's "@116057") stays as written, since a bare number would read as a quantity.
std::string mention_as_name(const std::string& mention) {
  const std::string name = mention.substr(1);
  const bool digits = !name.empty() && name.find_first_not_of("0123456789") == std::string::npos;
  return digits ? mention : name;
}

// When the unit's capitalized first word went (an idiom dropped: "I'm afraid we can't ..."), the first
// word kept starts the sentence now: "We can't ...", "The agent can't ...". Forced tokens keep the
// customer's spelling.
// `token`, now the first of its sentence, written with a capital: its reported form (or its text) in
// `form`, left empty when that is the text as written. A forced token keeps the customer's spelling.
void capitalize_start(const text::Token& token, bool forced, std::string& form) {
  if (forced) return;
  if (form.empty()) form = token.text;
  if (form[0] >= 'a' && form[0] <= 'z') form[0] = static_cast<char>(form[0] - 'a' + 'A');
  if (form == token.text) form.clear();
}

void capitalize_new_start(std::span<const text::Token> t, const std::vector<char>& keep,
                          const std::vector<char>& forced, std::vector<std::string>& forms) {
  std::size_t first = 0;
  while (first < t.size() && t[first].kind != text::TokenKind::word) ++first;
  if (first == t.size() || keep[first] || t[first].text.empty() || t[first].text[0] < 'A' || t[first].text[0] > 'Z')
    return;
  for (std::size_t i = first + 1; i < t.size(); ++i)
    if (keep[i] && t[i].kind == text::TokenKind::word) {
      capitalize_start(t[i], forced[i], forms[i]);
      return;
    }
}

// A verb that makes a mention before it the sentence's subject.
bool is_subject_verb(const std::string& lower) {
  static constexpr std::string_view kVerbs[] = {"is", "are", "was", "were", "has", "have", "had", "keeps", "kept",
                                                "won't", "can't", "cannot", "doesn't", "don't", "didn't", "isn't",
                                                "wasn't", "did", "does", "will", "should", "needs", "sucks", "still",
                                                "agree", "agrees", "say", "says", "said", "told", "tells", "refuse",
                                                "refuses", "refused", "claim", "claims", "wants", "keep"};
  return std::find(std::begin(kVerbs), std::end(kVerbs), lower) != std::end(kVerbs);
}

// "Claim here: https://..." without its link ends in a colon that introduces nothing: a full stop.
void close_dangling_colon(std::string& rendered, std::span<const text::Token> t, const std::vector<char>& keep) {
  std::size_t last = t.size();
  for (std::size_t i = t.size(); i-- > 0;)
    if (keep[i]) {
      last = i;
      break;
    }
  if (last + 1 >= t.size() || t[last].text != ":" || rendered.empty() || rendered.back() != ':') return;
  rendered.back() = '.';
}

// Whether an English word opens a direct question: a wh-word, or an auxiliary or modal.
bool opens_a_question(std::string_view w) {
  static constexpr std::string_view kOpeners[] = {"what", "which", "where", "when", "how", "why", "who", "whose",
                                                  "is", "are", "was", "were", "am", "do", "does", "did", "have",
                                                  "has", "had", "can", "could", "would", "will", "should", "may",
                                                  "might", "shall"};
  return std::find(std::begin(kOpeners), std::end(kOpeners), w) != std::end(kOpeners);
}

// Whether the kept tokens open as a question though no question mark ends them ("will I get the same
// seats, please reply soon", "can you tell me where has stock of the hulk buster please", "why does I
// keep getting this error please help"): an auxiliary before a subject, a question word before an
// auxiliary, or "how long" (much, many, often, soon, far) before an auxiliary and its subject ("What a
// waste" and "How annoying" exclaim).
bool opens_as_question(std::span<const text::Token> t, const std::vector<char>& keep) {
  static constexpr std::string_view kAuxiliaries[] = {
      "is", "are", "was", "were", "am", "do", "does", "did", "have", "has", "can", "could", "would", "will", "should",
      "may", "isn't", "aren't", "wasn't", "don't", "doesn't", "didn't", "haven't", "hasn't", "can't", "couldn't",
      "wouldn't", "won't", "shouldn't", "isn’t", "aren’t", "wasn’t", "don’t", "doesn’t", "didn’t", "haven’t",
      "hasn’t", "can’t", "couldn’t", "wouldn’t", "won’t", "shouldn’t",
      "r"};  // text speak: "when r the longer trains coming" (TweetSumm train e7f0bb93), "r u open"
  // A connective may open it: "SO WHY CAN'T I VIEW MY NOTIFICATIONS" asks.
  static constexpr std::string_view kConnectives[] = {"so", "and", "but", "then", "ok", "okay", "well"};
  static constexpr std::string_view kSubjects[] = {"i", "you", "we", "they", "it", "there", "the", "my", "your",
                                                   "our", "this", "that", "someone", "anyone", "somebody", "anybody", "u"};
  static constexpr std::string_view kWh[] = {"what", "where", "when", "how", "why"};  // "which is…" relates
  // The unit's first kept token must be the question's first word ("9025288580is my number" and "🙌 #truro
  // is my local" do not ask).
  std::vector<std::string_view> w;
  bool opened = false;  // past a leading connective
  for (std::size_t i = 0; i < t.size() && w.size() < 4; ++i) {
    if (!keep[i] || (w.empty() && t[i].kind == text::TokenKind::punct)) continue;
    if (!is_word(t[i])) {
      if (w.size() >= 2) break;  // the first two words decide, or "how long" and the two after it
      return false;
    }
    if (w.empty() && !opened &&
        std::find(std::begin(kConnectives), std::end(kConnectives), t[i].lower) != std::end(kConnectives)) {
      opened = true;
      continue;
    }
    w.push_back(t[i].lower);
  }
  if (w.size() < 2) return false;
  auto in = [](std::string_view x, const auto& list) { return std::find(std::begin(list), std::end(list), x) != std::end(list); };
  if ((in(w[0], kAuxiliaries) && in(w[1], kSubjects)) || (in(w[0], kWh) && in(w[1], kAuxiliaries))) return true;
  // "How long / much / many / often / soon / far" and then an auxiliary before its subject ("how long is it
  // before you contact someone", "How much can I take.", "How long does it take to get the money back").
  static constexpr std::string_view kHowWhat[] = {"long", "much", "many", "often", "soon", "far"};
  if (w.size() >= 4 && w[0] == "how" && in(w[1], kHowWhat) && in(w[2], kAuxiliaries) && in(w[3], kSubjects)) return true;
  // "Why" and a phrase before the auxiliary and its subject ("why following the initial recent update does the
  // WiFi keep turning itself on"), within eight words and no mark between. A headline that explains ("Why the
  // app I use is the best one") reads as asked too; customers rarely tweet one.
  if (w[0] != "why") return false;
  std::string_view previous;
  for (std::size_t i = 0, words = 0; i < t.size() && words < 9; ++i) {
    if (!keep[i]) continue;
    if (!is_word(t[i])) {
      if (words > 0 && t[i].kind == text::TokenKind::punct) return false;
      continue;
    }
    if (words >= 2 && in(previous, kAuxiliaries) && in(t[i].lower, kSubjects)) return true;
    previous = t[i].lower;
    ++words;
  }
  return false;
}

// Whether the kept tokens' last clause, after a comma or a "so" or "but" past the first word, opens as a
// question (opens_as_question): "MY PHONE IS UNLOCKED SO WHY CAN'T I VIEW MY NOTIFICATIONS" asks, as
// "I restarted it, why does it still crash" does.
bool asks_in_its_last_clause(std::span<const text::Token> t, const std::vector<char>& keep) {
  std::size_t first_word = t.size();
  for (std::size_t i = 0; i < t.size() && first_word == t.size(); ++i)
    if (keep[i] && is_word(t[i])) first_word = i;
  for (std::size_t i = t.size(); i-- > first_word + 1;) {
    if (!keep[i]) continue;
    const bool comma = t[i].kind == text::TokenKind::punct && t[i].text == ",";
    const bool connective = is_word(t[i]) && (t[i].lower == "so" || t[i].lower == "but");
    if (!comma && !connective) continue;
    const std::size_t from = comma ? i + 1 : i;
    return from < t.size() && opens_as_question(t.subspan(from), std::vector<char>(keep.begin() + static_cast<std::ptrdiff_t>(from), keep.end()));
  }
  return false;
}

// Whether the kept tokens end in a question mark (past closing emoji and brackets).
bool ends_as_question(std::span<const text::Token> t, const std::vector<char>& keep) {
  for (std::size_t i = t.size(); i-- > 0;) {
    if (!keep[i] || t[i].kind == text::TokenKind::emoji || t[i].text == ")" || t[i].text == "\"") continue;
    return t[i].text.find('?') != std::string::npos && text::is_punctuation(t[i]);
  }
  return false;
}

}  // namespace

std::string drop_addressing(const Unit& unit, const UnitTokens& tokens) { return render_english(unit, tokens, false); }

bool opens_as_english_question(std::span<const text::Token> tokens) {
  std::size_t first = 0;  // past the @mentions a tweet opens with
  while (first < tokens.size() && tokens[first].kind == text::TokenKind::mention) ++first;
  const std::span<const text::Token> said = tokens.subspan(first);
  const std::vector<char> all(said.size(), 1);
  return opens_as_question(said, all) || asks_in_its_last_clause(said, all);
}

bool continues_thread(std::span<const text::Token> t) {
  std::size_t i = 0;
  while (i < t.size() && t[i].kind == text::TokenKind::mention) ++i;
  if (continuation_mark_end(t, i, t.size()) > i) return true;
  if (i < t.size() && t[i].text == "(") ++i;
  return i < t.size() && is_thread_counter(t[i]) && t[i].text[0] >= '2';
}

namespace {

// Where a tweet's sentence lies: past its @mentions, before its trailing addressing (sign-off, thread
// counter), links and handles. first == end when nothing is said.
struct Said {
  std::size_t first = 0, end = 0;
};
Said said_span(const std::vector<text::Token>& t, bool agent) {
  Said s;
  while (s.first < t.size() && t[s.first].kind == text::TokenKind::mention) ++s.first;
  s.end = addressing_tail_start(t, s.first, agent);
  while (s.end > s.first &&
         (t[s.end - 1].kind == text::TokenKind::url || t[s.end - 1].kind == text::TokenKind::mention))
    --s.end;
  return s;
}

}  // namespace

bool ends_on_comma(const std::vector<text::Token>& t, bool agent) {
  const Said s = said_span(t, agent);
  return s.end > s.first && t[s.end - 1].text == ",";
}

bool leaves_sentence_open(const std::vector<text::Token>& t, bool agent) {
  const auto [first, end] = said_span(t, agent);
  if (end == first) return false;
  const text::Token& last = t[end - 1];
  if (last.text == "," || last.text == "(") return true;
  // A stop after a word that only opens a noun phrase ends nothing: "...can't be delivered to your.1/2".
  static constexpr std::string_view kDeterminers[] = {"the", "a", "an", "your", "our", "my", "their", "his", "her"};
  if (last.text == "." && end - 1 > first && is_word(t[end - 2]) &&
      std::find(std::begin(kDeterminers), std::end(kDeterminers), t[end - 2].lower) != std::end(kDeterminers))
    return true;
  if (!is_word(last)) return false;
  static constexpr std::string_view kOpenEnds[] = {"and", "or", "but", "the", "a", "an", "to", "of", "for",
                                                   "with", "in", "on", "at", "by", "your", "you", "our", "my",
                                                   "is", "are", "was", "be", "that", "which", "if", "as", "from"};
  return agent || std::find(std::begin(kOpenEnds), std::end(kOpenEnds), last.lower) != std::end(kOpenEnds);
}

bool opens_in_lower_case(std::span<const text::Token> t) {
  std::size_t i = 0;
  while (i < t.size() && t[i].kind == text::TokenKind::mention) ++i;
  return i < t.size() && is_word(t[i]) && t[i].text[0] >= 'a' && t[i].text[0] <= 'z' && t[i].text != "i";
}

bool opens_with_acronym(std::span<const text::Token> t) {
  std::size_t i = 0;
  while (i < t.size() && t[i].kind == text::TokenKind::mention) ++i;
  if (i >= t.size() || !is_word(t[i]) || t[i].text.size() < 2 || t[i].text.size() > 5) return false;
  for (char c : t[i].text)
    if (!is_upper_ascii(c)) return false;
  return i + 1 < t.size() && is_word(t[i + 1]) && !is_upper_ascii(t[i + 1].text[0]);
}

namespace {

// en: an agent's "click", "tap" or "press" before t[i].
bool after_click(std::span<const text::Token> t, std::size_t i) {
  static constexpr std::string_view kClicks[] = {"click", "tap", "press"};
  return i > 0 && is_word(t[i - 1]) && std::find(std::begin(kClicks), std::end(kClicks), t[i - 1].lower) != std::end(kClicks);
}

// A link kept as "the link" right after "here": after a click the "here" goes ("Click here https://… to
// reset" -> "Click the link to reset"); at a clause's end the link goes, for point_away_from_dropped_links to
// read its "here" ("…our support team here https://…, and…" would read "…here the link, and…").
void settle_here_before_kept_links(std::span<const text::Token> t, std::vector<char>& keep,
                                   std::vector<std::string>& inner) {
  for (std::size_t j = 1; j < t.size(); ++j) {
    if (t[j].kind != text::TokenKind::url || !keep[j] || !is_word(t[j - 1]) || t[j - 1].lower != "here") continue;
    if (after_click(t, j - 1)) {
      keep[j - 1] = 0;
    } else if (j + 1 == t.size() || text::is_punctuation(t[j + 1])) {
      keep[j] = 0;
      inner[j].clear();
    }
  }
}

// A verb that only points at the link after it ("…to get it fixed asap, refer: https://…", "see: https://…"),
// with the link dropped and nothing said after it, points at nothing: it goes, with its mark and the comma
// before it ("…to get it fixed asap.").
void drop_pointer_to_dropped_link(std::span<const text::Token> t, std::size_t i, std::vector<char>& keep) {
  static constexpr std::string_view kPointers[] = {"refer", "see", "visit", "check"};
  if (std::find(std::begin(kPointers), std::end(kPointers), t[i].lower) == std::end(kPointers)) return;
  std::size_t j = i + 1;
  while (j < t.size() && (t[j].text == ":" || t[j].text == "-")) ++j;
  if (j == i + 1 || j >= t.size() || t[j].kind != text::TokenKind::url || keep[j]) return;
  for (std::size_t k = j + 1; k < t.size(); ++k) {
    if (t[k].text == "^" && k + 1 < t.size()) ++k;  // the agent's initials (^MG): a sign-off, not a word said
    else if (keep[k] && is_word(t[k])) return;
  }
  for (std::size_t k = i; k < j; ++k) keep[k] = 0;
  if (i > 0 && t[i - 1].text == ",") keep[i - 1] = 0;
}

// Whether nothing is said in t[j, end) but marks and the tweet's addressing tail (a counter, a sign-off):
// what points there points past the tweet ("…or complete the following form: 1/2", the link in the next).
bool only_addressing_from(std::span<const text::Token> t, std::size_t j) {
  while (j < t.size() && t[j].kind == text::TokenKind::punct) ++j;
  const std::vector<text::Token> rest(t.begin() + static_cast<std::ptrdiff_t>(j), t.end());
  return addressing_tail_start(rest, 0, /*agent=*/true) == 0;
}

// Whether the unit shows no link: none of its links is kept (a summary shows a link only as "the link" after a
// click, settle_here_before_kept_links).
bool shows_no_link(std::span<const text::Token> t, const std::vector<char>& keep) {
  for (std::size_t j = 0; j < t.size(); ++j)
    if (t[j].kind == text::TokenKind::url && keep[j]) return false;
  return true;
}

// "The link below", "the below link", "the link above", "the above link" and "the following link(s)" in a unit
// that shows no link point at nothing the summary shows, wherever the link was (a later tweet, a picture):
// "the" reads "a", the pointer goes ("…using a link and the agent will look closer", "…on a link to complete
// a lost property report"). Returns whether it rewrote at t[i].
bool point_at_a_link_elsewhere(std::span<const text::Token> t, std::size_t i, std::vector<char>& keep,
                               std::vector<std::string>& inner) {
  if (t[i].lower != "the" || i + 2 >= t.size() || !is_word(t[i + 1]) || !is_word(t[i + 2])) return false;
  const std::string& a = t[i + 1].lower;
  const std::string& b = t[i + 2].lower;
  const bool link_then_where = (a == "link" || a == "links") && (b == "below" || b == "above");
  const bool where_then_link = (a == "below" || a == "above" || a == "following") && (b == "link" || b == "links");
  if (!(link_then_where || where_then_link) || !shows_no_link(t, keep)) return false;
  const bool plural = a == "links" || b == "links";
  if (plural) keep[i] = 0;
  else inner[i] = is_upper_ascii(t[i].text[0]) ? "A" : "a";
  keep[link_then_where ? i + 2 : i + 1] = 0;
  return true;
}

// A determiner that points at a link or form the summary does not show ("this link", "the next link", "the
// following form"), before the dropped link or before a colon that ends the tweet, reads "a" ("…follow the steps in a
// link", "…or complete a form", "…on an article"); with a plural it goes ("these links" -> "links").
void point_at_some_link(std::span<const text::Token> t, std::size_t i, std::vector<char>& keep,
                        std::vector<std::string>& inner) {
  if (point_at_a_link_elsewhere(t, i, keep, inner)) return;
  static constexpr std::string_view kThings[] = {"link", "links", "form", "forms", "page", "article", "articles"};
  std::size_t noun = i + 1;
  const bool the = t[i].lower == "the";
  if (!the && t[i].lower != "this" && t[i].lower != "these") return;
  if (the) {
    if (noun >= t.size() || !is_word(t[noun]) || (t[noun].lower != "next" && t[noun].lower != "following")) return;
    ++noun;
  }
  if (noun >= t.size() || !is_word(t[noun]) ||
      std::find(std::begin(kThings), std::end(kThings), t[noun].lower) == std::end(kThings))
    return;
  std::size_t j = noun + 1;
  while (j < t.size() && (t[j].text == ":" || t[j].text == "-")) ++j;
  const bool link_dropped = j < t.size() && t[j].kind == text::TokenKind::url && !keep[j];
  const bool introduces_what_follows = j > noun + 1 && only_addressing_from(t, j);  // "…form: 1/2"
  if (!link_dropped && !introduces_what_follows) return;
  for (std::size_t k = i + 1; k < noun; ++k) keep[k] = 0;  // "next", "following"
  if (t[noun].lower.back() == 's') keep[i] = 0;
  else if (t[noun].lower == "article") inner[i] = is_upper_ascii(t[i].text[0]) ? "An" : "an";
  else inner[i] = is_upper_ascii(t[i].text[0]) ? "A" : "a";
}

// The words that point at a link the rendering dropped, which in a summary point at nothing: "here" right
// before it (a colon or dash between) reads "online" ("…can claim compensation here: https://…" -> "…can
// claim compensation online"), or "the link" after a click; "below" after "link" goes, and the "the" before
// it reads "a" ("DM us using the link below" -> "…using a link"). `inner` holds what a token reads
// instead; `keep` 0 drops one. For agents' links only: a customer's is a picture ("stuck here https://…").
void point_away_from_dropped_links(std::span<const text::Token> t, std::vector<char>& keep,
                                   std::vector<std::string>& inner) {
  settle_here_before_kept_links(t, keep, inner);
  for (std::size_t i = 0; i + 1 < t.size(); ++i)
    if (keep[i] && is_word(t[i]) && inner[i].empty()) point_at_some_link(t, i, keep, inner);
  const auto dropped_link_at = [&](std::size_t j) { return j < t.size() && t[j].kind == text::TokenKind::url && !keep[j]; };
  bool any_dropped = false;
  for (std::size_t j = 0; j < t.size(); ++j) any_dropped = any_dropped || dropped_link_at(j);
  if (!any_dropped) return;
  static constexpr std::string_view kMarks[] = {":", "-", "–", "—", ">", "→"};
  for (std::size_t i = 0; i < t.size(); ++i) {
    if (!keep[i] || !is_word(t[i]) || !inner[i].empty()) continue;
    if (t[i].lower == "here") {
      std::size_t j = i + 1;
      while (j < t.size() && t[j].kind == text::TokenKind::punct &&
             std::find(std::begin(kMarks), std::end(kMarks), t[j].text) != std::end(kMarks))
        ++j;
      if (dropped_link_at(j)) inner[i] = after_click(t, i) ? "the link" : "online";
    } else if (t[i].lower == "below" && i >= 1 && is_word(t[i - 1]) &&
               (t[i - 1].lower == "link" || t[i - 1].lower == "links")) {
      keep[i] = 0;
      if (i >= 2 && t[i - 2].lower == "the" && keep[i - 2]) {
        if (t[i - 1].lower == "link") inner[i - 2] = t[i - 2].text == "The" ? "A" : "a";
        else keep[i - 2] = 0;
      }
    } else {
      drop_pointer_to_dropped_link(t, i, keep);
    }
  }
}

}  // namespace

std::string render_english(const Unit& unit, const UnitTokens& tokens, bool reported_speech, bool* reported) {
  if (reported != nullptr) *reported = false;
  const auto& t = tokens.tokens;
  std::vector<char> keep(t.size(), 1);
  // Addressing is the @mentions and links before the first word and after the last; one inside the
  // sentence is part of what it says ("Got an offer code from @AmazonHelp" must not become "Got an
  // offer code from ."): a mention stays without its @, a link reads "the link".
  std::size_t first_word = t.size(), last_word = 0;
  for (std::size_t i = 0; i < t.size(); ++i)
    if (is_word(t[i])) {
      first_word = std::min(first_word, i);
      last_word = i;
    }
  std::vector<std::string> inner(t.size());
  for (std::size_t i = 0; i < t.size(); ++i) {
    if (t[i].kind != text::TokenKind::mention && t[i].kind != text::TokenKind::url) continue;
    // Only after a word that takes it as an object ("from @AmazonHelp", "at https://..."): elsewhere a
    // mention inside a unit is a vocative ("ok!! @jane! thanks") and a link an aside.
    static constexpr std::string_view kBefore[] = {"from", "to", "at", "with", "by", "via", "on", "for", "contact",
                                                   "call", "tweet", "dm", "message", "follow", "visit", "see",
                                                   "here", "and", "or"};
    // Words on both sides make it a part of the sentence too ("How can @SW_Help sell", "Let
    // @British_Airways lose my bag"); dropping it would leave "How can sell". Not after a greeting
    // ("Hey @jane it would be nice"): that is a vocative.
    // Mentions in a row ("think @115725 @VerizonSupport is the worst") are one name: the last of the
    // run stands for it, where the run is part of the sentence.
    const bool mention = t[i].kind == text::TokenKind::mention;
    std::size_t a = i, b = i + 1;
    while (mention && a > 0 && t[a - 1].kind == text::TokenKind::mention) --a;
    while (mention && b < t.size() && t[b].kind == text::TokenKind::mention) ++b;
    const bool last_of_run = b == i + 1;
    // "w/" is "with" ("engage w/@389184"; "w/" alone would be left dangling).
    const bool after_with_slash = a >= 2 && a - 1 > first_word && t[a - 1].text == "/" && t[a - 2].lower == "w";
    const bool after_taker = after_with_slash || (a > first_word && is_word(t[a - 1]) &&
                                                  std::find(std::begin(kBefore), std::end(kBefore), t[a - 1].lower) != std::end(kBefore));
    static constexpr std::string_view kGreeting[] = {"hey", "hi", "hello", "dear", "thanks", "thank", "cheers"};
    const bool between_words = a > first_word && b <= last_word && is_word(t[a - 1]) && is_word(t[b]) &&
                               std::find(std::begin(kGreeting), std::end(kGreeting), t[a - 1].lower) == std::end(kGreeting);
    // A mention that opens the unit and runs on into a lower-case verb is its subject ("@116021 is
    // really getting on my nerves"): without it the sentence would open on "is". A capital after the
    // handle starts the sentence ("@Delta Is this normal?"), and the handle is addressing. An agent's
    // opening handle is the customer it answers, even before a verb: a thread's second tweet goes on
    // with the first's sentence ("...& I 1/2" then "@466747 will escalate your account...").
    const bool subject = mention && unit.speaker != text::Speaker::agent && a < first_word && b == first_word && b < t.size() && !is_upper_ascii(t[b].text[0]) &&
                         is_subject_verb(t[b].lower);
    if (last_of_run && (after_taker || (between_words && mention) || subject))
      inner[i] = t[i].kind == text::TokenKind::mention ? mention_as_name(t[i].text) : std::string("the link");
    else
      keep[i] = 0;
  }
  // A colon that introduced a dropped link: where the sentence goes on in lower case it goes with the link
  // ("reaching out to chat: https://… support" reads "reaching out to chat support"); where a new
  // sentence follows it ends the sentence ("…the steps here: https://… Keep us posted" reads "…the steps
  // here. Keep us posted"); at the end close_dangling_colon makes it a full stop.
  for (std::size_t i = 1; i + 1 < t.size(); ++i) {
    if (keep[i] || t[i].kind != text::TokenKind::url || t[i - 1].text != ":" || !is_word(t[i + 1])) continue;
    if (!is_upper_ascii(t[i + 1].text[0])) keep[i - 1] = 0;
    else inner[i - 1] = ".";
  }
  if (unit.speaker == text::Speaker::agent) point_away_from_dropped_links(t, keep, inner);
  // An agent's closing vocative ("...any issues, Claire.") is addressing too.
  for (std::size_t i = 0; i < tokens.vocative.size() && i < t.size(); ++i)
    if (tokens.vocative[i]) keep[i] = 0;
  // The salutation, sign-off and thread counters are found on the tokens that remain ("@jane Hi
  // there, ..." too).
  std::vector<text::Token> rest;
  std::vector<std::size_t> where;
  for (std::size_t i = 0; i < t.size(); ++i)
    if (keep[i]) {
      rest.push_back(t[i]);
      where.push_back(i);
    }
  const std::size_t greet = std::max({salutation_length(rest), hesitation_length(rest),
                                      unit.speaker == text::Speaker::agent ? interjection_length(rest) : std::size_t{0}});
  const std::size_t tail = std::max(greet, addressing_tail_start(rest, greet, unit.speaker == text::Speaker::agent));
  // Where the unit's words now start: after the salutation and an opening thread counter.
  const std::size_t lead = opening_counter_end(rest, greet, tail);
  for (std::size_t k = 0; k < lead; ++k) keep[where[k]] = 0;
  for (std::size_t k = tail; k < rest.size(); ++k) keep[where[k]] = 0;
  bool dropped = false;
  for (std::size_t i = 0; i < t.size(); ++i) {
    if (tokens.forced[i]) keep[i] = 1;
    dropped = dropped || !keep[i];
  }
  const bool regret = reported_speech && drop_regret_idiom(t, keep, tokens.forced);
  dropped = dropped || regret;
  std::vector<std::string> forms =
      reported_speech ? reported_forms(t, unit.speaker, tokens.forced, keep) : std::vector<std::string>(t.size());
  if (regret) capitalize_new_start(t, keep, tokens.forced, forms);
  // A customer's report names the company they write to: "you as a company" is "the company".
  if (reported_speech && unit.speaker == text::Speaker::customer &&
      std::any_of(forms.begin(), forms.end(), [](const std::string& f) { return !f.empty(); }))
    dropped = name_the_company(t, keep, forms, tokens.forced) || dropped;
  for (std::size_t i = 0; i < t.size(); ++i)
    if (!inner[i].empty()) forms[i] = inner[i];
  // An agent's request or question is reported as one: "Could you check X?" -> "They ask the customer
  // to check X."; "Have you tried X?" -> "They ask whether the customer has tried X."
  const bool indirect = reported_speech && unit.speaker == text::Speaker::agent &&
                        (report_request(t, keep, forms, tokens.forced) || report_question(t, keep, forms, tokens.forced));
  dropped = dropped || indirect;
  // Any other question names who asks: unnamed it reads as the summary's own question ("What device
  // is the customer on?"). An agent's that opens with its question word or auxiliary is reported as
  // asked ("The agent asks: What device is the customer on?"); any other stays in its speaker's own
  // words, under their label ("Customer: Can I get a refund?", "Agent: We'd like to help, could you DM
  // us?"), as "The customer asks: can the customer get a refund?" would name them twice.
  const bool customer_asks =
      unit.speaker == text::Speaker::customer && (opens_as_question(t, keep) || asks_in_its_last_clause(t, keep));
  if (reported_speech && !indirect && (ends_as_question(t, keep) || customer_asks)) {
    std::size_t w = 0;
    while (w < t.size() && !(keep[w] && is_word(t[w]))) ++w;
    if (unit.speaker == text::Speaker::agent && w < t.size() && !tokens.forced[w] && opens_a_question(t[w].lower)) {
      forms[w] = "The agent asks: " + (forms[w].empty() ? t[w].text : forms[w]);
      dropped = true;
    } else {
      for (std::size_t i = 0; i < t.size(); ++i)
        if (inner[i].empty()) forms[i].clear();
    }
  }
  // A customer's report with its "I" left out names the customer ("Just wasted an hour of my life" ->
  // "The customer just wasted an hour of their life"): without it the sentence has no subject and,
  // unlabelled, reads as whoever spoke before.
  if (reported_speech && unit.speaker == text::Speaker::customer && !ends_as_question(t, keep) && !customer_asks) {
    bool first_person = false;
    for (std::size_t i = 0; i < t.size(); ++i) first_person = first_person || (keep[i] && !forms[i].empty() && inner[i].empty());
    if (first_person) name_elided_subject(t, keep, forms, tokens.forced);
  }
  if (reported != nullptr)
    for (std::size_t i = 0; i < t.size() && !*reported; ++i) *reported = keep[i] && !forms[i].empty() && inner[i].empty();
  // Without its salutation or counter the unit starts at the next word: "Hi there, we're on it" ->
  // "We're on it" (an emotion mention keeps the customer's spelling).
  for (std::size_t k = lead; lead > 0 && k < rest.size(); ++k) {
    const std::size_t i = where[k];
    if (!keep[i] || text::is_punctuation(t[i])) continue;
    capitalize_start(t[i], tokens.forced[i], forms[i]);
    break;
  }
  // A colon made a full stop before a dropped link: the word after it starts a sentence, whatever its
  // reported form ("…your refund here. The agent is so sorry", not "here. the agent").
  for (std::size_t i = 0; i + 2 < t.size(); ++i)
    if (inner[i] == "." && keep[i]) capitalize_start(t[i + 2], tokens.forced[i + 2], forms[i + 2]);
  bool rewritten = false;
  for (std::size_t i = 0; i < t.size(); ++i) rewritten = rewritten || (keep[i] && !forms[i].empty());
  if (!dropped && !rewritten) return unit.text;
  // A unit that was nothing but addressing ("@AppleSupport https://t.co/...") says nothing: empty, so
  // the decoder never selects it.
  bool content = false;
  for (std::size_t i = 0; i < keep.size(); ++i) content = content || (keep[i] && !text::is_punctuation(t[i]));
  if (!content) return std::string();
  std::string rendered = rebuild(unit, t, keep, &forms);
  close_dangling_colon(rendered, t, keep);
  return rendered;
}

}  // namespace kessel::summarize
