// Model files: the safetensors container (header, offsets, dtypes) and then the whole EACA model
// load (every tensor's shape against the hyperparameters, finite weights).
#include "fuzz_target.h"
#include "kessel/summarize/eaca.h"
#include "summarize/safetensors.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string bytes(kessel::fuzz::as_text(data, size));
  kessel::fuzz::expect_typed_errors_only("safetensors", [&] { kessel::summarize::safetensors_parse(bytes, "fuzz"); });
  kessel::fuzz::write_scratch(bytes);
  kessel::fuzz::expect_typed_errors_only("safetensors", [&] { kessel::summarize::EacaModel::load(kessel::fuzz::scratch_path()); });
  return 0;
}
