#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "kessel/cluster.h"

namespace kessel::cluster {
namespace {

class CsvTest : public ::testing::Test {
 protected:
  std::string write(const std::string& name, const std::string& text) {
    const auto dir = std::filesystem::temp_directory_path() /
                     ("kessel_csv_test_" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir);
    const std::string path = (dir / name).string();
    std::ofstream(path) << text;
    return path;
  }
  static std::string error_of(const std::string& path, const std::vector<std::string>& sel = {}) {
    try {
      read_csv_matrix(path, sel);
    } catch (const Error& e) {
      return e.what();
    }
    return "no exception";
  }
};

TEST_F(CsvTest, HeaderAndSelection) {
  const auto path = write("h.csv", "a,b,label\n1,2,x\n\n3,4.5e1,y\n");
  const CsvMatrix m = read_csv_matrix(path, {"a", "b"});
  EXPECT_TRUE(m.has_header);
  EXPECT_EQ(m.rows, 2);
  EXPECT_EQ(m.cols, 2);
  EXPECT_EQ(m.values, (std::vector<double>{1, 2, 3, 45}));
  EXPECT_EQ(m.columns, (std::vector<std::string>{"a", "b"}));
  EXPECT_EQ(read_csv_matrix(path, {"1"}).values, (std::vector<double>{2, 45}));
  EXPECT_NE(error_of(path).find(path + ":2: column 'label': 'x' is not a number"), std::string::npos);
  EXPECT_NE(error_of(path, {"zzz"}).find("column 'zzz' not found"), std::string::npos);
}

TEST_F(CsvTest, NoHeaderCrLf) {
  const CsvMatrix m = read_csv_matrix(write("n.csv", "1, 2\r\n-3,4\r\n"));
  EXPECT_FALSE(m.has_header);
  EXPECT_EQ(m.values, (std::vector<double>{1, 2, -3, 4}));
}

TEST_F(CsvTest, ErrorsNameFileAndLine) {
  const auto ragged = write("r.csv", "x,y\n1,2\n3\n");
  EXPECT_NE(error_of(ragged).find(ragged + ":3: ragged row: 1 fields, expected 2"), std::string::npos);
  const auto nan = write("nan.csv", "1,2\n3,nan\n");
  EXPECT_NE(error_of(nan).find(nan + ":2: column '1': 'nan' is not finite"), std::string::npos);
  const auto text = write("t.csv", "1,2\n3,4x\n");
  EXPECT_NE(error_of(text).find(":2: column '1': '4x' is not a number"), std::string::npos);
  const auto empty = write("e.csv", "");
  EXPECT_NE(error_of(empty).find("empty file"), std::string::npos);
  const auto header_only = write("ho.csv", "a,b\n");
  EXPECT_NE(error_of(header_only).find("no data rows after the header"), std::string::npos);
  EXPECT_THROW(read_csv_matrix("/nonexistent/kessel.csv"), IoError);
  // A NUL cut the quoted field, and so the message, at the NUL ("'4" and nothing after it).
  const auto nul = write("nul.csv", std::string("1,2\n3,4\0x\n", 11));
  const std::string msg = error_of(nul);
  EXPECT_NE(msg.find(nul + ":2: NUL byte (0x00) at byte offset 3 of the line"), std::string::npos)
      << msg;
  EXPECT_EQ(msg.find('\0'), std::string::npos);
}

TEST_F(CsvTest, QuotedFieldsFollowRfc4180) {
  // Quoted names and numbers, a comma and a doubled quote inside a quoted header, blanks after the
  // separator before a quote.
  const auto path = write("q.csv", "\"width, cm\", \"say \"\"hi\"\"\"\n\"1.5\", 2\n3 , \"4\"\n");
  const CsvMatrix m = read_csv_matrix(path);
  EXPECT_TRUE(m.has_header);
  EXPECT_EQ(m.columns, (std::vector<std::string>{"width, cm", "say \"hi\""}));
  EXPECT_EQ(m.values, (std::vector<double>{1.5, 2, 3, 4}));
  EXPECT_EQ(read_csv_matrix(path, {"width, cm"}).values, (std::vector<double>{1.5, 3}));
  const auto open_quote = write("u.csv", "a,b\n1,\"2\n");
  EXPECT_NE(error_of(open_quote).find(open_quote + ":2: unterminated quote"), std::string::npos);
}

}  // namespace
}  // namespace kessel::cluster
