// Wall-clock timing for benchmarks and CLI reports (never for test assertions).
#pragma once

#include <chrono>

namespace kessel {

class Timer {
 public:
  Timer() : start_(std::chrono::steady_clock::now()) {}
  void reset() { start_ = std::chrono::steady_clock::now(); }
  double seconds() const {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  }
  double milliseconds() const { return 1e3 * seconds(); }

 private:
  std::chrono::steady_clock::time_point start_;
};

}  // namespace kessel
