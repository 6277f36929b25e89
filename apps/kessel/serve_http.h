// `kessel serve`'s HTTP vocabulary: the routes and their methods, a typed error that carries its
// status, JSON error bodies and request ids.
#pragma once

#include <httplib.h>

#include <string>
#include <string_view>

#include "kessel/error.h"

namespace kessel::cli {

// An error with the HTTP status it is answered with ({"error": message}).
class HttpError : public Error {
 public:
  HttpError(int status, const std::string& message) : Error(message), status_(status) {}
  int status() const { return status_; }

 private:
  int status_;
};

struct RouteInfo {
  const char* path;
  const char* allow;  // the methods it answers, as the Allow header lists them
};
// Every route of the server (405 for another method; /metrics labels requests by these paths).
const RouteInfo* find_route(std::string_view path);
// The path as /metrics labels it: the route's, or "unmatched" (any other path would be a new
// series).
std::string route_label(std::string_view path);

// The response {"error": message} with `status` (invalid UTF-8 in the message is replaced).
void reply_error(httplib::Response& res, int status, const std::string& message);

// The client's X-Request-Id when it is sane (1..64 of [A-Za-z0-9._:-]), else a new unique one.
std::string request_id_for(const httplib::Request& req);

}  // namespace kessel::cli
