// EACA: the trained emotion-aware constrained-attention summarizer (a Scorer for the shared decoder).
//
// Per unit (a sentence of a turn): the mean of learned hashed n-gram embeddings (character uni/bigrams
// for Chinese, words and word bigrams for English) fused with cheap extractive features, the unit's
// emoji-wheel coordinate, a 300 s time encoding and the speaker (src/summarize/eaca_features.h);
// a context encoder (one self-attention layer over units on the kessel engine, residual); the EACA
// attention (queries from customer units, keys carrying the wheel coordinates, key_boost on emotion
// units, time decay when times exist); heads for unit salience, the emotion source (which expressed
// mention to keep) and summary-has-emotion. docs/eaca.md has the formulas and the measured choices.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "kessel/attention.h"
#include "kessel/attention_choice.h"
#include "kessel/summarize/summary.h"
#include "kessel/text/dialogue.h"
#include "kessel/text/lexicon.h"

namespace kessel::summarize {

struct EacaConfig {
  int hash_buckets = 16384;  // V: hashed n-gram vocabulary
  int embed_dim = 4;         // E (4, not 24: the out-of-fold dev score is higher; docs/eaca.md)
  int hidden = 64;           // D: unit state width (chosen by 5-fold CV on the training data, docs/eaca.md)
  int attn_dim = 16;         // A: query/key width (the EACA keys add the 2 wheel dimensions)
  bool context_encoder = true;  // the context layer (off: h1 = h0)
  // The context layer's kind: true, a bidirectional LSTM with D/2 units per direction (the seed's
  // choice, and ours since session 15: +1.9 ROUGE-L in TweetSumm CV, level on CSDS; docs/eaca.md);
  // false, one self-attention layer on the engine. D must be even for the BiLSTM. Models saved
  // without the key load with false, the self-attention they were trained with.
  bool context_bilstm = true;
  bool emotion_attention = true;  // the EACA customer-query attention (else g = 0)
  float time_decay = 0.0023104906f;  // per second (ln 2 / 300 s), used when a dialogue has times
  // Variants for the comparison rows of `kessel eval`: emotion_terms = false is plain attention (no
  // wheel columns, key boost or time decay: the seed's "standard Transformer" row); the normalizer of
  // both attention layers is softmax or fuzzy membership (m = 2).
  bool emotion_terms = true;
  Normalizer normalizer = Normalizer::kSoftmax;
  // Adaptive temperature (seed 004 §3.2, AttentionSpec::adaptive_temperature) in both attention
  // layers: the coefficient c of tau_i = 1 / (1 + c mean|q_i|); 0 is off (the fixed 1/sqrt(width)
  // scale). Softmax only. docs/eaca-experiments.md has its measurement.
  float adaptive_temperature = 0.0f;
  // Emotion-ratio balance (seed 004 §4.2 step 3, AttentionInputs::emotion_ratio) in the EACA customer
  // attention: its similarities weighted by 1 - gamma rho and its key boost by gamma rho, rho the
  // dialogue's share of units with an expressed emotion; gamma = this, 0 is off. Needs the emotion
  // terms and softmax.
  float emotion_balance = 0.0f;
  // Per-modality normalization (seed 000 §4.3, nn's HybridLayerNorm; issue 27 item 7): before the fusion
  // layer W_in, the text (the E embedding columns), emoji-wheel (2) and time (sin, cos, flag) columns of
  // x are each layer-normalized over their own columns, with their own learned gain and bias (tensors
  // mnorm_w, mnorm_b [E + 5]); the other dense columns pass as they are. Off: today's fusion.
  bool modality_norm = false;
  // Gated boost (seed 004's debug table, "boost_weight = sigmoid(W_g [Q, K])"; issue 27 item 2): the EACA
  // attention's key boost boost * emotion_j is weighted by g_qj = sigmoid(w_q . qe_q + w_k . ke_j + b_g)
  // (AttentionInputs::boost_gate; tensor boost_gate [2 Ae + 1]). Needs the emotion terms, softmax, and
  // neither adaptive_temperature nor emotion_balance. Off: today's scalar boost.
  bool boost_gate = false;
  // The seed's initialization of the fusion layer: the text columns of W_in (its rows in the seed's
  // [F, D] layout) start at zero, so training begins from the other features. Training only.
  bool zero_text_init = false;
  // Decoding budget, chosen per data set from the training summaries (eaca_train.cc).
  int max_sentences = 4;
  int max_chars = 0;
  float redundancy = 0.3f;
  // Per-dialogue char budget, on when budget_max > 0 (length_budget below); EacaModel::score returns
  // it as UnitScores::max_chars, which replaces max_chars. Fitted on the training oracle summaries'
  // lengths against the dialogues' lengths; budget_scale is chosen on dev. Models saved without these
  // keys load with budget_max = 0: the fixed max_chars, as before.
  float budget_intercept = 0.0f;  // chars
  float budget_slope = 0.0f;      // chars of summary per char of dialogue
  int budget_min = 0;             // clamp of the fitted length, before the scale
  int budget_max = 0;
  float budget_scale = 1.0f;
  // Expected-F1 stop (DecodeOptions::f1_stop_chars): the prior reference length R in chars, chosen on
  // dev with the sentence budget after the char budget; 0 = off. Models saved without the key load
  // with 0: the full budget, as before.
  float f1_stop_chars = 0.0f;
  // DecodeOptions::emotion_clause: the constraint's unit rendered as its emotion clause alone. Models
  // saved before this key load with false (the whole unit, as their decoding choices were made).
  bool emotion_clause = true;
  // Token deletion inside selected units (src/summarize/compress.h): tokens whose keep probability is
  // below this are dropped from the rendered unit. 0: off (and no compressor weights are stored).
  // Chosen on dev with the budget; trained for Chinese only.
  float compress_threshold = 0.0f;
  // English units are rendered in reported speech: first and second person rewritten into the third
  // (src/summarize/reported_speech.h). Models saved before this key load with false (verbatim, as they
  // were trained and scored).
  bool reported_speech = true;
  // Ensemble: `members` independently initialized and trained copies of the network (same features,
  // budget and compressor); score() averages their salience, emotion-source and has-emotion logits and
  // their attention maps. Member 0 is initialized from the training seed, so members = 1 is the single
  // model. Models saved before this key load with 1. Default 5: docs/eaca.md has the measurements.
  int members = 5;
};

// The per-dialogue budget: max(1, round(budget_scale * clamp(budget_intercept + budget_slope *
// dialogue_chars, budget_min, budget_max))), where dialogue_chars is the sum of the units' code points
// (Unit::chars, as the decoder counts them). 0 when the config has none (budget_max == 0).
int length_budget(const EacaConfig& config, long dialogue_chars);

// Model hyperparameters as metadata strings, and back (ParseError naming the key on a bad value).
std::map<std::string, std::string> config_metadata(const EacaConfig& config);
EacaConfig config_from_metadata(const std::map<std::string, std::string>& metadata, const std::string& file);

class EacaModel final : public Scorer {
 public:
  // Parameters initialized from `seed` (deterministic); member k > 0 from member_seed(seed, k).
  EacaModel(const EacaConfig& config, std::uint64_t seed);
  // The models' networks as one ensemble (config.members = their count). All must have the same
  // config apart from members (1 each); the first one's config, compressor and metadata are kept.
  static EacaModel ensemble(const std::vector<EacaModel>& members);
  ~EacaModel() override;
  EacaModel(const EacaModel&);
  EacaModel(EacaModel&&) noexcept;
  EacaModel& operator=(EacaModel&&) noexcept;

