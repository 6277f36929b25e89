// Rendering of selected units (src/summarize/render.h).
#include "render.h"

#include <algorithm>
#include <cctype>
#include <cwctype>
#include <string_view>

#include "kessel/text/segment.h"
#include "kessel/text/utf8.h"
#include "summarize/compress.h"
#include "summarize/content.h"
#include "summarize/faith_cues.h"
#include "summarize/reported_speech.h"
#include "summarize/reported_speech_words.h"

namespace kessel::summarize {

namespace render {

// White space among a UTF-8 string's bytes: ASCII only, since a byte of 0x80 or more is part of a
// multi-byte character (the last byte of 🙅 is 0x85, which as a code point would be NEL).
bool is_ascii_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'; }

bool is_terminal_punct(char32_t cp) {
  switch (cp) {
    case U'。': case U'！': case U'？': case U'!': case U'?': case U'；': case U';':
    case U'…': case U'.': case U'，': case U',': case U'、': case U'~': case U'～':
      return true;
    default:
      return false;
  }
}

bool has_content(const std::string& text) { return has_content(text::decode_utf8(text, text::Utf8Mode::lossy).cps); }

bool has_content(const std::vector<char32_t>& cps) {
  for (char32_t cp : cps)
    if (!is_terminal_punct(cp) && !text::is_space(cp)) return true;
  return false;
}

std::string without_leading_marks(const std::string& text) {
  std::size_t at = 0;
  while (at < text.size()) {
    std::size_t next = at;
    const char32_t cp = text::next_code_point(text, &next);
    if (!text::is_space(cp) && std::u32string_view(U"，,。.、；;：:!！?？~～").find(cp) == std::u32string_view::npos) break;
    at = next;
  }
  return text.substr(at);
}

std::string without_opening_interjection(const std::string& body) {
  static constexpr std::string_view kInterjections[] = {"对了", "嗯嗯", "哦哦", "哦", "噢", "喔", "嗯", "额", "呃"};
  std::string text = body;
  for (bool stripped = true; stripped;) {
    stripped = false;
    for (std::string_view w : kInterjections) {
      if (!text.starts_with(w)) continue;
      const std::string rest = without_leading_marks(text.substr(w.size()));
      // Only before a comma and more words: "哦，对了，为什么…", not 哦 alone nor 哦好的.
      if (rest.size() == text.size() - w.size() || !has_content(rest)) continue;
      text = rest;
      stripped = true;
      break;
    }
  }
  return text;
}

std::string role_label(text::Speaker speaker, Lang lang) {
  const bool customer = speaker == text::Speaker::customer;
  if (lang == Lang::en) return customer ? "Customer: " : "Agent: ";
  return customer ? "用户:" : "客服:";
}

namespace {

// Whether the closing bracket at cps[at] closes nothing before it: a slip of the key beside Enter
// (不要】, 你好】, 在吗?》: 18 CSDS val turns), which a summary drops, as it drops a final backtick, the
// key below Esc (申请退货之后就改不了哦`).
bool closes_nothing(const std::vector<char32_t>& cps, std::size_t at) {
  // A bracket's pair (full- and half-width parentheses are one) and whether it closes.
  static constexpr std::u32string_view kOpeners = U"【《（(「『", kClosers = U"】》）)」』";
  auto pair_of = [](char32_t cp) -> std::size_t {
    std::size_t k = kOpeners.find(cp);
    if (k == std::u32string_view::npos) k = kClosers.find(cp);
    return k == 3 ? 2 : k;  // ( and ) pair with （ and ）
  };
  if (kClosers.find(cps[at]) == std::u32string_view::npos) return false;
  const std::size_t pair = pair_of(cps[at]);
  int open = 0;
  for (std::size_t i = 0; i < at; ++i)
    if (pair_of(cps[i]) == pair) open += kOpeners.find(cps[i]) != std::u32string_view::npos ? 1 : -1;
  return open <= 0;
}

}  // namespace

namespace {

// English: a space after a stop that a tweet wrote without one between two sentences ("restart your
// computer.Let us know", "Sorry for the trouble caused.We request you"): a lower-case letter, the mark,
// then a capital before a lower-case letter. Addresses are written in lower case (t.co/…) and stay.
std::string spaced_sentences(const std::string& text) {
  std::string out;
  out.reserve(text.size() + 4);
  for (std::size_t i = 0; i < text.size(); ++i) {
    out += text[i];
    const char c = text[i];
    if ((c == '.' || c == '!' || c == '?') && i > 0 && i + 2 < text.size() && std::islower(static_cast<unsigned char>(text[i - 1])) &&
        std::isupper(static_cast<unsigned char>(text[i + 1])) && std::islower(static_cast<unsigned char>(text[i + 2])))
      out += ' ';
  }
  return out;
}

// English: a comma splice a tweet wrote between two sentences ("make sure the automatic download feature
// it's activated, The preload will start automatically"): a lower-case letter, a comma and a space, then a
// capitalized word that opens sentences ("The", "We", "Please" …) becomes a stop. Not after a name or any
// capitalized word ("Hi Tom, Please send…", "Dear Customer, Thank you"), nor before "I" ("…, I think").
std::string stopped_comma_splices(std::string text) {
  static constexpr std::string_view kOpeners[] = {"The", "This", "That", "These", "Those", "It", "We", "You", "They",
                                                  "He", "She", "Please", "If", "Our", "Your", "Their", "My", "There",
                                                  "Thanks", "Thank", "Let", "Let's"};
  for (std::size_t at = text.find(", "); at != std::string::npos; at = text.find(", ", at + 2)) {
    if (at == 0 || !std::islower(static_cast<unsigned char>(text[at - 1]))) continue;
    std::size_t word = at;  // a name before the comma is addressed ("Hi Tom, Please send…"): it stays
    while (word > 0 && std::isalpha(static_cast<unsigned char>(text[word - 1]))) --word;
    if (!std::islower(static_cast<unsigned char>(text[word]))) continue;
    const std::string_view rest = std::string_view(text).substr(at + 2);
    for (std::string_view o : kOpeners)
      if (rest.starts_with(o) && rest.size() > o.size() && rest[o.size()] == ' ') {
        text[at] = '.';
        break;
      }
  }
  return text;
}

// English: the stray marks a unit opens with where the data split a sentence inside its run of marks
// ("…he said!" then "!🤤 I give up!!"): they go.
std::string without_stray_opening_marks(const std::string& text) {
  std::size_t at = 0;
  while (at < text.size() && (text[at] == '!' || text[at] == '?' || text[at] == ' ')) ++at;
  return at < text.size() ? text.substr(at) : text;
}

}  // namespace

namespace {

// en: a sentence that opens by adding to what its speaker said before ("Also the price paid for the
// cauliflower?", "And checking IDs.") adds to nothing the summary shows: the opener goes, and the next
// word takes its capital. Not "So" (also a degree word: "So stressed.").
std::string without_opening_addition(std::string text) {
  static constexpr std::string_view kOpeners[] = {"Also", "also", "And", "and", "Plus", "plus"};
  for (bool dropped = true; dropped;) {  // "and plus, Group 5 is…"
    dropped = false;
    for (std::string_view o : kOpeners) {
      if (!text.starts_with(o) || text.size() <= o.size() || (text[o.size()] != ' ' && text[o.size()] != ',')) continue;
      std::size_t next = o.size();
      while (next < text.size() && (text[next] == ' ' || text[next] == ',')) ++next;
      if (next == text.size() || !std::isalpha(static_cast<unsigned char>(text[next]))) return text;
      text.erase(0, next);
      if (std::isupper(static_cast<unsigned char>(o[0])))
        text[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(text[0])));
      dropped = true;
      break;
    }
  }
  return text;
}

// en: a closing courtesy that follows what a unit says, in the unit's last sentence ("…and restart their
// computer. Let the agent know if that helps.", "Let's go through the steps… Let us know if this helps.",
// "…Hope this helps!"): a lone imperative after a report, it tells the reader nothing. It goes when a
// sentence comes before it; "Let us know the results once completed" asks for something and stays.
std::string without_closing_courtesy(const std::string& text) {
  static constexpr std::string_view kCourtesies[] = {
      "let us know if this helps", "let us know if that helps", "let us know if it helps",
      "let the agent know if this helps", "let the agent know if that helps", "let the agent know if it helps",
      "let me know if this helps", "let me know if that helps", "hope this helps", "hope that helps",
      "we hope this helps", "we hope that helps", "i hope this helps", "i hope that helps"};
  std::size_t end = text.size();
  while (end > 0 && (is_ascii_space(text[end - 1]) || text[end - 1] == '.' || text[end - 1] == '!')) --end;
  // The last sentence: after the last stop, mark or question mark that a space follows.
  std::size_t start = 0;
  for (std::size_t i = 0; i + 1 < end; ++i)
    if ((text[i] == '.' || text[i] == '!' || text[i] == '?') && text[i + 1] == ' ') start = i + 2;
  if (start == 0) return text;
  std::string last;
  for (std::size_t i = start; i < end; ++i) {
    const char ch = text[i];
    if (ch == ' ' && !last.empty() && last.back() == ' ') continue;  // "if  that helps"
    last += static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
  }
  for (std::string_view courtesy : kCourtesies) {
    if (!last.starts_with(courtesy)) continue;
    // The courtesy may go on ("…if this helps improve these issues"), but only as its own clause's words.
    std::size_t cut = start;
    while (cut > 0 && is_ascii_space(text[cut - 1])) --cut;
    return text.substr(0, cut);
  }
  return text;
}

}  // namespace

std::string body(const std::string& written, Lang lang, bool question) {
  if (lang == Lang::en) {
    const std::string text = without_closing_courtesy(
        without_opening_addition(stopped_comma_splices(spaced_sentences(without_stray_opening_marks(written)))));
    // A sentence that ends in a colon introduced something the data left out (a link: "Please
    // answer our survey on this link:"); in a summary it introduces nothing, so it ends in a stop.
    std::size_t end = text.size();
    while (end > 0 && is_ascii_space(text[end - 1])) --end;
    if (end > 0 && text[end - 1] == ':') return text.substr(0, end - 1) + ".";
    // Commas at the end ("…as per my experience so far,", "…from 2months ,", "what else you need,,")
    // leave the sentence open in a summary, where the next one may be the other speaker's: a stop.
    if (end > 0 && text[end - 1] == ',') {
      while (end > 0 && (text[end - 1] == ',' || is_ascii_space(text[end - 1]))) --end;
      const bool stopped = end > 0 && (text[end - 1] == '.' || text[end - 1] == '!' || text[end - 1] == '?');
      return text.substr(0, end) + (stopped || end == 0 ? "" : ".");
    }
    // A question of one sentence written without its mark ends with one ("Why can't I send videos via text
    // to android users" is asked, not said); a unit with a stop or a mark inside ("…back in Ww2?, I got
    // robbed…", "…the Caribbean.It's been broken…") has said where its question ends.
    if (question && end > 0 && std::isalnum(static_cast<unsigned char>(text[end - 1])) &&
        text.find_first_of(".!?") == std::string::npos)
      return text.substr(0, end) + "?";
    return text;
  }
  auto decoded = text::decode_utf8(written, text::Utf8Mode::lossy);
  std::size_t end = decoded.cps.size();
  while (end > 0 && (is_terminal_punct(decoded.cps[end - 1]) || decoded.cps[end - 1] == U'：' ||
                     decoded.cps[end - 1] == U':' || text::is_space(decoded.cps[end - 1]) ||
                     decoded.cps[end - 1] == U'`' || closes_nothing(decoded.cps, end - 1)))
    --end;
  return text::encode_utf8(decoded.cps.data(), end) + (question ? "？" : "。");
}

std::string question_mark_for_stop(const std::string& body) {
  const std::size_t end = body.size();
  // Not after a colon: what follows it may be a message quoted ("…this error: The client identifier is invalid.").
  if (end < 2 || body[end - 1] != '.' || !std::isalnum(static_cast<unsigned char>(body[end - 2])) ||
      body.find_first_of(".!?") != end - 1 || body.find(": ") != std::string::npos)
    return body;
  return body.substr(0, end - 1) + "?";
}

std::string mark_cut(std::string body, Lang lang) {
  static const std::string kStop = "。";
  if (lang == Lang::en) {
    while (!body.empty() && (is_ascii_space(body.back()) || body.back() == ',' || body.back() == '.')) body.pop_back();
    return body + "…";
  }
  if (!body.ends_with(kStop)) return body;
  body.resize(body.size() - kStop.size());
  return body + "…。";
}

namespace {

// Whether cps[i] ends a clause: a full-width ，；： always, an ASCII , ; : only before a space or the
// end, so that 1,000, 10:30, https://, :) and ;-) stay whole.
bool is_clause_break(const std::vector<char32_t>& cps, std::size_t i) {
  switch (cps[i]) {
    case U'，': case U'；': case U'：':
      return true;
    case U',': case U';': case U':':
      return i + 1 == cps.size() || text::is_space(cps[i + 1]);
    default:
      return false;
  }
}

// English conjunctions a clause starts at even without a comma ("my flight was delayed and I am
// furious"). Not "so": without a comma before it, it is mostly the intensifier ("so angry").
constexpr std::u32string_view kClauseConjunctions[] = {U"and", U"but", U"because"};

// Whether the word w (lower case) starts at cps[i], in any case.
bool word_at(const std::vector<char32_t>& cps, std::size_t i, std::u32string_view w) {
  if (i + w.size() > cps.size()) return false;
  for (std::size_t k = 0; k < w.size(); ++k) {
    const char32_t c = cps[i + k];
    if ((c >= U'A' && c <= U'Z' ? c - U'A' + U'a' : c) != w[k]) return false;
  }
  return true;
}

// The length of the conjunction (lowercased) that starts at cps[i] and is followed by a space; 0 when
// none. "because of" is a preposition, not a clause ("because of #Fios being messed up" must not
// leave "Of #Fios being messed up").
std::size_t conjunction_at(const std::vector<char32_t>& cps, std::size_t i) {
  for (std::u32string_view w : kClauseConjunctions) {
    if (i + w.size() >= cps.size() || !text::is_space(cps[i + w.size()]) || !word_at(cps, i, w)) continue;
    std::size_t next = i + w.size();
    while (next < cps.size() && text::is_space(cps[next])) ++next;
    if (w == U"because" && word_at(cps, next, U"of") && (next + 2 == cps.size() || !std::iswalpha(static_cast<wint_t>(cps[next + 2]))))
      return 0;
    return w.size();
  }
  return 0;
}

// English: whether a clause that opens at cps[i] (after spaces) leans on the clause before it: a
// relative "which" / "who" / "whom" / "whose", or "that" with a subject after it ("just you add a
// processing fee, that i think it ridiculously high", reported "…, that the customer thinks it
// ridiculously high", stays one clause; alone, "That the customer thinks it ridiculously high" says
// nothing). "that is ridiculous" after a comma stands alone: there "that" is the subject.
bool opens_dependent_clause(const std::vector<char32_t>& cps, std::size_t i) {
  while (i < cps.size() && text::is_space(cps[i])) ++i;
  const auto word_then_space = [&](std::size_t at, std::u32string_view w) {
    return at + w.size() < cps.size() && word_at(cps, at, w) && text::is_space(cps[at + w.size()]);
  };
  for (std::u32string_view w : {U"which", U"who", U"whom", U"whose"})
    if (word_then_space(i, w)) return true;
  if (!word_then_space(i, U"that")) return false;
  std::size_t next = i + 4;
  while (next < cps.size() && text::is_space(cps[next])) ++next;
  for (std::u32string_view w : {U"i", U"you", U"we", U"they", U"he", U"she", U"it", U"the"}) {
    const std::size_t end = next + w.size();
    if (word_at(cps, next, w) && (end == cps.size() || text::is_space(cps[end]) || cps[end] == U'\'' || cps[end] == U'\u2019'))
      return true;
  }
  return false;
}

}  // namespace

bool is_lone_adverb(const std::string& clause) {
  if (clause.size() < 3 || clause.find(' ') != std::string::npos) return false;
  for (char c : clause)
    if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'))) return false;
  const char a = clause[clause.size() - 2], b = clause[clause.size() - 1];
  return (a == 'l' || a == 'L') && (b == 'y' || b == 'Y');
}

std::vector<std::string> clauses(const std::string& text, Lang lang) {
  std::vector<std::string> out;
  const std::vector<char32_t> cps = text::decode_utf8(text, text::Utf8Mode::lossy).cps;
  std::size_t start = 0;
  auto close = [&](std::size_t end) {
    std::size_t a = start, b = end;
    while (a < b && text::is_space(cps[a])) ++a;
    if (lang == Lang::en && start > 0) {  // a conjunction opening any clause but the first
      const std::size_t n = conjunction_at(cps, a);
      a += n;
      while (n > 0 && a < b && text::is_space(cps[a])) ++a;
    }
    while (b > a && (text::is_space(cps[b - 1]) || is_clause_break(cps, b - 1))) --b;
    if (b > a) out.push_back(text::encode_utf8(cps.data() + a, b - a));
    start = end;
  };
  for (std::size_t i = 0; i < cps.size(); ++i) {
    if (is_clause_break(cps, i) && !(lang == Lang::en && cps[i] == U',' && opens_dependent_clause(cps, i + 1)))
      close(i + 1);
    else if (lang == Lang::en && i > start && text::is_space(cps[i - 1]) && conjunction_at(cps, i) > 0)
      close(i);
  }
  close(cps.size());
  return out;
}

std::size_t clause_start(const std::vector<char32_t>& cps, std::size_t end) {
  std::size_t start = end;
  while (start > 0 && std::u32string_view(U"，,；;：:。！？!? ").find(cps[start - 1]) == std::u32string_view::npos) --start;
  return start;
}

namespace {

// The end of a Chinese text's words: before its trailing marks, ellipses, space and emoji.
std::size_t words_end(const std::vector<char32_t>& cps) {
  std::size_t end = cps.size();
  while (end > 0 && (is_terminal_punct(cps[end - 1]) || text::is_trailing_symbol(cps[end - 1]) ||
                     std::u32string_view(U"…~～").find(cps[end - 1]) != std::u32string_view::npos))
    --end;
  return end;
}


// The text before byte `at`, without the clause marks and spaces that end it there.
std::string before_clause(const std::string& text, std::size_t at) {
  while (at > 0) {
    std::size_t prev = at - 1;
    while (prev > 0 && (static_cast<unsigned char>(text[prev]) & 0xC0) == 0x80) --prev;
    std::size_t next = prev;
    const char32_t cp = text::next_code_point(text, &next);
    if (std::u32string_view(U"，,；;：:。！？!? ").find(cp) == std::u32string_view::npos) break;
    at = prev;
  }
  return text.substr(0, at);
}

}  // namespace

std::size_t dangling_condition_start(const std::string& text) {
  const text::DecodedText d = text::decode_utf8(text, text::Utf8Mode::lossy);
  const auto& cps = d.cps;
  const std::size_t end = words_end(cps);
  if (end < 3 || cps[end - 2] != U'的' || cps[end - 1] != U'话') return std::string::npos;
  if (std::u32string_view(U"说讲骂听").find(cps[end - 3]) != std::u32string_view::npos) return std::string::npos;
  const std::size_t start = clause_start(cps, end - 2);
  return start == 0 ? 0 : static_cast<std::size_t>(d.byte_offsets[start]);
}

std::string without_dangling_condition(const std::string& text) {
  const std::size_t at = dangling_condition_start(text);
  if (at == std::string::npos || at == 0) return text;
  return before_clause(text, at);
}

namespace {

// zh: where the text ending at code point `end` ends once a last word of one Chinese character is left
// out: the data's cut falls inside a word far more often than after one (会有专门的同事审核处理之后短 for …短信,
// 真心希望您谅 for …谅解), and the segmenter gives such a stub as a word of its own. A particle that
// closes a clause (哦, 呢, 了, 的, …) is whole, and a negator (不, 没, 未, 别, 无, 非, 否) stays: 赠品充电宝也没… keeps
// its no. `end` itself when the last word is longer, or the text is one word.
std::size_t end_without_stub(const std::vector<char32_t>& cps, std::size_t end) {
  if (end < 2 || !text::is_cjk(cps[end - 1]) || !text::is_cjk(cps[end - 2])) return end;
  if (std::u32string_view(U"哦呢啊吧呀了的吗嘛啦哈不没未别无非否").find(cps[end - 1]) != std::u32string_view::npos) return end;
  const auto words = text::Segmenter::default_segmenter().segment(std::span<const char32_t>(cps.data(), end));
  if (words.size() < 2 || words.back().char_end - words.back().char_start != 1) return end;
  return end - 1;
}

}  // namespace

bool opens_a_supposition(const std::vector<char32_t>& cps, std::size_t start) {
  const std::u32string_view clause(cps.data() + start, cps.size() - start);
  return clause.starts_with(U"如果") || clause.starts_with(U"要是") || clause.starts_with(U"假如") ||
         clause.starts_with(U"若");
}

namespace {

// Where the last clause of a cut turn starts when without_cut_clause drops it whole (a stub, or a
// supposition after a mark), or 0.
std::size_t whole_cut_clause_start(const std::vector<char32_t>& cps) {
  const std::size_t end = words_end(cps);
  const std::size_t start = clause_start(cps, end);
  return start > 0 && (end - start <= kCutClauseChars || opens_a_supposition(cps, start)) ? start : 0;
}

}  // namespace

bool drops_whole_cut_clause(const std::string& text) {
  return whole_cut_clause_start(text::decode_utf8(text, text::Utf8Mode::lossy).cps) > 0;
}

std::string without_cut_clause(const std::string& text) {
  const text::DecodedText d = text::decode_utf8(text, text::Utf8Mode::lossy);
  const std::size_t end = words_end(d.cps);
  if (const std::size_t start = whole_cut_clause_start(d.cps); start > 0)
    return before_clause(text, static_cast<std::size_t>(d.byte_offsets[start]));
  const std::size_t kept = end_without_stub(d.cps, end);
  return kept == end ? text : text.substr(0, static_cast<std::size_t>(d.byte_offsets[kept]));
}

bool continues_previous_tweet(const Prepared& p, std::size_t u) {
  if (p.lang != Lang::en || u == 0 || u >= p.unit_tokens.size()) return false;
  const Unit& unit = p.units[u];
  const Unit& before = p.units[u - 1];
  if (before.speaker != unit.speaker || before.turn + 1 != unit.turn) return false;
  if (opens_in_lower_case(p.unit_tokens[u]))
    return leaves_sentence_open(p.unit_tokens[u - 1], unit.speaker == text::Speaker::agent);
  // An acronym after a word that cannot end a sentence: "...reach out to your 1 ^BL" then "ISP to get
  // this sorted out."
  return opens_with_acronym(p.unit_tokens[u]) && leaves_sentence_open(p.unit_tokens[u - 1], false);
}

bool ends_cut_turn(const Prepared& p, std::size_t u) {
  if (p.dialogue == nullptr) return false;
  const int turn = p.units[u].turn;
  if (turn < 0 || !p.dialogue->turns[static_cast<std::size_t>(turn)].truncated) return false;
  return u + 1 == p.units.size() || p.units[u + 1].turn != turn;
}

// Whether `next` is its speaker's next sentence after `prev`, no turn of the other speaker between.
bool same_speaker_run(const Prepared& p, const SummarySentence& prev, const SummarySentence& next) {
  const text::Speaker speaker = p.units[static_cast<std::size_t>(next.unit)].speaker;
  if (p.units[static_cast<std::size_t>(prev.unit)].speaker != speaker) return false;
  if (p.dialogue == nullptr) return next.turn == prev.turn;
  for (int t = prev.turn + 1; t < next.turn; ++t)
    if (p.dialogue->turns[static_cast<std::size_t>(t)].speaker != speaker) return false;
  return true;
}

bool continues(const Prepared& p, const SummarySentence& prev, const SummarySentence& next) {
  if (prev.reported || next.reported) return false;  // a report names its speaker; no label to share
  return same_speaker_run(p, prev, next);
}

// English: in the summary, a sentence whose unit ended without a stop (a sign-off or link removed after
// it: "...on a later train ^CB") ends in one, so that the next sentence, perhaps the other speaker's,
// does not run on from it ("...on a later train Virgin staff or ..."). Only after a letter or digit, or
// after emoji that follow one: a closing bracket or quote, or a mark already ends it. The sentence's own
// text stays as the unit wrote it.
void close_english(std::string& summary) {
  std::size_t end = summary.size();
  while (end > 0 && is_ascii_space(summary[end - 1])) --end;
  summary.resize(end);
  if (end > 0 && std::isalnum(static_cast<unsigned char>(summary[end - 1]))) {
    summary += '.';
    return;
  }
  // Emoji after the last word ("…from the company 🙄"): the stop goes after them, or the next label runs on
  // ("…from the company 🙄 Agent: …"); after a mark ("Great!! 👍") the sentence is closed.
  const std::vector<char32_t> cps = text::decode_utf8(summary, text::Utf8Mode::lossy).cps;
  std::size_t k = cps.size();
  while (k > 0 && text::is_trailing_symbol(cps[k - 1])) --k;
  if (k < cps.size() && k > 0 && cps[k - 1] < 0x80 && std::isalnum(static_cast<int>(cps[k - 1]))) summary += '.';
}

// English: whether `next` goes on with the sentence `prev` left open, one tweet of a thread after the
// other, so that the summary joins them: marked (continues_thread, the mark dropped: "...by responding
// with any letter or number...", not "...by responding with. Agent: Any letter or number..."), or
// unmarked (continues_previous_tweet: "...contact details (email / telephone number and name, if
// different from what's on twitter)..."). `open_end` says the summary so far ends without a stop.
bool joins_thread(const Prepared& p, const SummarySentence& prev, const SummarySentence& next, bool open_end) {
  if (next.unit != prev.unit + 1) return false;
  const auto u = static_cast<std::size_t>(next.unit);
  if (p.units[u].speaker != p.units[static_cast<std::size_t>(prev.unit)].speaker || u >= p.unit_tokens.size())
    return false;
  if (continues_previous_tweet(p, u)) return true;
  // A body that still shows its mark (a baseline renders units as written) is not joined.
  return open_end && !next.reported && continues_thread(p.unit_tokens[u]) &&
         !continues_thread(text::tokenize(next.body));
}

// A body that goes on with an open sentence: its first word's initial in lower case unless the word is
// written in capitals ("Any letter" -> "any letter"; "DM us" and "I" stay).
std::string continued_body(const std::string& body) {
  const std::size_t end = std::min(body.find(' '), body.size());
  return reported::lowered_initial(body.substr(0, end)) + body.substr(end);
}

namespace {

// en: `rest`, a tweet that goes on with the sentence the summary left open, with its opening verb agreeing
// with the subject the previous tweet ended on, which reported speech named ("…the issue the customer" +
// "are having along with…" -> "is having along with…"; the tweet had "…the issue you" + "are having…").
std::string agreeing_across_tweets(const std::string& summary, const std::string& rest) {
  static constexpr std::string_view kNamed[] = {" the customer", " the agent", " the company"};
  if (std::none_of(std::begin(kNamed), std::end(kNamed), [&](std::string_view n) { return summary.ends_with(n); }))
    return rest;
  static constexpr std::pair<std::string_view, std::string_view> kSingular[] = {
      {"are ", "is "},          {"were ", "was "},         {"have ", "has "},          {"do ", "does "},
      {"aren't ", "isn't "},    {"weren't ", "wasn't "},   {"haven't ", "hasn't "},    {"don't ", "doesn't "},
      {"aren’t ", "isn’t "}, {"weren’t ", "wasn’t "}, {"haven’t ", "hasn’t "}, {"don’t ", "doesn’t "}};
  for (const auto& [plural, singular] : kSingular)
    if (rest.starts_with(plural)) return std::string(singular) + rest.substr(plural.size());
  return rest;
}

// en: whether a word is texting shorthand written in lower case on purpose: no vowel (wtf, smh, ffs, fml) or
// one of lol, omg, idk, lmao.
bool is_shorthand(std::string_view word) {
  static constexpr std::string_view kVowelled[] = {"lol", "omg", "idk", "lmao", "lmfao", "imo", "imho"};
  if (std::find(std::begin(kVowelled), std::end(kVowelled), word) != std::end(kVowelled)) return true;
  return !word.empty() && word.find_first_of("aeiouy") == std::string_view::npos &&
         std::all_of(word.begin(), word.end(), [](char c) { return c >= 'a' && c <= 'z'; });
}

// en: whether `body`, unit u's, opens with one of its emotion mentions written in shorthand, which keeps the
// customer's spelling ("wtf" stays "wtf": the summary shows the term as the trace gives it). A word opens
// with a capital as any sentence does ("Customer: Worst flight ever", not "worst").
bool opens_with_a_mention(const Prepared& p, int u, const std::string& body) {
  const std::string_view first(body.data(), std::min(body.find_first_of(" ,.!?"), body.size()));
  if (!is_shorthand(first)) return false;
  for (std::size_t m = 0; m < p.mentions.size(); ++m)
    if (p.mention_unit[m] == u && (body.starts_with(p.mentions[m].term) || body.starts_with(p.mentions[m].expression)))
      return true;
  return false;
}

// en: a sentence in its speaker's words opens with a capital, as a sentence under a label does
// ("Customer: when will it ship?" -> "Customer: When will it ship?"); a first word with a capital inside
// keeps its spelling (iPhone, eBay), and so does an emotion mention (opens_with_a_mention, checked by the
// caller).
void capitalize_initial(std::string& body) {
  if (body.empty() || body[0] < 'a' || body[0] > 'z') return;
  for (std::size_t i = 1; i < body.size() && std::isalpha(static_cast<unsigned char>(body[i])); ++i)
    if (body[i] >= 'A' && body[i] <= 'Z') return;
  body[0] = static_cast<char>(body[0] - 'a' + 'A');
}

// en: whether a report opens by naming who speaks: "The customer has…", "The agent asks…", "They…".
bool names_its_speaker(const std::string& body) {
  return opens_with_any(body, {"the customer", "the agent", "they ", "they'", "their "});
}

// en: whether `word` is written with its capital inside a sentence somewhere in the dialogue (a name:
// "…the closest to London Colney"), not only where a sentence starts.
bool written_as_a_name(const Prepared& p, std::string_view word) {
  for (const Unit& unit : p.units)
    for (std::size_t at = unit.text.find(word, 1); at != std::string::npos; at = unit.text.find(word, at + 1)) {
      const std::size_t end = at + word.size();
      const bool whole = unit.text[at - 1] == ' ' && (end == unit.text.size() || !std::isalpha(static_cast<unsigned char>(unit.text[end])));
      // Inside a sentence: a letter before the spaces (after a mark, an @handle's digits or nothing, a
      // sentence may start).
      std::size_t before = at - 1;
      while (before > 0 && unit.text[before] == ' ') --before;
      if (whole && std::isalpha(static_cast<unsigned char>(unit.text[before]))) return true;
    }
  return false;
}

// en: whether a report's first clause says its speaker does something: "the agent" in an agent's unit
// (the customer in a customer's) before an auxiliary or a verb of saying ("Unfortunately the agent has now received
// reports…", "The most the agent could offer is…"). "The agent says" before it would name them twice.
bool speaker_acts_in(const std::string& body, text::Speaker speaker) {
  static constexpr std::string_view kActs[] = {
      "has", "had", "have", "is", "was", "will", "would", "could", "can", "can't", "cannot", "should", "may",
      "might", "must", "does", "did", "doesn't", "didn't", "won't", "wouldn't", "isn't", "wasn't", "needs",
      "wants", "asks", "recommends", "suggests", "understands", "apologizes", "apologises", "thinks", "hopes",
      "sees", "checked", "just", "also", "still", "only", "never", "really"};
  const std::string self = speaker == text::Speaker::agent ? "the agent " : "the customer ";
  // In the report's first clause: "Then please refer to them….The agent will only advice…" and "It is
  // very unfortunate and difficult to deal with poor service connection, the agent will work with the
  // customer…" open with the agent's words as if they were the customer's.
  const std::string lower = text::ascii_lower(body.substr(0, std::min(body.find_first_of(".!?,;"), body.size())));
  for (std::size_t at = lower.find(self); at != std::string::npos; at = lower.find(self, at + 1)) {
    // In a clause that something else frames, the speaker is spoken about ("That's absolutely
    // disgraceful that the customer has to pay…"): whose judgement it is still needs saying.
    // A purpose clause is the speaker's own act ("…so that the agent can look into it").
    if (at >= 5 && lower.compare(at - 5, 5, "that ") == 0 && (at < 8 || lower.compare(at - 8, 8, "so that ") != 0))
      continue;
    const std::size_t from = at + self.size();
    const std::string next = lower.substr(from, std::min(lower.find(' ', from), lower.size()) - from);
    for (std::string_view w : kActs)
      if (next == w) return true;
  }
  return false;
}

// en: whether a report must say who says it ("The agent says …"):
//   - its subject is the other party or theirs, which reads as that party's own claim: the agent's "You
//     should not need to sign in" reported as "The customer should not need to sign in…", "Your daughter
//     would have needed…" as "The customer's daughter would have needed…" (a speaker label before
//     a third-person sentence would mix the two voices);
//   - or it names no speaker at its opening and no label of its own speaker stands before it, so that it
//     reads as whoever spoke last ("Customer: do you sell this in your aylesbury store? The closest store
//     that stocks it is the company's Apsley Mills store."), unless its first clause says its speaker
//     acts (speaker_acts_in).
bool needs_its_speaker(const SummarySentence& s, text::Speaker speaker, bool after_labelled_run) {
  const bool by_agent = speaker == text::Speaker::agent;
  if (by_agent ? opens_with_any(s.body, {"the customer ", "the customer's ", "the customer’s "})
               : opens_with_any(s.body, {"the company ", "the company's ", "the company’s "}))
    return true;
  return !after_labelled_run && !names_its_speaker(s.body) && !speaker_acts_in(s.body, speaker);
}

// en: a body after a lead ("The agent says …"): without a connective or an acknowledgement that opened
// it (so, and, but, well, also, then, ok, okay, oh, ah, alright, um, hmm: "So they can't find songs…" ->
// "they can't find songs…", "okay for some reason Spotify won't…" -> "for some reason Spotify won't…";
// not yes or no, which answer), its initial in lower
// case when its first word is a common opener (kCommonOpeners) or, written in lower case elsewhere in
// the dialogue, never stands as a name inside a sentence (written_as_a_name); "DM", "Amazon" and
// "Norton Firewall" stay as written.
std::string after_lead(const Prepared& p, std::string body) {
  static constexpr std::string_view kConnectives[] = {"so", "and", "but",     "well",     "also", "then", "anyway",
                                                      "ok", "okay", "oh", "ah", "alright", "alrighty", "um", "hmm"};
  for (bool dropped = true; dropped;) {
    dropped = false;
    const std::size_t end = std::min(body.find_first_of(" ,"), body.size());
    const std::string first = text::ascii_lower(body.substr(0, end));
    for (std::string_view c : kConnectives)
      if (first == c && end < body.size()) {
        std::size_t next = end;
        while (next < body.size() && (body[next] == ' ' || body[next] == ',')) ++next;
        if (next == body.size()) break;
        body.erase(0, next);
        dropped = true;
        break;
      }
  }
  const std::size_t end = std::min(body.find(' '), body.size());
  const std::string first = body.substr(0, end);
  std::string lower = text::ascii_lower(first);
  while (!lower.empty() && (lower.back() == ',' || lower.back() == ':' || lower.back() == ';')) lower.pop_back();
  const bool common = reported::contains(reported::kCommonOpeners, lower);
  if (!common && (written_as_a_name(p, first) || !written_in_lower_case(p, lower))) return body;
  // "A member of…" -> "a member of…"; "DM" stays (lowered_initial).
  return (first == "A" ? std::string("a") : reported::lowered_initial(first)) + body.substr(end);
}

}  // namespace

// zh: the body of sentence `s` joined after `prev` under one label: a second reported question after a
// first says 询问 once ("用户:询问售后大概多久，能在放假前完成吗。", not "…，询问能在放假前完成吗。").
std::string joined_body(const SummarySentence& prev, const SummarySentence& s) {
  static const std::string kAsked = "询问";
  const bool asked_before = prev.body.starts_with(kAsked) || prev.body.starts_with("再次" + kAsked);
  return asked_before && s.body.starts_with(kAsked) ? s.body.substr(kAsked.size()) : s.body;
}

void assemble(Summary& out, const Prepared& p, const std::vector<std::string>& own_words) {
  static const std::string kStop = "。";
  out.summary.clear();
  // English: whether sentence i stands under its speaker's label: a labelled sentence, or a report
  // that does not name its speaker and follows the same speaker's labelled sentence. The next
  // labelled sentence of that speaker shares the label across such a report ("Customer: do not book
  // with this company. Deleting the app and telling all the customer's friends to dump them.
  // Horrible!"), rather than labelling again after it.
  std::vector<char> under_label(out.sentences.size(), 0);
  for (std::size_t i = 0; i < out.sentences.size(); ++i) {
    SummarySentence& s = out.sentences[i];
    const Unit& unit = p.units[static_cast<std::size_t>(s.unit)];
    const bool after_labelled_run = i > 0 && under_label[i - 1] && same_speaker_run(p, out.sentences[i - 1], s);
    // English: a tweet that goes on with the sentence the previous one left open joins it, with no lead
    // or label of its own ("...reach out to the company's phone team here", not "...phone the agent
    // says team here").
    bool joins = false;
    if (p.lang == Lang::en && i > 0) {
      while (!out.summary.empty() && is_ascii_space(out.summary.back())) out.summary.pop_back();
      const bool open_end = !out.summary.empty() && std::isalnum(static_cast<unsigned char>(out.summary.back()));
      joins = joins_thread(p, out.sentences[i - 1], s, open_end);
    }
    // A report that opens with "because" gives a reason for what its speaker said before ("Because that
    // noise was worrying me"); "The customer says because…" reads wrong, so it stands in its speaker's words.
    if (p.lang == Lang::en && s.reported && !joins && opens_with_any(s.body, {"because ", "cause "}) &&
        i < own_words.size() && !own_words[i].empty()) {
      s.body = own_words[i];
      s.reported = false;
    }
    if (p.lang == Lang::en && s.reported && !joins && needs_its_speaker(s, unit.speaker, after_labelled_run)) {
      s.body = (unit.speaker == text::Speaker::agent ? "The agent says " : "The customer says ") + after_lead(p, s.body);
    } else if (p.lang == Lang::en && s.reported && !joins && after_labelled_run && !names_its_speaker(s.body) &&
               i < own_words.size() && !own_words[i].empty()) {
      s.body = own_words[i];  // under its speaker's label, in their words
      s.reported = false;
    }
    // zh: a question the customer asks again word for word, after the agent's reply, says so (用户:再次询问…)
    // instead of reading as the same line twice (CSDS val 733: 询问无界面单怎么开通 twice).
    if (p.lang == Lang::zh && unit.speaker == text::Speaker::customer && s.body.starts_with("询问") &&
        std::any_of(out.sentences.begin(), out.sentences.begin() + static_cast<std::ptrdiff_t>(i), [&](const SummarySentence& e) {
          return p.units[static_cast<std::size_t>(e.unit)].speaker == text::Speaker::customer && e.body == s.body;
        }))
      s.body = "再次" + s.body;
    if (p.lang == Lang::en && !s.reported && !joins && !opens_with_a_mention(p, s.unit, s.body)) capitalize_initial(s.body);
    s.text = s.reported ? s.body : role_label(unit.speaker, p.lang) + s.body;
    s.shares_label = i > 0 && continues(p, out.sentences[i - 1], s);
    if (p.lang == Lang::en && !s.reported && after_labelled_run) s.shares_label = true;
    // A report that does not open by naming who speaks ("Deleting the app and telling all the
    // customer's friends…", not "The customer has…", "They…") reads as the words of whoever spoke last.
    under_label[i] = joins ? under_label[i - 1] : !s.reported || (after_labelled_run && !names_its_speaker(s.body));
    if (p.lang == Lang::zh) {
      // "用户:A。" + B -> "用户:A，B。"; after a question mark the next sentence follows it: "用户:A？B。"
      const bool stop_ends = out.summary.size() >= kStop.size() &&
                             out.summary.compare(out.summary.size() - kStop.size(), kStop.size(), kStop) == 0;
      if (!s.shares_label) out.summary += s.text;
      else if (stop_ends) out.summary.replace(out.summary.size() - kStop.size(), kStop.size(), "，" + joined_body(out.sentences[i - 1], s));
      else out.summary += s.body;
    } else {
      if (joins) {
        s.shares_label = true;
        // The stop a report closed a sentence with that ends on a word no sentence ends with ("…delivered
        // to their." + "pincode…"); after any other word the stop stays ("…not included in it." + "the
        // meal deal has…": an agent's tweet may go on with a sentence of its own in lower case).
        // A comma that left it open stays one ("…not included in it," + "the meal deal has…").
        const std::vector<text::Token>& opened_tokens = p.unit_tokens[static_cast<std::size_t>(out.sentences[i - 1].unit)];
        if (out.summary.ends_with('.') && !out.summary.ends_with("..") && leaves_sentence_open(opened_tokens, false)) {
          out.summary.pop_back();
          if (ends_on_comma(opened_tokens, unit.speaker == text::Speaker::agent)) out.summary += ',';
        }
        std::string rest = agreeing_across_tweets(out.summary, continued_body(s.body));
        // An indirect request or question ends with a stop ("The agent asks the customer to DM the agent
        // with … the customer's Gamertag.", from "Can you please DM us with … your Gamertag?").
        const std::string& opened = out.sentences[i - 1].body;
        if (s.reported && rest.ends_with('?') &&
            (opened.find(" asks the customer to ") != std::string::npos ||
             opened.find(" asks whether ") != std::string::npos))
          rest.back() = '.';
        out.summary += ' ' + rest;
        continue;
      }
      if (i > 0) {
        close_english(out.summary);
        out.summary += ' ';
      }
      out.summary += s.shares_label ? s.body : s.text;  // a report's text is its body
    }
  }
  if (p.lang == Lang::en) close_english(out.summary);
}

}  // namespace render

std::string render_unit(const Unit& unit, Lang lang) { return render_unit(unit, unit.text, lang); }

std::string render_unit(const Unit& unit, const std::string& text, Lang lang) {
  return render::role_label(unit.speaker, lang) + render::body(text, lang, render::ends_as_question(unit.text));
}

std::string scored_unit(const Unit& unit, Lang lang) {
  return lang == Lang::zh ? render_unit(unit, lang) : unit.text;
}

std::string scored_text(const Summary& summary, Lang lang) {
  if (lang == Lang::zh) return summary.summary;
  std::string out;
  for (const auto& s : summary.sentences) {
    if (!out.empty()) out += ' ';
    out += s.body;
  }
  return out;
}

}  // namespace kessel::summarize
