// A labelled emotion set (issue 22) and what it measures: whether a summary keeps the customer's
// strongest emotion, and how well the emotion detector finds the labelled expressions.
//
// File format (JSON lines, written by tools/emotion_labels.py compile; ids and offsets only, never text):
//   {"id": "123", "expressions": [{"turn": 4, "start": 10, "end": 14, "emotion": "anger",
//                                   "intensity": 3, "strongest": true}]}
// start/end are code point offsets into the turn's text as kessel reads it, end exclusive; emotion is
// one of Plutchik's eight; intensity 1 (mild), 2 (clear) or 3 (strong); exactly one expression of a
// dialogue with expressions is the strongest. "expressions": [] is a dialogue labelled as having none.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "kessel/summarize/summary.h"

namespace kessel::summarize {

struct LabelledExpression {
  int turn = 0;
  std::int64_t start = 0;  // code points into the turn's text, end exclusive
  std::int64_t end = 0;
  text::Emotion emotion = text::Emotion::joy;
  int intensity = 1;  // 1..3
  bool strongest = false;
};

struct DialogueLabels {
  std::string id;
  std::vector<LabelledExpression> expressions;
  std::string file;  // where the record came from, for errors about it later
  long line = 0;
  // The strongest expression; nullptr when there are none.
  const LabelledExpression* strongest() const;
};

struct EmotionLabelSet {
  std::vector<DialogueLabels> dialogues;  // in file order
  std::map<std::string, std::size_t> by_id;
  const DialogueLabels* find(const std::string& id) const;
};

// Reads a label file. IoError when it cannot be opened; ParseError "<file>:<line>: <field>: <what>" for
// bad JSON, a missing or mistyped field, an unknown emotion, an intensity outside 1..3, start < 0 or
// end <= start, a dialogue labelled twice, and a dialogue with expressions but not exactly one strongest.
EmotionLabelSet load_emotion_labels(const std::string& path);

// ParseError (naming the label file and line) when a label does not fit `dialogue`: a turn it lacks, a
// turn of the agent, or offsets past the turn's text.
void check_labels_fit(const DialogueLabels& labels, const text::Dialogue& dialogue);

// Whether `summary` keeps the strongest expression: some sentence whose unit lies in the expression's
// turn, or in a later or earlier customer turn of the very same text (a message sent again, 怎么把我的京豆给吃了?
// twice: the labeller marks one, the summary may show the other), has, in its body, the expression's words (the turn's text at its offsets), compared without
// spaces and punctuation and with letters case-folded (the renderer's 。 for ！ does not count). In an
// English report (SummarySentence::reported) the words may name the person instead ("my phone is so
// messed up" kept as "the customer's phone is so messed up"): the report's words and the
// expression's match with every person word as one and the verb agreeing (person_free_words in
// emotion_labels.cc). A "clearly equivalent" expression counts too: another labelled expression of the same emotion with
// an intensity at least the strongest's, kept by the same test. InvalidArgument when `labels` has no
// expressions; ParseError when they do not fit the dialogue.
bool strongest_kept(const Prepared& p, const Summary& summary, const DialogueLabels& labels);

// The detector against the labels. A detected mention (Prepared::mentions with expressed = true)
// matches when it overlaps a labelled expression of the same turn (code point spans); a labelled
// expression is found when some detected mention overlaps it.
struct DetectionCounts {
  std::size_t dialogues = 0;  // labelled dialogues counted
  std::size_t detected = 0, detected_matched = 0;
  std::size_t labelled = 0, labelled_found = 0;
  double precision() const { return detected ? static_cast<double>(detected_matched) / static_cast<double>(detected) : 0.0; }
  double recall() const { return labelled ? static_cast<double>(labelled_found) / static_cast<double>(labelled) : 0.0; }
};
// Adds one labelled dialogue to `counts`.
void add_detection(const Prepared& p, const DialogueLabels& labels, DetectionCounts& counts);
// Over every dialogue of `dialogues` that `labels` has (each prepared with `lexicon`).
DetectionCounts score_detection(const std::vector<text::Dialogue>& dialogues, const text::Lexicon& lexicon,
                                const EmotionLabelSet& labels);

}  // namespace kessel::summarize
