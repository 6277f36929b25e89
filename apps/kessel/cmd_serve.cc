// kessel serve: the summarizer over HTTP (cpp-httplib), with a review page. One summarizer (model or
// ranker, lexicon, decode options: the same options as `kessel summarize`) serves every request;
// Scorer::score and decode() are const, so the server's worker threads share it.
//
//   GET  /           the review page: paste dialogues, see the report (the `summarize --html` page)
//   POST /summarize  dialogues in the body -> one JSON record per dialogue, JSONL (summarize's schema);
//                    ?explain=1 (or true) adds the attention map; ?explain=0 or false, none
//   POST /review     dialogues in the body -> the HTML report
//   GET  /health     {"status": "ok", "scorer", "lexicon"}
//
// A body is JSONL in any of the three dialogue formats (detected), one JSON object, or a JSON array of
// them. A bad body is a 400 whose {"error"} names the line and field, as the file readers do; a body
// over --max-body-mb is a 413; nothing is skipped silently.
#include <httplib.h>

#include <cstdio>
#include <memory>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

#include "cli_data.h"
#include "commands.h"
#include "report_html.h"
#include "review_page.h"
#include "summarizer_flags.h"
#include "kessel/error.h"
#include "kessel/summarize/summarizer.h"
#include "kessel/summarize/summary.h"
#include "kessel/summarize/summary_json.h"
#include "util/json_strict.h"

