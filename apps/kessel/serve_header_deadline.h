// The whole-request header deadline of `kessel serve` (--header-timeout-s): a connection must finish
// its request line and headers within the deadline, counted from its accept or from the end of its
// last reply (keep-alive); a slow client that trickles header lines is cut off then.
//
// cpp-httplib reads headers with a timeout per receive only, inside members the server cannot wrap,
// and hands the I/O pool a job that hides the socket. So the deadline is kept from outside: the
// request hooks say when a connection's headers are done (pre-routing) and when its reply is (the
// logger), by the peer's address and port; a watchdog thread finds the server's connected sockets
// in /proc/self/fd and shuts down (shutdown(2), both ways) the one whose headers are late, after
// checking that its descriptor still belongs to the same peer. The library's read then fails, and
// its thread closes the socket and moves on.
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <map>
#include <mutex>
#include <string>
#include <thread>

namespace kessel::cli {

class HeaderDeadline {
 public:
  using Clock = std::chrono::steady_clock;

  // Watches the sockets connected to `local_port`, scanning every `period`; `on_cut` runs (on the
  // watchdog's thread) for each connection cut off.
  HeaderDeadline(int local_port, std::chrono::milliseconds deadline, std::function<void()> on_cut,
                 std::chrono::milliseconds period = std::chrono::milliseconds(200));
  ~HeaderDeadline();  // stops the watchdog
  HeaderDeadline(const HeaderDeadline&) = delete;
  HeaderDeadline& operator=(const HeaderDeadline&) = delete;

  // The connection from remote_addr:remote_port has its headers (the pre-routing hook) ...
  void headers_done(const std::string& remote_addr, int remote_port);
  // ... or has sent its reply and may send its next request (the logger).
  void reply_done(const std::string& remote_addr, int remote_port);

 private:
  struct Connection {
    int fd = -1;
    Clock::time_point since;  // accept, or the last reply
    bool awaiting = true;     // its next request's headers are not all in yet
    bool seen = false;        // found in the last scan
    Clock::time_point touched;  // the last hook call or scan that found it
  };
  void run();
  void scan(Clock::time_point now);

  const int local_port_;
  const std::chrono::milliseconds deadline_, period_;
  const std::function<void()> on_cut_;
  std::mutex mutex_;
  std::condition_variable wake_;
  bool stop_ = false;
  std::map<std::string, Connection> connections_;  // "addr|port" of the peer
  std::thread thread_;
};

}  // namespace kessel::cli
