// The hooks around every request: checks before routing (serve_guard), a request id, JSON errors
// and 405 with Allow, the access log line and the counters.
//
// cpp-httplib serves a request from its headers to its reply on one thread, so the request's id and
// start time live in a thread_local between the pre-routing hook and the logger (called once the
// reply is written, for every reply, the library's own 400/414 included).
#include <malloc.h>

#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <ctime>
#include <nlohmann/json.hpp>

#include "serve_http.h"
#include "serve_routes.h"

namespace kessel::cli {

namespace {

using Clock = std::chrono::steady_clock;

struct CurrentRequest {
  std::string id;
  Clock::time_point start;
  bool active = false;
  std::size_t streamed = 0;  // bytes of a streamed reply (its body is empty)
  int stream_status = 0;     // an error that ended a streamed reply, else 0
};
thread_local CurrentRequest current;

// A reply this large (or one refused at --max-response-mb) leaves glibc's heap grown; it is trimmed
// before the next request.
constexpr std::size_t kTrimAfterBytes = 8u << 20;
std::atomic<bool> trim_wanted{false};

// `fresh`: the request's headers were just read (the pre-routing hook), so any earlier state of
// this thread is stale (a reply whose write failed is not logged). The error handler of a request
// the library refused before routing (a bad request line) starts one only when none is open.
void begin_request(const httplib::Request& req, httplib::Response& res, bool fresh) {
  if (fresh || !current.active) current = {request_id_for(req), Clock::now(), true, 0, 0};
  if (!res.has_header("X-Request-Id")) res.set_header("X-Request-Id", current.id);
}

std::string utc_now() {
  const std::time_t t = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

void write_access_log(const httplib::Request& req, int status, std::size_t bytes, double ms) {
  const nlohmann::json line = {{"time", utc_now()},
                               {"id", current.id},
                               {"method", req.method},
                               {"path", req.path},
                               {"status", status},
                               {"bytes", bytes},
                               {"ms", std::round(ms * 1000.0) / 1000.0},
                               {"remote", req.remote_addr}};
  const std::string text =
      line.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
  std::fwrite(text.data(), 1, text.size(),
              stderr);  // one write: lines of threads do not interleave
}

void answer_wrong_method_or_missing(const httplib::Request& req, httplib::Response& res) {
  if (const RouteInfo* route = find_route(req.path)) {
    res.set_header("Allow", route->allow);
    reply_error(
        res, 405,
        "method " + req.method + " not allowed on " + req.path + " (Allow: " + route->allow + ")");
  } else {
    reply_error(res, 404, "no such endpoint: " + req.method + " " + req.path);
  }
}

// A handler's typed error becomes its status (HttpError) or a 400 naming what was wrong; anything
// else a 500. The server stays up either way.
void answer_exception(ServeState& state, httplib::Response& res, std::exception_ptr ep) {
  try {
    std::rethrow_exception(ep);
  } catch (const HttpError& e) {
    if (e.status() == 503) {
      state.metrics.record_overflow();
      res.set_header("Retry-After", "1");
    }
    if (e.status() == 504) state.metrics.record_deadline();
    // The rest of a body refused mid-way (408, 413) would read as the next request: the client is told
    // to close (the library keeps the connection; one that sends on is held by the header deadline).
    if (e.status() == 408 || e.status() == 413) res.set_header("Connection", "close");
    reply_error(res, e.status(), e.what());
  } catch (const Error& e) {
    reply_error(res, 400, e.what());
  } catch (const std::exception& e) {
    reply_error(res, 500, std::string("internal error: ") + e.what());
  } catch (...) {
    reply_error(res, 500, "internal error");
  }
}

}  // namespace

std::chrono::steady_clock::time_point request_start() {
  return current.active ? current.start : Clock::now();
}

void note_streamed(std::size_t bytes) { current.streamed += bytes; }
void note_stream_error(int status) { current.stream_status = status; }

void add_request_hooks(httplib::Server& server, ServeState& state) {
  server.set_pre_routing_handler([&state](const httplib::Request& req, httplib::Response& res) {
    if (trim_wanted.exchange(false)) malloc_trim(0);
    if (state.header_deadline) state.header_deadline->headers_done(req.remote_addr, req.remote_port);
    begin_request(req, res, true);
    try {
      check_request(req, state.guard);
    } catch (const HttpError& e) {
      if (e.status() == 401) res.set_header("WWW-Authenticate", "Bearer");
      // The body, if any, is not read. The library decides keep-alive before routing, so the
      // connection stays open; a body sent anyway reads as a malformed request (400), and the idle
      // timeout ends it.
      reply_error(res, e.status(), e.what());
      return httplib::Server::HandlerResponse::Handled;
    }
    return httplib::Server::HandlerResponse::Unhandled;
  });

  server.set_exception_handler(
      [&state](const httplib::Request&, httplib::Response& res, std::exception_ptr ep) {
        answer_exception(state, res, ep);
      });

  server.set_error_handler([](const httplib::Request& req, httplib::Response& res) {
    begin_request(req, res, false);
    if (!res.body.empty()) return;  // already answered (the exception handler, a check)
    if (res.status == 404)
      answer_wrong_method_or_missing(req, res);
    else if (res.status == 413)
      reply_error(res, 413, "request body too large (see --max-body-mb)");
    else if (res.status == 400)
      reply_error(res, 400,
                  "malformed HTTP request (the request line, or a header: at most 8 KiB each)");
    else if (res.status == 414)
      reply_error(res, 414, "request line longer than the HTTP library takes (8 KiB)");
    else
      reply_error(res, res.status, "HTTP " + std::to_string(res.status));
  });

  server.set_logger([&state](const httplib::Request& req, const httplib::Response& res) {
    const double seconds = std::chrono::duration<double>(Clock::now() - request_start()).count();
    const int status = current.stream_status ? current.stream_status : res.status;
    const std::size_t bytes = res.body.size() + current.streamed;
    state.metrics.record_request(route_label(req.path), status, seconds);
    if (state.options.access_log) write_access_log(req, status, bytes, seconds * 1000.0);
    if (bytes > kTrimAfterBytes || status == 413)
      trim_wanted.store(true);  // 413: a response cut off
    current.active = false;
    if (state.header_deadline) state.header_deadline->reply_done(req.remote_addr, req.remote_port);
  });
}

}  // namespace kessel::cli
