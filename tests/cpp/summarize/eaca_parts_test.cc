// EACA building blocks: AdamW, the greedy oracle, the per-unit features and hashing.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "kessel/text/lexicon.h"
#include "kessel/text/tokenize.h"
#include "kessel/text/utf8.h"
#include "util/hash.h"
#include "summarize/adamw.h"
#include "summarize/eaca_decoding_choice.h"
#include "summarize/eaca_features.h"
#include "summarize/oracle.h"

namespace kessel::summarize {
namespace {

TEST(EacaAdamW, MatchesTheUpdateRuleAndSchedule) {
  AdamWOptions o;
  o.lr = 0.1f;
  o.weight_decay = 0.5f;
  o.warmup_steps = 2;
  o.total_steps = 6;
  o.final_lr_fraction = 0.1f;
  AdamW opt(2, {1, 0}, o);
  EXPECT_FLOAT_EQ(opt.learning_rate(1), 0.05f);
  EXPECT_FLOAT_EQ(opt.learning_rate(2), 0.1f);
  EXPECT_FLOAT_EQ(opt.learning_rate(6), 0.01f);
  float p[2] = {1.0f, 1.0f};
  const float g[2] = {0.2f, -0.4f};
  opt.step(p, g);
  // Step 1: m_hat = g, v_hat = g^2, so the Adam part is sign(g) (up to eps); lr = 0.05.
  EXPECT_NEAR(p[0], 1.0f - 0.05f * (1.0f + 0.5f * 1.0f), 1e-6);
  EXPECT_NEAR(p[1], 1.0f + 0.05f, 1e-6);  // no decay on the second parameter
  EXPECT_THROW(AdamW(2, {1}, o), InvalidArgument);
  o.lr = -1.0f;
  EXPECT_THROW(AdamW(1, {1}, o), InvalidArgument);
}

text::Dialogue dialogue(std::vector<std::pair<text::Speaker, std::string>> turns) {
  text::Dialogue d;
  for (auto& [s, t] : turns) {
    text::Turn turn;
    turn.speaker = s;
    turn.text = t;
    turn.sentences = text::split_sentences(t);
    d.turns.push_back(turn);
  }
  return d;
}

TEST(EacaDecodingChoice, PairedStandardErrorIsTheDifferencesStandardErrorOfTheMean) {
  // numpy: d = a - b; d.std(ddof=1) / sqrt(len(d)).
  const std::vector<double> a = {40.0, 55.5, 31.2, 60.0, 48.8}, b = {38.0, 56.5, 30.0, 57.5, 49.0};
  EXPECT_NEAR(paired_standard_error(a, b), 0.65878676368, 1e-9);
  EXPECT_DOUBLE_EQ(paired_standard_error(a, a), 0.0);  // no noise between a setting and itself
  EXPECT_DOUBLE_EQ(paired_standard_error({1.0}, {2.0}), 0.0);  // one pair: no spread to measure
}

TEST(EacaOracle, PicksTheUnitsTheReferenceRepeats) {
  const auto lex = text::load_default_lexicon(std::string(KESSEL_SOURCE_DIR) + "/data/lexicon");
  const auto d = dialogue({{text::Speaker::customer, "在吗"},
                           {text::Speaker::customer, "我的快递三天没到"},
                           {text::Speaker::agent, "您好"},
                           {text::Speaker::agent, "已经为您催促快递员"}});
  const Prepared p = prepare(d, lex);
  EXPECT_EQ(greedy_oracle(p, {"用户:我的快递三天没到。客服:已经为您催促快递员。"}), (std::vector<int>{1, 3}));
  EXPECT_TRUE(greedy_oracle(p, {}).empty());
  OracleOptions one;
  one.max_units = 1;
  EXPECT_EQ(greedy_oracle(p, {"用户:我的快递三天没到。客服:已经为您催促快递员。"}, one).size(), 1u);
}

// hashed_ngrams as first written: each n-gram's string built, then hashed whole.
std::vector<std::int32_t> plain_hashed_ngrams(const std::vector<text::Token>& tokens, int buckets) {
  std::vector<std::int32_t> ids;
  const auto B = static_cast<std::uint64_t>(buckets);
  const text::Token* prev = nullptr;
  for (const auto& t : tokens) {
    const std::string form = t.kind == text::TokenKind::number ? std::string("<num>") : t.lower;
    ids.push_back(static_cast<std::int32_t>(fnv1a64(form, fnv1a64("1")) % B));
    if (text::is_punctuation(t)) {
      prev = nullptr;
      continue;
    }
    if (prev) {
      const std::string pair =
          (prev->kind == text::TokenKind::number ? std::string("<num>") : prev->lower) + '\x1f' + form;
      ids.push_back(static_cast<std::int32_t>(fnv1a64(pair, fnv1a64("2")) % B));
    }
    prev = &t;
  }
  return ids;
}

TEST(EacaFeatures, BucketOfIsTheRemainder) {
  std::uint64_t h = 0x9e3779b97f4a7c15ull;
  for (int i = 0; i < 1000; ++i) {
    h = h * 6364136223846793005ull + 1442695040888963407ull;
    for (std::uint64_t buckets : {1ull, 2ull, 3ull, 7ull, 1024ull, 16383ull, 16384ull, 16385ull, 1ull << 40})
      ASSERT_EQ(bucket_of(h, buckets), h % buckets) << h << " " << buckets;
  }
}

TEST(EacaFeatures, HashedNgramsMatchTheJoinedStringsTheyStandFor) {
  for (const char* text : {"我的快递三天没到，气死我了！", "Order 12345 arrived late... 2 days, :( why?",
                           "", "!!", "订单号[订单编号]，说好的次日达呢 3 天", "a b, c d"}) {
    const auto tokens = text::tokenize(text, text::TokenizeOptions{nullptr, text::Utf8Mode::lossy});
    for (int buckets : {1, 7, 16384}) EXPECT_EQ(hashed_ngrams(tokens, buckets), plain_hashed_ngrams(tokens, buckets)) << text;
  }
}

TEST(EacaFeatures, HashingIsStableAndFeaturesAreBounded) {
  // Fixed values: a change of hash function silently invalidates every saved model.
  EXPECT_EQ(fnv1a64(""), 0xcbf29ce484222325ull);
  EXPECT_EQ(fnv1a64("a"), 0xaf63dc4c8601ec8cull);
  const auto ids = hashed_ngrams("我的快递", 1000);
  EXPECT_EQ(ids.size(), 7u);  // 4 characters + 3 adjacent pairs
  EXPECT_EQ(ids, hashed_ngrams("我的快递", 1000));
  EXPECT_THROW(hashed_ngrams("x", 0), InvalidArgument);

  const auto lex = text::load_default_lexicon(std::string(KESSEL_SOURCE_DIR) + "/data/lexicon");
  auto d = dialogue({{text::Speaker::customer, "我的快递三天没到，气死我了！"},
                     {text::Speaker::agent, "您好，请问订单号是多少？"},
                     {text::Speaker::customer, "快递单号[数字]"}});
  const Prepared p = prepare(d, lex);
  const UnitFeatures f = compute_features(p, 512);
  ASSERT_EQ(f.units, static_cast<int>(p.units.size()));
  EXPECT_EQ(f.dense.size(), p.units.size() * kNumDenseFeatures);
  EXPECT_TRUE(f.times.empty());
  for (float v : f.dense) EXPECT_TRUE(v >= -1.0f && v <= 1.0f) << v;
  auto D = [&](int u, int c) { return f.dense[static_cast<std::size_t>(u) * kNumDenseFeatures + c]; };
  EXPECT_EQ(D(0, kCustomer), 1.0f);
  EXPECT_EQ(D(0, kFirstCustomer), 1.0f);
  EXPECT_EQ(D(0, kHasTime), 0.0f);
  EXPECT_TRUE(f.any_expressed) << "气死我了 is an expressed customer emotion";
  int question = 0, number = 0;
  for (int u = 0; u < f.units; ++u) {
    question += D(u, kQuestion) > 0;
    number += D(u, kNumberOrSlot) > 0;
  }
  EXPECT_EQ(question, 1);
  EXPECT_EQ(number, 1);
  // Units sharing 快递 with the rest of the dialogue are more central than the greeting.
  EXPECT_GT(D(0, kCentrality), 0.0f);

  for (auto& t : d.turns) t.time = 100.0;
  d.turns[2].time = 175.0;  // 75 s = a quarter of the 300 s period
  const UnitFeatures ft = compute_features(prepare(d, lex), 512);
  ASSERT_EQ(ft.times.size(), static_cast<std::size_t>(ft.units));
  const int last = ft.units - 1;
  EXPECT_NEAR(ft.dense[static_cast<std::size_t>(last) * kNumDenseFeatures + kTimeSin], 1.0f, 1e-5);
  EXPECT_NEAR(ft.dense[static_cast<std::size_t>(last) * kNumDenseFeatures + kTimeCos], 0.0f, 1e-5);
  d.turns[1].time.reset();  // partly timed: untimed, never invented
  EXPECT_TRUE(compute_features(prepare(d, lex), 512).times.empty());
}

// kQuestion as first written: the unit decoded (lossy), a question mark anywhere, or 吗/呢 last
// once trailing white space and punctuation are stripped. (prepare() refuses invalid UTF-8, so the
// units here are valid.)
bool plain_question(const std::string& text) {
  const auto cps = text::decode_utf8(text, text::Utf8Mode::lossy).cps;
  bool question = false;
  for (char32_t c : cps) question = question || c == U'?' || c == U'？';
  std::size_t end = cps.size();
  while (end > 0 && (text::is_space(cps[end - 1]) || text::is_punct(cps[end - 1]))) --end;
  return question || (end > 0 && (cps[end - 1] == U'吗' || cps[end - 1] == U'呢'));
}

TEST(EacaFeatures, QuestionFeatureMatchesTheDecodedReading) {
  const auto lex = text::load_default_lexicon(std::string(KESSEL_SOURCE_DIR) + "/data/lexicon");
  const std::vector<std::string> texts = {"在吗", "在吗 。。", "你们到底发不发货呢！！ ", "好的", "why?", "ok",
                                          "吗好的", "？", "是吗😡", "吗\u3000…", "呢 — ", "emoji 🙂 吗"};
  std::vector<std::pair<text::Speaker, std::string>> turns;
  for (const auto& t : texts) turns.emplace_back(text::Speaker::customer, t);
  const text::Dialogue d = dialogue(turns);  // the Prepared points into it
  const Prepared p = prepare(d, lex);
  const UnitFeatures f = compute_features(p, 64);
  int questions = 0;
  for (std::size_t u = 0; u < p.units.size(); ++u) {
    const bool got = f.dense[u * kNumDenseFeatures + kQuestion] > 0.0f;
    EXPECT_EQ(got, plain_question(p.units[u].text)) << p.units[u].text;
    questions += got;
  }
  EXPECT_GE(questions, 5);
}

// kCentrality and kOverlap as first written: each unit's token counts in a map, the rest of the
// dialogue's counts in another, and the cosine taken over them directly.
std::pair<float, float> plain_centrality_and_overlap(const Prepared& p, std::size_t u) {
  std::map<std::string, double> mine, all, units_with;
  for (std::size_t v = 0; v < p.units.size(); ++v) {
    std::map<std::string, double> here;
    for (const auto& t : p.unit_tokens[v])
      if (!text::is_punctuation(t)) here[t.lower] += 1.0;
    for (const auto& [w, c] : here) {
      all[w] += c;
      units_with[w] += 1.0;
    }
    if (v == u) mine = here;
  }
  double dot = 0.0, n_mine = 0.0, n_rest = 0.0;
  int shared = 0;
  for (const auto& [w, c] : all) {
    const double m = mine.count(w) ? mine[w] : 0.0, rest = c - m;
    dot += m * rest;
    n_mine += m * m;
    n_rest += rest * rest;
    if (m > 0 && units_with[w] > 1) ++shared;
  }
  const float centrality = (n_mine > 0 && n_rest > 1e-12) ? static_cast<float>(dot / std::sqrt(n_mine * n_rest)) : 0.0f;
  const float overlap = mine.empty() ? 0.0f : static_cast<float>(shared) / static_cast<float>(mine.size());
  return {centrality, overlap};
}

TEST(EacaFeatures, CentralityAndOverlapMatchThePlainCounts) {
  const auto lex = text::load_default_lexicon(std::string(KESSEL_SOURCE_DIR) + "/data/lexicon");
  const text::Dialogue d = dialogue({{text::Speaker::customer, "我的快递三天没到，快递快递！气死我了"},
                                     {text::Speaker::agent, "您好，请问快递单号是多少？"},
                                     {text::Speaker::customer, "单号[数字]，快递"},
                                     {text::Speaker::agent, "好的"},
                                     {text::Speaker::customer, "where is my parcel? my parcel, my PARCEL"}});
  const Prepared p = prepare(d, lex);
  const UnitFeatures f = compute_features(p, 512);
  for (std::size_t u = 0; u < p.units.size(); ++u) {
    const auto [centrality, overlap] = plain_centrality_and_overlap(p, u);
    EXPECT_FLOAT_EQ(f.dense[u * kNumDenseFeatures + kCentrality], centrality) << p.units[u].text;
    EXPECT_FLOAT_EQ(f.dense[u * kNumDenseFeatures + kOverlap], overlap) << p.units[u].text;
  }
}

TEST(EacaFeatures, LogLengthIsCappedBeyondTheTrainingUnits) {
  const auto lex = text::load_default_lexicon(std::string(KESSEL_SOURCE_DIR) + "/data/lexicon");
  const std::string tweet(298, 'a'), huge(20000, 'b');  // TweetSumm's longest sentence; a pasted log
  const UnitFeatures f = compute_features(
      prepare(dialogue({{text::Speaker::customer, tweet}, {text::Speaker::agent, huge}}), lex), 512);
  auto D = [&](int u, int c) { return f.dense[static_cast<std::size_t>(u) * kNumDenseFeatures + c]; };
  EXPECT_FLOAT_EQ(D(0, kLogLength), std::log1p(298.0f) / 5.0f);  // unchanged below the cap
  EXPECT_FLOAT_EQ(D(1, kLogLength), kMaxLogLength);
  EXPECT_NEAR(kMaxLogLength, 1.3818f, 1e-4f);  // ln(1001) / 5
}

}  // namespace
}  // namespace kessel::summarize
