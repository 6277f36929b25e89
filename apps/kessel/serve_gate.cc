#include "serve_gate.h"

#include <algorithm>

namespace kessel::cli {

ComputePool::ComputePool(int workers, int queue) : workers_(std::max(workers, 1)), queue_(queue) {
  threads_.reserve(static_cast<std::size_t>(workers_));
  for (int i = 0; i < workers_; ++i) threads_.emplace_back([this] { serve(); });
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
// length, not the luck of a wake-up. A job finds a free worker only when none waits, so running it
// on the caller's thread overtakes nobody.
ComputePool::Outcome ComputePool::run(Clock::time_point deadline, const std::function<void()>& fn,
                                      bool continuation) {
  std::unique_lock<std::mutex> lock(mutex_);
  if (jobs_.empty() && running_ < workers_) {
    if (Clock::now() >= deadline) return Outcome::deadline;
    ++running_;
    lock.unlock();
    run_here(fn);
    return Outcome::done;
  }
  auto job = std::make_shared<Job>();
  job->fn = &fn;
  job->deadline = deadline;
  if (continuation) {
    jobs_.push_front(job);
  } else {
    if (static_cast<int>(jobs_.size()) >= queue_ + workers_ - running_) return Outcome::queue_full;
    jobs_.push_back(job);
  }
  if (running_ < workers_) work_.notify_one();
  if (!job->finished.wait_until(lock, deadline, [&] { return job->state != State::queued; })) {
    jobs_.erase(std::find(jobs_.begin(), jobs_.end(), job));  // never run
    return Outcome::deadline;
  }
  if (job->state == State::expired) return Outcome::deadline;  // found late by a compute thread
  job->finished.wait(lock, [&] { return job->state == State::done; });
  if (job->error) std::rethrow_exception(job->error);
  return Outcome::done;
}

// The caller's thread holds one of the workers' places while it runs `fn`; a job queued meanwhile
// goes to a compute thread once the place is free again.
void ComputePool::run_here(const std::function<void()>& fn) {
  struct Release {
    ComputePool& pool;
    ~Release() {
      std::unique_lock<std::mutex> lock(pool.mutex_);
      --pool.running_;
      const bool queued = !pool.jobs_.empty();
      lock.unlock();
      if (queued) pool.work_.notify_one();
    }
  } release{*this};
  fn();
}

void ComputePool::serve() {
  std::unique_lock<std::mutex> lock(mutex_);
  for (;;) {
    work_.wait(lock,
               [&] { return (stop_ && jobs_.empty()) || (!jobs_.empty() && running_ < workers_); });
    if (jobs_.empty()) return;  // stopping, nothing left
    std::shared_ptr<Job> job = std::move(jobs_.front());
    jobs_.pop_front();
    if (Clock::now() >= job->deadline) {  // its deadline passed while it was queued: not run
      job->state = State::expired;
      lock.unlock();
      job->finished.notify_one();
      lock.lock();
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
    // Outside the lock, so that the waiter does not wake only to wait for the mutex; the shared
    // `job` outlives a waiter that leaves at once.
    lock.unlock();
    job->finished.notify_one();
    lock.lock();
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
