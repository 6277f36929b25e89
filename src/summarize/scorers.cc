// Unsupervised attention centrality and the extractive baselines (include/kessel/summarize/scorers.h).
#include "kessel/summarize/scorers.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>

#include "kessel/error.h"
#include "kessel/text/tokenize.h"
#include "summarize/compress.h"
#include "summarize/content.h"
#include "util/hash.h"
#include "util/timer.h"

namespace kessel::summarize {

namespace {

// This ranker has always hashed from 1469598103934665603, the FNV offset basis missing its last digit
// (the standard one is 14695981039346656037). Any basis works; this one keeps the rankings as they were.
constexpr std::uint64_t kBasis = 1469598103934665603ull;

// The hashed features of one unit, with repeats (term frequency).
std::vector<std::uint32_t> unit_features(const std::vector<text::Token>& tokens, int dim) {
  std::vector<std::uint32_t> features;
  const std::string* previous_cjk = nullptr;
  for (const auto& t : tokens) {
    if (text::is_punctuation(t)) {
      previous_cjk = nullptr;
      continue;
    }
    features.push_back(static_cast<std::uint32_t>(fnv1a64(t.lower, kBasis) % static_cast<std::uint64_t>(dim)));
    if (t.kind == text::TokenKind::cjk) {
      if (previous_cjk) {
        // The bigram hash chains the two characters so it differs from both unigrams.
        features.push_back(static_cast<std::uint32_t>(
            fnv1a64(t.lower, fnv1a64(*previous_cjk, kBasis) ^ 0x9e3779b97f4a7c15ull) % static_cast<std::uint64_t>(dim)));
      }
      previous_cjk = &t.lower;
    } else {
      previous_cjk = nullptr;
    }
  }
  return features;
}

// The graph rankers hold the [U, U] weights for the power iteration: refuse, naming the dialogue,
// what would otherwise end in an out-of-memory kill.
void check_graph_size(const Prepared& p, const char* ranker) {
  const std::size_t U = p.units.size();
  if (U <= static_cast<std::size_t>(kMaxGraphUnits)) return;
  const std::string where = p.dialogue ? "dialogue '" + p.dialogue->id + "'" +
                                             (p.dialogue->line > 0 ? " (line " + std::to_string(p.dialogue->line) + ")" : "")
                                       : "the dialogue";
  throw InvalidArgument(std::string(ranker) + ": " + where + " has " + std::to_string(U) +
                        " sentences; this ranker keeps a sentence-by-sentence weight matrix (" +
                        std::to_string(U * U * sizeof(float) >> 20) + " MiB) and takes at most " +
                        std::to_string(kMaxGraphUnits) + ": summarize it with a model (--model) or split it");
}

}  // namespace

std::vector<float> unit_tfidf(const Prepared& p, int dim) {
  KESSEL_CHECK_ARG(dim >= 1, "unit_tfidf: dim must be >= 1, got ", dim);
  KESSEL_CHECK_ARG(p.unit_tokens.size() == p.units.size(), "unit_tfidf: Prepared has ", p.unit_tokens.size(),
                   " unit token lists for ", p.units.size(), " units (build it with prepare())");
  const std::size_t U = p.units.size();
  std::vector<std::vector<std::uint32_t>> features(U);
  std::vector<int> df(static_cast<std::size_t>(dim), 0);
  for (std::size_t u = 0; u < U; ++u) {
    features[u] = unit_features(p.unit_tokens[u], dim);
    auto unique = features[u];
    std::sort(unique.begin(), unique.end());
    unique.erase(std::unique(unique.begin(), unique.end()), unique.end());
    for (auto f : unique) ++df[f];
  }
  std::vector<float> x(U * static_cast<std::size_t>(dim), 0.0f);
  for (std::size_t u = 0; u < U; ++u) {
    float* row = x.data() + u * static_cast<std::size_t>(dim);
    for (auto f : features[u])
      row[f] += static_cast<float>(std::log((1.0 + U) / (1.0 + df[f])) + 1.0);
    double norm = 0.0;
    for (int d = 0; d < dim; ++d) norm += static_cast<double>(row[d]) * row[d];
    if (norm > 0)
      for (int d = 0; d < dim; ++d) row[d] = static_cast<float>(row[d] / std::sqrt(norm));
  }
  return x;
}

std::vector<float> damped_stationary(const std::vector<float>& P, int n, float damping,
                                     int iterations, double tolerance, const std::vector<double>& teleport) {
  KESSEL_CHECK_ARG(n >= 0 && P.size() == static_cast<std::size_t>(n) * static_cast<std::size_t>(n),
                   "damped_stationary: P has ", P.size(), " entries, expected n*n with n=", n);
  KESSEL_CHECK_ARG(damping >= 0.0f && damping < 1.0f, "damped_stationary: damping must be in [0, 1), got ",
                   damping);
  KESSEL_CHECK_ARG(teleport.empty() || teleport.size() == static_cast<std::size_t>(n),
                   "damped_stationary: teleport has ", teleport.size(), " entries, expected 0 or n=", n);
  if (n == 0) return {};
  std::vector<double> t = teleport;
  if (t.empty()) t.assign(static_cast<std::size_t>(n), 1.0 / n);
  double t_sum = 0.0;
  for (double v : t) {
    KESSEL_CHECK_ARG(std::isfinite(v) && v >= 0.0, "damped_stationary: teleport entries must be finite and >= 0, got ", v);
    t_sum += v;
  }
  KESSEL_CHECK_ARG(t_sum > 0.0, "damped_stationary: teleport sums to 0");
  for (double& v : t) v /= t_sum;
  std::vector<double> c(t), next(static_cast<std::size_t>(n));
  std::vector<double> row_sum(static_cast<std::size_t>(n), 0.0);
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) row_sum[static_cast<std::size_t>(i)] += P[static_cast<std::size_t>(i) * n + j];
  for (int it = 0; it < iterations; ++it) {
    for (int j = 0; j < n; ++j) next[static_cast<std::size_t>(j)] = (1.0 - damping) * t[static_cast<std::size_t>(j)];
    for (int i = 0; i < n; ++i) {
      const double ci = damping * c[static_cast<std::size_t>(i)];
      if (row_sum[static_cast<std::size_t>(i)] <= 0.0) {  // dangling node: jump as the teleport does
        for (int j = 0; j < n; ++j) next[static_cast<std::size_t>(j)] += ci * t[static_cast<std::size_t>(j)];
        continue;
      }
      const double inv = 1.0 / row_sum[static_cast<std::size_t>(i)];
      for (int j = 0; j < n; ++j)
        next[static_cast<std::size_t>(j)] += ci * P[static_cast<std::size_t>(i) * n + j] * inv;
    }
    double delta = 0.0;
    for (int j = 0; j < n; ++j) delta += std::fabs(next[static_cast<std::size_t>(j)] - c[static_cast<std::size_t>(j)]);
    c.swap(next);
    if (delta < tolerance) break;
  }
  return std::vector<float>(c.begin(), c.end());
}

