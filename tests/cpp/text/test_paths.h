// Paths the text tests read: the repository's own data, and the shared real data (optional).
#pragma once

#include <cstdlib>
#include <filesystem>
#include <string>

namespace kessel::text::testing {

inline std::string source_dir() { return KESSEL_SOURCE_DIR; }
inline std::string lexicon_dir() { return source_dir() + "/data/lexicon"; }
inline std::string samples_dir() { return source_dir() + "/data/samples"; }
// $KESSEL_DATA, else ../shared/data next to the repository; empty when absent.
inline std::string shared_data_dir() {
  const char* env = std::getenv("KESSEL_DATA");
  const std::string dir = (env != nullptr && *env) ? env : source_dir() + "/../shared/data";
  return std::filesystem::is_directory(dir) ? dir : std::string();
}

}  // namespace kessel::text::testing
