#include "serve_io_pool.h"

namespace kessel::cli {

IoThreadPool::~IoThreadPool() {
  if (!threads_.empty() && !shutdown_) shutdown();
}

void IoThreadPool::enqueue(std::function<void()> job) {
  std::unique_lock<std::mutex> lock(mutex_);
  if (!idle_.empty()) {
    // The most recently idle thread: its stack and caches are the warmest, and the threads that
    // stay idle longest are never touched again.
    Slot* slot = idle_.back();
    idle_.pop_back();
    slot->job = std::move(job);
    slot->wake.notify_one();
    return;
  }
  if (threads_.size() < max_threads_) {
    slots_.push_back(std::make_unique<Slot>());
    Slot& slot = *slots_.back();
    slot.job = std::move(job);
    threads_.emplace_back([this, &slot] { run(slot); });
    return;
  }
  jobs_.push_back(std::move(job));
}

bool IoThreadPool::next_job(Slot& slot, std::unique_lock<std::mutex>& lock) {
  if (!jobs_.empty()) {
    slot.job = std::move(jobs_.front());
    jobs_.pop_front();
    return true;
  }
  if (shutdown_) return false;
  idle_.push_back(&slot);
  slot.wake.wait(lock, [&] { return static_cast<bool>(slot.job) || shutdown_; });
  return static_cast<bool>(slot.job);
}

void IoThreadPool::run(Slot& slot) {
  std::unique_lock<std::mutex> lock(mutex_);
  while (slot.job || next_job(slot, lock)) {
    std::function<void()> job = std::move(slot.job);
    slot.job = nullptr;
    lock.unlock();
    job();
    lock.lock();
  }
}

void IoThreadPool::shutdown() {
  std::vector<std::thread> threads;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    shutdown_ = true;
    for (Slot* slot : idle_) slot->wake.notify_one();
    idle_.clear();
    threads.swap(threads_);
  }
  for (std::thread& t : threads) t.join();
}

std::size_t IoThreadPool::threads_started() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return slots_.size();
}

}  // namespace kessel::cli
