// The Chinese word segmenter (kessel/text/segment.h) without Python around it: one pass over every
// utterance of CSDS val per iteration (counter ms_per_dialogue), and the load of jieba's tables
// (dict.txt, 349k lines, and the three finalseg files). The same-process ratio against Python jieba
// is bench/segment_vs_jieba.py.
//   KESSEL_DATA=../shared/data ./build/segment_bench [--benchmark_min_time=1]
// $KESSEL_JIEBA_DIR names jieba's directory (default: Debian's python3-jieba).
#include <benchmark/benchmark.h>

#include <cstdlib>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "kessel/text/segment.h"
#include "kessel/text/utf8.h"

namespace {

using kessel::text::Segmenter;

std::string jieba_dir() {
  const char* env = std::getenv("KESSEL_JIEBA_DIR");
  return env != nullptr && *env != '\0' ? env : "/usr/lib/python3/dist-packages/jieba";
}

// Every dialogue of CSDS val as its utterances' code points; empty when the file is absent.
std::vector<std::vector<std::vector<char32_t>>> csds_val() {
  const char* env = std::getenv("KESSEL_DATA");
  std::ifstream in(std::string(env != nullptr && *env != '\0' ? env : "../shared/data") +
                   "/csds/val.jsonl");
  std::vector<std::vector<std::vector<char32_t>>> dialogues;
  std::string line;
  while (std::getline(in, line)) {
    const auto record = nlohmann::json::parse(line);
    auto& d = dialogues.emplace_back();
    for (const auto& turn : record.at("Dialogue")) {
      d.push_back(kessel::text::decode_utf8(turn.at("utterance").get<std::string>()).cps);
    }
  }
  return dialogues;
}

void BM_SegmentCsdsVal(benchmark::State& state) {
  static const auto dialogues = csds_val();
  if (dialogues.empty()) return state.SkipWithError("csds/val.jsonl not found (set KESSEL_DATA)");
  const Segmenter seg = Segmenter::from_jieba(jieba_dir());
  std::size_t words = 0, chars = 0;
  for (auto _ : state) {
    for (const auto& d : dialogues) {
      for (const auto& u : d) {
        words += seg.segment(std::span<const char32_t>(u)).size();
        chars += u.size();
      }
    }
  }
  benchmark::DoNotOptimize(words);
  const double n = static_cast<double>(state.iterations() * dialogues.size());
  state.counters["ms_per_dialogue"] =
      benchmark::Counter(n * 1e-3, benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
  state.counters["chars_per_s"] =
      benchmark::Counter(static_cast<double>(chars), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_SegmentCsdsVal)->Unit(benchmark::kMillisecond);

void BM_LoadJieba(benchmark::State& state) {
  for (auto _ : state) {
    const Segmenter seg = Segmenter::from_jieba(jieba_dir());
    benchmark::DoNotOptimize(seg.dictionary_size());
  }
}
BENCHMARK(BM_LoadJieba)->Unit(benchmark::kMillisecond);

void BM_LoadBuiltin(benchmark::State& state) {
  for (auto _ : state) {
    const Segmenter seg = Segmenter::builtin();
    benchmark::DoNotOptimize(seg.dictionary_size());
  }
}
BENCHMARK(BM_LoadBuiltin)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
