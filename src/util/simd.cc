// The SIMD variant registry: which Highway targets this build compiled, which of them the CPU runs,
// and which one the process uses (KESSEL_CPU, set_cpu_variant, or the best).
#include "util/simd.h"

#include <atomic>
#include <cstdlib>
#include <mutex>
#include <string>

#include "hwy/highway.h"
#include "kessel/cpu.h"
#include "kessel/error.h"

namespace kessel::simd {
namespace {

struct Named {
  std::int64_t target;
  const char* name;
};

// Every target kessel has a name for, best first within each architecture.
constexpr Named kNames[] = {
    {HWY_AVX3_DL, "avx512_dl"}, {HWY_AVX3, "avx512"},   {HWY_AVX2, "avx2"},
    {HWY_SSE4, "sse4"},         {HWY_SSSE3, "ssse3"},   {HWY_SVE2_128, "sve2_128"},
    {HWY_SVE_256, "sve_256"},   {HWY_SVE2, "sve2"},     {HWY_SVE, "sve"},
    {HWY_NEON, "neon"},         {HWY_EMU128, "emu128"}, {HWY_SCALAR, "hwy_scalar"},
};

// Targets compiled here, best first (lower bits are better in Highway's numbering).
std::vector<std::int64_t> built_targets() {
  std::vector<std::int64_t> out;
  for (std::int64_t t = HWY_TARGETS; t != 0; t &= t - 1) out.push_back(t & -t);
  return out;
}

std::int64_t best_target() {
  const auto avail = available_targets();
  return avail.front();  // never empty: kScalarReference is always last
}

std::string list(const std::vector<std::int64_t>& targets) {
  std::string s;
  for (std::int64_t t : targets) s += (s.empty() ? "" : ", ") + std::string(target_name(t));
  return s;
}

// Resolves a name to a target this CPU runs, or throws naming the choices.
std::int64_t resolve(std::string_view name, const char* who) {
  if (name.empty() || name == "auto") return best_target();
  if (name == "scalar") return kScalarReference;
  const auto avail = available_targets();
  for (const Named& n : kNames) {
    if (name != n.name) continue;
    for (std::int64_t t : avail)
      if (t == n.target) return t;
    bool built = false;
    for (std::int64_t t : built_targets()) built |= t == n.target;
    throw InvalidArgument(detail::concat(who, "'", name, "' is ",
                                         built ? "not supported by this CPU" : "not in this build",
                                         "; available here: ", list(avail), " (or auto)"));
  }
  throw InvalidArgument(detail::concat(who, "'", name, "' is not a variant; available here: ",
                                       list(avail), " (or auto)"));
}

constexpr std::int64_t kUnset = -1;
std::atomic<std::int64_t> g_target{kUnset};
std::once_flag g_env_once;
std::string g_env_error;  // set once, when KESSEL_CPU is bad

void read_environment() {
  const char* env = std::getenv("KESSEL_CPU");
  try {
    g_target.store(resolve(env ? env : "", "KESSEL_CPU="));
  } catch (const InvalidArgument& e) {
    g_env_error = e.what();
  }
}

}  // namespace

const char* target_name(std::int64_t target) {
  if (target == kScalarReference) return "scalar";
  for (const Named& n : kNames)
    if (n.target == target) return n.name;
  return "unknown";
}

std::vector<std::int64_t> available_targets() {
  std::vector<std::int64_t> out;
  const std::int64_t supported = hwy::SupportedTargets();
  for (std::int64_t t : built_targets())
    if (t & supported) out.push_back(t);
  out.push_back(kScalarReference);
  return out;
}

std::int64_t active_target() {
  std::int64_t t = g_target.load(std::memory_order_acquire);
  if (t != kUnset) return t;
  std::call_once(g_env_once, read_environment);
  t = g_target.load(std::memory_order_acquire);
  if (t == kUnset) throw InvalidArgument(g_env_error);
  return t;
}

}  // namespace kessel::simd

namespace kessel {

std::string cpu_variant() { return simd::target_name(simd::active_target()); }

std::vector<std::string> cpu_variants_available() {
  std::vector<std::string> out;
  for (std::int64_t t : simd::available_targets()) out.emplace_back(simd::target_name(t));
  return out;
}

std::vector<std::string> cpu_variants_built() {
  std::vector<std::string> out;
  for (std::int64_t t : simd::built_targets()) out.emplace_back(simd::target_name(t));
  out.emplace_back("scalar");
  return out;
}

void set_cpu_variant(std::string_view name) {
  const std::int64_t t = simd::resolve(name, "set_cpu_variant: ");
  std::call_once(simd::g_env_once, [] {});  // an explicit choice overrides KESSEL_CPU for good
  simd::g_target.store(t, std::memory_order_release);
}

ScopedCpuVariant::ScopedCpuVariant(std::string_view name) : previous_(cpu_variant()) {
  set_cpu_variant(name);
}
ScopedCpuVariant::~ScopedCpuVariant() { set_cpu_variant(previous_); }

}  // namespace kessel
