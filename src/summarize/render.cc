// Rendering of selected units (src/summarize/render.h).
#include "render.h"

#include <algorithm>
#include <cctype>
#include <cwctype>
#include <string_view>

#include "kessel/text/segment.h"
#include "kessel/text/utf8.h"
#include "summarize/compress.h"
#include "summarize/faith_cues.h"

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

bool has_content(const std::string& text) {
  for (char32_t cp : text::decode_utf8(text, text::Utf8Mode::lossy).cps)
    if (!is_terminal_punct(cp) && !text::is_space(cp)) return true;
  return false;
}

std::string reported_question(const std::string& body) {
  std::string text = body;
  static const std::string kMark = "？", kAsked = "询问";
  if (text.size() >= kMark.size() && text.compare(text.size() - kMark.size(), kMark.size(), kMark) == 0)
    text.replace(text.size() - kMark.size(), kMark.size(), "。");
  // What opens a customer's question and says nothing once it is reported: greetings and "may I ask"
  // (你好，想问下这款冰箱有货吗 -> 询问这款冰箱有货吗).
  static const std::string kOpeners[] = {"你好", "您好", "在吗", "在不在", "亲", "请问一下", "请问下", "请问",
                                         "想问一下", "想问下", "想问", "我想问一下", "我想问下", "我想问",
                                         "问一下", "问下", "，", ",", " "};
  // Only where a word ends: 亲开专用票 is 亲开|专用票 to the segmenter, and its 亲 stays.
  for (bool stripped = true; stripped;) {
    stripped = false;
    // The code point offsets where the segmenter ends a word, once per pass.
    const auto cps = text::decode_utf8(text, text::Utf8Mode::lossy);
    std::vector<std::int64_t> word_ends;
    for (const text::WordSpan& w : text::Segmenter::default_segmenter().segment(std::span<const char32_t>(cps.cps)))
      word_ends.push_back(w.char_end);
    for (const std::string& o : kOpeners) {
      if (text.size() <= o.size() || text.rfind(o, 0) != 0) continue;
      const auto at = static_cast<std::int64_t>(text::decode_utf8(o, text::Utf8Mode::lossy).size());
      if (!std::binary_search(word_ends.begin(), word_ends.end(), at)) continue;
      text.erase(0, o.size());
      stripped = true;
      break;  // the text changed: segment it again
    }
  }
  if (text.rfind(kAsked, 0) == 0) return text;
  return kAsked + text;
}

