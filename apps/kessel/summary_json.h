// The `kessel summarize` output record (README: output schema), shared by summarize and the HTML report.
#pragma once

#include <nlohmann/json.hpp>

#include "kessel/summarize/summary.h"

namespace kessel::cli {

// {"id", "summary", "sentences": [{"text", "turn", "score"}], "emotions": [{"term", "turn", "start",
//  "end", "emotion", "in_summary"}], "constraint_satisfied"} plus "attention" when `explain` is given
// and has a map: {"units": [{"turn", "text"}], "queries": [unit], "weights": [[...]]}.
nlohmann::json summary_to_json(const summarize::Prepared& p, const summarize::Summary& s,
                               const summarize::UnitScores* explain);

}  // namespace kessel::cli
