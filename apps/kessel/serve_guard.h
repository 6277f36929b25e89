// What `kessel serve` checks of a request before routing it (its headers are read, its body is
// not): the Host (DNS rebinding), the Origin of a POST (cross-site forms), the bearer token, the
// body's Content-Length and Content-Type. Each failure is an HttpError, answered before the body is
// read.
#pragma once

#include <httplib.h>

#include <cstddef>
#include <string>

namespace kessel::cli {

struct GuardOptions {
  bool loopback_bind =
      true;           // then only Host: 127.0.0.1, localhost or [::1] (any port) is answered
  std::string token;  // empty: no Authorization asked
  std::size_t max_body_bytes = 0;
};

// True for 127.0.0.0/8, ::1 and "localhost".
bool is_loopback_host(const std::string& host);
// The token in `path` with surrounding whitespace removed (IoError when unreadable, InvalidArgument
// when empty).
std::string read_token_file(const std::string& path);

// Throws HttpError (400, 401, 403, 411, 413, 415) when the request must not be routed.
void check_request(const httplib::Request& req, const GuardOptions& options);

// The headers every response carries (Content-Security-Policy: no inline script; nosniff; ...).
httplib::Headers security_headers();

}  // namespace kessel::cli
