// Typed errors thrown at kessel's public boundary.
//
// The library never exits or aborts: a bad argument throws InvalidArgument whose message names the
// function, the argument and the offending values; a bad file throws ParseError naming file, line and
// field. Front ends translate: the CLI prints the message and exits non-zero, the Python module raises
// ValueError (InvalidArgument, ParseError) or OSError (IoError).
#pragma once

#include <sstream>
#include <stdexcept>
#include <string>
#include <utility>

namespace kessel {

class Error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// An argument has the wrong shape, range or value.
class InvalidArgument : public Error {
 public:
  using Error::Error;
};

// A file could not be opened, read or written.
class IoError : public Error {
 public:
  using Error::Error;
};

// A file's content is malformed; the message is "<file>:<line>: <field>: <what>".
class ParseError : public Error {
 public:
  // line 0: the file is not line-oriented (a JSON document, a binary model), and the message names
  // the file only ("model.safetensors: __metadata__: ..."); the field says where.
  ParseError(const std::string& file, long line, const std::string& what)
      : Error(file + (line > 0 ? ":" + std::to_string(line) : std::string()) + ": " + what), file_(file), line_(line) {}
  const std::string& file() const { return file_; }
  long line() const { return line_; }

 private:
  std::string file_;
  long line_;
};

namespace detail {
template <typename... Args>
std::string concat(Args&&... args) {
  std::ostringstream os;
  (os << ... << std::forward<Args>(args));
  return os.str();
}
}  // namespace detail

// KESSEL_CHECK_ARG(cond, "attention: q has D=", d, " but k has D=", dk)
#define KESSEL_CHECK_ARG(cond, ...)                                         \
  do {                                                                      \
    if (!(cond)) throw ::kessel::InvalidArgument(::kessel::detail::concat(__VA_ARGS__)); \
  } while (0)

}  // namespace kessel
