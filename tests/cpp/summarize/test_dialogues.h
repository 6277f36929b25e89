// Small dialogues for the summarize tests: one turn per (speaker, sentences) pair, the turn text the
// sentences' concatenation, the project's default lexicon, and a tiny EACA config.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "kessel/summarize/eaca.h"
#include "kessel/summarize/summary.h"
#include "kessel/text/dialogue.h"
#include "kessel/text/lexicon.h"

namespace kessel::summarize::testing {

inline text::Dialogue make_dialogue(std::vector<std::pair<text::Speaker, std::vector<std::string>>> turns,
                                    std::string id = "d1") {
  text::Dialogue d;
  d.id = std::move(id);
  for (auto& [speaker, sentences] : turns) {
    text::Turn t;
    t.speaker = speaker;
    for (const auto& s : sentences) t.text += s;
    t.sentences = sentences;
    d.turns.push_back(std::move(t));
  }
  return d;
}

inline const text::Lexicon& default_lexicon() {
  static const text::Lexicon lex = text::load_default_lexicon(KESSEL_SOURCE_DIR "/data/lexicon");
  return lex;
}

// Decoding options of a sentence budget alone: no redundancy control, so that the tests' saliences
// decide the selection.
inline DecodeOptions sentence_budget(int max_sentences) {
  DecodeOptions o;
  o.max_sentences = max_sentences;
  o.redundancy = 0.0f;
  return o;
}

// Scores that give every unit of `p` the same salience, so that the rule under test decides.
inline UnitScores same_salience(const Prepared& p, float salience = 0.5f) {
  UnitScores s;
  s.salience.assign(p.units.size(), salience);
  return s;
}

// An EACA model small enough to build, score and save in milliseconds (the gradient checks use the
// tinier EacaDims of eaca_model_fixtures.h).
inline EacaConfig small_eaca_config() {
  EacaConfig c;
  c.hash_buckets = 97;
  c.embed_dim = 6;
  c.hidden = 8;
  c.attn_dim = 4;
  return c;
}

}  // namespace kessel::summarize::testing
