// Progress reporting for long-running commands.
//
// On a terminal: one line redrawn in place, "label [#####.....] 512/1000 51% | 812.3 it/s | ETA 0:04 |
// extra". Otherwise (logs, CI): a plain line at most every `plain_interval_s` seconds and at the end.
#pragma once

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <string>

namespace kessel {

class Progress {
 public:
  // total <= 0 means unknown (no bar, no ETA). Writes to `out` (stderr by default).
  Progress(std::string label, std::int64_t total, std::FILE* out = stderr,
           double plain_interval_s = 5.0);
  ~Progress();

  void update(std::int64_t done, const std::string& extra = "");
  void finish(const std::string& extra = "");

 private:
  void draw(bool final_line, const std::string& extra);

  std::string label_;
  std::int64_t total_;
  std::int64_t done_ = 0;
  std::FILE* out_;
  bool tty_;
  bool finished_ = false;
  double plain_interval_s_;
  std::chrono::steady_clock::time_point start_;
  std::chrono::steady_clock::time_point last_draw_;
};

}  // namespace kessel
