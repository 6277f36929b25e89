// EACA training labels (eaca_labels.h).
#include "summarize/eaca_labels.h"

#include <algorithm>

#include "summarize/oracle.h"

namespace kessel::summarize {

namespace {

bool contains_term(const std::vector<std::string>& refs, const std::string& term, Lang lang) {
  const std::string needle = lang == Lang::en ? text::normalize_term(term) : term;
  for (const auto& r : refs) {
    const std::string hay = lang == Lang::en ? text::normalize_term(r) : r;
    if (!needle.empty() && hay.find(needle) != std::string::npos) return true;
  }
  return false;
}

}  // namespace

TrainingExample make_example(const text::Dialogue& dialogue, const text::Lexicon& lexicon, const EacaDims& dims,
                             float human_weight) {
  TrainingExample ex;
  ex.prepared = prepare(dialogue, lexicon);
  const Prepared& p = ex.prepared;
  ex.features = compute_features(p, dims.V);
  const auto refs = reference_texts(dialogue, p.lang);
  ex.oracle = greedy_oracle(p, refs);
  ex.references = refs;
  const std::size_t U = p.units.size();
  std::vector<float> oracle(U, 0.0f);
  for (int u : ex.oracle) {
    oracle[static_cast<std::size_t>(u)] = 1.0f;
    ex.oracle_chars += p.units[static_cast<std::size_t>(u)].chars;
  }
  for (const auto& unit : p.units) ex.dialogue_chars += unit.chars;
  ex.targets.salience = oracle;
  if (!dialogue.extractive.empty() && human_weight > 0.0f) {
    std::vector<float> human(U, 0.0f);
    for (const auto& selection : dialogue.extractive)
      for (const auto& ref : selection)
        for (std::size_t u = 0; u < U; ++u)
          if (p.units[u].turn == ref.turn && p.units[u].sentence == ref.sentence)
            human[u] += 1.0f / static_cast<float>(dialogue.extractive.size());
    for (std::size_t u = 0; u < U; ++u)
      ex.targets.salience[u] = human_weight * std::min(1.0f, human[u]) + (1.0f - human_weight) * oracle[u];
  }
  // Emotion targets: a kept mention is one whose term the reference repeats; the summary "has
  // emotion" when any expressed mention is kept that way.
  ex.targets.mention.assign(p.mentions.size(), -1.0f);
  float has = 0.0f;
  for (std::size_t m = 0; m < p.mentions.size(); ++m) {
    if (!p.mentions[m].expressed) continue;
    const bool kept = contains_term(refs, p.mentions[m].term, p.lang);
    ex.targets.mention[m] = kept ? 1.0f : 0.0f;
    if (kept) has = 1.0f;
  }
  ex.targets.has_emotion = refs.empty() ? -1.0f : has;
  return ex;
}

}  // namespace kessel::summarize