  std::string name() const override { return "eaca"; }
  // Salience logits per unit, mention-source logits, P(has emotion) and the EACA attention map
  // (customer-unit queries over all units; filled when the dialogue has at most 512 units).
  UnitScores score(const Prepared& dialogue) const override;
  // score() without the attention map: the members' attention weights are not recomputed (about 4%
  // of a short dialogue's summary on a 5-member model).
  UnitScores score_without_map(const Prepared& dialogue) const override;
  // The parts: features, then each layer summed over the members, then rendering.
  UnitScores score_profiled(const Prepared& dialogue, std::vector<LayerCost>& cost) const override;
  // The ensemble's EACA attention map (the members' mean, customer-unit queries over all units) for a
  // dialogue of any size; score() returns the same map up to kMaxExplainUnits units.
  AttentionMap attention_map(const Prepared& dialogue) const override;

  // What score() adds after the networks, from the config alone: the per-dialogue char budget
  // (UnitScores::max_chars) and the units as rendered (UnitScores::unit_text: token deletion at
  // compress_threshold for Chinese, addressing and reported speech for English). Training's decoding
  // grid calls it on scores it keeps when only these settings change.
  void render(const Prepared& dialogue, UnitScores& scores) const;
  // The first half of render(): the dialogue's per-dialogue char budget (length_budget over its unit
  // code points; 0 when the config has none).
  int char_budget(const Prepared& dialogue) const;

