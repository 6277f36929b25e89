#include "util/string_ids.h"

#include "util/hash.h"

namespace kessel::util {

namespace {

// FNV-1a, then a multiply-xorshift so that the low bits (the slot) depend on every byte.
std::uint64_t hash_of(std::string_view s) {
  std::uint64_t h = fnv1a64(s);
  h ^= h >> 32;
  h *= 0x9e3779b97f4a7c15ull;
  return h ^ (h >> 29);
}

}  // namespace

StringIds::StringIds(std::size_t expected) {
  std::size_t slots = 16;
  while (slots < 2 * expected) slots *= 2;
  slots_.assign(slots, -1);
  views_.reserve(expected);
  hashes_.reserve(expected);
}

std::pair<int, bool> StringIds::insert(std::string_view s) {
  const std::uint64_t h = hash_of(s);
  const std::size_t mask = slots_.size() - 1;
  for (std::size_t at = h & mask;; at = (at + 1) & mask) {
    const int id = slots_[at];
    if (id < 0) {
      const int fresh = static_cast<int>(views_.size());
      slots_[at] = fresh;
      views_.push_back(s);
      hashes_.push_back(h);
      if (2 * views_.size() > slots_.size()) rehash(2 * slots_.size());
      return {fresh, true};
    }
    const auto i = static_cast<std::size_t>(id);
    if (hashes_[i] == h && views_[i] == s) return {id, false};
  }
}

void StringIds::rehash(std::size_t slots) {
  slots_.assign(slots, -1);
  const std::size_t mask = slots - 1;
  for (std::size_t i = 0; i < views_.size(); ++i) {
    std::size_t at = hashes_[i] & mask;
    while (slots_[at] >= 0) at = (at + 1) & mask;
    slots_[at] = static_cast<int>(i);
  }
}

}  // namespace kessel::util
