#include "serve_gate.h"

#include <algorithm>

namespace kessel::cli {

ComputePool::ComputePool(int workers, int queue) : queue_(queue) {
  threads_.reserve(static_cast<std::size_t>(std::max(workers, 1)));
  for (int i = 0; i < std::max(workers, 1); ++i) threads_.emplace_back([this] { serve(); });
}

ComputePool::~ComputePool() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stop_ = true;
  }
  work_.notify_all();
  for (auto& t : threads_) t.join();
}

// First come, first served (continuations first): the tail latency under load is the queue's
// length, not the luck of a wake-up.
ComputePool::Outcome ComputePool::run(Clock::time_point deadline,
                                      const std::function<void()>& fn, bool continuation) {
  Job job;
  job.fn = &fn;
  job.deadline = deadline;
  std::unique_lock<std::mutex> lock(mutex_);
  if (continuation) {
    jobs_.push_front(&job);
  } else {
    if (static_cast<int>(jobs_.size()) >= queue_ + static_cast<int>(threads_.size()) - running_)
      return Outcome::queue_full;
    jobs_.push_back(&job);
  }
  work_.notify_one();
  if (!job.finished.wait_until(lock, deadline, [&] { return job.state != State::queued; })) {
    jobs_.erase(std::find(jobs_.begin(), jobs_.end(), &job));  // never run
    return Outcome::deadline;
  }
  if (job.state == State::expired) return Outcome::deadline;  // found late by a compute thread
  job.finished.wait(lock, [&] { return job.state == State::done; });
  if (job.error) std::rethrow_exception(job.error);
  return Outcome::done;
}

void ComputePool::serve() {
  std::unique_lock<std::mutex> lock(mutex_);
  for (;;) {
    work_.wait(lock, [&] { return stop_ || !jobs_.empty(); });
    if (jobs_.empty()) return;  // stopping, nothing left
    Job* job = jobs_.front();
    jobs_.pop_front();
    if (Clock::now() >= job->deadline) {  // its deadline passed while it was queued: not run
      job->state = State::expired;
      job->finished.notify_one();
      continue;
    }
    job->state = State::running;
    ++running_;
    lock.unlock();
    std::exception_ptr error;
    try {
      (*job->fn)();
    } catch (...) {
      error = std::current_exception();
    }
    lock.lock();
    --running_;
    job->error = error;
    job->state = State::done;
    job->finished.notify_one();  // under the lock: the waiter owns `job` and may leave at once
  }
}

int ComputePool::in_flight() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return running_;
}

int ComputePool::waiting() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return static_cast<int>(jobs_.size());
}

}  // namespace kessel::cli
