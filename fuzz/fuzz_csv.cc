// The clustering commands' CSV reader (header, numbers, column selection).
#include "fuzz_target.h"
#include "kessel/cluster.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  kessel::fuzz::write_scratch(kessel::fuzz::as_text(data, size));
  kessel::fuzz::expect_typed_errors_only("csv", [&] { kessel::cluster::read_csv_matrix(kessel::fuzz::scratch_path()); });
  return 0;
}
