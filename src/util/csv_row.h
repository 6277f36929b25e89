// One line of a CSV file split into its fields, for the line-oriented readers (the numeric matrix of
// `kessel cluster`, the DUTIR lexicon). RFC 4180 within a line: fields are separated by ',', a field
// that opens with '"' may hold commas and "" for a quote, and '\r' is dropped (CRLF files). A quoted
// field may not span lines.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace kessel::util {

struct CsvRowOptions {
  // Blanks (space, tab) after a separator are skipped, so `a, "b,c"` is the two fields a and b,c
  // (Python csv's skipinitialspace). Off, they belong to the field and a quote after them is literal.
  bool skip_initial_space = false;
};

// The fields of `line`; nullopt when a quoted field is not closed by the end of the line. Text after
// a closing quote is kept as part of the field ("ab"c -> abc), as Python's csv reader does.
std::optional<std::vector<std::string>> split_csv_row(std::string_view line, CsvRowOptions options = {});

}  // namespace kessel::util
