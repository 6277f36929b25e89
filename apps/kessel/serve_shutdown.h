// Graceful shutdown of `kessel serve` on SIGTERM or SIGINT: the signal handler only records the
// signal; a watcher thread sees it and stops the server from a normal thread context. The server
// then accepts nothing more and answers what it holds; past the grace period the process exits: 0
// when no request was in flight, 1 otherwise.
#pragma once

#include <atomic>
#include <condition_variable>
#include <functional>
#include <mutex>
#include <thread>

namespace kessel::cli {

// SIGTERM and SIGINT no longer end the process: they are recorded for a StopSignalWatcher.
void install_stop_handlers();

class StopSignalWatcher {
 public:
  // `stop` runs once, on the first signal; `in_flight` is asked when the grace period runs out.
  StopSignalWatcher(std::function<void(int signal)> stop, std::function<int()> in_flight,
                    double grace_s);
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
