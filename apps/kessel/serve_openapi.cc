// GET /openapi.json: the routes, their bodies and their errors as an OpenAPI 3.0 document.
#include <nlohmann/json.hpp>

#include "kessel/version.h"
#include "serve_routes.h"

namespace kessel::cli {

namespace {

using nlohmann::json;

json error_response(const char* description) {
  return {
      {"description", description},
      {"content", {{"application/json", {{"schema", {{"$ref", "#/components/schemas/Error"}}}}}}}};
}

json json_response(const char* description, const char* schema) {
  return {{"description", description},
          {"content",
           {{"application/json",
             {{"schema", {{"$ref", std::string("#/components/schemas/") + schema}}}}}}}};
}

json text_response(const char* description, const char* media) {
  return {{"description", description}, {"content", {{media, {{"schema", {{"type", "string"}}}}}}}};
}

json get_operation(const char* summary, json ok, bool open) {
  json op = {{"summary", summary},
             {"responses",
              {{"200", std::move(ok)},
               {"405", error_response("Wrong method (Allow lists the right one)")}}}};
  if (open) op["security"] = json::array();
  return op;
}

// Errors every compute route may answer.
json compute_errors() {
  return {
      {"400",
       error_response("A bad body, naming the line and field; too many dialogues or sentences")},
      {"401", error_response("Missing or wrong bearer token (--token-file)")},
      {"403", error_response("Host not loopback (loopback binds) or a cross-origin POST")},
      {"405", error_response("Wrong method")},
      {"408", error_response("The body was still arriving at --request-timeout-s")},
      {"413", error_response("Body over --max-body-mb, or a response over --max-response-mb")},
      {"415", error_response("A multipart body")},
      {"503", error_response("The queue of requests waiting for a worker is full (Retry-After)")},
      {"504", error_response("The request ran past --request-timeout-s")}};
}

json dialogue_body() {
  return {
      {"required", true},
      {"description",
       "Dialogues: JSONL in the kessel, CSDS or TweetSumm format (one a line), one JSON object, or "
       "an array of them. Read as such whatever the Content-Type (multipart excepted)."},
      {"content",
       {{"application/x-ndjson", {{"schema", {{"type", "string"}}}}},
        {"application/json",
         {{"schema",
           {{"oneOf",
             {{{"$ref", "#/components/schemas/Dialogue"}},
              {{"type", "array"}, {"items", {{"$ref", "#/components/schemas/Dialogue"}}}}}}}}}},
        {"text/plain", {{"schema", {{"type", "string"}}}}}}}};
}

json paths() {
  json p;
  p["/"]["get"] = get_operation("The review page", text_response("HTML", "text/html"), false);
  p["/review.js"]["get"] = get_operation("The review page's script",
                                         text_response("JavaScript", "text/javascript"), false);
  p["/review.css"]["get"] =
      get_operation("The review page's style", text_response("CSS", "text/css"), false);
  p["/healthz"]["get"] =
      get_operation("Alive (no token asked)", json_response("Alive", "Status"), true);
  p["/readyz"]["get"] = get_operation("Ready: model loaded, warm-up summary done (no token asked)",
                                      json_response("Ready", "Ready"), true);
  p["/readyz"]["get"]["responses"]["503"] = error_response("Not ready yet, or the warm-up failed");
  p["/health"]["get"] =
      get_operation("Status with the scorer and lexicon", json_response("Status", "Health"), false);
  p["/metrics"]["get"] = get_operation("Counters, Prometheus text format 0.0.4",
                                       text_response("Metrics", "text/plain"), false);
  p["/version"]["get"] =
      get_operation("Version, CPU variant, scorer", json_response("Version", "Version"), false);
  p["/openapi.json"]["get"] =
      get_operation("This document", text_response("OpenAPI 3", "application/json"), false);
  json summarize = {
      {"summary",
       "Summarize dialogues: one JSON record per dialogue (the schema of kessel summarize)"},
      {"parameters",
       {{{"name", "explain"},
         {"in", "query"},
         {"required", false},
         {"description", "true/1 adds the attention map; false/0 none; anything else is a 400"},
         {"schema", {{"type", "string"}, {"enum", {"true", "false", "1", "0"}}}}}}},
      {"requestBody", dialogue_body()},
      {"responses", compute_errors()}};
  summarize["responses"]["200"] = {
      {"description",
       "One record a line. A dialogue in a language the model was not trained on has \"warnings\"; "
       "the X-Kessel-Warning header says the same for the request. A reply past 64 KiB is streamed "
       "(chunked) as its records are made; an error after it started (413, 504) ends it with the "
       "line "
       "{\"error\": ..., \"status\": N} and no chunked terminator (a truncated transfer)."},
      {"content",
       {{"application/x-ndjson", {{"schema", {{"$ref", "#/components/schemas/Summary"}}}}}}}};
  p["/summarize"]["post"] = summarize;
  json review = {{"summary", "The HTML report of the dialogues (the summarize --html page)"},
                 {"requestBody", dialogue_body()},
                 {"responses", compute_errors()}};
  review["responses"]["200"] = text_response("HTML report", "text/html");
  p["/review"]["post"] = review;
  return p;
}

json schemas() {
  return {
      {"Error",
       {{"type", "object"},
        {"required", {"error"}},
        {"properties", {{"error", {{"type", "string"}}}}}}},
      {"Status",
       {{"type", "object"}, {"properties", {{"status", {{"type", "string"}, {"enum", {"ok"}}}}}}}},
      {"Ready", {{"type", "object"}, {"properties", {{"ready", {{"type", "boolean"}}}}}}},
      {"Health",
       {{"type", "object"},
        {"properties",
         {{"status", {{"type", "string"}}},
          {"scorer", {{"type", "string"}}},
          {"lexicon", {{"type", "string"}}}}}}},
      {"Version",
       {{"type", "object"},
        {"properties",
         {{"version", {{"type", "string"}}},
          {"cpu_variant", {{"type", "string"}}},
          {"cpu_variants_built", {{"type", "array"}, {"items", {{"type", "string"}}}}},
          {"scorer", {{"type", "string"}}},
          {"lexicon", {{"type", "string"}}},
          {"model_languages", {{"type", "string"}}},
          {"kv_dtype", {{"type", "string"}, {"enum", {"float32", "int8"}}}},
          {"http_library", {{"type", "string"}}}}}}},
      {"Dialogue",
       {{"type", "object"},
        {"description",
         "A dialogue in the kessel format (docs/formats.md); CSDS and TweetSumm records too"},
        {"properties",
         {{"id", {{"type", "string"}}},
          {"turns",
           {{"type", "array"},
            {"items",
             {{"type", "object"},
              {"properties",
               {{"speaker", {{"type", "string"}, {"enum", {"customer", "agent"}}}},
                {"text", {{"type", "string"}}},
                {"time", {{"type", "number"}}}}}}}}}}}}},
      {"Summary",
       {{"type", "object"},
        {"description",
         "The record of kessel summarize (docs/formats.md), with \"warnings\" when the language "
         "does not match the model"},
        {"properties",
         {{"id", {{"type", "string"}}},
          {"summary", {{"type", "string"}}},
          {"warnings", {{"type", "array"}, {"items", {{"type", "string"}}}}}}},
        {"additionalProperties", true}}},
  };
}

}  // namespace

json openapi_document(bool token) {
  json doc = {
      {"openapi", "3.0.3"},
      {"info",
       {{"title", "kessel serve"},
        {"version", kVersion},
        {"description",
         "Emotion-aware dialogue summarization over HTTP. Every error is {\"error\": \"...\"}; "
         "every response carries X-Request-Id. docs/serve.md in the source tree."}}},
      {"paths", paths()},
      {"components", {{"schemas", schemas()}}}};
  if (token) {
    doc["components"]["securitySchemes"] = {{"bearer", {{"type", "http"}, {"scheme", "bearer"}}}};
    doc["security"] = json::array({{{"bearer", json::array()}}});
  }
  return doc;
}

}  // namespace kessel::cli
