#include "emotion_cues.h"

#include <algorithm>
#include <cwchar>
#include <optional>
// GCC 12 reports maybe-uninitialized inside libstdc++'s own <regex> automaton (std::function moved
// out of a _State) when built with -O2 and the sanitizers; the warning is in the library header, not
// in this file, so it is silenced for <regex> only.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#include <regex>
#pragma GCC diagnostic pop
#include <string>

#include "cue_prefilter.h"
#include "kessel/text/segment.h"

namespace kessel::text::detail {

static_assert(sizeof(wchar_t) == 4, "cues match code points: wchar_t must hold one");

namespace {

constexpr float kMild = 0.5f;   // intensity of a mild cue (labelled intensity 1 in the emotion sets)
constexpr float kClear = 0.8f;  // a clear one (intensity 2)
constexpr float kResigned = 0.4f;  // rule 8's resignation (labelled intensity 1, ranked below kMild)

// One clause of Chinese text: no comma, full stop, exclamation or question mark, tilde or space
// (Chinese chat's comma) inside the match.
#define ZH_CLAUSE L"[^，,。.!！?？~～\\s]"

}  // namespace

const std::vector<EmotionCue>& emotion_cues() {
  static const std::vector<EmotionCue> cues = {
      // Chinese.
      {"rhetorical", Language::zh,
       L"(为什么|为啥|为何|凭什么|怎么还[^款钱贷，,。.!！?？~～\\s]|怎么又|怎么就|怎么会|怎么能|怎么都|难道|谁说|谁让)" ZH_CLAUSE L"{1,14}",
       nullptr, Emotion::anger, kMild},
      {"rhetorical_negative", Language::zh, L"(不是|是不是)" ZH_CLAUSE L"{1,12}(吗|么|嘛)", nullptr,
       Emotion::anger, kMild},
      {"duration", Language::zh,
       L"(好久|这么久|那么久|多久了|好几天|好多天|半天了|半天还|一直" ZH_CLAUSE L"{0,8}(没|不|都)|都" ZH_CLAUSE
       L"{1,6}了还|都(几|[0-9一二两三四五六七八九十])+(天|周|个星期|个月|个小时)了)",
       nullptr, Emotion::anger, kMild},
      {"boycott", Language::zh,
       L"(不敢" ZH_CLAUSE L"{0,6}买|不会?再" ZH_CLAUSE L"{0,4}买|不要买|再也不|以后不" ZH_CLAUSE L"{0,3}买)",
       nullptr, Emotion::anger, kClear},
      {"dilemma", Language::zh, ZH_CLAUSE L"{1,4}也不是[，,]?" ZH_CLAUSE L"{1,4}也不是", nullptr,
       Emotion::anger, kClear},
      {"worry", Language::zh,
       L"(不会" ZH_CLAUSE L"{1,10}吧|万一" ZH_CLAUSE L"{1,10}|怕" ZH_CLAUSE L"{1,8})", L"恐哪不",
       Emotion::fear, kMild},
      // The same trouble again: 又降价了 right after buying, 又得转专员, 又说换 (the story changed), 又跳到个人了.
      {"again", Language::zh, L"又(是|要|没|不|出|坏|来|降|涨|得|说|跳|变|烂|丢|回到|无法)", nullptr, Emotion::anger, kMild},
      {"repeated", Language::zh, L"(多次|好几次|几次了|好多次|[0-9一二三四五几]+遍了)", nullptr, Emotion::anger,
       kMild},
      {"sudden_change", Language::zh, L"(怎么|咋)(?!样|办|回事)" ZH_CLAUSE L"{1,8}(了|啦)", nullptr, Emotion::surprise, kMild},
      // "What use is it" asks in earnest (那个卡有什么用, 那保修卡有什么用): only its rhetorical forms are a
      // cue, the literary 有何用, "what use is it still", "what use was buying it", or an exclaimed one.
      {"pointless", Language::zh,
       L"(有何用|要你们何用|还有(什么|啥)用|(买来|买了|要来)" ZH_CLAUSE L"{0,6}有(什么|啥)用|有(什么|啥)用(啊|呀)?[!！])",
       nullptr, Emotion::anger, kMild},
      {"after_all", Language::zh, L"到底" ZH_CLAUSE L"{1,12}", nullptr, Emotion::anger, kMild},
      {"not_even", Language::zh, L"(一点" ZH_CLAUSE L"{0,6}都(没|不)" ZH_CLAUSE L"{0,4}|这都(不|没)(可以|行|能|有|到)" ZH_CLAUSE L"{0,6})",
       nullptr, Emotion::anger, kMild},
      {"only_days", Language::zh, L"(这才|才)(几|[0-9一二两三四五六七八九十])+天", nullptr, Emotion::anger, kMild},
      {"still_unsolved", Language::zh, L"还(没|没有|未)" ZH_CLAUSE L"{1,8}(啊|呀)[?？]", nullptr, Emotion::anger, kMild},
      {"size", Language::zh, L"(这么|那么|如此)(多|快|慢|贵|久|麻烦|难)", nullptr, Emotion::surprise,
       kMild},
      {"exclamation", Language::zh, L"^(天|天哪|天呐|天啊|我的天|我去|我靠)[!！。]*$", nullptr,
       Emotion::surprise, kMild},
      {"exasperated_marks", Language::zh, L"[?？][!！]|[!！][?？]", nullptr, Emotion::anger, kMild},
      // "What is going on?" as a clause of its own (怎么回事, 冰糕放进去都化了 / 怎么回事), not asked about (知道怎么回事
      // 就行了, 还是怎么回事, 是什么情况) or as "in what case" (什么情况下).
      {"what_is_going_on", Language::zh,
       L"(怎么回事|什么情况|啥情况)(啊|呀|呢|嘛|哦|了)?(?=[?？!！。.~～，,\\s]|$)", L"道还是么",
       Emotion::anger, kMild},
      // Dismay at what the agent says (没有看到有记录的呢 / 额不会吧): the whole turn.
      {"dismay", Language::zh, L"^(额|呃|啊|哎|唉)?[，,]?不会吧[?？!！。.~～]*$", nullptr, Emotion::surprise, kMild},
      // "Too un-…" (也太不科学了, 太不负责了): a complaint of degree.
      {"too_un", Language::zh, L"太不" ZH_CLAUSE L"{1,4}(了|啦)", nullptr, Emotion::anger, kClear},
      // "Is this a mistake?" as a complaint (有没有搞错, 现在下单七号送没有搞错呀), not the statement 地址没搞错.
      {"mistaken", Language::zh, L"(有没有搞错|没有?搞错(了)?(吧|呀|啊|吗|么|[?？])|搞什么(鬼|名堂|啊|呀)?)", nullptr,
       Emotion::anger, kMild},
      // A threat with "or else" (希望是好的结果不然你知道网络影响力的); 不然我自己去取 is no threat.
      {"threat", Language::zh,
       L"(不然|否则|要不然|要不)" ZH_CLAUSE L"{0,6}(你知道|投诉|曝光|差评|12315|媒体|网上|网络|消协|工商|后果)" ZH_CLAUSE L"{0,8}",
       nullptr, Emotion::anger, kClear},
      // Not told (你们这也没说明, 客服都没告诉我): the customer blames the company for what it left unsaid.
      {"not_told", Language::zh,
       L"(你们|客服|商家|页面|也|都)" ZH_CLAUSE L"{0,2}(没|没有|不)(说明|告知|通知|提醒|说清楚|讲清楚|告诉我)",
       nullptr, Emotion::anger, kMild},
      // Regret, "had I known" (早知道你们没货，我就不定了; 早知道换大号买了).
      {"regret", Language::zh, L"早知道" ZH_CLAUSE L"{1,12}", nullptr, Emotion::sadness, kMild},
      // Refusing what the company does (我不接受扣款的, 这个结果无法接受).
      {"not_accepted", Language::zh, L"(我不接受|不能接受|无法接受|接受不了)", nullptr, Emotion::anger, kMild},
      // English.
      {"rhetorical", Language::en, L"\\b(why|how come)\\b[^.!?]{3,80}\\?", nullptr, Emotion::anger,
       kMild},
      {"how_hard", Language::en, L"\\bhow (hard|difficult|long|many times|much longer)\\b[^.!?]{0,60}",
       nullptr, Emotion::anger, kMild},
      {"still_not", Language::en,
       L"\\bstill (not|no|haven't|hasn't|hadn't|didn't|doesn't|don't|can't|cannot|won't|isn't|aren't|"
       L"nothing|waiting|no sign)\\b[^.!?]{0,40}",
       nullptr, Emotion::anger, kMild},
      {"again", Language::en,
       L"\\b(yet again|once again|every (single )?time|each time|keeps? (happening|getting|saying))\\b",
       nullptr, Emotion::anger, kMild},
      {"waiting", Language::en,
       L"\\b(waiting|waited|been)\\b[^.!?]{0,30}\\b(for|over|almost|nearly) (\\d+|two|three|four|five|six|"
       L"several|many) (days|weeks|hours|months)\\b",
       nullptr, Emotion::anger, kMild},
      {"even", Language::en, L"\\b(do|did|does|can|could|are) (you|they) even\\b[^.!?]{0,40}", nullptr,
       Emotion::anger, kMild},
      {"already_said", Language::en,
       L"\\b(as i (said|mentioned|stated|explained)|i (already|have already|already have) (told|said|"
       L"did|do|sent|tried|explained|provided))\\b",
       nullptr, Emotion::anger, kMild},
      {"no_answer", Language::en,
       L"\\b(haven't|havent|have not|never) (heard|had) (back|a reply|a response|an answer)|\\b(doesn't|didn't|"
       L"does not|did not) (answer|address|help|resolve)\\b",
       nullptr, Emotion::anger, kMild},
      {"not_told", Language::en,
       L"\\b(wasn't|weren't|was not|were not|never) (notified|told|informed|warned)\\b|\\bwithout (any )?"
       L"(notice|warning|notification)\\b",
       nullptr, Emotion::anger, kMild},
      {"nobody", Language::en, L"\\b(no one|nobody|noone)\\b[^.!?]{0,40}", nullptr, Emotion::anger,
       kMild},
      {"exasperated_marks", Language::en, L"\\?\\?|\\?!|!\\?", nullptr, Emotion::anger, kMild},
  };
  return cues;
}

#undef ZH_CLAUSE

namespace {

struct CompiledCue {
  const EmotionCue* cue;
  std::wregex re;
  bool icase;
  CueRequirement required;  // what a match contains (cue_prefilter.h): a text without it is skipped
};

const std::ctype<wchar_t>& ctype_of(const std::wregex& re) {
  return std::use_facet<std::ctype<wchar_t>>(re.getloc());
}

// Tweets write "haven’t" as often as "haven't": an apostrophe in an English pattern matches both.
std::wstring with_any_apostrophe(const std::wstring& pattern) {
  std::wstring out;
  for (wchar_t c : pattern) {
    if (c == L'\'') out += L"['\u2019]";
    else out += c;
  }
  return out;
}

const std::vector<CompiledCue>& compiled_cues() {
  static const std::vector<CompiledCue> compiled = [] {
    std::vector<CompiledCue> out;
    for (const EmotionCue& c : emotion_cues()) {
      auto flags = std::regex::ECMAScript | std::regex::optimize;
      std::wstring pattern = c.pattern;
      if (c.language == Language::en) {
        flags |= std::regex::icase;
        pattern = with_any_apostrophe(pattern);
      }
      std::wregex re(pattern, flags);
      const bool icase = (flags & std::regex::icase) != 0;
      CueRequirement required = cue_requirement(pattern, icase, ctype_of(re));
      out.push_back({&c, std::move(re), icase, std::move(required)});
    }
    return out;
  }();
  return compiled;
}

bool overlaps(const EmotionMention& m, std::int64_t start, std::int64_t end) {
  return m.char_start < end && start < m.char_end;
}

bool overlaps_any(const std::vector<EmotionMention>& ms, std::int64_t start, std::int64_t end) {
  return std::any_of(ms.begin(), ms.end(), [&](const EmotionMention& m) { return overlaps(m, start, end); });
}

EmotionMention cue_mention(const DecodedText& decoded, const EmotionCue& cue, int turn,
                           std::int64_t start, std::int64_t end) {
  EmotionMention m;
  m.term = encode_utf8(decoded.cps.data() + start, static_cast<std::size_t>(end - start));
  m.turn = turn;
  m.char_start = m.term_char_start = start;
  m.char_end = m.term_char_end = end;
  m.term_byte_start = decoded.byte_offsets[static_cast<std::size_t>(start)];
  m.term_byte_end = decoded.byte_offsets[static_cast<std::size_t>(end)];
  m.emotion = cue.emotion;
  m.intensity = cue.intensity;
  // Surprise is neutral in the wheel's default polarity; a customer's surprise at a price or a
  // delay is what the cue reports, so it counts (rule 3 of emotion.h asks for a polarity).
  m.polarity = cue.emotion == Emotion::surprise ? Polarity::both : default_polarity(cue.emotion);
  m.wheel = wheel_coordinate(m.emotion, m.intensity);
  m.source = std::string("cue:") + cue.name;
  m.kind = MentionKind::report;
  m.expressed = true;
  m.strength = m.intensity * mention_kind_weight(m.kind);
  return m;
}

// A Chinese cue's match widened to whole words: a pattern that ends on a letter inside a word
// (一直很卡然后不, from 一直很卡然后不停要更新) would trace a cut word. `words` is filled on first use.
void widen_to_words(const DecodedText& decoded, std::vector<WordSpan>& words, std::int64_t& start, std::int64_t& end) {
  if (words.empty()) words = Segmenter::default_segmenter().segment(std::span<const char32_t>(decoded.cps));
  for (const WordSpan& w : words) {
    if (w.char_start < start && start < w.char_end) start = w.char_start;
    if (w.char_start < end && end < w.char_end) end = w.char_end;
  }
}

}  // namespace

void add_cue_mentions(const DecodedText& decoded, Language language, int turn,
                      std::vector<EmotionMention>& mentions) {
  if (language != Language::zh && language != Language::en) return;
  const std::wstring text(decoded.cps.begin(), decoded.cps.end());
  std::vector<EmotionMention> found;
  std::optional<TextChars> chars;  // for the language's first cue; the others share its case rule
  bool chars_icase = false;
  std::vector<WordSpan> words;  // zh: the turn's words, once a cue matches
  for (const CompiledCue& c : compiled_cues()) {
    if (c.cue->language != language) continue;
    if (!chars) chars.emplace(text, chars_icase = c.icase, ctype_of(c.re));
    if (c.icase == chars_icase && !may_match(c.required, *chars)) continue;
    for (auto it = std::wsregex_iterator(text.begin(), text.end(), c.re); it != std::wsregex_iterator();
         ++it) {
      auto start = static_cast<std::int64_t>(it->position());
      auto end = start + static_cast<std::int64_t>(it->length());
      if (end == start) continue;
      if (c.cue->not_after != nullptr && start > 0 &&
          std::wcschr(c.cue->not_after, text[static_cast<std::size_t>(start - 1)]) != nullptr)
        continue;
      if (language == Language::zh) widen_to_words(decoded, words, start, end);
      if (overlaps_any(mentions, start, end) || overlaps_any(found, start, end)) continue;
      found.push_back(cue_mention(decoded, *c.cue, turn, start, end));
    }
  }
  if (found.empty()) return;
  mentions.insert(mentions.end(), std::make_move_iterator(found.begin()),
                  std::make_move_iterator(found.end()));
  std::sort(mentions.begin(), mentions.end(),
            [](const EmotionMention& a, const EmotionMention& b) { return a.char_start < b.char_start; });
}

namespace {

// What a customer gives in with, longest first. 算了, 行吧 and 那好吧 are not here: the lexicon has them
// (judgements, stronger than this rule's mention) wherever they stand; 好吧 is its polite formula.
constexpr std::u32string_view kResignations[] = {U"那只能这样", U"只能这样", U"好吧"};
// What may come before it: interjections, punctuation and spaces (哦，好吧; 。。好吧).
constexpr std::u32string_view kLeadIns = U"哦噢喔奥额呃嗯恩唉哎啊";

// Whether a text asks: a question mark or 吗, in either speaker's turn (可以吗? → 好吧 consents;
// 好吧那我能申请取消吗 asks anew rather than gives in).
bool asks_char(char32_t c) { return c == U'?' || c == U'\uFF1F' || c == U'吗'; }

bool asks(std::string_view utf8) {
  for (std::size_t at = 0; at < utf8.size();)
    if (asks_char(next_code_point(utf8, &at))) return true;
  return false;
}

// Whether an agent turn tells the customer something to give in to: a refusal (这个没有办法修改呢), a no,
// or news they did not ask for (预计明天会为您送达哦 when they wanted today; 这个地址是商家仓发货哦): at least
// kNewsLetters Chinese letters besides addressing, a bare yes and particles. The labelled sets mark
// 好吧 after such turns as sadness (intensity 1) far beyond the refusals the guide names; addressing
// (亲爱的), a yes (对的呢) or a link tell nothing to give in to.
constexpr int kNewsLetters = 3;
bool tells_news(std::string_view turn) {
  static constexpr std::u32string_view kEmpty[] = {U"亲爱的", U"亲亲", U"您好", U"对的", U"是的", U"好的"};
  static constexpr std::u32string_view kParticles = U"亲嗯呢哦哈啊呀的了";
  std::u32string text;
  for (std::size_t at = 0; at < turn.size();) text.push_back(next_code_point(turn, &at));
  for (std::u32string_view w : kEmpty)
    for (std::size_t at = text.find(w); at != std::u32string::npos; at = text.find(w, at)) text.erase(at, w.size());
  const auto letters = std::count_if(text.begin(), text.end(), [&](char32_t cp) {
    return is_cjk(cp) && kParticles.find(cp) == std::u32string_view::npos;
  });
  return letters >= kNewsLetters;
}

}  // namespace

void add_resignation_mention(const DecodedText& decoded, std::string_view agent_turn, int turn,
                             std::vector<EmotionMention>& mentions) {
  const std::vector<char32_t>& cps = decoded.cps;
  std::size_t start = 0;
  while (start < cps.size() && (kLeadIns.find(cps[start]) != std::u32string_view::npos || is_punct(cps[start]) ||
                                is_space(cps[start])))
    ++start;
  const std::u32string_view rest(cps.data() + start, cps.size() - start);
  const auto words = std::find_if(std::begin(kResignations), std::end(kResignations),
                                  [&](std::u32string_view w) { return rest.substr(0, w.size()) == w; });
  if (words == std::end(kResignations)) return;
  if (std::any_of(cps.begin(), cps.end(), asks_char) || asks(agent_turn) || !tells_news(agent_turn)) return;
  const auto begin = static_cast<std::int64_t>(start);
  const auto end = begin + static_cast<std::int64_t>(words->size());
  if (std::any_of(mentions.begin(), mentions.end(),
                  [&](const EmotionMention& m) { return m.expressed && overlaps(m, begin, end); }))
    return;
  mentions.erase(std::remove_if(mentions.begin(), mentions.end(),
                                [&](const EmotionMention& m) { return overlaps(m, begin, end); }),
                 mentions.end());
  // Below a mild cue's strength (0.2 against 0.25): a worry or a rhetorical question in the same
  // dialogue says more of what the customer feels than their giving in.
  static const EmotionCue resigned{"resigned", Language::zh, nullptr, nullptr, Emotion::sadness, kResigned};
  mentions.insert(std::find_if(mentions.begin(), mentions.end(),
                               [&](const EmotionMention& m) { return m.char_start >= end; }),
                  cue_mention(decoded, resigned, turn, begin, end));
}

CueCheck check_cue(std::size_t i, const std::wstring& text) {
  const CompiledCue& c = compiled_cues().at(i);
  CueCheck out;
  for (auto it = std::wsregex_iterator(text.begin(), text.end(), c.re);
       it != std::wsregex_iterator(); ++it)
    out.matched = out.matched || it->length() > 0;
  out.admitted = may_match(c.required, TextChars(text, c.icase, ctype_of(c.re)));
  return out;
}

}  // namespace kessel::text::detail
