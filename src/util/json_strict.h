// JSON parsing that refuses an object with the same key twice. nlohmann::json keeps the last value
// of a repeated key and says nothing, so {"turns": [...], "turns": []} would read as a dialogue with
// no turns and a model file with two "transitions" as whichever came last. Every reader of user
// files (dialogues, model headers, HMM models, lexicons) parses through here.
#pragma once

#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>
#include <string_view>

namespace kessel::util {

// Thrown for a repeated key; `key` is the key, `path` where its object sits ("" for the top level,
// "turns[2]" inside the third turn).
class DuplicateJsonKey : public std::runtime_error {
 public:
  DuplicateJsonKey(std::string key, std::string path);
  const std::string& key() const { return key_; }
  const std::string& path() const { return path_; }

 private:
  std::string key_, path_;
};

// nlohmann::json::parse(text) that also throws DuplicateJsonKey. Malformed JSON throws
// nlohmann::json::parse_error as parse() does.
nlohmann::json parse_json_strict(std::string_view text);

}  // namespace kessel::util
