// kessel train --data FILE [--dev FILE | --dev-fraction 0.15] --out MODEL.safetensors [--format ...]
//              [--epochs N] [--seed S] [--lr X] [--cv-folds K] [--report FILE.json] ...
// Trains the EACA scorer (include/kessel/summarize/eaca.h). With --cv-folds K it also measures the
// recipe by K-fold cross-validation: each fold trains on the other folds (early stopping on a seeded
// 15% inner dev split of them) and is scored on the held-out fold, which no choice has looked at.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "cli_data.h"
#include "commands.h"
#include "exit_codes.h"
#include "kessel/error.h"
#include "kessel/summarize/eaca.h"
#include "kessel/summarize/evaluate.h"
#include "kessel/summarize/train_split.h"
#include "quiet.h"
#include "training_curves.h"
#include "util/atomic_file.h"
#include "util/splitmix.h"

namespace kessel::cli {

namespace {

struct TrainArgs {
  InputOptions data;
  std::string dev;
  double dev_fraction = 0.15;
  bool dev_fraction_given = false;  // --dev-fraction on the command line: a seeded dev split, no cross-fitting
  bool no_select_budget = false, fixed_budget = false;  // flags; TrainOptions holds their negations
  std::string out;
  std::string report;
  std::string curves;  // --curves: the training-curves page (HTML)
  std::string eval;  // scored after training; never used for any choice
  int cv_folds = 0;
  LexiconOptions lexicon;
  summarize::EacaConfig config;
  summarize::TrainOptions train;
  bool no_context = false;
  std::string context = "bilstm";
  bool context_given = false;
  bool no_emotion_attention = false;
  bool no_compress = false;
  std::string voice = "reported";
  std::string attention = "eaca";
  int max_chars = -1;  // >= 0: override the budget chosen from the training summaries
  std::vector<int> budget_sweep;  // also report scores at these max_chars (0 = no char budget)
};

// The model with its per-dialogue budget switched off, so that DecodeOptions::max_chars decides.
class FixedBudget final : public summarize::Scorer {
 public:
  explicit FixedBudget(const summarize::Scorer& inner) : inner_(inner) {}
  std::string name() const override { return inner_.name(); }
  summarize::UnitScores score(const summarize::Prepared& p) const override {
    summarize::UnitScores s = inner_.score(p);
    s.max_chars = 0;
    return s;
  }

