#include "serve_stream.h"

#include <nlohmann/json.hpp>

#include "kessel/summarize/eaca.h"
#include "kessel/summarize/summary_json.h"
#include "serve_http.h"
#include "serve_routes.h"

namespace kessel::cli {

namespace {

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

}  // namespace

void run_on_worker(ServeState& state, std::chrono::steady_clock::time_point deadline,
                   const std::function<void()>& job, bool continuation) {
  const ComputePool::Outcome outcome = state.compute.run(deadline, job, continuation);
  if (outcome == ComputePool::Outcome::queue_full)
    throw HttpError(503, "busy: " + std::to_string(state.options.queue) +
                             " requests already wait for a worker (--queue); retry shortly");
  if (outcome == ComputePool::Outcome::deadline)
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

summarize::Summarized summarize_counted(const text::Dialogue& dialogue, ServeState& state,
                                        std::string& mismatch, bool with_attention_map) {
  summarize::Summarized r = state.summarizer.run(dialogue, state.lexicon, with_attention_map);
  mismatch = language_mismatch(r.prepared, state);
  state.metrics.record_dialogue(emotions_kept(r.summary), r.summary.constraint_bound,
                                !mismatch.empty());
  return r;
}

bool SummaryStream::start(const std::string& body, httplib::Response& res) {
  std::string warning;
  run_on_worker(state_, deadline_, [&] {
    input_ = read_dialogues(body, state_.limits);
    dialogues_ = input_.dialogues.size();
    warning = summarize::language_warning(*state_.summarizer.scorer, input_.dialogues);
    make_until(kHeadBytes);
  });
  if (!warning.empty()) res.set_header("X-Kessel-Warning", warning);
  return done();
}

void SummaryStream::append_next_record() {
  check_deadline(deadline_);
  std::string mismatch;
  const summarize::Summarized r = summarize_counted(input_.dialogues[next_++], state_, mismatch, explain_);
  std::string line;
  if (!explain_ && mismatch.empty()) {
    line = summarize::summary_json_text(r.prepared, r.summary);  // the tree's bytes, without the tree
  } else {
    nlohmann::json record =
        summarize::summary_to_json(r.prepared, r.summary, explain_ ? &r.scores : nullptr);
    if (!mismatch.empty()) record["warnings"] = {mismatch};
    line = record.dump();
  }
  line += '\n';
  check_response_size(bytes_ + line.size(), state_);  // out_ holds only records within the cap
  bytes_ += line.size();
  out_ += line;
}

// The dialogues are freed here, on the compute thread that read them, rather than with the stream on
// the I/O thread: a free from another thread locks the malloc arena the compute thread is
// allocating from, and under load at 64 connections about one such free in ten waited on it in
// the kernel (a futex), on both threads.
void SummaryStream::make_until(std::size_t bytes) {
  while (!done() && out_.size() < bytes) append_next_record();
  if (done()) input_ = text::ReadResult{};
}

bool SummaryStream::flush(httplib::DataSink& sink) {
  const bool ok = out_.empty() || sink.write(out_.data(), out_.size());
  if (ok) note_streamed(out_.size());
  out_.clear();
  return ok;
}

void SummaryStream::end_with_error(httplib::DataSink& sink, int status,
                                   const std::string& message) {
  if (status == 504) state_.metrics.record_deadline();
  note_stream_error(status);
  out_ += nlohmann::json{{"error", message}, {"status", status}}.dump(
              -1, ' ', false, nlohmann::json::error_handler_t::replace) +
          "\n";
  flush(sink);
}

// Called once by the library (the whole stream in one call: between calls it stops a stream when
// the server shuts down, and an accepted request is finished, not cut). Returning false closes the
// connection without the chunked terminator; the library does not catch exceptions here.
bool SummaryStream::write_rest(httplib::DataSink& sink) {
  try {
    if (!flush(sink)) return false;  // the head
    while (!done()) {
      run_on_worker(state_, deadline_, [this] { make_until(kChunkBytes); }, true);
      if (!flush(sink)) return false;
    }
    sink.done();
    return true;
  } catch (const HttpError& e) {
    end_with_error(sink, e.status(), e.what());
  } catch (const Error& e) {
    end_with_error(sink, 400, e.what());
  } catch (const std::exception& e) {
    end_with_error(sink, 500, std::string("internal error: ") + e.what());
  }
  return false;
}

}  // namespace kessel::cli
