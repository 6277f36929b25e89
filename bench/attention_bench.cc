// Attention benchmarks (B = 1, H = 8, D = Dv = 64, fp32), with single-call OpenBLAS sgemm of the
// Q K^T shape measured in the same run as the baseline: compare FLOPS counters as ratios, never as
// absolute numbers (the machine is shared). Arguments: {L, threads}.
//
//   ./attention_bench --benchmark_filter='/4096/' --benchmark_min_time=1
#include <benchmark/benchmark.h>
#include <cblas.h>

#include <cmath>
#include <cstdint>
#include <iterator>
#include <random>
#include <vector>

#include "kessel/attention.h"

extern "C" void openblas_set_num_threads(int);

namespace {

using kessel::Index;

constexpr Index kB = 1, kH = 8, kD = 64;

struct Problem {
  Index L;
  std::vector<float> q, k, v, out, lse, dout, dq, dk, dv;
  explicit Problem(Index l) : L(l) {
    std::mt19937 rng(42);
    std::uniform_real_distribution<float> u(-1.0f, 1.0f);
    const auto fill = [&](std::vector<float>& x, Index n) {
      x.resize(static_cast<size_t>(n));
      for (float& e : x) e = u(rng);
    };
    const Index n = kB * kH * L * kD;
    fill(q, n), fill(k, n), fill(v, n), fill(dout, n);
    out.assign(static_cast<size_t>(n), 0.0f);
    lse.assign(static_cast<size_t>(kB * kH * L), 0.0f);
  }
  kessel::AttentionInputs inputs() const {
    kessel::AttentionInputs in;
    in.B = kB, in.H = kH, in.Lq = L, in.Lk = L, in.D = kD, in.Dv = kD;
    in.q = q.data(), in.k = k.data(), in.v = v.data();
    return in;
  }
};

double forward_flops(Index L) { return kessel::attention_forward_flops(kB, kH, L, L, kD, kD); }

void run_forward(benchmark::State& state, kessel::AttentionSpec spec) {
  const Index L = state.range(0);
  spec.threads = static_cast<int>(state.range(1));
  Problem p(L);
  const kessel::AttentionInputs in = p.inputs();
  for (auto _ : state) {
    kessel::attention_forward(p.out.data(), p.lse.data(), in, spec);
    benchmark::DoNotOptimize(p.out.data());
  }
  double flops = forward_flops(L);
  if (spec.causal) flops *= 0.5;  // about half the tiles are hidden
  state.counters["FLOPS"] = benchmark::Counter(flops, benchmark::Counter::kIsIterationInvariantRate);
}

void BM_FusedSoftmaxForward(benchmark::State& state) { run_forward(state, {}); }

// int8 K/V (one symmetric scale per row, dequantized inside each tile) against the float32 forward
// above: the same Q, K, V, quantized once outside the timed loop.
void BM_FusedInt8KVForward(benchmark::State& state) {
  const Index L = state.range(0);
  kessel::AttentionSpec spec;
  spec.threads = static_cast<int>(state.range(1));
  Problem p(L);
  const Index rows = kB * kH * L;
  std::vector<std::int8_t> k8(p.k.size()), v8(p.v.size());
  std::vector<float> ks(static_cast<size_t>(rows)), vs(static_cast<size_t>(rows));
  kessel::quantize_rows(k8.data(), ks.data(), p.k.data(), rows, kD);
  kessel::quantize_rows(v8.data(), vs.data(), p.v.data(), rows, kD);
  kessel::AttentionInputs in = p.inputs();
  in.k = in.v = nullptr;
  in.kv_dtype = kessel::KvDtype::kInt8;
  in.k_int8 = k8.data(), in.k_scale = ks.data(), in.v_int8 = v8.data(), in.v_scale = vs.data();
  for (auto _ : state) {
    kessel::attention_forward(p.out.data(), p.lse.data(), in, spec);
    benchmark::DoNotOptimize(p.out.data());
  }
  state.counters["FLOPS"] = benchmark::Counter(forward_flops(L), benchmark::Counter::kIsIterationInvariantRate);
}

void BM_FusedCausalForward(benchmark::State& state) {
  kessel::AttentionSpec spec;
  spec.causal = true;
  run_forward(state, spec);
}

void BM_FusedFuzzyM2Forward(benchmark::State& state) {
  kessel::AttentionSpec spec;
  spec.normalizer = kessel::Normalizer::kFuzzy;
  spec.m = 2.0f;
  run_forward(state, spec);
}

void BM_FusedFuzzyM15Forward(benchmark::State& state) {
  kessel::AttentionSpec spec;
  spec.normalizer = kessel::Normalizer::kFuzzy;
  spec.m = 1.5f;
  run_forward(state, spec);
}

void BM_ReferenceForward(benchmark::State& state) {
  kessel::AttentionSpec spec;
  spec.impl = kessel::AttentionImpl::kReference;
  run_forward(state, spec);
}

// Materialized weights [B, H, L, L] (attention_weights: explanations, centrality). FLOPS counts
// the Q K^T product only; the rest is writing and normalizing L^2 floats per head.
void run_weights(benchmark::State& state, kessel::AttentionImpl impl) {
  const Index L = state.range(0);
  kessel::AttentionSpec spec;
  spec.impl = impl;
  spec.threads = static_cast<int>(state.range(1));
  Problem p(L);
  const kessel::AttentionInputs in = p.inputs();
  std::vector<float> w(static_cast<size_t>(kB * kH * L * L));
  for (auto _ : state) {
    kessel::attention_weights(w.data(), in, spec);
    benchmark::DoNotOptimize(w.data());
  }
  state.counters["FLOPS"] = benchmark::Counter(2.0 * kB * kH * L * L * kD, benchmark::Counter::kIsIterationInvariantRate);
}
void BM_FusedWeights(benchmark::State& state) { run_weights(state, kessel::AttentionImpl::kFused); }
void BM_ReferenceWeights(benchmark::State& state) { run_weights(state, kessel::AttentionImpl::kReference); }

// Forward + backward (what a training step costs); FLOPS counts forward + backward matmuls.
// with_dm: also the fuzzifier's gradient (AttentionGrads::dm), what a model that learns m asks for.
void run_forward_backward(benchmark::State& state, kessel::AttentionSpec spec, bool with_dm = false) {
  const Index L = state.range(0);
  spec.threads = static_cast<int>(state.range(1));
  Problem p(L);
  const kessel::AttentionInputs in = p.inputs();
  p.dq.assign(p.q.size(), 0.0f), p.dk.assign(p.k.size(), 0.0f), p.dv.assign(p.v.size(), 0.0f);
  kessel::AttentionGrads g;
  g.dq = p.dq.data(), g.dk = p.dk.data(), g.dv = p.dv.data();
  float dm = 0.0f;
  if (with_dm) g.dm = &dm;
  for (auto _ : state) {
    kessel::attention_forward(p.out.data(), p.lse.data(), in, spec);
    kessel::attention_backward(g, p.dout.data(), p.out.data(), p.lse.data(), in, spec);
    benchmark::DoNotOptimize(p.dq.data());
  }
  const double flops = forward_flops(L) + kessel::attention_backward_flops(kB, kH, L, L, kD, kD);
  state.counters["FLOPS"] = benchmark::Counter(flops, benchmark::Counter::kIsIterationInvariantRate);
}

void BM_FusedForwardBackward(benchmark::State& state) { run_forward_backward(state, {}); }

// General m: the backward's weights come from the same fused power kernel as the forward's.
void BM_FusedFuzzyM15ForwardBackward(benchmark::State& state) {
  kessel::AttentionSpec spec;
  spec.normalizer = kessel::Normalizer::kFuzzy;
  spec.m = 1.5f;
  run_forward_backward(state, spec);
}

// Fuzzy forward + backward with and without dm (state.range(2): 0 without, 1 with), m = 2 (whose
// weights need no log: dm adds one per element) and m = 1.5 (dm reuses the backward's logs).
void run_fuzzy_dm(benchmark::State& state, float m) {
  kessel::AttentionSpec spec;
  spec.normalizer = kessel::Normalizer::kFuzzy;
  spec.m = m;
  run_forward_backward(state, spec, state.range(2) != 0);
}
void BM_FusedFuzzyM2ForwardBackwardDm(benchmark::State& state) { run_fuzzy_dm(state, 2.0f); }
void BM_FusedFuzzyM15ForwardBackwardDm(benchmark::State& state) { run_fuzzy_dm(state, 1.5f); }

// Score terms beyond plain dot products, and the element-wise masks (state.range(2) picks the case
// of the table). Times grow by 0-30 s per position; key boosts are uniform in [0, 1]; the masks keep
// 80% of the keys (allowed_keys [B, L]) or of the pairs (mask [1, 1, L, L]).
struct CaseData {
  std::vector<float> times, boost, slopes;
  std::vector<std::uint8_t> allowed, mask;
};
struct FeatureCase {
  const char* name;
  void (*setup)(kessel::AttentionSpec&, kessel::AttentionInputs&, CaseData&);
};
const FeatureCase kScoreTermCases[] = {
    {"cosine", [](auto& s, auto&, auto&) { s.similarity = kessel::Similarity::kCosine; }},
    {"constrained_cosine+time_decay+key_boost",
     [](auto& s, auto& in, auto& d) {
       s.similarity = kessel::Similarity::kConstrainedCosine, s.beta = 0.3f;
       in.q_times = in.k_times = d.times.data(), s.time_decay = 0.002f, in.key_boost = d.boost.data();
     }},
    {"neg_sq_euclidean", [](auto& s, auto&, auto&) { s.similarity = kessel::Similarity::kNegSqEuclidean; }},
    {"alibi", [](auto&, auto& in, auto& d) { in.alibi_slopes = d.slopes; }},
    {"zscore", [](auto& s, auto&, auto&) { s.zscore = true; }},
    {"multiplicative_time_decay",
     [](auto& s, auto& in, auto& d) {
       in.q_times = in.k_times = d.times.data(), s.time_decay = 0.002f;
       s.time_decay_mode = kessel::TimeDecayMode::kMultiplicative;
     }},
    {"fuzzy_m2+time_decay",
     [](auto& s, auto& in, auto& d) {
       s.normalizer = kessel::Normalizer::kFuzzy, in.q_times = in.k_times = d.times.data(), s.time_decay = 0.002f;
     }},
};
const FeatureCase kMaskCases[] = {
    {"allowed_keys", [](auto&, auto& in, auto& d) { in.allowed_keys = d.allowed.data(); }},
    {"mask",
     [](auto&, auto& in, auto& d) {  // [L, L] bytes: only this case builds them
       std::mt19937 rng(11);
       std::uniform_real_distribution<float> u(0.0f, 1.0f);
       d.mask.resize(static_cast<size_t>(in.Lq * in.Lk));
       for (auto& m : d.mask) m = u(rng) < 0.8f;
       in.mask = kessel::Strided4<std::uint8_t>::contiguous(d.mask.data(), {1, 1, in.Lq, in.Lk});
     }},
    {"lag_by_time_60s",
     [](auto& s, auto& in, auto& d) {
       in.q_times = in.k_times = d.times.data(), s.min_lag = 60, s.lag_by_time = true;
     }},
    {"window_256", [](auto& s, auto&, auto&) { s.window = 256; }},
};

template <const auto& kCases>
void run_cases(benchmark::State& state, bool backward) {
  const Index L = state.range(0);
  const FeatureCase& c = kCases[state.range(2)];
  state.SetLabel(c.name);
  kessel::AttentionSpec spec;
  spec.threads = static_cast<int>(state.range(1));
  Problem p(L);
  kessel::AttentionInputs in = p.inputs();
  std::mt19937 rng(7);
  std::uniform_real_distribution<float> u(0.0f, 1.0f);
  CaseData d;
  float now = 0.0f;
  for (Index e = 0; e < kB * L; ++e) {
    d.times.push_back(now += 30.0f * u(rng));
    d.boost.push_back(u(rng));
    d.allowed.push_back(u(rng) < 0.8f);
  }
  for (Index h = 0; h < kH; ++h) d.slopes.push_back(std::pow(2.0f, -8.0f * static_cast<float>(h + 1) / kH));
  c.setup(spec, in, d);
  p.dq.assign(p.q.size(), 0.0f), p.dk.assign(p.k.size(), 0.0f), p.dv.assign(p.v.size(), 0.0f);
  std::vector<float> dboost(d.boost.size());
  kessel::AttentionGrads g;
  g.dq = p.dq.data(), g.dk = p.dk.data(), g.dv = p.dv.data();
  if (in.key_boost) g.dkey_boost = dboost.data();
  for (auto _ : state) {
    kessel::attention_forward(p.out.data(), p.lse.data(), in, spec);
    if (backward) kessel::attention_backward(g, p.dout.data(), p.out.data(), p.lse.data(), in, spec);
    benchmark::DoNotOptimize(p.out.data());
    benchmark::DoNotOptimize(p.dq.data());
  }
  double flops = forward_flops(L);
  if (backward) flops += kessel::attention_backward_flops(kB, kH, L, L, kD, kD);
  state.counters["FLOPS"] = benchmark::Counter(flops, benchmark::Counter::kIsIterationInvariantRate);
}
void BM_FusedScoreTermsForward(benchmark::State& state) { run_cases<kScoreTermCases>(state, false); }
void BM_FusedScoreTermsForwardBackward(benchmark::State& state) { run_cases<kScoreTermCases>(state, true); }
void BM_FusedMasksForward(benchmark::State& state) { run_cases<kMaskCases>(state, false); }
void BM_FusedMasksForwardBackward(benchmark::State& state) { run_cases<kMaskCases>(state, true); }
template <const auto& kCases>
void case_sizes(benchmark::internal::Benchmark* b) {
  for (Index c = 0; c < static_cast<Index>(std::size(kCases)); ++c)
    for (Index l : {1024, 4096})
      for (Index t : {1, 2}) b->Args({l, t, c});
  b->Unit(benchmark::kMillisecond)->UseRealTime();
}

// Baseline: C[L, L] = Q[L, D] K[L, D]^T per head, as one sgemm call per head (the Q K^T half of a
// forward), OpenBLAS limited to the same thread count.
void BM_Sgemm(benchmark::State& state) {
  const Index L = state.range(0);
  openblas_set_num_threads(static_cast<int>(state.range(1)));
  Problem p(L);
  const Index heads = L >= 4096 ? 1 : kH;  // keep C within memory at L = 16384-like sizes
  std::vector<float> c(static_cast<size_t>(L * L));
  for (auto _ : state) {
    for (Index h = 0; h < heads; ++h)
      cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasTrans, static_cast<int>(L), static_cast<int>(L),
                  static_cast<int>(kD), 1.0f, p.q.data() + h * L * kD, static_cast<int>(kD),
                  p.k.data() + h * L * kD, static_cast<int>(kD), 0.0f, c.data(), static_cast<int>(L));
    benchmark::DoNotOptimize(c.data());
  }
  state.counters["FLOPS"] = benchmark::Counter(2.0 * static_cast<double>(heads * L * L * kD),
                                               benchmark::Counter::kIsIterationInvariantRate);
}

