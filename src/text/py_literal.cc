#include "text/py_literal.h"

#include <cctype>
#include <charconv>

#include "kessel/error.h"
#include "kessel/text/utf8.h"

namespace kessel::text::detail {

namespace {

class Reader {
 public:
  Reader(std::string_view text, const std::string& file) : s_(text), file_(file) {}

  [[noreturn]] void fail(const std::string& what) const { throw ParseError(file_, line_, what); }

  // Spaces, newlines and comments.
  void skip_space() {
    while (pos_ < s_.size()) {
      const char c = s_[pos_];
      if (c == '\n') {
        ++line_;
        ++pos_;
      } else if (c == ' ' || c == '\t' || c == '\r' || c == '\f') {
        ++pos_;
      } else if (c == '#') {
        while (pos_ < s_.size() && s_[pos_] != '\n') ++pos_;
      } else {
        return;
      }
    }
  }

  bool at_end() const { return pos_ >= s_.size(); }
  char peek() const { return at_end() ? '\0' : s_[pos_]; }

  void expect(char c, const char* what) {
    skip_space();
    if (peek() != c) fail(std::string("expected '") + c + "' " + what + ", found " + describe());
    ++pos_;
  }

  std::string_view identifier() {
    skip_space();
    const std::size_t b = pos_;
    while (pos_ < s_.size() &&
           (std::isalnum(static_cast<unsigned char>(s_[pos_])) || s_[pos_] == '_')) {
      ++pos_;
    }
    return s_.substr(b, pos_ - b);
  }

  // `from __future__ import a, b` lines, then `name =`.
  void header(const std::string& name) {
    for (;;) {
      const std::string_view word = identifier();
      if (word == "from") {
        if (identifier() != "__future__" || identifier() != "import") {
          fail("only 'from __future__ import ...' may precede the assignment");
        }
        for (;;) {
          if (identifier().empty()) fail("expected a name after 'import'");
          skip_inline_space();
          if (peek() != ',') break;
          ++pos_;
        }
        continue;
      }
      if (word != name)
        fail("expected the assignment '" + name + " = {...}', found " + describe_word(word));
      expect('=', ("after '" + name + "'").c_str());
      return;
    }
  }

  PyLiteral literal() {
    skip_space();
    PyLiteral v;
    v.line = line_;
    const char c = peek();
    if (c == '{') {
      v.kind = PyLiteral::Kind::dict;
      ++pos_;
      dict_items(v.items);
    } else if (c == '\'' || c == '"' ||
               ((c == 'u' || c == 'U') && pos_ + 1 < s_.size() &&
                (s_[pos_ + 1] == '\'' || s_[pos_ + 1] == '"'))) {
      v.kind = PyLiteral::Kind::string;
      v.string = string_literal();
    } else {
      v.kind = PyLiteral::Kind::number;
      v.number = number();
    }
    return v;
  }

 private:
  void skip_inline_space() {
    while (pos_ < s_.size() && (s_[pos_] == ' ' || s_[pos_] == '\t')) ++pos_;
  }

  std::string describe() const {
    if (at_end()) return "end of file";
    std::size_t at = pos_;
    return "'" + encode_utf8(next_code_point(s_, &at)) + "'";
  }
  static std::string describe_word(std::string_view w) {
    return w.empty() ? "no name" : "'" + std::string(w) + "'";
  }

  void dict_items(std::vector<PyItem>& items) {
    for (;;) {
      skip_space();
      if (peek() == '}') {
        ++pos_;
        return;
      }
      PyItem item;
      item.line = line_;
      const char c = peek();
      if (c != '\'' && c != '"' && c != 'u' && c != 'U')
        fail("dict key must be a string, found " + describe());
      item.key = string_literal();
      expect(':', "after a dict key");
      item.value = literal();
      items.push_back(std::move(item));
      skip_space();
      if (peek() == ',') {
        ++pos_;
      } else if (peek() != '}') {
        fail("expected ',' or '}' in a dict, found " + describe());
      }
    }
  }

  std::uint32_t hex_digits(int n) {
    std::uint32_t v = 0;
    for (int i = 0; i < n; ++i) {
      const char c = pos_ < s_.size() ? s_[pos_] : '\0';
      int d = -1;
      if (c >= '0' && c <= '9')
        d = c - '0';
      else if (c >= 'a' && c <= 'f')
        d = c - 'a' + 10;
      else if (c >= 'A' && c <= 'F')
        d = c - 'A' + 10;
      if (d < 0) fail("escape needs " + std::to_string(n) + " hex digits");
      v = v * 16 + static_cast<std::uint32_t>(d);
      ++pos_;
    }
    return v;
  }

  char32_t escape() {
    const char c = peek();
    ++pos_;
    switch (c) {
      case '\\':
        return '\\';
      case '\'':
        return '\'';
      case '"':
        return '"';
      case 'n':
        return '\n';
      case 'r':
        return '\r';
      case 't':
        return '\t';
      case 'x':
        return hex_digits(2);
      case 'u':
      case 'U': {
        const std::uint32_t v = hex_digits(c == 'u' ? 4 : 8);
        if (v > 0x10FFFF) fail("escape names U+" + std::to_string(v) + ", above U+10FFFF");
        return static_cast<char32_t>(v);
      }
      default:
        fail(std::string("unsupported escape '\\") + c + "' in a string");
    }
  }

  std::u32string string_literal() {
    if (peek() == 'u' || peek() == 'U') ++pos_;
    if (peek() != '\'' && peek() != '"') fail("expected a string's opening quote");  // u at the end of the file
    const char quote = s_[pos_++];
    std::u32string out;
    for (;;) {
      if (at_end() || peek() == '\n') fail("unterminated string");
      const char c = peek();
      if (c == quote) {
        ++pos_;
        return out;
      }
      if (c == '\\') {
        ++pos_;
        out.push_back(escape());
      } else {
        out.push_back(next_code_point(s_, &pos_));  // the file was checked to be valid UTF-8
      }
    }
  }

  double number() {
    std::size_t b = pos_;
    if (peek() == '-' || peek() == '+') ++pos_;
    const char c = peek();
    if (!((c >= '0' && c <= '9') || c == '.'))
      fail("expected a number, a string or a dict, found " + describe());
    // from_chars takes no '+' and reads "inf"/"nan", which the check above keeps out.
    if (s_[b] == '+') ++b;
    double v = 0.0;
    const auto r = std::from_chars(s_.data() + b, s_.data() + s_.size(), v);
    if (r.ec != std::errc()) fail("number out of range");
    pos_ = static_cast<std::size_t>(r.ptr - s_.data());
    const char next = peek();
    if (std::isalnum(static_cast<unsigned char>(next)) || next == '_' || next == '.') {
      fail("malformed number");
    }
    return v;
  }

  std::string_view s_;
  const std::string& file_;
  std::size_t pos_ = 0;
  long line_ = 1;
};

}  // namespace

PyLiteral parse_py_assignment(std::string_view text, const std::string& file,
                              const std::string& name) {
  if (const auto bad = find_invalid_utf8(text)) {
    long line = 1;
    for (std::int64_t i = 0; i < *bad; ++i) line += text[static_cast<std::size_t>(i)] == '\n';
    throw ParseError(file, line, "invalid UTF-8 at byte offset " + std::to_string(*bad));
  }
  Reader r(text, file);
  r.header(name);
  PyLiteral value = r.literal();
  r.skip_space();
  if (!r.at_end()) r.fail("unexpected text after the literal");
  return value;
}

}  // namespace kessel::text::detail
