#include "serve_http.h"

#include <atomic>
#include <cstdint>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <random>

namespace kessel::cli {

namespace {

constexpr RouteInfo kRoutes[] = {
    {"/", "GET, HEAD"},        {"/review.js", "GET, HEAD"}, {"/review.css", "GET, HEAD"},
    {"/health", "GET, HEAD"},  {"/healthz", "GET, HEAD"},   {"/readyz", "GET, HEAD"},
    {"/metrics", "GET, HEAD"}, {"/version", "GET, HEAD"},   {"/openapi.json", "GET, HEAD"},
    {"/summarize", "POST"},    {"/review", "POST"},
};

bool sane_request_id(const std::string& id) {
  if (id.empty() || id.size() > 64) return false;
  for (const char c : id) {
    const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                    c == '.' || c == '_' || c == ':' || c == '-';
    if (!ok) return false;
  }
  return true;
}

// A random prefix per process and a counter: unique within the process, unlikely to repeat across.
std::string new_request_id() {
  static const std::uint32_t prefix = std::random_device{}();
  static std::atomic<std::uint64_t> counter{0};
  char buf[40];
  std::snprintf(buf, sizeof buf, "%08x-%llu", prefix, static_cast<unsigned long long>(++counter));
  return buf;
}

}  // namespace

const RouteInfo* find_route(std::string_view path) {
  for (const RouteInfo& r : kRoutes)
    if (path == r.path) return &r;
  return nullptr;
}

std::string route_label(std::string_view path) {
  const RouteInfo* r = find_route(path);
  return r ? r->path : "unmatched";
}

void reply_error(httplib::Response& res, int status, const std::string& message) {
  res.status = status;
  res.set_content(nlohmann::json{{"error", message}}.dump(
                      -1, ' ', false, nlohmann::json::error_handler_t::replace) +
                      "\n",
                  "application/json");
}

std::string request_id_for(const httplib::Request& req) {
  const std::string sent = req.get_header_value("X-Request-Id");
  return sane_request_id(sent) ? sent : new_request_id();
}

}  // namespace kessel::cli
