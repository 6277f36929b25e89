// safetensors files: an 8-byte little-endian header length N, N bytes of JSON, then the raw tensor
// bytes. The JSON maps each tensor name to {"dtype", "shape", "data_offsets": [begin, end)}
// (offsets relative to the end of the header) and may hold "__metadata__": an object of strings.
// kessel writes and reads F32 tensors only; the reader checks every offset, shape and dtype against
// the file so a truncated or hand-edited file is a ParseError, never an out-of-bounds read: shape
// products are checked for overflow, and the tensors' byte ranges must tile the data exactly (no
// overlap, no hole, no trailing bytes), as the format requires. What the tensors must be is the
// model loader's check.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace kessel::summarize {

struct NamedTensor {
  std::string name;
  std::vector<std::int64_t> shape;
  std::vector<float> data;  // product(shape) values, row-major
};

// "[2, 3]", for messages.
std::string shape_text(const std::vector<std::int64_t>& shape);

struct SafetensorsFile {
  std::vector<NamedTensor> tensors;  // written in this order; read back sorted by name
  std::map<std::string, std::string> metadata;
  const NamedTensor* find(const std::string& name) const;  // nullptr when absent
};

// Serialized bytes of a file (tensors are laid out in the given order). Throws InvalidArgument for an
// empty or duplicate name, "__metadata__" as a name, or a data size that does not match the shape.
std::string safetensors_serialize(const SafetensorsFile& file);
// Parses bytes; `name` labels ParseError messages ("<name>:0: header: ...").
SafetensorsFile safetensors_parse(const std::string& bytes, const std::string& name);

void write_safetensors(const std::string& path, const SafetensorsFile& file);  // IoError on failure
SafetensorsFile read_safetensors(const std::string& path);

}  // namespace kessel::summarize
