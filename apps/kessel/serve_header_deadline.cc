#include "serve_header_deadline.h"

#include <arpa/inet.h>
#include <dirent.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/stat.h>

#include <cstdlib>
#include <utility>
#include <vector>

namespace kessel::cli {

namespace {

std::string key_of(const std::string& addr, int port) { return addr + "|" + std::to_string(port); }

// The peer of a TCP socket connected to `local_port` ("addr|port", as the request hooks name it), or
// "" for any other descriptor.
std::string peer_of(int fd, int local_port) {
  struct stat st {};
  if (fstat(fd, &st) != 0 || !S_ISSOCK(st.st_mode)) return "";
  sockaddr_storage local{}, peer{};
  socklen_t n = sizeof local;
  if (getsockname(fd, reinterpret_cast<sockaddr*>(&local), &n) != 0) return "";
  n = sizeof peer;
  if (getpeername(fd, reinterpret_cast<sockaddr*>(&peer), &n) != 0) return "";  // the listening socket
  char text[INET6_ADDRSTRLEN] = {};
  if (peer.ss_family == AF_INET) {
    const auto* l = reinterpret_cast<const sockaddr_in*>(&local);
    const auto* p = reinterpret_cast<const sockaddr_in*>(&peer);
    if (ntohs(l->sin_port) != local_port) return "";
    inet_ntop(AF_INET, &p->sin_addr, text, sizeof text);
    return key_of(text, ntohs(p->sin_port));
  }
  if (peer.ss_family == AF_INET6) {
    const auto* l = reinterpret_cast<const sockaddr_in6*>(&local);
    const auto* p = reinterpret_cast<const sockaddr_in6*>(&peer);
    if (ntohs(l->sin6_port) != local_port) return "";
    inet_ntop(AF_INET6, &p->sin6_addr, text, sizeof text);
    return key_of(text, ntohs(p->sin6_port));
  }
  return "";
}

std::vector<int> open_descriptors() {
  std::vector<int> fds;
  DIR* dir = opendir("/proc/self/fd");
  if (dir == nullptr) return fds;
  const int own = dirfd(dir);
  while (const dirent* e = readdir(dir)) {
    if (e->d_name[0] < '0' || e->d_name[0] > '9') continue;
    const int fd = std::atoi(e->d_name);
    if (fd != own) fds.push_back(fd);
  }
  closedir(dir);
  return fds;
}

}  // namespace

HeaderDeadline::HeaderDeadline(int local_port, std::chrono::milliseconds deadline,
                               std::function<void()> on_cut, std::chrono::milliseconds period)
    : local_port_(local_port),
      deadline_(deadline),
      period_(period),
      on_cut_(std::move(on_cut)),
      thread_([this] { run(); }) {}

HeaderDeadline::~HeaderDeadline() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stop_ = true;
  }
  wake_.notify_all();
  thread_.join();
}

void HeaderDeadline::headers_done(const std::string& remote_addr, int remote_port) {
  std::lock_guard<std::mutex> lock(mutex_);
  Connection& c = connections_[key_of(remote_addr, remote_port)];
  c.awaiting = false;
  c.touched = Clock::now();
}

void HeaderDeadline::reply_done(const std::string& remote_addr, int remote_port) {
  std::lock_guard<std::mutex> lock(mutex_);
  Connection& c = connections_[key_of(remote_addr, remote_port)];
  c.awaiting = true;
  c.since = c.touched = Clock::now();
}

void HeaderDeadline::run() {
  std::unique_lock<std::mutex> lock(mutex_);
  while (!wake_.wait_for(lock, period_, [this] { return stop_; })) {
    lock.unlock();
    // The descriptors and their peers, read without the lock (system calls).
    std::vector<std::pair<int, std::string>> found;
    for (const int fd : open_descriptors())
      if (std::string peer = peer_of(fd, local_port_); !peer.empty()) found.emplace_back(fd, std::move(peer));
    const auto now = Clock::now();
    lock.lock();
    for (auto& [key, c] : connections_) c.seen = false;
    for (const auto& [fd, peer] : found) {
      auto [it, fresh] = connections_.try_emplace(peer);
      Connection& c = it->second;
      if (fresh) c.since = now;  // accepted since the last scan
      c.fd = fd;
      c.seen = true;
      c.touched = now;
    }
    scan(now);
  }
}

// Cuts the connections whose headers are late; forgets the closed ones (not found by this scan: a
// connection the hooks named but no scan found yet is forgotten once it has not been heard of for
// two periods, being closed by then). Called with the lock held.
void HeaderDeadline::scan(Clock::time_point now) {
  for (auto it = connections_.begin(); it != connections_.end();) {
    Connection& c = it->second;
    const bool closed = !c.seen && (c.fd >= 0 || now - c.touched > 2 * period_);
    const bool late = c.seen && c.awaiting && now - c.since > deadline_;
    if (late && peer_of(c.fd, local_port_) == it->first) {
      ::shutdown(c.fd, SHUT_RDWR);
      if (on_cut_) on_cut_();
    }
    if (closed || late)
      it = connections_.erase(it);
    else
      ++it;
  }
}

}  // namespace kessel::cli
