#include "serve_gate.h"

#include <algorithm>

namespace kessel::cli {

// Waiters are served first come, first served: a freed worker is handed to the oldest waiter, so
// the tail latency under load is the queue's length, not the luck of a condition variable's
// wake-up.
ComputeGate::Entry ComputeGate::enter(Clock::time_point deadline) {
  std::unique_lock<std::mutex> lock(mutex_);
  if (running_ < workers_ && waiters_.empty()) {
    ++running_;
    return Entry::admitted;
  }
  if (static_cast<int>(waiters_.size()) >= queue_) return Entry::queue_full;
  Waiter me;
  waiters_.push_back(&me);
  const bool admitted = me.turn.wait_until(lock, deadline, [&] { return me.admitted; });
  if (admitted) return Entry::admitted;  // the worker was handed over: running_ already counts it
  waiters_.erase(std::find(waiters_.begin(), waiters_.end(), &me));
  return Entry::deadline;
}

void ComputeGate::leave() {
  std::lock_guard<std::mutex> lock(mutex_);
  if (waiters_.empty()) {
    --running_;
    return;
  }
  Waiter* next = waiters_.front();
  waiters_.pop_front();
  next->admitted = true;
  next->turn.notify_one();
}

int ComputeGate::in_flight() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return running_;
}

int ComputeGate::waiting() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return static_cast<int>(waiters_.size());
}

}  // namespace kessel::cli
