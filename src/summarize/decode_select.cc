// The decoder's context and its greedy MMR selection (decode_parts.h), and the expected-F1 stop. What a
// unit needs beside it (answers, continuations, fragments) is decode_answers.cc's.
#include <algorithm>
#include <cmath>
#include <map>
#include <string_view>

#include "decode_parts.h"
#include "kessel/error.h"
#include "render.h"
#include "summarize/content.h"
#include "summarize/zh_questions.h"
#include "kessel/text/utf8.h"

namespace kessel::summarize {

namespace decoding {

namespace {

// What makes two rendered units the same sentence to a reader: their code points without spaces
// and punctuation, ASCII lowercased ("Ok thanks!" and "ok, thanks" match; "-Chris" twice matches).
std::u32string repeat_key(const std::vector<char32_t>& cps) {
  std::u32string key;
  for (char32_t cp : cps) {
    if (text::is_space(cp) || text::is_punct(cp)) continue;
    key.push_back(cp >= U'A' && cp <= U'Z' ? cp - U'A' + U'a' : cp);
  }
  return key;
}

// zh: what a unit says, for said_within: its repeat key without the particles that close a clause
// (预计呢 says what 预计一周左右呢 says; 呢 哦 哈 啊 呀 啦 嘛 噢 喔 哒 滴 哟 before a mark or the end).
std::u32string said_key(const std::vector<char32_t>& cps) {
  constexpr std::u32string_view kClosing = U"呢哦哈啊呀啦嘛噢喔哒滴哟";
  std::u32string key;
  for (std::size_t i = 0; i < cps.size(); ++i) {
    const char32_t cp = cps[i];
    if (text::is_space(cp) || text::is_punct(cp)) continue;
    const bool closes = i + 1 == cps.size() || text::is_space(cps[i + 1]) || text::is_punct(cps[i + 1]);
    if (closes && kClosing.find(cp) != std::u32string_view::npos) continue;
    key.push_back(cp);
  }
  return key;
}

// Redundancy between two units: Jaccard overlap of their character bigrams (zh) or lowercase words
// (en). Cheap and language-appropriate; only relative values matter to MMR. Each unit's n-grams are
// sorted distinct ids, so an overlap is one merge: a zh bigram is its two code points packed into 64
// bits (a one-character unit its code point with the top bit set), an en word its number among the
// dialogue's distinct words. Both are exact: equal ids are equal n-grams.

// `units_cps`: each unit's code points (Prepared::unit_cps).
std::vector<Grams> dialogue_grams(const std::vector<std::vector<char32_t>>& units_cps, Lang lang) {
  std::vector<Grams> out(units_cps.size());
  std::map<std::u32string, std::uint64_t> word_ids;  // en
  for (std::size_t u = 0; u < units_cps.size(); ++u) {
    const std::vector<char32_t>& cps = units_cps[u];
    Grams& grams = out[u];
    if (lang == Lang::zh) {
      for (std::size_t i = 0; i + 1 < cps.size(); ++i)
        grams.push_back(static_cast<std::uint64_t>(cps[i]) << 32 | cps[i + 1]);
      if (cps.size() == 1) grams.push_back(std::uint64_t{1} << 63 | cps[0]);
    } else {
      std::u32string word;
      auto add = [&] {
        const auto [at, fresh] = word_ids.emplace(word, word_ids.size());
        grams.push_back(at->second);
        word.clear();
      };
      for (char32_t cp : cps) {
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

namespace {

// The letters a reader gets from a unit: zh CJK characters, digits and Latin letters; en words. An
// @handle says nothing (a tweet opens with the one it answers).
int rendered_size(const std::vector<char32_t>& cps, Lang lang) {
  int letters = 0, words = 0;
  bool in_word = false, in_handle = false;
  for (char32_t cp : cps) {
    in_handle = cp == U'@' || (in_handle && !text::is_space(cp));
    const bool letter = !in_handle && (text::is_cjk(cp) || text::is_latin_letter(cp) || text::is_digit(cp));
    letters += letter;
    words += letter && !in_word;
    in_word = letter || cp == U'\'' || cp == U'’';
  }
  return lang == Lang::zh ? letters : words;
}

// [U] the size of each unit's whole turn as written, from the units' own sizes (Context::letters).
std::vector<int> turn_sizes(const Prepared& p, const std::vector<int>& unit_size) {
  // Turns are numbered from 0 (Unit::turn), so a vector indexed by turn holds the sums: a std::map
  // allocated a node a turn in every dialogue decoded.
  int turns = 0;
  for (const Unit& unit : p.units) turns = std::max(turns, unit.turn + 1);
  std::vector<int> by_turn(static_cast<std::size_t>(turns), 0);
  for (std::size_t u = 0; u < p.units.size(); ++u)
    by_turn[static_cast<std::size_t>(p.units[u].turn)] += unit_size[u];
  std::vector<int> turn_size(p.units.size());
  for (std::size_t u = 0; u < p.units.size(); ++u)
    turn_size[u] = by_turn[static_cast<std::size_t>(p.units[u].turn)];
  return turn_size;
}

std::vector<char32_t> decoded(const std::string& text) { return text::decode_utf8(text, text::Utf8Mode::lossy).cps; }

// unit_asks(p, u) from the units' decoded source texts and which of them are zh question tails
// (render::is_question_tail), so that no unit is decoded twice.
bool asks_decoded(const Prepared& p, std::size_t u, const std::vector<std::vector<char32_t>>& sources,
                  const std::vector<char>& tails) {
  const std::string& text = p.units[u].text;
  if (p.lang == Lang::en) return text.find('?') != std::string::npos;
  const std::vector<char32_t>& cps = sources[u];
  const bool asked_next = p.lang == Lang::zh && u + 1 < p.units.size() &&  // render::asked_by_next_unit
                          p.units[u + 1].speaker == p.units[u].speaker && tails[u + 1] &&
                          !render::urges_with_marks(cps, sources[u + 1]);
  if (asked_next) return true;
  if (render::ends_as_question(cps) || render::asks_without_mark(cps, render::ends_cut_turn(p, u))) return true;
  return zh_question::holds_question_word(std::u32string_view(cps.data(), cps.size()));
}

// Units whose customer gives in with the lexicon's 算了, 行吧 or 那好吧 (Context::gives_in).
std::vector<char> giving_in_by_unit(const Prepared& p) {
  std::vector<char> out(p.units.size(), 0);
  for (std::size_t m = 0; m < p.mentions.size(); ++m) {
    const text::EmotionMention& e = p.mentions[m];
    if (e.expressed && p.mention_unit[m] >= 0 && e.kind == text::MentionKind::judgement &&
        (e.term == "算了" || e.term == "行吧" || e.term == "那好吧"))
      out[static_cast<std::size_t>(p.mention_unit[m])] = 1;
  }
  return out;
}

// The expressed emotion of every unit, one pass over the mentions (Context::expressed).
std::vector<Context::Expressed> expressed_by_unit(const Prepared& p) {
  using E = Context::Expressed;
  std::vector<E> out(p.units.size(), E::none);
  for (std::size_t m = 0; m < p.mentions.size(); ++m) {
    if (!p.mentions[m].expressed || p.mention_unit[m] < 0) continue;
    E& e = out[static_cast<std::size_t>(p.mention_unit[m])];
    if (p.mentions[m].kind == text::MentionKind::feeling) e = E::feeling;
    else if (p.mentions[m].source == "cue:resigned") e = e == E::none ? E::only_resignation : e;
    else if (e != E::feeling) e = E::no_feeling;
  }
  return out;
}


}  // namespace

bool unit_asks(const Prepared& p, std::size_t u) {
  const std::string& text = p.units[u].text;
  if (p.lang == Lang::en) return text.find('?') != std::string::npos;
  if (render::asked_by_next_unit(p, u)) return true;
  if (render::ends_as_question(text) || render::asks_without_mark(text, render::ends_cut_turn(p, u))) return true;
  return zh_question::holds_question_word(text);
}

int unit_letters(const Prepared& p, std::size_t u) { return rendered_size(p.unit_cps[u], p.lang); }

void Context::add_unit_facts() {
  const std::size_t U = p.units.size();
  question_tail.assign(U, 0);
  for (std::size_t u = 0; u < U; ++u) question_tail[u] = p.lang == Lang::zh && render::is_question_tail(source[u]);
  asking.resize(U);
  letters.resize(U);
  for (std::size_t u = 0; u < U; ++u) {
    asking[u] = asks_decoded(p, u, source, question_tail);
    letters[u] = rendered_size(source[u], p.lang);
  }
}

Context::Context(const Prepared& prepared, const UnitScores& s, const DecodeOptions& o)
    : p(prepared), scores(s), options(o), source(prepared.unit_cps) {
  const std::size_t U = p.units.size();
  unit_chars.resize(U);
  std::vector<char> shows_content(U);  // render::has_content of each unit as rendered
  for (std::size_t u = 0; u < U; ++u) {
    const std::vector<char32_t> shown = decoded(rendered(u));
    unit_chars[u] = scores.unit_text.empty() ? p.units[u].chars : static_cast<int>(shown.size());
    shows_content[u] = render::has_content(shown);
  }
  max_chars = scores.max_chars > 0 ? scores.max_chars : options.max_chars;
  if (U) {
    lo = *std::min_element(scores.salience.begin(), scores.salience.end());
    hi = *std::max_element(scores.salience.begin(), scores.salience.end());
  }
  if (options.redundancy > 0.0f) {
    grams = dialogue_grams(p.unit_cps, p.lang);
    // Redundancy control never lets a unit in twice: MMR only discounts an exact repeat, and a very
    // salient one ("客服:嗯嗯。", an agent's "-Chris" sign-off) still beats the rest. Without
    // redundancy control (the published baselines) the ranking is taken as it is.
    const bool said = options.skip_fillers && p.lang == Lang::zh;  // said_within's keys too
    for (std::size_t u = 0; u < U; ++u) {
      const std::vector<char32_t> cps = text::decode_utf8(rendered(u), text::Utf8Mode::lossy).cps;
      keys.push_back(repeat_key(cps));
      if (said) said_keys.push_back(said_key(cps));
    }
  }
  // Fillers, courtesies and sign-offs are not content (DecodeOptions::skip_fillers, content.h).
  const std::vector<char> content = options.skip_fillers ? content_mask(p) : std::vector<char>(U, 1);
  selectable.assign(U, 0);
  for (std::size_t u = 0; u < U; ++u)
    selectable[u] = unit_chars[u] > 0 && shows_content[u] && content[u];
  answers.assign(U, -1);
  continues.assign(U, -1);
  if (!options.skip_fillers) return;
  add_unit_facts();
  turn_letters = turn_sizes(p, letters);
  expressed = expressed_by_unit(p);
  gives_in = giving_in_by_unit(p);
  for (std::size_t u = 0; u < U; ++u) answers[u] = answered_unit(*this, u);
  // A tweet that goes on with its speaker's open sentence is shown after that tweet or not at all.
  for (std::size_t u = 1; u < U; ++u)
    if (answers[u] < 0 && selectable[u - 1] && render::continues_previous_tweet(p, u)) answers[u] = static_cast<int>(u - 1);
  for (std::size_t u = 1; u < U; ++u)
    if (answers[u] < 0 && continues_previous_message(*this, u)) continues[u] = static_cast<int>(u - 1);
  std::vector<char> fragments(U, 0);
  for (std::size_t u = 0; u < U; ++u) fragments[u] = is_fragment(*this, u);
  for (std::size_t u = 0; u < U; ++u)
    if (fragments[u]) selectable[u] = 0;
  leave_out_unsupported_turns();
}

void Context::leave_out_unsupported_turns() {
  if (p.unsupported_turns.empty()) return;
  std::vector<char> unsupported(p.units.size(), 0);
  bool other_content = false;
  for (std::size_t u = 0; u < p.units.size(); ++u) {
    for (const Prepared::UnsupportedTurn& t : p.unsupported_turns)
      if (t.turn == p.units[u].turn) unsupported[u] = 1;
    other_content = other_content || (selectable[u] && !unsupported[u]);
  }
  if (!other_content) return;
  for (std::size_t u = 0; u < p.units.size(); ++u)
    if (unsupported[u]) selectable[u] = 0;
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
  auto fits = [&](int sentences, int more) {
    return static_cast<int>(selected.size()) + sentences <= c.options.max_sentences &&
           (c.max_chars <= 0 || selected.empty() || chars + more <= c.max_chars);
  };
  // Each unit's largest overlap with the selected units, folded in as units are selected: a unit is
  // valued again in every round, and its overlaps with the units of earlier rounds are already in
  // max_overlap[u] (the first folded[u] of `selected`), so no pair is measured twice.
  std::vector<double> max_overlap(U, 0.0);
  std::vector<std::size_t> folded(U, 0);
  auto value_of = [&](std::size_t u) {
    for (; folded[u] < selected.size(); ++folded[u])
      max_overlap[u] = std::max(max_overlap[u], c.overlap(u, static_cast<std::size_t>(selected[folded[u]])));
    return c.mmr_value(u, max_overlap[u]);
  };
  auto take = [&](std::size_t u) {
    in[u] = 1;
    selected.push_back(static_cast<int>(u));
    chars += c.unit_chars[u];
  };
  while (static_cast<int>(selected.size()) < c.options.max_sentences) {
    std::vector<int> best;  // a unit, after what it answers that is not in yet
    double best_value = -1e300;
    for (std::size_t u = 0; u < U; ++u) {
      if (in[u] || !c.selectable[u] || c.repeats(u, selected)) continue;
      // A unit that answers a question brings it (with_what_it_answers) and says something beside it.
      if (c.answers[u] < 0 && said_within(c, u, selected)) continue;
      if (c.continues[u] >= 0 && !in[static_cast<std::size_t>(c.continues[u])]) continue;
      std::vector<int> lead;
      int more = 0;
      double value = 0.0;
      bool blocked = false;  // a repeat, or a unit that goes on with a message left out
      const std::vector<int> chain = with_what_it_answers(c, static_cast<int>(u));
      for (int v : chain) {
        const auto vx = static_cast<std::size_t>(v);
        if (in[vx]) continue;
        // What the chain brings must not go on with a message left out (银行卡的卡号 after its list).
        const int goes_on = c.continues[vx];
        blocked = blocked || c.repeats(vx, selected) ||
                  (goes_on >= 0 && !in[static_cast<std::size_t>(goes_on)] &&
                   std::find(chain.begin(), chain.end(), goes_on) == chain.end());
        lead.push_back(v);
        more += c.unit_chars[vx];
        value += value_of(vx);
      }
      if (blocked || !fits(static_cast<int>(lead.size()), more)) continue;
      value /= static_cast<double>(lead.size());
      if (value > best_value) {
        best_value = value;
        best = std::move(lead);
      }
    }
    if (best.empty()) break;
    for (int v : best) take(static_cast<std::size_t>(v));
  }
  return selected;
}

}  // namespace decoding

std::size_t expected_f1_prefix(const std::vector<int>& order, const std::vector<float>& inclusion,
                               const std::vector<int>& unit_chars, float prior_chars, double* value,
                               std::size_t min_length) {
  KESSEL_CHECK_ARG(std::isfinite(prior_chars) && prior_chars > 0.0f, "expected_f1_prefix: prior_chars must be > 0, got ",
                   prior_chars);
  const std::size_t shortest = std::min(std::max<std::size_t>(min_length, 1), order.size());
  std::size_t best = shortest;
  double best_value = -1.0, matched = 0.0, length = 0.0;
  for (std::size_t i = 0; i < order.size(); ++i) {
    const auto u = static_cast<std::size_t>(order[i]);
    KESSEL_CHECK_ARG(u < inclusion.size() && u < unit_chars.size(), "expected_f1_prefix: unit ", u, " out of range");
    KESSEL_CHECK_ARG(inclusion[u] >= 0.0f && inclusion[u] <= 1.0f, "expected_f1_prefix: inclusion[", u, "] = ",
                     inclusion[u], " is not in [0, 1]");
    matched += static_cast<double>(inclusion[u]) * unit_chars[u];
    length += unit_chars[u];
    const double v = 2.0 * matched / (length + static_cast<double>(prior_chars));
    if (i + 1 >= shortest && v > best_value) {
      best_value = v;
      best = i + 1;
    }
  }
  if (value) *value = best_value;
  return best;
}

}  // namespace kessel::summarize
