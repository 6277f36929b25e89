// Runs a fuzz target over files, without libFuzzer: the normal and sanitizer builds replay the seed
// corpora and every crash ever found (fuzz/regressions/) through the same entry point as a ctest.
//   fuzz_replay_<target> DIR_OR_FILE...
#include <filesystem>
#include <fstream>
#include <iterator>
#include <vector>

#include "fuzz_target.h"

namespace {

int replay_file(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    std::fprintf(stderr, "replay: cannot read %s\n", path.c_str());
    return 1;
  }
  const std::vector<char> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  LLVMFuzzerTestOneInput(reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size());
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  int files = 0, failures = 0;
  for (int i = 1; i < argc; ++i) {
    const std::filesystem::path arg(argv[i]);
    if (std::filesystem::is_directory(arg)) {
      for (const auto& entry : std::filesystem::recursive_directory_iterator(arg))
        if (entry.is_regular_file()) failures += replay_file(entry.path()), ++files;
    } else {
      failures += replay_file(arg), ++files;
    }
  }
  if (files == 0) {
    std::fprintf(stderr, "replay: no input files under the given paths\n");
    return 1;
  }
  std::fprintf(stderr, "replay: %d inputs, none crashed\n", files);
  std::remove(kessel::fuzz::scratch_path().c_str());
  return failures == 0 ? 0 : 1;
}
