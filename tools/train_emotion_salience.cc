// train_emotion_salience: fits the learned choice of the customer's strongest feeling
// (src/summarize/emotion_salience.h) on the DEVELOPMENT emotion labels only, checks it by
// cross-validation inside them, and prints the weight table.
//
//   cmake --build build --target train_emotion_salience
//   ./build/train_emotion_salience > src/summarize/emotion_salience_weights.inc
//
// Defaults: CSDS val.jsonl with tests/data/emotion_labels/csds_val_dev.jsonl + csds_val_dev2.jsonl (zh) and TweetSumm
// train.jsonl with tweetsumm_train_dev.jsonl + tweetsumm_train_dev2.jsonl (en), data from ../shared/data of the source tree
// (--data-dir DIR). The report (stderr) gives, per language, the share of labelled dialogues with
// an emotion whose chosen unit holds the strongest expression (or an equal one) in 5-fold CV, for
// the rule (the unit of the strongest expressed mention) and for the learned choice, and the figure
// the threshold trades it against: dialogues labelled without emotion where the learned choice
// would force a unit the rule would not.
//
// The model: a conditional logit over a dialogue's customer units and "none" (emotion_salience.h),
// fitted by maximum likelihood: a dialogue with an emotion is explained by its positive units
// (those that overlap the strongest labelled expression or an equal one: same emotion, at least its
// intensity), one without by "none"; L2 weight 0.03 (not on the bias; --l2), full-batch gradient
// descent, 2000 steps. The threshold: the smallest probability the best unit must reach, chosen on
// the training folds (on all dev dialogues for the table) to maximise hits - 0.5 x forced units on
// dialogues without emotion, from 0.05 to 0.95 by 0.05.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <string>
#include <vector>

#include "../src/summarize/emotion_salience.h"
#include "kessel/summarize/emotion_labels.h"
#include "kessel/text/dialogue.h"
#include "kessel/text/lexicon.h"
#include "kessel/text/utf8.h"

using namespace kessel;
using namespace kessel::summarize;

