// POST /summarize's records, produced one dialogue at a time. The body is read and every dialogue
// checked before any answer (a bad record is a 400, as before); then the records are summarized in
// order. The first kHeadBytes of them are made before the reply starts, so a short reply (one
// dialogue, a few) is sent whole with its Content-Length and any error keeps its own status. A
// longer one is streamed (chunked) as it is made: memory holds one record at a time, not the
// response. An error after the reply has started (413 past --max-response-mb, 504 past the
// deadline) cannot change the status: the stream ends with one line {"error": ..., "status": N} and
// the connection closes without the chunked terminator, so a client sees a truncated transfer,
// never a complete one.
#pragma once

#include <httplib.h>

#include <chrono>
#include <cstddef>
#include <memory>
#include <string>

#include "kessel/text/dialogue.h"
#include "serve_gate.h"
#include "serve_state.h"

namespace kessel::cli {

// Shared by POST /summarize and POST /review.
// A worker for this request (the ticket's), or the HttpError that says why there is none (503/504).
void require_worker(const GateTicket& ticket, const ServeState& state);
// HttpError 504 past the request's deadline; 413 once `bytes` pass --max-response-mb.
void check_deadline(std::chrono::steady_clock::time_point deadline);
void check_response_size(std::size_t bytes, const ServeState& state);
// One dialogue through the summarizer, counted in /metrics. `mismatch`: its language warning, or
// empty.
summarize::Summarized summarize_counted(const text::Dialogue& dialogue, ServeState& state,
                                        std::string& mismatch);

class SummaryStream {
 public:
  static constexpr std::size_t kHeadBytes = 64 * 1024;   // made before the reply starts
  static constexpr std::size_t kChunkBytes = 16 * 1024;  // records per write to the socket

  SummaryStream(ServeState& state, bool explain, std::chrono::steady_clock::time_point deadline)
      : state_(state), explain_(explain), deadline_(deadline) {}

  // Waits for a worker (HttpError 503/504) and reads the dialogues, all checked (InvalidArgument).
  // Sets X-Kessel-Warning when the request holds dialogues in a language the model was not
  // trained on.
  void start(const std::string& body, httplib::Response& res);
  // Makes records up to kHeadBytes (HttpError 413/504, errors of the summarizer); true when that
  // was all of them.
  bool make_head();
  std::string take_head() { return std::move(out_); }
  // The chunked reply's content provider: the head, then the rest as it is made.
  bool write_rest(httplib::DataSink& sink);

 private:
  bool done() const { return next_ == input_.dialogues.size(); }
  void append_next_record();
  bool flush(httplib::DataSink& sink);
  void end_with_error(httplib::DataSink& sink, int status, const std::string& message);

  ServeState& state_;
  const bool explain_;
  const std::chrono::steady_clock::time_point deadline_;
  std::unique_ptr<GateTicket> ticket_;  // the worker, released once the last record is made
  text::ReadResult input_;
  std::size_t next_ = 0;   // the next dialogue to summarize
  std::size_t bytes_ = 0;  // of the records made so far (--max-response-mb)
  std::string out_;        // records made but not yet written
};

}  // namespace kessel::cli