CentralityScorer::CentralityScorer(CentralityOptions options) : options_(options) {
  KESSEL_CHECK_ARG(options_.dim >= 1, "centrality: dim must be >= 1, got ", options_.dim);
  KESSEL_CHECK_ARG(options_.temperature > 0.0f, "centrality: temperature must be > 0, got ",
                   options_.temperature);
  KESSEL_CHECK_ARG(options_.m > 1.0f, "centrality: m must be > 1, got ", options_.m);
  KESSEL_CHECK_ARG(std::isfinite(options_.position_bias) && options_.position_bias >= 0.0f,
                   "centrality: position_bias must be finite and >= 0, got ", options_.position_bias);
  KESSEL_CHECK_ARG(std::isfinite(options_.request_prior) && options_.request_prior >= 0.0f,
                   "centrality: request_prior must be finite and >= 0, got ", options_.request_prior);
  for (float prior : {options_.resolution_prior_en, options_.resolution_prior_zh})
    KESSEL_CHECK_ARG(std::isfinite(prior) && prior >= 0.0f, "centrality: resolution_prior must be finite and >= 0, got ",
                     prior);
  KESSEL_CHECK_ARG(options_.lexrank_weight >= 0.0f && options_.lexrank_weight <= 1.0f,
                   "centrality: lexrank_weight must be in [0, 1], got ", options_.lexrank_weight);
}

