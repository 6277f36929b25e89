// The vector math kernels (util/vector_math_kernels.h) in every variant this machine runs, against
// the libm loops they replaced in the EACA model (src/summarize/eaca_model.cc), on the same arrays:
// n = 128 is one BiLSTM step's gate vector (4H, H = 32), n = 4096 a whole layer's activations.
// Items/s are elements per second; for the product, multiply-adds per second (BiLSTM's recurrent
// step: I = 32 inputs, O = 128 gates). Each benchmark's name ends in its variant.
//   ./build/vector_math_bench --benchmark_min_time=0.2
#include <benchmark/benchmark.h>

#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "util/simd.h"
#include "util/vector_math_kernels.h"

namespace {

std::vector<float> inputs(std::size_t n) {
  std::vector<float> x(n);
  for (std::size_t i = 0; i < n; ++i)
    x[i] = -6.0f + 12.0f * static_cast<float>(i) / static_cast<float>(n);
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
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations()) *
                          static_cast<std::int64_t>(n));
}

void libm_sigmoid(benchmark::State& state) {
  run(state, [](float* x, std::size_t n) {
    for (std::size_t i = 0; i < n; ++i) x[i] = 1.0f / (1.0f + std::exp(-x[i]));
  });
}
void libm_tanh(benchmark::State& state) {
  run(state, [](float* x, std::size_t n) {
    for (std::size_t i = 0; i < n; ++i) x[i] = std::tanh(x[i]);
  });
}

void matvec(benchmark::State& state, const kessel::VectorMathKernels& k) {
  const std::size_t I = 32, O = 128;
  const std::vector<float> wt = inputs(I * O), x = inputs(I);
  std::vector<float> y(O, 0.0f);
  for (auto _ : state) {
    k.add_matvec_t(y.data(), wt.data(), x.data(), I, O);
    benchmark::DoNotOptimize(y.data());
    benchmark::ClobberMemory();
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * I * O));
}

int register_all() {
  benchmark::RegisterBenchmark("BM_LibmSigmoid", libm_sigmoid)->Arg(128)->Arg(4096);
  benchmark::RegisterBenchmark("BM_LibmTanh", libm_tanh)->Arg(128)->Arg(4096);
  for (std::int64_t t : kessel::simd::available_targets()) {
    const kessel::VectorMathKernels* k = &kessel::vector_math_kernels(t);
    const std::string v = std::string("/") + k->variant;
    benchmark::RegisterBenchmark(("BM_SigmoidInplace" + v).c_str(),
                                 [k](benchmark::State& s) { run(s, k->sigmoid_inplace); })
        ->Arg(128)
        ->Arg(4096);
    benchmark::RegisterBenchmark(("BM_TanhInplace" + v).c_str(),
                                 [k](benchmark::State& s) { run(s, k->tanh_inplace); })
        ->Arg(128)
        ->Arg(4096);
    benchmark::RegisterBenchmark(("BM_AddMatvecT_I32_O128" + v).c_str(),
                                 [k](benchmark::State& s) { matvec(s, *k); });
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  register_all();
  benchmark::Initialize(&argc, argv);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
