// splitmix64 (Steele, Lea & Flood 2014): a tiny generator whose stream is the same on every platform
// and standard library, unlike std::shuffle and the std distributions. Training uses it so that a
// seed gives the same model byte for byte everywhere.
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

namespace kessel {

inline std::uint64_t splitmix64(std::uint64_t& state) {
  std::uint64_t z = (state += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

// Fisher-Yates over `v` with splitmix64.
template <typename T>
void shuffle_splitmix(std::vector<T>& v, std::uint64_t& state) {
  for (std::size_t i = v.size(); i > 1; --i) std::swap(v[i - 1], v[static_cast<std::size_t>(splitmix64(state) % i)]);
}

}  // namespace kessel
