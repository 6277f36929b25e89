// Picks one target's entry out of a Highway dispatch table (HWY_EXPORT) for a kernel family's
// table-returning function. Include it in the HWY_ONCE part of a family's source, after
// HWY_EXPORT(F), and call KESSEL_SIMD_ENTRY(F, target): it gives the function compiled for that
// target, or nullptr where this translation unit did not compile it. The index arithmetic is
// Highway's own (ChosenTarget::GetIndex): entry 0 is its lazy initializer, the dynamic targets follow
// in bit order, and the last entry is the emu128/scalar fallback.
#pragma once

#include <cstddef>
#include <cstdint>

#include "hwy/highway.h"

namespace kessel::simd::detail {

template <typename Fn, std::size_t N>
Fn table_entry(Fn const (&table)[N], std::int64_t target) {
  if ((target & HWY_TARGETS) == 0 || (target & (target - 1)) != 0) return nullptr;
  if constexpr (N == 1) {
    return target == HWY_STATIC_TARGET ? table[0] : nullptr;
  } else {
    const std::size_t index =
        (target == HWY_EMU128 || target == HWY_SCALAR)
            ? static_cast<std::size_t>(HWY_MAX_DYNAMIC_TARGETS + 1)
            : hwy::Num0BitsBelowLS1Bit_Nonzero64(static_cast<std::uint64_t>(HWY_CHOSEN_TARGET_SHIFT(target)));
    return index < N ? table[index] : nullptr;
  }
}

}  // namespace kessel::simd::detail

#define KESSEL_SIMD_ENTRY(FUNC, target) ::kessel::simd::detail::table_entry(HWY_DISPATCH_TABLE(FUNC), (target))
