#include <unistd.h>

#include <fstream>

#include "fuzz_target.h"

namespace kessel::fuzz {

const std::string& scratch_path() {
  static const std::string path = [] {
    const char* dir = std::getenv("TMPDIR");
    return std::string(dir && *dir ? dir : "/tmp") + "/kessel-fuzz-" + std::to_string(::getpid());
  }();
  return path;
}

void write_scratch(std::string_view bytes) {
  std::ofstream out(scratch_path(), std::ios::binary | std::ios::trunc);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  if (!out) {
    std::fprintf(stderr, "fuzz: cannot write the scratch file %s\n", scratch_path().c_str());
    std::abort();
  }
}

}  // namespace kessel::fuzz