void sizes(benchmark::internal::Benchmark* b, std::initializer_list<Index> ls) {
  for (Index l : ls)
    for (Index t : {1, 2}) b->Args({l, t});
  b->Unit(benchmark::kMillisecond)->UseRealTime();
}

}  // namespace

BENCHMARK(BM_Sgemm)->Apply([](auto* b) { sizes(b, {256, 1024, 4096}); });
BENCHMARK(BM_FusedSoftmaxForward)->Apply([](auto* b) { sizes(b, {256, 1024, 4096, 16384}); });
BENCHMARK(BM_FusedInt8KVForward)->Apply([](auto* b) { sizes(b, {1024, 4096, 16384}); });
BENCHMARK(BM_FusedFuzzyM2Forward)->Apply([](auto* b) { sizes(b, {256, 1024, 4096}); });
BENCHMARK(BM_FusedFuzzyM15Forward)->Apply([](auto* b) { sizes(b, {256, 1024, 4096}); });
BENCHMARK(BM_FusedCausalForward)->Apply([](auto* b) { sizes(b, {256, 1024, 4096}); });
BENCHMARK(BM_FusedForwardBackward)->Apply([](auto* b) { sizes(b, {256, 1024, 4096}); });
BENCHMARK(BM_FusedFuzzyM15ForwardBackward)->Apply([](auto* b) { sizes(b, {256, 1024, 4096}); });
BENCHMARK(BM_FusedFuzzyM2ForwardBackwardDm)
    ->ArgsProduct({{4096}, {1, 2}, {0, 1}})->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_FusedFuzzyM15ForwardBackwardDm)
    ->ArgsProduct({{4096}, {1, 2}, {0, 1}})->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_FusedScoreTermsForward)->Apply(case_sizes<kScoreTermCases>);
BENCHMARK(BM_FusedScoreTermsForwardBackward)->Apply(case_sizes<kScoreTermCases>);
BENCHMARK(BM_FusedMasksForward)->Apply(case_sizes<kMaskCases>);
BENCHMARK(BM_FusedMasksForwardBackward)->Apply(case_sizes<kMaskCases>);
BENCHMARK(BM_ReferenceForward)->Apply([](auto* b) { sizes(b, {256, 1024}); });
BENCHMARK(BM_FusedWeights)->Apply([](auto* b) { sizes(b, {256, 1024}); });
BENCHMARK(BM_ReferenceWeights)->Apply([](auto* b) { sizes(b, {256, 1024}); });

BENCHMARK_MAIN();
