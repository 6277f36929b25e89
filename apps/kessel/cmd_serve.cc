// kessel serve: the summarizer over HTTP (cpp-httplib), with a review page. One summarizer (model
// or ranker, lexicon, decode options: the same options as `kessel summarize`) serves every request;
// Scorer::score and decode() are const, so the server's threads share it.
//
// Threads: many I/O threads (--io-threads) each serve one connection at a time, so a slow client
// holds one of them and nothing else; summaries run on --workers compute threads fed by a queue of
// --queue (503 beyond), the I/O thread waiting for its job. docs/serve.md has the routes, limits, timeouts, access rules and shutdown.
#include <httplib.h>
#include <sys/socket.h>

#include <chrono>
#include <cstdio>
#include <memory>
#include <thread>

#include "commands.h"
#include "kessel/cpu.h"
#include "kessel/error.h"
#include "kessel/summarize/eaca.h"
#include "kessel/summarize/summarizer.h"
#include "kessel/text/dialogue.h"
#include "kessel/version.h"
#include "quiet.h"
#include "serve_guard.h"
#include "serve_io_pool.h"
#include "serve_options.h"
#include "serve_routes.h"
#include "serve_shutdown.h"
#include "serve_state.h"

namespace kessel::cli {

namespace {

// httplib::Server with a listen backlog of our choosing: the library listens with 5, and Linux
// takes a second listen(2) on the bound socket as the new backlog.
class HttpServer : public httplib::Server {
 public:
  void set_backlog(int backlog) {
    if (::listen(svr_sock_, backlog) != 0)
      throw IoError("serve: cannot set the listen backlog to " + std::to_string(backlog));
  }
};

// The model's training languages, or "" (a ranker, or a model file that records none).
std::string model_languages(const summarize::Scorer& scorer) {
  const auto* model = dynamic_cast<const summarize::EacaModel*>(&scorer);
  if (!model) return "";
  const auto it = model->metadata().find("languages");
  return it == model->metadata().end() ? "" : it->second;
}

// One short dialogue in each language through the whole summarizer: the first request does not pay
// for first-touch work, and /readyz turns ready.
void warm_up(ServeState& state) {
  try {
    const text::ReadResult warm = text::read_dialogues_from_string(
        R"({"id": "warm-zh", "turns": [{"speaker": "customer", "text": "我的快递三天了还没到，气死我了！"}, {"speaker": "agent", "text": "非常抱歉，已为您催促。"}]}
{"id": "warm-en", "turns": [{"speaker": "customer", "text": "My order never arrived. This is ridiculous!"}, {"speaker": "agent", "text": "Sorry, a replacement ships today."}]}
)",
        "warm-up");
    for (const auto& dialogue : warm.dialogues) state.summarizer.run(dialogue, state.lexicon);
    state.ready.store(true);
  } catch (const std::exception& e) {
    std::lock_guard<std::mutex> lock(state.warmup_mutex);
    state.warmup_error = e.what();
    std::fprintf(stderr, "warning: serve: the warm-up summary failed: %s\n", e.what());
  }
}

void configure(HttpServer& server, const ServeOptions& o) {
  server.new_task_queue = [n = o.io_threads] {
    return new IoThreadPool(static_cast<std::size_t>(n));
  };
  server.set_payload_max_length(static_cast<std::size_t>(o.max_body_mb * 1024.0 * 1024.0));
  server.set_read_timeout(o.read_timeout_s);
  server.set_write_timeout(o.write_timeout_s);
  server.set_keep_alive_timeout(o.idle_timeout_s);
  server.set_keep_alive_max_count(static_cast<std::size_t>(o.keep_alive_max));
  server.set_tcp_nodelay(true);
  server.set_default_headers(security_headers());
}

void fill_state(ServeState& state, double load_seconds) {
  const ServeOptions& o = state.options;
  state.lexicon_id = state.lexicon.identity();
  state.model_languages = model_languages(*state.summarizer.scorer);
  state.facts = {kVersion, cpu_variant(), state.summarizer.scorer->name(), load_seconds};
  if (const auto* model = dynamic_cast<const summarize::EacaModel*>(state.summarizer.scorer.get()))
    state.facts.kv_dtype = model->kv_dtype() == KvDtype::kInt8 ? "int8" : "float32";
  state.guard.loopback_bind = is_loopback_host(o.host);
  if (!o.token_file.empty()) state.guard.token = read_token_file(o.token_file);
  state.guard.max_body_bytes = static_cast<std::size_t>(o.max_body_mb * 1024.0 * 1024.0);
  state.limits = {state.guard.max_body_bytes, o.max_dialogues, o.max_dialogue_sentences};
  state.max_response_bytes = static_cast<std::size_t>(o.max_response_mb * 1024.0 * 1024.0);
  state.request_timeout =
      std::chrono::milliseconds(static_cast<long long>(o.request_timeout_s * 1000.0));
}

int bind(HttpServer& server, const ServeOptions& o) {
  const int port = o.port == 0 ? server.bind_to_any_port(o.host)
                               : (server.bind_to_port(o.host, o.port) ? o.port : -1);
  if (port < 0) throw IoError("serve: cannot listen on " + o.host + ":" + std::to_string(o.port));
  server.set_backlog(o.backlog);
  return port;
}

// stop() is ignored before the server runs: a signal during start-up waits (a little) for it.
void stop_when_listening(HttpServer& server) {
  for (int i = 0; i < 2000 && !server.is_running(); ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  server.stop();
}

void warn_if_open(const ServeState& state) {
  if (state.guard.loopback_bind || !state.guard.token.empty()) return;
  std::fprintf(stderr,
               "WARNING: kessel serve listens on %s, beyond this machine, with no --token-file: "
               "anyone who can "
               "reach it can send it dialogues. Give --token-file, or bind 127.0.0.1.\n",
               state.options.host.c_str());
}

void serve(const ServeOptions& o, const summarize::SummarizerOptions& so) {
  install_stop_handlers();
  const auto load_start = std::chrono::steady_clock::now();
  const text::Lexicon lexicon = load_lexicon(o.lexicon);
  const summarize::Summarizer summarizer = summarize::make_summarizer(so, lexicon);
  const double load_seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - load_start).count();

  const int workers = o.workers > 0
                          ? o.workers
                          : static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  ServeState state(o, lexicon, summarizer, workers);
  fill_state(state, load_seconds);

  HttpServer server;
  configure(server, o);
  add_request_hooks(server, state);
  add_info_routes(server, state);
  add_summary_routes(server, state);

  const int port = bind(server, o);
  state.header_deadline = std::make_unique<HeaderDeadline>(
      port, std::chrono::milliseconds(static_cast<long long>(o.header_timeout_s * 1000.0)),
      [&state] { state.metrics.record_header_timeout(); });
  warn_if_open(state);
  std::fprintf(stderr,
               "kessel serve: %s on http://%s:%d/ (review page at /, POST /summarize, POST "
               "/review; %d workers)\n",
               summarizer.scorer->name().c_str(), o.host.c_str(), port, workers);
  std::fflush(stderr);

  std::thread warm([&state] { warm_up(state); });
  StopSignalWatcher watcher([&server](int) { stop_when_listening(server); },
                            [&state] { return state.compute.in_flight() + state.compute.waiting(); },
                            o.shutdown_grace_s);
  const bool listened = server.listen_after_bind();
  watcher.done();
  warm.join();
  if (!listened) throw IoError("serve: the server stopped with an error");
  note("kessel serve: stopped\n");
}

}  // namespace

