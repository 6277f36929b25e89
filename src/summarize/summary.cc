// Summary units, the constrained decoder and rendering (include/kessel/summarize/summary.h).
#include "kessel/summarize/summary.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <map>
#include <string_view>

#include "kessel/error.h"
#include "kessel/text/utf8.h"
#include "summarize/content.h"

namespace kessel::summarize {

namespace {

// Byte span of each sentence inside its turn's text; sentences are trimmed substrings in order.
// A sentence that cannot be found (a reader that rewrote it) spans nothing and owns no mention.
std::vector<std::pair<std::size_t, std::size_t>> sentence_spans(const text::Turn& turn) {
  std::vector<std::pair<std::size_t, std::size_t>> spans;
  std::size_t cursor = 0;
  for (const auto& s : turn.sentences) {
    const std::size_t at = turn.text.find(s, cursor);
    if (at == std::string::npos) {
      spans.emplace_back(std::string::npos, std::string::npos);
      continue;
    }
    spans.emplace_back(at, at + s.size());
    cursor = at + s.size();
  }
  return spans;
}

bool is_terminal_punct(char32_t cp) {
  switch (cp) {
    case U'。': case U'！': case U'？': case U'!': case U'?': case U'；': case U';':
    case U'…': case U'.': case U'，': case U',': case U'、': case U'~': case U'～':
      return true;
    default:
      return false;
  }
}

// False for a unit of terminal punctuation and space only ("？？？", "..."): render_unit would turn it
// into an empty "用户:。", which says nothing and takes a slot of the budget.
bool has_content(const std::string& text) {
  for (char32_t cp : text::decode_utf8(text, text::Utf8Mode::lossy).cps)
    if (!is_terminal_punct(cp) && !text::is_space(cp)) return true;
  return false;
}

// What makes two rendered units the same sentence to a reader: their code points without spaces
// and punctuation, ASCII lowercased ("Ok thanks!" and "ok, thanks" match; "-Chris" twice matches).
std::u32string repeat_key(const std::string& text) {
  std::u32string key;
  for (char32_t cp : text::decode_utf8(text, text::Utf8Mode::lossy).cps) {
    if (text::is_space(cp) || text::is_punct(cp)) continue;
    key.push_back(cp >= U'A' && cp <= U'Z' ? cp - U'A' + U'a' : cp);
  }
  return key;
}

// Redundancy between two units: Jaccard overlap of their character bigrams (zh) or lowercase words
// (en). Cheap and language-appropriate; only relative values matter to MMR. Each unit's n-grams are
// sorted distinct ids, so an overlap is one merge: a zh bigram is its two code points packed into 64
// bits (a one-character unit its code point with the top bit set), an en word its number among the
// dialogue's distinct words. Both are exact: equal ids are equal n-grams.
using Grams = std::vector<std::uint64_t>;

std::vector<Grams> dialogue_grams(const std::vector<Unit>& units, Lang lang) {
  std::vector<Grams> out(units.size());
  std::map<std::u32string, std::uint64_t> word_ids;  // en
  for (std::size_t u = 0; u < units.size(); ++u) {
    const auto decoded = text::decode_utf8(units[u].text, text::Utf8Mode::lossy);
    Grams& grams = out[u];
    if (lang == Lang::zh) {
      for (std::size_t i = 0; i + 1 < decoded.cps.size(); ++i)
        grams.push_back(static_cast<std::uint64_t>(decoded.cps[i]) << 32 | decoded.cps[i + 1]);
      if (decoded.cps.size() == 1) grams.push_back(std::uint64_t{1} << 63 | decoded.cps[0]);
    } else {
      std::u32string word;
      auto add = [&] {
        const auto [at, fresh] = word_ids.emplace(word, word_ids.size());
        grams.push_back(at->second);
        word.clear();
      };
      for (char32_t cp : decoded.cps) {
        if (text::is_latin_letter(cp) || text::is_digit(cp))
          word.push_back(cp < 128 ? static_cast<char32_t>(std::tolower(static_cast<int>(cp))) : cp);
        else if (!word.empty())
          add();
      }
      if (!word.empty()) add();
    }
    std::sort(grams.begin(), grams.end());
    grams.erase(std::unique(grams.begin(), grams.end()), grams.end());
  }
  return out;
}

double jaccard(const Grams& a, const Grams& b) {
  if (a.empty() || b.empty()) return 0.0;
  std::size_t common = 0;
  for (auto i = a.begin(), j = b.begin(); i != a.end() && j != b.end();) {
    if (*i < *j) {
      ++i;
    } else if (*j < *i) {
      ++j;
    } else {
      ++common, ++i, ++j;
    }
  }
  return static_cast<double>(common) / static_cast<double>(a.size() + b.size() - common);
}

}  // namespace

Lang detect_lang(const text::Dialogue& dialogue) {
  text::ScriptCounts counts;
  for (const auto& turn : dialogue.turns) counts.add(turn.text);
  return counts.mostly_cjk() ? Lang::zh : Lang::en;
}

LangCounts count_langs(const std::vector<text::Dialogue>& dialogues) {
  LangCounts c;
  for (const auto& d : dialogues) ++(detect_lang(d) == Lang::zh ? c.zh : c.en);
  return c;
}

bool Prepared::customer_expressed_emotion() const {
  return std::any_of(mentions.begin(), mentions.end(),
                     [](const text::EmotionMention& m) { return m.expressed; });
}

Prepared prepare(const text::Dialogue& dialogue, const text::Lexicon& lexicon) {
  Prepared p;
  p.dialogue = &dialogue;
  p.lang = detect_lang(dialogue);
  for (int t = 0; t < static_cast<int>(dialogue.turns.size()); ++t) {
    const auto& turn = dialogue.turns[static_cast<std::size_t>(t)];
    const int first_unit = static_cast<int>(p.units.size());
    for (int s = 0; s < static_cast<int>(turn.sentences.size()); ++s) {
      Unit u;
      u.turn = t;
      u.sentence = s;
      u.speaker = turn.speaker;
      u.text = turn.sentences[static_cast<std::size_t>(s)];
      const text::DecodedText decoded = text::decode_utf8(u.text, text::Utf8Mode::lossy);  // once for both
      u.chars = static_cast<int>(decoded.size());
      p.unit_tokens.push_back(text::tokenize(u.text, decoded, text::TokenizeOptions{nullptr, text::Utf8Mode::lossy}));
      p.units.push_back(std::move(u));
    }
    text::DetectOptions options;
    options.customer_turn = turn.speaker == text::Speaker::customer;
    const auto spans = sentence_spans(turn);
    for (std::size_t s = 0; s < spans.size(); ++s)
      if (spans[s].first != std::string::npos)
        p.units[static_cast<std::size_t>(first_unit) + s].byte_start = static_cast<long>(spans[s].first);
    for (auto& m : text::detect_emotions(turn.text, lexicon, t, options)) {
      int unit = -1;
      for (std::size_t s = 0; s < spans.size(); ++s) {
        if (spans[s].first == std::string::npos) continue;
        if (static_cast<std::size_t>(m.byte_start) >= spans[s].first &&
            static_cast<std::size_t>(m.byte_end) <= spans[s].second) {
          unit = first_unit + static_cast<int>(s);
          break;
        }
      }
      if (unit < 0) continue;  // the term straddles two sentences: no single unit can keep it
      p.mentions.push_back(std::move(m));
      p.mention_unit.push_back(unit);
    }
  }
  return p;
}

std::string render_unit(const Unit& unit, Lang lang) { return render_unit(unit, unit.text, lang); }

namespace {

// The role label that starts a rendered unit, and the unit's text as it follows the label.
std::string role_label(text::Speaker speaker, Lang lang) {
  const bool customer = speaker == text::Speaker::customer;
  if (lang == Lang::en) return customer ? "Customer: " : "Agent: ";
  return customer ? "用户:" : "客服:";
}

std::string render_body(const std::string& text, Lang lang) {
  if (lang == Lang::en) return text;
  auto decoded = text::decode_utf8(text, text::Utf8Mode::lossy);
  std::size_t end = decoded.cps.size();
  while (end > 0 && (is_terminal_punct(decoded.cps[end - 1]) || text::is_space(decoded.cps[end - 1])))
    --end;
  return text::encode_utf8(decoded.cps.data(), end) + "。";
}

// Whether cps[i] ends a clause: a full-width ，；： always, an ASCII , ; : only before a space or the
// end, so that 1,000, 10:30, https://, :) and ;-) stay whole.
bool is_clause_break(const std::vector<char32_t>& cps, std::size_t i) {
  switch (cps[i]) {
    case U'，': case U'；': case U'：':
      return true;
    case U',': case U';': case U':':
      return i + 1 == cps.size() || text::is_space(cps[i + 1]);
    default:
      return false;
  }
}

// English conjunctions a clause starts at even without a comma ("my flight was delayed and I am
// furious"). Not "so": without a comma before it, it is mostly the intensifier ("so angry").
constexpr std::u32string_view kClauseConjunctions[] = {U"and", U"but", U"because"};

// The length of the conjunction (lowercased) that starts at cps[i] and is followed by a space; 0 when none.
std::size_t conjunction_at(const std::vector<char32_t>& cps, std::size_t i) {
  for (std::u32string_view w : kClauseConjunctions) {
    if (i + w.size() >= cps.size() || !text::is_space(cps[i + w.size()])) continue;
    bool same = true;
    for (std::size_t k = 0; k < w.size() && same; ++k) {
      const char32_t c = cps[i + k];
      same = (c >= U'A' && c <= U'Z' ? c - U'A' + U'a' : c) == w[k];
    }
    if (same) return w.size();
  }
  return 0;
}

// Whether an English clause is one word ending in -ly ("No, unfortunately" -> "unfortunately"): a
// sentence adverb comments on the rest of its sentence and says nothing alone, so the constraint keeps
// another clause or the whole sentence. Exclamations stand alone ("Ugh, ..." -> "Ugh.").
bool is_lone_adverb(const std::string& clause) {
  if (clause.size() < 3 || clause.find(' ') != std::string::npos) return false;
  for (char c : clause)
    if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'))) return false;
  const char a = clause[clause.size() - 2], b = clause[clause.size() - 1];
  return (a == 'l' || a == 'L') && (b == 'y' || b == 'Y');
}

// The clauses of a rendered unit, each trimmed of spaces and of its break: split after , ; : and their
// full-width forms (is_clause_break), and in English also before and / but / because, which the
// clause then loses ("Ugh, my flight is delayed again and I am furious" -> "Ugh", "my flight is
// delayed again", "I am furious").
std::vector<std::string> clauses(const std::string& text, Lang lang) {
  std::vector<std::string> out;
  const std::vector<char32_t> cps = text::decode_utf8(text, text::Utf8Mode::lossy).cps;
  std::size_t start = 0;
  auto close = [&](std::size_t end) {
    std::size_t a = start, b = end;
    while (a < b && text::is_space(cps[a])) ++a;
    if (lang == Lang::en && start > 0) {  // a conjunction opening any clause but the first
      const std::size_t n = conjunction_at(cps, a);
      a += n;
      while (n > 0 && a < b && text::is_space(cps[a])) ++a;
    }
    while (b > a && (text::is_space(cps[b - 1]) || is_clause_break(cps, b - 1))) --b;
    if (b > a) out.push_back(text::encode_utf8(cps.data() + a, b - a));
    start = end;
  };
  for (std::size_t i = 0; i < cps.size(); ++i) {
    if (is_clause_break(cps, i))
      close(i + 1);
    else if (lang == Lang::en && i > start && text::is_space(cps[i - 1]) && conjunction_at(cps, i) > 0)
      close(i);
  }
  close(cps.size());
  return out;
}

}  // namespace

std::string render_unit(const Unit& unit, const std::string& text, Lang lang) {
  return role_label(unit.speaker, lang) + render_body(text, lang);
}

std::string scored_unit(const Unit& unit, Lang lang) {
  return lang == Lang::zh ? render_unit(unit, lang) : unit.text;
}

std::string scored_text(const Summary& summary, Lang lang) {
  if (lang == Lang::zh) return summary.summary;
  std::string out;
  for (const auto& s : summary.sentences) {
    if (!out.empty()) out += ' ';
    out += s.body;
  }
  return out;
}

bool parse_emotion_span(const std::string& span) {
  KESSEL_CHECK_ARG(span == "clause" || span == "sentence", "emotion span must be 'clause' or 'sentence', got '", span,
                   "'");
  return span == "clause";
}

std::size_t expected_f1_prefix(const std::vector<int>& order, const std::vector<float>& inclusion,
                               const std::vector<int>& unit_chars, float prior_chars, double* value) {
  KESSEL_CHECK_ARG(std::isfinite(prior_chars) && prior_chars > 0.0f, "expected_f1_prefix: prior_chars must be > 0, got ",
                   prior_chars);
  std::size_t best = order.empty() ? 0 : 1;
  double best_value = -1.0, matched = 0.0, length = 0.0;
  for (std::size_t i = 0; i < order.size(); ++i) {
    const auto u = static_cast<std::size_t>(order[i]);
    KESSEL_CHECK_ARG(u < inclusion.size() && u < unit_chars.size(), "expected_f1_prefix: unit ", u, " out of range");
    KESSEL_CHECK_ARG(inclusion[u] >= 0.0f && inclusion[u] <= 1.0f, "expected_f1_prefix: inclusion[", u, "] = ",
                     inclusion[u], " is not in [0, 1]");
    matched += static_cast<double>(inclusion[u]) * unit_chars[u];
    length += unit_chars[u];
    const double v = 2.0 * matched / (length + static_cast<double>(prior_chars));
    if (v > best_value) {
      best_value = v;
      best = i + 1;
    }
  }
  if (value) *value = best_value;
  return best;
}

Summary decode(const Prepared& p, const UnitScores& scores, const DecodeOptions& options) {
  const std::size_t U = p.units.size();
  KESSEL_CHECK_ARG(scores.salience.size() == U, "decode: salience has ", scores.salience.size(),
                   " entries but the dialogue has ", U, " units");
  KESSEL_CHECK_ARG(scores.mention_source.empty() || scores.mention_source.size() == p.mentions.size(),
                   "decode: mention_source has ", scores.mention_source.size(),
                   " entries but the dialogue has ", p.mentions.size(), " mentions");
  KESSEL_CHECK_ARG(options.max_sentences >= 1, "decode: max_sentences must be >= 1, got ",
                   options.max_sentences);
  KESSEL_CHECK_ARG(options.redundancy >= 0.0f && options.redundancy <= 1.0f,
                   "decode: redundancy must be in [0, 1], got ", options.redundancy);
  for (std::size_t u = 0; u < U; ++u)
    KESSEL_CHECK_ARG(std::isfinite(scores.salience[u]), "decode: salience[", u, "] is not finite");
  KESSEL_CHECK_ARG(scores.max_chars >= 0, "decode: scores.max_chars must be >= 0, got ", scores.max_chars);
  KESSEL_CHECK_ARG(std::isfinite(options.f1_stop_chars) && options.f1_stop_chars >= 0.0f,
                   "decode: f1_stop_chars must be >= 0, got ", options.f1_stop_chars);
  KESSEL_CHECK_ARG(scores.inclusion.empty() || scores.inclusion.size() == U, "decode: inclusion has ",
                   scores.inclusion.size(), " entries but the dialogue has ", U, " units");
  for (std::size_t u = 0; u < scores.inclusion.size(); ++u)
    KESSEL_CHECK_ARG(scores.inclusion[u] >= 0.0f && scores.inclusion[u] <= 1.0f, "decode: inclusion[", u, "] = ",
                     scores.inclusion[u], " is not a probability");
  KESSEL_CHECK_ARG(options.f1_stop_chars == 0.0f || !scores.inclusion.empty(),
                   "decode: f1_stop_chars = ", options.f1_stop_chars,
                   " needs the scorer's inclusion probabilities, and this scorer gives none");
  KESSEL_CHECK_ARG(scores.unit_text.empty() || scores.unit_text.size() == U, "decode: unit_text has ",
                   scores.unit_text.size(), " entries but the dialogue has ", U, " units");
  // A unit as rendered: the scorer's text (compressed, addressing dropped, reported) when it gives one.
  auto rendered = [&](std::size_t u) -> const std::string& {
    return scores.unit_text.empty() ? p.units[u].text : scores.unit_text[u];
  };
  // What each unit costs against the budget: its code points as rendered (compressed when given).
  std::vector<int> unit_chars(U);
  for (std::size_t u = 0; u < U; ++u)
    unit_chars[u] = scores.unit_text.empty()
                        ? p.units[u].chars
                        : static_cast<int>(text::decode_utf8(scores.unit_text[u], text::Utf8Mode::lossy).size());
  // The scorer's per-dialogue budget, when it has one, replaces the fixed one.
  const int max_chars = scores.max_chars > 0 ? scores.max_chars : options.max_chars;

  Summary out;
  out.id = p.dialogue ? p.dialogue->id : "";

  // Salience rescaled to [0, 1] so the redundancy weight means the same for every scorer.
  float lo = 0.0f, hi = 0.0f;
  if (U) {
    lo = *std::min_element(scores.salience.begin(), scores.salience.end());
    hi = *std::max_element(scores.salience.begin(), scores.salience.end());
  }
  auto norm = [&](std::size_t u) { return hi > lo ? (scores.salience[u] - lo) / (hi - lo) : 1.0f; };
  // MMR: what unit u adds beside units it overlaps by `overlap` (Jaccard of n-grams).
  auto mmr_value = [&](std::size_t u, double overlap) {
    return (1.0 - options.redundancy) * norm(u) - options.redundancy * overlap;
  };

  std::vector<Grams> grams;
  if (options.redundancy > 0.0f) grams = dialogue_grams(p.units, p.lang);

  std::vector<char> selectable(U, 0);
  // issue 22: fillers, courtesies and sign-offs are not selectable (DecodeOptions::skip_fillers).
  const std::vector<char> content = options.skip_fillers ? content_mask(p) : std::vector<char>(U, 1);
  for (std::size_t u = 0; u < U; ++u)
    selectable[u] = unit_chars[u] > 0 && has_content(rendered(u)) && content[u];
  // Redundancy control never lets a unit in twice: MMR only discounts an exact repeat, and a very
  // salient one ("客服:嗯嗯。", an agent's "-Chris" sign-off) still beats the rest. Without redundancy
  // control (the published baselines) the ranking is taken as it is.
  std::vector<std::u32string> keys;
  if (options.redundancy > 0.0f)
    for (std::size_t u = 0; u < U; ++u) keys.push_back(repeat_key(rendered(u)));
  auto repeats_selected = [&](std::size_t u, const std::vector<int>& chosen) {
    if (keys.empty()) return false;
    for (int s : chosen)
      if (keys[static_cast<std::size_t>(s)] == keys[u]) return true;
    return false;
  };

  // Greedy MMR under the budget (the first pick may exceed the char budget alone).
  std::vector<int> selected;
  {
    std::vector<char> in(U, 0);
    int chars = 0;
    while (static_cast<int>(selected.size()) < options.max_sentences) {
      int best = -1;
      double best_value = -1e300;
      for (std::size_t u = 0; u < U; ++u) {
        if (in[u] || !selectable[u] || repeats_selected(u, selected)) continue;
        if (max_chars > 0 && !selected.empty() && chars + unit_chars[u] > max_chars) continue;
        double overlap = 0.0;
        if (options.redundancy > 0.0f)
          for (int s : selected) overlap = std::max(overlap, jaccard(grams[u], grams[static_cast<std::size_t>(s)]));
        const double value = mmr_value(u, overlap);
        if (value > best_value) {
          best_value = value;
          best = static_cast<int>(u);
        }
      }
      if (best < 0) break;
      in[static_cast<std::size_t>(best)] = 1;
      selected.push_back(best);
      chars += unit_chars[static_cast<std::size_t>(best)];
    }
  }
  // The expected-F1 stop keeps the greedy order's best prefix: the scorer's confidence sets the length.
  const std::vector<int> order = selected;
  const bool stop = options.f1_stop_chars > 0.0f;
  if (stop) selected.resize(expected_f1_prefix(order, scores.inclusion, unit_chars, options.f1_stop_chars));

  // A mention's words as written in its turn (the lexicon term when the dialogue is not at hand).
  auto written = [&](std::size_t m) {
    const auto& mention = p.mentions[m];
    return p.dialogue ? p.dialogue->turns[static_cast<std::size_t>(mention.turn)].text.substr(
                            static_cast<std::size_t>(mention.byte_start),
                            static_cast<std::size_t>(mention.byte_end - mention.byte_start))
                      : mention.term;
  };
  // A clause of a unit: as it stands in the rendered unit (what the mentions are found in) and as it is
  // shown in the summary.
  struct Clause {
    std::string text;
    std::string shown;
  };
  // The unit the constraint kept as its emotion clause only (DecodeOptions::emotion_clause), and that
  // clause; -1 while there is none.
  int clause_unit = -1;
  Clause clause_kept;
  // Whether mention m's words survived its unit's rendering (a compressed unit may have lost them, and
  // an emotion clause keeps only its own); the mention is kept when, besides, its unit is selected.
  auto survives = [&](std::size_t m) {
    const auto unit = static_cast<std::size_t>(p.mention_unit[m]);
    if (static_cast<int>(unit) == clause_unit) return clause_kept.text.find(written(m)) != std::string::npos;
    if (scores.unit_text.empty()) return true;
    return scores.unit_text[unit].find(written(m)) != std::string::npos;
  };
  // The shortest clause of unit u that holds one of its surviving expressed mentions, when u has more
  // than one clause; empty otherwise. English is shown as a sentence: the first letter capitalized and
  // a full stop closing a clause that was not the unit's last ("Honestly, I am so angry, this is
  // ridiculous!" -> "I am so angry."; the last clause keeps its own ! or ?); Chinese gets its 。 from
  // render_body.
  auto emotion_clause_of = [&](int u) {
    Clause best;
    const auto parts = clauses(rendered(static_cast<std::size_t>(u)), p.lang);
    if (parts.size() < 2) return best;
    for (const auto& part : parts) {
      if (!has_content(part) || (!best.text.empty() && part.size() >= best.text.size())) continue;
      if (p.lang == Lang::en && is_lone_adverb(part)) continue;
      for (std::size_t m = 0; m < p.mentions.size(); ++m)
        if (p.mention_unit[m] == u && p.mentions[m].expressed && survives(m) &&
            part.find(written(m)) != std::string::npos) {
          best.text = part;
          break;
        }
    }
    best.shown = best.text;
    if (p.lang == Lang::en && !best.shown.empty()) {
      if (best.shown[0] >= 'a' && best.shown[0] <= 'z') best.shown[0] = static_cast<char>(best.shown[0] - 'a' + 'A');
      if (best.text != parts.back()) best.shown += '.';
    }
    return best;
  };
  auto keeps_emotion_in = [&](const std::vector<int>& units) {
    for (std::size_t m = 0; m < p.mentions.size(); ++m)
      if (p.mentions[m].expressed && survives(m) &&
          std::find(units.begin(), units.end(), p.mention_unit[m]) != units.end())
        return true;
    return false;
  };

  // A selection and what it is worth to the ranking (a sum of MMR values; only compared between
  // selections of one dialogue).
  struct Selection {
    std::vector<int> units;
    double value = 0.0;
    int emotion_unit = -1;  // the unit the constraint added
  };
  // The unconstrained selection with unit e added: the units that add least beside e leave until it
  // fits (alone, e may exceed the char budget, as a first pick may). Nothing is added back: refilling
  // the freed room with the next-ranked units scored lower (docs/eaca-experiments.md, "Tried and rejected"). The
  // value is e's own plus each remaining unit's MMR value beside e.
  auto replace_for = [&](int e) {
    // Each selected unit with its MMR value beside e, computed once.
    std::vector<std::pair<int, double>> kept;
    int chars = 0;
    for (int u : selected) {
      const auto x = static_cast<std::size_t>(u);
      kept.emplace_back(u, mmr_value(x, options.redundancy > 0.0f ? jaccard(grams[x], grams[static_cast<std::size_t>(e)]) : 0.0));
      chars += unit_chars[x];
    }
    const int needed = unit_chars[static_cast<std::size_t>(e)];
    while (!kept.empty() && (static_cast<int>(kept.size()) >= options.max_sentences ||
                             (max_chars > 0 && chars + needed > max_chars))) {
      auto weakest = std::min_element(kept.begin(), kept.end(),
                                      [](const auto& a, const auto& b) { return a.second < b.second; });
      chars -= unit_chars[static_cast<std::size_t>(weakest->first)];
      kept.erase(weakest);
    }
    Selection sel;
    sel.value = mmr_value(static_cast<std::size_t>(e), 0.0);
    for (const auto& [u, value] : kept) {
      sel.units.push_back(u);
      sel.value += value;
    }
    sel.units.push_back(e);
    return sel;
  };

  // With the expected-F1 stop the constraint keeps its objective: unit e leads, the greedy order
  // (without e) follows as far as the sentence and char budgets allow (e alone may exceed the char
  // budget), and expected_f1_prefix keeps the best prefix. The value is that prefix's expected F1.
  auto stop_with = [&](int e) {
    std::vector<int> led = {e};
    int length = unit_chars[static_cast<std::size_t>(e)];
    for (int u : order) {
      if (u == e) continue;
      const int c = unit_chars[static_cast<std::size_t>(u)];
      if (static_cast<int>(led.size()) >= options.max_sentences || (max_chars > 0 && length + c > max_chars)) break;
      led.push_back(u);
      length += c;
    }
    Selection sel;
    led.resize(expected_f1_prefix(led, scores.inclusion, unit_chars, options.f1_stop_chars, &sel.value));
    sel.units = std::move(led);
    return sel;
  };

  // The hard constraint: keep at least one expressed customer emotion. Each unit that can keep one
  // is tried in the unconstrained selection's place (replace_for, or stop_with under the expected-F1
  // stop), and the selection worth most wins; ties go to the emotion-source head's preference
  // (intensity without a head).
  if (options.emotion_constraint && p.customer_expressed_emotion() && !keeps_emotion_in(selected)) {
    auto preference = [&](std::size_t m) {
      return scores.mention_source.empty() ? static_cast<double>(p.mentions[m].intensity)
                                           : static_cast<double>(scores.mention_source[m]);
    };
    std::vector<std::pair<int, double>> candidates;  // unit, best preference of its mentions
    for (std::size_t m = 0; m < p.mentions.size(); ++m) {
      const int unit = p.mention_unit[m];
      if (!p.mentions[m].expressed || !selectable[static_cast<std::size_t>(unit)] || !survives(m)) continue;
      auto at = std::find_if(candidates.begin(), candidates.end(), [&](const auto& c) { return c.first == unit; });
      if (at == candidates.end()) candidates.emplace_back(unit, preference(m));
      else at->second = std::max(at->second, preference(m));
    }
    Selection chosen;
    double chosen_preference = -1e300;
    bool any = false;
    Clause chosen_clause;
    for (const auto& [unit, pref] : candidates) {
      // An emotion clause costs the budget and the expected F1 only its own length.
      const auto ux = static_cast<std::size_t>(unit);
      const Clause clause = options.emotion_clause ? emotion_clause_of(unit) : Clause{};
      const int whole_chars = unit_chars[ux];
      if (!clause.text.empty())
        unit_chars[ux] = static_cast<int>(text::decode_utf8(clause.shown, text::Utf8Mode::lossy).size());
      Selection sel = stop ? stop_with(unit) : replace_for(unit);
      sel.emotion_unit = unit;
      unit_chars[ux] = whole_chars;
      if (!any || sel.value > chosen.value + 1e-12 ||
          (std::abs(sel.value - chosen.value) <= 1e-12 && pref > chosen_preference)) {
        chosen = std::move(sel);
        chosen_clause = clause;
        chosen_preference = pref;
        any = true;
      }
    }
    if (any) {
      if (!chosen_clause.text.empty()) {
        clause_unit = chosen.emotion_unit;
        clause_kept = std::move(chosen_clause);
      }
      selected = std::move(chosen.units);
      out.constraint_bound = true;
    }
  }
  std::vector<char> taken(U, 0);
  for (int u : selected) taken[static_cast<std::size_t>(u)] = 1;
  auto mention_kept = [&](std::size_t m) { return taken[static_cast<std::size_t>(p.mention_unit[m])] && survives(m); };

  std::sort(selected.begin(), selected.end());
  for (int u : selected) {
    const Unit& unit = p.units[static_cast<std::size_t>(u)];
    SummarySentence s;
    s.body = render_body(u == clause_unit ? clause_kept.shown : rendered(static_cast<std::size_t>(u)), p.lang);
    s.text = role_label(unit.speaker, p.lang) + s.body;
    s.turn = unit.turn;
    s.unit = u;
    s.score = scores.salience[static_cast<std::size_t>(u)];
    // Consecutive sentences of one speaker share one label, as the official baselines label
    // utterances rather than sentences: zh "用户:A，B。", en "Customer: A B".
    const bool same_speaker = !out.sentences.empty() &&
                              p.units[static_cast<std::size_t>(out.sentences.back().unit)].speaker == unit.speaker;
    s.shares_label = same_speaker;
    if (p.lang == Lang::zh) {
      static const std::string kStop = "。";
      if (same_speaker) out.summary.replace(out.summary.size() - kStop.size(), kStop.size(), "，" + s.body);
      else out.summary += s.text;
    } else {
      if (!out.summary.empty()) out.summary += ' ';
      out.summary += same_speaker ? s.body : s.text;
    }
    out.sentences.push_back(std::move(s));
  }
  for (std::size_t m = 0; m < p.mentions.size(); ++m) {
    const auto& mention = p.mentions[m];
    if (!mention.expressed) continue;
    SummaryEmotion e;
    e.term = mention.term;
    e.turn = mention.turn;
    e.start = static_cast<long>(mention.char_start);
    e.end = static_cast<long>(mention.char_end);
    e.emotion = text::to_string(mention.emotion);
    e.in_summary = mention_kept(m);
    out.emotions.push_back(std::move(e));
  }
  out.constraint_satisfied = !p.customer_expressed_emotion() || keeps_emotion_in(selected);
  return out;
}

}  // namespace kessel::summarize