std::string CentralityScorer::name() const {
  return options_.normalizer == Normalizer::kFuzzy ? "Attention centrality (fuzzy)"
                                                   : "Attention centrality (softmax)";
}

UnitScores Scorer::score_profiled(const Prepared& p, std::vector<LayerCost>& cost) const {
  Timer timer;
  UnitScores s = score(p);
  cost.push_back({"score", timer.milliseconds(), 0.0});
  return s;
}

UnitScores CentralityScorer::score_profiled(const Prepared& p, std::vector<LayerCost>& cost) const {
  Timer timer;
  UnitScores s = score(p);
  const double U = static_cast<double>(p.units.size());
  cost.push_back({"tf-idf + attention + power iteration", timer.milliseconds(), 2.0 * U * U * options_.dim * 2.0});
  return s;
}

AttentionMap Scorer::attention_map(const Prepared&) const { return {}; }

UnitScores Scorer::score_without_map(const Prepared& p) const { return score(p); }

namespace {

// The rows of the customer units of a [U, U] map: the map a reviewer wants is "what did each customer
// sentence attend to".
AttentionMap customer_rows(const Prepared& p, const std::vector<float>& weights) {
  const auto U = static_cast<Index>(p.units.size());
  AttentionMap map;
  for (int u = 0; u < static_cast<int>(U); ++u)
    if (p.units[static_cast<std::size_t>(u)].speaker == text::Speaker::customer) map.queries.push_back(u);
  map.weights = Tensor({static_cast<Index>(map.queries.size()), U});
  for (std::size_t r = 0; r < map.queries.size(); ++r)
    std::copy_n(weights.data() + static_cast<std::size_t>(map.queries[r]) * static_cast<std::size_t>(U), U,
                map.weights.data() + r * static_cast<std::size_t>(U));
  return map;
}

}  // namespace

std::vector<char> CentralityScorer::graph_units(const Prepared& p) const {
  return options_.content_only ? content_mask(p) : std::vector<char>{};
}

std::vector<float> CentralityScorer::unit_attention(const Prepared& p, const std::vector<char>& content,
                                                    const std::vector<float>* tfidf) const {
  const int U = static_cast<int>(p.units.size());
  check_graph_size(p, "centrality");
  const int D = options_.dim;
  std::vector<float> made;
  if (tfidf == nullptr) made = unit_tfidf(p, D);
  const std::vector<float>& x = tfidf ? *tfidf : made;

  std::vector<float> boost(static_cast<std::size_t>(U), 0.0f);
  for (std::size_t m = 0; m < p.mentions.size(); ++m)
    if (p.mentions[m].expressed) boost[static_cast<std::size_t>(p.mention_unit[m])] = options_.emotion_boost;
  AttentionSpec spec;
  spec.normalizer = options_.normalizer;
  if (options_.normalizer == Normalizer::kSoftmax) {
    // Cosine similarity: the rows are unit-norm (or zero, which both score 0), so it is the dot
    // product with scale 1, which the fused weights compute on their vectorized path.
    spec.similarity = Similarity::kDot;
    spec.scale = 1.0f;
    spec.temperature = options_.temperature;
  } else {
    spec.m = options_.m;
    spec.fuzzy_eps = 1e-6f;  // empty units sit at the origin together; keep their weights finite
  }
  spec.threads = 1;

  // Rows are independent (no positions, per-row normalization), so the queries go through the engine
  // in blocks, each with its own self mask [rows, U] (a full [U, U] mask would be 100 MB for a
  // 10,000-turn dialogue).
  constexpr int kQueryBlock = 256;
  std::vector<float> weights(static_cast<std::size_t>(U) * U);
  std::vector<std::uint8_t> mask;
  for (int r0 = 0; r0 < U; r0 += kQueryBlock) {
    const int rows = std::min(kQueryBlock, U - r0);
    // Self is hidden: a unit's similarity to itself says nothing about its centrality (and under
    // fuzzy weights an exact self-match would take the whole row). So are the units that are not
    // content; a row that sees no key is all zeros, which the power iteration treats as dangling.
    mask.assign(static_cast<std::size_t>(rows) * U, 1);
    for (int i = 0; i < rows; ++i) {
      std::uint8_t* row = mask.data() + static_cast<std::size_t>(i) * U;
      if (!content.empty())
        for (int j = 0; j < U; ++j) row[j] = content[static_cast<std::size_t>(j)] ? 1 : 0;
      row[r0 + i] = 0;
    }
    AttentionInputs in;
    in.B = 1, in.H = 1, in.Lq = rows, in.Lk = U, in.D = D, in.Dv = D;
    in.q = x.data() + static_cast<std::size_t>(r0) * D;
    in.k = in.v = x.data();
    in.mask = Strided4<std::uint8_t>::contiguous(mask.data(), {1, 1, rows, U});
    if (options_.emotion_boost != 0.0f) in.key_boost = boost.data();
    attention_weights(weights.data() + static_cast<std::size_t>(r0) * U, in, spec);
  }
  return weights;
}