  // How scoring stores the K/V of the engine attention layers (the EACA customer attention, and the
  // context layer when it is self-attention): float32 (the default) or int8 (per-row symmetric
  // scales, AttentionInputs::kv_dtype). A scoring option, not part of the model: never saved, and
  // training never reads it. InvalidArgument when the model runs no attention on the engine (BiLSTM or
  // no context layer and the EACA attention off), where int8 would silently change nothing.
  void set_kv_dtype(KvDtype kv_dtype);
  KvDtype kv_dtype() const { return kv_dtype_; }
  // The EACA customer attention's kernel while scoring (kessel/attention_choice.h): auto (the default)
  // picks fused or chunk-and-bridge by the dialogue's length from the measured table; the others force
  // one. A scoring option like kv_dtype: never saved. UnitScores::attention_kernel says what ran.
  void set_attention_kernel(AttentionKernel kernel) { attention_kernel_ = kernel; }
  AttentionKernel attention_kernel() const { return attention_kernel_; }

  DecodeOptions decode_options() const;  // the stored budget, constraint on
  const EacaConfig& config() const { return config_; }
  EacaConfig& mutable_config() { return config_; }

  // Metadata saved with the model: hyperparameters plus caller entries (lexicon identity, data, ...).
  std::map<std::string, std::string>& metadata() { return metadata_; }
  const std::map<std::string, std::string>& metadata() const { return metadata_; }

  void save(const std::string& path) const;  // safetensors; IoError on failure
  // ParseError when tensors are missing or mis-shaped, or metadata is bad.
  static EacaModel load(const std::string& path);
  // load(path), then check_lexicon(lexicon): what every front end that scores with the model needs.
  static EacaModel load(const std::string& path, const text::Lexicon& lexicon);
  // Throws InvalidArgument when the model was trained with a different lexicon (identity mismatch).
  void check_lexicon(const text::Lexicon& lexicon) const;

  // Flat parameter access for training and tests: config().members blocks of eaca_param_count each.
  std::vector<float>& parameters();
  const std::vector<float>& parameters() const;
  // The token-deletion model's weights (kCompressBuckets + 1, last = bias); empty when the model has
  // none. Used only while config().compress_threshold > 0 and the dialogue is Chinese.
  std::vector<float>& compressor() { return compressor_; }
  const std::vector<float>& compressor() const { return compressor_; }

 private:
  // score() and score_without_map() (map_max_units 0: no map) and score_profiled() (cost).
  UnitScores score_impl(const Prepared& dialogue, std::vector<LayerCost>* cost, int map_max_units) const;
  // score() before rendering: the members' averaged logits and, for dialogues of at most
  // `map_max_units` units, their averaged attention map (attention_map() passes no limit).
  UnitScores ensemble_scores(const Prepared& dialogue, std::vector<LayerCost>* cost, int map_max_units) const;

