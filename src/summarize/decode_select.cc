// The decoder's context and its greedy MMR selection (decode_parts.h), and the expected-F1 stop.
#include <algorithm>
#include <cmath>
#include <map>
#include <string_view>

#include "decode_parts.h"
#include "kessel/error.h"
#include "render.h"
#include "summarize/content.h"
#include "kessel/text/utf8.h"

namespace kessel::summarize {

namespace decoding {

namespace {

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

}  // namespace

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

Context::Context(const Prepared& prepared, const UnitScores& s, const DecodeOptions& o)
    : p(prepared), scores(s), options(o) {
  const std::size_t U = p.units.size();
  unit_chars.resize(U);
  for (std::size_t u = 0; u < U; ++u)
    unit_chars[u] = scores.unit_text.empty()
                        ? p.units[u].chars
                        : static_cast<int>(text::decode_utf8(scores.unit_text[u], text::Utf8Mode::lossy).size());
  max_chars = scores.max_chars > 0 ? scores.max_chars : options.max_chars;
  if (U) {
    lo = *std::min_element(scores.salience.begin(), scores.salience.end());
    hi = *std::max_element(scores.salience.begin(), scores.salience.end());
  }
  if (options.redundancy > 0.0f) {
    grams = dialogue_grams(p.units, p.lang);
    // Redundancy control never lets a unit in twice: MMR only discounts an exact repeat, and a very
    // salient one ("客服:嗯嗯。", an agent's "-Chris" sign-off) still beats the rest. Without
    // redundancy control (the published baselines) the ranking is taken as it is.
    for (std::size_t u = 0; u < U; ++u) keys.push_back(repeat_key(rendered(u)));
  }
  // Fillers, courtesies and sign-offs are not content (DecodeOptions::skip_fillers, content.h).
  const std::vector<char> content = options.skip_fillers ? content_mask(p) : std::vector<char>(U, 1);
  selectable.assign(U, 0);
  for (std::size_t u = 0; u < U; ++u)
    selectable[u] = unit_chars[u] > 0 && render::has_content(rendered(u)) && content[u];
}

const std::string& Context::rendered(std::size_t u) const {
  return scores.unit_text.empty() ? p.units[u].text : scores.unit_text[u];
}

float Context::norm(std::size_t u) const { return hi > lo ? (scores.salience[u] - lo) / (hi - lo) : 1.0f; }

double Context::mmr_value(std::size_t u, double overlap_with_selected) const {
  return (1.0 - options.redundancy) * norm(u) - options.redundancy * overlap_with_selected;
}

double Context::overlap(std::size_t u, std::size_t v) const {
  return options.redundancy > 0.0f ? jaccard(grams[u], grams[v]) : 0.0;
}

bool Context::repeats(std::size_t u, const std::vector<int>& chosen) const {
  if (keys.empty()) return false;
  for (int s : chosen)
    if (keys[static_cast<std::size_t>(s)] == keys[u]) return true;
  return false;
}

std::vector<int> greedy_selection(const Context& c) {
  const std::size_t U = c.p.units.size();
  std::vector<int> selected;
  std::vector<char> in(U, 0);
  int chars = 0;
  while (static_cast<int>(selected.size()) < c.options.max_sentences) {
    int best = -1;
    double best_value = -1e300;
    for (std::size_t u = 0; u < U; ++u) {
      if (in[u] || !c.selectable[u] || c.repeats(u, selected)) continue;
      if (c.max_chars > 0 && !selected.empty() && chars + c.unit_chars[u] > c.max_chars) continue;
      double overlap = 0.0;
      for (int s : selected) overlap = std::max(overlap, c.overlap(u, static_cast<std::size_t>(s)));
      const double value = c.mmr_value(u, overlap);
      if (value > best_value) {
        best_value = value;
        best = static_cast<int>(u);
      }
    }
    if (best < 0) break;
    in[static_cast<std::size_t>(best)] = 1;
    selected.push_back(best);
    chars += c.unit_chars[static_cast<std::size_t>(best)];
  }
  return selected;
}

}  // namespace decoding

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

}  // namespace kessel::summarize
