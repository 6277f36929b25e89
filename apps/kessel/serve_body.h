// The dialogues of a POST body. A body is JSONL in any of the three dialogue formats (detected),
// one JSON object, or a JSON array of them, whatever its Content-Type: it is never parsed as a
// form.
#pragma once

#include <httplib.h>

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
// off).
std::string read_whole_body(const httplib::ContentReader& reader, std::size_t max_bytes);

// The request's dialogues, each within the limits (checked before any work): InvalidArgument naming
// the line and field, as the file readers do.
text::ReadResult read_dialogues(const std::string& body, const BodyLimits& limits);

// A query parameter's true/false, 1/0 (anything else is InvalidArgument naming it).
bool boolean_param(const std::string& name, const std::string& value);

}  // namespace kessel::cli
