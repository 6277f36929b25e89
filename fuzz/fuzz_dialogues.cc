// The dialogue readers (kessel, CSDS, TweetSumm, plain-text transcripts and format detection), under both error policies.
#include "fuzz_target.h"
#include "kessel/text/dialogue.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace kessel::text;
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
  }
  return 0;
}
