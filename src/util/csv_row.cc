// RFC 4180 fields of one CSV line (src/util/csv_row.h).
#include "util/csv_row.h"

namespace kessel::util {

std::optional<std::vector<std::string>> split_csv_row(std::string_view line, CsvRowOptions options) {
  std::vector<std::string> fields;
  std::string field;
  bool quoted = false, at_start = true;
  for (std::size_t i = 0; i < line.size(); ++i) {
    const char ch = line[i];
    if (quoted) {
      if (ch != '"') field.push_back(ch);
      else if (i + 1 < line.size() && line[i + 1] == '"') field.push_back(line[++i]);
      else quoted = false;
    } else if (ch == ',') {
      fields.push_back(std::move(field));
      field.clear();
      at_start = true;
    } else if (ch == '\r') {
      continue;
    } else if (at_start && options.skip_initial_space && (ch == ' ' || ch == '\t')) {
      continue;
    } else if (at_start && ch == '"') {
      quoted = true;
      at_start = false;
    } else {
      field.push_back(ch);
      at_start = false;
    }
  }
  if (quoted) return std::nullopt;
  fields.push_back(std::move(field));
  return fields;
}

}  // namespace kessel::util