  EacaConfig config_;
  KvDtype kv_dtype_ = KvDtype::kFloat32;
  AttentionKernel attention_kernel_ = AttentionKernel::kAuto;
  std::vector<float> params_;
  // Each member's transposed_layout() (eaca_model.h), made by load() and ensemble() for scoring, and
  // dropped by the mutable parameters(): a model that trains transposes its weights on each forward.
  std::vector<float> transposed_;
  void keep_transposed();
  std::vector<float> compressor_;
  std::map<std::string, std::string> metadata_;
};

// The initialization seed of ensemble member k: `seed` itself for k = 0, a splitmix64 draw otherwise
// (so an ensemble's members never share a stream with another seed's member 0).
std::uint64_t member_seed(std::uint64_t seed, int k);

// The attention variant of `kessel train --attention`: "eaca" (softmax with the emotion score terms),
// "plain" (softmax without them: the seed's standard-Transformer row) or "fuzzy" (the emotion terms
// with fuzzy-membership normalization, m = 2). Sets emotion_terms and normalizer; InvalidArgument
// for any other name.
void set_attention_variant(EacaConfig& config, const std::string& name);

// Whether EacaConfig::boost_gate can apply to this config: the emotion terms, softmax, and neither
// adaptive_temperature nor emotion_balance (AttentionInputs::boost_gate refuses the last two).
bool boost_gate_supported(const EacaConfig& config);

// The context encoder named as `kessel train --context` names it: "bilstm" or "attention" (one
// self-attention layer). Sets context_bilstm; InvalidArgument for any other name.
void set_context_encoder(EacaConfig& config, const std::string& name);

// The English rendering of `kessel train/summarize --voice`: "reported" -> true, "verbatim" -> false
// (EacaConfig::reported_speech); InvalidArgument for any other name.
bool parse_voice(const std::string& voice);

// "" when `scorer` is not an EacaModel, or its file records no training languages (__metadata__.languages,
// written since 2026-11-30), or every dialogue is in one of them. Otherwise a sentence for the front
// end to print: "the model was trained on en dialogues; 3 of 10 dialogues are zh ...". Such dialogues
// are still scored (a corpus may mix languages), but a model's hashed features and budget are
// learned for its languages.
std::string language_warning(const Scorer& scorer, const std::vector<text::Dialogue>& dialogues);
// The same from counts gathered as the dialogues went by (a stream): `langs` of `dialogues` in all.
std::string language_warning(const Scorer& scorer, const LangCounts& langs, std::size_t dialogues);

// ---- training ----------------------------------------------------------------------------------------
struct TrainOptions {
  int epochs = 30;
  int patience = 5;        // early stopping: epochs without a dev ROUGE-L gain
  int batch_size = 8;      // dialogues per AdamW step
  float lr = 3e-3f;
  float weight_decay = 0.01f;
  float warmup_fraction = 0.1f;  // of all steps
  // Epochs whose attention logits are z-scored (the similarity divided by std(q.k) over the dialogue
  // instead of sqrt(width); seed 000 §5.2 tip 1); later epochs and scoring use 1/sqrt(width). 0: off.
  // Measured in docs/eaca-experiments.md ("Warm-up scale").
  int zscore_warmup_epochs = 0;
  float coverage_weight = 0.3f;  // has-emotion BCE weight
  float source_weight = 0.3f;    // emotion-source BCE weight
  std::uint64_t seed = 1;
  bool verbose = true;           // one line per epoch on stderr
  std::string data_name;         // recorded in the model's metadata
  // Budget: max_chars = budget_quantile of the training references' lengths (code points, rendered
  // prefixes excluded) when > 0; max_sentences = the 90th percentile of oracle sizes.
  float budget_quantile = 0.5f;
  // Then pick max_chars among {0.6, 0.8, ..., 2.0} x that budget by dev ROUGE-L (after early stopping;
  // the dev split is then no longer an unbiased estimate: report a held-out split or CV folds).
  // With length_budget the same factor grid picks budget_scale, and max_chars follows it.
  bool select_budget = true;
  // Per-dialogue budget: least squares of the oracle summary's chars on the dialogue's chars over the
  // training dialogues, clamped to the 5th..95th percentile of the oracle lengths (EacaConfig::budget_*).
  // Off: one fixed max_chars for every dialogue.
  bool length_budget = true;
  // Labels: TweetSumm-style human extractive selections (share of annotators who picked the unit)
  // mixed with the greedy oracle: y = human_label_weight * human + (1 - weight) * oracle.
  // Default 0: on TweetSumm the oracle targets scored higher on the inner dev split (docs/eaca.md).
  float human_label_weight = 0.0f;
  // Token deletion (compress.h): train the compressor on the oracle units of the training dialogues
  // and let dev pick its threshold (0 = off among the candidates) together with the budget. Only when
  // most training dialogues are Chinese.
  bool compress = true;
  // Cross-fitting: split the training dialogues into EacaConfig::members folds (seeded); member k
  // trains on the other folds and early-stops on fold k, and the decoding choices (budget, deletion
  // threshold) are scored out of fold on all training dialogues. `dev` is then not
  // used and may be empty. Every dialogue trains all members but one, and the choices see the whole
  // training set rather than a 15% split.
  bool cross_fit = false;
  // Threads (<= 0: what OpenMP would use). The ensemble's members train in parallel and the decoding
  // choices score and decode dialogues in parallel; every item is single-threaded and the results are
  // combined in a fixed order, so the model is the same file for any thread count.
  int threads = 1;
};

struct EpochLog {
  int member = 0;  // ensemble member (EacaConfig::members), 0 for a single model
  int epoch = 0;
  double loss = 0.0;
  double dev_rouge1 = 0.0, dev_rouge2 = 0.0, dev_rougeL = 0.0;  // F1 x 100
  double dialogues_per_second = 0.0;
};

struct TrainResult {
  std::vector<EpochLog> epochs;              // every member's, in training order
  int best_epoch = 0;                        // member 0's
  std::vector<int> member_best_epochs;       // early-stopping epoch of each member
  std::vector<double> member_dev_rougeL;     // each member's best dev ROUGE-L (fixed base budget)
  double best_dev_rougeL = 0.0;              // the returned model's, after the budget choice
  double seconds = 0.0;
};

// Trains on `train`, selecting the epoch by dev ROUGE-L (CSDS protocol for zh, best over references
// for en). Dialogues without references are skipped for training and counted in the log; dev must
// have at least one dialogue with a reference. The returned model holds the best epoch's parameters.
EacaModel train_eaca(const std::vector<text::Dialogue>& train, const std::vector<text::Dialogue>& dev,
                     const text::Lexicon& lexicon, const EacaConfig& config, const TrainOptions& options,
                     TrainResult* result = nullptr);

// Dev ROUGE of any scorer under decode options (mean F1 x 100 over dialogues with references).
struct DevRouge {
  double rouge1 = 0.0, rouge2 = 0.0, rougeL = 0.0;
  int dialogues = 0;
  std::vector<double> rougeL_dialogues;  // each scored dialogue's ROUGE-L F1 x 100 (for intervals)
  double shown_chars = 0.0;              // the summaries' mean length as scored, in code points
};
DevRouge evaluate_rouge(const std::vector<text::Dialogue>& dialogues, const text::Lexicon& lexicon,
                        const Scorer& scorer, const DecodeOptions& options);

// evaluate_rouge in two steps, for a grid of decode options over one scorer: the dialogues with
// references prepared and scored once (`dialogues` must outlive the result, which points into it),
// then decoded and scored under each option set.
struct ScoredDialogues {
  std::vector<Prepared> prepared;
  std::vector<UnitScores> scores;
  std::vector<std::vector<std::string>> references;
};
ScoredDialogues score_dialogues(const std::vector<text::Dialogue>& dialogues, const text::Lexicon& lexicon,
                                const Scorer& scorer, int threads = 1);
DevRouge decoded_rouge(const ScoredDialogues& scored, const DecodeOptions& options, int threads = 1);

}  // namespace kessel::summarize
