// Implicit emotion: the constructions a customer uses to show a feeling without naming it.
//
// A lexicon finds the words of a feeling (生气, 失望, "so frustrated"). Much of what customers feel
// is said without one: a rhetorical question (为什么还没发货, "why is it so hard to get a refund?"),
// a complaint about time (一直联系也没人来修, "still haven't received it"), worry about an outcome
// (不会要到明年吧, 我是怕不够), a threat to stop buying (都不敢在你们京东买了), surprise at a size
// (便宜那么多啊), exasperated punctuation (?!, and ?? in English). Each cue below is one such construction, written
// as a regular expression over code points and matched within one clause of a customer turn.
//
// A cue mention is kind `report` (it implies the feeling rather than naming it; weight 0.5) with
// intensity 0.5 (mild) or 0.8 (clear), so it ranks below any named feeling of the lexicon and above
// requests (尽快 0.15) and fillers (算了 0.32 against a clear cue's 0.4). Its `source` is
// "cue:<name>" so a reader sees why it was found, and its span is the matched construction. A cue
// overlapping a lexicon expression is not added: the lexicon's mention is the more precise.
// docs/text.md ("Implicit emotion") gives the figures.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "kessel/text/emotion.h"
#include "kessel/text/utf8.h"

namespace kessel::text::detail {

struct EmotionCue {
  const char* name;        // "rhetorical", "duration", ...
  Language language;       // zh or en
  const wchar_t* pattern;  // ECMAScript, over code points (case-insensitive for en)
  const wchar_t* not_after;  // characters that may not precede the match (恐 before 怕), or nullptr
  Emotion emotion;
  float intensity;
};

// The cues, in the order they are tried (an earlier cue wins an overlap).
const std::vector<EmotionCue>& emotion_cues();

// Adds the cue mentions of a customer turn in `language` to `mentions` (sorted by char_start,
// non-overlapping on entry and on exit). Byte offsets and `expression` are left for the caller.
void add_cue_mentions(const DecodedText& decoded, Language language, int turn,
                      std::vector<EmotionMention>& mentions);

// Rule 8 (emotion.h): the resignation mention of a Chinese customer turn that opens with 好吧 or
// 只能这样 right after an agent turn (`agent_turn`) that refuses and asks nothing. It replaces an unexpressed
// mention of the same words (the polite 好吧) and yields to an expressed one (the lexicon's 算了).
void add_resignation_mention(const DecodedText& decoded, std::string_view agent_turn, int turn,
                             std::vector<EmotionMention>& mentions);

// Rule 9 (emotion.h): turns each sarcastic praise of an English customer turn (a sarcasm-prone word
// such as great, fabulous, brilliant, well done, opening its sentence and standing as an exclamation)
// into anger, when the turn also complains (another expressed mention is negative) or answers the
// agent's bad news (`agent_turn`: unfortunately, unable, can't, cancelled, ...).
void mark_sarcasm(const DecodedText& decoded, const std::optional<std::string_view>& agent_turn,
                  std::vector<EmotionMention>& mentions);

// For the prefilter's tests (cue_prefilter.h): whether cue `i`'s regex finds a non-empty match in
// `text`, and whether its prefilter lets the regex run on `text`.
struct CueCheck {
  bool matched = false;
  bool admitted = false;
};
CueCheck check_cue(std::size_t i, const std::wstring& text);

}  // namespace kessel::text::detail
