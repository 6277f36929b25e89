// The process-wide choice of SIMD variant (include/kessel/cpu.h) as the kernel families see it: a
// Highway target bit (HWY_AVX2, HWY_NEON, ...) or kScalarReference for kessel's plain kernels. Each
// kernel family turns the choice into its own table of function pointers once per op
// (simd_table.h), so inner loops make plain indirect calls and never look at the CPU.
#pragma once

#include <cstdint>
#include <vector>

namespace kessel::simd {

inline constexpr std::int64_t kScalarReference = 0;

// The variant in use (see cpu.h for how it is chosen). Throws InvalidArgument for a bad KESSEL_CPU.
std::int64_t active_target();

// Variants this build holds and this CPU runs, best first, kScalarReference last.
std::vector<std::int64_t> available_targets();

// kessel's name of a variant: "scalar", "sse4", "avx2", "avx512", "neon", "sve", ...
const char* target_name(std::int64_t target);

}  // namespace kessel::simd
