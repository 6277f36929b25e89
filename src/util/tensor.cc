#include "kessel/tensor.h"

namespace kessel {

std::string shape_string(std::span<const Index> shape) {
  std::string s = "[";
  for (size_t d = 0; d < shape.size(); ++d) {
    if (d) s += ", ";
    s += std::to_string(shape[d]);
  }
  return s + "]";
}

}  // namespace kessel
