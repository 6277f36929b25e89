// EACA model as a whole: deterministic scoring and the save/load round trip, transposed copies, the
// decoding options saved with the model (per-dialogue budget, expected-F1 stop, emotion clause),
// render(), what load() refuses in a damaged file, ensembles, and bad configs.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "eaca_model_fixtures.h"
#include "kessel/error.h"
#include "kessel/summarize/eaca.h"
#include "kessel/text/lexicon.h"
#include "summarize/compress.h"
#include "summarize/eaca_model.h"
#include "summarize/safetensors.h"
#include "test_dialogues.h"

namespace kessel::summarize {
namespace {

using testing::Fixture;

TEST(EacaModel, ScoreIsDeterministicAndSaveLoadRoundTrips) {
  Fixture fx(true);
  EacaConfig c = testing::small_eaca_config();
  c.max_chars = 40;
  EacaModel a(c, 3), b(c, 3);
  const UnitScores sa = a.score(fx.prepared), sb = b.score(fx.prepared);
  EXPECT_EQ(sa.salience, sb.salience);
  ASSERT_EQ(sa.salience.size(), fx.prepared.units.size());
  ASSERT_EQ(sa.mention_source.size(), fx.prepared.mentions.size());
  EXPECT_GT(sa.has_emotion, 0.0f);
  EXPECT_LT(sa.has_emotion, 1.0f);
  // The explanation: one row per customer unit, a distribution over all units.
  ASSERT_EQ(sa.attention.rank(), 2);
  EXPECT_EQ(static_cast<std::size_t>(sa.attention.dim(0)), sa.attention_queries.size());
  for (Index q = 0; q < sa.attention.dim(0); ++q) {
    double sum = 0.0;
    for (Index k = 0; k < sa.attention.dim(1); ++k) sum += sa.attention.data()[q * sa.attention.dim(1) + k];
    EXPECT_NEAR(sum, 1.0, 1e-5);
  }
  // attention_map (no size limit, for kessel stress) is the same ensemble map.
  const AttentionMap map = a.attention_map(fx.prepared);
  EXPECT_EQ(map.queries, sa.attention_queries);
  ASSERT_EQ(map.weights.size(), sa.attention.size());
  for (Index i = 0; i < sa.attention.size(); ++i) ASSERT_EQ(map.weights[i], sa.attention[i]) << i;

  a.metadata()["lexicon"] = fx.lex.identity();
  const auto path = (std::filesystem::temp_directory_path() / "kessel_eaca_roundtrip.safetensors").string();
  a.save(path);
  const EacaModel loaded = EacaModel::load(path);
  EXPECT_EQ(EacaModel::load(path, fx.lex).parameters(), a.parameters());  // load and check the lexicon
  EXPECT_THROW(EacaModel::load(path, text::Lexicon{}), InvalidArgument);
  std::filesystem::remove(path);
  EXPECT_EQ(loaded.parameters(), a.parameters());
  EXPECT_EQ(loaded.config().max_chars, 40);
  EXPECT_EQ(loaded.score(fx.prepared).salience, sa.salience);
  EXPECT_NO_THROW(loaded.check_lexicon(fx.lex));
  text::Lexicon other;
  EXPECT_THROW(loaded.check_lexicon(other), InvalidArgument);
}

// score_without_map is score() less the attention map: every other field the same, for one model
// and an ensemble, with the map's queries gone too.
TEST(EacaModel, ScoreWithoutMapIsScoreLessTheMap) {
  Fixture fx(true);
  for (const int members : {1, 3}) {
    EacaConfig c = testing::small_eaca_config();
    c.members = members;
    const EacaModel m(c, 7);
    const UnitScores with = m.score(fx.prepared), without = m.score_without_map(fx.prepared);
    ASSERT_GT(with.attention.size(), 0) << members;
    EXPECT_EQ(without.attention.size(), 0);
    EXPECT_TRUE(without.attention_queries.empty());
    EXPECT_EQ(without.salience, with.salience);
    EXPECT_EQ(without.inclusion, with.inclusion);
    EXPECT_EQ(without.mention_source, with.mention_source);
    EXPECT_EQ(without.has_emotion, with.has_emotion);
    EXPECT_EQ(without.max_chars, with.max_chars);
    EXPECT_EQ(without.unit_text, with.unit_text);
    EXPECT_EQ(without.unit_reported, with.unit_reported);
    EXPECT_EQ(without.attention_kernel, with.attention_kernel);
  }
}

// A loaded model scores through its weights' transposed copies (EacaModel::keep_transposed); the
// mutable parameters() drops them, so a changed weight is never scored through a stale copy.
TEST(EacaModel, TransposedCopiesScoreAsTheWeightsDoAndGoWhenTheWeightsMayChange) {
  Fixture fx(true);
  for (const bool bilstm : {false, true}) {
    EacaConfig c = testing::small_eaca_config();
    c.context_bilstm = bilstm;
    c.members = 2;
    EacaModel made(c, 5);
    made.metadata()["lexicon"] = fx.lex.identity();
    const auto path = (std::filesystem::temp_directory_path() / "kessel_eaca_transposed.safetensors").string();
    made.save(path);
    EacaModel loaded = EacaModel::load(path);
    std::filesystem::remove(path);
    const UnitScores before = made.score(fx.prepared);
    const UnitScores cached = loaded.score(fx.prepared);
    EXPECT_EQ(cached.salience, before.salience) << "bilstm " << bilstm;
    EXPECT_EQ(cached.mention_source, before.mention_source);
    EXPECT_EQ(cached.has_emotion, before.has_emotion);
    // Move one fusion weight of each member, in both models: the scores move, and stay equal.
    const EacaDims d = dims_of(c);
    const std::int64_t P = eaca_param_count(d);
    std::int64_t w_in = -1;
    for (const auto& spec : eaca_param_specs(d))
      if (spec.name == "w_in") w_in = spec.offset;
    ASSERT_GE(w_in, 0);
    for (EacaModel* m : {&made, &loaded})
      for (int k = 0; k < c.members; ++k) m->parameters()[static_cast<std::size_t>(P * k + w_in)] += 0.75f;
    const UnitScores moved = loaded.score(fx.prepared);
    EXPECT_NE(moved.salience, before.salience);
    EXPECT_EQ(moved.salience, made.score(fx.prepared).salience);
  }
}

TEST(EacaModel, PerDialogueBudgetIsScoredSavedAndOptional) {
  EacaConfig c = testing::small_eaca_config();
  c.max_chars = 40;
  EXPECT_EQ(length_budget(c, 500), 0);  // budget_max = 0: none, the fixed max_chars decides
  c.budget_intercept = 20.0f;
  c.budget_slope = 0.1f;
  c.budget_min = 30;
  c.budget_max = 90;
  EXPECT_EQ(length_budget(c, 300), 50);   // 20 + 0.1 * 300
  EXPECT_EQ(length_budget(c, 0), 30);     // clamped below
  EXPECT_EQ(length_budget(c, 5000), 90);  // and above
  c.budget_scale = 1.5f;
  EXPECT_EQ(length_budget(c, 300), 75);  // the dev-chosen scale applies after the clamp
  EXPECT_EQ(length_budget(c, 5000), 135);
  EXPECT_THROW(length_budget(c, -1), InvalidArgument);

  Fixture fx(false);
  long chars = 0;
  for (const auto& unit : fx.prepared.units) chars += unit.chars;
  EacaModel a(c, 3);
  EXPECT_EQ(a.score(fx.prepared).max_chars, length_budget(c, chars));
  const auto path = (std::filesystem::temp_directory_path() / "kessel_eaca_budget.safetensors").string();
  a.save(path);
  const EacaModel loaded = EacaModel::load(path);
  EXPECT_EQ(loaded.config().budget_intercept, 20.0f);
  EXPECT_EQ(loaded.config().budget_slope, 0.1f);
  EXPECT_EQ(loaded.config().budget_min, 30);
  EXPECT_EQ(loaded.config().budget_max, 90);
  EXPECT_EQ(loaded.config().budget_scale, 1.5f);
  EXPECT_EQ(loaded.score(fx.prepared).max_chars, length_budget(c, chars));

  // A model saved before the per-dialogue budget existed has none of its keys: the fixed budget.
  auto meta = config_metadata(c);
  for (const char* k : {"budget_intercept", "budget_slope", "budget_min", "budget_max", "budget_scale"}) meta.erase(k);
  const EacaConfig old = config_from_metadata(meta, "old.safetensors");
  EXPECT_EQ(old.budget_max, 0);
  EXPECT_EQ(old.max_chars, 40);
  EXPECT_EQ(EacaModel(old, 3).score(fx.prepared).max_chars, 0);
  // Some keys but not all, or an inverted clamp: a damaged file, not an old one.
  meta["budget_max"] = "90";
  EXPECT_THROW(config_from_metadata(meta, "partial.safetensors"), ParseError);
  meta = config_metadata(c);
  meta["budget_min"] = "100";
  EXPECT_THROW(config_from_metadata(meta, "inverted.safetensors"), ParseError);
  std::filesystem::remove(path);
}

TEST(EacaModel, ExpectedF1StopIsScoredSavedAndOptional) {
  Fixture fx(false);
  EacaConfig c = testing::small_eaca_config();
  c.f1_stop_chars = 125.0f;
  EacaModel a(c, 3);
  const UnitScores s = a.score(fx.prepared);
  // The inclusion probabilities are the sigmoid of the (ensemble-averaged) salience logits.
  ASSERT_EQ(s.inclusion.size(), s.salience.size());
  for (std::size_t u = 0; u < s.salience.size(); ++u)
    EXPECT_FLOAT_EQ(s.inclusion[u], 1.0f / (1.0f + std::exp(-s.salience[u])));
  EXPECT_EQ(a.decode_options().f1_stop_chars, 125.0f);
  const auto path = (std::filesystem::temp_directory_path() / "kessel_eaca_f1_stop.safetensors").string();
  a.save(path);
  EXPECT_EQ(EacaModel::load(path).decode_options().f1_stop_chars, 125.0f);
  std::filesystem::remove(path);
  // A model saved before the stop existed has no key: off, the full budget as before.
  auto meta = config_metadata(c);
  meta.erase("f1_stop_chars");
  EXPECT_EQ(config_from_metadata(meta, "old.safetensors").f1_stop_chars, 0.0f);
  meta["f1_stop_chars"] = "-5";
  try {
    config_from_metadata(meta, "bad.safetensors");
    FAIL();
  } catch (const ParseError& e) {
    EXPECT_NE(std::string(e.what()).find("f1_stop_chars"), std::string::npos) << e.what();
  }
}

TEST(EacaModel, EmotionClauseIsSavedAndOffForOlderModels) {
  EacaConfig c = testing::small_eaca_config();
  EXPECT_TRUE(c.emotion_clause);  // new models keep the emotion clause
  EXPECT_TRUE(EacaModel(c, 3).decode_options().emotion_clause);
  for (bool on : {false, true}) {
    c.emotion_clause = on;
    EXPECT_EQ(config_from_metadata(config_metadata(c), "m.safetensors").emotion_clause, on);
  }
  // A model saved before the key existed chose its budget and stop with whole sentences: it keeps them.
  auto meta = config_metadata(c);
  meta.erase("emotion_clause");
  EXPECT_FALSE(config_from_metadata(meta, "old.safetensors").emotion_clause);
  meta["emotion_clause"] = "maybe";
  try {
    config_from_metadata(meta, "bad.safetensors");
    FAIL();
  } catch (const ParseError& e) {
    EXPECT_NE(std::string(e.what()).find("emotion_clause"), std::string::npos) << e.what();
  }
}

// render() redoes what score() adds after the networks, under the config as it is now: training's
// decoding grid keeps the scores and re-renders them per setting instead of scoring again.
TEST(EacaModel, RenderRedoesTheBudgetAndTheRenderingUnderTheCurrentConfig) {
  Fixture fx(false);
  EacaConfig c = testing::small_eaca_config();
  c.compress_threshold = 0.3f;
  EacaModel a(c, 5);
  a.compressor().resize(kCompressBuckets + 1);
  for (std::size_t i = 0; i < a.compressor().size(); ++i)
    a.compressor()[i] = std::sin(static_cast<float>(i));  // varied weights: thresholds differ
  UnitScores kept = a.score(fx.prepared);
  bool texts_changed = false;
  for (float threshold : {0.6f, 0.0f, 0.45f}) {
    a.mutable_config().compress_threshold = threshold;
    a.mutable_config().max_chars = 25;
    a.mutable_config().budget_intercept = 10.0f;
    a.mutable_config().budget_slope = 0.2f;
    a.mutable_config().budget_min = 12;
    a.mutable_config().budget_max = 60;
    a.mutable_config().budget_scale = threshold + 1.0f;
    const std::vector<std::string> before = kept.unit_text;
    a.render(fx.prepared, kept);
    const UnitScores fresh = a.score(fx.prepared);
    EXPECT_EQ(kept.max_chars, fresh.max_chars) << threshold;
    EXPECT_EQ(kept.unit_text, fresh.unit_text) << threshold;
    EXPECT_EQ(kept.salience, fresh.salience) << threshold;  // untouched: the networks did not run
    texts_changed |= kept.unit_text != before;
  }
  EXPECT_TRUE(texts_changed) << "the thresholds must change the rendering for this test to mean anything";
}

// A damaged file is a ParseError naming what is wrong, whatever its metadata promises.
TEST(EacaModel, LoadRejectsMetadataTheTensorsDoNotBackAndNonFiniteWeights) {
  EacaModel a(testing::small_eaca_config(), 2);
  const auto path = (std::filesystem::temp_directory_path() / "kessel_eaca_damaged.safetensors").string();
  a.save(path);
  const SafetensorsFile good = read_safetensors(path);
  auto load_error = [&](const SafetensorsFile& f) {
    write_safetensors(path, f);
    try {
      EacaModel::load(path);
    } catch (const ParseError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  SafetensorsFile f = good;
  f.metadata["hidden"] = "40000";  // would need gigabytes; the tensors are checked first
  EXPECT_NE(load_error(f).find(
                "tensor w_in: shape [8, 30], but the metadata's hyperparameters give [40000, 30]"),
            std::string::npos)
      << load_error(f);
  f.metadata["hidden"] = "2000000000";  // would overflow the parameter count
  EXPECT_NE(load_error(f).find("too large"), std::string::npos) << load_error(f);
  f = good;
  for (auto& t : f.tensors)
    if (t.name == "ws") t.data[3] = std::nanf("");
  EXPECT_NE(load_error(f).find("tensor ws: non-finite value"), std::string::npos) << load_error(f);
  std::filesystem::remove(path);
}

// Issue 23's model-file reproductions: a tensor the hyperparameters do not give (a compress.weight
// of [2] where the hash needs [2^18 + 1], a wrong width, a tensor no member has) and weights a
// forward pass would overflow on are refused at load, naming the file, the tensor, the shapes or
// the index.
TEST(EacaModel, LoadChecksEveryTensorAgainstTheHyperparametersAndTheWeightRange) {
  EacaConfig c = testing::small_eaca_config();
  c.members = 1;
  EacaModel a(c, 2);
  a.compressor().assign(kCompressBuckets + 1, 0.25f);
  const auto path =
      (std::filesystem::temp_directory_path() / "kessel_eaca_checked.safetensors").string();
  a.save(path);
  const SafetensorsFile good = read_safetensors(path);
  auto load_error = [&](const SafetensorsFile& f) {
    write_safetensors(path, f);
    try {
      EacaModel::load(path);
    } catch (const ParseError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  auto edited = [&](const std::string& name, auto edit) {
    SafetensorsFile f = good;
    for (auto& t : f.tensors)
      if (t.name == name) edit(t);
    return f;
  };
  ASSERT_EQ(load_error(good), "no error");
  std::string e = load_error(edited("compress.weight", [](NamedTensor& t) {
    t.shape = {2};
    t.data = {0.5f, -1.0f};
  }));
  EXPECT_EQ(
      e,
      path +
          ": tensor compress.weight: shape [2], but the metadata's hyperparameters give [262145]");
  e = load_error(edited("ws", [](NamedTensor& t) { t.shape = {16, 8}; }));  // D×2D stored as 2D×D
  EXPECT_EQ(e,
            path + ": tensor ws: shape [16, 8], but the metadata's hyperparameters give [8, 16]");
  SafetensorsFile extra = good;
  extra.tensors.push_back({"member1.emb", {1}, {0.0f}});
  EXPECT_EQ(
      load_error(extra),
      path + ": tensor member1.emb: not part of a model with these hyperparameters (1 member(s))");
  e = load_error(edited("ws", [](NamedTensor& t) { t.data[19] = 3e38f; }));
  EXPECT_EQ(e, path + ": tensor ws: value 3e+38 at [1, 3] is outside ±10000");
  e = load_error(edited("emb", [](NamedTensor& t) { t.data[7] = -3e38f; }));
  EXPECT_EQ(e, path + ": tensor emb: value -3e+38 at [1, 1] is outside ±10000");
  e = load_error(edited("compress.weight", [](NamedTensor& t) { t.data.back() = -INFINITY; }));
  EXPECT_EQ(e, path + ": tensor compress.weight: non-finite value -inf at [262144]");
  std::filesystem::remove(path);
}

// The weight bound is one the forward pass survives: a model with every weight at ±10000 scores
// finite numbers (so the bound refuses damaged files, not merely unusual ones).
TEST(EacaModel, WeightsAtTheLoadBoundScoreFinite) {
  Fixture fx(true);
  EacaConfig c = testing::small_eaca_config();
  c.context_encoder = true;
  EacaModel a(c, 3);
  for (std::size_t i = 0; i < a.parameters().size(); ++i)
    a.parameters()[i] = (i % 3 == 0 ? -1.0f : 1.0f) * 1e4f;
  const auto path =
      (std::filesystem::temp_directory_path() / "kessel_eaca_bound.safetensors").string();
  a.save(path);
  const EacaModel loaded = EacaModel::load(path);
  std::filesystem::remove(path);
  const UnitScores s = loaded.score(fx.prepared);
  ASSERT_FALSE(s.salience.empty());
  for (float v : s.salience) EXPECT_TRUE(std::isfinite(v)) << v;
}

TEST(EacaModel, EnsembleAveragesItsMembersAndRoundTrips) {
  Fixture fx(false);
  EacaConfig c = testing::small_eaca_config();
  c.members = 1;
  // Member k of a seeded ensemble is the single model from member_seed(seed, k); member 0 is seed's.
  EXPECT_EQ(member_seed(9, 0), 9u);
  EXPECT_NE(member_seed(9, 1), member_seed(9, 2));
  std::vector<EacaModel> singles;
  for (int k = 0; k < 3; ++k) singles.emplace_back(c, member_seed(9, k));
  EacaConfig c3 = c;
  c3.members = 3;
  const EacaModel seeded(c3, 9);
  EacaModel joined = EacaModel::ensemble(singles);
  EXPECT_EQ(joined.config().members, 3);
  EXPECT_EQ(joined.parameters(), seeded.parameters());

  // Scores are the members' mean logits; the attention map is their mean (still a distribution).
  const UnitScores e = joined.score(fx.prepared);
  std::vector<UnitScores> m;
  for (const auto& single : singles) m.push_back(single.score(fx.prepared));
  for (std::size_t u = 0; u < e.salience.size(); ++u)
    EXPECT_NEAR(e.salience[u], (m[0].salience[u] + m[1].salience[u] + m[2].salience[u]) / 3.0f, 1e-5f);
  for (std::size_t k = 0; k < e.mention_source.size(); ++k)
    EXPECT_NEAR(e.mention_source[k], (m[0].mention_source[k] + m[1].mention_source[k] + m[2].mention_source[k]) / 3.0f,
                1e-5f);
  ASSERT_EQ(e.attention.size(), m[0].attention.size());
  for (Index i = 0; i < e.attention.size(); ++i)
    EXPECT_NEAR(e.attention[i], (m[0].attention[i] + m[1].attention[i] + m[2].attention[i]) / 3.0f, 1e-6f);

  const auto path = (std::filesystem::temp_directory_path() / "kessel_eaca_ensemble.safetensors").string();
  joined.metadata()["lexicon"] = fx.lex.identity();
  joined.save(path);
  const EacaModel loaded = EacaModel::load(path);
  EXPECT_EQ(loaded.config().members, 3);
  EXPECT_EQ(loaded.parameters(), joined.parameters());
  EXPECT_EQ(loaded.score(fx.prepared).salience, e.salience);
  std::filesystem::remove(path);

  // A file without the key is a single model; an out-of-range count is a damaged file.
  auto meta = config_metadata(c3);
  meta.erase("members");
  EXPECT_EQ(config_from_metadata(meta, "old.safetensors").members, 1);
  meta["members"] = "0";
  EXPECT_THROW(config_from_metadata(meta, "bad.safetensors"), ParseError);
  // Members must agree and be single models.
  EacaConfig wider = c;
  wider.hidden = 9;
  EXPECT_THROW(EacaModel::ensemble({EacaModel(c, 1), EacaModel(wider, 2)}), InvalidArgument);
  EXPECT_THROW(EacaModel::ensemble({seeded}), InvalidArgument);
  EXPECT_THROW(EacaModel::ensemble({}), InvalidArgument);
}

TEST(EacaModel, RejectsBadConfig) {
  EacaConfig c;
  c.hidden = 0;
  EXPECT_THROW(EacaModel(c, 1), InvalidArgument);
  c = EacaConfig{};
  c.members = 0;
  EXPECT_THROW(EacaModel(c, 1), InvalidArgument);
  c.members = 65;
  EXPECT_THROW(EacaModel(c, 1), InvalidArgument);
}

}  // namespace
}  // namespace kessel::summarize
