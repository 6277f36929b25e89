// The dialogues of a POST body. A body is JSONL in any of the three dialogue formats (detected),
// one JSON object, or a JSON array of them, whatever its Content-Type: it is never parsed as a
// form.
#pragma once

#include <httplib.h>

#include <chrono>
#include <cstddef>
#include <string>

#include "kessel/text/dialogue.h"

namespace kessel::cli {

struct BodyLimits {
  std::size_t max_bytes = 0;
  int max_dialogues = 0;
  int max_dialogue_sentences = 0;
};

// The whole body, streamed from the connection (HttpError 413 past max_bytes, 400 when it breaks
// off, 408 when it is still arriving at `deadline`, the request's: a body trickled a byte at a time
// holds its connection until then and one --read-timeout-s more at most, not for ever).
std::string read_whole_body(const httplib::ContentReader& reader, std::size_t max_bytes,
                            std::chrono::steady_clock::time_point deadline = std::chrono::steady_clock::time_point::max());

// The request's dialogues, each within the limits (checked before any work): InvalidArgument naming
// the line and field, as the file readers do.
text::ReadResult read_dialogues(const std::string& body, const BodyLimits& limits);

// A query parameter's true/false, 1/0 (anything else is InvalidArgument naming it).
bool boolean_param(const std::string& name, const std::string& value);

}  // namespace kessel::cli