namespace {

bool is_trailing_symbol(char32_t cp) {
  return text::is_space(cp) || text::is_emoji_base(cp) || text::is_variation_selector(cp) || text::is_skin_tone(cp);
}

// Whether a Chinese clause (code points [begin, end)) ends in a question word that asks: 那个卡有什么用,
// 这是为什么, 运费多少钱. Not after a negation (没什么, 没有什么用: "nothing") or 才 (这才几天: "only a few
// days!"), nor where the clause says it does not know, find or mind (不知道为什么, 找不到在哪里, 随便什么,
// 无论多少): the word is then indefinite.
bool ends_in_question_word(const std::vector<char32_t>& cps, std::size_t begin, std::size_t end) {
  static constexpr std::u32string_view kFinal[] = {U"什么用", U"啥用", U"什么意思", U"啥意思", U"什么时候", U"什么",
                                                   U"啥", U"多少钱", U"多少", U"怎么样", U"怎么办", U"哪里",
                                                   U"哪儿", U"哪个", U"几天", U"几号", U"几点", U"多久"};
  const std::u32string_view clause(cps.data() + begin, end - begin);
  for (std::u32string_view w : kFinal) {
    if (clause.size() <= w.size() || clause.substr(clause.size() - w.size()) != w) continue;
    const std::u32string_view before = clause.substr(0, clause.size() - w.size());
    const std::u32string_view near = before.substr(before.size() > 2 ? before.size() - 2 : 0);
    if (near.find_first_of(U"没不无才") != std::u32string_view::npos) return false;
    for (std::u32string_view indefinite : {U"知道", U"清楚", U"明白", U"找不到", U"不记得", U"忘了", U"忘记", U"随便", U"无论", U"不管", U"都行", U"都可以"})
      if (before.find(indefinite) != std::u32string_view::npos) return false;
    return true;
  }
  return false;
}

// Whether a Chinese clause (code points [begin, end)) asks "how" inside it: 怎么 怎样 如何 after its first
// word (买家电怎样分期付款, 下错单如何取消, 发票怎么分开注明). Not in 不管 / 无论 / 不知道 clauses, where the
// word is indefinite (不知道怎么弄).
bool asks_how(const std::vector<char32_t>& cps, std::size_t begin, std::size_t end) {
  const std::u32string_view clause(cps.data() + begin, end - begin);
  for (std::u32string_view indefinite : {U"不管", U"无论", U"知道", U"不会", U"随便"})
    if (clause.find(indefinite) != std::u32string_view::npos) return false;
  for (std::u32string_view how : {U"怎么", U"怎样", U"如何"})
    if (const std::size_t at = clause.find(how); at != std::u32string_view::npos && at > 0) return true;
  return false;
}

// Whether a Chinese clause (code points [begin, end)) asks "how many" inside it: 几 and a measure word
// after a verb that counts (应该有几个赠品, 要买几箱, 还剩几天). 好几个 (several), 这几天 (these days) and
// 几个月前 (some months ago) do not follow such a verb.
bool asks_how_many(const std::vector<char32_t>& cps, std::size_t begin, std::size_t end) {
  static constexpr std::u32string_view kCounting = U"有是要买剩差发送退等收到";
  static constexpr std::u32string_view kMeasures = U"个件天号点次块元箱台张单瓶包袋套位周";
  for (std::size_t i = begin + 1; i + 1 < end; ++i)
    if (cps[i] == U'几' && kCounting.find(cps[i - 1]) != std::u32string_view::npos &&
        kMeasures.find(cps[i + 1]) != std::u32string_view::npos)
      return true;
  return false;
}

// Whether a Chinese clause (code points [begin, end), marks already trimmed) asks without a question
// mark: it ends in 吗 or 么 (after modal particles), or in 呢 with a question word before it
// (什么原因申请退货的呢; a bare 呢 softens a statement: 这边帮您申请换货呢).
bool zh_clause_asks(const std::vector<char32_t>& cps, std::size_t begin, std::size_t end) {
  static constexpr std::u32string_view kParticles = U"啊呀啦哈嘛哦噢喔呗亲";
  while (end > begin && (kParticles.find(cps[end - 1]) != std::u32string_view::npos || is_trailing_symbol(cps[end - 1])))
    --end;
  if (end == begin) return false;
  // A clause that opens with a question word asks, whatever its end (多少, 几号到, 为什么还没发货, 怎么办,
  // 如何申请),
  // after a 那 / 那么 / 请问 that leads it in.
  std::size_t lead = begin;
  for (std::u32string_view in : {U"那么", U"请问", U"那"})
    if (end - lead > in.size() && std::equal(in.begin(), in.end(), cps.begin() + static_cast<std::ptrdiff_t>(lead))) {
      lead += in.size();
      break;
    }
  for (std::u32string_view w : {U"什么", U"怎么", U"为什么", U"为啥", U"哪里", U"哪个", U"哪天", U"哪儿", U"谁", U"多少",
                                U"几号", U"几点", U"几天", U"啥", U"咋", U"多久", U"如何"})
    if (end - lead >= w.size() && std::equal(w.begin(), w.end(), cps.begin() + static_cast<std::ptrdiff_t>(lead)))
      return true;
  if (ends_in_question_word(cps, lead, end) || asks_how_many(cps, lead, end) || asks_how(cps, lead, end)) return true;
  const char32_t last = cps[end - 1];
  if (last == U'吗' || last == U'么') return true;
  if (last != U'呢') return false;
  if (cps[begin] == U'那') return true;  // 那我的钱呢
  const std::u32string_view before_ne(cps.data() + begin, end - 1 - begin);
  if (faith::asks_what_next(before_ne) || faith::asks_about_bare_noun(before_ne)) return true;  // 打开之后呢, 手机呢
  for (std::size_t i = begin; i + 1 < end; ++i) {
    if (std::u32string_view(U"么哪谁几啥咋").find(cps[i]) != std::u32string_view::npos) return true;
    if (i + 2 < end && ((cps[i] == U'多' && cps[i + 1] == U'少') || (cps[i] == U'如' && cps[i + 1] == U'何')))
      return true;
  }
  return false;
}

// A unit's end: its code points, where the run of terminal marks before any trailing space and emoji
// starts (`body_end`) and ends (`marks_end`; equal when it has none).
struct UnitEnd {
  std::vector<char32_t> cps;
  std::size_t body_end = 0, marks_end = 0;
};

UnitEnd unit_end(const std::string& text) {
  UnitEnd e;
  e.cps = text::decode_utf8(text, text::Utf8Mode::lossy).cps;
  std::size_t end = e.cps.size();
  // Trailing space and emoji or other symbols ("能送吗？😊") do not end the sentence.
  while (end > 0 && !is_terminal_punct(e.cps[end - 1]) && is_trailing_symbol(e.cps[end - 1])) --end;
  e.marks_end = end;
  while (end > 0 && is_terminal_punct(e.cps[end - 1])) --end;
  e.body_end = end;
  return e;
}

}  // namespace

