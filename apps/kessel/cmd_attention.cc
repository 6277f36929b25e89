// `kessel bench attention [--json] [--lengths 256,1024,4096] [--threads N] [--heads 8] [--dim 64]
// [--quick]`: times the attention engine in-process and, as the baseline of the same run, OpenBLAS
// sgemm on the two matmuls of a forward of the same shape (Q K^T and P V per head), measured before
// and after each length's cases (the faster run counts: the machine may be shared). The "terms" rows
// are the score an EACA-like model uses: constrained cosine (beta 0.3), additive time decay (times
// 0-30 s apart) and a key boost.
#include <cblas.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <memory>
#include <nlohmann/json.hpp>
#include <random>
#include <string>
#include <vector>

#include "commands.h"
#include "kessel/attention.h"
#include "kessel/cpu.h"
#include "quiet.h"
#include "util/progress.h"
#include "util/timer.h"

namespace kessel::cli {
namespace {

using Json = nlohmann::ordered_json;

struct BenchOptions {
  bool json = false;
  std::vector<Index> lengths{256, 1024, 4096};
  int threads = 0;
  Index heads = 8;
  Index dim = 64;
  bool quick = false;
};

struct Row {
  std::string name;
  Index L = 0;
  double ms = 0;
  double gflops = 0;
  double pct_sgemm = 0;
  double speedup_vs_reference = NAN;  // fused rows that have a reference counterpart
};

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const size_t n = v.size();
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

// Median milliseconds of `fn` after one warm-up run; the repeat count aims at ~`budget_s` per case.
template <typename F>
double time_ms(F&& fn, double budget_s, int max_repeats) {
  Timer warm;
  fn();
  const double first_s = std::max(warm.seconds(), 1e-6);
  const int repeats = std::clamp(static_cast<int>(budget_s / first_s), 3, max_repeats);
  std::vector<double> ms;
  for (int r = 0; r < repeats; ++r) {
    Timer t;
    fn();
    ms.push_back(t.milliseconds());
  }
  return median(ms);
}

struct Problem {
  Index H, L, D;
  std::vector<float> q, k, v, dout, out, lse, dq, dk, dv;
  std::vector<float> times, boost;  // [L] each, for the terms rows
  AttentionInputs in, terms_in;

  Problem(Index heads, Index length, Index dim) : H(heads), L(length), D(dim) {
    const size_t n = static_cast<size_t>(H * L * D);
    std::mt19937 rng(1234);
    std::normal_distribution<float> normal(0.0f, 1.0f);
    for (auto* x : {&q, &k, &v, &dout}) {
      x->resize(n);
      for (auto& e : *x) e = normal(rng);
    }
    out.resize(n);
    dq.resize(n);
    dk.resize(n);
    dv.resize(n);
    lse.resize(static_cast<size_t>(H * L));
    in.B = 1;
    in.H = H;
    in.Lq = in.Lk = L;
    in.D = in.Dv = D;
    in.q = q.data();
    in.k = k.data();
    in.v = v.data();
    std::uniform_real_distribution<float> uniform(0.0f, 1.0f);
    float now = 0.0f;
    for (Index i = 0; i < L; ++i) {
      times.push_back(now += 30.0f * uniform(rng));
      boost.push_back(uniform(rng));
    }
    terms_in = in;
    terms_in.q_times = terms_in.k_times = times.data();
    terms_in.key_boost = boost.data();
  }
};

// OpenBLAS on the forward's two matmuls per head: S = Q K^T [L, L], then O = S V [L, D].
double sgemm_forward_ms(const Problem& p, double budget_s, int max_repeats) {
  std::vector<float> s(static_cast<size_t>(p.L * p.L)), o(static_cast<size_t>(p.L * p.D));
  const int L = static_cast<int>(p.L), D = static_cast<int>(p.D);
  return time_ms(
      [&] {
        for (Index h = 0; h < p.H; ++h) {
          const float* q = p.q.data() + h * p.L * p.D;
          const float* k = p.k.data() + h * p.L * p.D;
          const float* v = p.v.data() + h * p.L * p.D;
          cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasTrans, L, L, D, 1.0f, q, D, k, D, 0.0f,
                      s.data(), L);
          cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, L, D, L, 1.0f, s.data(), L, v, D,
                      0.0f, o.data(), D);
        }
      },
      budget_s, max_repeats);
}