namespace {

struct Example {
  salience::Features f{};
  bool positive = false;
};

// A labelled dialogue as the trainer sees it: its customer units' examples, whether it has an
// emotion, and the rule's choice (the index among `units` of the strongest expressed mention's
// unit, -1: none).
struct Item {
  std::vector<Example> units;
  bool emotion = false;
  int rule = -1;
};

std::int64_t chars_before(const std::string& s, long bytes) {
  return static_cast<std::int64_t>(
      text::decode_utf8(std::string_view(s).substr(0, static_cast<std::size_t>(bytes)),
                        text::Utf8Mode::lossy)
          .size());
}

std::vector<Item> load(const std::string& data, const std::string& labels_path,
                       const text::Lexicon& lexicon) {
  const auto labels = load_emotion_labels(labels_path);
  text::ReadResult read = text::read_dialogues(data);
  std::vector<Item> items;
  for (const auto& d : read.dialogues) {
    const DialogueLabels* l = labels.find(d.id);
    if (l == nullptr) continue;
    check_labels_fit(*l, d);
    const Prepared p = prepare(d, lexicon);
    const LabelledExpression* top = l->strongest();
    Item item;
    item.emotion = top != nullptr;
    double rule_strength = 0.0;
    for (std::size_t u = 0; u < p.units.size(); ++u) {
      const Unit& unit = p.units[u];
      if (unit.speaker != text::Speaker::customer) continue;
      Example e;
      e.f = salience::unit_features(p, u);
      if (top != nullptr && unit.byte_start >= 0) {
        const std::string& turn = d.turns[static_cast<std::size_t>(unit.turn)].text;
        const std::int64_t a = chars_before(turn, unit.byte_start), b = a + unit.chars;
        for (const auto& x : l->expressions)
          if ((&x == top || (x.emotion == top->emotion && x.intensity >= top->intensity)) &&
              x.turn == unit.turn && x.start < b && a < x.end)
            e.positive = true;
      }
      if (e.f[1] > rule_strength + 1e-9) {
        rule_strength = e.f[1];
        item.rule = static_cast<int>(item.units.size());
      }
      item.units.push_back(e);
    }
    items.push_back(std::move(item));
  }
  return items;
}

// A dialogue's unit logits s_u = w . f_u and the model's probabilities: unit u exp(s_u) / Z, no
// unit 1 / Z, with Z = 1 + sum_v exp(s_v) (emotion_salience.h).
std::vector<double> choice(const std::vector<double>& w, const Item& it) {
  std::vector<double> s(it.units.size());
  double top = 0.0;
  for (std::size_t u = 0; u < s.size(); ++u) {
    s[u] = 0.0;
    for (int k = 0; k < salience::kNumFeatures; ++k)
      s[u] += w[static_cast<std::size_t>(k)] * it.units[u].f[static_cast<std::size_t>(k)];
    top = std::max(top, s[u]);
  }
  double z = std::exp(-top);
  for (double& x : s) z += (x = std::exp(x - top));
  for (double& x : s) x /= z;
  return s;
}

double g_l2 = 3e-2;  // --l2 (0.003, 0.03, 0.1, 0.3 tried in the dev CV; docs/eaca.md)

salience::Weights fit(const std::vector<const Item*>& items) {
  const double l2 = g_l2, rate = 1.0;
  std::vector<double> w(salience::kNumFeatures, 0.0);
  for (int iter = 0; iter < 2000; ++iter) {
    std::vector<double> g(salience::kNumFeatures, 0.0);
    int n = 0;
    for (const Item* it : items) {
      double pos = 0.0;
      for (const auto& e : it->units) pos += e.positive ? 1.0 : 0.0;
      if (it->emotion && pos == 0.0)
        continue;  // the labelled unit is not one of the units (a rewritten turn)
      ++n;
      const std::vector<double> pr = choice(w, *it);
      double in_pos = 0.0;
      for (std::size_t u = 0; u < pr.size(); ++u) in_pos += it->units[u].positive ? pr[u] : 0.0;
      for (std::size_t u = 0; u < pr.size(); ++u) {
        const double target =
            it->units[u].positive ? pr[u] / in_pos : 0.0;  // the posterior within the positives
        for (int k = 0; k < salience::kNumFeatures; ++k)
          g[static_cast<std::size_t>(k)] +=
              (pr[u] - target) * it->units[u].f[static_cast<std::size_t>(k)];
      }
    }
    for (int k = 0; k < salience::kNumFeatures; ++k) {
      const auto kk = static_cast<std::size_t>(k);
      w[kk] -= rate * (g[kk] / std::max(1, n) + (k == 0 ? 0.0 : l2 * w[kk]));
    }
  }
  salience::Weights out;
  for (int k = 0; k < salience::kNumFeatures; ++k)
    out.w[static_cast<std::size_t>(k)] = static_cast<float>(w[static_cast<std::size_t>(k)]);
  return out;
}

// What a choice does on `items`: dialogues with an emotion whose chosen unit is positive, and
// dialogues without one where the learned choice forces a unit the rule would not.
struct Outcome {
  int hits = 0, rule_hits = 0, emotion = 0, new_forced = 0, without = 0;
};

Outcome judge(const std::vector<const Item*>& items, const salience::Weights& w) {
  Outcome o;
  for (const Item* it : items) {
    std::vector<double> wd(w.w.begin(), w.w.end());
    const std::vector<double> pr = choice(wd, *it);
    int best = -1;
    double best_p = -1.0;
    for (std::size_t u = 0; u < pr.size(); ++u)
      if (pr[u] > best_p) {
        best_p = pr[u];
        best = static_cast<int>(u);
      }
    // As the decoder: without w.when_undetected, the learned choice only where the detector found
    // an expressed customer mention.
    const bool applies = it->rule >= 0 || w.when_undetected;
    const int chosen = applies && best_p >= static_cast<double>(w.threshold) ? best : it->rule;
    if (it->emotion) {
      ++o.emotion;
      if (chosen >= 0 && it->units[static_cast<std::size_t>(chosen)].positive) ++o.hits;
      if (it->rule >= 0 && it->units[static_cast<std::size_t>(it->rule)].positive) ++o.rule_hits;
    } else {
      ++o.without;
      if (it->rule < 0 && chosen >= 0) ++o.new_forced;
    }
  }
  return o;
}

salience::Weights fit_with_threshold(const std::vector<const Item*>& items, bool when_undetected) {
  salience::Weights w = fit(items);
  w.when_undetected = when_undetected;
  double best = -1e9;
  float chosen = 0.5f;
  for (int t = 1; t <= 19; ++t) {
    w.threshold = 0.05f * static_cast<float>(t);
    const Outcome o = judge(items, w);
    const double value = o.hits - 0.5 * o.new_forced;
    if (value > best + 1e-9) {
      best = value;
      chosen = w.threshold;
    }
  }
  w.threshold = chosen;
  return w;
}

void print(const char* name, const salience::Weights& w) {
  std::printf("constexpr Weights %s = {\n    {", name);
  for (int k = 0; k < salience::kNumFeatures; ++k)
    std::printf("%s%.4ff /* %s */", k == 0 ? "" : ",\n     ",
                static_cast<double>(w.w[static_cast<std::size_t>(k)]),
                salience::feature_names()[static_cast<std::size_t>(k)]);
  std::printf("},\n    %.2ff,\n    %s};\n", static_cast<double>(w.threshold),
              w.when_undetected ? "true" : "false");
}

salience::Weights train(const char* lang, const std::vector<Item>& all, int folds,
                        bool when_undetected) {
  Outcome cv;
  for (int f = 0; f < folds; ++f) {
    std::vector<const Item*> tr, te;
    for (std::size_t i = 0; i < all.size(); ++i)
      (static_cast<int>(i) % folds == f ? te : tr).push_back(&all[i]);
    const Outcome o = judge(te, fit_with_threshold(tr, when_undetected));
    cv.hits += o.hits;
    cv.rule_hits += o.rule_hits;
    cv.emotion += o.emotion;
    cv.new_forced += o.new_forced;
    cv.without += o.without;
  }
  std::fprintf(stderr,
               "%s: %zu dialogues, %d with emotion; %d-fold CV, chosen unit holds the strongest: "
               "rule %d (%.1f%%), "
               "learned %d (%.1f%%); units forced where the labels have no emotion and the rule "
               "none: %d of %d\n",
               lang, all.size(), cv.emotion, folds, cv.rule_hits,
               100.0 * cv.rule_hits / std::max(1, cv.emotion), cv.hits,
               100.0 * cv.hits / std::max(1, cv.emotion), cv.new_forced, cv.without);
  std::vector<const Item*> every;
  for (const auto& it : all) every.push_back(&it);
  const salience::Weights w = fit_with_threshold(every, when_undetected);
  const Outcome o = judge(every, w);
  std::fprintf(
      stderr,
      "%s: fitted on all, threshold %.2f: in-sample %d of %d (rule %d), new forced %d of %d\n",
      lang, static_cast<double>(w.threshold), o.hits, o.emotion, o.rule_hits, o.new_forced,
      o.without);
  return w;
}

}  // namespace

