#include "serve_gate.h"

namespace kessel::cli {

ComputeGate::Entry ComputeGate::enter(Clock::time_point deadline) {
  std::unique_lock<std::mutex> lock(mutex_);
  if (running_ < workers_ && waiting_ == 0) {
    ++running_;
    return Entry::admitted;
  }
  if (waiting_ >= queue_) return Entry::queue_full;
  ++waiting_;
  const bool turn = freed_.wait_until(lock, deadline, [&] { return running_ < workers_; });
  --waiting_;
  if (!turn) return Entry::deadline;
  ++running_;
  return Entry::admitted;
}

void ComputeGate::leave() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    --running_;
  }
  freed_.notify_one();
}

int ComputeGate::in_flight() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return running_;
}

int ComputeGate::waiting() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return waiting_;
}

}  // namespace kessel::cli
