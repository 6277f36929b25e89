// POST /summarize and POST /review: the body is streamed in whole (any Content-Type; never a form),
// then the request waits for a worker (503 when the queue is full, 504 past its deadline), and the
// dialogues are summarized one by one within the response limit.
#include <httplib.h>

#include <nlohmann/json.hpp>

#include "kessel/summarize/eaca.h"
#include "kessel/summarize/summary_json.h"
#include "report_html.h"
#include "serve_http.h"
#include "serve_routes.h"

namespace kessel::cli {

namespace {

// A worker for this request, or the HttpError that says why there is none.
void wait_for_worker(const GateTicket& ticket, const ServeState& state) {
  if (ticket.entry() == ComputeGate::Entry::queue_full)
    throw HttpError(503, "busy: " + std::to_string(state.options.queue) +
                             " requests already wait for a worker (--queue); retry shortly");
  if (ticket.entry() == ComputeGate::Entry::deadline)
    throw HttpError(504, "the request waited past its deadline for a worker (--request-timeout-s)");
}

void check_deadline(std::chrono::steady_clock::time_point deadline) {
  if (std::chrono::steady_clock::now() > deadline)
    throw HttpError(504, "the request ran past its deadline (--request-timeout-s)");
}

void check_response_size(std::size_t bytes, const ServeState& state) {
  if (bytes > state.max_response_bytes)
    throw HttpError(
        413,
        "the response would exceed " + std::to_string(state.max_response_bytes) +
            " bytes (--max-response-mb): send fewer dialogues a request, or leave out ?explain=1");
}

// The warning for one dialogue in a language the model was not trained on; empty otherwise.
std::string language_mismatch(const summarize::Prepared& p, const ServeState& state) {
  if (state.model_languages.empty()) return "";
  const char* lang = p.lang == summarize::Lang::zh ? "zh" : "en";
  if (state.model_languages.find(lang) != std::string::npos) return "";
  return std::string("language: this dialogue is ") + lang + "; the model was trained on " +
         state.model_languages +
         " dialogues (scored anyway, with features and a length budget learned for another "
         "language)";
}

int emotions_kept(const summarize::Summary& s) {
  int n = 0;
  for (const auto& e : s.emotions) n += e.in_summary ? 1 : 0;
  return n;
}

// Waits for a worker, reads the dialogues and summarizes each, handing it to `each` with its
// language warning; the request-level warning (the CLI's) goes in the X-Kessel-Warning header.
template <typename EachDialogue>
void summarize_body(const std::string& body, ServeState& state, httplib::Response& res,
                    EachDialogue&& each) {
  const auto deadline = request_start() + state.request_timeout;
  GateTicket ticket(state.gate, deadline);
  wait_for_worker(ticket, state);
  const text::ReadResult input = read_dialogues(body, state.limits);
  const std::string warning =
      summarize::language_warning(*state.summarizer.scorer, input.dialogues);
  if (!warning.empty()) res.set_header("X-Kessel-Warning", warning);
  for (const auto& dialogue : input.dialogues) {
    check_deadline(deadline);
    const summarize::Summarized r = state.summarizer.run(dialogue, state.lexicon);
    const std::string mismatch = language_mismatch(r.prepared, state);
    state.metrics.record_dialogue(emotions_kept(r.summary), r.summary.constraint_bound,
                                  !mismatch.empty());
    each(r, mismatch);
  }
}

}  // namespace

void add_summary_routes(httplib::Server& server, ServeState& state) {
  server.Post("/summarize", [&state](const httplib::Request& req, httplib::Response& res,
                                     const httplib::ContentReader& reader) {
    const bool explain =
        req.has_param("explain") && boolean_param("explain", req.get_param_value("explain"));
    const std::string body = read_whole_body(reader, state.limits.max_bytes);
    std::string out;
    summarize_body(
        body, state, res, [&](const summarize::Summarized& r, const std::string& mismatch) {
          nlohmann::json record =
              summarize::summary_to_json(r.prepared, r.summary, explain ? &r.scores : nullptr);
          if (!mismatch.empty()) record["warnings"] = {mismatch};
          out += record.dump() + "\n";
          check_response_size(out.size(), state);
        });
    res.set_content(out, "application/x-ndjson; charset=utf-8");
  });
  server.Post("/review", [&state](const httplib::Request&, httplib::Response& res,
                                  const httplib::ContentReader& reader) {
    const std::string body = read_whole_body(reader, state.limits.max_bytes);
    HtmlReport report;
    std::size_t records = 0;
    summarize_body(body, state, res, [&](const summarize::Summarized& r, const std::string&) {
      report.add(r.prepared, r.summary, r.scores);
      if (++records % 64 == 0) check_response_size(report.html().size(), state);
    });
    std::string html = report.html();
    check_response_size(html.size(), state);
    res.set_content(std::move(html), "text/html; charset=utf-8");
  });
}

}  // namespace kessel::cli
