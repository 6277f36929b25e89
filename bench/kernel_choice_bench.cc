// The measurement behind measured_kernel_table() (kessel/attention_choice.h; docs/benchmarks.md,
// "Length-based kernel choice"): the EACA customer attention's shape at each length U (Q = U / 2
// customer queries, every other unit; D = 18, the A = 16 query/key columns and the wheel's two; Dv = 64;
// a key boost; one thread), through the three paths EACA can take:
//   fused      Lq = Q over Lk = U (the baseline every ratio is against)
//   reference  the same call on the double-precision reference path
//   chunk C    Lq = Lk = U under the chunk-and-bridge mask, the customer rows kept (what EACA runs)
// For each: the median time of repeated forwards, the peak resident set of a child process that
// allocates the inputs and runs the forward once, less that of one that only allocates them, and
// for chunk-and-bridge how far its customer rows' outputs are from full attention's.
//
//   ./build/kernel_choice_bench [--lengths 8,16,...] [--chunks 128,256] [--reference-max 4096]

#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "kessel/attention.h"

namespace {

using kessel::Index;
constexpr Index kD = 18, kDv = 64;

struct Problem {
  Index U = 0, Q = 0;
  std::vector<float> q_cust, q_all, k, v, boost;
  std::vector<int> customer;  // unit of each customer query
  explicit Problem(Index units) : U(units), Q(std::max<Index>(1, units / 2)) {
    std::mt19937 rng(static_cast<unsigned>(units));
    std::uniform_real_distribution<float> uni(-1.0f, 1.0f);
    k.resize(U * kD);
    v.resize(U * kDv);
    boost.resize(U);
    for (auto& x : k) x = uni(rng);
    for (auto& x : v) x = uni(rng);
    for (auto& x : boost) x = uni(rng) > 0.8f ? 0.5f : 0.0f;  // a fifth of the units emotional
    q_all.assign(U * kD, 0.0f);
    q_cust.resize(Q * kD);
    for (Index i = 0; i < Q; ++i) {
      customer.push_back(static_cast<int>(std::min<Index>(U - 1, 2 * i + 1)));
      for (Index d = 0; d < kD; ++d) q_cust[i * kD + d] = q_all[customer.back() * kD + d] = uni(rng);
    }
  }
  kessel::AttentionInputs inputs(bool all_rows) const {
    kessel::AttentionInputs in;
    in.B = in.H = 1;
    in.Lq = all_rows ? U : Q;
    in.Lk = U;
    in.D = kD;
    in.Dv = kDv;
    in.q = all_rows ? q_all.data() : q_cust.data();
    in.k = k.data();
    in.v = v.data();
    in.key_boost = boost.data();
    return in;
  }
};

struct Path {
  std::string name;
  kessel::AttentionImpl impl = kessel::AttentionImpl::kFused;
  Index chunk = 0;
};

// The customer rows' outputs [Q, Dv] of one forward through `path`.
std::vector<float> run(const Problem& p, const Path& path) {
  kessel::AttentionSpec spec;
  spec.threads = 1;
  spec.impl = path.impl;
  spec.chunk_size = path.chunk;
  const bool all = path.chunk > 0;
  const auto in = p.inputs(all);
  std::vector<float> out(static_cast<std::size_t>(in.Lq * kDv));
  kessel::attention_forward(out.data(), nullptr, in, spec);
  if (!all) return out;
  std::vector<float> rows(static_cast<std::size_t>(p.Q * kDv));
  for (Index i = 0; i < p.Q; ++i)
    std::copy_n(out.data() + p.customer[i] * kDv, kDv, rows.data() + i * kDv);
  return rows;
}

double median_ms(const Problem& p, const Path& path) {
  std::vector<double> ms;
  double total = 0.0;
  while ((total < 300.0 && ms.size() < 50) || ms.size() < 3) {
    const auto t0 = std::chrono::steady_clock::now();
    run(p, path);
    ms.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
    total += ms.back();
    if (ms.back() > 2000.0) break;  // one slow run is enough to place it
  }
  std::sort(ms.begin(), ms.end());
  return ms[ms.size() / 2];
}

// Peak resident set (MB) of a fresh process (this program, exec'd with --child) that builds the
// problem and, with `path`, runs it once; a fresh process, so that nothing of this one's heap counts.
double child_peak_mb(const char* self, Index U, const Path* path) {
  const std::string u = std::to_string(U), impl = path ? path->name : "none",
                    chunk = std::to_string(path ? path->chunk : 0);
  const pid_t pid = fork();
  if (pid == 0) {
    execl(self, self, "--child", impl.c_str(), u.c_str(), chunk.c_str(), static_cast<char*>(nullptr));
    _exit(127);
  }
  int status = 0;
  rusage ru{};
  wait4(pid, &status, 0, &ru);
  return static_cast<double>(ru.ru_maxrss) / 1024.0;
}

int child_main(char** argv) {
  const std::string impl = argv[2];
  const Problem p(std::strtol(argv[3], nullptr, 10));
  if (impl == "none") return 0;
  const Path path{impl, impl == "reference" ? kessel::AttentionImpl::kReference : kessel::AttentionImpl::kFused,
                  std::strtol(argv[4], nullptr, 10)};
  run(p, path);
  return 0;
}

std::vector<Index> parse_list(const char* s) {
  std::vector<Index> out;
  for (const char* c = s; *c;) {
    out.push_back(std::strtol(c, const_cast<char**>(&c), 10));
    if (*c == ',') ++c;
  }
  return out;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc == 5 && !std::strcmp(argv[1], "--child")) return child_main(argv);
  const char* self = "/proc/self/exe";
  std::vector<Index> lengths = {8, 16, 32, 64, 128, 256, 512, 1024, 2048, 4096, 8192, 16384};
  std::vector<Index> chunks = {128, 256};
  Index reference_max = 4096;
  for (int i = 1; i + 1 < argc; i += 2) {
    if (!std::strcmp(argv[i], "--lengths")) lengths = parse_list(argv[i + 1]);
    if (!std::strcmp(argv[i], "--chunks")) chunks = parse_list(argv[i + 1]);
    if (!std::strcmp(argv[i], "--reference-max")) reference_max = std::strtol(argv[i + 1], nullptr, 10);
  }
  std::printf("EACA customer attention, Q = U/2, D = %ld, Dv = %ld, key boost, 1 thread; kernels: %s\n",
              static_cast<long>(kD), static_cast<long>(kDv), kessel::attention_kernel_variant());
  std::printf("| U | fused ms | MB | reference / fused | MB |");
  for (Index c : chunks) std::printf(" chunk %ld / fused | MB | max abs diff | mean abs diff |", static_cast<long>(c));
  std::printf("\n");
  for (Index U : lengths) {
    const Problem p(U);
    const double base_mb = child_peak_mb(self, U, nullptr);
    const Path fused{"fused"};
    const double fused_ms = median_ms(p, fused);
    const auto full = run(p, fused);
    std::printf("| %ld | %.4f | %.1f |", static_cast<long>(U), fused_ms, child_peak_mb(self, U, &fused) - base_mb);
    if (U <= reference_max) {
      const Path ref{"reference", kessel::AttentionImpl::kReference};
      std::printf(" %.2f | %.1f |", median_ms(p, ref) / fused_ms, child_peak_mb(self, U, &ref) - base_mb);
    } else {
      std::printf(" (not run) | |");
    }
    for (Index c : chunks) {
      const Path chunk{"chunk", kessel::AttentionImpl::kFused, c};
      const auto rows = run(p, chunk);
      double max_diff = 0.0, sum_diff = 0.0;
      for (std::size_t i = 0; i < rows.size(); ++i) {
        const double d = std::fabs(static_cast<double>(rows[i]) - full[i]);
        max_diff = std::max(max_diff, d);
        sum_diff += d;
      }
      std::printf(" %.2f | %.1f | %.3g | %.3g |", median_ms(p, chunk) / fused_ms, child_peak_mb(self, U, &chunk) - base_mb,
                  max_diff, sum_diff / static_cast<double>(rows.size()));
    }
    std::printf("\n");
    std::fflush(stdout);
  }
  return 0;
}
