// A strict reader for Python source files that hold one literal assignment, such as jieba's
// finalseg/prob_emit.py:
//
//   from __future__ import unicode_literals
//   P={'B': {'\u4e00': -3.65, ...}, ...}
//
// Accepted: `from __future__ import <names>` lines, comments, then `<name> = <literal>` and nothing
// after it. A literal is a float (Python's decimal syntax, optional sign), a string ('...' or
// "...", optional u prefix, escapes \\ \' \" \n \r \t \xHH \uHHHH \UHHHHHHHH) or a dict of string
// keys. Anything else (lists, expressions, names, inf/nan) is a ParseError "<file>:<line>: ...".
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace kessel::text::detail {

struct PyItem;

struct PyLiteral {
  enum class Kind { number, string, dict };
  Kind kind = Kind::number;
  double number = 0.0;
  std::u32string string;
  std::vector<PyItem> items;  // dict entries in file order (duplicates kept; callers reject them)
  long line = 0;              // where the literal starts
};

struct PyItem {
  std::u32string key;
  PyLiteral value;
  long line = 0;  // the key's line
};

PyLiteral parse_py_assignment(std::string_view text, const std::string& file,
                              const std::string& name);

}  // namespace kessel::text::detail