namespace kessel::cli {

namespace {

struct ServeOptions {
  LexiconOptions lexicon;
  std::string host = "127.0.0.1";
  int port = 8080;  // 0: any free port (printed)
  double max_body_mb = 16.0;
  // Without a model the ranker holds a [U, U] matrix per dialogue and each worker thread serves one
  // request: this bounds a request's memory (5,000 sentences: 100 MB) where the body size cannot.
  int max_dialogue_sentences = 5000;
  SummarizerFlags summarizer;
};

// Refuses (400) a dialogue of more sentences than the server takes.
void check_dialogue_size(const text::Dialogue& d, int max_sentences) {
  std::size_t n = 0;
  for (const auto& t : d.turns) n += t.sentences.size();
  if (n > static_cast<std::size_t>(max_sentences))
    throw InvalidArgument("request:" + std::to_string(d.line) + ": dialogue '" + d.id + "' has " + std::to_string(n) +
                          " sentences; this server takes at most " + std::to_string(max_sentences) +
                          " (--max-dialogue-sentences)");
}

// A query parameter's true/false, 1/0 (anything else is a 400 naming it: "?explain=false" used to
// mean true, as everything but "0" did).
bool boolean_param(const std::string& name, const std::string& value) {
  if (value == "1" || value == "true") return true;
  if (value == "0" || value == "false") return false;
  throw InvalidArgument("request: ?" + name + "=" + value + ": expected true, false, 1 or 0");
}

// The request body as JSONL: a single JSON object or an array of objects (pretty-printed or not) is
// turned into one line per dialogue; anything else is read as JSONL, line by line.
std::string as_jsonl(const std::string& body) {
  nlohmann::json parsed;
  try {
    parsed = util::parse_json_strict(body);
  } catch (const util::JsonNulByte&) {
    return body;  // read line by line, so that the error names the line holding the NUL
  } catch (const util::JsonStructureError& e) {
    throw InvalidArgument(std::string("request: ") + e.what());
  } catch (const nlohmann::json::parse_error&) {
    return body;  // not one JSON value: JSONL, read line by line
  }
  if (parsed.is_object()) return parsed.dump();
  if (parsed.is_array() && parsed.empty())
    throw InvalidArgument("request: the body is an empty array: it holds no dialogue");
  if (parsed.is_array()) {
    std::string out;
    for (const auto& item : parsed) out += item.dump() + "\n";
    return out;
  }
  return body;
}

// The request's dialogues, each within the server's sentence limit (checked before any work).
text::ReadResult read_body(const std::string& body, int max_dialogue_sentences) {
  if (body.find_first_not_of(" \t\r\n") == std::string::npos)
    throw InvalidArgument("request: the body holds no dialogue (send JSONL, a JSON object or an array)");
  text::ReadResult input = text::read_dialogues_from_string(as_jsonl(body), "request");
  for (const auto& dialogue : input.dialogues) check_dialogue_size(dialogue, max_dialogue_sentences);
  return input;
}


void reply_error(httplib::Response& res, int status, const std::string& message) {
  res.status = status;
  // The message may quote the request, invalid UTF-8 included: replace such bytes rather than throw.
  res.set_content(nlohmann::json{{"error", message}}.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) + "\n",
                  "application/json");
}

void serve(const ServeOptions& o, const summarize::SummarizerOptions& so) {
  const text::Lexicon lexicon = load_lexicon(o.lexicon);
  const summarize::Summarizer summarizer = summarize::make_summarizer(so, lexicon);
  const std::string lexicon_id = lexicon.identity();

  httplib::Server server;
  server.set_payload_max_length(static_cast<std::size_t>(o.max_body_mb * 1024.0 * 1024.0));
  // A handler's typed error becomes a 400 naming what was wrong; anything else a 500.
  server.set_exception_handler([](const httplib::Request&, httplib::Response& res, std::exception_ptr ep) {
    try {
      std::rethrow_exception(ep);
    } catch (const Error& e) {
      reply_error(res, 400, e.what());
    } catch (const std::exception& e) {
      reply_error(res, 500, std::string("internal error: ") + e.what());
    } catch (...) {
      reply_error(res, 500, "internal error");
    }
  });
  server.set_error_handler([](const httplib::Request& req, httplib::Response& res) {
    if (!res.body.empty()) return;  // already answered (the exception handler)
    if (res.status == 404) reply_error(res, 404, "no such endpoint: " + req.method + " " + req.path);
    else if (res.status == 413 && req.get_header_value("Content-Type") == "application/x-www-form-urlencoded")
      // cpp-httplib (a compiled library: the limit cannot be raised here) takes at most 8 KiB of a form.
      reply_error(res, 413, "request body too large for Content-Type application/x-www-form-urlencoded (curl -d's "
                            "default; the HTTP library takes 8 KiB of a form): send it as application/json or "
                            "application/x-ndjson, which take up to --max-body-mb");
    else if (res.status == 413) reply_error(res, 413, "request body too large (see --max-body-mb)");
    else reply_error(res, res.status, "HTTP " + std::to_string(res.status));
  });

  server.Get("/", [](const httplib::Request&, httplib::Response& res) { res.set_content(review_page_html(), "text/html; charset=utf-8"); });
  server.Get("/review.js", [](const httplib::Request&, httplib::Response& res) {
    res.set_content(review_page_script(), "text/javascript; charset=utf-8");
  });
  server.Get("/review.css", [](const httplib::Request&, httplib::Response& res) {
    res.set_content(review_page_style(), "text/css; charset=utf-8");
  });
  server.Get("/health", [&](const httplib::Request&, httplib::Response& res) {
    res.set_content(nlohmann::json{{"status", "ok"}, {"scorer", summarizer.scorer->name()}, {"lexicon", lexicon_id}}.dump() + "\n",
                    "application/json");
  });
  server.Post("/summarize", [&](const httplib::Request& req, httplib::Response& res) {
    const bool explain = req.has_param("explain") && boolean_param("explain", req.get_param_value("explain"));
    const text::ReadResult input = read_body(req.body, o.max_dialogue_sentences);
    std::string out;
    for (const auto& dialogue : input.dialogues) {
      const auto [p, scores, s] = summarizer.run(dialogue, lexicon);
      out += summarize::summary_to_json(p, s, explain ? &scores : nullptr).dump() + "\n";
    }
    res.set_content(out, "application/x-ndjson; charset=utf-8");
  });
  server.Post("/review", [&](const httplib::Request& req, httplib::Response& res) {
    const text::ReadResult input = read_body(req.body, o.max_dialogue_sentences);
    HtmlReport report;
    for (const auto& dialogue : input.dialogues) {
      const auto r = summarizer.run(dialogue, lexicon);
      report.add(r.prepared, r.summary, r.scores);
    }
    res.set_content(report.html(), "text/html; charset=utf-8");
  });

  const int port = o.port == 0 ? server.bind_to_any_port(o.host) : (server.bind_to_port(o.host, o.port) ? o.port : -1);
  if (port < 0) throw IoError("serve: cannot listen on " + o.host + ":" + std::to_string(o.port));
  std::fprintf(stderr, "kessel serve: %s on http://%s:%d/ (review page at /, POST /summarize, POST /review)\n",
               summarizer.scorer->name().c_str(), o.host.c_str(), port);
  std::fflush(stderr);
  if (!server.listen_after_bind()) throw IoError("serve: the server stopped with an error");
}

}  // namespace

void add_serve_command(CLI::App& app) {
  auto options = std::make_shared<ServeOptions>();
  CLI::App* cmd = app.add_subcommand("serve", "Serve the summarizer over HTTP, with a review page");
  add_lexicon_options(*cmd, options->lexicon);
  cmd->add_option("--host", options->host, "Address to listen on")->capture_default_str();
  cmd->add_option("--port", options->port, "Port (0: any free port, printed on standard error)")
      ->capture_default_str()
      ->check(CLI::Range(0, 65535));
  cmd->add_option("--max-body-mb", options->max_body_mb, "Largest request body accepted, in MiB")
      ->capture_default_str()
      ->check(CLI::Range(0.001, 4096.0));
  cmd->add_option("--max-dialogue-sentences", options->max_dialogue_sentences,
                  "Longest dialogue a request may hold, in sentences (400 beyond it)")
      ->capture_default_str()
      ->check(CLI::Range(1, 1000000));
  add_summarizer_flags(*cmd, options->summarizer);
  cmd->callback([options, cmd] { serve(*options, summarizer_options(options->summarizer, *cmd)); });
}

}  // namespace kessel::cli
