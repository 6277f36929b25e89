#include "util/csv_row.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace kessel::util {
namespace {

using Fields = std::vector<std::string>;

TEST(CsvRow, PlainQuotedAndEscapedFields) {
  EXPECT_EQ(split_csv_row("a,b,,c"), (Fields{"a", "b", "", "c"}));
  EXPECT_EQ(split_csv_row(""), (Fields{""}));
  EXPECT_EQ(split_csv_row("\"x,y\",z"), (Fields{"x,y", "z"}));
  EXPECT_EQ(split_csv_row("\"say \"\"hi\"\"\",1"), (Fields{"say \"hi\"", "1"}));
  EXPECT_EQ(split_csv_row("\"\",\"\"\"\""), (Fields{"", "\""}));
  EXPECT_EQ(split_csv_row("仇人相见,\"眉头一皱,计上心头\",7\r"), (Fields{"仇人相见", "眉头一皱,计上心头", "7"}));
}

TEST(CsvRow, QuotesOnlyOpenAFieldAtItsStart) {
  // Inside an unquoted field a quote is literal; text after a closing quote joins the field.
  EXPECT_EQ(split_csv_row("ab\"c,d"), (Fields{"ab\"c", "d"}));
  EXPECT_EQ(split_csv_row("\"ab\"c,d"), (Fields{"abc", "d"}));
  // A blank before the quote makes it literal unless skip_initial_space is set.
  EXPECT_EQ(split_csv_row("a, \"b,c\""), (Fields{"a", " \"b", "c\""}));
  EXPECT_EQ(split_csv_row("a, \"b,c\"", {.skip_initial_space = true}), (Fields{"a", "b,c"}));
  EXPECT_EQ(split_csv_row("a,\t b", {.skip_initial_space = true}), (Fields{"a", "b"}));
}

TEST(CsvRow, UnterminatedQuoteIsReported) {
  EXPECT_FALSE(split_csv_row("a,\"b").has_value());
  EXPECT_FALSE(split_csv_row("\"a\"\"").has_value());
  // A carriage return inside quotes is data; outside it is the CRLF line end.
  EXPECT_EQ(split_csv_row("\"a\rb\"\r"), (Fields{"a\rb"}));
}

}  // namespace
}  // namespace kessel::util
