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
// its base emoji).
//
// Which mentions count as "the customer expressed an emotion" (the summarizer's hard constraint):
//   1. the turn is a customer turn (detect_emotions takes that as `customer_turn`);
//   2. not a polite formula: 好的, 谢谢, 感谢, 您好, 不客气, 麻烦, 请问, thanks, thank you, please,
//      ok, hi, hello, ... (polite_formulas()) and the apologies sorry, 抱歉, 对不起, 不好意思
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
// Mentions failing rule 1–4b are still returned (with expressed = false) so callers can show them;
// dropped ones (rule 5 and 6) are not.
struct EmotionMention {
  std::string term;             // the matched text as written
  int turn = -1;                // caller's turn index (-1 when not from a dialogue)
  std::int64_t char_start = 0;  // code point offsets into the text, end exclusive
  std::int64_t char_end = 0;
  std::int64_t byte_start = 0;  // byte offsets into the text, end exclusive
  std::int64_t byte_end = 0;
  Emotion emotion = Emotion::joy;
  float intensity = 0.0f;  // in [0, 1]
  Polarity polarity = Polarity::neutral;
  WheelPoint wheel;        // wheel_coordinate(emotion, intensity)
  std::string source;      // lexicon source: "default", "dutir", "nrc", "emoji_sentiment", ...
  bool negated = false;    // flipped by a negator (rule 5)
  bool polite = false;     // a polite formula (rule 2) or a courtesy (rule 2b)
  bool expressed = false;  // satisfies rules 1–4b: counts for the customer-emotion constraint
};

struct DetectOptions {
  float min_intensity = 0.3f;
  int negation_window = 3;  // tokens looked back for a negator
  bool customer_turn = true;
};

// Detects lexicon terms in `text` (valid UTF-8; ParseError otherwise). `turn` is copied into each
// mention. Mentions come in text order and never overlap.
std::vector<EmotionMention> detect_emotions(std::string_view text, const Lexicon& lexicon,
                                            int turn = -1, const DetectOptions& options = {});

// The polite formulas of rule 2 (normalized: lowercase), the apologies (also polite) and the thanks
// formulas of rule 2b (a subset of the polite formulas).
const std::vector<std::string>& polite_formulas();
const std::vector<std::string>& apology_formulas();
const std::vector<std::string>& gratitude_formulas();
bool is_polite_formula(std::string_view normalized_term);

}  // namespace kessel::text
