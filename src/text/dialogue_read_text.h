// The plain-text transcript reader (DialogueFormat::transcript), apart from the JSONL readers in
// dialogue_read.cc. The format's rules are in include/kessel/text/dialogue.h and docs/text.md.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "kessel/text/dialogue.h"

namespace kessel::text::internal {

// True when the first line that tells (blank lines and `#` comments do not) is a transcript line: a
// speaker-labelled turn (timestamp allowed), a `# id:` header or a `---` separator. A JSONL line
// (`{`...) never is one.
bool looks_like_transcript(std::string_view content);
// The same verdict, or nullopt while `content` holds no line that tells (blank lines only): a reader
// of a stream asks again as lines come.
std::optional<bool> transcript_verdict(std::string_view content);

ReadResult read_transcript(std::string_view content, const std::string& name, const ReadOptions& options);

}  // namespace kessel::text::internal
