#include "kessel/summarize/scorers.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>

#include "kessel/error.h"

namespace kessel::summarize {
namespace {

using text::Speaker;

text::Dialogue dialogue_of(const std::vector<std::pair<Speaker, std::string>>& turns) {
  text::Dialogue d;
  d.id = "t";
  for (const auto& [speaker, sentence] : turns) {
    text::Turn t;
    t.speaker = speaker;
    t.text = sentence;
    t.sentences = {sentence};
    d.turns.push_back(t);
  }
  return d;
}

const text::Lexicon& lexicon() {
  static const text::Lexicon lex = text::load_default_lexicon(KESSEL_SOURCE_DIR "/data/lexicon");
  return lex;
}

TEST(DampedStationary, MatchesTheClosedFormOfATwoNodeChain) {
  // P = [[0, 1], [1, 0]] is symmetric: the stationary distribution is uniform for any damping.
  auto c = damped_stationary({0, 1, 1, 0}, 2, 0.85f);
  EXPECT_NEAR(c[0], 0.5, 1e-6);
  EXPECT_NEAR(c[1], 0.5, 1e-6);
  // A star: node 0 is pointed to by 1 and 2, and points back to both. Without damping c0 = 1/2.
  auto star = damped_stationary({0, 1, 1, 1, 0, 0, 1, 0, 0}, 3, 0.0f);
  EXPECT_NEAR(star[0], 1.0 / 3, 1e-6);  // damping 0: uniform teleport only
  auto star_d = damped_stationary({0, 1, 1, 1, 0, 0, 1, 0, 0}, 3, 0.85f, 1000, 1e-12);
  // c0 = 0.05 + 0.85 (c1 + c2), c1 = c2 = 0.05 + 0.425 c0  ->  c0 = 0.135 / 0.2775
  EXPECT_NEAR(star_d[0], 0.05 + 0.85 * (1 - star_d[0]), 1e-6);
  EXPECT_GT(star_d[0], star_d[1]);
}

TEST(DampedStationary, TeleportVectorMatchesTheClosedForm) {
  // P = [[0, 1], [1, 0]], teleport (0.8, 0.2) (given unnormalized), d = 0.5:
  // c0 = (1 - d) 0.8 + d c1, c1 = (1 - d) 0.2 + d c0  ->  c0 = (0.8 + 0.2 d) / (1 + d) = 0.6.
  auto c = damped_stationary({0, 1, 1, 0}, 2, 0.5f, 1000, 1e-12, {4.0, 1.0});
  EXPECT_NEAR(c[0], 0.6, 1e-6);
  EXPECT_NEAR(c[1], 0.4, 1e-6);
  // A node with no edges jumps as the teleport does: with P = 0 the answer is the teleport itself.
  auto dangling = damped_stationary({0, 0, 0, 0}, 2, 0.85f, 1000, 1e-12, {3.0, 1.0});
  EXPECT_NEAR(dangling[0], 0.75, 1e-6);
  EXPECT_THROW(damped_stationary({0, 1, 1, 0}, 2, 0.5f, 100, 1e-9, {1.0}), InvalidArgument);
  EXPECT_THROW(damped_stationary({0, 1, 1, 0}, 2, 0.5f, 100, 1e-9, {0.0, 0.0}), InvalidArgument);
  EXPECT_THROW(damped_stationary({0, 1, 1, 0}, 2, 0.5f, 100, 1e-9, {-1.0, 2.0}), InvalidArgument);
}

TEST(Scorers, CentralityBreaksTiesTowardsTheOpening) {
  // Four units with the same content: only the position prior separates them, earliest first.
  auto d = dialogue_of({{Speaker::customer, "my parcel is late"},
                        {Speaker::agent, "my parcel is late"},
                        {Speaker::customer, "my parcel is late"},
                        {Speaker::agent, "my parcel is late"}});
  Prepared p = prepare(d, lexicon());
  CentralityOptions positional;
  positional.resolution_prior_en = 0.0f;  // tested below
  UnitScores s = CentralityScorer(positional).score(p);
  for (int u = 0; u + 1 < 4; ++u) EXPECT_GT(s.salience[u], s.salience[u + 1]) << u;
  CentralityOptions flat;
  flat.position_bias = 0.0f;
  flat.request_prior = 0.0f;
  flat.resolution_prior_en = 0.0f;
  flat.lexrank_weight = 0.0f;  // the stationary distribution itself
  s = CentralityScorer(flat).score(p);
  for (int u = 0; u + 1 < 4; ++u) EXPECT_NEAR(s.salience[u], 0.25f, 1e-6) << u;
  // The request prior alone lifts the customer's first unit; LexRank's equal scores change no order.
  flat.request_prior = 1.0f;
  flat.lexrank_weight = 0.5f;
  s = CentralityScorer(flat).score(p);
  for (int u = 1; u < 4; ++u) EXPECT_GT(s.salience[0], s.salience[u]) << u;
  EXPECT_NEAR(s.salience[1], s.salience[3], 1e-6);
  // The resolution prior lifts the agent's last unit (English; Chinese has none by default).
  flat.resolution_prior_en = 8.0f;
  s = CentralityScorer(flat).score(p);
  EXPECT_GT(s.salience[3], s.salience[1]);
  EXPECT_GT(s.salience[3], s.salience[2]);
  flat.resolution_prior_en = -1.0f;
  EXPECT_THROW(CentralityScorer{flat}, InvalidArgument);
  flat.resolution_prior_en = 0.0f;
  flat.lexrank_weight = 1.5f;
  EXPECT_THROW(CentralityScorer{flat}, InvalidArgument);
  flat.lexrank_weight = 0.0f;
  flat.position_bias = -1.0f;
  EXPECT_THROW(CentralityScorer{flat}, InvalidArgument);
}

TEST(Scorers, CentralityPrefersTheUnitThatSharesTheMostContent) {
  auto d = dialogue_of({{Speaker::customer, "订单物流一直没有更新"},
                        {Speaker::agent, "您好请问有什么可以帮您"},
                        {Speaker::customer, "订单物流没更新，快递在哪里"},
                        {Speaker::agent, "已为您催促快递，物流会更新"},
                        {Speaker::customer, "天气不错"}});
  Prepared p = prepare(d, lexicon());
  for (auto normalizer : {Normalizer::kSoftmax, Normalizer::kFuzzy}) {
    CentralityOptions o;
    o.normalizer = normalizer;
    o.position_bias = 0.0f;  // the graph alone (the opening's and the request's priors are tested above)
    o.request_prior = 0.0f;
    UnitScores s = CentralityScorer(o).score(p);
    ASSERT_EQ(s.salience.size(), 5u);
    for (float v : s.salience) EXPECT_TRUE(std::isfinite(v));
    const auto best = std::max_element(s.salience.begin(), s.salience.end()) - s.salience.begin();
    EXPECT_EQ(best, 2) << CentralityScorer(o).name();
    EXPECT_LT(s.salience[4], s.salience[2]);
    // Explanation: one row per customer unit, each a distribution without self-attention.
    ASSERT_EQ(s.attention.dim(0), 3);
    ASSERT_EQ(s.attention_queries, (std::vector<int>{0, 2, 4}));
    for (Index r = 0; r < 3; ++r) {
      double sum = 0;
      for (Index j = 0; j < 5; ++j) sum += s.attention[r * 5 + j];
      EXPECT_NEAR(sum, 1.0, 1e-5);
      EXPECT_EQ(s.attention[r * 5 + s.attention_queries[static_cast<size_t>(r)]], 0.0f);
    }
  }
}

TEST(Scorers, SingleUnitAndEmptyDialogues) {
  auto one = dialogue_of({{Speaker::customer, "😡"}});
  Prepared p = prepare(one, lexicon());
  UnitScores s = CentralityScorer().score(p);
  ASSERT_EQ(s.salience.size(), 1u);
  EXPECT_TRUE(std::isfinite(s.salience[0]));
  text::Dialogue empty;
  Prepared pe = prepare(empty, lexicon());
  EXPECT_TRUE(CentralityScorer().score(pe).salience.empty());
}

TEST(Scorers, GraphRankersRefuseDialoguesBeyondTheirLimitNamingThem) {
  std::vector<std::pair<Speaker, std::string>> turns;
  for (int i = 0; i <= kMaxGraphUnits; ++i)
    turns.push_back({i % 2 ? Speaker::agent : Speaker::customer, "turn " + std::to_string(i)});
  text::Dialogue d = dialogue_of(turns);
  d.id = "long-one";
  d.line = 7;
  const Prepared p = prepare(d, lexicon());
  ASSERT_EQ(p.units.size(), static_cast<std::size_t>(kMaxGraphUnits) + 1);
  const CentralityScorer centrality;
  const LexRankScorer lexrank;
  for (const Scorer* scorer : {static_cast<const Scorer*>(&centrality), static_cast<const Scorer*>(&lexrank)}) {
    try {
      scorer->score(p);
      ADD_FAILURE() << scorer->name() << " accepted " << p.units.size() << " units";
    } catch (const InvalidArgument& e) {
      EXPECT_NE(std::string(e.what()).find("dialogue 'long-one' (line 7) has 20001 sentences"), std::string::npos)
          << e.what();
    }
  }
}

TEST(Scorers, CentralityExplainsOnlyDialoguesUpToTheMapLimit) {
  std::vector<std::pair<Speaker, std::string>> turns;
  for (int i = 0; i <= kMaxExplainUnits; ++i)
    turns.push_back({i % 2 ? Speaker::agent : Speaker::customer, "order " + std::to_string(i % 7) + " is late"});
  Prepared p = prepare(dialogue_of(turns), lexicon());
  UnitScores s = CentralityScorer().score(p);
  EXPECT_EQ(s.salience.size(), p.units.size());
  EXPECT_EQ(s.attention.size(), 0);
  EXPECT_TRUE(s.attention_queries.empty());
  // attention_map has no limit: the same rows at any size.
  const AttentionMap big = CentralityScorer().attention_map(p);
  EXPECT_EQ(big.weights.dim(0), (kMaxExplainUnits + 2) / 2);
  EXPECT_EQ(big.weights.dim(1), kMaxExplainUnits + 1);
  turns.pop_back();
  p = prepare(dialogue_of(turns), lexicon());
  s = CentralityScorer().score(p);
  EXPECT_EQ(s.attention.dim(0), (kMaxExplainUnits + 1) / 2);
  EXPECT_EQ(s.attention.dim(1), kMaxExplainUnits);
  // Below the limit attention_map is exactly what score() explains with.
  const AttentionMap map = CentralityScorer().attention_map(p);
  EXPECT_EQ(map.queries, s.attention_queries);
  ASSERT_EQ(map.weights.size(), s.attention.size());
  for (Index i = 0; i < s.attention.size(); ++i) ASSERT_EQ(map.weights[i], s.attention[i]) << i;
  EXPECT_EQ(LeadScorer().attention_map(p).weights.size(), 0) << "a baseline has no map";
}

TEST(Scorers, LeadAndLongest) {
  auto d = dialogue_of({{Speaker::customer, "短"}, {Speaker::agent, "这一句最长的回复内容"}, {Speaker::customer, "中等长度"}});
  Prepared p = prepare(d, lexicon());
  auto lead = LeadScorer().score(p).salience;
  EXPECT_GT(lead[0], lead[1]);
  EXPECT_GT(lead[1], lead[2]);
  auto longest = LongestScorer().score(p).salience;
  EXPECT_GT(longest[1], longest[2]);
  EXPECT_GT(longest[2], longest[0]);
  auto lexrank = LexRankScorer().score(p).salience;
  EXPECT_EQ(lexrank.size(), 3u);
}

}  // namespace
}  // namespace kessel::summarize