bool ends_as_question(const std::string& text) {
  const UnitEnd e = unit_end(text);
  for (std::size_t i = e.body_end; i < e.marks_end; ++i)
    if (e.cps[i] == U'?' || e.cps[i] == U'？') return true;
  return false;
}

bool asks_without_mark(const std::string& text) {
  const UnitEnd e = unit_end(text);
  // Ended by a mark other than a comma the sentence has said how it ends.
  if (e.body_end < e.marks_end && e.cps[e.marks_end - 1] != U'，' && e.cps[e.marks_end - 1] != U',') return false;
  std::size_t begin = e.body_end;
  while (begin > 0 && !is_terminal_punct(e.cps[begin - 1])) --begin;
  return zh_clause_asks(e.cps, begin, e.body_end);
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

std::string role_label(text::Speaker speaker, Lang lang) {
  const bool customer = speaker == text::Speaker::customer;
  if (lang == Lang::en) return customer ? "Customer: " : "Agent: ";
  return customer ? "用户:" : "客服:";
}

std::string body(const std::string& text, Lang lang, bool question) {
  if (lang == Lang::en) {
    // A sentence that ends in a colon introduced something the data left out (a link: "Please
    // answer our survey on this link:"); in a summary it introduces nothing, so it ends in a stop.
    std::size_t end = text.size();
    while (end > 0 && is_ascii_space(text[end - 1])) --end;
    if (end > 0 && text[end - 1] == ':') return text.substr(0, end - 1) + ".";
    return text;
  }
  auto decoded = text::decode_utf8(text, text::Utf8Mode::lossy);
  std::size_t end = decoded.cps.size();
  while (end > 0 && (is_terminal_punct(decoded.cps[end - 1]) || decoded.cps[end - 1] == U'：' ||
                     decoded.cps[end - 1] == U':' || text::is_space(decoded.cps[end - 1])))
    --end;
  return text::encode_utf8(decoded.cps.data(), end) + (question ? "？" : "。");
}

std::string mark_cut(std::string body, Lang lang) {
  static const std::string kStop = "。";
  if (lang != Lang::zh || !body.ends_with(kStop)) return body;
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
    if (is_clause_break(cps, i))
      close(i + 1);
    else if (lang == Lang::en && i > start && text::is_space(cps[i - 1]) && conjunction_at(cps, i) > 0)
      close(i);
  }
  close(cps.size());
  return out;
}

bool is_question_tail(const std::string& text) {
  bool asks = false;
  int letters = 0;
  for (char32_t cp : text::decode_utf8(text, text::Utf8Mode::lossy).cps) {
    if (text::is_space(cp)) continue;
    if (std::u32string_view(U"吗么呢嘛?？").find(cp) != std::u32string_view::npos) {
      asks = true;
    } else if (cp != U'吧' && cp != U'啊') {
      return false;
    }
    ++letters;
  }
  return asks && letters <= 3;
}

