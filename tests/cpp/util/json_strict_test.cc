#include "util/json_strict.h"

#include <gtest/gtest.h>

namespace kessel::util {
namespace {

TEST(JsonStrict, ParsesWhatParseParses) {
  const std::string text = R"({"id": "d1", "turns": [{"speaker": "agent", "text": "hi"}, 3, [1, {"a": 1}]], "x": null})";
  EXPECT_EQ(parse_json_strict(text), nlohmann::json::parse(text));
  EXPECT_EQ(parse_json_strict("[]"), nlohmann::json::array());
  EXPECT_EQ(parse_json_strict("7"), nlohmann::json(7));
  // The same key in different objects is not a repeat.
  EXPECT_NO_THROW(parse_json_strict(R"([{"a": 1}, {"a": 2}, {"b": {"a": 3}}])"));
}

TEST(JsonStrict, RefusesARepeatedKeyAndSaysWhere) {
  try {
    parse_json_strict(R"({"turns": [1], "turns": []})");
    FAIL();
  } catch (const DuplicateJsonKey& e) {
    EXPECT_EQ(e.key(), "turns");
    EXPECT_EQ(e.path(), "");
    EXPECT_STREQ(e.what(), "duplicate key \"turns\"");
  }
  try {
    parse_json_strict(R"({"turns": [{"text": "a"}, [], {"speaker": "agent", "text": "b", "text": "c"}]})");
    FAIL();
  } catch (const DuplicateJsonKey& e) {
    EXPECT_EQ(e.path(), "turns[2]");
    EXPECT_STREQ(e.what(), "duplicate key \"text\" in turns[2]");
  }
  try {
    parse_json_strict(R"({"m": {"emissions": {"p": [1], "p": [2]}}})");
    FAIL();
  } catch (const DuplicateJsonKey& e) {
    EXPECT_EQ(e.path(), "m.emissions");
  }
}

TEST(JsonStrict, RefusesNestingBeyondTheLimit) {
  const auto nested = [](std::size_t depth) { return std::string(depth, '[') + std::string(depth, ']'); };
  EXPECT_NO_THROW(parse_json_strict(nested(kMaxJsonDepth)));
  EXPECT_THROW(parse_json_strict(nested(kMaxJsonDepth + 1)), JsonTooDeep);
  // A million levels: refused at once, in bounded memory (before the fix, paths grew with depth).
  try {
    parse_json_strict(nested(1000000));
    FAIL();
  } catch (const JsonStructureError& e) {
    EXPECT_EQ(e.path(), "");
    EXPECT_STREQ(e.what(), "nested deeper than 256 levels");
  }
}

TEST(JsonStrict, NumbersBeyondDoubleAreRefusedWithTheirPath) {
  // nlohmann throws out_of_range 406 here, which no reader caught: "internal error" before.
  const auto reason_and_path = [](const std::string& text) {
    try {
      parse_json_strict(text);
    } catch (const JsonStructureError& e) {
      return e.reason() + " @ " + e.path();
    }
    return std::string("no exception");
  };
  EXPECT_EQ(reason_and_path(R"({"turns": [{"text": "a", "time": 1e9991}]})"),
            "number out of range: 1e9991 @ turns[0].time");
  EXPECT_EQ(reason_and_path(R"({"a": [1, 2, -1e400]})"), "number out of range: -1e400 @ a[2]");
  EXPECT_EQ(reason_and_path("1e999"), "number out of range: 1e999 @ ");
  // In range, however long: parsed as parse() parses it.
  EXPECT_DOUBLE_EQ(parse_json_strict("[1e308]")[0].get<double>(), 1e308);
  EXPECT_DOUBLE_EQ(parse_json_strict("123456789012345678901234567890").get<double>(), 1.2345678901234568e29);
}

TEST(JsonStrict, NulByteIsRefusedNotTakenForTheEnd) {
  // nlohmann reads a NUL between tokens as the end of the text: the second object was dropped.
  const std::string text = std::string(R"({"id": "a"})") + '\0' + R"({"id": "b"})";
  try {
    parse_json_strict(text);
    FAIL();
  } catch (const JsonNulByte& e) {
    EXPECT_EQ(e.offset(), 11u);
    EXPECT_NE(std::string(e.what()).find("NUL byte (0x00) at byte offset 11"), std::string::npos)
        << e.what();
  }
  EXPECT_THROW(parse_json_strict(std::string("[1, 2]") + '\0'), JsonNulByte);
  // Written as an escape it is an ordinary character.
  EXPECT_EQ(parse_json_strict(R"(["a\u0000b"])")[0].get<std::string>(), std::string("a\0b", 3));
}

TEST(JsonStrict, ManySmallObjectsParseInOnePass) {
  // Issue 23's reproduction: the callback parser rescanned the parent array at each object's end
  // (100,000 "{}" took 7.5 s; a million would take hours). Linear now (docs/benchmarks.md): this
  // checks the result, ctest's timeout is what would catch a relapse.
  std::string text = "[";
  for (int i = 0; i < 1000000; ++i) text += i ? ",{}" : "{}";
  text += "]";
  const nlohmann::json j = parse_json_strict(text);
  ASSERT_EQ(j.size(), 1000000u);
  EXPECT_TRUE(j[999999].is_object());
  // Objects with keys keep the duplicate check everywhere, the last one included.
  std::string keyed = "[";
  for (int i = 0; i < 1000; ++i) keyed += std::string(i ? "," : "") + R"({"a": 1, "b": [2]})";
  EXPECT_EQ(parse_json_strict(keyed + "]").size(), 1000u);
  try {
    parse_json_strict(keyed + R"(, {"b": 1, "b": 2}])");
    FAIL();
  } catch (const DuplicateJsonKey& e) {
    EXPECT_EQ(e.path(), "[1000]");
  }
}

TEST(JsonStrict, ParsesTheSameValuesAsParse) {
  const std::string text =
      R"({"a": [1, -2, 3.5, "x", true, false, null, {"b": {}}, []], "c": 18446744073709551615})";
  EXPECT_EQ(parse_json_strict(text), nlohmann::json::parse(text));
  EXPECT_TRUE(parse_json_strict(text)["c"].is_number_unsigned());
}

TEST(JsonStrict, MalformedJsonIsStillAParseError) {
  EXPECT_THROW(parse_json_strict(R"({"a": )"), nlohmann::json::parse_error);
  EXPECT_THROW(parse_json_strict(""), nlohmann::json::parse_error);
}

}  // namespace
}  // namespace kessel::util
