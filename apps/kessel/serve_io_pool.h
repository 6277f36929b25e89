// The I/O threads of `kessel serve`: up to `max_threads`, each serving one connection at a time (a
// slow client holds one of them and nothing else). Unlike httplib::ThreadPool, which starts all of
// its threads at once and wakes whichever a condition variable picks, this pool starts a thread
// only when no idle one is left, and hands a new connection to the most recently idle thread. The
// threads in use (their stacks and malloc caches) are then as many as the connections ever open at
// once, not the pool's size, and the memory they touch stops growing once that peak is reached.
#pragma once

#include <httplib.h>

#include <condition_variable>
#include <cstddef>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

namespace kessel::cli {

class IoThreadPool : public httplib::TaskQueue {
 public:
  explicit IoThreadPool(std::size_t max_threads) : max_threads_(max_threads) {}
  ~IoThreadPool() override;
  IoThreadPool(const IoThreadPool&) = delete;
  IoThreadPool& operator=(const IoThreadPool&) = delete;

  // Runs `job` on an idle thread, a new one, or (all `max_threads` busy) the first to come free.
  void enqueue(std::function<void()> job) override;
  // Runs the jobs already queued, then joins every thread.
  void shutdown() override;
  std::size_t threads_started() const;

 private:
  struct Slot {
    std::condition_variable wake;
    std::function<void()> job;  // handed over by enqueue; empty while idle
  };
  void run(Slot& slot);
  // The next job for a thread that finished one: a queued job, or (idle) one handed to its slot.
  bool next_job(Slot& slot, std::unique_lock<std::mutex>& lock);

  const std::size_t max_threads_;
  mutable std::mutex mutex_;
  std::vector<std::unique_ptr<Slot>> slots_;
  std::vector<std::thread> threads_;
  std::vector<Slot*> idle_;                 // most recently idle last
  std::deque<std::function<void()>> jobs_;  // waiting for a thread (all busy)
  bool shutdown_ = false;
};

}  // namespace kessel::cli
