#include "summarize/safetensors.h"

#include <bit>
#include <cstring>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

#include "kessel/error.h"
#include "util/atomic_file.h"
#include "util/json_strict.h"

namespace kessel::summarize {

namespace {

// The format caps the header so that a corrupt length cannot make a reader allocate gigabytes.
constexpr std::uint64_t kMaxHeader = 100u << 20;

std::int64_t product(const std::vector<std::int64_t>& shape) {
  std::int64_t n = 1;
  for (auto d : shape) n *= d;
  return n;
}

}  // namespace

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
      KESSEL_CHECK_ARG(d >= 0, "safetensors_serialize: tensor '", t.name, "' has a negative dimension ", d);
    KESSEL_CHECK_ARG(static_cast<std::int64_t>(t.data.size()) == product(t.shape),
                     "safetensors_serialize: tensor '", t.name, "' has ", t.data.size(),
                     " values but its shape holds ", product(t.shape));
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
    throw fail(detail::concat("header: length ", n, " exceeds the file (", bytes.size(), " bytes)"));
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
  for (const auto& [key, value] : header.items()) {
    if (key == "__metadata__") {
      if (!value.is_object()) throw fail("__metadata__: expected an object");
      for (const auto& [mk, mv] : value.items()) {
        if (!mv.is_string()) throw fail(detail::concat("__metadata__.", mk, ": expected a string"));
        file.metadata[mk] = mv.get<std::string>();
      }
      continue;
    }
    if (!value.is_object() || !value.contains("dtype") || !value.contains("shape") ||
        !value.contains("data_offsets"))
      throw fail(detail::concat(key, ": expected {dtype, shape, data_offsets}"));
    if (value["dtype"] != "F32")
      throw fail(detail::concat(key, ".dtype: only F32 is supported, got ", value["dtype"].dump()));
    NamedTensor t;
    t.name = key;
    const auto& shape = value["shape"];
    const auto& offs = value["data_offsets"];
    if (!shape.is_array()) throw fail(detail::concat(key, ".shape: expected an array"));
    for (const auto& d : shape) {
      if (!d.is_number_integer() || d.get<std::int64_t>() < 0)
        throw fail(detail::concat(key, ".shape: expected non-negative integers, got ", shape.dump()));
      t.shape.push_back(d.get<std::int64_t>());
    }
    if (!offs.is_array() || offs.size() != 2 || !offs[0].is_number_unsigned() || !offs[1].is_number_unsigned())
      throw fail(detail::concat(key, ".data_offsets: expected [begin, end], got ", offs.dump()));
    const auto begin = offs[0].get<std::uint64_t>(), end = offs[1].get<std::uint64_t>();
    const auto count = static_cast<std::uint64_t>(product(t.shape));
    if (begin > end || end > data_size || end - begin != count * sizeof(float))
      throw fail(detail::concat(key, ".data_offsets: [", begin, ", ", end, ") does not fit shape ",
                                shape.dump(), " in ", data_size, " data bytes"));
    t.data.resize(count);
    if (count) std::memcpy(t.data.data(), data + begin, count * sizeof(float));
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
