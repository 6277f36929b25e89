// The summarizer's output record (README: output schema), the one definition that `kessel summarize`,
// `kessel serve` and kessel.Summarizer all write.
#pragma once

#include <nlohmann/json.hpp>

#include "kessel/summarize/summary.h"

namespace kessel::summarize {

// {"id", "summary", "sentences": [{"text", "turn", "score"}], "emotions": [{"term", "turn", "start",
//  "end", "emotion", "kind", "strength", "source", "in_summary"}], "constraint_satisfied",
//  "constraint_bound", "constraint_cost"} (and "unsupported_languages" when a turn's language has no lexicon). When
// `explain` is given: "turns": [{"speaker": "customer"|"agent", "text"}] (the dialogue as read; the
// turn indices and emotion offsets above point into it) and "attention" when there is a map:
// {"units": [{"turn", "text"}], "queries": [unit], "weights": [[...]]}, else "attention_omitted".
nlohmann::json summary_to_json(const Prepared& p, const Summary& s, const UnitScores* explain);

// summary_to_json(p, s, nullptr).dump(), written without the tree (a map node and a string per key
// and value): the same bytes, keys in the tree's sorted order, numbers through nlohmann's own
// to_chars, strings escaped as dump() escapes them (test SummaryJson.TextMatchesTheTreesDump). A
// string that is not valid UTF-8 goes through the tree, which throws dump()'s type_error 316.
std::string summary_json_text(const Prepared& p, const Summary& s);

}  // namespace kessel::summarize
