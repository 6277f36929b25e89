// EACA training: labels (greedy ROUGE oracle, human extractive selections, emotion targets), the
// length budget from the training summaries, AdamW over shuffled mini-batches, dev ROUGE-L early
// stopping. Deterministic for a seed: single-threaded kernels and a fixed shuffling stream.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <string>

#include "kessel/error.h"
#include "kessel/summarize/eaca.h"
#include "kessel/text/lexicon.h"
#include "kessel/text/rouge.h"
#include "summarize/adamw.h"
#include "summarize/eaca_features.h"
#include "summarize/eaca_model.h"
#include "summarize/oracle.h"

namespace kessel::summarize {

namespace {

struct Example {
  Prepared prepared;
  UnitFeatures features;
  EacaTargets targets;
  std::vector<int> oracle;
  int oracle_chars = 0;
};

std::uint64_t splitmix(std::uint64_t& state) {
  std::uint64_t z = (state += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

// Fisher-Yates with our own generator: std::shuffle's use of the engine is implementation-defined.
void shuffle(std::vector<int>& v, std::uint64_t& state) {
  for (std::size_t i = v.size(); i > 1; --i) {
    const std::size_t j = static_cast<std::size_t>(splitmix(state) % i);
    std::swap(v[i - 1], v[j]);
  }
}

bool contains_term(const std::vector<std::string>& refs, const std::string& term, Lang lang) {
  const std::string needle = lang == Lang::en ? text::normalize_term(term) : term;
  for (const auto& r : refs) {
    const std::string hay = lang == Lang::en ? text::normalize_term(r) : r;
    if (!needle.empty() && hay.find(needle) != std::string::npos) return true;
  }
  return false;
}

Example make_example(const text::Dialogue& dialogue, const text::Lexicon& lexicon, const EacaDims& dims,
                     float human_weight) {
  Example ex;
  ex.prepared = prepare(dialogue, lexicon);
  const Prepared& p = ex.prepared;
  ex.features = compute_features(p, dims.V);
  const auto refs = reference_texts(dialogue, p.lang);
  ex.oracle = greedy_oracle(p, refs);
  const std::size_t U = p.units.size();
  std::vector<float> oracle(U, 0.0f);
  for (int u : ex.oracle) {
    oracle[static_cast<std::size_t>(u)] = 1.0f;
    ex.oracle_chars += p.units[static_cast<std::size_t>(u)].chars;
  }
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

float quantile(std::vector<int> v, float q) {
  if (v.empty()) return 0.0f;
  std::sort(v.begin(), v.end());
  const auto i = static_cast<std::size_t>(std::clamp(q, 0.0f, 1.0f) * static_cast<float>(v.size() - 1) + 0.5f);
  return static_cast<float>(v[i]);
}

std::string eta(double seconds) {
  const long s = std::lround(std::max(0.0, seconds));
  char buf[32];
  std::snprintf(buf, sizeof buf, "%ld:%02ld", s / 60, s % 60);
  return buf;
}

}  // namespace

DevRouge evaluate_rouge(const std::vector<text::Dialogue>& dialogues, const text::Lexicon& lexicon,
                        const Scorer& scorer, const DecodeOptions& options) {
  DevRouge out;
  for (const auto& dialogue : dialogues) {
    const Prepared p = prepare(dialogue, lexicon);
    const auto refs = reference_texts(dialogue, p.lang);
    if (refs.empty()) continue;
    const Summary s = decode(p, scorer.score(p), options);
    const auto r = text::rouge_multi(s.summary, refs, p.lang == Lang::zh ? text::RougeLang::zh : text::RougeLang::en,
                                     text::ZhSplit::period);
    out.rouge1 += r.best.rouge1.f1;
    out.rouge2 += r.best.rouge2.f1;
    out.rougeL += r.best.rougeL.f1;
    ++out.dialogues;
  }
  if (out.dialogues > 0) {
    const double k = 100.0 / out.dialogues;
    out.rouge1 *= k;
    out.rouge2 *= k;
    out.rougeL *= k;
  }
  return out;
}

EacaModel train_eaca(const std::vector<text::Dialogue>& train, const std::vector<text::Dialogue>& dev,
                     const text::Lexicon& lexicon, const EacaConfig& config_in, const TrainOptions& o,
                     TrainResult* result) {
  KESSEL_CHECK_ARG(o.epochs >= 1, "train_eaca: epochs must be >= 1, got ", o.epochs);
  KESSEL_CHECK_ARG(o.batch_size >= 1, "train_eaca: batch_size must be >= 1, got ", o.batch_size);
  KESSEL_CHECK_ARG(o.patience >= 1, "train_eaca: patience must be >= 1, got ", o.patience);
  KESSEL_CHECK_ARG(o.warmup_fraction >= 0.0f && o.warmup_fraction <= 1.0f,
                   "train_eaca: warmup_fraction must be in [0, 1], got ", o.warmup_fraction);
  KESSEL_CHECK_ARG(o.human_label_weight >= 0.0f && o.human_label_weight <= 1.0f,
                   "train_eaca: human_label_weight must be in [0, 1], got ", o.human_label_weight);
  KESSEL_CHECK_ARG(o.budget_quantile >= 0.0f && o.budget_quantile <= 1.0f,
                   "train_eaca: budget_quantile must be in [0, 1], got ", o.budget_quantile);
  const auto start = std::chrono::steady_clock::now();
  auto elapsed = [&] { return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(); };

  EacaConfig config = config_in;
  const EacaDims dims = dims_of(config);
  std::vector<Example> examples;
  int no_reference = 0;
  for (const auto& d : train) {
    Example ex = make_example(d, lexicon, dims, o.human_label_weight);
    if (ex.targets.has_emotion < 0.0f) {
      ++no_reference;
      continue;
    }
    examples.push_back(std::move(ex));
  }
  KESSEL_CHECK_ARG(!examples.empty(), "train_eaca: none of the ", train.size(),
                   " training dialogues has a reference summary");
  int dev_refs = 0;
  for (const auto& d : dev) dev_refs += !d.references.empty();
  KESSEL_CHECK_ARG(dev_refs > 0, "train_eaca: none of the ", dev.size(), " dev dialogues has a reference summary");

  // Budget from the training summaries: the oracle's length is the length the references reward.
  std::vector<int> sizes, chars;
  for (const auto& ex : examples) {
    if (ex.oracle.empty()) continue;
    sizes.push_back(static_cast<int>(ex.oracle.size()));
    chars.push_back(ex.oracle_chars);
  }
  if (!sizes.empty()) {
    config.max_sentences = std::max(1, static_cast<int>(quantile(sizes, 0.9f)));
    config.max_chars = o.budget_quantile > 0.0f ? std::max(1, static_cast<int>(quantile(chars, o.budget_quantile))) : 0;
  }
  if (o.verbose)
    std::fprintf(stderr, "train: %zu dialogues (%d without reference skipped), dev %d | budget %d units, %d chars\n",
                 examples.size(), no_reference, dev_refs, config.max_sentences, config.max_chars);

  EacaModel model(config, o.seed);
  auto& params = model.parameters();
  const std::int64_t P = static_cast<std::int64_t>(params.size());
  std::vector<float> grads(params.size(), 0.0f);
  std::vector<std::uint8_t> decay(params.size(), 0);
  for (const auto& s : eaca_param_specs(dims))
    std::fill(decay.begin() + s.offset, decay.begin() + s.offset + s.size(), s.decay ? 1 : 0);
  const std::int64_t steps_per_epoch = (static_cast<std::int64_t>(examples.size()) + o.batch_size - 1) / o.batch_size;
  AdamWOptions ao;
  ao.lr = o.lr;
  ao.weight_decay = o.weight_decay;
  ao.total_steps = steps_per_epoch * o.epochs;
  ao.warmup_steps = static_cast<std::int64_t>(o.warmup_fraction * static_cast<float>(ao.total_steps));
  AdamW opt(P, decay, ao);

  const EacaWeights w = carve_weights(params.data(), dims);
  const EacaWeights gw = carve_weights(grads.data(), dims);
  const EacaSwitches sw{config.context_encoder, config.emotion_attention, config.time_decay};
  const LossWeights lw{o.coverage_weight, o.source_weight};

  std::vector<int> order(examples.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = static_cast<int>(i);
  std::uint64_t rng = o.seed ^ 0x5eed5eed5eedull;
  TrainResult res;
  std::vector<float> best = params;
  double best_score = -1.0;
  int since_best = 0;
  EacaActivations act;
  for (int epoch = 1; epoch <= o.epochs; ++epoch) {
    const double epoch_start = elapsed();
    shuffle(order, rng);
    double loss_sum = 0.0;
    for (std::size_t b0 = 0; b0 < order.size(); b0 += static_cast<std::size_t>(o.batch_size)) {
      const std::size_t b1 = std::min(order.size(), b0 + static_cast<std::size_t>(o.batch_size));
      std::fill(grads.begin(), grads.end(), 0.0f);
      for (std::size_t b = b0; b < b1; ++b) {
        const Example& ex = examples[static_cast<std::size_t>(order[b])];
        eaca_forward(act, w, dims, sw, ex.features, ex.prepared.mention_unit);
        loss_sum += eaca_backward(gw, act, w, dims, sw, ex.features, ex.prepared.mention_unit, ex.targets, lw);
      }
      const float inv = 1.0f / static_cast<float>(b1 - b0);
      for (auto& g : grads) g *= inv;
      opt.step(params.data(), grads.data());
    }
    const double train_seconds = elapsed() - epoch_start;
    const DevRouge r = evaluate_rouge(dev, lexicon, model, model.decode_options());
    EpochLog log;
    log.epoch = epoch;
    log.loss = loss_sum / static_cast<double>(examples.size());
    log.dev_rouge1 = r.rouge1;
    log.dev_rouge2 = r.rouge2;
    log.dev_rougeL = r.rougeL;
    log.dialogues_per_second = static_cast<double>(examples.size()) / std::max(1e-9, train_seconds);
    res.epochs.push_back(log);
    if (r.rougeL > best_score) {
      best_score = r.rougeL;
      best = params;
      res.best_epoch = epoch;
      since_best = 0;
    } else {
      ++since_best;
    }
    const double per_epoch = elapsed() / epoch;
    const int left = std::min(o.epochs - epoch, o.patience - since_best);
    if (o.verbose)
      std::fprintf(stderr, "epoch %d | loss %.4f | dev ROUGE-L %.1f | %.0f dlg/s | ETA %s\n", epoch, log.loss,
                   r.rougeL, log.dialogues_per_second, eta(per_epoch * std::max(0, left)).c_str());
    if (since_best >= o.patience) {
      if (o.verbose) std::fprintf(stderr, "early stop: no dev ROUGE-L gain for %d epochs\n", o.patience);
      break;
    }
  }
  params = best;
  res.best_dev_rougeL = best_score;
  if (o.select_budget && config.max_chars > 0) {
    // A proper dev selection of the char budget around the training-derived one: char ROUGE is very
    // sensitive to length, and the oracle's length (R1+R2 optimal) is not the ROUGE-L optimal one.
    const int base = config.max_chars;
    int chosen = base;
    double chosen_score = -1.0;
    for (float factor : {0.8f, 1.0f, 1.2f, 1.4f, 1.6f, 1.8f, 2.0f}) {
      DecodeOptions d = model.decode_options();
      d.max_chars = std::max(1, static_cast<int>(std::lround(factor * static_cast<float>(base))));
      const double score = evaluate_rouge(dev, lexicon, model, d).rougeL;
      if (o.verbose) std::fprintf(stderr, "budget %d chars: dev ROUGE-L %.2f\n", d.max_chars, score);
      if (score > chosen_score + 1e-9) {
        chosen_score = score;
        chosen = d.max_chars;
      }
    }
    model.mutable_config().max_chars = chosen;
    res.best_dev_rougeL = chosen_score;
    best_score = chosen_score;
    if (o.verbose) std::fprintf(stderr, "budget: chose %d chars on dev (training oracle median %d)\n", chosen, base);
  }
  res.seconds = elapsed();
  auto& meta = model.metadata();
  meta["lexicon"] = lexicon.identity();
  meta["data"] = o.data_name;
  meta["train_dialogues"] = std::to_string(examples.size());
  meta["seed"] = std::to_string(o.seed);
  meta["best_epoch"] = std::to_string(res.best_epoch);
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.2f", best_score);
  meta["dev_rougeL"] = buf;
  if (o.verbose)
    std::fprintf(stderr, "best epoch %d | dev ROUGE-L %.2f | %.1f s\n", res.best_epoch, best_score, res.seconds);
  if (result) *result = res;
  return model;
}

}  // namespace kessel::summarize
