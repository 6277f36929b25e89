#include "util/json_strict.h"

#include <set>
#include <vector>

namespace kessel::util {

JsonStructureError::JsonStructureError(std::string reason, std::string path)
    : std::runtime_error(path.empty() ? reason : reason + " in " + path),
      reason_(std::move(reason)),
      path_(std::move(path)) {}

DuplicateJsonKey::DuplicateJsonKey(std::string key, std::string path)
    : JsonStructureError("duplicate key \"" + key + "\"", std::move(path)), key_(std::move(key)) {}

JsonTooDeep::JsonTooDeep()
    : JsonStructureError("nested deeper than " + std::to_string(kMaxJsonDepth) + " levels", "") {}

nlohmann::json parse_json_strict(std::string_view text) {
  using json = nlohmann::json;
  // One frame per open object or array: the keys seen so far (objects) or the element count
  // (arrays), and the key whose value is being parsed. Paths are built only for an error, from the
  // stack, so memory stays linear in the nesting depth.
  struct Frame {
    bool object = false;
    std::set<std::string> keys;
    std::size_t elements = 0;
    std::string pending_key;
  };
  std::vector<Frame> stack;
  // The path through the first `frames` frames: each frame names its child ("turns", "[2]").
  auto path_through = [&](std::size_t frames) {
    std::string path;
    for (std::size_t d = 0; d < frames; ++d) {
      const Frame& f = stack[d];
      if (f.object) path += (path.empty() ? "" : ".") + f.pending_key;
      else path += "[" + std::to_string(f.elements) + "]";
    }
    return path;
  };
  auto path_of_top = [&] { return stack.empty() ? std::string() : path_through(stack.size() - 1); };
  auto value_done = [&] {
    if (!stack.empty() && !stack.back().object) ++stack.back().elements;
  };
  json::parser_callback_t callback = [&](int /*depth*/, json::parse_event_t event, json& parsed) {
    switch (event) {
      case json::parse_event_t::object_start:
      case json::parse_event_t::array_start:
        if (stack.size() >= kMaxJsonDepth) throw JsonTooDeep();
        stack.push_back(Frame{event == json::parse_event_t::object_start, {}, 0, {}});
        break;
      case json::parse_event_t::key: {
        Frame& f = stack.back();
        const std::string key = parsed.get<std::string>();
        if (!f.keys.insert(key).second) throw DuplicateJsonKey(key, path_of_top());
        f.pending_key = key;
        break;
      }
      case json::parse_event_t::object_end:
      case json::parse_event_t::array_end:
        stack.pop_back();
        value_done();
        break;
      case json::parse_event_t::value:
        value_done();
        break;
    }
    return true;
  };
  try {
    return json::parse(text.begin(), text.end(), callback);
  } catch (const json::out_of_range& e) {
    // The lexer refuses a number beyond double's range ("1e999") with out_of_range 406, not a
    // parse_error; it is the file's fault all the same. The value being parsed is the innermost
    // container's next child.
    if (e.id != 406) throw;
    const std::string what = e.what();
    const auto open = what.find('\'');
    const auto close = what.rfind('\'');
    const std::string number = open != std::string::npos && close > open ? what.substr(open + 1, close - open - 1) : what;
    throw JsonStructureError("number out of range: " + number, path_through(stack.size()));
  }
}

}  // namespace kessel::util
