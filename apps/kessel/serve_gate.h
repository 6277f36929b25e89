// The bound on computation in `kessel serve`: at most `workers` requests summarize at once and at
// most `queue` wait for a turn. Connections are served by many cheap I/O threads (a slow client
// holds one of those, never a worker); only summarizing passes through the gate.
#pragma once

#include <chrono>
#include <condition_variable>
#include <deque>
#include <mutex>

namespace kessel::cli {

class ComputeGate {
 public:
  using Clock = std::chrono::steady_clock;
  enum class Entry { admitted, queue_full, deadline };

  ComputeGate(int workers, int queue) : workers_(workers), queue_(queue) {}
  // Waits for a worker until `deadline`, first come first served; queue_full at once when `queue`
  // requests already wait.
  Entry enter(Clock::time_point deadline);
  void leave();
  int in_flight() const;
  int waiting() const;

 private:
  struct Waiter {
    std::condition_variable turn;
    bool admitted = false;
  };
  const int workers_, queue_;
  mutable std::mutex mutex_;
  std::deque<Waiter*> waiters_;  // oldest first
  int running_ = 0;
};

// Holds a worker for its lifetime once admitted.
class GateTicket {
 public:
  GateTicket(ComputeGate& gate, ComputeGate::Clock::time_point deadline)
      : gate_(gate), entry_(gate.enter(deadline)) {}
  ~GateTicket() {
    if (entry_ == ComputeGate::Entry::admitted) gate_.leave();
  }
  GateTicket(const GateTicket&) = delete;
  GateTicket& operator=(const GateTicket&) = delete;
  ComputeGate::Entry entry() const { return entry_; }

 private:
  ComputeGate& gate_;
  ComputeGate::Entry entry_;
};

}  // namespace kessel::cli
