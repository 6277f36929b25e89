// `kessel serve`'s counters, as GET /metrics shows them in the Prometheus text format (version
// 0.0.4).
#pragma once

#include <array>
#include <atomic>
#include <cstdint>
#include <map>
#include <mutex>
#include <string>
#include <utility>

namespace kessel::cli {

// What the server reports about itself, apart from the counters (gauges set once).
struct ServerFacts {
  std::string version;
  std::string cpu_variant;
  std::string scorer;
  double model_load_seconds = 0.0;
  std::string kv_dtype = "float32";  // the model's attention K/V while scoring (--kv)
};

class Metrics {
 public:
  // Upper bounds of the latency histogram's buckets, in seconds (+Inf is added).
  static constexpr std::array<double, 13> kLatencyBuckets = {
      0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0};

  // One answered request: its route label (route_label), status and time from headers read to reply
  // sent.
  void record_request(const std::string& route, int status, double seconds);
  // One dialogue summarized: emotions kept in its summary, whether the constraint bound, whether
  // its language is one the model was not trained on.
  void record_dialogue(int emotions_kept, bool constraint_bound, bool language_mismatch);
  void record_overflow() { overflow_.fetch_add(1); }
  void record_deadline() { deadline_.fetch_add(1); }
  void record_header_timeout() { header_timeouts_.fetch_add(1); }

  // The whole exposition; in_flight and queued are the compute gate's, ready /readyz's.
  std::string prometheus_text(const ServerFacts& facts, int in_flight, int queued,
                              bool ready) const;

 private:
  mutable std::mutex mutex_;
  std::map<std::pair<std::string, int>, std::uint64_t> requests_;  // (route, status) -> count
  std::map<std::string, std::array<std::uint64_t, kLatencyBuckets.size() + 1>>
      latency_;  // per route, +Inf last
  std::map<std::string, double> latency_sum_;
  std::atomic<std::uint64_t> dialogues_{0}, emotions_kept_{0}, constraint_bound_{0},
      language_mismatch_{0};
  std::atomic<std::uint64_t> overflow_{0}, deadline_{0}, header_timeouts_{0};
};

}  // namespace kessel::cli
