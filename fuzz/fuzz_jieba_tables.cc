// The segmenter's tables as read from a jieba folder: dict.txt lines and the finalseg prob_*.py
// Python literals. The first byte picks the file kind, so that mutations stay in one format.
#include "fuzz_target.h"
#include "text/segment_tables.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace kessel::text::detail;
  if (size == 0) return 0;
  const std::string_view text = kessel::fuzz::as_text(data + 1, size - 1);
  kessel::fuzz::expect_typed_errors_only("jieba_tables", [&] {
    switch (data[0] % 4) {
      case 0: {
        SegmentTables tables;
        add_dictionary_text(tables, text, "dict.txt");
        finish_dictionary(tables);
        break;
      }
      case 1: {
        CharHmm hmm;
        set_hmm_start(hmm, text, "prob_start.py");
        break;
      }
      case 2: {
        CharHmm hmm;
        set_hmm_trans(hmm, text, "prob_trans.py");
        break;
      }
      default: {
        CharHmm hmm;
        set_hmm_emit(hmm, text, "prob_emit.py");
        break;
      }
    }
  });
  return 0;
}
