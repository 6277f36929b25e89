#include "util/atomic_file.h"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <functional>
#include <sstream>

#include "kessel/error.h"

namespace kessel::util {
namespace {

namespace fs = std::filesystem;

class AtomicFileTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("kessel_atomic_test_" + std::to_string(::getpid()));
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  std::string path(const std::string& name) const { return (dir_ / name).string(); }
  static std::string read(const std::string& p) {
    std::ifstream in(p);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
  }
  std::size_t entries() const {
    return static_cast<std::size_t>(
        std::distance(fs::directory_iterator(dir_), fs::directory_iterator()));
  }
  static std::string message_of(const std::function<void()>& f) {
    try {
      f();
    } catch (const IoError& e) {
      return e.what();
    }
    return "no IoError";
  }
  fs::path dir_;
};

TEST_F(AtomicFileTest, CommitReplacesTheFileWhole) {
  const std::string p = path("out.jsonl");
  std::ofstream(p) << "old\n";
  {
    AtomicFile f(p, "--output out.jsonl");
    f.stream() << "new 1\n";
    EXPECT_EQ(read(p), "old\n");  // the old file is there until the rename
    EXPECT_EQ(entries(), 2u);     // beside it, the temporary
    f.stream() << "new 2\n";
    f.commit();
  }
  EXPECT_EQ(read(p), "new 1\nnew 2\n");
  EXPECT_EQ(entries(), 1u);
}

TEST_F(AtomicFileTest, WithoutCommitTheOldFileStaysAndNothingIsLeft) {
  const std::string p = path("out.jsonl");
  std::ofstream(p) << "old\n";
  {
    AtomicFile f(p, "--output out.jsonl");
    f.stream() << "partial";
    EXPECT_EQ(f.not_written_note(),
              "--output out.jsonl: not written; the previous file is left as it was");
  }
  EXPECT_EQ(read(p), "old\n");
  EXPECT_EQ(entries(), 1u);
  {
    AtomicFile f(path("new.jsonl"), "--output new.jsonl");
    EXPECT_EQ(f.not_written_note(), "--output new.jsonl: not written; no file was created");
  }
  EXPECT_FALSE(fs::exists(path("new.jsonl")));
  EXPECT_EQ(entries(), 1u);
}

TEST_F(AtomicFileTest, KeepsTheModeAndTheSymbolicLink) {
  const std::string target = path("model.safetensors"), link = path("latest");
  std::ofstream(target) << "old";
  ::chmod(target.c_str(), 0640);
  fs::create_symlink(target, link);
  write_file_atomically(link, "new", "model");
  EXPECT_TRUE(fs::is_symlink(link));
  EXPECT_EQ(read(target), "new");
  struct stat st {};
  ASSERT_EQ(::stat(target.c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0640u);
}

TEST_F(AtomicFileTest, AFullDiskIsAnError) {
  if (!fs::exists("/dev/full")) GTEST_SKIP() << "no /dev/full";
  // Not a regular file: written in place, every write checked.
  const std::string msg = message_of(
      [] { write_file_atomically("/dev/full", std::string(1 << 20, 'x'), "--output /dev/full"); });
  EXPECT_NE(msg.find("--output /dev/full: write failed: No space left on device"),
            std::string::npos)
      << msg;
  // A short write too, which sits in the buffer until commit() flushes it.
  const std::string short_msg =
      message_of([] { write_file_atomically("/dev/full", "x", "--html /dev/full"); });
  EXPECT_NE(short_msg.find("No space left on device"), std::string::npos) << short_msg;
  write_file_atomically("/dev/null", "fine", "--output /dev/null");
}

TEST_F(AtomicFileTest, UnwritablePathsAreNamedBeforeAnyWork) {
  const std::string missing = path("no/such/dir/m.safetensors");
  const std::string msg = message_of([&] { check_writable(missing, "train: --out 'm'"); });
  EXPECT_NE(msg.find("train: --out 'm': cannot write into the folder"), std::string::npos) << msg;
  EXPECT_NE(message_of([&] { check_writable(dir_.string(), "--report"); }).find("is a folder"),
            std::string::npos);
  check_writable(path("fine.json"), "--report");
  EXPECT_EQ(entries(), 0u);  // the check leaves nothing behind
  if (::geteuid() != 0) {    // root writes anywhere
    const std::string ro = path("ro.json");
    std::ofstream(ro) << "keep";
    ::chmod(ro.c_str(), 0444);
    EXPECT_NE(message_of([&] { check_writable(ro, "--report"); }).find("Permission denied"),
              std::string::npos);
  }
}

}  // namespace
}  // namespace kessel::util
