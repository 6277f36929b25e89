// Small dialogues for the summarize tests: one turn per (speaker, sentences) pair, the turn text the
// sentences' concatenation, and the project's default lexicon.
#pragma once

#include <string>
#include <utility>
#include <vector>

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

}  // namespace kessel::summarize::testing
