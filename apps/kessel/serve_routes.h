// `kessel serve`'s routes and the hooks around them (checks before routing, JSON errors, 405, the
// access log and the counters). docs/serve.md describes each route; GET /openapi.json too.
#pragma once

#include <httplib.h>

#include <nlohmann/json.hpp>

#include "serve_state.h"

namespace kessel::cli {

// GET /, /review.js, /review.css, /health, /healthz, /readyz, /metrics, /version, /openapi.json.
void add_info_routes(httplib::Server& server, ServeState& state);
// POST /summarize and POST /review: the bodies are streamed, never parsed as forms.
void add_summary_routes(httplib::Server& server, ServeState& state);
// Pre-routing checks and request ids, the error and exception handlers, the access log.
void add_request_hooks(httplib::Server& server, ServeState& state);

// The OpenAPI 3 document of the routes (with the bearer scheme when `token` is set).
nlohmann::json openapi_document(bool token);

// When the current request started (set by the hooks before routing) and its id.
std::chrono::steady_clock::time_point request_start();
// A streamed reply's bytes, and the status of an error that ended it after it started: the access
// log and /metrics count those instead of the body's size and the 200 sent.
void note_streamed(std::size_t bytes);
void note_stream_error(int status);

}  // namespace kessel::cli
