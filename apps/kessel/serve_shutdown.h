// Graceful shutdown of `kessel serve` on SIGTERM or SIGINT: the signals are blocked in every thread
// and taken by one watcher thread (sigtimedwait), which stops the server from a normal thread
// context. The server then accepts nothing more and answers what it holds; past the grace period
// the process exits: 0 when no request was in flight, 1 otherwise.
#pragma once

#include <atomic>
#include <condition_variable>
#include <functional>
#include <mutex>
#include <thread>

namespace kessel::cli {

// Blocks SIGTERM and SIGINT in the calling thread and in every thread it starts afterwards.
void block_stop_signals();

class StopSignalWatcher {
 public:
  // `stop` runs once, on the first signal; `in_flight` is asked when the grace period runs out.
  StopSignalWatcher(std::function<void(int signal)> stop, std::function<int()> in_flight, double grace_s);
  ~StopSignalWatcher();  // call done() first
  // The server has returned: the watcher ends (and the grace timer, when one runs).
  void done();

 private:
  void watch();

  std::function<void(int)> stop_;
  std::function<int()> in_flight_;
  double grace_s_;
  std::mutex mutex_;
  std::condition_variable finished_;
  bool done_ = false;
  std::thread thread_;
};

}  // namespace kessel::cli
