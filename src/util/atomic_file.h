// Output files that appear whole or not at all.
//
// A regular file (or a path that does not exist yet) is written to a temporary file beside it
// (".<name>.kessel-tmp-<pid>-<n>", same folder, so the rename stays on one file system) and renamed
// over the path by commit(): a reader sees the old file or the new one, never a part. Without
// commit() (an error while writing, a refused record) the temporary is removed and the old file is
// left as it was. A path that exists but is not a regular file (/dev/stdout, /dev/full, a pipe) has
// nothing to rename into: it is written in place, and every write, flush and close is checked, so
// a full disk is an error rather than a silent loss. Errors are IoError naming the label
// ("--output out.jsonl") and the system's reason, and saying what became of the old file.
#pragma once

#include <memory>
#include <ostream>
#include <string>
#include <string_view>

namespace kessel::util {

class AtomicFile {
 public:
  // Opens the temporary (or the non-regular file). Throws IoError when the folder cannot be
  // written, the path is a folder, or an existing file is read-only.
  AtomicFile(const std::string& path, std::string label);
  ~AtomicFile();  // without commit(): removes the temporary; the old file stays
  AtomicFile(const AtomicFile&) = delete;
  AtomicFile& operator=(const AtomicFile&) = delete;

  std::ostream& stream();
  // Flushes, syncs and closes the temporary and renames it over the path (a non-regular file:
  // flushes and closes it). Throws IoError on any failure, the old file left as it was.
  void commit();
  // What became of the path when commit() was not reached: "--output out.jsonl: not written; the
  // previous file is left as it was" (or "no file was created").
  std::string not_written_note() const;
  const std::string& path() const { return path_; }

 private:
  struct Impl;
  std::string path_, label_;
  std::unique_ptr<Impl> impl_;
};

// The whole of `bytes` to `path` through an AtomicFile.
void write_file_atomically(const std::string& path, std::string_view bytes,
                           const std::string& label);

// Throws IoError (naming the label) unless `path` could be written by an AtomicFile: its folder
// exists and takes a new file, it is not a folder, and an existing file is writable. Leaves no file
// behind. For commands that write their outputs after long work (kessel train).
void check_writable(const std::string& path, const std::string& label);

}  // namespace kessel::util
