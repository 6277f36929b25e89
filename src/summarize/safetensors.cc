#include "summarize/safetensors.h"

#include <algorithm>
#include <bit>
#include <cstring>
#include <fstream>
#include <limits>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <sstream>
#include <tuple>

#include "kessel/error.h"
#include "util/atomic_file.h"
#include "util/json_strict.h"

namespace kessel::summarize {

namespace {

// The format caps the header so that a corrupt length cannot make a reader allocate gigabytes.
constexpr std::uint64_t kMaxHeader = 100u << 20;

// A header shorter than "{}" holds nothing; one longer than this is not a kessel file.
constexpr std::uint64_t kMinHeader = 2;

// Number of values a shape holds, or nullopt when a product overflows or the values' bytes would
// not fit a 64-bit offset (a damaged header's [2^32, 2^32] or [2^62]). Negative dimensions give
// nullopt.
std::optional<std::uint64_t> element_count(const std::vector<std::int64_t>& shape) {
  std::uint64_t n = 1;
  for (auto d : shape)
    if (d < 0 || __builtin_mul_overflow(n, static_cast<std::uint64_t>(d), &n)) return std::nullopt;
  if (n > std::numeric_limits<std::uint64_t>::max() / sizeof(float)) return std::nullopt;
  return n;
}

// One tensor's entry in the header, checked on its own; its bytes are copied only once every entry
// passed and the entries were found to tile the data.
struct HeaderEntry {
  std::string name;
  std::vector<std::int64_t> shape;
  std::uint64_t count = 0, begin = 0, end = 0;
};

HeaderEntry parse_entry(const std::string& key, const nlohmann::json& value,
                        std::uint64_t data_size, const std::string& file) {
  auto fail = [&](const std::string& what) { return ParseError(file, 0, what); };
  if (!value.is_object() || !value.contains("dtype") || !value.contains("shape") ||
      !value.contains("data_offsets"))
    throw fail(detail::concat(key, ": expected {dtype, shape, data_offsets}"));
  if (value["dtype"] != "F32")
    throw fail(detail::concat(key, ".dtype: only F32 is supported, got ", value["dtype"].dump()));
  HeaderEntry e;
  e.name = key;
  const auto& shape = value["shape"];
  const auto& offs = value["data_offsets"];
  if (!shape.is_array()) throw fail(detail::concat(key, ".shape: expected an array"));
  for (const auto& d : shape) {
    if (!d.is_number_unsigned() ||
        d.get<std::uint64_t>() > std::numeric_limits<std::int64_t>::max())
      throw fail(detail::concat(key, ".shape: expected non-negative integers, got ", shape.dump()));
    e.shape.push_back(d.get<std::int64_t>());
  }
  const auto count = element_count(e.shape);
  if (!count)
    throw fail(detail::concat(key, ".shape: ", shape.dump(),
                              " holds more values than a file can address"));
  e.count = *count;
  if (!offs.is_array() || offs.size() != 2 || !offs[0].is_number_unsigned() ||
      !offs[1].is_number_unsigned())
    throw fail(detail::concat(key, ".data_offsets: expected [begin, end], got ", offs.dump()));
  e.begin = offs[0].get<std::uint64_t>();
  e.end = offs[1].get<std::uint64_t>();
  if (e.begin > e.end || e.end > data_size || e.end - e.begin != e.count * sizeof(float))
    throw fail(detail::concat(key, ".data_offsets: [", e.begin, ", ", e.end,
                              ") does not fit shape ", shape.dump(), " (", e.count * sizeof(float),
                              " bytes) in ", data_size, " data bytes"));
  return e;
}

// The format's rule: the tensors' byte ranges cover the data exactly, without overlaps or holes, so
// a byte belongs to one tensor (no aliased weights, no hidden payload after the last tensor).
void check_tiling(std::vector<const HeaderEntry*> entries, std::uint64_t data_size,
                  const std::string& file) {
  auto fail = [&](const std::string& what) { return ParseError(file, 0, what); };
  std::sort(entries.begin(), entries.end(), [](const HeaderEntry* a, const HeaderEntry* b) {
    return std::tie(a->begin, a->end) < std::tie(b->begin, b->end);
  });
  std::uint64_t cursor = 0;
  const HeaderEntry* previous = nullptr;
  for (const HeaderEntry* e : entries) {
    if (e->begin < cursor)
      throw fail(detail::concat(e->name, ".data_offsets: [", e->begin, ", ", e->end, ") overlaps ",
                                previous->name, "'s [", previous->begin, ", ", previous->end, ")"));
    if (e->begin > cursor)
      throw fail(detail::concat(e->name, ".data_offsets: [", e->begin, ", ", e->end,
                                ") leaves bytes [", cursor, ", ", e->begin,
                                ") of the data to no tensor"));
    cursor = e->end;
    previous = e;
  }
  if (cursor != data_size)
    throw fail(detail::concat("data: ", data_size - cursor,
                              " trailing bytes after the last tensor (", cursor, " of ", data_size,
                              " data bytes are tensors)"));
}

}  // namespace

std::string shape_text(const std::vector<std::int64_t>& shape) {
  std::string out = "[";
  for (std::size_t i = 0; i < shape.size(); ++i) out += (i ? ", " : "") + std::to_string(shape[i]);
  return out + "]";
}

const NamedTensor* SafetensorsFile::find(const std::string& name) const {
  for (const auto& t : tensors)
    if (t.name == name) return &t;
  return nullptr;
}

std::string safetensors_serialize(const SafetensorsFile& file) {
  nlohmann::ordered_json header = nlohmann::ordered_json::object();
  if (!file.metadata.empty()) {
    nlohmann::ordered_json meta = nlohmann::ordered_json::object();
    for (const auto& [k, v] : file.metadata) meta[k] = v;
    header["__metadata__"] = meta;
  }
  std::set<std::string> seen;
  std::uint64_t offset = 0;
  for (const auto& t : file.tensors) {
    KESSEL_CHECK_ARG(!t.name.empty() && t.name != "__metadata__",
                     "safetensors_serialize: invalid tensor name '", t.name, "'");
    KESSEL_CHECK_ARG(seen.insert(t.name).second, "safetensors_serialize: duplicate tensor '", t.name, "'");
    for (auto d : t.shape)
      KESSEL_CHECK_ARG(d >= 0, "safetensors_serialize: tensor '", t.name,
                       "' has a negative dimension ", d);
    const auto count = element_count(t.shape);
    KESSEL_CHECK_ARG(count && t.data.size() == *count, "safetensors_serialize: tensor '", t.name,
                     "' has ", t.data.size(), " values but its shape ", shape_text(t.shape),
                     " holds ", count ? std::to_string(*count) : std::string("more than 2^62"));
    const std::uint64_t bytes = t.data.size() * sizeof(float);
    header[t.name] = {{"dtype", "F32"}, {"shape", t.shape}, {"data_offsets", {offset, offset + bytes}}};
    offset += bytes;
  }
  std::string json = header.dump();
  // Pad with spaces so the data starts 8-byte aligned (allowed by the format, helps mmap readers).
  while ((8 + json.size()) % 8 != 0) json.push_back(' ');
  std::string out(8, '\0');
  const std::uint64_t n = json.size();
  for (int i = 0; i < 8; ++i) out[static_cast<std::size_t>(i)] = static_cast<char>((n >> (8 * i)) & 0xff);
  out += json;
  out.reserve(out.size() + offset);
  for (const auto& t : file.tensors) {
    // float32 little-endian: the machines kessel targets are little-endian, checked at compile time.
    static_assert(std::endian::native == std::endian::little, "safetensors writer assumes little-endian");
    out.append(reinterpret_cast<const char*>(t.data.data()), t.data.size() * sizeof(float));
  }
  return out;
}

SafetensorsFile safetensors_parse(const std::string& bytes, const std::string& name) {
  auto fail = [&](const std::string& what) { return ParseError(name, 0, what); };
  if (bytes.size() < 8) throw fail(detail::concat("header: file has ", bytes.size(), " bytes, fewer than 8"));
  std::uint64_t n = 0;
  for (int i = 7; i >= 0; --i) n = (n << 8) | static_cast<unsigned char>(bytes[static_cast<std::size_t>(i)]);
  if (n > kMaxHeader || n > bytes.size() - 8)
    throw fail(detail::concat("header: length ", n, " exceeds the file (", bytes.size(),
                              " bytes) or the ", kMaxHeader, "-byte limit"));
  if (n < kMinHeader)
    throw fail(detail::concat("header: length ", n, " is too short for a JSON object"));
  nlohmann::json header;
  try {
    header = util::parse_json_strict(std::string_view(bytes.data() + 8, static_cast<std::size_t>(n)));
  } catch (const util::JsonStructureError& e) {
    throw fail(std::string("header: ") + e.what());
  } catch (const nlohmann::json::parse_error& e) {
    throw fail(std::string("header: invalid JSON: ") + e.what());
  }
  if (!header.is_object()) throw fail("header: expected a JSON object");
  const std::uint64_t data_size = bytes.size() - 8 - n;
  const char* data = bytes.data() + 8 + n;
  SafetensorsFile file;
  std::vector<HeaderEntry> entries;
  for (const auto& [key, value] : header.items()) {
    if (key == "__metadata__") {
      if (!value.is_object()) throw fail("__metadata__: expected an object");
      for (const auto& [mk, mv] : value.items()) {
        if (!mv.is_string()) throw fail(detail::concat("__metadata__.", mk, ": expected a string"));
        file.metadata[mk] = mv.get<std::string>();
      }
      continue;
    }
    entries.push_back(parse_entry(key, value, data_size, name));
  }
  std::vector<const HeaderEntry*> order;
  for (const auto& e : entries) order.push_back(&e);
  check_tiling(std::move(order), data_size, name);
  // Every count is now bounded by the file's size, so these allocations are too.
  for (auto& e : entries) {
    NamedTensor t{std::move(e.name), std::move(e.shape), std::vector<float>(e.count)};
    if (e.count) std::memcpy(t.data.data(), data + e.begin, e.count * sizeof(float));
    file.tensors.push_back(std::move(t));
  }
  return file;
}

void write_safetensors(const std::string& path, const SafetensorsFile& file) {
  util::write_file_atomically(path, safetensors_serialize(file),
                              "write_safetensors: '" + path + "'");
}

SafetensorsFile read_safetensors(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw IoError("read_safetensors: cannot open '" + path + "'");
  std::ostringstream ss;
  ss << in.rdbuf();
  return safetensors_parse(ss.str(), path);
}

}  // namespace kessel::summarize
