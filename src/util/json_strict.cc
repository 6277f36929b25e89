#include "util/json_strict.h"

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

JsonNulByte::JsonNulByte(std::size_t offset)
    : JsonStructureError("NUL byte (0x00) at byte offset " + std::to_string(offset) +
                             ": JSON text holds none (inside a string it is written \\u0000)",
                         ""),
      offset_(offset) {}

namespace {

using json = nlohmann::json;

// Builds the DOM as nlohmann's json_sax_dom_parser does, and refuses a duplicate key or nesting
// deeper than kMaxJsonDepth as it goes. Every event costs O(1) (a key O(log keys)): nlohmann's
// callback parser, used before, rescanned the parent array at each object's end, so a list of n
// objects took O(n^2) (100,000 "{}" took 7.5 s; see docs/benchmarks.md).
class StrictDomBuilder {
 public:
  explicit StrictDomBuilder(json& root) : root_(root) {}

  bool null() { return add(nullptr); }
  bool boolean(bool v) { return add(v); }
  bool number_integer(json::number_integer_t v) { return add(v); }
  bool number_unsigned(json::number_unsigned_t v) { return add(v); }
  bool number_float(json::number_float_t v, const json::string_t& /*text*/) { return add(v); }
  bool string(json::string_t& v) { return add(std::move(v)); }
  bool binary(json::binary_t& v) { return add(json::binary(std::move(v))); }

  bool start_object(std::size_t /*unknown length*/) { return open(json::value_t::object); }
  bool start_array(std::size_t /*unknown length*/) { return open(json::value_t::array); }
  bool end_object() { return close(); }
  bool end_array() { return close(); }

  bool key(json::string_t& k) {
    Frame& f = stack_.back();
    if (f.value->contains(k)) throw DuplicateJsonKey(k, path_through(stack_.size() - 1));
    f.pending_key = k;
    return true;
  }

  // Malformed JSON throws parse_error as json::parse does; a number beyond double's range (the
  // lexer's out_of_range 406, which no reader caught: "internal error") becomes a
  // JsonStructureError with the number and the path of the value being parsed (the innermost
  // container's next child).
  template <class Exception>
  bool parse_error(std::size_t /*position*/, const std::string& /*last token*/,
                   const Exception& e) {
    if constexpr (std::is_same_v<Exception, json::out_of_range>) {
      if (e.id == 406) {
        const std::string what = e.what();
        const auto open = what.find('\'');
        const auto close = what.rfind('\'');
        const std::string number = open != std::string::npos && close > open
                                       ? what.substr(open + 1, close - open - 1)
                                       : what;
        throw JsonStructureError("number out of range: " + number, path_through(stack_.size()));
      }
    }
    throw e;
  }

 private:
  // One frame per open object or array: its value in the DOM, the key whose value is being parsed
  // (objects) or the element count (arrays). Paths are built only for an error, from the stack.
  struct Frame {
    json* value;
    std::size_t elements = 0;
    std::string pending_key;
  };

  // Places v as the next child of the innermost container (or as the root) and returns it.
  json* place(json&& v) {
    if (stack_.empty()) {
      root_ = std::move(v);
      return &root_;
    }
    Frame& f = stack_.back();
    if (f.value->is_array()) {
      ++f.elements;
      f.value->get_ref<json::array_t&>().push_back(std::move(v));
      return &f.value->get_ref<json::array_t&>().back();
    }
    json& slot = f.value->get_ref<json::object_t&>()[f.pending_key];
    slot = std::move(v);
    return &slot;
  }
  bool add(json&& v) {
    place(std::move(v));
    return true;
  }
  bool open(json::value_t type) {
    if (stack_.size() >= kMaxJsonDepth) throw JsonTooDeep();
    json* v = place(json(type));
    stack_.push_back(Frame{v, 0, {}});
    return true;
  }
  bool close() {
    stack_.pop_back();
    return true;
  }

  // The path through the first `frames` frames: each frame names its child ("turns", "[2]").
  // An array frame counts the child being parsed already when it is a container (place() ran), not
  // yet when it is a scalar: the index is the count minus one for the former.
  std::string path_through(std::size_t frames) const {
    std::string path;
    for (std::size_t d = 0; d < frames; ++d) {
      const Frame& f = stack_[d];
      if (!f.value->is_array()) {
        path += (path.empty() ? "" : ".") + f.pending_key;
      } else {
        const bool child_open = d + 1 < stack_.size();
        path += "[" + std::to_string(child_open ? f.elements - 1 : f.elements) + "]";
      }
    }
    return path;
  }

  json& root_;
  std::vector<Frame> stack_;
};

}  // namespace

json parse_json_strict(std::string_view text) {
  // nlohmann's lexer reads a NUL between tokens as the end of the input: "{...}\0{...}" would parse
  // as its first object, the rest dropped without a word.
  if (const auto nul = text.find('\0'); nul != std::string_view::npos) throw JsonNulByte(nul);
  json root;
  StrictDomBuilder builder(root);
  json::sax_parse(text.begin(), text.end(), &builder, json::input_format_t::json, /*strict=*/true);
  return root;
}

}  // namespace kessel::util
