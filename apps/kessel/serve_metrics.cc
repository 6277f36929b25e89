#include "serve_metrics.h"

#include <cstdio>
#include <sstream>

namespace kessel::cli {

namespace {

// A label value with \ " and newline escaped, as the text format asks.
std::string label_value(const std::string& s) {
  std::string out;
  for (const char c : s) {
    if (c == '\\' || c == '"') out += '\\';
    if (c == '\n') {
      out += "\\n";
      continue;
    }
    out += c;
  }
  return out;
}

std::string number(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.9g", v);
  return buf;
}

void header(std::ostringstream& os, const char* name, const char* type, const char* help) {
  os << "# HELP " << name << ' ' << help << "\n# TYPE " << name << ' ' << type << '\n';
}

}  // namespace

void Metrics::record_request(const std::string& route, int status, double seconds) {
  std::lock_guard<std::mutex> lock(mutex_);
  ++requests_[{route, status}];
  auto& buckets = latency_[route];
  std::size_t b = 0;
  while (b < kLatencyBuckets.size() && seconds > kLatencyBuckets[b]) ++b;
  ++buckets[b];
  latency_sum_[route] += seconds;
}

void Metrics::record_dialogue(int emotions_kept, bool constraint_bound, bool language_mismatch) {
  dialogues_.fetch_add(1);
  emotions_kept_.fetch_add(static_cast<std::uint64_t>(emotions_kept));
  if (constraint_bound) constraint_bound_.fetch_add(1);
  if (language_mismatch) language_mismatch_.fetch_add(1);
}

std::string Metrics::prometheus_text(const ServerFacts& facts, int in_flight, int queued,
                                     bool ready) const {
  std::ostringstream os;
  header(os, "kessel_build_info", "gauge",
         "The build: version, CPU variant of the kernels, scorer.");
  os << "kessel_build_info{version=\"" << label_value(facts.version) << "\",cpu_variant=\""
     << label_value(facts.cpu_variant) << "\",scorer=\"" << label_value(facts.scorer) << "\"} 1\n";
  header(os, "kessel_ready", "gauge",
         "1 once the model is loaded and a warm-up summary is done (/readyz).");
  os << "kessel_ready " << (ready ? 1 : 0) << '\n';
  header(os, "kessel_model_load_seconds", "gauge",
         "Time to load the scorer (model or ranker) and lexicon.");
  os << "kessel_model_load_seconds " << number(facts.model_load_seconds) << '\n';
  header(os, "kessel_in_flight_requests", "gauge", "Requests computing summaries now.");
  os << "kessel_in_flight_requests " << in_flight << '\n';
  header(os, "kessel_queue_length", "gauge", "Requests waiting for a worker.");
  os << "kessel_queue_length " << queued << '\n';
  header(os, "kessel_overflow_total", "counter",
         "Requests refused with 503 because the queue was full.");
  os << "kessel_overflow_total " << overflow_.load() << '\n';
  header(os, "kessel_deadline_exceeded_total", "counter",
         "Requests answered 504 (--request-timeout-s).");
  os << "kessel_deadline_exceeded_total " << deadline_.load() << '\n';
  header(os, "kessel_header_timeouts_total", "counter",
         "Connections cut off because a request's headers took longer than --header-timeout-s.");
  os << "kessel_header_timeouts_total " << header_timeouts_.load() << '\n';
  header(os, "kessel_dialogues_summarized_total", "counter", "Dialogues summarized.");
  os << "kessel_dialogues_summarized_total " << dialogues_.load() << '\n';
  header(os, "kessel_emotions_kept_total", "counter",
         "Expressed customer emotions kept in summaries.");
  os << "kessel_emotions_kept_total " << emotions_kept_.load() << '\n';
  header(os, "kessel_constraint_bound_total", "counter",
         "Summaries whose selection the emotion constraint changed.");
  os << "kessel_constraint_bound_total " << constraint_bound_.load() << '\n';
  header(os, "kessel_language_mismatch_total", "counter",
         "Dialogues in a language the model was not trained on.");
  os << "kessel_language_mismatch_total " << language_mismatch_.load() << '\n';

  std::lock_guard<std::mutex> lock(mutex_);
  header(os, "kessel_http_requests_total", "counter", "Answered requests by route and status.");
  for (const auto& [key, n] : requests_)
    os << "kessel_http_requests_total{route=\"" << label_value(key.first) << "\",status=\""
       << key.second << "\"} " << n << '\n';
  header(os, "kessel_http_request_duration_seconds", "histogram",
         "Time from the request's headers to the reply sent.");
  for (const auto& [route, buckets] : latency_) {
    const std::string r = label_value(route);
    std::uint64_t cumulative = 0;
    for (std::size_t b = 0; b < buckets.size(); ++b) {
      cumulative += buckets[b];
      const std::string le = b < kLatencyBuckets.size() ? number(kLatencyBuckets[b]) : "+Inf";
      os << "kessel_http_request_duration_seconds_bucket{route=\"" << r << "\",le=\"" << le
         << "\"} " << cumulative << '\n';
    }
    os << "kessel_http_request_duration_seconds_sum{route=\"" << r << "\"} "
       << number(latency_sum_.at(route)) << '\n';
    os << "kessel_http_request_duration_seconds_count{route=\"" << r << "\"} " << cumulative
       << '\n';
  }
  return os.str();
}

}  // namespace kessel::cli