UnitScores CentralityScorer::score(const Prepared& p) const {
  const int U = static_cast<int>(p.units.size());
  UnitScores out;
  if (U == 0) return out;
  const std::vector<char> content = graph_units(p);
  // LexRank first: its [U, U] graph is gone before the attention's is built, so the peak is one matrix.
  // Both read the same tf-idf vectors, made once.
  check_graph_size(p, "centrality");
  const std::vector<float> tfidf = unit_tfidf(p, options_.dim);
  std::vector<float> lexrank;
  if (options_.lexrank_weight > 0.0f)
    lexrank = lexrank_salience(tfidf, U, options_.dim, kLexRankThreshold, kLexRankDamping);
  const std::vector<float> weights = unit_attention(p, content, &tfidf);

  // Teleport by position (PositionRank, Florescu & Caragea 2017): the random reader restarts near
  // the opening, where a customer states the issue, e^-position_bias times as often at the end; more
  // often at the customer's first content unit (request_prior) and the agent's last one
  // (resolution_prior_*), never at a unit outside the graph.
  std::vector<double> teleport(static_cast<std::size_t>(U));
  for (int u = 0; u < U; ++u)
    teleport[static_cast<std::size_t>(u)] = std::exp(-static_cast<double>(options_.position_bias) * u / U);
  auto in_graph = [&](std::size_t u) { return content.empty() || content[u]; };
  for (std::size_t u = 0; u < teleport.size(); ++u)
    if (!in_graph(u)) teleport[u] = 0.0;
  for (std::size_t u = 0; u < teleport.size(); ++u)
    if (in_graph(u) && p.units[u].speaker == text::Speaker::customer) {
      teleport[u] *= 1.0 + static_cast<double>(options_.request_prior);
      break;
    }
  const float resolution_prior = p.lang == Lang::en ? options_.resolution_prior_en : options_.resolution_prior_zh;
  for (std::size_t u = teleport.size(); u-- > 0;)
    if (in_graph(u) && p.units[u].speaker == text::Speaker::agent) {
      teleport[u] *= 1.0 + static_cast<double>(resolution_prior);
      break;
    }
  if (std::all_of(teleport.begin(), teleport.end(), [](double t) { return t == 0.0; }))
    teleport.assign(teleport.size(), 1.0);  // nothing is content: position alone
  out.salience = damped_stationary(weights, U, options_.damping, options_.iterations, options_.tolerance, teleport);
  if (!lexrank.empty()) {
    const float c_max = *std::max_element(out.salience.begin(), out.salience.end());
    const float l_max = *std::max_element(lexrank.begin(), lexrank.end());
    const float w = options_.lexrank_weight;
    for (std::size_t u = 0; u < out.salience.size(); ++u)
      out.salience[u] = (1.0f - w) * (c_max > 0.0f ? out.salience[u] / c_max : 0.0f) +
                        w * (l_max > 0.0f ? lexrank[u] / l_max : 0.0f);
  }
  // English renders as the trained model renders it verbatim: @mentions, URLs, salutations and
  // sign-offs dropped, so a unit that is only addressing ("^CAR", "@AmazonHelp") is never picked.
  if (p.lang == Lang::en) {
    const auto tokens = unit_tokens(p);
    for (std::size_t u = 0; u < p.units.size(); ++u)
      out.unit_text.push_back(render_english(p.units[u], tokens[u], /*reported_speech=*/false));
  }
  if (U > kMaxExplainUnits) return out;
  AttentionMap map = customer_rows(p, weights);
  out.attention_queries = std::move(map.queries);
  out.attention = std::move(map.weights);
  return out;
}

