// Scorers that need no training: the unsupervised attention-centrality ranker (the summarizer's
// model-free mode) and the classic extractive baselines of `kessel eval`.
#pragma once

#include <string>
#include <vector>

#include "kessel/attention.h"
#include "kessel/summarize/summary.h"

namespace kessel::summarize {

// Hashed TF-IDF vectors of the units [U, dim], rows L2-normalized (zero rows for units with no
// content). Features: CJK characters and character bigrams, lowercased words, numbers, emoji and
// emoticons (punctuation ignored); IDF over the dialogue's units, idf = ln((1 + U) / (1 + df)) + 1.
// Hashing is FNV-1a 64, so vectors are identical on every machine.
std::vector<float> unit_tfidf(const Prepared& dialogue, int dim);

// Ranks units by attention centrality: sentence vectors attend to each other through the engine
// (q = k = v = unit_tfidf, self excluded), and the salience is the stationary distribution of the
// resulting row-stochastic weight matrix with damping (PageRank over attention). The teleport is
// biased to the opening (PositionRank): unit u of U restarts with weight exp(-position_bias * u / U).
//   softmax: cosine similarity, weights = softmax(cos / temperature)
//   fuzzy:   weights = fuzzy c-means memberships of unit i to "centres" j, (d2 + eps)^(-1/(m-1))
// Units carrying an expressed customer emotion get `emotion_boost` added to their key logits (the
// engine's key_boost score term), so emotional units draw more attention. By default the graph holds
// only content units, the customer's first one gets a larger teleport, and the salience is mixed
// with LexRank's (CentralityOptions; docs/eaca.md, "Without a model", has the measurements).
// The graph rankers (CentralityScorer, LexRankScorer) hold a [U, U] float matrix: 1.6 GB at this
// many units. A longer dialogue is refused with InvalidArgument naming it.
inline constexpr int kMaxGraphUnits = 20000;

struct CentralityOptions {
  Normalizer normalizer = Normalizer::kSoftmax;
  float temperature = 0.2f;
  float m = 2.0f;
  // Chosen on TweetSumm train and CSDS val (docs/eaca.md, "Without a model: the unsupervised mode");
  // 0.85 and 0, plain PageRank, scored 5.1 ROUGE-L lower on TweetSumm valid (four sentences).
  float damping = 0.7f;
  float position_bias = 1.5f;
  float emotion_boost = 0.0f;
  // The graph over content units only (src/summarize/content.h): fillers, courtesies and sign-offs are
  // hidden keys and get no teleport, so "好的" and "Thanks!" neither draw attention nor pass it on.
  bool content_only = true;
  // The customer's first content unit (where the request usually is) restarts 1 + request_prior times
  // as often as its position alone gives.
  float request_prior = 1.0f;
  // The same for the agent's last content unit (where the answer usually is), by language. English 8:
  // a TweetSumm conversation is one issue that the agent's last tweets answer. Chinese 0: 47% of the
  // CSDS val dialogues have several topics (the reference has one QA pair each), and the last answer
  // covers only the last one; 0.5-4 lowered CSDS val by 0.04-0.36.
  float resolution_prior_en = 8.0f;
  float resolution_prior_zh = 0.0f;
  // The salience is (1 - w) c / max c + w l / max l with c the attention centrality and l LexRank's
  // stationary distribution (LexRankScorer's graph and damping): the thresholded graph counts how many
  // units a unit resembles, the attention how strongly, and the two disagree most on short units.
  float lexrank_weight = 0.25f;
  int dim = 512;
  int iterations = 100;
  double tolerance = 1e-9;
};

class CentralityScorer : public Scorer {
 public:
  explicit CentralityScorer(CentralityOptions options = {});
  std::string name() const override;
  UnitScores score(const Prepared& dialogue) const override;
  // One part, with the FLOPs of the attention (QK^T and PV over the units' tf-idf vectors).
  UnitScores score_profiled(const Prepared& dialogue, std::vector<LayerCost>& cost) const override;
  // The customer units' rows of the [U, U] attention the power iteration walks (self masked).
  AttentionMap attention_map(const Prepared& dialogue) const override;

 private:
  // [U, U] attention of every unit over the others, self masked, and with `content` (when not empty)
  // the units it marks 0 masked as keys (InvalidArgument past the graph limit). `tfidf` is
  // unit_tfidf(dialogue, options_.dim), when the caller made it already.
  std::vector<float> unit_attention(const Prepared& dialogue, const std::vector<char>& content,
                                    const std::vector<float>* tfidf = nullptr) const;
  // content_mask(dialogue) when options_.content_only, else empty.
  std::vector<char> graph_units(const Prepared& dialogue) const;
  CentralityOptions options_;
};

// Lead-N: the first units.
class LeadScorer : public Scorer {
 public:
  std::string name() const override { return "Lead"; }
  UnitScores score(const Prepared& dialogue) const override;
};

// Longest-N: the longest units (the CSDS paper's "Longest").
class LongestScorer : public Scorer {
 public:
  std::string name() const override { return "Longest"; }
  UnitScores score(const Prepared& dialogue) const override;
};

// LexRank (Erkan & Radev 2004): TF-IDF cosine graph thresholded at `threshold`, degree-normalized,
// PageRank with damping.
inline constexpr float kLexRankThreshold = 0.1f;
inline constexpr float kLexRankDamping = 0.85f;
class LexRankScorer : public Scorer {
 public:
  explicit LexRankScorer(float threshold = kLexRankThreshold, float damping = kLexRankDamping)
      : threshold_(threshold), damping_(damping) {}
  std::string name() const override { return "LexRank"; }
  UnitScores score(const Prepared& dialogue) const override;

 private:
  float threshold_, damping_;
};

// LexRank's salience of units with L2-normalized rows `x` [U, D] (unit_tfidf): the cosine graph
// thresholded at `threshold`, PageRank with damping and a uniform teleport. The dot products skip the
// zero entries of the rows; LexRankScorer, a published baseline, keeps its dense loop.
std::vector<float> lexrank_salience(const std::vector<float>& x, int U, int D, float threshold, float damping);

// Stationary distribution of a row-stochastic [n, n] matrix P with damping d and teleport t
// (normalized to sum 1; empty: uniform): c = (1 - d) t + d * P^T c, iterated to `tolerance` (L1) or
// `iterations`. Rows of P that sum to 0 (nodes with no edges) jump as the teleport does.
std::vector<float> damped_stationary(const std::vector<float>& P, int n, float damping,
                                     int iterations = 100, double tolerance = 1e-9,
                                     const std::vector<double>& teleport = {});

}  // namespace kessel::summarize
