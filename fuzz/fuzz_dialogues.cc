// The dialogue readers (kessel, CSDS, TweetSumm, plain-text transcripts and format detection), under
// both error policies; and DialogueStream against the whole-content reader: the same dialogues,
// skips and first error, batch by batch.
#include <algorithm>
#include <sstream>

#include "fuzz_target.h"
#include "kessel/text/dialogue.h"
#include "kessel/text/dialogue_stream.h"

namespace {

using namespace kessel::text;

// What a read gave: dialogue ids and lines, skipped lines, or the error.
std::string outcome_of_whole(std::string_view content, const ReadOptions& o) {
  try {
    const ReadResult r = read_dialogues_from_string(content, "fuzz", o);
    std::string s;
    for (const auto& d : r.dialogues) s += d.id + "@" + std::to_string(d.line) + ";";
    for (const auto& k : r.skipped) s += "skip@" + std::to_string(k.line) + ";";
    return s;
  } catch (const kessel::Error& e) {
    return std::string("error: ") + e.what();
  }
}

std::string outcome_of_stream(std::string_view content, const ReadOptions& o) {
  try {
    std::istringstream in{std::string(content)};
    DialogueStream stream(in, "fuzz", o);
    std::string dialogues, skips;
    while (!stream.done()) {
      const ReadResult b = stream.next(2);
      for (const auto& d : b.dialogues) dialogues += d.id + "@" + std::to_string(d.line) + ";";
      for (const auto& k : b.skipped) skips += "skip@" + std::to_string(k.line) + ";";
    }
    return dialogues + skips;
  } catch (const kessel::Error& e) {
    return std::string("error: ") + e.what();
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view content = kessel::fuzz::as_text(data, size);
  for (OnError policy : {OnError::fail, OnError::skip}) {
    ReadOptions detected;
    detected.on_error = policy;
    kessel::fuzz::expect_typed_errors_only("dialogues", [&] { read_dialogues_from_string(content, "fuzz", detected); });
    for (DialogueFormat format : {DialogueFormat::kessel, DialogueFormat::csds, DialogueFormat::tweetsumm,
                                   DialogueFormat::transcript}) {
      ReadOptions forced = detected;
      forced.format = format;
      kessel::fuzz::expect_typed_errors_only("dialogues", [&] { read_dialogues_from_string(content, "fuzz", forced); });
    }
    // The stream holds at most kMaxDetectLines lines while detecting; below that the two agree.
    if (std::count(content.begin(), content.end(), '\n') >= DialogueStream::kMaxDetectLines) continue;
    const std::string whole = outcome_of_whole(content, detected), streamed = outcome_of_stream(content, detected);
    if (whole != streamed) {
      std::fprintf(stderr, "dialogues: DialogueStream differs from read_dialogues:\n  whole:  %s\n  stream: %s\n",
                   whole.c_str(), streamed.c_str());
      std::abort();
    }
  }
  return 0;
}
