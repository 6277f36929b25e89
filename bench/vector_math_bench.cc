// util/vector_math.h's vectorized sigmoid and tanh against the libm loops they replaced in the EACA
// model (src/summarize/eaca_model.cc), on the same arrays: n = 128 is one BiLSTM step's gate vector
// (4H, H = 32), n = 4096 a whole layer's activations. Items/s are elements per second.
//   ./build/vector_math_bench --benchmark_min_time=0.2
#include <benchmark/benchmark.h>

#include <cmath>
#include <vector>

#include "util/vector_math.h"

namespace {

std::vector<float> inputs(std::size_t n) {
  std::vector<float> x(n);
  for (std::size_t i = 0; i < n; ++i) x[i] = -6.0f + 12.0f * static_cast<float>(i) / static_cast<float>(n);
  return x;
}

template <typename Fn>
void run(benchmark::State& state, Fn fn) {
  const auto n = static_cast<std::size_t>(state.range(0));
  const std::vector<float> x0 = inputs(n);
  std::vector<float> x = x0;
  for (auto _ : state) {
    x = x0;
    fn(x.data(), n);
    benchmark::DoNotOptimize(x.data());
    benchmark::ClobberMemory();
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations()) * static_cast<std::int64_t>(n));
}

void BM_LibmSigmoid(benchmark::State& state) {
  run(state, [](float* x, std::size_t n) {
    for (std::size_t i = 0; i < n; ++i) x[i] = 1.0f / (1.0f + std::exp(-x[i]));
  });
}
void BM_SigmoidInplace(benchmark::State& state) { run(state, kessel::sigmoid_inplace); }
void BM_LibmTanh(benchmark::State& state) {
  run(state, [](float* x, std::size_t n) {
    for (std::size_t i = 0; i < n; ++i) x[i] = std::tanh(x[i]);
  });
}
void BM_TanhInplace(benchmark::State& state) { run(state, kessel::tanh_inplace); }

}  // namespace

BENCHMARK(BM_LibmSigmoid)->Arg(128)->Arg(4096);
BENCHMARK(BM_SigmoidInplace)->Arg(128)->Arg(4096);
BENCHMARK(BM_LibmTanh)->Arg(128)->Arg(4096);
BENCHMARK(BM_TanhInplace)->Arg(128)->Arg(4096);
BENCHMARK_MAIN();
