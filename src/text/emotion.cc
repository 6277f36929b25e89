#include "kessel/text/emotion.h"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <unordered_set>

#include "kessel/error.h"
#include "kessel/text/lexicon.h"
#include "kessel/text/tokenize.h"

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
      "appreciate it", "much appreciated", "bye", "good morning", "good afternoon", "good evening"};
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

// Rule 5: whether a negator among the `window` tokens before tokens[term], in the same clause,
// negates the term.
bool negated_term(std::string_view text, const DecodedText& decoded,
                  const std::vector<Token>& tokens, std::size_t term, int window) {
  for (std::size_t back = 1; back <= static_cast<std::size_t>(window) && back <= term; ++back) {
    const std::size_t k = term - back;
    if (ends_negation_scope(tokens[k]) || cjk_space_between(decoded, tokens[k], tokens[k + 1]))
      return false;
    if (is_negator(tokens[k]))
      return !is_not_only(tokens, k) && !is_emphatic_never_en(tokens, k, term) &&
             !is_emphatic_never_zh(text, tokens, k, term);
  }
  return false;
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

}  // namespace

std::vector<EmotionMention> detect_emotions(std::string_view text, const Lexicon& lexicon, int turn,
                                            const DetectOptions& options) {
  KESSEL_CHECK_ARG(options.negation_window >= 0,
                   "detect_emotions: negation_window=", options.negation_window, " must be >= 0");
  TokenizeOptions topts;
  topts.terms = &lexicon.matcher();
  const DecodedText decoded = decode_utf8(text);
  const std::vector<Token> tokens = tokenize(text, decoded, topts);
  // Rule 2b: whether token k's sentence (a run of tokens up to a sentence end) holds a thanks
  // formula. The sentences are worked out for the whole text at the first positive mention: most
  // texts have none, and looking every token up in the formulas was 14% of detect_emotions's
  // instructions (callgrind, CSDS).
  std::vector<int> sentence;
  std::vector<char> thanks_sentence;
  auto in_thanks_sentence = [&](std::size_t k) {
    if (thanks_sentence.empty()) {
      sentence.assign(tokens.size(), 0);
      thanks_sentence.assign(1, 0);
      for (std::size_t j = 0; j < tokens.size(); ++j) {
        sentence[j] = static_cast<int>(thanks_sentence.size()) - 1;
        if (is_gratitude(tokens[j].lower)) thanks_sentence.back() = 1;
        if (ends_sentence(tokens[j])) thanks_sentence.push_back(0);
      }
    }
    return thanks_sentence[static_cast<std::size_t>(sentence[k])] != 0;
  };
  std::vector<EmotionMention> out;
  for (std::size_t k = 0; k < tokens.size(); ++k) {
    const Token& t = tokens[k];
    if (t.kind == TokenKind::punct || t.kind == TokenKind::url || t.kind == TokenKind::mention ||
        t.kind == TokenKind::placeholder || t.kind == TokenKind::number) {
      continue;
    }
    const LexiconEntry* entry = lexicon.primary(t.lower);
    if (entry == nullptr && t.kind == TokenKind::emoji) {
      // Fall back to the base emoji without skin tones or ZWJ continuations.
      const DecodedText d = decode_utf8(t.text);
      entry = lexicon.primary(encode_utf8(d.cps.data(), 1));
    }
    if (entry == nullptr && t.kind == TokenKind::weibo_emoticon && t.lower.size() > 2) {
      entry = lexicon.primary(t.lower.substr(1, t.lower.size() - 2));  // [怒] -> 怒
    }
    if (entry == nullptr) continue;
    if (entry->source != "default" &&
        (is_single_cjk(t) || overlaps_next_entry(lexicon, decoded, t)))
      continue;  // rule 6
    const bool polite = is_polite_formula(t.lower);  // asked only of lexicon terms: most tokens are not

    EmotionMention m;
    m.term = t.text;
    m.turn = turn;
    m.char_start = t.char_start;
    m.char_end = t.char_end;
    m.byte_start = t.byte_start;
    m.byte_end = t.byte_end;
    m.emotion = entry->emotion;
    m.intensity = entry->intensity;
    m.polarity = entry->polarity;
    m.source = entry->source;
    m.polite = polite;

    // Rule 5. Only words are negated: an emoji or emoticon after "nobody told me" still says what
    // the customer feels.
    const bool lexical = t.kind != TokenKind::emoji && t.kind != TokenKind::emoticon &&
                         t.kind != TokenKind::weibo_emoticon;
    if (lexical && !polite && negated_term(text, decoded, tokens, k, options.negation_window)) {
      if (m.polarity != Polarity::positive) continue;  // "not angry", 别生气: dropped
      m.emotion = opposite(m.emotion);
      m.intensity *= 0.5f;
      m.polarity = Polarity::negative;
      m.negated = true;
    }
    if (m.polarity == Polarity::positive && in_thanks_sentence(k))
      m.polite = true;  // rule 2b: a courtesy
    m.wheel = wheel_coordinate(m.emotion, m.intensity);
    m.expressed = options.customer_turn && !m.polite && m.polarity != Polarity::neutral &&
                  m.intensity >= options.min_intensity && entry->expressive;
    out.push_back(std::move(m));
  }
  return out;
}

}  // namespace kessel::text