void print_table(const std::vector<Row>& rows, const std::vector<Json>& sgemm,
                 const BenchOptions& o) {
  std::printf("kessel bench attention: B=1 H=%ld D=%ld threads=%d (FLOPs: 4*H*L^2*D forward, "
              "x3.5 forward+backward; causal counts the visible half)\n",
              static_cast<long>(o.heads), static_cast<long>(o.dim), o.threads);
  std::printf("  SIMD variant %s (KESSEL_CPU forces one; this CPU runs:", kessel::cpu_variant().c_str());
  for (const std::string& v : kessel::cpu_variants_available()) std::printf(" %s", v.c_str());
  std::printf(")\n");
  for (const auto& s : sgemm)
    std::printf("  sgemm baseline L=%-6ld %9.2f ms %8.1f GFLOP/s\n",
                static_cast<long>(s["L"].get<Index>()), s["ms"].get<double>(),
                s["gflops"].get<double>());
  std::printf("%-26s %6s %10s %9s %8s %10s\n", "case", "L", "ms", "GFLOP/s", "%sgemm",
              "vs ref");
  for (const auto& r : rows) {
    std::printf("%-26s %6ld %10.2f %9.1f %7.1f%%", r.name.c_str(), static_cast<long>(r.L), r.ms,
                r.gflops, r.pct_sgemm);
    if (std::isnan(r.speedup_vs_reference)) std::printf(" %10s\n", "-");
    else std::printf(" %9.1fx\n", r.speedup_vs_reference);
  }
}

