// The routes that compute nothing: the review page, health and readiness, counters, version, the
// OpenAPI document.
#include <httplib.h>

#include <nlohmann/json.hpp>

#include "kessel/cpu.h"
#include "review_page.h"
#include "serve_gate.h"
#include "serve_http.h"
#include "serve_routes.h"

namespace kessel::cli {

namespace {

void reply_json(httplib::Response& res, const nlohmann::json& j) {
  res.set_content(j.dump() + "\n", "application/json");
}

void add_page_routes(httplib::Server& server) {
  server.Get("/", [](const httplib::Request&, httplib::Response& res) {
    res.set_content(review_page_html(), "text/html; charset=utf-8");
  });
  server.Get("/review.js", [](const httplib::Request&, httplib::Response& res) {
    res.set_content(review_page_script(), "text/javascript; charset=utf-8");
  });
  server.Get("/review.css", [](const httplib::Request&, httplib::Response& res) {
    res.set_content(review_page_style(), "text/css; charset=utf-8");
  });
}

void add_probe_routes(httplib::Server& server, ServeState& state) {
  // Alive: answered by an I/O thread, whatever the workers are doing.
  server.Get("/healthz", [](const httplib::Request&, httplib::Response& res) {
    reply_json(res, {{"status", "ok"}});
  });
  server.Get("/readyz", [&state](const httplib::Request&, httplib::Response& res) {
    if (state.ready.load()) return reply_json(res, {{"ready", true}});
    std::lock_guard<std::mutex> lock(state.warmup_mutex);
    reply_error(res, 503,
                state.warmup_error.empty()
                    ? "not ready: the warm-up summary is not done yet"
                    : "not ready: the warm-up summary failed: " + state.warmup_error);
  });
  server.Get("/health", [&state](const httplib::Request&, httplib::Response& res) {
    reply_json(res,
               {{"status", "ok"}, {"scorer", state.facts.scorer}, {"lexicon", state.lexicon_id}});
  });
}

void add_about_routes(httplib::Server& server, ServeState& state) {
  server.Get("/metrics", [&state](const httplib::Request&, httplib::Response& res) {
    res.set_content(state.metrics.prometheus_text(state.facts, state.compute.in_flight(),
                                                  state.compute.waiting(), state.ready.load()),
                    "text/plain; version=0.0.4; charset=utf-8");
  });
  server.Get("/version", [&state](const httplib::Request&, httplib::Response& res) {
    reply_json(res, {{"version", state.facts.version},
                     {"cpu_variant", state.facts.cpu_variant},
                     {"cpu_variants_built", cpu_variants_built()},
                     {"scorer", state.facts.scorer},
                     {"lexicon", state.lexicon_id},
                     {"model_languages", state.model_languages},
                     {"kv_dtype", state.facts.kv_dtype},
                     {"http_library", std::string("cpp-httplib ") + CPPHTTPLIB_VERSION}});
  });
  const std::string openapi = openapi_document(!state.guard.token.empty()).dump(1) + "\n";
  server.Get("/openapi.json", [openapi](const httplib::Request&, httplib::Response& res) {
    res.set_content(openapi, "application/json");
  });
}

}  // namespace

void add_info_routes(httplib::Server& server, ServeState& state) {
  add_page_routes(server);
  add_probe_routes(server, state);
  add_about_routes(server, state);
}

}  // namespace kessel::cli
