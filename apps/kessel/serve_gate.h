// The compute of `kessel serve`: `workers` places, held by long-lived compute threads fed by a
// bounded queue. The I/O threads (one per connection) read and write; a request's summaries run as
// jobs on the compute threads, whose caches, malloc arenas and per-thread summarizer state stay
// warm, while the I/O thread waits for its job. When a place is free and no job waits, the I/O
// thread runs its job itself: handing it over would cost a wake-up each way and overtake nobody.
// At most `workers` jobs run at once; at most `queue` new jobs wait (503 beyond); a job still
// queued at its deadline is not run (504).
#pragma once

#include <chrono>
#include <condition_variable>
#include <deque>
#include <exception>
#include <functional>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

namespace kessel::cli {

class ComputePool {
 public:
  using Clock = std::chrono::steady_clock;
  enum class Outcome { done, queue_full, deadline };

  ComputePool(int workers, int queue);
  ~ComputePool();  // runs the jobs still queued, then joins the threads
  ComputePool(const ComputePool&) = delete;
  ComputePool& operator=(const ComputePool&) = delete;

  // Runs `job` here (a free place, no job waiting) or on a compute thread, waiting for it; an
  // exception of the job is rethrown here.
  // queue_full at once when `queue` jobs already wait; deadline when the job is still queued at
  // `deadline` (it is then never run). A `continuation` (the next part of a reply already started)
  // goes to the front of the queue and is never refused for a full queue.
  Outcome run(Clock::time_point deadline, const std::function<void()>& job,
              bool continuation = false);
  int in_flight() const;  // jobs running
  int waiting() const;    // jobs queued

 private:
  enum class State { queued, running, done, expired };
  struct Job {
    const std::function<void()>* fn = nullptr;
    Clock::time_point deadline;
    State state = State::queued;
    std::exception_ptr error;
    std::condition_variable finished;  // notified outside the lock: the Job is shared
  };
  void serve();
  void run_here(const std::function<void()>& fn);

  const int workers_;
  const int queue_;
  mutable std::mutex mutex_;
  std::condition_variable work_;
  std::deque<std::shared_ptr<Job>> jobs_;  // oldest first, continuations ahead
  int running_ = 0;
  bool stop_ = false;
  std::vector<std::thread> threads_;
};

}  // namespace kessel::cli
