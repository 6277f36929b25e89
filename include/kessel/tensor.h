// Non-owning views over contiguous or strided float buffers, and a small owning tensor.
//
// Public functions take views (pointer + shape [+ strides]); memory is owned by the caller or by
// kessel::Tensor. Shapes use the letters of STYLE.md: B batch, H heads, L/Lq/Lk lengths, D head size.
#pragma once

#include <array>
#include <cstdint>
#include <numeric>
#include <span>
#include <string>
#include <vector>

#include "kessel/error.h"

namespace kessel {

using Index = std::int64_t;

// A read-only view of a 4-D array with element strides; a stride of 0 broadcasts that dimension.
// Used for optional inputs that are "broadcastable to [B, H, Lq, Lk]" (bias, mask).
template <typename T>
struct Strided4 {
  const T* data = nullptr;
  std::array<Index, 4> shape{0, 0, 0, 0};    // the shape as given (1 where broadcast)
  std::array<Index, 4> strides{0, 0, 0, 0};  // element strides; 0 where shape[d] == 1

  bool empty() const { return data == nullptr; }
  const T& at(Index b, Index h, Index i, Index j) const {
    return data[b * strides[0] + h * strides[1] + i * strides[2] + j * strides[3]];
  }

  // A contiguous array of `shape`, broadcast along every dimension whose extent is 1.
  static Strided4 contiguous(const T* data, std::array<Index, 4> shape) {
    Strided4 v;
    v.data = data;
    v.shape = shape;
    Index s = 1;
    for (int d = 3; d >= 0; --d) {
      v.strides[d] = shape[d] == 1 ? 0 : s;
      s *= shape[d];
    }
    return v;
  }
};

// An owning, contiguous, row-major float32 tensor. Deliberately minimal: kessel's kernels take views.
class Tensor {
 public:
  Tensor() = default;
  explicit Tensor(std::vector<Index> shape, float fill = 0.0f)
      : shape_(std::move(shape)), data_(count(shape_), fill) {}

  static Index count(const std::vector<Index>& shape) {
    return std::accumulate(shape.begin(), shape.end(), Index{1}, std::multiplies<Index>());
  }

  const std::vector<Index>& shape() const { return shape_; }
  Index dim(int d) const { return shape_.at(static_cast<size_t>(d)); }
  int rank() const { return static_cast<int>(shape_.size()); }
  Index size() const { return static_cast<Index>(data_.size()); }
  float* data() { return data_.data(); }
  const float* data() const { return data_.data(); }
  std::span<float> span() { return data_; }
  std::span<const float> span() const { return data_; }
  float& operator[](Index i) { return data_[static_cast<size_t>(i)]; }
  float operator[](Index i) const { return data_[static_cast<size_t>(i)]; }

 private:
  std::vector<Index> shape_;
  std::vector<float> data_;
};

std::string shape_string(std::span<const Index> shape);

}  // namespace kessel
