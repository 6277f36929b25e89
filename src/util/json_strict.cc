#include "util/json_strict.h"

#include <set>
#include <vector>

namespace kessel::util {

namespace {

std::string describe(const std::string& key, const std::string& path) {
  return "duplicate key \"" + key + "\"" + (path.empty() ? std::string() : " in " + path);
}

}  // namespace

DuplicateJsonKey::DuplicateJsonKey(std::string key, std::string path)
    : std::runtime_error(describe(key, path)), key_(std::move(key)), path_(std::move(path)) {}

nlohmann::json parse_json_strict(std::string_view text) {
  using json = nlohmann::json;
  // One frame per open object or array: the keys seen so far (objects), the element count (arrays),
  // and the name this container has in its parent, for the error's path.
  struct Frame {
    bool object = false;
    std::set<std::string> keys;
    std::size_t elements = 0;
    std::string path;
    std::string pending_key;  // an object's key whose value is being parsed
  };
  std::vector<Frame> stack;
  // The path of a value about to start inside the innermost container.
  auto child_path = [&]() -> std::string {
    if (stack.empty()) return "";
    const Frame& f = stack.back();
    if (f.object) return f.path.empty() ? f.pending_key : f.path + "." + f.pending_key;
    return f.path + "[" + std::to_string(f.elements) + "]";
  };
  auto value_done = [&] {
    if (!stack.empty() && !stack.back().object) ++stack.back().elements;
  };
  json::parser_callback_t callback = [&](int /*depth*/, json::parse_event_t event, json& parsed) {
    switch (event) {
      case json::parse_event_t::object_start:
      case json::parse_event_t::array_start: {
        Frame f;
        f.object = event == json::parse_event_t::object_start;
        f.path = child_path();
        stack.push_back(std::move(f));
        break;
      }
      case json::parse_event_t::key: {
        Frame& f = stack.back();
        const std::string key = parsed.get<std::string>();
        if (!f.keys.insert(key).second) throw DuplicateJsonKey(key, f.path);
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
  return json::parse(text.begin(), text.end(), callback);
}

}  // namespace kessel::util