bool asked_in_next_turn(const Prepared& p, std::size_t u) {
  if (p.lang != Lang::zh || u + 1 >= p.units.size()) return false;
  const Unit& here = p.units[u];
  const Unit& next = p.units[u + 1];
  return next.speaker == here.speaker && next.turn != here.turn && is_question_tail(next.text);
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

// English: whether a report opens by naming who speaks ("The customer has…", "The agent asks…",
// "They…"). One that does not ("Deleting the app and telling all the customer's friends…", "Please be
// informed that the customer…") reads as the words of whoever spoke last in the summary.
bool opens_with_its_speaker(const std::string& body) {
  std::string head = body.substr(0, 12);
  for (char& ch : head) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
  for (std::string_view lead : {"the customer", "the agent", "they ", "they'", "their "})
    if (head.starts_with(lead)) return true;
  return false;
}

// English: in the summary, a sentence whose unit ended without a stop (a sign-off or link removed after
// it: "...on a later train ^CB") ends in one, so that the next sentence, perhaps the other speaker's,
// does not run on from it ("...on a later train Virgin staff or ..."). Only after a letter or digit:
// an emoji, a closing bracket or quote, or a mark already ends it. The sentence's own text stays as
// the unit wrote it.
void close_english(std::string& summary) {
  std::size_t end = summary.size();
  while (end > 0 && is_ascii_space(summary[end - 1])) --end;
  summary.resize(end);
  if (end > 0 && std::isalnum(static_cast<unsigned char>(summary[end - 1]))) summary += '.';
}

// English: whether `next` goes on with the sentence `prev` left open, one tweet of a thread after the
// other (continues_thread) with its mark dropped, so that the summary joins them: "...by responding with any letter or
// number...", not "...by responding with. Agent: Any letter or number...". `open_end` says the summary
// so far ends without a stop.
bool joins_thread(const Prepared& p, const SummarySentence& prev, const SummarySentence& next, bool open_end) {
  if (!open_end || next.reported || next.unit != prev.unit + 1) return false;
  const auto u = static_cast<std::size_t>(next.unit);
  // A body that still shows its mark (a baseline renders units as written) is not joined.
  return p.units[u].speaker == p.units[static_cast<std::size_t>(prev.unit)].speaker && u < p.unit_tokens.size() &&
         continues_thread(p.unit_tokens[u]) && !continues_thread(text::tokenize(next.body));
}

// A body that goes on with an open sentence: its initial in lower case unless its first word is
// written in capitals ("Any letter" -> "any letter", "DM us" stays).
std::string continued_body(std::string body) {
  if (body.size() >= 2 && std::isupper(static_cast<unsigned char>(body[0])) &&
      !std::isupper(static_cast<unsigned char>(body[1])))
    body[0] = static_cast<char>(std::tolower(static_cast<unsigned char>(body[0])));
  return body;
}

void assemble(Summary& out, const Prepared& p) {
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
    s.text = s.reported ? s.body : role_label(unit.speaker, p.lang) + s.body;
    s.shares_label = i > 0 && continues(p, out.sentences[i - 1], s);
    const bool after_labelled_run = i > 0 && under_label[i - 1] && same_speaker_run(p, out.sentences[i - 1], s);
    if (p.lang == Lang::en && !s.reported && after_labelled_run) s.shares_label = true;
    under_label[i] = !s.reported || (after_labelled_run && !opens_with_its_speaker(s.body));
    if (p.lang == Lang::zh) {
      // "用户:A。" + B -> "用户:A，B。"; after a question mark the next sentence follows it: "用户:A？B。"
      const bool stop_ends = out.summary.size() >= kStop.size() &&
                             out.summary.compare(out.summary.size() - kStop.size(), kStop.size(), kStop) == 0;
      if (!s.shares_label) out.summary += s.text;
      else if (stop_ends) out.summary.replace(out.summary.size() - kStop.size(), kStop.size(), "，" + s.body);
      else out.summary += s.body;
    } else {
      while (!out.summary.empty() && is_ascii_space(out.summary.back())) out.summary.pop_back();
      const bool open_end = !out.summary.empty() && std::isalnum(static_cast<unsigned char>(out.summary.back()));
      if (i > 0 && joins_thread(p, out.sentences[i - 1], s, open_end)) {
        s.shares_label = true;
        out.summary += ' ' + continued_body(s.body);
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