void run_bench(const BenchOptions& opts) {
  BenchOptions o = opts;
  if (o.quick) o.lengths = {128, 256};
  KESSEL_CHECK_ARG(!o.lengths.empty(), "bench attention: --lengths is empty");
  for (Index L : o.lengths)
    KESSEL_CHECK_ARG(L >= 1 && L <= 65536, "bench attention: length ", L, " not in [1, 65536]");
  KESSEL_CHECK_ARG(o.heads >= 1 && o.dim >= 1, "bench attention: --heads ", o.heads, " and --dim ",
                   o.dim, " must be >= 1");
  if (o.threads > 0) openblas_set_num_threads(o.threads);
  const double budget_s = o.quick ? 0.1 : 0.5;
  const int max_repeats = o.quick ? 5 : 15;

  AttentionSpec softmax;
  softmax.threads = o.threads;
  AttentionSpec fuzzy2 = softmax, fuzzy15 = softmax, causal = softmax;
  fuzzy2.normalizer = fuzzy15.normalizer = Normalizer::kFuzzy;
  fuzzy2.m = 2.0f;
  fuzzy15.m = 1.5f;
  causal.causal = true;
  AttentionSpec terms = softmax;
  terms.similarity = Similarity::kConstrainedCosine;
  terms.beta = 0.3f;
  terms.time_decay = 0.002f;

  std::vector<Row> rows;
  std::vector<Json> sgemm_rows;
  Index cases = 0;
  for (Index L : o.lengths) cases += 7 + (L <= 1024 ? 2 : 0);
  Progress progress("bench attention", cases, progress_stream());
  Index done = 0;
  for (Index L : o.lengths) {
    Problem p(o.heads, L, o.dim);
    const double fwd_flops = attention_forward_flops(1, o.heads, L, L, o.dim, o.dim);
    const double bwd_flops = attention_backward_flops(1, o.heads, L, L, o.dim, o.dim);
    double sgemm_ms = sgemm_forward_ms(p, budget_s, max_repeats);
    progress.update(++done, "L=" + std::to_string(L) + " sgemm");
    const size_t first_row = rows.size();

    auto add = [&](const std::string& name, double flops, auto&& fn) {
      const double ms = time_ms(fn, budget_s, max_repeats);
      const double gflops = flops / (ms * 1e6);
      rows.push_back({name, L, ms, gflops, 0.0, NAN});
      progress.update(++done, "L=" + std::to_string(L) + " " + name);
      return rows.size() - 1;
    };
    auto forward = [&](const AttentionSpec& spec) {
      return [&p, spec] { attention_forward(p.out.data(), p.lse.data(), p.in, spec); };
    };
    const size_t fused_softmax = add("fused softmax fwd", fwd_flops, forward(softmax));
    const size_t fused_fuzzy = add("fused fuzzy m=2 fwd", fwd_flops, forward(fuzzy2));
    add("fused fuzzy m=1.5 fwd", fwd_flops, forward(fuzzy15));
    add("fused softmax fwd+bwd", fwd_flops + bwd_flops, [&] {
      attention_forward(p.out.data(), p.lse.data(), p.in, softmax);
      AttentionGrads g;
      g.dq = p.dq.data();
      g.dk = p.dk.data();
      g.dv = p.dv.data();
      std::fill(p.dq.begin(), p.dq.end(), 0.0f);  // backward adds into its buffers
      std::fill(p.dk.begin(), p.dk.end(), 0.0f);
      std::fill(p.dv.begin(), p.dv.end(), 0.0f);
      attention_backward(g, p.dout.data(), p.out.data(), p.lse.data(), p.in, softmax);
    });
    add("fused terms fwd", fwd_flops,
        [&] { attention_forward(p.out.data(), p.lse.data(), p.terms_in, terms); });
    const double visible = 0.5 * static_cast<double>(L + 1) / static_cast<double>(L);
    add("fused causal softmax fwd", fwd_flops * visible, forward(causal));
    if (L <= 1024) {  // the reference path is O(L^2) memory and slow by design
      AttentionSpec ref_softmax = softmax, ref_fuzzy = fuzzy2;
      ref_softmax.impl = ref_fuzzy.impl = AttentionImpl::kReference;
      const size_t r1 = add("reference softmax fwd", fwd_flops, forward(ref_softmax));
      const size_t r2 = add("reference fuzzy m=2 fwd", fwd_flops, forward(ref_fuzzy));
      rows[fused_softmax].speedup_vs_reference = rows[r1].ms / rows[fused_softmax].ms;
      rows[fused_fuzzy].speedup_vs_reference = rows[r2].ms / rows[fused_fuzzy].ms;
    }
    // sgemm again after the cases; the faster of the two runs is the less disturbed one
    sgemm_ms = std::min(sgemm_ms, sgemm_forward_ms(p, budget_s, max_repeats));
    const double sgemm_gflops = fwd_flops / (sgemm_ms * 1e6);
    sgemm_rows.push_back({{"L", L}, {"ms", sgemm_ms}, {"gflops", sgemm_gflops}});
    for (size_t r = first_row; r < rows.size(); ++r)
      rows[r].pct_sgemm = 100.0 * rows[r].gflops / sgemm_gflops;
  }
  progress.finish();

  if (o.json) {
    Json doc;
    doc["config"] = {{"B", 1}, {"H", o.heads}, {"D", o.dim}, {"threads", o.threads},
                     {"lengths", o.lengths}, {"quick", o.quick}};
    doc["simd"] = {{"variant", cpu_variant()}, {"available", cpu_variants_available()},
                   {"built", cpu_variants_built()}};
    doc["sgemm"] = sgemm_rows;
    Json results = Json::array();
    for (const auto& r : rows) {
      Json j = {{"case", r.name}, {"L", r.L}, {"ms", r.ms}, {"gflops", r.gflops},
                {"pct_of_sgemm", r.pct_sgemm}};
      j["speedup_vs_reference"] =
          std::isnan(r.speedup_vs_reference) ? Json(nullptr) : Json(r.speedup_vs_reference);
      results.push_back(j);
    }
    doc["results"] = results;
    std::printf("%s\n", doc.dump(2).c_str());
  } else {
    print_table(rows, sgemm_rows, o);
  }
}

}  // namespace

void add_attention_commands(CLI::App& app) {
  // `bench` may already exist (other areas add their own benchmarks under it).
  CLI::App* bench = nullptr;
  try {
    bench = app.get_subcommand("bench");
  } catch (const CLI::OptionNotFound&) {
    bench = app.add_subcommand("bench", "Benchmarks with same-run baselines");
  }
  bench->require_subcommand(1);
  auto opts = std::make_shared<BenchOptions>();
  CLI::App* cmd = bench->add_subcommand(
      "attention", "Time the attention engine against OpenBLAS sgemm of the same matmuls");
  cmd->add_flag("--json", opts->json, "Print a JSON document instead of a table");
  cmd->add_option("--lengths", opts->lengths, "Sequence lengths L (comma-separated)")
      ->delimiter(',');
  cmd->add_option("--threads", opts->threads, "Threads for kessel and OpenBLAS (<= 0: default)");
  cmd->add_option("--heads", opts->heads, "Heads H");
  cmd->add_option("--dim", opts->dim, "Head size D");
  cmd->add_flag("--quick", opts->quick, "Small sizes (L = 128, 256), fewer repeats");
  cmd->callback([opts] { run_bench(*opts); });
}

}  // namespace kessel::cli
