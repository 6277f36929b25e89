// Model and sequence files: the example files load, models round-trip bit-identically, and every
// malformed input gives a ParseError naming the file and line.
#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>

#include "hmm_fixtures.h"
#include "kessel/error.h"
#include "kessel/hmm.h"

namespace kessel::hmm {
namespace {

const std::string kData = std::string(KESSEL_SOURCE_DIR) + "/tests/data/hmm/";

std::string parse_error(const std::string& model_text, const std::string& seq_text = "") {
  try {
    const Model m = model_from_json_text(model_text, "m.json");
    if (!seq_text.empty()) sequences_from_text(seq_text, m, "x.txt");
  } catch (const ParseError& e) {
    return e.what();
  }
  return "no error";
}

const char* kCasinoModel = R"({
  "type": "categorical",
  "start": [0.5, 0.5],
  "transitions": [[0.95, 0.05], [0.1, 0.9]],
  "emissions": [[0.2, 0.2, 0.2, 0.2, 0.1, 0.1], [0.1, 0.1, 0.1, 0.1, 0.1, 0.5]]
})";

const char* kGaussModel = R"({"type": "gaussian", "start": [1.0, 0.0],
  "transitions": [[0.5, 0.5], [0.5, 0.5]],
  "means": [[0, 1], [2, 3]],
  "variances": [[1, 1], [1, 2]]})";

TEST(HmmIo, ExampleFilesLoad) {
  const Model c = read_model(kData + "casino.json");
  EXPECT_EQ(c.n_states, 2);
  EXPECT_EQ(c.n_symbols, 6);
  const auto rolls = read_sequences(kData + "casino_rolls.txt", c);
  ASSERT_EQ(rolls.size(), 3u);  // the comment line is skipped
  EXPECT_EQ(rolls[1].length, 20);
  const Model g = read_model(kData + "gaussian2.json");
  EXPECT_EQ(g.dim, 2);
  const auto obs = read_sequences(kData + "gaussian2_obs.txt", g);
  ASSERT_EQ(obs.size(), 3u);
  EXPECT_EQ(obs[0].length, 5);
  EXPECT_EQ(obs[0].values[3], 0.2);  // "0.5, 0.2": comma-separated dims
}

TEST(HmmIo, ModelsRoundTripBitIdentically) {
  const auto path = std::filesystem::temp_directory_path() / "kessel_hmm_roundtrip.json";
  for (const Model& m : {testing::random_categorical(3, 4, 7), testing::random_gaussian(4, 5, 3)}) {
    write_model(path.string(), m);
    const Model back = read_model(path.string());
    EXPECT_EQ(back.start, m.start);
    EXPECT_EQ(back.transitions, m.transitions);
    EXPECT_EQ(back.emissions, m.emissions);
    EXPECT_EQ(back.means, m.means);
    EXPECT_EQ(back.variances, m.variances);
  }
  std::filesystem::remove(path);
}

TEST(HmmIo, ModelErrorsNameFileAndLine) {
  std::string bad = kCasinoModel;
  bad.replace(bad.find("0.9]]"), 5, "0.8]]");
  EXPECT_EQ(parse_error(bad), "m.json:4: transitions row 1 sums to 0.9 (must be 1 within 1e-06)");
  bad = kCasinoModel;
  bad.replace(bad.find("[0.5, 0.5]"), 10, "[0.5, 0.4]");
  EXPECT_EQ(parse_error(bad), "m.json:3: start sums to 0.9 (must be 1 within 1e-06)");
  std::string g = kGaussModel;
  g.replace(g.find("[1, 2]"), 6, "[1, 0]");
  EXPECT_EQ(parse_error(g),
            "m.json:4: variances[1][1] is 0 (must be finite and > 0)");
  g = kGaussModel;
  g.replace(g.find("[1, 2]"), 6, "[1, -2]");
  EXPECT_NE(parse_error(g).find("variances[1][1] is -2"), std::string::npos);
  g = kGaussModel;
  g.replace(g.find("[2, 3]"), 6, "[2]");
  EXPECT_EQ(parse_error(g), "m.json:3: \"means\" is ragged or empty: row 1 has 1 entries, row 0 has 2");
  EXPECT_NE(parse_error("{\"type\": \"categorical\",\n \"start\": [NaN]}").find("m.json:2: invalid JSON"),
            std::string::npos);
  EXPECT_NE(parse_error("").find("m.json:1: invalid JSON"), std::string::npos);
  EXPECT_EQ(parse_error(R"({"type": "poisson"})"),
            "m.json:1: unknown type \"poisson\" (expected \"categorical\", \"gaussian\" or "
            "\"gaussian-full\")");
  EXPECT_EQ(parse_error(R"({"type": "gaussian", "start": [1], "transitions": [[1]], "means": [[0]]})"),
            "m.json:1: missing field \"variances\"");
  EXPECT_THROW(read_model(kData + "does_not_exist.json"), IoError);
}

TEST(HmmIo, SequenceErrorsNameFileAndLine) {
  EXPECT_EQ(parse_error(kCasinoModel, "0 1 2\n3 6 1\n"),
            "x.txt:2: step 1: symbol 6 is outside [0, 6)");
  EXPECT_EQ(parse_error(kCasinoModel, "0 1 -2\n"),
            "x.txt:1: step 2: '-2' is not a non-negative integer");
  EXPECT_EQ(parse_error(kCasinoModel, "0 1.5\n"),
            "x.txt:1: step 1: '1.5' is not a non-negative integer");
  EXPECT_EQ(parse_error(kCasinoModel, "\n# only a comment\n  \n"),
            "x.txt:4: no sequences (the file is empty or has only blank/comment lines)");
  EXPECT_EQ(parse_error(kGaussModel, "0 1; 2 3\n1 1; 2\n"),
            "x.txt:2: step 1 has 1 values but the model has D=2");
  EXPECT_EQ(parse_error(kGaussModel, "0 1; nan 3\n"),
            "x.txt:1: step 1: value 'nan' is not finite (NaN/inf)");
  EXPECT_EQ(parse_error(kGaussModel, "0 1; x 3\n"), "x.txt:1: step 1: 'x' is not a number");
  EXPECT_EQ(parse_error(kGaussModel, "0 1;; 2 3\n"),
            "x.txt:1: step 1 has 0 values but the model has D=2");
  EXPECT_EQ(parse_error(kGaussModel, "0 1; 2,3;\n"), "no error");  // trailing ';' allowed
  EXPECT_THROW(read_sequences(kData + "does_not_exist.txt", testing::casino()), IoError);
}

}  // namespace
}  // namespace kessel::hmm
