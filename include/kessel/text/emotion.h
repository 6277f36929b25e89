// Plutchik's eight basic emotions, their wheel coordinates, and emotion detection in text.
//
// Wheel order and angles (theta_k = k * 45 degrees, counter-clockwise from the +x axis):
//   k=0 joy (0)  1 trust (45)  2 fear (90)  3 surprise (135)  4 sadness (180)  5 disgust (225)
//   6 anger (270)  7 anticipation (315)
// Opposite emotions sit 180 degrees apart (joy/sadness, trust/disgust, fear/anger,
// surprise/anticipation). A term of emotion k and intensity a in [0, 1] has the wheel coordinate
//   (x, y) = a * (cos theta_k, sin theta_k).
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "kessel/text/language.h"

namespace kessel::text {

class Lexicon;

enum class Emotion : std::uint8_t {
  joy = 0,
  trust = 1,
  fear = 2,
  surprise = 3,
  sadness = 4,
  disgust = 5,
  anger = 6,
  anticipation = 7
};
inline constexpr int kNumEmotions = 8;
inline constexpr std::array<Emotion, kNumEmotions> kAllEmotions = {
    Emotion::joy,     Emotion::trust,   Emotion::fear,  Emotion::surprise,
    Emotion::sadness, Emotion::disgust, Emotion::anger, Emotion::anticipation};

const char* to_string(Emotion e);
// "joy", "trust", ... (case-insensitive); nullopt for anything else.
std::optional<Emotion> parse_emotion(std::string_view name);
Emotion opposite(Emotion e);  // the emotion 180 degrees across the wheel

struct WheelPoint {
  float x = 0.0f;
  float y = 0.0f;
};
// intensity * (cos theta, sin theta); throws InvalidArgument unless intensity is in [0, 1].
WheelPoint wheel_coordinate(Emotion e, float intensity);
float wheel_angle_radians(Emotion e);

enum class Polarity : std::uint8_t { positive, negative, neutral, both };
const char* to_string(Polarity p);
std::optional<Polarity> parse_polarity(std::string_view name);  // pos|positive|neg|negative|neu|...
Polarity default_polarity(
    Emotion e);  // joy/trust/anticipation +, fear/sadness/disgust/anger -, surprise neutral

// ---- detection
// -------------------------------------------------------------------------------------
//
// A mention is one lexicon term found in a text. Terms are found by forward maximum matching over
// code points (Latin case-folded, emoji variation selectors ignored); emoji clusters, emoticons and
// Weibo bracket emoticons are looked up as whole tokens (an emoji with a skin tone falls back to
// its base emoji); a hashtag is looked up whole, then without its # (#rude -> rude), then by the
// longest feeling term of four letters or more that opens or closes it (#lovealaskaair -> love;
// #nothappy, a negator and the term, is negated as rule 5 negates); an English word stretched for
// emphasis is looked up with each run of three or more of one letter cut to two, then to one
// (sweeeet -> sweet), and counts as one degree word more. Punctuation is
// looked up only as exasperation: a run of three or more ? / ？ as "???", a turn that is only dots
// (。。。 ... ……) as "。。。" (the default lexicon shows both below the threshold).
//
// 0. Language: the turn's language (DetectOptions::language, else guess_language(text), language.h)
//    chooses the entries that apply (entry_applies, lexicon.h): emoji and emoticons in every turn;
//    Chinese entries in Chinese turns, and their Han-character terms in any turn but a Japanese
//    one; English entries in English and Chinese turns. So the Chinese slang `low` stays out of
//    "it says low users", and a Spanish turn gets no English mention (only its emoji); the turn's
//    language comes back in TurnEmotions::language for callers to report.
//
// Which mentions count as "the customer expressed an emotion" (the summarizer's hard constraint):
//   1. the turn is a customer turn (detect_emotions takes that as `customer_turn`);
//   2. not a polite formula: 好的, 谢谢, 感谢, 您好, 不客气, 麻烦, 请问, thanks, thank you, please,
//      ok, hi, hello, season's greetings (happy holidays, 新年快乐), ... (polite_formulas()) and the
//      apologies sorry, 抱歉, 对不起, 不好意思
//      (apology_formulas(): "sorry for the late reply" is courtesy from either side);
//   2b. not a courtesy: a positive-polarity mention (after rule 5) in the same sentence as a thanks
//      formula (gratitude_formulas(): "Great, thanks!", "Thank you :)", "好的谢谢亲😊") thanks
//      rather than expresses a feeling. Negative mentions stay ("thanks for nothing, useless");
//   3. polarity is not neutral;
//   4. intensity >= DetectOptions::min_intensity (default 0.3);
//   4b. the lexicon entry is expressive (LexiconEntry::expressive): DUTIR rows of the judgement
//      classes (PD PG PH NL), nouns, and rows below intensity 5 (7 for verbs and adverbs) are
//      ordinary words in customer chat (申请, 确实, 原来, 不是, 通过); see dutir_expressive;
//   5. negation (words and lexicon terms; never emoji or emoticons): a negator (不 没 没有 别 未
//      毫不 并不 从不 不太 / not no never n't without) among the `negation_window` (default 3)
//      tokens before the term, in the same clause, changes the term: a positive-polarity term
//      flips to the opposite emotion with half the intensity and negative polarity (不开心 ->
//      sadness, "not happy" -> sadness); any other term is dropped ("not angry", 别生气). Negators
//      inside a lexicon term (不满, 不爽) are part of the term. A clause ends at punctuation, at
//      "but" / 但 ("nothing but useless") and at white space between two CJK characters (Chinese
//      chat's comma: 为什么没到 气死我了). Not negations: "not only" / "not just" / 不仅 不只 不光,
//      and the emphatic "never" + verb of experience + degree word ("never been this angry") and
//      从来没这么生气过 (从/从来/向来 before 没/未, or 过 after the term); "not so happy" and
//      没那么生气 stay negated;
//   6. single-character CJK terms are used only from the project's default lexicon (source
//      "default"): single characters from the large external lexicons (好, 爱, 急) fire on too much
//      ordinary text. A two-character external term whose second character starts another entry
//      with the following text (不成|成功, 天才|才能) is a cut across two words and is dropped.
//   7. implicit emotion (customer turns in Chinese or English, DetectOptions::implicit_cues): the
//      constructions that show a feeling without naming it are mentions too, of kind `report`
//      and source "cue:<name>": rhetorical questions (为什么还没发货, 不是说好了吗, "why is it so
//      hard to…?"), complaints about time (一直联系也没人来修, 好久了, "still haven't received it"),
//      worry about an outcome (不会要到明年吧, 怕不够), threats to stop buying (都不敢在你们京东买了),
//      surprise at a size (便宜那么多), exasperated marks (?!, and ?? in English). They rank below every named
//      feeling (strength 0.25 mild, 0.4 clear) and never overlap a lexicon expression.
//   8. resignation (Chinese customer turns, DetectOptions::after_other_turn): a turn that opens with
//      好吧 or 只能这样 (after 哦, 额, 唉, …; 算了, 行吧, 那好吧 are lexicon judgements), asking nothing
//      itself, right after an agent turn that asks nothing and tells the customer something to give in
//      to (a refusal, a no, or news not asked for: 这个没有办法修改呢, 这个地址是商家仓发货哦 → 好吧; at least
//      three Chinese letters besides addressing, a bare yes and particles), is the customer giving in:
//      sadness, intensity 0.4 (below a mild cue), kind `report`, source "cue:resigned". After a question
//      (可以吗?) the same words consent; after addressing (亲爱的), a yes (对的呢) or a link they acknowledge.
//   9. sarcasm (English customer turns): praise that opens its sentence and stands as an exclamation
//      (great, fabulous, brilliant, perfect, well done, ...: "Great the 9:11 has been cancelled anyways
//      😭", "Fabulous") in a turn that also complains (another expressed mention is negative) or right
//      after an agent turn with bad news (unfortunately, unable, can't, cancelled, ...; not "sorry",
//      which opens most replies) is anger of the same intensity, negative. "Great service" praises a
//      noun and stays joy. "love" before "how" is anger in any customer turn ("I love how @X can not
//      help their customer out").
// Mentions failing rule 1–4b are still returned (with expressed = false) so callers can show them;
// dropped ones (rule 0, 5 and 6) are not. Requests and reports stay expressed (they count for the
// constraint); `kind` and `strength` say how much of a feeling each mention is.
//
// Kinds (LexiconEntry::kind, the default lexicon's fifth column):
//   feeling    the customer says what they feel: anger, disgust, sadness, worry, delight (气死我了,
//              无语, 失望, 垃圾, furious, so frustrated, 😡). A complaint act (投诉, 差评, 举报,
//              "I want to complain") is a feeling of anger: it is how customers escalate anger;
//   report     a problem stated as a fact that implies the feeling (打不通, 闪退, 还没收到, 等了好久,
//              delayed, broken, still waiting, no response);
//   judgement  an acknowledgement, a verdict or a filler (不行, 算了, 没办法, 负责, 相信, 专业, 👌 👍 ✅,
//              helpful, professional);
//   request    urgency and demands (尽快, 快点, 赶紧, 速度, 及时, 退钱, asap, hurry, urgent, ⏳).
//
// Strength (EmotionMention::strength), for ranking mentions; 0 for a mention that is not expressed,
// else in (0, 1]:
//   strength = min(1, intensity * kind weight * degree * exclamation)
//   kind weight: feeling 1, report 0.5, judgement 0.4, request 0.3 (mention_kind_weight);
//   degree: 1.25 per degree word before the term or opening it (太 很 非常 真的 真是 特别 超 超级 好
//     挺 十分 极其 实在 简直 最 更 这么 那么 如此 / so sooo really very extremely super totally
//     absolutely completely utterly too truly incredibly beyond pretty seriously), at most two
//     (1.5625); 0.8 for a softener (有点 有些 稍微 略 / a bit, a little, kind of, sort of, kinda,
//     slightly, somewhat);
//   exclamation: 1.15 when ! or ！ follows the expression (after its particles), 1.3 for a run (!!!).
//   So 太垃圾了 (0.8 * 1.25 = 1.0) > 生气 (0.9) > 算了 (0.8 * 0.4 = 0.32) > 快点 (0.5 * 0.3 = 0.15),
//   and "so frustrated" (0.875) > asap (0.21).
//
// Spans: char_start..char_end and byte_start..byte_end cover the whole expression as written: the
// negator of rule 5 ("Not happy", 不是很开心), the degree words and softeners before the term (非常不满意,
// 真的是无语, "so angry", "really disappointed"), and the Chinese particles 了 啊 呀 啦 after it (太垃圾了);
// never punctuation (a rendered Chinese unit replaces its final ！ with 。). term_* give the lexicon
// term's own span; `term` is the term as written, `expression` the whole span.
enum class MentionKind : std::uint8_t { feeling, report, judgement, request };
const char* to_string(MentionKind k);                          // "feeling", "report", ...
std::optional<MentionKind> parse_mention_kind(std::string_view name);
float mention_kind_weight(MentionKind k);                      // 1, 0.5, 0.4, 0.3

struct EmotionMention {
  std::string term;             // the lexicon term as written in the text
  std::string expression;       // the whole span as written: "Not happy", 太垃圾了, "so angry"
  int turn = -1;                // caller's turn index (-1 when not from a dialogue)
  std::int64_t char_start = 0;  // the whole expression: code point offsets into the text, end exclusive
  std::int64_t char_end = 0;
  std::int64_t byte_start = 0;  // the whole expression: byte offsets into the text, end exclusive
  std::int64_t byte_end = 0;
  std::int64_t term_char_start = 0;  // the lexicon term alone (inside the expression)
  std::int64_t term_char_end = 0;
  std::int64_t term_byte_start = 0;
  std::int64_t term_byte_end = 0;
  Emotion emotion = Emotion::joy;
  float intensity = 0.0f;  // in [0, 1]: the lexicon's, halved by a negation (rule 5)
  Polarity polarity = Polarity::neutral;
  WheelPoint wheel;        // wheel_coordinate(emotion, intensity)
  std::string source;      // lexicon source: "default", "dutir", "nrc", "emoji_sentiment", ...
  MentionKind kind = MentionKind::feeling;
  float strength = 0.0f;   // see "Strength" above; 0 unless expressed
  bool negated = false;    // flipped by a negator (rule 5)
  bool polite = false;     // a polite formula (rule 2) or a courtesy (rule 2b)
  bool expressed = false;  // satisfies rules 1–4b: counts for the customer-emotion constraint
};

struct DetectOptions {
  float min_intensity = 0.3f;
  int negation_window = 3;  // tokens looked back for a negator
  bool customer_turn = true;
  // The turn's language (rule 0); nullopt: guess_language(text).
  std::optional<Language> language;
  // Used instead of the guess when the guess is not confident (no letters, or Latin text without a
  // single function word: "Shit", "low", "ok?"): the dialogue's language, say. unknown: keep the guess.
  Language fallback_language = Language::unknown;
  // False: every entry applies whatever the language (the behaviour before rule 0).
  bool filter_by_language = true;
  // Rule 7: feelings shown without a lexicon word, in customer turns (src/text/emotion_cues.h).
  bool implicit_cues = true;
  // The English cues are off by default: their clause spans kept first-person words out of reported
  // speech ("Why was I charged twice") and TweetSumm valid ROUGE-L fell 43.56 -> 42.14 with them
  // (docs/eaca.md). The Chinese cues are on.
  bool implicit_cues_english = false;
  // Rule 8: the text of the turn right before this one when it is the other speaker's; nullopt when
  // that turn is the same speaker's or there is none (the rule then does not apply).
  std::optional<std::string_view> after_other_turn;
};

// A turn's mentions and the language rule 0 used for it (what callers report as unsupported).
struct TurnEmotions {
  Language language = Language::unknown;
  std::vector<EmotionMention> mentions;
};

// Detects lexicon terms in `text` (valid UTF-8; ParseError otherwise). `turn` is copied into each
// mention. Mentions come in text order and never overlap (nor do their expressions).
TurnEmotions detect_turn_emotions(std::string_view text, const Lexicon& lexicon, int turn = -1,
                                  const DetectOptions& options = {});
// detect_turn_emotions(...).mentions.
std::vector<EmotionMention> detect_emotions(std::string_view text, const Lexicon& lexicon,
                                            int turn = -1, const DetectOptions& options = {});

// The polite formulas of rule 2 (normalized: lowercase), the apologies (also polite) and the thanks
// formulas of rule 2b (a subset of the polite formulas).
const std::vector<std::string>& polite_formulas();
const std::vector<std::string>& apology_formulas();
const std::vector<std::string>& gratitude_formulas();
bool is_polite_formula(std::string_view normalized_term);

}  // namespace kessel::text