void add_serve_command(CLI::App& app) {
  auto options = std::make_shared<ServeOptions>();
  CLI::App* cmd = app.add_subcommand("serve", "Serve the summarizer over HTTP, with a review page");
  add_lexicon_options(*cmd, options->lexicon);
  cmd->add_option("--host", options->host,
                  "Address to listen on (beyond loopback, give --token-file)")
      ->capture_default_str();
  cmd->add_option("--port", options->port, "Port (0: any free port, printed on standard error)")
      ->capture_default_str()
      ->check(CLI::Range(0, 65535));
  cmd->add_option("--max-body-mb", options->max_body_mb,
                  "Largest request body accepted, in MiB (413 beyond)")
      ->capture_default_str()
      ->check(CLI::Range(0.001, 4096.0));
  cmd->add_option("--max-dialogue-sentences", options->max_dialogue_sentences,
                  "Longest dialogue a request may hold, in sentences (400 beyond it)")
      ->capture_default_str()
      ->check(CLI::Range(1, 1000000));
  cmd->add_option("--max-dialogues", options->max_dialogues,
                  "Most dialogues in one request (400 beyond)")
      ->capture_default_str()
      ->check(CLI::Range(1, 10000000));
  cmd->add_option("--max-response-mb", options->max_response_mb,
                  "Largest response, in MiB (413 beyond; ?explain=1 grows it)")
      ->capture_default_str()
      ->check(CLI::Range(0.001, 65536.0));
  cmd->add_option("--workers", options->workers, "Requests summarized at once (0: one per CPU)")
      ->capture_default_str()
      ->check(CLI::Range(0, 4096));
  cmd->add_option("--queue", options->queue,
                  "Requests that may wait for a worker (503 with Retry-After beyond)")
      ->capture_default_str()
      ->check(CLI::Range(0, 1000000));
  cmd->add_option("--io-threads", options->io_threads,
                  "Connections served at once (a slow client holds one)")
      ->capture_default_str()
      ->check(CLI::Range(1, 4096));
  cmd->add_option("--request-timeout-s", options->request_timeout_s,
                  "Deadline of a request's wait and work (504 beyond)")
      ->capture_default_str()
      ->check(CLI::Range(0.001, 86400.0));
  cmd->add_option("--read-timeout-s", options->read_timeout_s, "Longest wait for one receive")
      ->capture_default_str()
      ->check(CLI::Range(1, 3600));
  cmd->add_option("--header-timeout-s", options->header_timeout_s,
                  "Deadline of a request's line and headers, from the connection's accept or its "
                  "last reply (the connection is cut beyond it: a client trickling headers)")
      ->capture_default_str()
      ->check(CLI::Range(0.1, 3600.0));
  cmd->add_option("--write-timeout-s", options->write_timeout_s, "Longest wait for one send")
      ->capture_default_str()
      ->check(CLI::Range(1, 3600));
  cmd->add_option("--idle-timeout-s", options->idle_timeout_s,
                  "Keep-alive connection's longest wait for its next request")
      ->capture_default_str()
      ->check(CLI::Range(1, 3600));
  cmd->add_option("--keep-alive-max", options->keep_alive_max, "Requests per keep-alive connection")
      ->capture_default_str()
      ->check(CLI::Range(1, 100000000));
  cmd->add_option("--backlog", options->backlog,
                  "Listen backlog (connections the kernel holds before accept)")
      ->capture_default_str()
      ->check(CLI::Range(1, 65535));
  cmd->add_option("--shutdown-grace-s", options->shutdown_grace_s,
                  "After SIGTERM/SIGINT, time to finish in-flight requests")
      ->capture_default_str()
      ->check(CLI::Range(0.0, 3600.0));
  cmd->add_option("--token-file", options->token_file,
                  "File holding a token: every route but /healthz and /readyz then needs "
                  "Authorization: Bearer <token>")
      ->check(CLI::ExistingFile);
  cmd->add_flag("!--no-access-log", options->access_log,
                "No JSON access-log line per request on stderr (--quiet too)");
  add_summarizer_flags(*cmd, options->summarizer);
  cmd->callback([options, cmd] {
    if (quiet()) options->access_log = false;
    serve(*options, summarizer_options(options->summarizer, *cmd));
  });
}

}  // namespace kessel::cli
