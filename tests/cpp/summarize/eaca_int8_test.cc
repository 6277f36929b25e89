// int8 K/V while scoring (EacaModel::set_kv_dtype, SummarizerOptions::kv): small models trained on the
// bundled samples select the same units with int8 K/V as with float32, the int8 path is the one
// taken, and an int8 request that a path cannot meet is an error, not silently float32.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <string>
#include <vector>

#include "kessel/error.h"
#include "kessel/summarize/eaca.h"
#include "kessel/summarize/summarizer.h"
#include "kessel/text/dialogue.h"
#include "summarize/eaca_features.h"
#include "summarize/eaca_labels.h"
#include "summarize/eaca_model.h"
#include "test_dialogues.h"

namespace kessel::summarize {
namespace {

std::vector<text::Dialogue> samples(const std::string& name) {
  return text::read_dialogues(std::string(KESSEL_SOURCE_DIR) + "/data/samples/" + name).dialogues;
}

// Two networks, a few epochs on the file's dialogues (the last one is dev): trained, so that the
// salience separates units as a real model's does.
EacaModel small_model(const std::vector<text::Dialogue>& dialogues, bool self_attention_context) {
  EacaConfig config;
  config.members = 2;
  config.context_bilstm = !self_attention_context;
  TrainOptions options;
  options.epochs = 4;
  options.verbose = false;
  std::vector<text::Dialogue> train(dialogues.begin(), dialogues.end() - 1);
  const std::vector<text::Dialogue> dev(dialogues.end() - 1, dialogues.end());
  return train_eaca(train, dev, testing::default_lexicon(), config, options);
}

std::vector<int> selected_units(const Summary& s) {
  std::vector<int> units;
  for (const auto& sentence : s.sentences) units.push_back(sentence.unit);
  return units;
}

TEST(EacaInt8, SamplesSelectTheSameUnitsAsFloat32) {
  const auto& lex = testing::default_lexicon();
  for (const char* file : {"dialogues_zh.jsonl", "dialogues_en.jsonl"}) {
    const std::vector<text::Dialogue> dialogues = samples(file);
    ASSERT_GE(dialogues.size(), 3u) << file;
    for (bool self_attention : {false, true}) {
      SCOPED_TRACE(std::string(file) + (self_attention ? ", self-attention context" : ", BiLSTM context"));
      const EacaModel f32 = small_model(dialogues, self_attention);
      EacaModel int8 = f32;
      int8.set_kv_dtype(KvDtype::kInt8);
      EXPECT_EQ(int8.kv_dtype(), KvDtype::kInt8);
      EXPECT_EQ(f32.kv_dtype(), KvDtype::kFloat32);  // a copy's setting is its own
      const DecodeOptions options = f32.decode_options();
      int moved = 0;  // dialogues whose salience int8 changed at all: the int8 path ran
      for (const auto& d : dialogues) {
        const Prepared p = prepare(d, lex);
        const UnitScores a = f32.score(p), b = int8.score(p);
        ASSERT_EQ(a.salience.size(), b.salience.size());
        const auto [lo, hi] = std::minmax_element(a.salience.begin(), a.salience.end());
        // int8 with per-row scales errs by at most scale/2 = max|row|/254 per element (0.4% of the
        // row); allow 2% of the salience spread, an order of magnitude more than that.
        const float tol = 0.02f * std::max(*hi - *lo, 1e-3f);
        for (std::size_t u = 0; u < a.salience.size(); ++u) {
          EXPECT_NEAR(a.salience[u], b.salience[u], tol) << d.id << " unit " << u;
          if (a.salience[u] != b.salience[u]) ++moved;
        }
        EXPECT_NEAR(a.has_emotion, b.has_emotion, 0.01f) << d.id;
        EXPECT_EQ(selected_units(decode(p, a, options)), selected_units(decode(p, b, options))) << d.id;
        // The explanation map is the one int8 attended with: still a distribution per query.
        ASSERT_EQ(a.attention.size(), b.attention.size()) << d.id;
        for (Index q = 0; q < b.attention.dim(0); ++q) {
          double sum = 0.0;
          for (Index k = 0; k < b.attention.dim(1); ++k) sum += b.attention[q * b.attention.dim(1) + k];
          EXPECT_NEAR(sum, 1.0, 1e-5) << d.id;
        }
      }
      EXPECT_GT(moved, 0) << "int8 scoring gave float32's bits exactly: the int8 path did not run";
    }
  }
}

TEST(EacaInt8, TheForwardAttendsOverQuantizedKeysAndTheBackwardRefusesThem) {
  const auto& lex = testing::default_lexicon();
  const text::Dialogue d = samples("dialogues_zh.jsonl").front();
  EacaConfig config = testing::small_eaca_config();
  config.context_bilstm = false;  // both attention layers on the engine
  const EacaDims dims = dims_of(config);
  const TrainingExample ex = make_example(d, lex, dims, 0.0f);
  std::vector<float> params(static_cast<std::size_t>(eaca_param_count(dims)));
  eaca_init(params.data(), dims, 7);
  const EacaWeights w = carve_weights(params.data(), dims);
  EacaSwitches sw = switches_of(config);
  EXPECT_EQ(sw.kv_dtype, KvDtype::kFloat32);  // what training gets
  EacaActivations f32, int8;
  eaca_forward(f32, w, dims, sw, ex.features, ex.prepared.mention_unit);
  EXPECT_TRUE(f32.emotion_kv.k.empty());
  sw.kv_dtype = KvDtype::kInt8;
  eaca_forward(int8, w, dims, sw, ex.features, ex.prepared.mention_unit);
  ASSERT_GT(int8.Q, 0);
  EXPECT_EQ(int8.context_kv.k.size(), static_cast<std::size_t>(int8.U * dims.A));
  EXPECT_EQ(int8.emotion_kv.v.size(), static_cast<std::size_t>(int8.U * dims.D));
  for (std::size_t i = 0; i < f32.ctx.size(); ++i) EXPECT_NEAR(f32.ctx[i], int8.ctx[i], 1e-2f) << i;
  for (std::size_t i = 0; i < f32.e.size(); ++i) EXPECT_NEAR(f32.e[i], int8.e[i], 1e-2f) << i;
  EXPECT_NE(f32.e, int8.e);

  std::vector<float> grads(params.size(), 0.0f);
  try {
    eaca_backward(carve_weights(grads.data(), dims), int8, w, dims, sw, ex.features, ex.prepared.mention_unit,
                  ex.targets, LossWeights{});
    ADD_FAILURE() << "eaca_backward accepted int8 K/V";
  } catch (const InvalidArgument& e) {
    EXPECT_NE(std::string(e.what()).find("kv_dtype = int8"), std::string::npos) << e.what();
  }
}

TEST(EacaInt8, ARequestNoPathCanMeetIsAnError) {
  const auto& lex = testing::default_lexicon();
  // A model with no attention on the engine: BiLSTM context, EACA attention off.
  EacaConfig config = testing::small_eaca_config();
  config.members = 1;
  config.emotion_attention = false;
  EacaModel model(config, 1);
  try {
    model.set_kv_dtype(KvDtype::kInt8);
    ADD_FAILURE() << "int8 accepted by a model with no engine attention";
  } catch (const InvalidArgument& e) {
    EXPECT_NE(std::string(e.what()).find("kv_dtype = int8"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("BiLSTM"), std::string::npos) << e.what();
  }
  EXPECT_EQ(model.kv_dtype(), KvDtype::kFloat32);
  EXPECT_NO_THROW(model.set_kv_dtype(KvDtype::kFloat32));

  // Through make_summarizer: that model from a file, and the unsupervised rankers.
  model.metadata()["lexicon"] = lex.identity();
  const auto path = (std::filesystem::temp_directory_path() / "kessel_int8_no_engine.safetensors").string();
  model.save(path);
  SummarizerOptions o;
  o.model = path;
  o.kv = KvDtype::kInt8;
  EXPECT_THROW(make_summarizer(o, lex), InvalidArgument);
  std::filesystem::remove(path);
  for (const char* ranker : {"centrality", "lead", "longest", "lexrank"}) {
    SummarizerOptions r;
    r.ranker = ranker;
    r.kv = KvDtype::kInt8;
    try {
      make_summarizer(r, lex);
      ADD_FAILURE() << "int8 accepted by the " << ranker << " ranker";
    } catch (const InvalidArgument& e) {
      EXPECT_NE(std::string(e.what()).find("kv int8 needs a model"), std::string::npos) << e.what();
    }
  }

  // A model that has engine attention takes it through make_summarizer.
  EacaConfig ok = testing::small_eaca_config();
  ok.members = 1;
  EacaModel with_attention(ok, 1);
  with_attention.metadata()["lexicon"] = lex.identity();
  with_attention.save(path);
  o.model = path;
  const Summarizer s = make_summarizer(o, lex);
  EXPECT_EQ(dynamic_cast<const EacaModel&>(*s.scorer).kv_dtype(), KvDtype::kInt8);
  std::filesystem::remove(path);
}

}  // namespace
}  // namespace kessel::summarize