AttentionMap CentralityScorer::attention_map(const Prepared& p) const {
  if (p.units.empty()) return {};
  return customer_rows(p, unit_attention(p, graph_units(p)));
}

UnitScores LeadScorer::score(const Prepared& p) const {
  UnitScores out;
  const std::size_t U = p.units.size();
  for (std::size_t u = 0; u < U; ++u) out.salience.push_back(static_cast<float>(U - u));
  return out;
}

UnitScores LongestScorer::score(const Prepared& p) const {
  UnitScores out;
  // Ties go to the earlier unit, as a reader would.
  const std::size_t U = p.units.size();
  for (std::size_t u = 0; u < U; ++u)
    out.salience.push_back(static_cast<float>(p.units[u].chars) - 1e-3f * static_cast<float>(u) / (U + 1));
  return out;
}

std::vector<float> lexrank_salience(const std::vector<float>& x, int U, int D, float threshold, float damping) {
  KESSEL_CHECK_ARG(U >= 0 && D >= 1 && x.size() == static_cast<std::size_t>(U) * static_cast<std::size_t>(D),
                   "lexrank_salience: x has ", x.size(), " entries, expected U*D with U=", U, ", D=", D);
  // Each row's nonzero entries: a unit has tens of features among the D buckets.
  std::vector<std::vector<std::pair<int, float>>> nonzero(static_cast<std::size_t>(U));
  for (int i = 0; i < U; ++i)
    for (int d = 0; d < D; ++d)
      if (const float v = x[static_cast<std::size_t>(i) * D + d]; v != 0.0f) nonzero[static_cast<std::size_t>(i)].emplace_back(d, v);
  std::vector<float> adjacency(static_cast<std::size_t>(U) * U, 0.0f);
  for (int i = 0; i < U; ++i) {
    const float* row = x.data() + static_cast<std::size_t>(i) * D;
    for (int j = 0; j < U; ++j) {
      float dot = 0.0f;
      for (const auto& [d, v] : nonzero[static_cast<std::size_t>(j)]) dot += row[d] * v;
      adjacency[static_cast<std::size_t>(i) * U + j] = dot > threshold ? 1.0f : 0.0f;
    }
  }
  return damped_stationary(adjacency, U, damping);
}

UnitScores LexRankScorer::score(const Prepared& p) const {
  UnitScores out;
  const int U = static_cast<int>(p.units.size());
  if (U == 0) return out;
  check_graph_size(p, "lexrank");
  const int D = 512;
  const std::vector<float> x = unit_tfidf(p, D);
  std::vector<float> adjacency(static_cast<std::size_t>(U) * U, 0.0f);
  for (int i = 0; i < U; ++i) {
    for (int j = 0; j < U; ++j) {
      float dot = 0.0f;
      for (int d = 0; d < D; ++d)
        dot += x[static_cast<std::size_t>(i) * D + d] * x[static_cast<std::size_t>(j) * D + d];
      adjacency[static_cast<std::size_t>(i) * U + j] = dot > threshold_ ? 1.0f : 0.0f;
    }
  }
  out.salience = damped_stationary(adjacency, U, damping_);
  return out;
}

}  // namespace kessel::summarize
