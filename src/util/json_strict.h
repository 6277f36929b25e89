// JSON parsing that refuses what nlohmann::json accepts silently: an object with the same key twice
// (nlohmann keeps the last value, so {"turns": [...], "turns": []} would read as a dialogue with no
// turns) and nesting deeper than kMaxJsonDepth (a line of a million brackets would build a million
// nested values) and a NUL byte (which nlohmann takes for the end of the text). Every reader of
// user files (dialogues, model headers, HMM models, lexicons) parses through here.
#pragma once

#include <cstddef>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>
#include <string_view>

namespace kessel::util {

// No file kessel reads needs more than a handful of levels.
inline constexpr std::size_t kMaxJsonDepth = 256;

// A JSON text that parses but that kessel refuses. `reason()` says what ("duplicate key \"text\""),
// `path()` where ("turns[2]"; "" for the top level or when no place is named), and what() both.
class JsonStructureError : public std::runtime_error {
 public:
  JsonStructureError(std::string reason, std::string path);
  const std::string& reason() const { return reason_; }
  const std::string& path() const { return path_; }

 private:
  std::string reason_, path_;
};

class DuplicateJsonKey : public JsonStructureError {
 public:
  DuplicateJsonKey(std::string key, std::string path);
  const std::string& key() const { return key_; }

 private:
  std::string key_;
};

class JsonTooDeep : public JsonStructureError {
 public:
  JsonTooDeep();
};

// A NUL byte in the text: nlohmann's lexer would take it for the end of the input and drop the
// rest. `offset()` is its byte offset in the text.
class JsonNulByte : public JsonStructureError {
 public:
  explicit JsonNulByte(std::size_t offset);
  std::size_t offset() const { return offset_; }

 private:
  std::size_t offset_;
};

// nlohmann::json::parse(text) that also throws DuplicateJsonKey, JsonTooDeep and JsonNulByte, and a
// JsonStructureError "number out of range: 1e999" (with the value's path) where nlohmann throws
// out_of_range. Malformed JSON throws nlohmann::json::parse_error as parse() does. Linear in the
// text's size (a SAX parse that builds the DOM; docs/benchmarks.md has the throughput).
nlohmann::json parse_json_strict(std::string_view text);

}  // namespace kessel::util
