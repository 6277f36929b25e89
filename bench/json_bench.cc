// Strict JSON parsing (src/util/json_strict.h) against nlohmann's plain DOM parser, the baseline,
// in the same run, and against the callback parser it replaced (rebuilt below; quadratic, so only
// on the small sizes). Throughput is bytes_per_second.
//   ./build/json_bench [--benchmark_filter=Strict] [--benchmark_min_time=1]
// Inputs: a JSON array of n small objects {"a":1,"b":"xy"} (17 bytes each: 1M of them make the
// issue's 16 MiB body), and one dialogue line of n turns (the reader's shape).
#include <benchmark/benchmark.h>

#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <vector>

#include "util/json_strict.h"

namespace {

using nlohmann::json;

std::string array_of_objects(std::size_t n) {
  std::string s = "[";
  for (std::size_t i = 0; i < n; ++i) s += i ? ",{\"a\":1,\"b\":\"xy\"}" : "{\"a\":1,\"b\":\"xy\"}";
  return s + "]";
}

std::string dialogue_of_turns(std::size_t n) {
  std::string s = "{\"id\":\"d\",\"turns\":[";
  for (std::size_t i = 0; i < n; ++i)
    s += std::string(i ? "," : "") + "{\"speaker\":\"" + (i % 2 ? "agent" : "customer") +
         "\",\"text\":\"My order has not arrived yet.\"}";
  return s + "]}";
}

// The parser before issue 23: nlohmann's callback parser with the same duplicate-key and depth
// checks. nlohmann's json_sax_dom_callback_parser scans the parent container at every object's end,
// which makes a list of n objects O(n^2).
json callback_parse(const std::string& text) {
  std::vector<std::set<std::string>> keys;
  json::parser_callback_t callback = [&](int, json::parse_event_t event, json& parsed) {
    if (event == json::parse_event_t::object_start || event == json::parse_event_t::array_start) {
      if (keys.size() >= kessel::util::kMaxJsonDepth) throw kessel::util::JsonTooDeep();
      keys.emplace_back();
    } else if (event == json::parse_event_t::key) {
      if (!keys.back().insert(parsed.get<std::string>()).second)
        throw std::runtime_error("duplicate key");
    } else if (event == json::parse_event_t::object_end ||
               event == json::parse_event_t::array_end) {
      keys.pop_back();
    }
    return true;
  };
  return json::parse(text.begin(), text.end(), callback);
}

template <typename Parse>
void run(benchmark::State& state, const std::string& text, Parse parse) {
  for (auto _ : state) {
    json j = parse(text);
    benchmark::DoNotOptimize(j);
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * text.size()));
  state.counters["MiB"] = static_cast<double>(text.size()) / (1024.0 * 1024.0);
}

void BM_ObjectsStrict(benchmark::State& state) {
  run(state, array_of_objects(static_cast<std::size_t>(state.range(0))),
      [](const std::string& t) { return kessel::util::parse_json_strict(t); });
}
void BM_ObjectsPlainDom(benchmark::State& state) {
  run(state, array_of_objects(static_cast<std::size_t>(state.range(0))),
      [](const std::string& t) { return json::parse(t); });
}
void BM_ObjectsCallback(benchmark::State& state) {
  run(state, array_of_objects(static_cast<std::size_t>(state.range(0))), callback_parse);
}
void BM_TurnsStrict(benchmark::State& state) {
  run(state, dialogue_of_turns(static_cast<std::size_t>(state.range(0))),
      [](const std::string& t) { return kessel::util::parse_json_strict(t); });
}
void BM_TurnsPlainDom(benchmark::State& state) {
  run(state, dialogue_of_turns(static_cast<std::size_t>(state.range(0))),
      [](const std::string& t) { return json::parse(t); });
}
void BM_TurnsCallback(benchmark::State& state) {
  run(state, dialogue_of_turns(static_cast<std::size_t>(state.range(0))), callback_parse);
}

BENCHMARK(BM_ObjectsStrict)->Arg(10000)->Arg(100000)->Arg(1000000)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_ObjectsPlainDom)->Arg(10000)->Arg(100000)->Arg(1000000)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_ObjectsCallback)->Arg(10000)->Arg(20000)->Arg(40000)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_TurnsStrict)->Arg(10000)->Arg(80000)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_TurnsPlainDom)->Arg(10000)->Arg(80000)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_TurnsCallback)->Arg(10000)->Arg(20000)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
