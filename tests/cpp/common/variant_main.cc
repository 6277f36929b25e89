// main() of the kernel test binaries (attention, cluster, hmm, nn, util): runs the whole suite once
// per SIMD variant this CPU supports (kessel::cpu_variants_available(), "scalar" included), through
// GoogleTest's repeat loop, so every fused kernel is checked against the reference on every variant.
// KESSEL_TEST_VARIANTS=avx2,scalar narrows the list; a name the CPU cannot run is an error.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <sstream>
#include <string>
#include <vector>

#include "kessel/cpu.h"

namespace {

std::vector<std::string> variants_to_test() {
  const char* env = std::getenv("KESSEL_TEST_VARIANTS");
  if (env == nullptr || *env == '\0') return kessel::cpu_variants_available();
  std::vector<std::string> out;
  std::stringstream ss(env);
  for (std::string name; std::getline(ss, name, ',');)
    if (!name.empty()) out.push_back(name);
  return out;
}

class VariantPerIteration : public testing::EmptyTestEventListener {
 public:
  explicit VariantPerIteration(std::vector<std::string> variants) : variants_(std::move(variants)) {}
  void OnTestIterationStart(const testing::UnitTest&, int iteration) override {
    const std::string& v = variants_[static_cast<size_t>(iteration) % variants_.size()];
    kessel::set_cpu_variant(v);
    std::printf("== SIMD variant %s (%d of %zu)\n", v.c_str(), iteration + 1, variants_.size());
    std::fflush(stdout);
  }

 private:
  std::vector<std::string> variants_;
};

}  // namespace

int main(int argc, char** argv) {
  testing::InitGoogleTest(&argc, argv);
  std::vector<std::string> variants;
  try {
    variants = variants_to_test();
    for (const std::string& v : variants) kessel::ScopedCpuVariant check(v);  // fail early on a bad name
  } catch (const std::exception& e) {
    std::fprintf(stderr, "variant_main: %s\n", e.what());
    return 2;
  }
  if (variants.empty()) {
    std::fprintf(stderr, "variant_main: KESSEL_TEST_VARIANTS names no variant\n");
    return 2;
  }
  GTEST_FLAG_SET(repeat, static_cast<int>(variants.size()));
  testing::UnitTest::GetInstance()->listeners().Append(new VariantPerIteration(variants));
  return RUN_ALL_TESTS();
}
