// What every fuzz target shares: the libFuzzer entry point's contract, the rule that only kessel's
// typed errors may escape a reader (anything else is a bug: a crash, an internal error, an untyped
// exception), and a scratch file for the readers that take a path.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <string>
#include <string_view>

#include "kessel/error.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size);

namespace kessel::fuzz {

inline std::string_view as_text(const std::uint8_t* data, std::size_t size) {
  return {reinterpret_cast<const char*>(data), size};
}

// Runs `read`; a kessel::Error (the reader refused the input, naming it) is the expected outcome for
// bad input. Any other exception aborts, so that libFuzzer records the input as a crash.
template <typename Read>
void expect_typed_errors_only(const char* target, Read&& read) {
  try {
    read();
  } catch (const kessel::Error&) {
  } catch (const std::exception& e) {
    std::fprintf(stderr, "%s: untyped exception escaped: %s\n", target, e.what());
    std::abort();
  }
}

// One scratch file per process, rewritten for each input (the path readers need a file).
const std::string& scratch_path();
void write_scratch(std::string_view bytes);

}  // namespace kessel::fuzz
