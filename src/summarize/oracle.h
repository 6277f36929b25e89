// Extractive training targets: the greedy ROUGE oracle (Nallapati et al. 2017; Liu & Lapata 2019) and
// the reference texts it is measured against.
#pragma once

#include <string>
#include <vector>

#include "kessel/summarize/summary.h"

namespace kessel::summarize {

// The dialogue's reference summaries as plain strings: sentences joined with "" (zh) or " " (en).
std::vector<std::string> reference_texts(const text::Dialogue& dialogue, Lang lang);

struct OracleOptions {
  int max_units = 0;  // 0: no limit other than "stop when no unit improves the objective"
};

// Greedy oracle: starting from the empty summary, repeatedly add the unit (rendered as the decoder
// renders it) that most increases mean over references of ROUGE-1 F1 + ROUGE-2 F1, and stop when no
// unit increases it. R1+R2 rather than ROUGE-L because it is additive enough for greedy search and
// cheap (no LCS per candidate). Returns the selected unit indices in dialogue order; empty when there
// are no references. Tokens follow the evaluation protocol of the language (rouge.h).
std::vector<int> greedy_oracle(const Prepared& dialogue, const std::vector<std::string>& references,
                               const OracleOptions& options = {});

}  // namespace kessel::summarize
