// The language a text (one turn) is written in, told from its script and, for Latin script, its
// function words. Emotion detection uses it to apply only the lexicon entries of the turn's
// language (emotion.h, rule 0), and callers use it to report a language the summarizer does not
// support.
//
// Rules (detect_language / guess_language), on the letters of the text (lossy UTF-8):
//   - no letter at all (emoji, emoticons, numbers, punctuation, links): unknown;
//   - kana (without the marks kaomoji borrow: ヽ ノ ツ ー) are at least 10% of the Han and kana
//     characters: ja; Hangul is at least 30% of the letters: ko (both are CJK script for the
//     tokenizer, and neither is Chinese);
//   - Han characters are at least 30% of the Han and Latin letters: zh (ScriptCounts::mostly_cjk,
//     the summarizer's rule for a dialogue: "我的iPhone坏了" is Chinese);
//   - letters of another script (Cyrillic, Arabic, Greek, ...) outnumber the Latin ones: other;
//   - Latin script: the words are scored against short lists of function words of en, es, fr, de,
//     pt, it and id (Indonesian and Malay, which the airlines' Asian customers tweet in: "Telp ke call
//     center malah disarankan pesan lewat call center"). A hit counts 1/k when k of the lists hold
//     the word (the word "de" is Spanish, French and Portuguese); a greeting or thanks that names its language alone (hola gracias
//     merci bonjour danke hallo obrigado grazie ciao) counts 2; letters only one language writes
//     (ñ ¿ ¡ → es, ß → de, ã õ → pt, œ → fr) add 1. The letters of @handles, #tags and URLs are
//     not counted. Another language wins when its score is above English's and at least 2
//     ("Gracias!" is Spanish, "7 plus" is not French); otherwise the text is en. A Latin text
//     without an English function word ("Shit", "ok", "low", "o") is en but not `confident`: too
//     short to tell, and callers may know better (the dialogue's language,
//     DetectOptions::fallback_language).
// Only zh and en are supported by the summarizer (is_supported_language); the others are named so
// that callers can say which language they did not handle ("unsupported language: es").
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

#include "kessel/text/utf8.h"

namespace kessel::text {

enum class Language : std::uint8_t { unknown, zh, en, es, fr, de, pt, it, id, ja, ko, other };

// "unknown", "zh", "en", "es", "fr", "de", "pt", "it", "id", "ja", "ko", "other".
const char* to_string(Language language);
// The names above (case-insensitive); nullopt for anything else.
std::optional<Language> parse_language(std::string_view name);
// zh and en: the languages the lexicons and the summarizer are written for.
bool is_supported_language(Language language);

struct LanguageGuess {
  Language language = Language::unknown;
  // False when the guess rests on a default: no letter (unknown), or Latin text without a single
  // English function word that no other language outvoted (en by default: "Shit", "o", "ok").
  bool confident = false;
};

LanguageGuess guess_language(std::string_view text);
LanguageGuess guess_language(const DecodedText& text);  // the same on text the caller decoded
inline Language detect_language(std::string_view text) { return guess_language(text).language; }

}  // namespace kessel::text
