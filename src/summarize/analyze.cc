// The four constraint quadrants of a dialogue file (include/kessel/summarize/analyze.h).
#include "kessel/summarize/analyze.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <unordered_map>

#include "kessel/text/tokenize.h"
#include "kessel/text/utf8.h"
#include "summarize/oracle.h"
#include "util/timer.h"

namespace kessel::summarize {

Analysis analyze(const std::vector<text::Dialogue>& dialogues, const text::Lexicon& lexicon, const Scorer& scorer,
                 const DecodeOptions& options, std::size_t top,
                 const std::function<void(std::size_t done)>& progress) {
  Analysis a;
  a.dialogues = dialogues.size();
  a.scorer = scorer.name();
  double t_prepare = 0, t_decode = 0, t_oracle = 0;
  std::vector<LayerCost> parts;  // the scorer's, summed over dialogues in first-seen order
  std::vector<LayerCost> cost;
  std::unordered_map<std::string, std::size_t> token_counts, term_counts;
  std::size_t customer_units = 0, oracle_selected = 0, oracle_units = 0, with_emotion = 0;
  std::size_t bound = 0, satisfied = 0, over_budget = 0, turns_with_emoji = 0, with_times = 0;
  std::size_t turn_chars = 0, char_budget = 0, rendered = 0;
  bool first_span = true;

  for (const auto& dialogue : dialogues) {
    Timer timer;
    const Prepared p = prepare(dialogue, lexicon);
    t_prepare += timer.milliseconds();
    cost.clear();
    const UnitScores scores = scorer.score_profiled(p, cost);
    if (!scores.attention_kernel.empty()) ++a.attention_kernels[scores.attention_kernel];
    for (const auto& c : cost) {
      auto it = std::find_if(parts.begin(), parts.end(), [&](const LayerCost& x) { return x.layer == c.layer; });
      if (it == parts.end()) {
        parts.push_back(c);
      } else {
        it->ms += c.ms;
        it->flops += c.flops;
      }
    }
    timer.reset();
    const Summary s = decode(p, scores, options);
    t_decode += timer.milliseconds();

    a.turns += dialogue.turns.size();
    a.units += p.units.size();
    a.units_per_dialogue_max = std::max(a.units_per_dialogue_max, p.units.size());
    for (const auto& u : p.units) customer_units += u.speaker == text::Speaker::customer ? 1 : 0;
    if (p.customer_expressed_emotion()) ++with_emotion;
    for (const auto& m : p.mentions) {
      if (!m.expressed) continue;
      ++a.emotion_counts[text::to_string(m.emotion)];
      ++term_counts[m.term];
    }
    char_budget += scores.max_chars > 0 ? 1 : 0;  // the scorer's own, per dialogue
    rendered += scores.unit_text.empty() ? 0 : 1;
    bound += s.constraint_bound ? 1 : 0;
    satisfied += s.constraint_satisfied ? 1 : 0;
    over_budget += static_cast<int>(p.units.size()) > options.max_sentences ? 1 : 0;

    const auto refs = reference_texts(dialogue, p.lang);
    if (!refs.empty()) {
      timer.reset();
      oracle_selected += greedy_oracle(p, refs).size();
      t_oracle += timer.milliseconds();
      oracle_units += p.units.size();
      ++a.with_references;
    }

    bool timed = true;
    double first = 0, last = 0;
    for (std::size_t t = 0; t < dialogue.turns.size(); ++t) {
      const auto& turn = dialogue.turns[t];
      text::TokenizeOptions to;
      to.utf8 = text::Utf8Mode::lossy;
      to.terms = &lexicon.matcher();
      bool emoji = false;
      for (const auto& tok : text::tokenize(turn.text, to)) {
        ++a.tokens;
        ++token_counts[tok.lower];
        if (tok.kind != text::TokenKind::cjk && tok.kind != text::TokenKind::word &&
            tok.kind != text::TokenKind::punct && tok.kind != text::TokenKind::number)
          ++a.token_kinds[text::to_string(tok.kind)];
        emoji = emoji || tok.kind == text::TokenKind::emoji;
      }
      turns_with_emoji += emoji ? 1 : 0;
      const std::size_t chars = text::decode_utf8(turn.text, text::Utf8Mode::lossy).size();
      turn_chars += chars;
      a.turn_chars_max = std::max(a.turn_chars_max, chars);
      if (!turn.time) {
        timed = false;
      } else {
        // Earliest to latest, not first to last turn: sources do give times out of order, and a
        // duration is never negative.
        first = t == 0 ? *turn.time : std::min(first, *turn.time);
        last = t == 0 ? *turn.time : std::max(last, *turn.time);
      }
    }
    if (timed && !dialogue.turns.empty()) {
      ++with_times;
      const double span = last - first;
      a.time_span_s_min = first_span ? span : std::min(a.time_span_s_min, span);
      a.time_span_s_max = first_span ? span : std::max(a.time_span_s_max, span);
      first_span = false;
    }
    if (progress) progress(static_cast<std::size_t>(&dialogue - dialogues.data()) + 1);
  }

  const double n = std::max<std::size_t>(1, a.dialogues);
  auto stage = [&](std::string name, double ms, double gflop) {
    a.stages.push_back({std::move(name), ms, ms / n, gflop});
  };
  stage("prepare: tokenize, emotions, units", t_prepare, 0.0);
  for (const auto& c : parts) stage("score: " + c.layer, c.ms, c.flops * 1e-9);
  stage("decode: MMR + emotion constraint", t_decode, 0.0);
  if (a.with_references) stage("greedy ROUGE oracle (labels)", t_oracle, 0.0);

  a.vocabulary = token_counts.size();
  for (const auto& [token, count] : token_counts) {
    const double pr = static_cast<double>(count) / static_cast<double>(a.tokens);
    a.token_entropy_bits -= pr * std::log2(pr);
  }
  a.units_per_dialogue_mean = static_cast<double>(a.units) / n;
  a.customer_unit_share = a.units ? static_cast<double>(customer_units) / static_cast<double>(a.units) : 0.0;
  a.oracle_positive_share = oracle_units ? static_cast<double>(oracle_selected) / static_cast<double>(oracle_units) : 0.0;
  a.dialogues_with_customer_emotion = static_cast<double>(with_emotion) / n;
  std::vector<std::pair<std::string, std::size_t>> terms(term_counts.begin(), term_counts.end());
  std::sort(terms.begin(), terms.end(), [](const auto& x, const auto& y) {
    return x.second != y.second ? x.second > y.second : x.first < y.first;
  });
  if (terms.size() > top) terms.resize(top);
  a.top_terms = std::move(terms);
  if (options.emotion_constraint)
    a.enforced.push_back("emotion constraint (hard: keep one expressed customer emotion)");
  a.enforced.push_back("sentence budget (" + std::to_string(options.max_sentences) + " units)");
  if (char_budget > 0) a.enforced.push_back("character budget (the model's, per dialogue)");
  else if (options.max_chars > 0)
    a.enforced.push_back("character budget (" + std::to_string(options.max_chars) + " code points)");
  if (options.f1_stop_chars > 0.0f) {
    char buf[128];
    std::snprintf(buf, sizeof buf, "expected-F1 stop (prior reference length %.0f chars)", options.f1_stop_chars);
    a.enforced.push_back(buf);
  }
  if (options.redundancy > 0.0f) a.enforced.push_back("redundancy control (MMR)");
  if (rendered > 0) a.enforced.push_back("rendering: token deletion (zh) or addressing removal and, when the model has it, reported speech (en)");
  a.constraint_binds = static_cast<double>(bound) / n;
  a.constraint_satisfied = static_cast<double>(satisfied) / n;
  a.budget_binds = static_cast<double>(over_budget) / n;
  a.turns_with_emoji = a.turns ? static_cast<double>(turns_with_emoji) / static_cast<double>(a.turns) : 0.0;
  a.dialogues_with_times = static_cast<double>(with_times) / n;
  a.turn_chars_mean = a.turns ? static_cast<double>(turn_chars) / static_cast<double>(a.turns) : 0.0;
  return a;
}

}  // namespace kessel::summarize
