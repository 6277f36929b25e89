#include "kessel/tensor.h"

#include <gtest/gtest.h>

namespace kessel {
namespace {

TEST(Strided4, ContiguousBroadcastsSizeOneDimensions) {
  std::vector<float> bias = {1, 2, 3, 4, 5, 6};  // shape [1, 2, 1, 3]
  auto v = Strided4<float>::contiguous(bias.data(), {1, 2, 1, 3});
  EXPECT_EQ(v.strides[0], 0);
  EXPECT_EQ(v.strides[1], 3);
  EXPECT_EQ(v.strides[2], 0);
  EXPECT_EQ(v.strides[3], 1);
  EXPECT_EQ(v.at(5, 1, 9, 2), 6.0f);  // b and i broadcast
  EXPECT_EQ(v.at(0, 0, 0, 0), 1.0f);
}

TEST(Tensor, CountsAndFills) {
  Tensor t({2, 3, 4}, 1.5f);
  EXPECT_EQ(t.size(), 24);
  EXPECT_EQ(t.rank(), 3);
  EXPECT_EQ(t[23], 1.5f);
  EXPECT_EQ(shape_string(t.shape()), "[2, 3, 4]");
}

}  // namespace
}  // namespace kessel
