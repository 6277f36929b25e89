// `kessel serve`'s options (docs/serve.md explains each limit and the thread model).
#pragma once

#include <string>

#include "cli_data.h"
#include "summarizer_flags.h"

namespace kessel::cli {

struct ServeOptions {
  LexiconOptions lexicon;
  std::string host = "127.0.0.1";
  int port = 8080;  // 0: any free port (printed)
  double max_body_mb = 16.0;
  // Without a model the ranker holds a [U, U] matrix per dialogue and each computing thread serves
  // one request: this bounds a request's memory (5,000 sentences: 100 MB) where the body size
  // cannot.
  int max_dialogue_sentences = 5000;
  int max_dialogues = 1000;  // per request (400 beyond)
  // A response that would grow past it is a 413 (?explain=1 amplifies a body about 140 times).
  double max_response_mb = 64.0;
  int workers = 0;                  // summaries computed at once; 0: the number of CPUs
  int queue = 64;                   // requests waiting for a worker; beyond it, 503
  int io_threads = 128;             // connections served at once (a slow client holds one)
  double request_timeout_s = 30.0;  // waiting plus computing; beyond it, 504
  int read_timeout_s = 5;           // per receive
  // A request's line and headers, from the connection's accept or its last reply; beyond it the
  // connection is cut (serve_header_deadline.h).
  double header_timeout_s = 10.0;
  int write_timeout_s = 5;          // per send
  int idle_timeout_s = 5;           // keep-alive connection with no request
  int keep_alive_max = 10000;       // requests per connection
  int backlog = 1024;               // listen backlog (the library's default is 5)
  double shutdown_grace_s = 10.0;   // after SIGTERM/SIGINT, time for in-flight requests to finish
  // Authorization: Bearer <its content> on every route but /healthz and /readyz.
  std::string token_file;
  bool access_log = true;  // one JSON line per request on stderr (--no-access-log)
  SummarizerFlags summarizer;
};

}  // namespace kessel::cli
