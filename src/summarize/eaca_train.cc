// EACA training: AdamW over shuffled mini-batches with dev ROUGE-L early stopping, one network or an
// ensemble (dev split or cross-fitted folds), then the token-deletion model and the decoding choices.
// Labels are in eaca_labels.*, the length budget and the decoding choices in eaca_decoding_choice.*.
// Deterministic for a seed: single-threaded kernels and a fixed shuffling stream.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <optional>
#include <string>

#include "kessel/error.h"
#include "kessel/summarize/eaca.h"
#include "kessel/text/lexicon.h"
#include "kessel/text/rouge.h"
#include "kessel/text/utf8.h"
#include "summarize/adamw.h"
#include "summarize/compress.h"
#include "summarize/eaca_decoding_choice.h"
#include "summarize/eaca_features.h"
#include "summarize/eaca_labels.h"
#include "summarize/eaca_model.h"
#include "summarize/oracle.h"
#include "util/parallel.h"
#include "util/splitmix.h"

namespace kessel::summarize {

namespace {

// The token-deletion model (compress.h), trained on the tokens of the training dialogues' oracle units
// with LCS targets against their references. Chinese only: false, and nothing trained, when most
// training dialogues are not Chinese.
bool fit_compressor(const std::vector<const TrainingExample*>& examples, EacaModel& model, std::uint64_t seed, bool verbose) {
  std::size_t zh = 0;
  for (const TrainingExample* ex : examples) zh += ex->prepared.lang == Lang::zh ? 1 : 0;
  if (2 * zh <= examples.size()) return false;
  std::vector<KeepExample> data;
  double kept = 0.0;
  for (const TrainingExample* pex : examples) {
    const TrainingExample& ex = *pex;
    if (ex.prepared.lang != Lang::zh || ex.oracle.empty()) continue;
    const auto tokens = compress_features(ex.prepared, kCompressBuckets);
    for (int u : ex.oracle) {
      const UnitTokens& ut = tokens[static_cast<std::size_t>(u)];
      const std::vector<float> y = keep_targets(ut, ex.references);
      for (std::size_t t = 0; t < y.size(); ++t) {
        if (ut.forced[t]) continue;  // never deleted, nothing to learn
        const auto ids = ut.features_of(t);
        data.push_back({std::vector<std::int32_t>(ids.begin(), ids.end()), y[t]});
        kept += y[t];
      }
    }
  }
  if (data.empty()) return false;
  CompressTrainOptions co;
  co.seed = seed;
  model.compressor() = train_compressor(data, kCompressBuckets, co);
  if (verbose)
    std::fprintf(stderr, "compress: trained on %zu tokens of the oracle units (%.1f%% on a reference LCS)\n",
                 data.size(), 100.0 * kept / static_cast<double>(data.size()));
  return true;
}

std::string eta(double seconds) {
  const long s = std::lround(std::max(0.0, seconds));
  char buf[32];
  std::snprintf(buf, sizeof buf, "%ld:%02ld", s / 60, s % 60);
  return buf;
}

// One dialogue's summary under `options`, scored against its references.
// One dialogue decoded and scored: its ROUGE against the references and how long the scored text is.
struct Decoded {
  text::MultiRougeScores rouge;
  std::size_t chars = 0;
};
Decoded decoded_scores(const Prepared& p, const UnitScores& scores, const std::vector<std::string>& references,
                       const DecodeOptions& options) {
  const std::string scored = scored_text(decode(p, scores, options), p.lang);
  return {text::rouge_multi(scored, references, p.lang == Lang::zh ? text::RougeLang::zh : text::RougeLang::en,
                            text::ZhSplit::period),
          text::decode_utf8(scored, text::Utf8Mode::lossy).size()};
}

// Adds one dialogue's scores to the sums (in dialogue order, so that the sums do not depend on threads).
void add_decoded(DevRouge& out, const Decoded& d) {
  const text::MultiRougeScores& r = d.rouge;
  out.rouge1 += r.best.rouge1.f1;
  out.rouge2 += r.best.rouge2.f1;
  out.rougeL += r.best.rougeL.f1;
  out.rougeL_dialogues.push_back(100.0 * r.best.rougeL.f1);
  out.shown_chars += static_cast<double>(d.chars);
  ++out.dialogues;
}

// Sums to means (ROUGE x 100).
DevRouge finish(DevRouge out) {
  if (out.dialogues > 0) {
    const double k = 100.0 / out.dialogues;
    out.rouge1 *= k;
    out.rouge2 *= k;
    out.rougeL *= k;
    out.shown_chars /= out.dialogues;
  }
  return out;
}

}  // namespace

DevRouge evaluate_rouge(const std::vector<text::Dialogue>& dialogues, const text::Lexicon& lexicon,
                        const Scorer& scorer, const DecodeOptions& options) {
  DevRouge out;  // one dialogue at a time: nothing is kept between them
  for (const auto& dialogue : dialogues) {
    const Prepared p = prepare(dialogue, lexicon);
    const auto refs = reference_texts(dialogue, p.lang);
    if (refs.empty()) continue;
    add_decoded(out, decoded_scores(p, scorer.score(p), refs, options));
  }
  return finish(std::move(out));
}

ScoredDialogues score_dialogues(const std::vector<text::Dialogue>& dialogues, const text::Lexicon& lexicon,
                                const Scorer& scorer, int threads) {
  const std::size_t n = dialogues.size();
  std::vector<std::optional<Prepared>> prepared(n);
  std::vector<UnitScores> scores(n);
  std::vector<std::vector<std::string>> refs(n);
  parallel_items(n, threads, [&](std::size_t i) {
    Prepared p = prepare(dialogues[i], lexicon);
    refs[i] = reference_texts(dialogues[i], p.lang);
    if (refs[i].empty()) return;
    scores[i] = scorer.score(p);
    prepared[i] = std::move(p);
  });
  ScoredDialogues out;
  for (std::size_t i = 0; i < n; ++i) {
    if (!prepared[i]) continue;
    out.prepared.push_back(std::move(*prepared[i]));
    out.scores.push_back(std::move(scores[i]));
    out.references.push_back(std::move(refs[i]));
  }
  return out;
}

DevRouge decoded_rouge(const ScoredDialogues& scored, const DecodeOptions& options, int threads) {
  std::vector<Decoded> r(scored.prepared.size());
  parallel_items(r.size(), threads, [&](std::size_t i) {
    r[i] = decoded_scores(scored.prepared[i], scored.scores[i], scored.references[i], options);
  });
  DevRouge out;
  for (const auto& one : r) add_decoded(out, one);
  return finish(std::move(out));
}

namespace {

// One network (config.members = 1) trained from `seed` with early stopping on dev ROUGE-L at the fixed
// budget; its epoch logs, best epoch and best dev score are appended to `res`. Member `member` of
// `of`: with more than one, its log lines say which (members may train at the same time).
EacaModel train_member(const std::vector<const TrainingExample*>& examples, const std::vector<text::Dialogue>& dev,
                       const text::Lexicon& lexicon, const EacaConfig& config, const TrainOptions& o,
                       std::uint64_t seed, int member, int of, TrainResult& res) {
  const std::string who = of > 1 ? detail::concat("member ", member + 1, "/", of, " | ") : std::string();
  const auto start = std::chrono::steady_clock::now();
  auto elapsed = [&] { return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(); };
  const EacaDims dims = dims_of(config);
  EacaModel model(config, seed);
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
  const EacaSwitches sw_plain = switches_of(config);
  EacaSwitches sw_warmup = sw_plain;
  sw_warmup.zscore_logits = true;
  const LossWeights lw{o.coverage_weight, o.source_weight};

  std::vector<int> order(examples.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = static_cast<int>(i);
  std::uint64_t rng = seed ^ 0x5eed5eed5eedull;
  std::vector<float> best = params;
  double best_score = -1.0;
  int best_epoch = 0;
  int since_best = 0;
  EacaActivations act;
  // A step too large for the weights shows as a non-finite loss, gradient or weight, or as attention
  // inputs the engine refuses (in training or in dev scoring): each is reported as divergence, with
  // where it happened and the remedy.
  auto diverged = [&](const std::string& what, const std::string& where) {
    return InvalidArgument(detail::concat("train_eaca: training diverged (", what, ") in member ", member + 1, ", ",
                                          where, " with lr ", o.lr, "; lower --lr"));
  };
  for (int epoch = 1; epoch <= o.epochs; ++epoch) {
    const double epoch_start = elapsed();
    const EacaSwitches& sw = epoch <= o.zscore_warmup_epochs ? sw_warmup : sw_plain;
    shuffle_splitmix(order, rng);
    double loss_sum = 0.0;
    for (std::size_t b0 = 0; b0 < order.size(); b0 += static_cast<std::size_t>(o.batch_size)) {
      const std::size_t b1 = std::min(order.size(), b0 + static_cast<std::size_t>(o.batch_size));
      std::fill(grads.begin(), grads.end(), 0.0f);
      auto diverged_here = [&](const std::string& what) {
        return diverged(what, detail::concat("epoch ", epoch, ", step ", b0 / static_cast<std::size_t>(o.batch_size) + 1));
      };
      double batch_loss = 0.0;
      for (std::size_t b = b0; b < b1; ++b) {
        const TrainingExample& ex = *examples[static_cast<std::size_t>(order[b])];
        try {
          eaca_forward(act, w, dims, sw, ex.features, ex.prepared.mention_unit);
        } catch (const InvalidArgument& e) {
          throw diverged_here(e.what());
        }
        batch_loss += eaca_backward(gw, act, w, dims, sw, ex.features, ex.prepared.mention_unit, ex.targets, lw);
      }
      if (!std::isfinite(batch_loss)) throw diverged_here(detail::concat("loss ", batch_loss));
      loss_sum += batch_loss;
      const float inv = 1.0f / static_cast<float>(b1 - b0);
      for (auto& g : grads) g *= inv;
      if (!std::all_of(grads.begin(), grads.end(), [](float g) { return std::isfinite(g); }))
        throw diverged_here("a non-finite gradient");
      opt.step(params.data(), grads.data());
      if (!std::all_of(params.begin(), params.end(), [](float v) { return std::isfinite(v); }))
        throw diverged_here("a non-finite weight after the step");
    }
    const double train_seconds = elapsed() - epoch_start;
    DevRouge r;
    try {
      r = evaluate_rouge(dev, lexicon, model, model.decode_options());
    } catch (const InvalidArgument& e) {  // the weights are finite but overflow on the dev dialogues
      throw diverged(e.what(), detail::concat("epoch ", epoch));
    }
    EpochLog log;
    log.member = member;
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
      best_epoch = epoch;
      since_best = 0;
    } else {
      ++since_best;
    }
    const double per_epoch = elapsed() / epoch;
    const int left = std::min(o.epochs - epoch, o.patience - since_best);
    if (o.verbose)
      std::fprintf(stderr, "%sepoch %d | loss %.4f | dev ROUGE-L %.1f | %.0f dlg/s | ETA %s\n", who.c_str(), epoch,
                   log.loss, r.rougeL, log.dialogues_per_second, eta(per_epoch * std::max(0, left)).c_str());
    if (since_best >= o.patience) {
      if (o.verbose) std::fprintf(stderr, "%searly stop: no dev ROUGE-L gain for %d epochs\n", who.c_str(), o.patience);
      break;
    }
  }
  params = best;
  res.member_best_epochs.push_back(best_epoch);
  res.member_dev_rougeL.push_back(best_score);
  if (o.verbose) std::fprintf(stderr, "%sbest epoch %d | dev ROUGE-L %.2f\n", who.c_str(), best_epoch, best_score);
  return model;
}

// The K members, trained by train(k, result) in parallel (o.threads); each member's logs and scores
// are appended to `res` in member order, as a serial loop would.
template <class Train>
std::vector<EacaModel> train_members(int K, const TrainOptions& o, TrainResult& res, Train&& train) {
  std::vector<std::optional<EacaModel>> trained(static_cast<std::size_t>(K));
  std::vector<TrainResult> results(static_cast<std::size_t>(K));
  parallel_items(trained.size(), o.threads,
                 [&](std::size_t k) { trained[k] = train(static_cast<int>(k), results[k]); });
  std::vector<EacaModel> members;
  for (std::size_t k = 0; k < trained.size(); ++k) {
    members.push_back(std::move(*trained[k]));
    const TrainResult& r = results[k];
    res.epochs.insert(res.epochs.end(), r.epochs.begin(), r.epochs.end());
    res.member_best_epochs.insert(res.member_best_epochs.end(), r.member_best_epochs.begin(), r.member_best_epochs.end());
    res.member_dev_rougeL.insert(res.member_dev_rougeL.end(), r.member_dev_rougeL.begin(), r.member_dev_rougeL.end());
  }
  return members;
}

std::vector<std::size_t> seeded_permutation(std::size_t n, std::uint64_t seed) {
  std::vector<std::size_t> p(n);
  for (std::size_t i = 0; i < n; ++i) p[i] = i;
  shuffle_splitmix(p, seed);
  return p;
}

}  // namespace

EacaModel train_eaca(const std::vector<text::Dialogue>& train, const std::vector<text::Dialogue>& dev,
                     const text::Lexicon& lexicon, const EacaConfig& config_in, const TrainOptions& o,
                     TrainResult* result) {
  KESSEL_CHECK_ARG(o.epochs >= 1, "train_eaca: epochs must be >= 1, got ", o.epochs);
  KESSEL_CHECK_ARG(o.zscore_warmup_epochs >= 0, "train_eaca: zscore_warmup_epochs must be >= 0, got ", o.zscore_warmup_epochs);
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
  std::vector<std::optional<TrainingExample>> made(train.size());
  parallel_items(train.size(), o.threads, [&](std::size_t i) {
    made[i] = make_example(train[i], lexicon, dims, o.human_label_weight);
  });
  std::vector<TrainingExample> examples;
  int no_reference = 0;
  for (auto& ex : made) {
    if (ex->targets.has_emotion < 0.0f) {
      ++no_reference;
      continue;
    }
    examples.push_back(std::move(*ex));
  }
  made.clear();
  KESSEL_CHECK_ARG(!examples.empty(), "train_eaca: none of the ", train.size(),
                   " training dialogues has a reference summary");
  int dev_refs = 0;
  for (const auto& d : dev) dev_refs += !d.references.empty();
  if (o.cross_fit) {
    KESSEL_CHECK_ARG(examples.size() >= 2, "train_eaca: cross-fitting needs at least 2 training dialogues with a "
                     "reference, got ", examples.size(), "; give a dev set or train one network (members = 1)");
    KESSEL_CHECK_ARG(config.members >= 2 && static_cast<std::size_t>(config.members) <= examples.size(),
                     "train_eaca: cross-fitting needs 2 to ", examples.size(), " members (one fold each), got ",
                     config.members);
  } else {
    KESSEL_CHECK_ARG(dev_refs > 0, "train_eaca: none of the ", dev.size(), " dev dialogues has a reference summary");
  }

  // Budget from the training summaries: the oracle's length is the length the references reward.
  std::vector<int> sizes, chars;
  std::vector<long> dialogue_chars;
  for (const auto& ex : examples) {
    if (ex.oracle.empty()) continue;
    sizes.push_back(static_cast<int>(ex.oracle.size()));
    chars.push_back(ex.oracle_chars);
    dialogue_chars.push_back(ex.dialogue_chars);
  }
  config.budget_max = 0;  // the per-dialogue budget is fitted here or not at all
  double length_r = 0.0;
  if (!sizes.empty()) {
    config.max_sentences = std::max(1, static_cast<int>(quantile(sizes, 0.9f)));
    config.max_chars = o.budget_quantile > 0.0f ? std::max(1, static_cast<int>(quantile(chars, o.budget_quantile))) : 0;
    if (o.length_budget && config.max_chars > 0) length_r = fit_length_budget(config, dialogue_chars, chars);
  }
  if (o.verbose) {
    std::fprintf(stderr, "train: %zu dialogues (%d without reference skipped), dev %s | budget %d units, %d chars\n",
                 examples.size(), no_reference,
                 o.cross_fit ? "out of fold" : std::to_string(dev_refs).c_str(), config.max_sentences,
                 config.max_chars);
    if (config.budget_max > 0)
      std::fprintf(stderr, "train: per-dialogue budget clamp(%.2f + %.4f x dialogue chars, %d, %d) (r = %.2f)\n",
                   config.budget_intercept, config.budget_slope, config.budget_min, config.budget_max, length_r);
  }

  // Early stopping decodes with the fixed budget: the per-dialogue one only joins in the budget choice
  // after training, so both budget forms are compared on the same parameters.
  const EacaConfig fitted = config;
  config.budget_max = 0;
  const int K = config.members;
  config.members = 1;
  std::vector<const TrainingExample*> all;
  for (const auto& ex : examples) all.push_back(&ex);
  TrainResult res;
  std::vector<EacaModel> members;
  std::vector<std::vector<text::Dialogue>> folds;  // cross-fitting: the dialogues member k never saw
  std::vector<DevPart> parts;                      // what the decoding choices are scored on
  if (o.cross_fit) {
    // Member k trains on every fold but k and early-stops on fold k; the decoding choices are then
    // scored out of fold, on all training dialogues.
    const auto perm = seeded_permutation(all.size(), o.seed ^ 0xc505f17ull);
    folds.resize(static_cast<std::size_t>(K));
    std::vector<std::vector<const TrainingExample*>> rest(static_cast<std::size_t>(K));
    for (std::size_t i = 0; i < perm.size(); ++i) {
      const auto fold = i % static_cast<std::size_t>(K);
      const TrainingExample* ex = all[perm[i]];
      folds[fold].push_back(*ex->prepared.dialogue);
      for (std::size_t k = 0; k < rest.size(); ++k)
        if (k != fold) rest[k].push_back(ex);
    }
    if (o.verbose)
      for (int k = 0; k < K; ++k)
        std::fprintf(stderr, "member %d/%d: train %zu, fold %zu\n", k + 1, K, rest[static_cast<std::size_t>(k)].size(),
                     folds[static_cast<std::size_t>(k)].size());
    members = train_members(K, o, res, [&](int k, TrainResult& r) {
      const auto u = static_cast<std::size_t>(k);
      EacaModel m = train_member(rest[u], folds[u], lexicon, config, o, member_seed(o.seed, k), k, K, r);
      if (o.compress) fit_compressor(rest[u], m, o.seed, false);
      return m;
    });
    for (int k = 0; k < K; ++k) parts.push_back({&members[static_cast<std::size_t>(k)], &folds[static_cast<std::size_t>(k)]});
  } else {
    members = train_members(K, o, res, [&](int k, TrainResult& r) {
      return train_member(all, dev, lexicon, config, o, member_seed(o.seed, k), k, K, r);
    });
    if (K > 1) {
      EacaModel joined = EacaModel::ensemble(members);
      members.clear();
      members.push_back(std::move(joined));
    }
    if (o.compress) fit_compressor(all, members.front(), o.seed, o.verbose);
    parts.push_back({&members.front(), &dev});
  }
  res.best_epoch = res.member_best_epochs.front();
  // The dev score before any decoding choice: a single network's is its early-stopping score, an
  // ensemble's (or the members' out of fold) is decoded here, only when it is reported or kept.
  const bool select = o.select_budget && fitted.max_chars > 0;
  double best_score = 0.0;
  if (K == 1 && !o.cross_fit) best_score = res.member_dev_rougeL.front();
  else if (o.verbose || !select) best_score = dev_rougeL(parts, lexicon, o.threads);
  if (o.verbose && K > 1)
    std::fprintf(stderr, "%s of %d: dev ROUGE-L %.2f\n", o.cross_fit ? "out of fold, members" : "ensemble", K, best_score);

  const bool compressor = !members.front().compressor().empty();
  if (select) {
    best_score = choose_decoding(parts, lexicon, fitted, compressor, o.verbose, o.threads);
  } else {
    for (auto& part : parts) {
      set_budget(part.model->mutable_config(), fitted, 1.0f, fitted.budget_max > 0);  // not chosen on dev: the fit as it is
      part.model->compressor().clear();  // no dev choice, no threshold: compression stays off
    }
  }
  res.best_dev_rougeL = best_score;
  EacaModel model = o.cross_fit ? EacaModel::ensemble(members) : std::move(members.front());
  if (o.cross_fit) {
    // The folds' compressors only served the out-of-fold choice: the model's is trained on everything.
    model.compressor().clear();
    if (model.config().compress_threshold > 0.0f) fit_compressor(all, model, o.seed, o.verbose);
  }
  res.seconds = elapsed();
  auto& meta = model.metadata();
  meta["lexicon"] = lexicon.identity();
  bool has_zh = false, has_en = false;
  for (const auto& ex : examples) (ex.prepared.lang == Lang::zh ? has_zh : has_en) = true;
  meta["languages"] = has_en && has_zh ? "en,zh" : has_zh ? "zh" : "en";  // language_warning() reads it
  meta["data"] = o.data_name;
  meta["train_dialogues"] = std::to_string(examples.size());
  meta["seed"] = std::to_string(o.seed);
  std::string epochs;
  for (int e : res.member_best_epochs) epochs += (epochs.empty() ? "" : ",") + std::to_string(e);
  meta["best_epoch"] = epochs;  // one per ensemble member
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.2f", best_score);
  meta["dev_rougeL"] = buf;
  if (o.verbose)
    std::fprintf(stderr, "best epoch %d | dev ROUGE-L %.2f | %.1f s\n", res.best_epoch, best_score, res.seconds);
  if (result) *result = res;
  return model;
}

}  // namespace kessel::summarize
