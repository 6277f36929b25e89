#include "kessel/text/emotion.h"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <unordered_set>

#include "kessel/error.h"
#include "kessel/text/lexicon.h"
#include "kessel/text/tokenize.h"
#include "emotion_cues.h"

namespace kessel::text {

const char* to_string(Emotion e) {
  switch (e) {
    case Emotion::joy:
      return "joy";
    case Emotion::trust:
      return "trust";
    case Emotion::fear:
      return "fear";
    case Emotion::surprise:
      return "surprise";
    case Emotion::sadness:
      return "sadness";
    case Emotion::disgust:
      return "disgust";
    case Emotion::anger:
      return "anger";
    case Emotion::anticipation:
      return "anticipation";
  }
  return "joy";
}

std::optional<Emotion> parse_emotion(std::string_view name) {
  const std::string lower = normalize_term(name);
  for (Emotion e : kAllEmotions) {
    if (lower == to_string(e)) return e;
  }
  return std::nullopt;
}

Emotion opposite(Emotion e) {
  return static_cast<Emotion>((static_cast<int>(e) + 4) % kNumEmotions);
}

float wheel_angle_radians(Emotion e) {
  return static_cast<float>(static_cast<int>(e) * std::numbers::pi / 4.0);
}

WheelPoint wheel_coordinate(Emotion e, float intensity) {
  KESSEL_CHECK_ARG(std::isfinite(intensity) && intensity >= 0.0f && intensity <= 1.0f,
                   "wheel_coordinate: intensity=", intensity, " is outside [0, 1]");
  const double theta = static_cast<int>(e) * std::numbers::pi / 4.0;
  return WheelPoint{static_cast<float>(intensity * std::cos(theta)),
                    static_cast<float>(intensity * std::sin(theta))};
}

const char* to_string(Polarity p) {
  switch (p) {
    case Polarity::positive:
      return "positive";
    case Polarity::negative:
      return "negative";
    case Polarity::neutral:
      return "neutral";
    case Polarity::both:
      return "both";
  }
  return "neutral";
}

std::optional<Polarity> parse_polarity(std::string_view name) {
  const std::string s = normalize_term(name);
  if (s == "pos" || s == "positive" || s == "+") return Polarity::positive;
  if (s == "neg" || s == "negative" || s == "-") return Polarity::negative;
  if (s == "neu" || s == "neutral" || s == "0") return Polarity::neutral;
  if (s == "both" || s == "mixed") return Polarity::both;
  return std::nullopt;
}

Polarity default_polarity(Emotion e) {
  switch (e) {
    case Emotion::joy:
    case Emotion::trust:
    case Emotion::anticipation:
      return Polarity::positive;
    case Emotion::surprise:
      return Polarity::neutral;
    default:
      return Polarity::negative;
  }
}

const char* to_string(MentionKind k) {
  switch (k) {
    case MentionKind::feeling:
      return "feeling";
    case MentionKind::report:
      return "report";
    case MentionKind::judgement:
      return "judgement";
    case MentionKind::request:
      return "request";
  }
  return "feeling";
}

std::optional<MentionKind> parse_mention_kind(std::string_view name) {
  const std::string s = normalize_term(name);
  for (MentionKind k : {MentionKind::feeling, MentionKind::report, MentionKind::judgement, MentionKind::request})
    if (s == to_string(k)) return k;
  return std::nullopt;
}

float mention_kind_weight(MentionKind k) {
  switch (k) {
    case MentionKind::feeling:
      return 1.0f;
    case MentionKind::report:
      return 0.5f;
    case MentionKind::judgement:
      return 0.4f;
    case MentionKind::request:
      return 0.3f;
  }
  return 1.0f;
}

const std::vector<std::string>& polite_formulas() {
  static const std::vector<std::string> list = {
      // zh
      "好的", "好", "好滴", "好哒", "谢谢", "谢谢您", "谢谢你", "谢啦", "多谢", "感谢", "感谢您",
      "非常感谢", "您好", "你好", "不客气", "没关系", "麻烦", "麻烦您", "麻烦你", "麻烦了", "请问",
      "请", "您", "亲", "亲亲", "嗯", "嗯嗯", "哦", "恩", "好吧", "辛苦了", "辛苦", "欢迎", "祝您",
      "祝您生活愉快", "生活愉快", "祝您购物愉快", "购物愉快", "感谢您的耐心等待", "耐心等待",
      "很高兴为您服务", "为您服务", "欢迎光临", "再见", "拜拜", "在吗", "在么", "您看可以吗",
      "可以吗", "没问题", "收到", "明白", "了解", "理解", "祝您愉快", "感谢您的支持", "有劳",
      // en
      "thanks", "thank you", "thank u", "thx", "ty", "please", "pls", "plz", "ok", "okay", "k",
      "hi", "hello", "hey", "dear", "welcome", "you're welcome", "no problem", "np", "cheers",
      "regards", "best regards", "kind regards", "have a nice day", "have a great day", "great day",
      "appreciate it", "much appreciated", "bye", "good morning", "good afternoon", "good evening",
      // season's greetings: wishes, not the customer's feeling ("Happy thanksgiving")
      "happy holidays", "happy thanksgiving", "happy new year", "happy birthday", "happy easter",
      "merry christmas", "新年快乐", "节日快乐", "中秋快乐", "春节快乐", "生日快乐"};
  return list;
}

const std::vector<std::string>& apology_formulas() {
  static const std::vector<std::string> list = {
      "sorry", "so sorry", "we're sorry", "we are sorry", "apologies", "apologize",   "apologise",
      "抱歉",  "非常抱歉", "很抱歉",      "对不起",       "不好意思",  "给您带来不便"};
  return list;
}

const std::vector<std::string>& gratitude_formulas() {
  static const std::vector<std::string> list = {
      "谢谢", "谢谢您", "谢谢你", "谢啦", "多谢", "感谢", "感谢您", "非常感谢", "辛苦了", "感谢您的支持",
      "thanks", "thank you", "thank u", "thx", "ty", "cheers", "appreciate it", "much appreciated"};
  return list;
}

namespace {

std::unordered_set<std::string_view> as_set(const std::vector<std::string>& list) {
  return {list.begin(), list.end()};
}

}  // namespace

bool is_polite_formula(std::string_view normalized_term) {
  static const std::unordered_set<std::string_view> polite = [] {
    auto s = as_set(polite_formulas());
    for (const auto& p : apology_formulas()) s.insert(p);
    return s;
  }();
  return polite.count(normalized_term) > 0;
}

namespace {

bool is_gratitude(std::string_view normalized_term) {
  static const std::unordered_set<std::string_view> set = as_set(gratitude_formulas());
  return set.count(normalized_term) > 0;
}

// Rule 2c's words: what a customer says to acknowledge or close (好的, 没有了, 嗯嗯, "ok"), with nothing of
// their own in it.
bool is_acknowledgement(std::string_view w) {
  static const std::unordered_set<std::string_view> set = {
      "好", "好的", "好滴", "好哒", "好嘞", "好吧", "嗯", "嗯嗯", "恩", "恩恩", "哦", "哦哦", "噢", "行", "可以", "没有",
      "没有了", "没了", "没", "了", "没事", "没事了", "收到", "知道", "知道了", "明白", "明白了", "了解", "再见", "拜拜",
      "亲", "呢", "啦", "哈", "哈哈", "的", "吧", "ok", "okay", "k", "kk", "yes", "yep", "yeah", "sure", "no", "nope",
      "bye", "np", "alright", "noted", "got", "it"};
  return set.count(w) > 0;
}

// Whether tokens [a, b) are acknowledgements and gratitude only, emoji, punctuation and addressing aside,
// with at least one word: a word may be split over tokens (没有|了), so the cover is over their concatenation.
bool acknowledges_only(const std::vector<Token>& tokens, std::size_t a, std::size_t b) {
  std::vector<std::string_view> words;
  for (std::size_t k = a; k < b; ++k) {
    const TokenKind kind = tokens[k].kind;
    if (kind == TokenKind::emoji || kind == TokenKind::emoticon || kind == TokenKind::weibo_emoticon ||
        kind == TokenKind::punct || kind == TokenKind::mention || kind == TokenKind::url)
      continue;
    words.push_back(tokens[k].lower);
  }
  if (words.empty()) return false;
  // reach[i]: words [0, i) are covered by runs of at most three tokens that spell a listed word.
  std::vector<char> reach(words.size() + 1, 0);
  reach[0] = 1;
  for (std::size_t i = 0; i < words.size(); ++i) {
    if (!reach[i]) continue;
    std::string run;
    for (std::size_t j = i; j < words.size() && j < i + 3; ++j) {
      run += words[j];
      if (is_acknowledgement(run) || is_gratitude(run)) reach[j + 1] = 1;
    }
  }
  return reach.back() != 0;
}

// A punctuation token that ends a sentence (rule 2b's scope): . ! ? 。 ！ ？ ; ； or a line break.
bool ends_sentence(const Token& t) {
  if (t.kind != TokenKind::punct) return false;
  for (std::string_view stop : {".", "!", "?", ";", "\n", "\xE3\x80\x82", "\xEF\xBC\x81", "\xEF\xBC\x9F", "\xEF\xBC\x9B"})
    if (t.text.find(stop) != std::string::npos) return true;
  return false;
}

bool is_negator(const Token& t) {
  static const std::unordered_set<std::string_view> negators = {
      "不", "没",  "没有", "别",    "未",      "毫不",    "并不",   "从不",    "不太", "不是",
      "甭", "not", "no",   "never", "without", "nothing", "nobody", "neither", "nor",  "cannot"};
  if (negators.count(t.lower)) return true;
  const std::string& w = t.lower;
  const auto ends_with = [&](std::string_view suffix) {
    return w.size() > suffix.size() &&
           w.compare(w.size() - suffix.size(), suffix.size(), suffix) == 0;
  };
  return t.kind == TokenKind::word && (ends_with("n't") || ends_with("n\xE2\x80\x99t"));
}

bool is_single_cjk(const Token& t) {
  return t.kind == TokenKind::cjk && t.char_end - t.char_start == 1;
}

// Where a negator's scope ends (rule 5): punctuation, and "but" / 但 (so also 但是, 不但):
// what follows "but" is not negated by what precedes it ("nothing but useless answers").
bool ends_negation_scope(const Token& t) {
  return t.kind == TokenKind::punct || t.lower == "but" || t.lower == "但";
}

// Chinese chat separates clauses with a space where edited text would have a comma
// (为什么没到 气死我了), so white space between two CJK characters ends a clause. Between
// Latin words it is only a word break.
bool cjk_space_between(const DecodedText& d, const Token& a, const Token& b) {
  return b.char_start > a.char_end && is_cjk(d.cps[static_cast<std::size_t>(a.char_end - 1)]) &&
         is_cjk(d.cps[static_cast<std::size_t>(b.char_start)]);
}

// "not only", "not just", 不仅, 不只, 不光: the negator adds rather than denies
// ("not only angry but ..."); 不但 is covered by 但 ending the scope.
bool is_not_only(const std::vector<Token>& tokens, std::size_t negator) {
  if (negator + 1 >= tokens.size()) return false;
  const std::string& n = tokens[negator].lower;
  const std::string& next = tokens[negator + 1].lower;
  if (n == "not") return next == "only" || next == "just";
  return n == "不" && (next == "仅" || next == "只" || next == "光");
}

// "never been this angry": "never" + a verb of experience + a degree word compares with every
// earlier time, so it is emphasis, not negation. The degree word may open the term ("so
// disappointed" is a lexicon term). "not so happy" and "was never that angry" (no verb between
// "never" and the degree word) stay negated.
bool is_emphatic_never_en(const std::vector<Token>& tokens, std::size_t negator, std::size_t term) {
  static const std::unordered_set<std::string_view> verbs = {
      "been", "felt", "seen", "had", "was", "were", "got", "gotten", "heard", "met", "experienced"};
  static const std::unordered_set<std::string_view> degree = {"this", "so",   "that",
                                                              "such", "more", "as"};
  if (tokens[negator].lower != "never") return false;
  std::vector<std::string_view> words;  // from the negator to the term's first word
  for (std::size_t i = negator + 1; i < term; ++i) words.push_back(tokens[i].lower);
  const std::string_view first = tokens[term].lower;
  words.push_back(first.substr(0, first.find(' ')));
  return words.size() >= 2 && verbs.count(words[0]) && degree.count(words[1]);
}

// The same in Chinese, 从来没这么生气过: 没/没有/未 + a degree word (这么 那么 如此 这样 这般,
// or a term opening with one, 这么慢) needs a marker of "never": 从, 从来 or 向来 before the
// negator, or the experiential 过 after the term. 没那么生气 ("not that angry") stays negated.
bool is_emphatic_never_zh(std::string_view text, const std::vector<Token>& tokens,
                          std::size_t negator, std::size_t term) {
  const Token& n = tokens[negator];
  if (n.lower != "没" && n.lower != "没有" && n.lower != "未") return false;
  const auto b = static_cast<std::size_t>(n.byte_end);
  const auto e = static_cast<std::size_t>(tokens[term].byte_start);
  const std::string_view span = text.substr(b, static_cast<std::size_t>(tokens[term].byte_end) - b);
  bool degree_word = false;
  for (std::string_view w : {"这么", "那么", "如此", "这样", "这般"})
    degree_word |= span.starts_with(w) && e - b <= w.size();
  if (!degree_word) return false;
  const std::string_view before = text.substr(0, static_cast<std::size_t>(n.byte_start));
  const std::string_view after = text.substr(static_cast<std::size_t>(tokens[term].byte_end));
  return before.ends_with("从") || before.ends_with("从来") || before.ends_with("向来") || after.starts_with("过");
}

// A wish against what happened: "Wish this update wouldn't have screwed my phone up", "I wish you
// hadn't cancelled it", "if only it didn't crash". The negator says it did happen: the term is not
// negated. "wish" (wished, wishing) or "if only" stands in the negator's clause, at most four words
// before it.
bool is_counterfactual_wish_en(const std::vector<Token>& tokens, std::size_t negator) {
  for (std::size_t back = 1; back <= 4 && back <= negator; ++back) {
    const Token& t = tokens[negator - back];
    if (ends_negation_scope(t)) return false;
    if (t.lower == "wish" || t.lower == "wished" || t.lower == "wishing") return true;
    if (t.lower == "only" && negator - back > 0 && tokens[negator - back - 1].lower == "if") return true;
  }
  return false;
}

constexpr std::size_t kNone = static_cast<std::size_t>(-1);

// Rule 5: the index of the negator among the `window` tokens before tokens[term], in the same
// clause, that negates the term; kNone when none does.
std::size_t negator_of(std::string_view text, const DecodedText& decoded, const std::vector<Token>& tokens,
                       std::size_t term, int window) {
  for (std::size_t back = 1; back <= static_cast<std::size_t>(window) && back <= term; ++back) {
    const std::size_t k = term - back;
    if (ends_negation_scope(tokens[k]) || cjk_space_between(decoded, tokens[k], tokens[k + 1]))
      return kNone;
    if (is_negator(tokens[k]))
      return !is_not_only(tokens, k) && !is_emphatic_never_en(tokens, k, term) &&
                     !is_emphatic_never_zh(text, tokens, k, term) && !is_counterfactual_wish_en(tokens, k)
                 ? k
                 : kNone;
  }
  return kNone;
}

// ---- expressions: the words around a term that belong to it (spans and strength)

// Degree words: boosters raise a mention's strength, softeners lower it; both join its span.
constexpr float kBoost = 1.25f;
constexpr float kSoften = 0.8f;
constexpr float kSupposed = 0.5f;  // rule 2d: a good feeling after a supposition
constexpr int kMaxBoosts = 2;

// Chinese degree words, longest first within each list (matched against the characters just before
// the expression, with nothing between).
constexpr std::u32string_view kZhBoosters[] = {
    U"实在是", U"简直是", U"真的是", U"非常", U"真的", U"真是", U"特别", U"超级", U"十分", U"极其",
    U"相当", U"实在", U"简直", U"这么", U"那么", U"如此", U"太", U"很", U"超", U"好", U"挺", U"最", U"更",
    U"真"};
constexpr std::u32string_view kZhSofteners[] = {U"有一点", U"有点", U"有些", U"稍微", U"略"};
// English: one word before the expression, separated by spaces (so+ also matches sooo).
constexpr std::string_view kEnBoosters[] = {"really",   "very",   "extremely", "super",   "totally",
                                            "absolutely", "completely", "utterly", "too", "truly",
                                            "incredibly", "beyond", "pretty", "seriously", "so"};
constexpr std::string_view kEnSofteners[] = {"slightly", "somewhat", "kinda", "bit", "little"};

// The case-folded Latin word of cps[from, to).
std::string latin_word(const std::vector<char32_t>& cps, std::size_t from, std::size_t to) {
  std::string w;
  for (std::size_t i = from; i < to; ++i) append_utf8(w, fold_case(cps[i]));
  return w;
}

bool is_so(std::string_view w) {  // so, soo, sooo...
  return w.size() >= 2 && w[0] == 's' && w.find_first_not_of('o', 1) == std::string_view::npos;
}

bool ends_with_at(const std::vector<char32_t>& cps, std::size_t end, std::size_t floor, std::u32string_view w) {
  if (end < floor + w.size()) return false;
  for (std::size_t i = 0; i < w.size(); ++i)
    if (cps[end - w.size() + i] != w[i]) return false;
  return true;
}

// Extends an expression that starts at char `start` back over the degree words before it, not
// before `floor` (the previous mention's end). Counts the boosters and softeners it passes.
std::size_t extend_back(const std::vector<char32_t>& cps, std::size_t start, std::size_t floor, int* boosts,
                        int* softeners) {
  for (int step = 0; step < 3 && start > floor; ++step) {
    if (is_cjk(cps[start - 1])) {
      bool found = false;
      for (std::u32string_view w : kZhSofteners)
        if (ends_with_at(cps, start, floor, w)) {
          start -= w.size(), ++*softeners, found = true;
          break;
        }
      for (std::size_t i = 0; !found && i < std::size(kZhBoosters); ++i) {
        const std::u32string_view w = kZhBoosters[i];
        if (!ends_with_at(cps, start, floor, w)) continue;
        const std::size_t at = start - w.size();
        // 你好 / 您好 is a greeting, not 好 "so".
        if (w == U"好" && at > 0 && (cps[at - 1] == U'你' || cps[at - 1] == U'您')) break;
        start = at, ++*boosts, found = true;
      }
      if (!found) break;
      continue;
    }
    // English: spaces (no line break), then a word.
    std::size_t p = start;
    while (p > floor && (cps[p - 1] == ' ' || cps[p - 1] == '\t')) --p;
    if (p == start || p == floor || !is_latin_letter(cps[p - 1])) break;
    std::size_t q = p;
    while (q > floor && is_latin_letter(cps[q - 1])) --q;
    if (q > 0 && (is_latin_letter(cps[q - 1]) || cps[q - 1] == '\'' || cps[q - 1] == '-')) break;
    const std::string w = latin_word(cps, q, p);
    bool booster = is_so(w), softener = false;
    for (std::string_view b : kEnBoosters) booster |= w == b;
    for (std::string_view b : kEnSofteners) softener |= w == b;
    if (!booster && !softener) {
      // "a bit", "a little", "kind of", "sort of"
      if (w != "of") break;
      std::size_t r = q;
      while (r > floor && cps[r - 1] == ' ') --r;
      std::size_t t = r;
      while (t > floor && is_latin_letter(cps[t - 1])) --t;
      const std::string head = latin_word(cps, t, r);
      if (r == q || (head != "kind" && head != "sort")) break;
      q = t, softener = true;
    }
    if ((w == "bit" || w == "little")) {  // only as "a bit" / "a little"
      std::size_t r = q;
      while (r > floor && cps[r - 1] == ' ') --r;
      if (r == q || r == floor || fold_case(cps[r - 1]) != 'a' || (r >= 2 && is_latin_letter(cps[r - 2]))) break;
      q = r - 1;
    }
    start = q;
    ++*(softener ? softeners : boosts);
  }
  return start;
}

// Whether a term opens with a degree word (太失望了, 很满意, "so disappointed", "very disappointed").
bool opens_with_booster(const std::vector<char32_t>& cps, std::size_t start, std::size_t end) {
  const std::size_t n = end - start;
  if (n >= 2 && is_cjk(cps[start])) {
    for (std::u32string_view w : kZhBoosters)
      if (w.size() < n && std::u32string_view(cps.data() + start, w.size()) == w) return true;
    return false;
  }
  std::size_t space = start;
  while (space < end && is_latin_letter(cps[space])) ++space;
  if (space == start || space == end || cps[space] != ' ') return false;
  const std::string w = latin_word(cps, start, space);
  if (is_so(w)) return true;
  for (std::string_view b : kEnBoosters)
    if (w == b) return true;
  return false;
}

// The Chinese particles a feeling ends with (太垃圾了, 气死了啊), at most two, joined to the span.
std::size_t extend_forward(const std::vector<char32_t>& cps, std::size_t end) {
  for (int k = 0; k < 2 && end < cps.size(); ++k) {
    const char32_t c = cps[end];
    if (c != U'了' && c != U'啊' && c != U'呀' && c != U'啦') break;
    ++end;
  }
  return end;
}

// 1.15 when ! or ！ follows (after spaces), 1.3 for a run of them (?! counts, ? alone does not).
float exclamation_factor(const std::vector<char32_t>& cps, std::size_t end) {
  while (end < cps.size() && cps[end] == ' ') ++end;
  int bangs = 0, run = 0;
  for (; end < cps.size(); ++end, ++run) {
    const char32_t c = cps[end];
    if (c == '!' || c == U'！') ++bangs;
    else if (c != '?' && c != U'？') break;
  }
  if (bangs == 0) return 1.0f;
  return run >= 2 ? 1.3f : 1.15f;
}

// Rule 6: a two-character term from an external lexicon whose second character starts another
// entry with the text after it (不成|成功, 天才|才能 in 几天才能, 不及|及时) is a cut across two
// words: forward maximum matching took the first two characters because it cannot look back.
bool overlaps_next_entry(const Lexicon& lexicon, const DecodedText& decoded, const Token& t) {
  if (t.kind != TokenKind::term || t.char_end - t.char_start != 2) return false;
  const auto second = static_cast<std::size_t>(t.char_start + 1);
  constexpr std::size_t kMaxEntry = 8;  // code points; longer entries are idioms, not competitors
  for (std::size_t len = 2; len <= kMaxEntry && second + len <= decoded.size(); ++len) {
    if (!is_cjk(decoded.cps[second + len - 1])) break;
    if (lexicon.find(encode_utf8(decoded.cps.data() + second, len)) != nullptr) return true;
  }
  return false;
}

// 妈的 ("damn") after 我 俺 咱 老 is "my mother's" (给我妈的, 我妈的手机, 老妈的): the 妈 belongs to the word
// before it. 他妈的 and 你妈的 stay curses.
bool is_kin_possessive(const std::vector<char32_t>& cps, const Token& t) {
  if (t.lower != "妈的" || t.char_start == 0) return false;
  return std::u32string_view(U"我俺咱老").find(cps[static_cast<std::size_t>(t.char_start) - 1]) != std::u32string_view::npos;
}

// Rule 2d: whether the Chinese sentence before char `start` (back to a 。！？!?；; or the text's start)
// supposes (如果 要是 只要 假如 若是 万一 尽量 的话): a good feeling after it is what the customer would feel
// ("尽量处理完我这个问题就很高兴", "可以的话那就太好了"). It stays expressed, at half its strength
// (kSupposed), so that a feeling they have outranks it; a bad one keeps its strength ("如果再不发货我就投诉"
// threatens). Requests are not feelings: "尽量快一点" asks as much as "快一点".
bool after_supposition(const std::vector<char32_t>& cps, std::size_t start) {
  std::size_t from = start;
  while (from > 0 && std::u32string_view(U"。！？!?；;").find(cps[from - 1]) == std::u32string_view::npos) --from;
  const std::u32string_view before(cps.data() + from, start - from);
  for (std::u32string_view w : {U"如果", U"要是", U"只要", U"假如", U"若是", U"万一", U"尽量", U"的话"})
    if (before.find(w) != std::u32string_view::npos) return true;
  return false;
}

// Punctuation as exasperation, looked up in the lexicon under a canonical term (default_emoji.tsv):
// a run of three or more question marks (??? ？？？, "你们补发????") as "???", and a turn that is
// only a run of full stops or ellipses (。。。, ..., ……) as "。。。". One or two ? still ask (CSDS
// customers write 打电话?? as a plain question) and dots inside a sentence trail off. Returns ""
// for any other punctuation token.
std::string_view exasperation_term(const std::vector<char32_t>& cps,
                                   const std::vector<Token>& tokens, std::size_t k) {
  const Token& t = tokens[k];
  const char32_t c = cps[static_cast<std::size_t>(t.char_start)];
  const std::int64_t run = t.char_end - t.char_start;
  if ((c == U'?' || c == U'\uFF1F') && run >= 3) return "???";
  const bool dots = (c == U'\u3002' && run >= 2) || (c == U'.' && run >= 3) || c == U'\u2026';
  if (dots && tokens.size() == 1) return "。。。";
  return {};
}

// An English word stretched for emphasis ("sweeeet", "sooo bad", "longgggg"): each run of three or
// more of one ASCII letter cut to two, then to one. Empty when the word has no such run.
std::vector<std::string> unstretched(std::string_view lower) {
  // Most words are not stretched: they are told apart before anything is built (every English word
  // without a lexicon entry comes through here).
  bool stretched = false;
  for (std::size_t i = 2; i < lower.size() && !stretched; ++i)
    stretched = lower[i] >= 'a' && lower[i] <= 'z' && lower[i] == lower[i - 1] && lower[i] == lower[i - 2];
  if (!stretched) return {};
  std::string two, one;
  for (std::size_t i = 0; i < lower.size();) {
    std::size_t j = i;
    while (j < lower.size() && lower[j] == lower[i]) ++j;
    const bool letter = lower[i] >= 'a' && lower[i] <= 'z';
    const std::size_t run = j - i;
    two.append(letter ? std::min<std::size_t>(run, 2) : run, lower[i]);
    one.append(letter && run >= 3 ? 1 : run, lower[i]);
    i = j;
  }
  return {two, one};
}

// A feeling word that opens or closes a compound hashtag (#lovealaskaair, #notfastandimfurious):
// the longest lexicon term of four letters or more at either end of the tag body, of kind feeling.
// A tag that is a negator and the term (#nothappy, #nolove) sets *negated. `entry_of` looks a term
// up as the turn's language allows.
template <class EntryOf>
const LexiconEntry* compound_hashtag_entry(std::string_view body, const EntryOf& entry_of, bool* negated) {
  constexpr std::size_t kMinLetters = 4;
  for (std::size_t len = body.size() - 1; len >= kMinLetters; --len) {
    const std::string_view head = body.substr(0, len), tail = body.substr(body.size() - len);
    for (std::string_view part : {head, tail}) {
      const LexiconEntry* e = entry_of(part);
      if (e == nullptr || e->kind != MentionKind::feeling || !e->expressive) continue;
      const std::string_view rest = part.data() == head.data() ? body.substr(len) : body.substr(0, body.size() - len);
      *negated = rest == "no" || rest == "not" || rest == "never";
      return e;
    }
  }
  return nullptr;
}

}  // namespace

TurnEmotions detect_turn_emotions(std::string_view text, const Lexicon& lexicon, int turn,
                                  const DetectOptions& options) {
  KESSEL_CHECK_ARG(options.negation_window >= 0,
                   "detect_emotions: negation_window=", options.negation_window, " must be >= 0");
  TokenizeOptions topts;
  topts.terms = &lexicon.matcher();
  const DecodedText decoded = decode_utf8(text, Utf8Mode::strict);
  const std::vector<Token> tokens = tokenize(text, decoded, topts);
  TurnEmotions result;
  // Rule 0: the turn's language.
  if (options.language) {
    result.language = *options.language;
  } else {
    const LanguageGuess guess = guess_language(decoded);
    result.language = !guess.confident && options.fallback_language != Language::unknown
                          ? options.fallback_language
                          : guess.language;
  }
  auto entry_of = [&](std::string_view term) {
    return options.filter_by_language ? lexicon.primary(term, result.language) : lexicon.primary(term);
  };
  // Rule 2b: whether token k's sentence (a run of tokens up to a sentence end) holds a thanks
  // formula. The sentences are worked out for the whole text at the first positive mention: most
  // texts have none, and looking every token up in the formulas was 14% of detect_emotions's
  // instructions (callgrind, CSDS).
  std::vector<int> sentence;
  std::vector<char> thanks_sentence, closing_sentence;
  auto split_sentences = [&] {
    if (!thanks_sentence.empty()) return;
    sentence.assign(tokens.size(), 0);
    thanks_sentence.assign(1, 0);
    std::size_t start = 0;
    for (std::size_t j = 0; j < tokens.size(); ++j) {
      sentence[j] = static_cast<int>(thanks_sentence.size()) - 1;
      if (is_gratitude(tokens[j].lower)) thanks_sentence.back() = 1;
      if (ends_sentence(tokens[j]) || j + 1 == tokens.size()) {
        closing_sentence.push_back(acknowledges_only(tokens, start, j + 1));
        start = j + 1;
        if (ends_sentence(tokens[j])) thanks_sentence.push_back(0);
      }
    }
    closing_sentence.resize(thanks_sentence.size(), 0);
  };
  auto in_thanks_sentence = [&](std::size_t k) {
    split_sentences();
    return thanks_sentence[static_cast<std::size_t>(sentence[k])] != 0;
  };
  // Rule 2c: whether token k's sentence only acknowledges or closes (好的👌, 没有了😁).
  auto in_closing_sentence = [&](std::size_t k) {
    split_sentences();
    return closing_sentence[static_cast<std::size_t>(sentence[k])] != 0;
  };
  std::vector<EmotionMention>& out = result.mentions;
  std::size_t floor = 0;  // where the previous expression ended (chars): expressions never overlap
  for (std::size_t k = 0; k < tokens.size(); ++k) {
    const Token& t = tokens[k];
    if (t.kind == TokenKind::url || t.kind == TokenKind::mention ||
        t.kind == TokenKind::placeholder || t.kind == TokenKind::number) {
      continue;
    }
    const std::string_view exasperation =
        t.kind == TokenKind::punct ? exasperation_term(decoded.cps, tokens, k) : std::string_view();
    if (t.kind == TokenKind::punct && exasperation.empty()) continue;
    const LexiconEntry* entry = entry_of(t.kind == TokenKind::punct ? exasperation : t.lower);
    bool tag_negated = false;  // #nothappy
    if (entry == nullptr && t.kind == TokenKind::hashtag && t.lower.size() > 1) {
      entry = entry_of(std::string_view(t.lower).substr(1));  // #rude -> rude
      if (entry == nullptr && t.lower.size() > 5)
        entry = compound_hashtag_entry(std::string_view(t.lower).substr(1), entry_of, &tag_negated);
    }
    bool stretched = false;
    if (entry == nullptr && t.kind == TokenKind::word) {
      for (const std::string& plain : unstretched(t.lower))
        if ((entry = entry_of(plain)) != nullptr) break;
      stretched = entry != nullptr;
    }
    if (entry == nullptr && t.kind == TokenKind::emoji) {
      // Fall back to the base emoji without skin tones or ZWJ continuations.
      const DecodedText d = decode_utf8(t.text);
      entry = entry_of(encode_utf8(d.cps.data(), 1));
    }
    if (entry == nullptr && t.kind == TokenKind::weibo_emoticon && t.lower.size() > 2) {
      entry = entry_of(t.lower.substr(1, t.lower.size() - 2));  // [怒] -> 怒
    }
    if (entry == nullptr) continue;
    if (entry->source != "default" &&
        (is_single_cjk(t) || overlaps_next_entry(lexicon, decoded, t)))
      continue;  // rule 6
    if (is_kin_possessive(decoded.cps, t)) continue;
    const bool polite = is_polite_formula(t.lower);  // asked only of lexicon terms: most tokens are not

    EmotionMention m;
    m.term = t.text;
    m.turn = turn;
    m.term_char_start = t.char_start;
    m.term_char_end = t.char_end;
    m.term_byte_start = t.byte_start;
    m.term_byte_end = t.byte_end;
    m.emotion = entry->emotion;
    m.intensity = entry->intensity;
    m.polarity = entry->polarity;
    m.source = entry->source;
    m.kind = entry->kind;
    m.polite = polite;

    // Rule 5. Only words are negated: an emoji or emoticon after "nobody told me" still says what
    // the customer feels.
    const bool lexical = t.kind != TokenKind::emoji && t.kind != TokenKind::emoticon &&
                         t.kind != TokenKind::weibo_emoticon && t.kind != TokenKind::punct;
    const std::size_t negator =
        lexical && !polite ? negator_of(text, decoded, tokens, k, options.negation_window) : kNone;
    if (negator != kNone || tag_negated) {
      if (m.polarity != Polarity::positive) continue;  // "not angry", 别生气: dropped
      m.emotion = opposite(m.emotion);
      m.intensity *= 0.5f;
      m.polarity = Polarity::negative;
      m.negated = true;
    }
    // Rule 2b: a courtesy. A review promised (好评, 五星好评, 好评五星) is praise the customer acts on, as
    // 差评 is a complaint: beside thanks it still counts.
    const bool review = t.lower.find("好评") != std::string::npos;
    if (m.polarity == Polarity::positive && !review && in_thanks_sentence(k)) m.polite = true;
    if (m.polarity == Polarity::positive && !lexical && in_closing_sentence(k))
      m.polite = true;  // rule 2c: a smile that closes an acknowledgement is a courtesy too
    m.wheel = wheel_coordinate(m.emotion, m.intensity);
    const bool supposed = m.polarity == Polarity::positive && m.kind == MentionKind::feeling && lexical &&
                          after_supposition(decoded.cps, static_cast<std::size_t>(t.char_start));
    m.expressed = options.customer_turn && !m.polite && m.polarity != Polarity::neutral &&
                  m.intensity >= options.min_intensity && entry->expressive;

    // The expression: negator, degree words before it, particles after it.
    auto start = static_cast<std::size_t>(negator != kNone ? tokens[negator].char_start : t.char_start);
    auto end = static_cast<std::size_t>(t.char_end);
    int boosts = 0, softeners = 0;
    if (lexical && !polite) {
      start = extend_back(decoded.cps, start, floor, &boosts, &softeners);
      if (opens_with_booster(decoded.cps, static_cast<std::size_t>(t.char_start), end)) ++boosts;
      if (stretched) ++boosts;  // "sweeeet" says more than "sweet"
      end = extend_forward(decoded.cps, end);
    }
    m.char_start = static_cast<std::int64_t>(start);
    m.char_end = static_cast<std::int64_t>(end);
    floor = end;
    if (m.expressed) {
      float degree = 1.0f;
      for (int b = 0; b < std::min(boosts, kMaxBoosts); ++b) degree *= kBoost;
      if (softeners > 0) degree *= kSoften;
      if (supposed) degree *= kSupposed;
      m.strength = std::min(1.0f, m.intensity * mention_kind_weight(m.kind) * degree *
                                      exclamation_factor(decoded.cps, end));
    }
    out.push_back(std::move(m));
  }
  // A particle joined to one expression may start the next term (太差了啊这): the term wins.
  for (std::size_t i = 0; i + 1 < out.size(); ++i)
    out[i].char_end = std::min(out[i].char_end, std::max(out[i].term_char_end, out[i + 1].char_start));
  // Feelings shown without a lexicon word (rhetorical questions, complaints about time, worry):
  // emotion_cues.h.
  if (options.customer_turn && options.implicit_cues &&
      (result.language != Language::en || options.implicit_cues_english))
    detail::add_cue_mentions(decoded, result.language, turn, out);
  if (options.customer_turn && options.implicit_cues && options.after_other_turn &&
      result.language == Language::zh)
    detail::add_resignation_mention(decoded, *options.after_other_turn, turn, out);
  if (options.customer_turn && result.language == Language::en) detail::mark_sarcasm(decoded, options.after_other_turn, out);
  for (EmotionMention& m : out) {
    m.byte_start = decoded.byte_offsets[static_cast<std::size_t>(m.char_start)];
    m.byte_end = decoded.byte_offsets[static_cast<std::size_t>(m.char_end)];
    m.expression.assign(text.substr(static_cast<std::size_t>(m.byte_start),
                                    static_cast<std::size_t>(m.byte_end - m.byte_start)));
  }
  return result;
}

std::vector<EmotionMention> detect_emotions(std::string_view text, const Lexicon& lexicon, int turn,
                                            const DetectOptions& options) {
  return detect_turn_emotions(text, lexicon, turn, options).mentions;
}

}  // namespace kessel::text
