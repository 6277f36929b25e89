// What every line-based lexicon reader checks on each line before splitting it.
#pragma once

#include <string>
#include <string_view>

#include "kessel/error.h"

namespace kessel::text {

// No lexicon format has a NUL byte, and a term holding one would match nothing the user wrote: the
// line is refused, naming the file, the line and the byte, rather than loaded.
inline void refuse_nul_byte(std::string_view line, const std::string& path, long line_no) {
  const std::size_t at = line.find('\0');
  if (at != std::string_view::npos)
    throw ParseError(path, line_no, ::kessel::detail::concat("NUL byte (0x00) at byte offset ", at, " of the line"));
}

}  // namespace kessel::text
