#include "serve_shutdown.h"

#include <signal.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>

#include "kessel/error.h"

namespace kessel::cli {

namespace {

sigset_t stop_signals() {
  sigset_t set;
  sigemptyset(&set);
  sigaddset(&set, SIGTERM);
  sigaddset(&set, SIGINT);
  return set;
}

}  // namespace

void block_stop_signals() {
  const sigset_t set = stop_signals();
  if (pthread_sigmask(SIG_BLOCK, &set, nullptr) != 0) throw IoError("serve: cannot block SIGTERM and SIGINT");
}

StopSignalWatcher::StopSignalWatcher(std::function<void(int)> stop, std::function<int()> in_flight, double grace_s)
    : stop_(std::move(stop)), in_flight_(std::move(in_flight)), grace_s_(grace_s), thread_([this] { watch(); }) {}

StopSignalWatcher::~StopSignalWatcher() {
  done();
  if (thread_.joinable()) thread_.join();
}

void StopSignalWatcher::done() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    done_ = true;
  }
  finished_.notify_all();
}

void StopSignalWatcher::watch() {
  const sigset_t set = stop_signals();
  const timespec poll{0, 100'000'000};  // 100 ms: how soon done() ends the thread without a signal
  int signal = -1;
  for (;;) {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      if (done_) return;
    }
    signal = sigtimedwait(&set, nullptr, &poll);
    if (signal > 0) break;
  }
  std::fprintf(stderr, "kessel serve: %s: no new connections; finishing %d request(s) in flight (grace %.1f s)\n",
               signal == SIGINT ? "SIGINT" : "SIGTERM", in_flight_(), grace_s_);
  std::fflush(stderr);
  stop_(signal);
  std::unique_lock<std::mutex> lock(mutex_);
  if (finished_.wait_for(lock, std::chrono::duration<double>(grace_s_), [&] { return done_; })) return;
  const int left = in_flight_();
  std::fprintf(stderr, "kessel serve: the grace period ended with %d request(s) in flight; exiting\n", left);
  std::fflush(stderr);
  std::_Exit(left == 0 ? 0 : 1);
}

}  // namespace kessel::cli