 private:
  const summarize::Scorer& inner_;
};

// Scores of `model` on `dialogues` at each fixed budget of the sweep (descriptive: the stored budget
// is still the one chosen from the training summaries; the per-dialogue budget is off here).
nlohmann::json sweep(const TrainArgs& args, const summarize::EacaModel& model,
                     const std::vector<text::Dialogue>& dialogues, const text::Lexicon& lexicon,
                     std::vector<double>* sums) {
  nlohmann::json out = nlohmann::json::array();
  for (std::size_t i = 0; i < args.budget_sweep.size(); ++i) {
    summarize::DecodeOptions o = model.decode_options();
    o.max_chars = args.budget_sweep[i];
    o.f1_stop_chars = 0.0f;  // the sweep measures fixed budgets
    if (o.max_chars == 0) o.max_sentences = 3;  // no char budget: a sentence budget instead
    const auto r = summarize::evaluate_rouge(dialogues, lexicon, FixedBudget(model), o);
    note("  budget %d chars: ROUGE-1/2/L %.2f / %.2f / %.2f\n", o.max_chars, r.rouge1, r.rouge2,
         r.rougeL);
    if (sums) (*sums)[i] += r.rougeL;
    out.push_back({{"max_chars", o.max_chars}, {"rouge1", r.rouge1}, {"rouge2", r.rouge2}, {"rougeL", r.rougeL}});
  }
  return out;
}

// Scoring latency on one thread (model loaded, dialogue prepared: what the Scorer costs).
nlohmann::json latency(const summarize::EacaModel& model, const std::vector<text::Dialogue>& dialogues,
                       const text::Lexicon& lexicon) {
  std::vector<double> ms;
  for (const auto& d : dialogues) {
    const summarize::Prepared p = summarize::prepare(d, lexicon);
    // Best of 5 per dialogue: on a shared machine single timings mostly measure the scheduler.
    double best = 1e300;
    for (int rep = 0; rep < 5; ++rep) {
      const auto t0 = std::chrono::steady_clock::now();
      const auto scores = model.score(p);
      best = std::min(best, std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
      if (scores.salience.size() != p.units.size()) throw InvalidArgument("train: scorer returned the wrong size");
    }
    ms.push_back(best);
  }
  std::sort(ms.begin(), ms.end());
  auto q = [&](double f) { return ms.empty() ? 0.0 : ms[static_cast<std::size_t>(f * static_cast<double>(ms.size() - 1))]; };
  note("scoring latency (1 thread, best of 5, %zu dialogues): p50 %.3f ms | p95 %.3f ms | "
       "max %.3f ms\n",
       ms.size(), q(0.5), q(0.95), q(1.0));
  return {{"p50_ms", q(0.5)}, {"p95_ms", q(0.95)}, {"max_ms", q(1.0)}};
}

nlohmann::json epochs_json(const summarize::TrainResult& r) {
  nlohmann::json a = nlohmann::json::array();
  for (const auto& e : r.epochs)
    a.push_back({{"member", e.member}, {"epoch", e.epoch}, {"loss", e.loss}, {"dev_rouge1", e.dev_rouge1}, {"dev_rouge2", e.dev_rouge2},
                 {"dev_rougeL", e.dev_rougeL}, {"dialogues_per_second", e.dialogues_per_second}});
  return a;
}

// The early-stopping epoch of each ensemble member, "3" or "3,2,4".
std::string best_epochs(const summarize::TrainResult& r) {
  std::string out;
  for (int e : r.member_best_epochs) out += (out.empty() ? "" : ",") + std::to_string(e);
  return out;
}

nlohmann::json budget_json(const summarize::EacaConfig& c) {
  if (c.budget_max <= 0 && c.f1_stop_chars <= 0.0f) return nullptr;
  nlohmann::json out = {{"f1_stop_chars", c.f1_stop_chars}};
  if (c.budget_max > 0)
    out.update({{"intercept", c.budget_intercept}, {"slope", c.budget_slope}, {"min", c.budget_min},
                {"max", c.budget_max}, {"scale", c.budget_scale}});
  return out;
}

summarize::EacaModel train_once(const TrainArgs& args, const std::vector<text::Dialogue>& train,
                                const std::vector<text::Dialogue>& dev, const text::Lexicon& lexicon,
                                summarize::TrainResult* result) {
  summarize::EacaModel model = summarize::train_eaca(train, dev, lexicon, args.config, args.train, result);
  if (args.max_chars >= 0) summarize::set_fixed_char_budget(model, args.max_chars);
  return model;
}

// The bootstrap interval of a mean ROUGE-L over dialogues, with kessel eval's default settings.
summarize::Interval interval(const std::vector<double>& rougeL) {
  return summarize::bootstrap_mean_interval(rougeL, summarize::kBootstrapResamples, summarize::kIntervalLevel,
                                            summarize::kBootstrapSeed);
}

void run_cross_validation(const TrainArgs& args, const std::vector<text::Dialogue>& all, const text::Lexicon& lexicon,
                          nlohmann::json& report) {
  const int K = args.cv_folds;
  KESSEL_CHECK_ARG(K >= 2 && static_cast<std::size_t>(K) <= all.size(), "train: --cv-folds must be in [2, ",
                   all.size(), "], got ", K);
  const auto perm = summarize::seeded_permutation(all.size(), args.train.seed ^ 0xcf01d5ull);
  double sum1 = 0, sum2 = 0, sumL = 0, sum_free = 0, seconds = 0;
  std::vector<double> held_out;  // every held-out dialogue's ROUGE-L, for the interval
  std::vector<double> sweep_sums(args.budget_sweep.size(), 0.0);
  nlohmann::json folds = nlohmann::json::array();
  for (int k = 0; k < K; ++k) {
    std::vector<text::Dialogue> rest, held, inner_train, inner_dev;
    for (std::size_t i = 0; i < perm.size(); ++i)
      (static_cast<int>(i % static_cast<std::size_t>(K)) == k ? held : rest).push_back(all[perm[i]]);
    if (args.train.cross_fit)
      inner_train = rest;  // the members' folds are the dev data
    else
      summarize::split_train_dev(rest, args.dev_fraction,
                                 args.train.seed + static_cast<std::uint64_t>(k), inner_train,
                                 inner_dev, "train: --dev-fraction");
    note("cv fold %d/%d: train %zu, inner dev %zu, held out %zu\n", k + 1, K, inner_train.size(),
         inner_dev.size(), held.size());
    summarize::TrainResult result;
    const auto model = train_once(args, inner_train, inner_dev, lexicon, &result);
    // Scored once (in parallel), decoded with and without the emotion constraint: what the constraint
    // costs on this fold.
    const auto scored = summarize::score_dialogues(held, lexicon, model, args.train.threads);
    const auto r = summarize::decoded_rouge(scored, model.decode_options(), args.train.threads);
    summarize::DecodeOptions unconstrained = model.decode_options();
    unconstrained.emotion_constraint = false;
    const auto free = summarize::decoded_rouge(scored, unconstrained, args.train.threads);
    const auto& c = model.config();
    note("cv fold %d/%d: held-out ROUGE-1/2/L %.2f / %.2f / %.2f, no constraint ROUGE-L %.2f "
         "(budget %d units, %d chars%s, stop R = %.0f, best epoch %s)\n",
         k + 1, K, r.rouge1, r.rouge2, r.rougeL, free.rougeL, c.max_sentences, c.max_chars,
         c.budget_max > 0 ? ", per-dialogue" : "", c.f1_stop_chars, best_epochs(result).c_str());
    const nlohmann::json swept = sweep(args, model, held, lexicon, &sweep_sums);
    sum1 += r.rouge1;
    sum2 += r.rouge2;
    sumL += r.rougeL;
    sum_free += free.rougeL;
    held_out.insert(held_out.end(), r.rougeL_dialogues.begin(), r.rougeL_dialogues.end());
    seconds += result.seconds;
    folds.push_back({{"fold", k + 1}, {"rouge1", r.rouge1}, {"rouge2", r.rouge2}, {"rougeL", r.rougeL},
                     {"rougeL_no_constraint", free.rougeL},
                     {"dialogues", r.dialogues}, {"max_chars", model.config().max_chars},
                     {"budget", budget_json(model.config())},
                     {"max_sentences", model.config().max_sentences}, {"best_epoch", result.best_epoch},
                     {"member_best_epochs", result.member_best_epochs}, {"seconds", result.seconds}, {"budget_sweep", swept}, {"epochs", epochs_json(result)}});
  }
  for (std::size_t i = 0; i < args.budget_sweep.size(); ++i)
    std::printf("cv budget %d chars | ROUGE-L %.2f\n", args.budget_sweep[i], sweep_sums[i] / K);
  const summarize::Interval ci = interval(held_out);
  std::printf("cv %d folds | ROUGE-1 %.2f | ROUGE-2 %.2f | ROUGE-L %.2f (95%% interval [%.2f, %.2f] over the %zu "
              "held-out dialogues) | no constraint ROUGE-L %.2f (cost %.2f) | %.1f s training per fold\n",
              K, sum1 / K, sum2 / K, sumL / K, ci.lo, ci.hi, held_out.size(), sum_free / K, (sum_free - sumL) / K,
              seconds / K);
  report["cv"] = {{"folds", folds}, {"rouge1", sum1 / K}, {"rouge2", sum2 / K}, {"rougeL", sumL / K},
                  {"rougeL_no_constraint", sum_free / K},
                  {"rougeL_interval", {ci.lo, ci.hi}}, {"dialogues", held_out.size()}};
}

void run_train(TrainArgs& args) {
  // The flags against each other first (exit 2, no file touched), then the files.
  check_usage(!args.out.empty() || args.cv_folds > 0,
              "--out is required (unless --cv-folds only measures)");
  check_usage(args.curves.empty() || !args.out.empty(),
              "--curves needs --out (it draws the model's training)");
  check_usage(args.cv_folds == 0 || args.cv_folds >= 2,
              "--cv-folds must be 0 (off) or at least 2, got " + std::to_string(args.cv_folds));
  check_usage(args.dev_fraction > 0.0 && args.dev_fraction < 1.0,
              detail::concat("--dev-fraction must be in (0, 1), got ", args.dev_fraction));
  check_usage(!args.no_context || !args.context_given,
              "--no-context and --context " + args.context + " contradict each other");
  // Output files that are written after training are checked before it: a typo should not cost a run.
  // The check leaves no file behind; each is written whole or not at all (util/atomic_file.h).
  for (const auto& [path, option] :
       {std::pair{args.out, "--out"}, std::pair{args.curves, "--curves"}, std::pair{args.report, "--report"}})
    if (!path.empty()) util::check_writable(path, std::string("train: ") + option + " '" + path + "'");
  args.config.context_encoder = !args.no_context;
  summarize::set_context_encoder(args.config, args.context);
  args.config.emotion_attention = !args.no_emotion_attention;
  args.train.compress = !args.no_compress;
  args.config.reported_speech = summarize::parse_voice(args.voice);
  // An ensemble is cross-fitted on --data unless a dev set or split is asked for (train_eaca's cross_fit).
  args.train.cross_fit = args.config.members >= 2 && args.dev.empty() && !args.dev_fraction_given;
  summarize::set_attention_variant(args.config, args.attention);
  if (args.config.emotion_balance > 0.0f && (args.config.normalizer != Normalizer::kSoftmax || !args.config.emotion_terms))
    throw UsageError("train: --emotion-balance weights the EACA emotion terms under softmax (--attention eaca), "
                     "not --attention " + args.attention);
  if (args.config.boost_gate && !summarize::boost_gate_supported(args.config))
    throw UsageError("train: --boost-gate gates the EACA key boost under softmax (--attention eaca), without "
                     "--adaptive-temperature or --emotion-balance");
  if (args.config.adaptive_temperature > 0.0f && args.config.normalizer != Normalizer::kSoftmax)
    throw UsageError("train: --adaptive-temperature needs a softmax attention (--attention eaca or plain), "
                     "not --attention " + args.attention);
  const text::Lexicon lexicon = load_lexicon(args.lexicon);
  const text::ReadResult data = read_input(args.data);
  if (args.train.data_name.empty()) args.train.data_name = args.data.path;
  nlohmann::json report = {{"data", args.data.path}, {"seed", args.train.seed}, {"lexicon", lexicon.identity()}};
  // Said before any split, about the file as given (a split would report its own share of it).
  std::size_t with_reference = 0;
  for (const auto& d : data.dialogues) with_reference += d.references.empty() ? 0 : 1;
  KESSEL_CHECK_ARG(with_reference > 0, "train: none of the ", data.dialogues.size(), " dialogues of --data '",
                   args.data.path, "' has a reference summary (csds: TopicSumm, tweetsumm: abstractive_summaries, "
                   "kessel: \"reference\"): there is nothing to learn from");

  if (args.cv_folds > 0) run_cross_validation(args, data.dialogues, lexicon, report);
  if (!args.out.empty()) {
    std::vector<text::Dialogue> train, dev;
    if (args.train.cross_fit) {
      train = data.dialogues;
    } else if (!args.dev.empty()) {
      InputOptions dev_input = args.data;
      dev_input.path = args.dev;
      train = data.dialogues;
      dev = read_input(dev_input).dialogues;
      // Early stopping and the budget are chosen on --dev: a dev set in another language chooses
      // them for dialogues the model will not see. Said, not refused (mixed corpora exist).
      auto zh_share = [](const std::vector<text::Dialogue>& ds) {
        const summarize::LangCounts n = summarize::count_langs(ds);
        return ds.empty() ? 0.0 : static_cast<double>(n.zh) / static_cast<double>(ds.size());
      };
      const double zh_train = zh_share(train), zh_dev = zh_share(dev);
      if ((zh_train > 0.5) != (zh_dev > 0.5))
        std::fprintf(stderr, "warning: --data is %.0f%% zh but --dev '%s' is %.0f%% zh: early stopping and the "
                     "budget are chosen on dialogues of another language\n",
                     100 * zh_train, args.dev.c_str(), 100 * zh_dev);
    } else {
      summarize::split_train_dev(data.dialogues, args.dev_fraction, args.train.seed, train, dev,
                                 "train: --dev-fraction");
    }
    summarize::TrainResult result;
    summarize::EacaModel model = train_once(args, train, dev, lexicon, &result);
    model.metadata()["dev"] = args.train.cross_fit ? "out of fold (cross-fitting)"
                              : args.dev.empty()    ? "seeded split of --data"
                                                    : args.dev;
    model.save(args.out);
    const auto t0 = std::chrono::steady_clock::now();
    const auto reloaded = summarize::EacaModel::load(args.out);
    const double load_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    note("model load %.2f ms\n", load_ms);
    report["load_ms"] = load_ms;
    report["latency"] = latency(reloaded, dev.empty() ? train : dev, lexicon);
    if (!args.budget_sweep.empty()) report["dev_budget_sweep"] = sweep(args, model, dev, lexicon, nullptr);
    if (!args.eval.empty()) {
      InputOptions eval_input = args.data;
      eval_input.path = args.eval;
      const auto eval = read_input(eval_input).dialogues;
      const auto r = summarize::evaluate_rouge(eval, lexicon, model, model.decode_options());
      KESSEL_CHECK_ARG(r.dialogues > 0, "train: none of the dialogues of --eval '", args.eval,
                       "' has a reference summary");
      const summarize::Interval ci = interval(r.rougeL_dialogues);
      std::printf("eval %s | ROUGE-1 %.2f | ROUGE-2 %.2f | ROUGE-L %.2f (95%% interval [%.2f, %.2f]) | %d dialogues\n",
                  args.eval.c_str(), r.rouge1, r.rouge2, r.rougeL, ci.lo, ci.hi, r.dialogues);
      report["eval"] = {{"path", args.eval}, {"rouge1", r.rouge1}, {"rouge2", r.rouge2}, {"rougeL", r.rougeL},
                        {"rougeL_interval", {ci.lo, ci.hi}}, {"dialogues", r.dialogues}};
      if (!args.budget_sweep.empty()) report["eval_budget_sweep"] = sweep(args, model, eval, lexicon, nullptr);
    }
    std::printf("model %s | best epoch %s | dev ROUGE-L %.2f | budget %d units, %d chars, expected-F1 stop %s | %.1f s\n",
                args.out.c_str(), best_epochs(result).c_str(), result.best_dev_rougeL, model.config().max_sentences,
                model.config().max_chars,
                model.config().f1_stop_chars > 0.0f
                    ? ("R = " + std::to_string(static_cast<int>(model.config().f1_stop_chars))).c_str()
                    : "off",
                result.seconds);
    if (!args.curves.empty()) {
      const std::string title = "kessel train: " + args.data.path + " (seed " + std::to_string(args.train.seed) + ")";
      const int members = model.config().members;
      char line[200];
      std::snprintf(line, sizeof line, "%s, best epoch %s, dev ROUGE-L %.2f after the budget choice, %.1f s",
                    members == 1 ? "one network" : ("an ensemble of " + std::to_string(members)).c_str(),
                    best_epochs(result).c_str(), result.best_dev_rougeL, result.seconds);
      util::write_file_atomically(args.curves, training_curves_html(result, title, line),
                                  "train: --curves '" + args.curves + "'");
      note("training curves: %s\n", args.curves.c_str());
    }
    report["model"] = {{"path", args.out}, {"members", model.config().members}, {"best_epoch", result.best_epoch},
                       {"member_best_epochs", result.member_best_epochs}, {"dev_rougeL", result.best_dev_rougeL},
                       {"max_sentences", model.config().max_sentences}, {"max_chars", model.config().max_chars},
                       {"budget", budget_json(model.config())}, {"seconds", result.seconds}, {"epochs", epochs_json(result)}};
  }
  if (!args.report.empty()) {
    util::write_file_atomically(args.report, report.dump(2) + "\n", "train: --report '" + args.report + "'");
  }
}

}  // namespace

void add_train_command(CLI::App& app) {
  auto args = std::make_shared<TrainArgs>();
  CLI::App* cmd = app.add_subcommand("train", "Train the EACA summarizer (safetensors model file)");
  add_input_options(*cmd, args->data, "--data");
  add_lexicon_options(*cmd, args->lexicon);
  cmd->add_option("--dev", args->dev, "Dev dialogues for early stopping (same format as --data)");
  cmd->add_option("--dev-fraction", args->dev_fraction,
                  "Hold out this seeded share of --data as dev (default for --members 1; an ensemble without "
                  "--dev or --dev-fraction is cross-fitted instead)")
      ->capture_default_str();
  cmd->add_option("--out", args->out, "Model file to write (.safetensors)");
  cmd->add_option("--epochs", args->train.epochs, "Maximum epochs")->capture_default_str();
  cmd->add_option("--patience", args->train.patience, "Early stopping: epochs without a dev ROUGE-L gain")
      ->capture_default_str();
  cmd->add_option("--seed", args->train.seed, "Seed (initialization, shuffling, splits)")->capture_default_str();
  args->train.threads = 0;
  cmd->add_option("--threads", args->train.threads,
                  "Threads (0: all cores): the members train in parallel and the decoding choices score dialogues "
                  "in parallel; the model is the same file for any count")
      ->capture_default_str()
      ->check(CLI::NonNegativeNumber);
  cmd->add_option("--lr", args->train.lr, "AdamW peak learning rate")->capture_default_str();
  cmd->add_option("--batch-size", args->train.batch_size, "Dialogues per step")->capture_default_str();
  cmd->add_option("--weight-decay", args->train.weight_decay, "AdamW weight decay")->capture_default_str();
  cmd->add_option("--adaptive-temperature", args->config.adaptive_temperature,
                  "Coefficient c of the seed's adaptive temperature, 1 / (1 + c mean|q|) per query, in both "
                  "attention layers (stored in the model); 0: off, the fixed 1/sqrt(width) scale")
      ->capture_default_str()
      ->check(CLI::NonNegativeNumber);
  cmd->add_option("--emotion-balance", args->config.emotion_balance,
                  "The seed's emotion-ratio balance in the EACA attention: similarities x (1 - G r), key boost x G r, "
                  "r the dialogue's share of emotional units (stored in the model); 0: off")
      ->capture_default_str()
      ->check(CLI::Range(0.0f, 1.0f));
  cmd->add_flag("--modality-norm", args->config.modality_norm,
               "Layer-normalize the text, emoji-wheel and time input columns each on its own (learned gain and "
               "bias) before the fusion layer (seed 000 section 4.3; stored in the model); off by default, "
               "measured in docs/eaca-experiments.md");
  cmd->add_flag("--boost-gate", args->config.boost_gate,
                "Gate the EACA key boost by query and key: boost x sigmoid(w_q . q + w_k . k + b) (seed 004's "
                "debug table; stored in the model); off by default, measured in docs/eaca-experiments.md");
  cmd->add_flag("--zero-text-init", args->config.zero_text_init,
                "Start the fusion layer's text columns at zero (the seed's initialization)");
  cmd->add_option("--zscore-warmup-epochs", args->train.zscore_warmup_epochs,
                  "Epochs whose attention logits are divided by std(q.k) over the dialogue instead of sqrt(width) "
                  "(the seed's warm-up scale; scoring always uses sqrt(width)); 0: off")
      ->capture_default_str()
      ->check(CLI::NonNegativeNumber);
  cmd->add_option("--hidden", args->config.hidden, "Unit state width D")->capture_default_str();
  cmd->add_option("--embed-dim", args->config.embed_dim, "Hashed n-gram embedding width E")->capture_default_str();
  cmd->add_option("--buckets", args->config.hash_buckets, "Hashed n-gram buckets V")->capture_default_str();
  cmd->add_option("--members", args->config.members,
                  "Ensemble size: networks trained from different seeds whose scores are averaged. Without --dev or "
                  "--dev-fraction, member k trains on all but fold k of --data and early-stops on fold k, and the "
                  "budget is chosen out of fold on all of --data (cross-fitting)")
      ->capture_default_str()
      ->check(CLI::Range(1, 64));
  cmd->add_option("--redundancy", args->config.redundancy, "Decoder MMR redundancy weight stored in the model")
      ->capture_default_str();
  cmd->add_option("--context", args->context,
                  "Context encoder over the units: bilstm (a bidirectional LSTM, D/2 units per direction, as in "
                  "the seed) | attention (one self-attention layer on the engine, with time decay)")
      ->capture_default_str()
      ->check(CLI::IsMember({"attention", "bilstm"}));
  cmd->add_flag("--no-context", args->no_context, "Ablation: drop the context encoder");
  cmd->add_option("--attention", args->attention,
                  "eaca (softmax with the emotion score terms) | plain (softmax, no wheel, key boost or time "
                  "decay: the seed's standard-Transformer row) | fuzzy (the emotion terms, fuzzy membership m=2)")
      ->check(CLI::IsMember({"eaca", "plain", "fuzzy"}));
  cmd->add_flag("--no-compress", args->no_compress,
                "Do not train the token-deletion model (Chinese): render selected units whole");
  cmd->add_option("--voice", args->voice,
                  "English rendering stored in the model: reported (first and second person rewritten into the "
                  "third, as summaries report) | verbatim (the sentences as written)")
      ->capture_default_str()
      ->check(CLI::IsMember({"reported", "verbatim"}));
  cmd->add_flag("--no-emotion-attention", args->no_emotion_attention, "Ablation: drop the EACA customer attention");
  cmd->add_option("--budget-quantile", args->train.budget_quantile,
                  "max_chars = this quantile of the training oracle summaries' lengths (0: no char budget)")
      ->capture_default_str();
  cmd->add_flag("--no-select-budget", args->no_select_budget,
                "Keep the training-derived char budget instead of choosing it on dev");
  cmd->add_flag("--fixed-budget", args->fixed_budget,
                "One char budget for every dialogue instead of one fitted on the dialogue's length");
  cmd->add_option("--max-chars", args->max_chars,
                  "Override the char budget stored in the model (a fixed budget: the per-dialogue one is dropped)");
  cmd->add_option("--human-label-weight", args->train.human_label_weight,
                  "Weight of human extractive selections (TweetSumm) vs the greedy oracle in the targets")
      ->capture_default_str();
  cmd->add_option("--eval", args->eval, "Score the trained model on these dialogues (not used for any choice)");
  cmd->add_option("--cv-folds", args->cv_folds, "Also report K-fold cross-validated ROUGE of this recipe");
  cmd->add_option("--budget-sweep", args->budget_sweep,
                  "Also report ROUGE at these max_chars budgets (0: none, 3 sentences) on dev / CV folds")
      ->delimiter(',');
  cmd->add_option("--report", args->report, "Write the per-epoch log and scores as JSON");
  cmd->add_option("--curves", args->curves, "Write the training curves (loss, dev ROUGE-L per member and epoch) as HTML");
  cmd->callback([args, cmd] {
    args->dev_fraction_given = cmd->count("--dev-fraction") > 0;
    args->context_given = cmd->count("--context") > 0;
    args->train.select_budget = !args->no_select_budget;
    args->train.length_budget = !args->fixed_budget;
    args->train.verbose = !quiet();  // the per-epoch log and the budget choices
    run_train(*args);
  });
}

}  // namespace kessel::cli
