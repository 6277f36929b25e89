// The summarizer's output record (README: output schema), the one definition that `kessel summarize`,
// `kessel serve` and kessel.Summarizer all write.
#pragma once

#include <nlohmann/json.hpp>

#include "kessel/summarize/summary.h"

namespace kessel::summarize {

// {"id", "summary", "sentences": [{"text", "turn", "score"}], "emotions": [{"term", "turn", "start",
//  "end", "emotion", "kind", "strength", "source", "in_summary"}], "constraint_satisfied",
//  "constraint_cost"} (and "unsupported_languages" when a turn's language has no lexicon) plus "attention" when `explain` is given
// and has a map: {"units": [{"turn", "text"}], "queries": [unit], "weights": [[...]]}.
nlohmann::json summary_to_json(const Prepared& p, const Summary& s, const UnitScores* explain);

}  // namespace kessel::summarize
