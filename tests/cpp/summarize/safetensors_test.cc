#include "summarize/safetensors.h"

#include <gtest/gtest.h>

#include "kessel/error.h"

namespace kessel::summarize {
namespace {

SafetensorsFile sample() {
  SafetensorsFile f;
  f.tensors.push_back({"b", {2, 3}, {1, 2, 3, 4, 5, -6.5f}});
  f.tensors.push_back({"a", {1}, {0.25f}});
  f.tensors.push_back({"empty", {0, 4}, {}});
  f.metadata = {{"lexicon", "default:612"}, {"hidden", "32"}};
  return f;
}

// A file of this header and `data_bytes` zero bytes of data.
std::string with_header(const std::string& json, std::size_t data_bytes) {
  std::string out(8, '\0');
  for (int i = 0; i < 8; ++i)
    out[static_cast<std::size_t>(i)] = static_cast<char>((json.size() >> (8 * i)) & 0xff);
  return out + json + std::string(data_bytes, '\0');
}

// The ParseError message of parsing `bytes` as file "m.safetensors", or "no error".
std::string parse_error(const std::string& bytes) {
  try {
    safetensors_parse(bytes, "m.safetensors");
  } catch (const ParseError& e) {
    return e.what();
  }
  return "no error";
}

TEST(Safetensors, RoundTripsTensorsAndMetadata) {
  const std::string bytes = safetensors_serialize(sample());
  // Header length prefix, little-endian, and the data starts 8-byte aligned.
  std::uint64_t n = 0;
  for (int i = 7; i >= 0; --i) n = (n << 8) | static_cast<unsigned char>(bytes[static_cast<std::size_t>(i)]);
  EXPECT_EQ((8 + n) % 8, 0u);
  EXPECT_EQ(bytes.size(), 8 + n + 7 * sizeof(float));
  const SafetensorsFile back = safetensors_parse(bytes, "mem");
  ASSERT_EQ(back.tensors.size(), 3u);
  EXPECT_EQ(back.find("b")->shape, (std::vector<std::int64_t>{2, 3}));
  EXPECT_EQ(back.find("b")->data, (std::vector<float>{1, 2, 3, 4, 5, -6.5f}));
  EXPECT_EQ(back.find("a")->data, (std::vector<float>{0.25f}));
  EXPECT_TRUE(back.find("empty")->data.empty());
  EXPECT_EQ(back.metadata.at("lexicon"), "default:612");
  EXPECT_EQ(back.find("nope"), nullptr);
  // The JSON header is the documented format: dtype, shape, data_offsets per tensor.
  const std::string header = bytes.substr(8, n);
  EXPECT_NE(header.find("\"b\":{\"dtype\":\"F32\",\"shape\":[2,3],\"data_offsets\":[0,24]}"), std::string::npos)
      << header;
}

TEST(Safetensors, RejectsBadInput) {
  SafetensorsFile bad;
  bad.tensors.push_back({"x", {2, 2}, {1, 2, 3}});
  EXPECT_THROW(safetensors_serialize(bad), InvalidArgument);
  bad.tensors = {{"x", {1}, {1}}, {"x", {1}, {2}}};
  EXPECT_THROW(safetensors_serialize(bad), InvalidArgument);

  const std::string good = safetensors_serialize(sample());
  EXPECT_THROW(safetensors_parse("abc", "short"), ParseError);
  EXPECT_THROW(safetensors_parse(good.substr(0, good.size() - 4), "truncated"), ParseError);
  std::string huge = good;
  huge[7] = '\x7f';  // header length far beyond the file
  EXPECT_THROW(safetensors_parse(huge, "huge"), ParseError);
  std::string not_json = good;
  not_json[8] = '!';
  EXPECT_THROW(safetensors_parse(not_json, "json"), ParseError);
  EXPECT_THROW(
      safetensors_parse(with_header(R"({"x":{"dtype":"F16","shape":[1],"data_offsets":[0,2]}})", 2),
                        "f16"),
      ParseError);
  EXPECT_THROW(
      safetensors_parse(with_header(R"({"x":{"dtype":"F32","shape":[2],"data_offsets":[0,4]}})", 8),
                        "shape"),
      ParseError);
  EXPECT_THROW(
      safetensors_parse(with_header(R"({"x":{"dtype":"F32","shape":[1],"data_offsets":[4,8]}})", 4),
                        "oob"),
      ParseError);
  EXPECT_THROW(safetensors_parse(with_header(R"({"__metadata__":{"k":1}})", 0), "meta"),
               ParseError);
  EXPECT_THROW(safetensors_parse(with_header(R"({"__metadata__":{"k":1}})", 0), "meta"), ParseError);
  // Two tensors of one name: the JSON library would keep the second and say nothing.
  try {
    safetensors_parse(with_header(R"({"x":{"dtype":"F32","shape":[1],"data_offsets":[0,4]},)"
                                  R"("x":{"dtype":"F32","shape":[1],"data_offsets":[0,4]}})", 4), "dup.safetensors");
    FAIL() << "expected ParseError";
  } catch (const ParseError& e) {
    EXPECT_NE(std::string(e.what()).find("header: duplicate key \"x\""), std::string::npos) << e.what();
  }
  try {
    safetensors_parse(with_header(R"({"w":{"dtype":"F32","shape":[-1],"data_offsets":[0,0]}})", 0), "neg.safetensors");
    FAIL() << "expected ParseError";
  } catch (const ParseError& e) {
    EXPECT_NE(std::string(e.what()).find("neg.safetensors"), std::string::npos);
    EXPECT_NE(std::string(e.what()).find("w.shape"), std::string::npos);
  }
}

// Issue 23's reproductions: shapes whose value count overflows, or wraps to the offsets' 0 bytes,
// are named errors about the file, not a signed overflow or an allocation failure.
TEST(Safetensors, ShapeProductsAreCheckedForOverflow) {
  const std::string huge = parse_error(with_header(
      R"({"w":{"dtype":"F32","shape":[4611686018427387904],"data_offsets":[0,0]}})", 0));
  EXPECT_NE(huge.find("m.safetensors: w.shape: [4611686018427387904] holds more values than a file "
                      "can address"),
            std::string::npos)
      << huge;
  const std::string square = parse_error(with_header(
      R"({"w":{"dtype":"F32","shape":[4294967296,4294967296],"data_offsets":[0,0]}})", 0));
  EXPECT_NE(square.find("w.shape: [4294967296,4294967296] holds more values"), std::string::npos)
      << square;
  // 2^61 values are 2^63 bytes: the count fits, its bytes do not match offsets [0, 0].
  const std::string bytes = parse_error(with_header(
      R"({"w":{"dtype":"F32","shape":[2305843009213693952],"data_offsets":[0,0]}})", 0));
  EXPECT_NE(bytes.find("w.data_offsets: [0, 0) does not fit shape"), std::string::npos) << bytes;
  // A dimension beyond int64 is not a valid size either.
  EXPECT_NE(
      parse_error(
          with_header(
              R"({"w":{"dtype":"F32","shape":[18446744073709551615],"data_offsets":[0,0]}})", 0))
          .find("w.shape: expected non-negative integers"),
      std::string::npos);
  SafetensorsFile f;
  f.tensors.push_back({"w", {std::int64_t{1} << 32, std::int64_t{1} << 32}, {}});
  EXPECT_THROW(safetensors_serialize(f), InvalidArgument);
}

TEST(Safetensors, TensorsMustTileTheDataExactly) {
  const std::string two = R"("a":{"dtype":"F32","shape":[2],"data_offsets":[0,8]},)";
  // Overlap: b reads a's second value.
  std::string e = parse_error(
      with_header("{" + two + R"("b":{"dtype":"F32","shape":[1],"data_offsets":[4,8]}})", 8));
  EXPECT_NE(e.find("m.safetensors: b.data_offsets: [4, 8) overlaps a's [0, 8)"), std::string::npos)
      << e;
  // Aliasing: two tensors on the same bytes.
  e = parse_error(
      with_header("{" + two + R"("b":{"dtype":"F32","shape":[2],"data_offsets":[0,8]}})", 8));
  EXPECT_NE(e.find("overlaps"), std::string::npos) << e;
  // A hole between tensors.
  e = parse_error(
      with_header("{" + two + R"("b":{"dtype":"F32","shape":[1],"data_offsets":[12,16]}})", 16));
  EXPECT_NE(e.find("b.data_offsets: [12, 16) leaves bytes [8, 12) of the data to no tensor"),
            std::string::npos)
      << e;
  // Bytes after the last tensor; and a file of nothing but metadata with data after it.
  e = parse_error(with_header("{" + two.substr(0, two.size() - 1) + "}", 12));
  EXPECT_NE(e.find("m.safetensors: data: 4 trailing bytes after the last tensor (8 of 12 data "
                   "bytes are tensors)"),
            std::string::npos)
      << e;
  EXPECT_NE(parse_error(with_header(R"({"__metadata__":{"k":"v"}})", 3)).find("3 trailing bytes"),
            std::string::npos);
  // The same tensors in order, and out of order in the data, are fine; so is an empty tensor.
  EXPECT_EQ(parse_error(with_header(
                "{" + two + R"("b":{"dtype":"F32","shape":[1],"data_offsets":[8,12]}})", 12)),
            "no error");
  EXPECT_EQ(parse_error(with_header(R"({"a":{"dtype":"F32","shape":[1],"data_offsets":[4,8]},)"
                                    R"("b":{"dtype":"F32","shape":[1],"data_offsets":[0,4]},)"
                                    R"("e":{"dtype":"F32","shape":[0],"data_offsets":[8,8]}})",
                                    8)),
            "no error");
}

TEST(Safetensors, HeaderLengthMustBeSane) {
  EXPECT_NE(parse_error(std::string(8, '\0')).find("m.safetensors: header: length 0 is too short"),
            std::string::npos);
  std::string beyond = with_header("{}", 0);
  beyond[0] = 3;  // 3 bytes of header in a file that has 2
  EXPECT_NE(parse_error(beyond).find("header: length 3 exceeds the file (10 bytes)"),
            std::string::npos)
      << parse_error(beyond);
}

}  // namespace
}  // namespace kessel::summarize
