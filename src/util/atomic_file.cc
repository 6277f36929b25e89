#include "util/atomic_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <streambuf>
#include <vector>

#include "kessel/error.h"

namespace kessel::util {

namespace {

namespace fs = std::filesystem;

std::string reason(int err) { return std::strerror(err); }

// A stream buffer over a file descriptor that remembers the first write error (errno), so that the
// message can say "No space left on device" rather than "write failed".
class FdBuf : public std::streambuf {
 public:
  explicit FdBuf(int fd) : fd_(fd), buffer_(1 << 16) {
    setp(buffer_.data(), buffer_.data() + buffer_.size());
  }
  int error() const { return error_; }

 protected:
  int_type overflow(int_type ch) override {
    if (!drain()) return traits_type::eof();
    if (!traits_type::eq_int_type(ch, traits_type::eof())) {
      *pptr() = traits_type::to_char_type(ch);
      pbump(1);
    }
    return traits_type::not_eof(ch);
  }
  int sync() override { return drain() ? 0 : -1; }

 private:
  bool drain() {
    if (error_ != 0) return false;
    const char* p = pbase();
    while (p < pptr()) {
      const ssize_t n = ::write(fd_, p, static_cast<std::size_t>(pptr() - p));
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) {
        error_ = n < 0 ? errno : EIO;
        return false;
      }
      p += n;
    }
    setp(buffer_.data(), buffer_.data() + buffer_.size());
    return true;
  }

  int fd_;
  std::vector<char> buffer_;
  int error_ = 0;
};

// A name in the target's folder that no other writer (thread or process) picks.
std::string temporary_beside(const fs::path& target) {
  static std::atomic<unsigned> counter{0};
  const std::string name = "." + target.filename().string() + ".kessel-tmp-" +
                           std::to_string(::getpid()) + "-" + std::to_string(counter.fetch_add(1));
  return (target.parent_path() / name).string();
}

// The file the path names: a symbolic link's target (so that the link stays a link), else the path.
fs::path resolve(const std::string& path) {
  std::error_code ec;
  if (fs::is_symlink(fs::symlink_status(path, ec))) {
    const fs::path target = fs::weakly_canonical(path, ec);
    if (!ec) return target;
  }
  return fs::path(path);
}

}  // namespace

struct AtomicFile::Impl {
  fs::path target;
  std::string temporary;  // empty: written in place (not a regular file)
  bool existed = false;
  int fd = -1;
  FdBuf buf;
  std::ostream stream;
  bool done = false;
  Impl(fs::path t, std::string tmp, bool e, int f)
      : target(std::move(t)), temporary(std::move(tmp)), existed(e), fd(f), buf(f), stream(&buf) {}
};

AtomicFile::AtomicFile(const std::string& path, std::string label)
    : path_(path), label_(std::move(label)) {
  if (path.empty()) throw IoError(label_ + ": no path given");
  const fs::path target = resolve(path);
  struct stat st {};
  const bool exists = ::stat(target.c_str(), &st) == 0;
  if (exists && S_ISDIR(st.st_mode)) throw IoError(label_ + ": '" + path + "' is a folder");
  if (exists && !S_ISREG(st.st_mode)) {
    const int fd = ::open(target.c_str(), O_WRONLY | O_CLOEXEC);
    if (fd < 0)
      throw IoError(label_ + ": cannot open '" + path + "' for writing: " + reason(errno));
    impl_ = std::make_unique<Impl>(target, std::string(), true, fd);
    return;
  }
  if (exists && ::access(target.c_str(), W_OK) != 0)
    throw IoError(label_ + ": cannot write '" + path + "': " + reason(errno) +
                  " (the file is left as it was)");
  const fs::path folder = target.parent_path().empty() ? fs::path(".") : target.parent_path();
  std::string temporary;
  int fd = -1;
  for (int attempt = 0; attempt < 100 && fd < 0; ++attempt) {
    temporary = temporary_beside(fs::path(folder) / target.filename());
    fd = ::open(temporary.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC,
                0666);  // the umask applies
    if (fd < 0 && errno != EEXIST) break;
  }
  if (fd < 0)
    throw IoError(label_ + ": cannot write into the folder '" + folder.string() +
                  "': " + reason(errno) + (exists ? " (the file is left as it was)" : ""));
  if (exists) (void)::fchmod(fd, st.st_mode & 07777);  // the replacement keeps the old file's mode
  impl_ = std::make_unique<Impl>(target, temporary, exists, fd);
}

AtomicFile::~AtomicFile() {
  if (!impl_ || impl_->done) return;
  if (impl_->fd >= 0) ::close(impl_->fd);
  if (!impl_->temporary.empty()) ::unlink(impl_->temporary.c_str());
}

std::ostream& AtomicFile::stream() { return impl_->stream; }

std::string AtomicFile::not_written_note() const {
  if (impl_ && impl_->temporary.empty())
    return label_ + ": written only in part (it is not a regular file)";
  return label_ + ": not written; " +
         (impl_ && impl_->existed ? "the previous file is left as it was" : "no file was created");
}

void AtomicFile::commit() {
  Impl& m = *impl_;
  if (m.done) return;
  const bool in_place = m.temporary.empty();
  auto fail = [&](const std::string& what, int err) {
    if (m.fd >= 0) ::close(m.fd);
    m.fd = -1;
    if (!in_place) ::unlink(m.temporary.c_str());
    m.done = true;
    throw IoError(label_ + ": " + what + ": " + reason(err) + "; " +
                  (in_place    ? "the output is incomplete"
                   : m.existed ? "the previous file is left as it was"
                               : "no file was created"));
  };
  m.stream.flush();
  if (!m.stream || m.buf.error() != 0)
    fail("write failed", m.buf.error() != 0 ? m.buf.error() : EIO);
  // fsync before the rename: after a crash the path holds the old file or the whole new one.
  // Devices and pipes may not sync (EINVAL, EROFS): that is no error for them.
  if (::fsync(m.fd) != 0 && !(in_place && (errno == EINVAL || errno == EROFS)))
    fail("write failed", errno);
  const int fd = m.fd;
  m.fd = -1;
  if (::close(fd) != 0) fail("write failed", errno);
  if (!in_place && ::rename(m.temporary.c_str(), m.target.c_str()) != 0)
    fail("cannot rename the finished file into place", errno);
  m.done = true;
}

void write_file_atomically(const std::string& path, std::string_view bytes,
                           const std::string& label) {
  AtomicFile file(path, label);
  file.stream().write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  file.commit();
}

void check_writable(const std::string& path, const std::string& label) {
  AtomicFile probe(path, label);  // opens the temporary (removed with the probe) or the device
}

}  // namespace kessel::util
