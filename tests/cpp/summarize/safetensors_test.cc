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
  auto with_header = [](const std::string& json, std::size_t data_bytes) {
    std::string out(8, '\0');
    for (int i = 0; i < 8; ++i) out[static_cast<std::size_t>(i)] = static_cast<char>((json.size() >> (8 * i)) & 0xff);
    return out + json + std::string(data_bytes, '\0');
  };
  EXPECT_THROW(safetensors_parse(with_header(R"({"x":{"dtype":"F16","shape":[1],"data_offsets":[0,2]}})", 2), "f16"),
               ParseError);
  EXPECT_THROW(safetensors_parse(with_header(R"({"x":{"dtype":"F32","shape":[2],"data_offsets":[0,4]}})", 8), "shape"),
               ParseError);
  EXPECT_THROW(safetensors_parse(with_header(R"({"x":{"dtype":"F32","shape":[1],"data_offsets":[4,8]}})", 4), "oob"),
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

}  // namespace
}  // namespace kessel::summarize
