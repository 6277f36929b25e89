// The strict JSON parser every reader and the server's body parser go through (duplicate keys,
// depth, NUL bytes), then the body read as dialogues as `kessel serve` reads it.
#include "fuzz_target.h"
#include "kessel/text/dialogue.h"
#include "util/json_strict.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view body = kessel::fuzz::as_text(data, size);
  try {
    const nlohmann::json parsed = kessel::util::parse_json_strict(body);
    if (parsed.is_array())
      for (const auto& item : parsed) (void)item.dump();
  } catch (const kessel::util::JsonStructureError&) {
  } catch (const nlohmann::json::exception&) {
  }
  kessel::fuzz::expect_typed_errors_only("json_body", [&] { kessel::text::read_dialogues_from_string(body, "request"); });
  return 0;
}
