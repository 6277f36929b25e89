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
#include <functional>
#include <memory>
#include <string>

#include "kessel/text/dialogue.h"
#include "serve_gate.h"
#include "serve_state.h"

namespace kessel::cli {

// Shared by POST /summarize and POST /review.
// Runs `job` on a compute thread (serve_gate.h) and waits for it; HttpError 503 when the queue is
// full, 504 when the job was still queued at `deadline`. A `continuation` is never refused for a
// full queue.
void run_on_worker(ServeState& state, std::chrono::steady_clock::time_point deadline,
                   const std::function<void()>& job, bool continuation = false);
// HttpError 504 past the request's deadline; 413 once `bytes` pass --max-response-mb.
void check_deadline(std::chrono::steady_clock::time_point deadline);
void check_response_size(std::size_t bytes, const ServeState& state);
// One dialogue through the summarizer, counted in /metrics. `mismatch`: its language warning, or
// empty. `with_attention_map`: Summarizer::run's (for ?explain=1 and the review page).
summarize::Summarized summarize_counted(const text::Dialogue& dialogue, ServeState& state,
                                        std::string& mismatch, bool with_attention_map);

class SummaryStream {
 public:
  static constexpr std::size_t kHeadBytes = 64 * 1024;   // made before the reply starts
  static constexpr std::size_t kChunkBytes = 16 * 1024;  // records per write to the socket

  SummaryStream(ServeState& state, bool explain, std::chrono::steady_clock::time_point deadline)
      : state_(state), explain_(explain), deadline_(deadline) {}

  // On a compute thread (HttpError 503/504 when none takes it): reads the dialogues, all checked
  // (InvalidArgument), and makes records up to kHeadBytes (HttpError 413/504, errors of the
  // summarizer); true when that was all of them. Sets X-Kessel-Warning when the request holds
  // dialogues in a language the model was not trained on.
  bool start(const std::string& body, httplib::Response& res);
  std::string take_head() { return std::move(out_); }
  // The chunked reply's content provider: the head, then the rest, kChunkBytes at a time made on a
  // compute thread (a continuation) and written from the I/O thread.
  bool write_rest(httplib::DataSink& sink);

 private:
  bool done() const { return next_ == dialogues_; }
  void append_next_record();
  // Records up to `bytes`; the dialogues are freed after the last one (see the definition).
  void make_until(std::size_t bytes);
  bool flush(httplib::DataSink& sink);
  void end_with_error(httplib::DataSink& sink, int status, const std::string& message);

  ServeState& state_;
  const bool explain_;
  const std::chrono::steady_clock::time_point deadline_;
  text::ReadResult input_;
  std::size_t dialogues_ = 0;  // in the request (input_ is emptied once all are summarized)
  std::size_t next_ = 0;       // the next dialogue to summarize
  std::size_t bytes_ = 0;  // of the records made so far (--max-response-mb)
  std::string out_;        // records made but not yet written
};

}  // namespace kessel::cli
