// A numeric CSV reader for the CLI: every problem is reported with file and line, nothing is skipped
// except blank lines.
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <string>
#include <utility>
#include <vector>

#include "kessel/cluster.h"
#include "kessel/error.h"
#include "util/csv_row.h"

namespace kessel::cluster {

namespace {

constexpr double kMaxCsvMagnitude = 1e150;

std::string trim(const std::string& s) {
  const auto begin = s.find_first_not_of(" \t\r");
  if (begin == std::string::npos) return "";
  const auto end = s.find_last_not_of(" \t\r");
  return s.substr(begin, end - begin + 1);
}

// RFC 4180 fields, blanks around each field trimmed (`1.5, "2.5" ` is 1.5 and 2.5).
std::vector<std::string> split_fields(const std::string& line, const std::string& path, long line_no) {
  auto fields = util::split_csv_row(line, {.skip_initial_space = true});
  if (!fields) throw ParseError(path, line_no, "unterminated quote");
  for (auto& f : *fields) f = trim(f);
  return std::move(*fields);
}

// Parses the whole field as a decimal number; accepts no trailing text. strtod also reads
// hexadecimal ("0x10" = 16), which no CSV means: refused. Out of double range ("1e400") sets
// *out_of_range and returns false.
bool parse_number(const std::string& field, double* value, bool* out_of_range = nullptr) {
  if (field.empty()) return false;
  if (field.find_first_of("xX") != std::string::npos) return false;
  errno = 0;
  char* end = nullptr;
  *value = std::strtod(field.c_str(), &end);
  const bool whole = end == field.c_str() + field.size();
  if (out_of_range) *out_of_range = whole && errno == ERANGE && std::fabs(*value) > 1.0;
  return whole && errno != ERANGE;
}

}  // namespace

CsvMatrix read_csv_matrix(const std::string& path, const std::vector<std::string>& select) {
  std::ifstream in(path);
  if (!in) throw IoError("read_csv_matrix: cannot open '" + path + "'");
  CsvMatrix out;
  std::vector<Index> keep;
  Index fields_per_row = -1;
  std::string line;
  long line_no = 0;
  while (std::getline(in, line)) {
    ++line_no;
    // A NUL would cut the field it is in, and the message quoting that field, at the NUL.
    if (const auto nul = line.find('\0'); nul != std::string::npos)
      throw ParseError(path, line_no,
                       "NUL byte (0x00) at byte offset " + std::to_string(nul) + " of the line");
    if (trim(line).empty()) continue;
    const std::vector<std::string> fields = split_fields(line, path, line_no);
    if (fields_per_row < 0) {
      fields_per_row = static_cast<Index>(fields.size());
      bool any_number = false;
      for (const auto& f : fields) {
        double value;
        any_number = any_number || parse_number(f, &value);
      }
      out.has_header = !any_number;
      for (Index k = 0; k < fields_per_row; ++k) {
        out.columns.push_back(out.has_header ? fields[k] : std::to_string(k));
      }
      if (select.empty()) {
        for (Index k = 0; k < fields_per_row; ++k) keep.push_back(k);
      } else {
        for (const auto& name : select) {
          Index found = -1;
          for (Index k = 0; k < fields_per_row; ++k) {
            if (out.columns[k] == name || std::to_string(k) == name) found = k;
          }
          if (found < 0) {
            std::string known;
            for (const auto& col : out.columns) known += (known.empty() ? "" : ", ") + col;
            throw InvalidArgument("read_csv_matrix: column '" + name + "' not found in '" + path +
                                  "' (columns: " + known + "; or 0-based indices)");
          }
          for (std::size_t a = 0; a < keep.size(); ++a)
            if (keep[a] == found)  // by name and index alike ("0,sepal_length")
              throw InvalidArgument("read_csv_matrix: column '" + name + "' of '" + path + "' is selected twice");
          keep.push_back(found);
        }
      }
      out.cols = static_cast<Index>(keep.size());
      std::vector<std::string> names;
      for (Index k : keep) names.push_back(out.columns[k]);
      out.columns = names;
      if (out.has_header) continue;
    }
    if (static_cast<Index>(fields.size()) != fields_per_row) {
      throw ParseError(path, line_no, "ragged row: " + std::to_string(fields.size()) +
                                          " fields, expected " + std::to_string(fields_per_row));
    }
    for (size_t s = 0; s < keep.size(); ++s) {
      const std::string& f = fields[static_cast<size_t>(keep[s])];
      double value;
      bool out_of_range = false;
      if (!parse_number(f, &value, &out_of_range)) {
        throw ParseError(path, line_no, "column '" + out.columns[s] + "': '" + f + "' is " +
                                            (out_of_range ? "out of range" : "not a number"));
      }
      // The clustering kernels take |x| < 1e150 (squared distances stay finite); said here with the line.
      if (!std::isfinite(value) || std::fabs(value) >= kMaxCsvMagnitude) {
        throw ParseError(path, line_no, "column '" + out.columns[s] + "': '" + f +
                                            (std::isfinite(value) ? "' is beyond ±1e150" : "' is not finite"));
      }
      out.values.push_back(value);
    }
    ++out.rows;
  }
  if (in.bad()) throw IoError("read_csv_matrix: error reading '" + path + "'");
  if (out.rows == 0) {
    throw ParseError(path, line_no, out.has_header ? "no data rows after the header" : "empty file");
  }
  return out;
}

}  // namespace kessel::cluster
