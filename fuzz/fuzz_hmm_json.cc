// HMM model files (kessel hmm's JSON: states, emissions, covariances).
#include "fuzz_target.h"
#include "kessel/hmm.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(kessel::fuzz::as_text(data, size));
  kessel::fuzz::expect_typed_errors_only("hmm_json", [&] { kessel::hmm::model_from_json_text(text, "fuzz"); });
  return 0;
}
