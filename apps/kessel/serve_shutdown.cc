#include "serve_shutdown.h"

#include <signal.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>

#include "kessel/error.h"

namespace kessel::cli {

namespace {

// The first stop signal, set by the handler (a lock-free atomic store is async-signal-safe).
std::atomic<int> g_stop_signal{0};
static_assert(std::atomic<int>::is_always_lock_free);

extern "C" void on_stop_signal(int signal) {
  int none = 0;
  g_stop_signal.compare_exchange_strong(none, signal);
}

}  // namespace

void install_stop_handlers() {
  struct sigaction action {};
  action.sa_handler = on_stop_signal;
  sigemptyset(&action.sa_mask);
  action.sa_flags = SA_RESTART;
  if (sigaction(SIGTERM, &action, nullptr) != 0 || sigaction(SIGINT, &action, nullptr) != 0)
    throw IoError("serve: cannot handle SIGTERM and SIGINT");
}

StopSignalWatcher::StopSignalWatcher(std::function<void(int)> stop, std::function<int()> in_flight,
                                     double grace_s)
    : stop_(std::move(stop)),
      in_flight_(std::move(in_flight)),
      grace_s_(grace_s),
      thread_([this] { watch(); }) {}

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
  int signal = 0;
  for (;;) {
    std::unique_lock<std::mutex> lock(mutex_);
    // 50 ms: how soon a signal is acted on (the handler itself can only set a flag).
    if (finished_.wait_for(lock, std::chrono::milliseconds(50), [&] { return done_; })) return;
    signal = g_stop_signal.load();
    if (signal != 0) break;
  }
  std::fprintf(
      stderr,
      "kessel serve: %s: no new connections; finishing %d request(s) in flight (grace %.1f s)\n",
      signal == SIGINT ? "SIGINT" : "SIGTERM", in_flight_(), grace_s_);
  std::fflush(stderr);
  stop_(signal);
  std::unique_lock<std::mutex> lock(mutex_);
  if (finished_.wait_for(lock, std::chrono::duration<double>(grace_s_), [&] { return done_; }))
    return;
  const int left = in_flight_();
  std::fprintf(
      stderr, "kessel serve: the grace period ended with %d request(s) in flight; exiting\n", left);
  std::fflush(stderr);
  std::_Exit(left == 0 ? 0 : 1);
}

}  // namespace kessel::cli
