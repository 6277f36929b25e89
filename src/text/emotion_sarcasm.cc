// Rule 9 (emotion.h): praise said in sarcasm ("Great the 9:11 has been cancelled anyways 😭",
// "Fabulous" after the agent's "Unfortunately we have now received reports of a signalling issue").
#include <algorithm>
#include <array>
#include <cctype>
#include <string>
#include <optional>
#include <string_view>
#include <vector>

#include "emotion_cues.h"

namespace kessel::text::detail {

namespace {

// Praise that customers turn into sarcasm as an exclamation of its own.
constexpr auto kSarcasmProne = std::to_array<std::string_view>(
    {"great", "fabulous", "brilliant", "perfect", "wonderful", "fantastic", "lovely", "nice", "awesome",
     "amazing", "excellent", "superb", "terrific", "marvellous", "marvelous", "splendid", "well done",
     "good job", "great job", "nice one", "just great", "great stuff", "love it", "how lovely"});

// Bad news in the agent's turn that the praise answers.
// Not "sorry" or "delay": agents open most replies with "Sorry for the delay".
constexpr auto kBadNews = std::to_array<std::string_view>(
    {"unfortunately", "unable", "can't", "cannot", "can not", "won't be able", "not able", "no longer",
     "out of stock", "not available", "unavailable", "not possible", "cancelled", "canceled", "disruption"});

bool is_emoji_like(char32_t c) { return c >= 0x2600 && !(c >= 0x3000 && c <= 0xFFFF); }
bool is_ascii_word_char(char32_t c) { return c < 0x80 && (std::isalnum(static_cast<int>(c)) || c == '_'); }

// Whether the expression starting at `at` opens its sentence: only space, @handles, a sentence's end
// or an emoji before it.
bool opens_sentence(const std::vector<char32_t>& cps, std::size_t at) {
  while (at > 0) {
    const char32_t c = cps[at - 1];
    if (c == ' ' || c == '\t' || c == '\n') {
      --at;
      continue;
    }
    if (is_ascii_word_char(c)) {  // an @handle is addressing, not words before the praise
      std::size_t b = at;
      while (b > 0 && is_ascii_word_char(cps[b - 1])) --b;
      if (b > 0 && cps[b - 1] == '@') {
        at = b - 1;
        continue;
      }
      return false;
    }
    return c == '.' || c == '!' || c == '?' || c == 0x2026 || is_emoji_like(c);
  }
  return true;
}

// Where the text goes on after `end`, past spaces.
std::size_t past_spaces(const std::vector<char32_t>& cps, std::size_t end) {
  while (end < cps.size() && cps[end] == ' ') ++end;
  return end;
}

// The ASCII word that starts at `at`, in lower case ("" when none does).
std::string lower_word_at(const std::vector<char32_t>& cps, std::size_t at) {
  std::string word;
  for (std::size_t i = at; i < cps.size() && is_ascii_word_char(cps[i]); ++i)
    word += static_cast<char>(std::tolower(static_cast<int>(cps[i])));
  return word;
}

// Whether the expression ending at `end` stands as an exclamation: the text ends, or a mark, an
// emoji, an @handle, or a word that starts the complaint ("Great the 9:11 has been cancelled") follows,
// not a noun it praises ("Great service").
bool stands_alone(const std::vector<char32_t>& cps, std::size_t end) {
  end = past_spaces(cps, end);
  if (end == cps.size()) return true;
  const char32_t c = cps[end];
  if (!is_ascii_word_char(c)) return c != '\'';
  const std::string word = lower_word_at(cps, end);
  static constexpr auto kComplaintStarts = std::to_array<std::string_view>(
      {"the", "now", "so", "just", "another", "again", "that", "this", "my", "i", "im", "we", "it", "its", "they",
       "you", "your", "and", "yet", "more", "as", "thanks"});
  return std::find(kComplaintStarts.begin(), kComplaintStarts.end(), word) != kComplaintStarts.end();
}

bool holds_bad_news(std::string_view agent_turn) {
  const std::string lower = ascii_lower(agent_turn);
  return std::any_of(kBadNews.begin(), kBadNews.end(),
                     [&](std::string_view w) { return lower.find(w) != std::string::npos; });
}

// Turns a praising mention into the anger it says in sarcasm.
void to_anger(EmotionMention& m) {
  m.emotion = Emotion::anger;
  m.polarity = Polarity::negative;
  m.wheel = wheel_coordinate(m.emotion, m.intensity);
}

}  // namespace

void mark_sarcasm(const DecodedText& decoded, const std::optional<std::string_view>& agent_turn,
                  std::vector<EmotionMention>& mentions) {
  // "I love how @TMobileHelp can not help their customer out", "Love how @129913 can't complete basic
  // maths": a customer who loves *how* something is done complains of it, whatever else the turn says
  // (all three such turns in TweetSumm train).
  for (EmotionMention& m : mentions)
    if (m.expressed && m.polarity == Polarity::positive && !m.negated && ascii_lower(m.term) == "love" &&
        lower_word_at(decoded.cps, past_spaces(decoded.cps, static_cast<std::size_t>(m.term_char_end))) == "how")
      to_anger(m);
  const auto negative = [](const EmotionMention& m) { return m.expressed && m.polarity == Polarity::negative; };
  const bool turn_complains = std::any_of(mentions.begin(), mentions.end(), negative);
  const bool after_bad_news = agent_turn && holds_bad_news(*agent_turn);
  if (!turn_complains && !after_bad_news) return;
  for (EmotionMention& m : mentions) {
    if (!m.expressed || m.polarity != Polarity::positive || m.negated) continue;
    const std::string term = ascii_lower(m.term);
    if (std::find(kSarcasmProne.begin(), kSarcasmProne.end(), term) == kSarcasmProne.end()) continue;
    if (!opens_sentence(decoded.cps, static_cast<std::size_t>(m.term_char_start)) ||
        !stands_alone(decoded.cps, static_cast<std::size_t>(m.term_char_end)))
      continue;
    to_anger(m);
  }
}

}  // namespace kessel::text::detail
