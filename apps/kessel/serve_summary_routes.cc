// POST /summarize and POST /review: the body is streamed in whole (any Content-Type; never a form),
// then the dialogues are summarized one by one within the response limit on a compute thread
// (serve_gate.h: 503 when its queue is full, 504 past the deadline) while the I/O thread waits.
// /summarize streams its records (serve_stream.h); /review builds its HTML page whole.
#include <httplib.h>

#include <memory>

#include "kessel/summarize/eaca.h"
#include "report_html.h"
#include "serve_http.h"
#include "serve_routes.h"
#include "serve_stream.h"

namespace kessel::cli {

namespace {

constexpr const char* kNdjson = "application/x-ndjson; charset=utf-8";

void summarize_route(ServeState& state, const httplib::Request& req, httplib::Response& res,
                     const httplib::ContentReader& reader) {
  const bool explain =
      req.has_param("explain") && boolean_param("explain", req.get_param_value("explain"));
  const auto deadline = request_start() + state.request_timeout;
  const std::string body = read_whole_body(reader, state.limits.max_bytes, deadline);
  auto stream = std::make_shared<SummaryStream>(state, explain, deadline);
  if (stream->start(body, res)) {
    res.set_content(stream->take_head(), kNdjson);
    return;
  }
  res.set_chunked_content_provider(
      kNdjson, [stream](std::size_t, httplib::DataSink& sink) { return stream->write_rest(sink); });
}

void review_route(ServeState& state, httplib::Response& res, const httplib::ContentReader& reader) {
  const auto deadline = request_start() + state.request_timeout;
  const std::string body = read_whole_body(reader, state.limits.max_bytes, deadline);
  HtmlReport report;
  std::string warning;
  run_on_worker(state, deadline, [&] {
    const text::ReadResult input = read_dialogues(body, state.limits);
    warning = summarize::language_warning(*state.summarizer.scorer, input.dialogues);
    std::size_t records = 0;
    for (const auto& dialogue : input.dialogues) {
      check_deadline(deadline);
      std::string mismatch;
      const summarize::Summarized r = summarize_counted(dialogue, state, mismatch, /*with_attention_map=*/true);
      report.add(r.prepared, r.summary, r.scores);
      if (++records % 64 == 0) check_response_size(report.html().size(), state);
    }
  });
  if (!warning.empty()) res.set_header("X-Kessel-Warning", warning);
  std::string html = report.html();
  check_response_size(html.size(), state);
  res.set_content(std::move(html), "text/html; charset=utf-8");
}

}  // namespace

void add_summary_routes(httplib::Server& server, ServeState& state) {
  server.Post("/summarize", [&state](const httplib::Request& req, httplib::Response& res,
                                     const httplib::ContentReader& reader) {
    summarize_route(state, req, res, reader);
  });
  server.Post("/review",
              [&state](const httplib::Request&, httplib::Response& res,
                       const httplib::ContentReader& reader) { review_route(state, res, reader); });
}

}  // namespace kessel::cli
