// Which SIMD variant of kessel's kernels runs on this CPU.
//
// One build holds every variant its compiler can target (Highway's targets: sse4, avx2, avx512 on
// x86-64; neon, sve, sve2 on aarch64; emu128, Highway's portable baseline) plus "scalar", kessel's
// plain reference kernels. The process uses the best variant the CPU supports, or the one named by
// the environment variable KESSEL_CPU (read once, at the first kernel call), or the one set by
// set_cpu_variant(). Each op reads the choice once at its entry and runs that variant throughout.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace kessel {

// The variant kernels use now, e.g. "avx512". Throws InvalidArgument when KESSEL_CPU names a variant
// that is unknown, not in this build, or not supported by this CPU.
std::string cpu_variant();

// The variants this CPU can run, best first; "scalar" is always last.
std::vector<std::string> cpu_variants_available();

// Every variant this build contains, whether or not this CPU can run it.
std::vector<std::string> cpu_variants_built();

// Selects a variant by name for the whole process; "auto" (or "") restores the best one. Throws
// InvalidArgument naming the available variants for an unknown or unsupported name. Not meant to
// race with running kernels: an op already running keeps the variant it started with.
void set_cpu_variant(std::string_view name);

// Sets a variant for the lifetime of the object and restores the previous one (tests, benchmarks).
class ScopedCpuVariant {
 public:
  explicit ScopedCpuVariant(std::string_view name);
  ~ScopedCpuVariant();
  ScopedCpuVariant(const ScopedCpuVariant&) = delete;
  ScopedCpuVariant& operator=(const ScopedCpuVariant&) = delete;

 private:
  std::string previous_;
};

}  // namespace kessel
