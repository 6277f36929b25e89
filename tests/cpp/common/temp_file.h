// Test helper: writes a small input file (a lexicon, a corpus, a table) under GoogleTest's temporary
// directory, so that the loaders are tested on real files.
#pragma once

#include <gtest/gtest.h>

#include <fstream>
#include <string>

namespace kessel::testing_support {

// Writes `content` byte for byte to TempDir()/name, replacing the file, and returns its path. A file that
// cannot be written fails the calling test.
inline std::string write_temp(const std::string& name, const std::string& content) {
  const std::string path = ::testing::TempDir() + "/" + name;
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << content;
  out.close();
  EXPECT_TRUE(out) << "could not write " << path;
  return path;
}

}  // namespace kessel::testing_support
