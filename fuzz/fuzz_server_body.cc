// A POST body as `kessel serve` reads it (apps/kessel/serve_body.cc: one JSON object, an array, or
// JSONL / a transcript, whatever the Content-Type), under small limits so that the limit checks are
// reached too; the strict JSON parser every reader goes through is fuzzed on the same bytes.
#include "fuzz_target.h"
#include "serve_body.h"
#include "util/json_strict.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string body(kessel::fuzz::as_text(data, size));
  try {
    const nlohmann::json parsed = kessel::util::parse_json_strict(body);
    if (parsed.is_array())
      for (const auto& item : parsed) (void)item.dump();
  } catch (const kessel::util::JsonStructureError&) {
  } catch (const nlohmann::json::exception&) {
  }
  kessel::cli::BodyLimits limits;
  limits.max_bytes = 1 << 20;
  limits.max_dialogues = 8;
  limits.max_dialogue_sentences = 64;
  kessel::fuzz::expect_typed_errors_only("server_body", [&] { kessel::cli::read_dialogues(body, limits); });
  return 0;
}
