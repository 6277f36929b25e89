#include "serve_guard.h"

#include <charconv>
#include <fstream>
#include <sstream>

#include "kessel/error.h"
#include "serve_http.h"

namespace kessel::cli {

namespace {

// The host of a Host header value: "[::1]:8080" -> "::1", "localhost:80" -> "localhost".
std::string host_of(const std::string& value) {
  if (!value.empty() && value.front() == '[') {
    const auto close = value.find(']');
    return close == std::string::npos ? value : value.substr(1, close - 1);
  }
  return value.substr(0, value.find(':'));
}

void check_host(const httplib::Request& req, const GuardOptions& o) {
  if (!o.loopback_bind) return;
  const std::string host = req.get_header_value("Host");
  if (!is_loopback_host(host_of(host)))
    throw HttpError(403,
                    "Host '" + host +
                        "' is not this server's: a loopback server answers only Host 127.0.0.1, "
                        "localhost or [::1] (DNS rebinding)");
}

// A browser names the page that sends a POST; a page of another origin may not use this server.
void check_origin(const httplib::Request& req) {
  if (req.method != "POST" || !req.has_header("Origin")) return;
  const std::string origin = req.get_header_value("Origin");
  if (origin != "http://" + req.get_header_value("Host"))
    throw HttpError(403, "cross-origin POST refused (Origin '" + origin + "')");
}

// Equal strings, in time that does not depend on where they differ.
bool same_secret(const std::string& sent, const std::string& token) {
  if (sent.size() != token.size()) return false;
  unsigned char diff = 0;
  for (std::size_t i = 0; i < token.size(); ++i)
    diff |= static_cast<unsigned char>(sent[i] ^ token[i]);
  return diff == 0;
}

void check_token(const httplib::Request& req, const GuardOptions& o) {
  if (o.token.empty() || req.path == "/healthz" || req.path == "/readyz") return;
  const std::string auth = req.get_header_value("Authorization");
  const std::string prefix = "Bearer ";
  if (auth.compare(0, prefix.size(), prefix) != 0 ||
      !same_secret(auth.substr(prefix.size()), o.token))
    throw HttpError(401, "this server needs Authorization: Bearer <token> (--token-file)");
}

// Content-Length is decimal digits within the body limit; anything else (-1, 2^63-1, 10^23) is
// answered now rather than read or waited for.
void check_content_length(const httplib::Request& req, const GuardOptions& o) {
  if (!req.has_header("Content-Length")) return;
  const std::string value = req.get_header_value("Content-Length");
  std::size_t n = 0;
  const auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), n);
  const bool digits = !value.empty() && value.find_first_not_of("0123456789") == std::string::npos;
  if (!digits)
    throw HttpError(400, "bad Content-Length '" + value + "': expected a decimal byte count");
  if (ec == std::errc::result_out_of_range || n > o.max_body_bytes)
    throw HttpError(413, "request body too large: Content-Length " + value +
                             " is more than this server takes (" +
                             std::to_string(o.max_body_bytes) + " bytes, --max-body-mb)");
}

// A multipart form would be parsed as parts by the HTTP library; every other content type is read
// as the dialogues themselves.
void check_content_type(const httplib::Request& req) {
  if (req.method == "POST" && req.get_header_value("Content-Type").rfind("multipart/", 0) == 0)
    throw HttpError(415,
                    "multipart bodies are not read: send the dialogues themselves as the body "
                    "(JSONL, a JSON object or an array; any other Content-Type)");
}

}  // namespace

bool is_loopback_host(const std::string& host) {
  return host == "localhost" || host == "::1" || host.rfind("127.", 0) == 0;
}

std::string read_token_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw IoError("--token-file " + path + ": cannot be read");
  std::ostringstream text;
  text << in.rdbuf();
  std::string token = text.str();
  const auto first = token.find_first_not_of(" \t\r\n");
  if (first == std::string::npos)
    throw InvalidArgument("--token-file " + path + ": the file is empty");
  token = token.substr(first, token.find_last_not_of(" \t\r\n") - first + 1);
  if (token.find_first_of(" \t\r\n") != std::string::npos)
    throw InvalidArgument("--token-file " + path + ": the token holds whitespace");
  return token;
}

void check_request(const httplib::Request& req, const GuardOptions& o) {
  check_host(req, o);
  check_origin(req);
  check_token(req, o);
  check_content_length(req, o);
  check_content_type(req);
}

httplib::Headers security_headers() {
  return {
      // The review page's script is /review.js; the reports use inline style only.
      {"Content-Security-Policy",
       "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' "
       "data:; "
       "object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'self'"},
      {"X-Content-Type-Options", "nosniff"},
      {"Referrer-Policy", "no-referrer"},
      {"X-Frame-Options", "SAMEORIGIN"},
      {"Cache-Control", "no-store"},
  };
}

}  // namespace kessel::cli
