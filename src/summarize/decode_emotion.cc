// The emotion constraint (decode_parts.h): the summary keeps the customer's strongest expressed
// feeling. Which unit holds it is the learned choice's (emotion_salience.h) when that is confident
// enough; otherwise candidates are ranked by the strength of what they keep. The ranking value a
// candidate costs (the ROUGE proxy) only chooses among comparable ones, and the chosen one's cost is
// reported.
#include <algorithm>
#include <cmath>

#include "decode_parts.h"
#include "emotion_salience.h"
#include "kessel/text/utf8.h"
#include "render.h"

namespace kessel::summarize::decoding {

namespace {

// A mention's words as written in its turn (the lexicon term when the dialogue is not at hand).
std::string written(const Prepared& p, std::size_t m) {
  const auto& mention = p.mentions[m];
  return p.dialogue ? p.dialogue->turns[static_cast<std::size_t>(mention.turn)].text.substr(
                          static_cast<std::size_t>(mention.byte_start),
                          static_cast<std::size_t>(mention.byte_end - mention.byte_start))
                    : mention.term;
}

// How strongly mention m expresses the customer's feeling: the ranking key of the constraint
// (text::EmotionMention::strength: a feeling outranks a judgement, a judgement a request; degree words
// and exclamation raise it).
double strength(const Prepared& p, std::size_t m) { return static_cast<double>(p.mentions[m].strength); }

// Candidates as strong as the strongest (to rounding) are comparable: among them the ranking value
// decides. A wider band lets a cheaper, weaker mention stand for the customer's feeling (":(" for
// "Frustrating"); docs/eaca.md, "The strongest, not a comparable one".
constexpr double kComparable = 1.0 - 1e-6;

// A unit short enough to read whole is never cut to its emotion clause: the customer's feeling is
// usually the whole sentence (所以差评你们能删除。。。我想补充做个好评都不行?) and its reason goes with it.
// Code points: 30 in Chinese, 90 (about 15 words) in English; chosen on the development emotion labels.
constexpr int kWholeUnitChars = 30;
int whole_unit_chars(Lang lang) { return lang == Lang::en ? 3 * kWholeUnitChars : kWholeUnitChars; }

struct Clause {
  std::string text;   // as it stands in the rendered unit (what mentions are found in)
  std::string shown;  // as shown in the summary
};

// The clause of unit u that holds the unit's strongest surviving expressed mention (of at least
// `min_strength`; the shortest such clause when several hold one as strong), when u has more than one
// clause and is longer than whole_unit_chars; empty otherwise. English is shown as a sentence: the
// first letter capitalized and a full stop closing a clause that was not the unit's last ("Honestly, I
// am so angry, this is ridiculous!" -> "I am so angry."); Chinese gets its 。 from render::body.
Clause emotion_clause_of(const Context& c, int u, double min_strength) {
  Clause best;
  if (c.unit_chars[static_cast<std::size_t>(u)] <= whole_unit_chars(c.p.lang)) return best;
  const auto parts = render::clauses(c.rendered(static_cast<std::size_t>(u)), c.p.lang);
  if (parts.size() < 2) return best;
  const ConstrainedSelection none;
  double best_strength = -1.0;
  for (const auto& part : parts) {
    if (!render::has_content(part)) continue;
    if (c.p.lang == Lang::en && render::is_lone_adverb(part)) continue;
    double held = -1.0;  // the strongest mention this clause holds
    for (std::size_t m = 0; m < c.p.mentions.size(); ++m)
      if (c.p.mention_unit[m] == u && c.p.mentions[m].expressed && strength(c.p, m) >= min_strength &&
          survives(c, m, none) && part.find(written(c.p, m)) != std::string::npos)
        held = std::max(held, strength(c.p, m));
    if (held < 0.0) continue;
    if (held > best_strength + 1e-9 || (std::abs(held - best_strength) <= 1e-9 && part.size() < best.text.size())) {
      best.text = part;
      best_strength = held;
    }
  }
  best.shown = best.text;
  if (c.p.lang == Lang::en && !best.shown.empty()) {
    if (best.shown[0] >= 'a' && best.shown[0] <= 'z') best.shown[0] = static_cast<char>(best.shown[0] - 'a' + 'A');
    if (best.text != parts.back()) best.shown += '.';
  }
  return best;
}

// A selection and what it is worth to the ranking (a sum of MMR values, or the expected F1 under the
// stop; only compared between selections of one dialogue).
struct Selection {
  std::vector<int> units;
  double value = 0.0;
};

double value_of(const Context& c, const std::vector<int>& units) {
  double v = 0.0;
  for (std::size_t i = 0; i < units.size(); ++i) {
    double overlap = 0.0;
    for (std::size_t j = 0; j < i; ++j)
      overlap = std::max(overlap, c.overlap(static_cast<std::size_t>(units[i]), static_cast<std::size_t>(units[j])));
    v += c.mmr_value(static_cast<std::size_t>(units[i]), overlap);
  }
  return v;
}

// The unconstrained selection with unit e (and what it answers) added: the units that add least beside
// what is added leave until it fits (alone, e may exceed the char budget, as a first pick may). Nothing
// is added back: refilling the freed room with the next-ranked units scored lower
// (docs/eaca-experiments.md, "Tried and rejected"). The value is e's own plus each remaining unit's MMR
// value beside what is added (a unit that repeats the refusal a 好吧 comes with adds least).
Selection replace_for(const Context& c, const std::vector<int>& selected, int e) {
  const std::vector<int> added = with_what_it_answers(c, e);
  std::vector<std::pair<int, double>> kept;  // each selected unit with its MMR value beside what is added
  int chars = 0, needed = 0;
  for (int u : selected) {
    if (std::find(added.begin(), added.end(), u) != added.end()) continue;
    const auto x = static_cast<std::size_t>(u);
    double overlap = 0.0;
    for (int a : added) overlap = std::max(overlap, c.overlap(x, static_cast<std::size_t>(a)));
    kept.emplace_back(u, c.mmr_value(x, overlap));
    chars += c.unit_chars[x];
  }
  for (int a : added) needed += c.unit_chars[static_cast<std::size_t>(a)];
  const int room = c.options.max_sentences - static_cast<int>(added.size());
  while (!kept.empty() && (static_cast<int>(kept.size()) > room || (c.max_chars > 0 && chars + needed > c.max_chars))) {
    auto weakest = std::min_element(kept.begin(), kept.end(), [](const auto& a, const auto& b) { return a.second < b.second; });
    chars -= c.unit_chars[static_cast<std::size_t>(weakest->first)];
    kept.erase(weakest);
  }
  Selection sel;
  for (int a : added) sel.value += c.mmr_value(static_cast<std::size_t>(a), a == e ? 0.0 : c.overlap(static_cast<std::size_t>(a), static_cast<std::size_t>(e)));
  for (const auto& [u, value] : kept) {
    sel.units.push_back(u);
    sel.value += value;
  }
  sel.units.insert(sel.units.end(), added.begin(), added.end());
  return sel;
}

// With the expected-F1 stop the constraint keeps its objective: unit e (after what it answers) leads,
// the greedy order follows as far as the sentence and char budgets allow, and expected_f1_prefix
// keeps the best prefix that holds e. The value is that prefix's expected F1.
Selection stop_with(const Context& c, const std::vector<int>& order, int e) {
  std::vector<int> led = with_what_it_answers(c, e);
  const std::size_t lead = led.size();
  int length = 0;
  for (int a : led) length += c.unit_chars[static_cast<std::size_t>(a)];
  for (int u : order) {
    if (std::find(led.begin(), led.begin() + static_cast<std::ptrdiff_t>(lead), u) != led.begin() + static_cast<std::ptrdiff_t>(lead)) continue;
    const int chars = c.unit_chars[static_cast<std::size_t>(u)];
    if (static_cast<int>(led.size()) >= c.options.max_sentences || (c.max_chars > 0 && length + chars > c.max_chars)) break;
    led.push_back(u);
    length += chars;
  }
  // The best prefix that holds the lead (e and what it answers).
  Selection sel;
  led.resize(expected_f1_prefix(led, c.scores.inclusion, c.unit_chars, c.options.f1_stop_chars, &sel.value, lead));
  sel.units = std::move(led);
  return sel;
}

// The strongest expressed mention `units` keep as rendered; -1 when none.
double kept_strength(const Context& c, const std::vector<int>& units, const ConstrainedSelection& s) {
  double best = -1.0;
  for (std::size_t m = 0; m < c.p.mentions.size(); ++m)
    if (c.p.mentions[m].expressed && survives(c, m, s) &&
        std::find(units.begin(), units.end(), c.p.mention_unit[m]) != units.end())
      best = std::max(best, strength(c.p, m));
  return best;
}

// Whether unit u holds an expressed mention (before rendering).
bool has_expressed(const Context& c, int u) {
  for (std::size_t m = 0; m < c.p.mentions.size(); ++m)
    if (c.p.mention_unit[m] == u && c.p.mentions[m].expressed) return true;
  return false;
}

// The strongest expressed mention unit u keeps as rendered; -1 when none (an implicit feeling).
double unit_strength(const Context& c, int u) {
  const ConstrainedSelection none;
  double best = -1.0;
  for (std::size_t m = 0; m < c.p.mentions.size(); ++m)
    if (c.p.mention_unit[m] == u && c.p.mentions[m].expressed && survives(c, m, none))
      best = std::max(best, strength(c.p, m));
  return best;
}

// The learned choice: the selectable customer unit most likely to hold the customer's strongest
// feeling, with or without a detected mention in it, when its probability reaches the built-in
// threshold (and, for a language whose table says so, only where the detector found an expressed
// customer mention); -1 otherwise (then the strongest expressed mention decides, as before). A unit
// whose rendering (compression) removed every mention it had is no target: it no longer says it.
int learned_target(const Context& c) {
  const salience::Weights& weights = salience::builtin_weights(c.p.lang);
  if (weights.threshold > 1.0f || (!weights.when_undetected && !c.p.customer_expressed_emotion())) return -1;
  // A courtesy is no feeling (the labelling guide's rule): a unit with a thanks or a closing (好的, 谢,
  // 没有了, thanks; salience::is_courtesy) and no expressed mention is never the target. Added after
  // reading the summaries that changed.
  std::vector<char> eligible = c.selectable;
  for (std::size_t u = 0; u < eligible.size(); ++u)
    if (eligible[u] && salience::is_courtesy(c.p.units[u].text) && !has_expressed(c, static_cast<int>(u))) eligible[u] = 0;
  const int target = salience::target_unit(c.p, weights, eligible);
  if (target >= 0 && has_expressed(c, target) && unit_strength(c, target) < 0.0) return -1;
  return target;
}

}  // namespace

bool survives(const Context& c, std::size_t m, const ConstrainedSelection& s) {
  const auto unit = static_cast<std::size_t>(c.p.mention_unit[m]);
  if (static_cast<int>(unit) == s.clause_unit) return s.clause_text.find(written(c.p, m)) != std::string::npos;
  if (c.scores.unit_text.empty()) return true;
  return c.scores.unit_text[unit].find(written(c.p, m)) != std::string::npos;
}

bool keeps_emotion(const Context& c, const std::vector<int>& units, const ConstrainedSelection& s) {
  return kept_strength(c, units, s) >= 0.0;
}

double required_strength(const Context& c) {
  // The strength the summary must reach: a share of the strongest mention any selectable unit keeps.
  const Prepared& p = c.p;
  const ConstrainedSelection none;
  double strongest = -1.0;
  for (std::size_t m = 0; m < p.mentions.size(); ++m)
    if (p.mentions[m].expressed && c.selectable[static_cast<std::size_t>(p.mention_unit[m])] && survives(c, m, none))
      strongest = std::max(strongest, strength(p, m));
  return strongest < 0.0 ? -1.0 : kComparable * strongest;
}

namespace {

// Whether `units` keep a mention as strong as the strongest expressed one (the rule's test).
bool keeps_strongest_mention(const Context& c, const std::vector<int>& units, const ConstrainedSelection& s) {
  if (!c.p.customer_expressed_emotion()) return false;
  const double needed = required_strength(c);
  return needed >= 0.0 && kept_strength(c, units, s) >= needed;
}

// Whether `units` keep the learned target: the unit with a mention of it surviving (when it has one),
// or, under redundancy control, a unit it repeats.
bool keeps_target(const Context& c, int target, const std::vector<int>& units, const ConstrainedSelection& s) {
  if (std::find(units.begin(), units.end(), target) == units.end()) return c.repeats(static_cast<std::size_t>(target), units);
  return !has_expressed(c, target) || kept_strength(c, {target}, s) >= 0.0;
}

// Whether `units` keep the learned target or the strongest expressed mention: either satisfies the
// constraint, so a summary that already holds one is not changed (docs/eaca.md, "A learned choice of
// the strongest feeling").
bool keeps_either(const Context& c, int target, const std::vector<int>& units, const ConstrainedSelection& s) {
  return keeps_target(c, target, units, s) || keeps_strongest_mention(c, units, s);
}

}  // namespace

bool keeps_strongest(const Context& c, const ConstrainedSelection& s) {
  if (s.target >= 0) return keeps_either(c, s.target, s.units, s);
  if (!c.p.customer_expressed_emotion()) return true;
  return keeps_strongest_mention(c, s.units, s);
}

int verbatim_emotion_unit(const Context& c, const ConstrainedSelection& s) {
  const Prepared& p = c.p;
  if (p.lang != Lang::zh || c.scores.unit_text.empty()) return -1;
  int best = -1;
  double best_strength = -1.0;
  for (std::size_t m = 0; m < p.mentions.size(); ++m) {
    const int u = p.mention_unit[m];
    if (!p.mentions[m].expressed || u < 0 || std::find(s.units.begin(), s.units.end(), u) == s.units.end()) continue;
    const double st = u == s.target ? 2.0 : strength(p, m);  // the learned target first
    if (st > best_strength) best = u, best_strength = st;
  }
  if (best < 0 && s.target >= 0 && std::find(s.units.begin(), s.units.end(), s.target) != s.units.end()) best = s.target;
  if (best < 0 || best == s.clause_unit) return -1;
  const Unit& unit = p.units[static_cast<std::size_t>(best)];
  if (unit.speaker != text::Speaker::customer || unit.chars > whole_unit_chars(p.lang)) return -1;
  // Only within the char budget: the words deletion took must fit beside the rest.
  if (c.max_chars > 0) {
    int total = 0;
    for (int v : s.units) total += c.unit_chars[static_cast<std::size_t>(v)];
    if (total + unit.chars - c.unit_chars[static_cast<std::size_t>(best)] > c.max_chars) return -1;
  }
  return best;
}

ConstrainedSelection constrain_emotion(Context& c, const std::vector<int>& selected, const std::vector<int>& order) {
  ConstrainedSelection out;
  out.units = selected;
  const Prepared& p = c.p;
  const int target = out.target = learned_target(c);
  if (!c.options.emotion_constraint) return out;
  if (target < 0 && !p.customer_expressed_emotion()) return out;
  // With a learned target the summary keeps that unit (its strongest mention decides the clause); else
  // a unit with a mention as strong as the strongest.
  const double needed = target >= 0 ? kComparable * unit_strength(c, target) : required_strength(c);
  if (target >= 0 ? keeps_either(c, target, selected, out) : needed < 0.0 || kept_strength(c, selected, out) >= needed)
    return out;

  const bool stop = c.options.f1_stop_chars > 0.0f;
  const double unconstrained = stop ? [&] {
    double v = 0.0;
    expected_f1_prefix(selected, c.scores.inclusion, c.unit_chars, c.options.f1_stop_chars, &v);
    return v;
  }() : value_of(c, selected);
  // Each unit that keeps a comparable mention, with its best strength and the head's preference.
  struct Candidate {
    int unit;
    double strength, preference;
  };
  std::vector<Candidate> candidates;
  if (target >= 0 && needed < 0.0) candidates.push_back({target, -1.0, 0.0});  // an implicit feeling: the whole unit
  for (std::size_t m = 0; m < p.mentions.size(); ++m) {
    const int unit = p.mention_unit[m];
    if (!p.mentions[m].expressed || strength(p, m) < needed || !c.selectable[static_cast<std::size_t>(unit)] ||
        !survives(c, m, out) || (target >= 0 && unit != target))
      continue;
    const double pref = c.scores.mention_source.empty() ? strength(p, m) : static_cast<double>(c.scores.mention_source[m]);
    auto at = std::find_if(candidates.begin(), candidates.end(), [&](const Candidate& k) { return k.unit == unit; });
    if (at == candidates.end()) {
      candidates.push_back({unit, strength(p, m), pref});
    } else {
      at->strength = std::max(at->strength, strength(p, m));
      at->preference = std::max(at->preference, pref);
    }
  }
  Selection chosen;
  Clause chosen_clause;
  const Candidate* best = nullptr;
  for (const Candidate& k : candidates) {
    // A length the user asked for holds: a unit that needs what it answers beside it ("No, unfortunately."
    // after the agent's question) is no candidate when the two do not fit in it; alone it would be an
    // orphan. Without a candidate that fits, the summary stays unconstrained and says so.
    if (c.options.length_asked && static_cast<int>(with_what_it_answers(c, k.unit).size()) > c.options.max_sentences)
      continue;
    // An emotion clause costs the budget and the expected F1 only its own length.
    const auto ux = static_cast<std::size_t>(k.unit);
    const Clause clause = c.options.emotion_clause && needed >= 0.0 ? emotion_clause_of(c, k.unit, needed) : Clause{};
    const int whole_chars = c.unit_chars[ux];
    if (!clause.text.empty())
      c.unit_chars[ux] = static_cast<int>(text::decode_utf8(clause.shown, text::Utf8Mode::lossy).size());
    Selection sel = stop ? stop_with(c, order, k.unit) : replace_for(c, selected, k.unit);
    c.unit_chars[ux] = whole_chars;
    if (best == nullptr || sel.value > chosen.value + 1e-12 ||
        (std::abs(sel.value - chosen.value) <= 1e-12 && k.preference > best->preference)) {
      chosen = std::move(sel);
      chosen_clause = clause;
      best = &k;
    }
  }
  if (best == nullptr) return out;
  out.units = std::move(chosen.units);
  out.bound = true;
  out.cost = std::max(0.0, unconstrained - (stop ? chosen.value : value_of(c, out.units)));
  if (!chosen_clause.text.empty()) {
    out.clause_unit = best->unit;
    out.clause_text = std::move(chosen_clause.text);
    out.clause_shown = std::move(chosen_clause.shown);
  }
  return out;
}

}  // namespace kessel::summarize::decoding
