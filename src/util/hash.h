// Deterministic 64-bit FNV-1a: the same value on every run, platform and build, so hashed feature ids
// (hash % buckets) stored in a model stay valid.
#pragma once

#include <cstdint>
#include <string_view>

namespace kessel {

inline std::uint64_t fnv1a64(std::string_view bytes, std::uint64_t seed = 0xcbf29ce484222325ull) {
  std::uint64_t h = seed;
  for (unsigned char c : bytes) {
    h ^= c;
    h *= 0x100000001b3ull;
  }
  return h;
}

// h % buckets (buckets >= 1). For a power of two, the mask that equals it: a 64-bit division takes
// tens of cycles, and hashed features take one per id (16,384 buckets by default).
inline std::uint64_t bucket_of(std::uint64_t h, std::uint64_t buckets) {
  return (buckets & (buckets - 1)) == 0 ? h & (buckets - 1) : h % buckets;
}

}  // namespace kessel
