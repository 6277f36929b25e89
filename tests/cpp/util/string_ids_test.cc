#include "util/string_ids.h"

#include <gtest/gtest.h>

#include <random>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace kessel::util {
namespace {

// The ids and the "new" flags that std::unordered_map's emplace(s, map.size()) gives, over strings
// with many repeats (CJK characters, words, the empty string), from an empty table through several
// rehashes, and from one sized ahead.
TEST(StringIds, NumberAsAnUnorderedMapInTheOrderFirstSeen) {
  std::mt19937 rng(7);
  const std::vector<std::string> alphabet = {"的",   "我",     "a", "bc",    "",
                                             "快递", "[数字]", "?", "订单号"};
  std::vector<std::string> strings;
  for (int i = 0; i < 3000; ++i) {
    std::string s = alphabet[rng() % alphabet.size()];
    if (rng() % 3 == 0) s += std::to_string(rng() % 400);
    strings.push_back(s);
  }
  for (std::size_t expected : {0u, 1u, 7u, 129u, 4096u}) {
    StringIds ids(expected);
    std::unordered_map<std::string_view, int> plain;
    for (const std::string& s : strings) {
      const auto [it, inserted] = plain.emplace(s, static_cast<int>(plain.size()));
      const auto [id, fresh] = ids.insert(s);
      ASSERT_EQ(id, it->second) << "'" << s << "' expected=" << expected;
      ASSERT_EQ(fresh, inserted) << "'" << s << "' expected=" << expected;
      ASSERT_EQ(ids.view(id), s);
    }
    EXPECT_EQ(ids.size(), plain.size());
  }
}

}  // namespace
}  // namespace kessel::util
