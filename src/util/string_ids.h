// Dense ids for the distinct strings of a small set (a dialogue's token forms), numbered in the
// order they are first seen, as `std::unordered_map<std::string_view, int>` numbers them with
// `emplace(s, map.size())`. Open addressing over the caller's views (the bytes must outlive the
// ids): no node is allocated per string, and one table holds them all.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>
#include <utility>
#include <vector>

namespace kessel::util {

class StringIds {
 public:
  // `expected`: about how many distinct strings will come (the table grows past it anyway).
  explicit StringIds(std::size_t expected = 0);

  // The id of `s`, and whether `s` was new (its id is then size() - 1).
  std::pair<int, bool> insert(std::string_view s);
  std::size_t size() const { return views_.size(); }
  std::string_view view(int id) const { return views_[static_cast<std::size_t>(id)]; }

 private:
  void rehash(std::size_t slots);

  std::vector<int> slots_;               // -1: empty; else an id. A power of two, under half full
  std::vector<std::string_view> views_;  // by id
  std::vector<std::uint64_t> hashes_;    // by id
};

}  // namespace kessel::util