int main(int argc, char** argv) {
  std::string dir = KESSEL_SOURCE_DIR "/../shared/data";
  int folds = 5;
  bool no_undetected = false, english = false;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--data-dir") == 0 && i + 1 < argc)
      dir = argv[++i];
    else if (std::strcmp(argv[i], "--folds") == 0 && i + 1 < argc)
      folds = std::atoi(argv[++i]);
    else if (std::strcmp(argv[i], "--l2") == 0 && i + 1 < argc)
      g_l2 = std::atof(argv[++i]);
    else if (std::strcmp(argv[i], "--only-detected") == 0)
      no_undetected = true;
    else if (std::strcmp(argv[i], "--english") == 0)
      english = true;
    else {
      std::fprintf(stderr,
                   "usage: train_emotion_salience [--data-dir DIR] [--folds K] [--l2 L] "
                   "[--only-detected] [--english]\n");
      return 2;
    }
  }
  if (folds < 2) {
    std::fprintf(stderr, "train_emotion_salience: --folds must be >= 2, got %d\n", folds);
    return 2;
  }
  const text::Lexicon lexicon = text::load_default_lexicon(KESSEL_SOURCE_DIR "/data/lexicon");
  const std::string labels = KESSEL_SOURCE_DIR "/tests/data/emotion_labels/";
  const bool when_undetected = !no_undetected;
  // Both CSDS development files: csds_val_dev.jsonl (100) and csds_val_dev2.jsonl (150 more, disjoint).
  auto zh_items = load(dir + "/csds/val.jsonl", labels + "csds_val_dev.jsonl", lexicon);
  for (auto& it : load(dir + "/csds/val.jsonl", labels + "csds_val_dev2.jsonl", lexicon))
    zh_items.push_back(std::move(it));
  const auto zh = train("zh", zh_items, folds, when_undetected);
  // Both TweetSumm development files: tweetsumm_train_dev.jsonl (80) and tweetsumm_train_dev2.jsonl (60).
  auto en_items = load(dir + "/tweetsumm/train.jsonl", labels + "tweetsumm_train_dev.jsonl", lexicon);
  for (auto& it : load(dir + "/tweetsumm/train.jsonl", labels + "tweetsumm_train_dev2.jsonl", lexicon))
    en_items.push_back(std::move(it));
  auto en = train("en", en_items, folds, when_undetected);
  // English is off (a threshold above 1 is never reached): where nothing was detected the choice
  // cost TweetSumm CV about 1.2 ROUGE-L, below issue 22's floor, and only where something was
  // detected it lost to the rule in the dev CV (41 against 43 of 79); docs/eaca.md.
  if (!english) en.threshold = 2.0f;
  std::printf(
      "// Generated by tools/train_emotion_salience.cc from the development emotion labels\n"
      "// (tests/data/emotion_labels/*_dev*.jsonl); do not edit by hand. emotion_salience.h says "
      "what it is.\n");
  print("kWeightsZh", zh);
  print("kWeightsEn", en);
  return 0;
}
