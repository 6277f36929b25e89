// What `kessel serve`'s handlers share: the summarizer and lexicon (const: threads share them), the
// counters, the compute gate and the limits. One per server, alive while it listens.
#pragma once

#include <atomic>
#include <chrono>
#include <memory>
#include <mutex>
#include <string>

#include "kessel/summarize/summarizer.h"
#include "kessel/text/lexicon.h"
#include "serve_body.h"
#include "serve_gate.h"
#include "serve_guard.h"
#include "serve_header_deadline.h"
#include "serve_metrics.h"
#include "serve_options.h"

namespace kessel::cli {

struct ServeState {
  ServeState(const ServeOptions& o, const text::Lexicon& lex, const summarize::Summarizer& s,
             int workers)
      : options(o), lexicon(lex), summarizer(s), compute(workers, o.queue) {}

  const ServeOptions& options;
  const text::Lexicon& lexicon;
  const summarize::Summarizer& summarizer;
  std::string lexicon_id;
  // The model's training languages ("en", "zh", "en,zh"); empty for a ranker or a model that
  // records none.
  std::string model_languages;
  ServerFacts facts;
  GuardOptions guard;
  BodyLimits limits;
  std::size_t max_response_bytes = 0;
  std::chrono::milliseconds request_timeout{30000};

  Metrics metrics;
  ComputePool compute;  // --workers compute threads, fed by a --queue
  std::atomic<bool> ready{false};
  std::mutex warmup_mutex;
  std::string warmup_error;  // set when the warm-up summary failed (/readyz says why)
  // Started once the port is bound (--header-timeout-s); the request hooks report to it.
  std::unique_ptr<HeaderDeadline> header_deadline;
};

}  // namespace kessel::cli
