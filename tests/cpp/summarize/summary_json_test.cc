// summary_json_text against its reference, summary_to_json(...).dump(): the same bytes for strings
// that need every kind of escape, numbers of every shape, empty and absent parts, and random bytes
// (valid UTF-8 or not: the invalid ones throw dump()'s error either way).
#include "kessel/summarize/summary_json.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>
#include <string>

namespace kessel::summarize {
namespace {

Summary tricky_summary() {
  Summary s;
  s.id = "dlg \"7\" \\ 8";
  s.summary =
      "用户:快递三天了还没到，气死我了！客服:已为您催促。\t\n\r\b\f\x01\x1f\x7f é 😡 "
      "\xF4\x8F\xBF\xBF";
  s.sentences = {{"用户:快递三天了还没到", "快递三天了还没到", 0, 0, 0.8999999761581421f},
                 {"Agent: \"sorry\"", "sorry", 3, 4, -1.5e-7f},
                 {"", "", 12, 13, 2.0f}};
  s.emotions = {{"气死我了", 0, 14, 18, "anger", "feeling", 0.9f, "default", false},
                {"not happy", 2, -1, 40, "sadness", "report", 1e20f, "cue:rhetorical", true}};
  s.constraint_satisfied = false;
  s.constraint_bound = true;
  s.constraint_cost = 0.0188121875435191;
  s.unsupported_languages = {"turn 3: es", "turn 4: \"ja\""};
  return s;
}

TEST(SummaryJson, TextMatchesTheTreesDump) {
  const Prepared p;
  Summary s = tricky_summary();
  EXPECT_EQ(summary_json_text(p, s), summary_to_json(p, s, nullptr).dump());
  s.unsupported_languages.clear();
  s.emotions.clear();
  s.constraint_cost = 0.0;
  EXPECT_EQ(summary_json_text(p, s), summary_to_json(p, s, nullptr).dump());
  s.sentences.clear();
  s.constraint_cost = std::numeric_limits<double>::quiet_NaN();
  EXPECT_EQ(summary_json_text(p, s), summary_to_json(p, s, nullptr).dump());
  for (const double cost : {1.0, -0.0, 1e-5, 123456789012345678.0, 3.0e-310, 1.0 / 3.0, 1e300,
                            std::numeric_limits<double>::infinity()}) {
    s.constraint_cost = cost;
    EXPECT_EQ(summary_json_text(p, s), summary_to_json(p, s, nullptr).dump()) << cost;
  }
}

TEST(SummaryJson, RandomBytesMatchOrThrowAsTheTreeDoes) {
  const Prepared p;
  std::mt19937 rng(24);
  const std::string pieces[] = {"a",
                                "\"",
                                "\\",
                                "\x01",
                                "\x7f",
                                "é",
                                "气",
                                "😡",
                                "\xC0\x80",
                                "\xED\xA0\x80",
                                "\xF4\x90\x80\x80",
                                "\xE2\x82",
                                "\x80",
                                "\xFF",
                                "\xF0\x9F\x98"};
  int valid = 0, invalid = 0;
  for (int trial = 0; trial < 2000; ++trial) {
    Summary s = tricky_summary();
    std::string text;
    for (int k = static_cast<int>(rng() % 6); k > 0; --k) text += pieces[rng() % std::size(pieces)];
    std::string* target[] = {&s.id,
                             &s.summary,
                             &s.sentences[1].text,
                             &s.emotions[1].term,
                             &s.emotions[0].source,
                             &s.unsupported_languages[1]};
    *target[rng() % std::size(target)] = text;
    std::string reference;
    try {
      reference = summary_to_json(p, s, nullptr).dump();
    } catch (const nlohmann::json::type_error& e) {
      ++invalid;
      EXPECT_THROW(summary_json_text(p, s), nlohmann::json::type_error) << text;
      continue;
    }
    ++valid;
    EXPECT_EQ(summary_json_text(p, s), reference);
  }
  EXPECT_GT(valid, 100);
  EXPECT_GT(invalid, 100);
}

}  // namespace
}  // namespace kessel::summarize
