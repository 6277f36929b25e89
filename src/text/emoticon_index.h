// The tokenizer's emoticons grouped by their first code point (internal to src/text).
//
// Why: the tokenizer asks at almost every position whether an emoticon starts there, and tried the
// whole list (72 built-ins) against each CJK character; grouped, a position only meets the
// emoticons that start with its code point, and most positions meet none.
#pragma once

#include <algorithm>
#include <array>
#include <string>
#include <vector>

#include "kessel/text/utf8.h"

namespace kessel::text {

class EmoticonIndex {
 public:
  // `emoticons` as UTF-8 (lossy); empty entries are left out, as no position can hold one.
  explicit EmoticonIndex(const std::vector<std::string>& emoticons) {
    for (const auto& e : emoticons) {
      const DecodedText d = decode_utf8(e, Utf8Mode::lossy);
      if (!d.cps.empty()) longest_first_.emplace_back(d.cps.begin(), d.cps.end());
    }
    std::stable_sort(longest_first_.begin(), longest_first_.end(),
                     [](const auto& a, const auto& b) { return a.size() > b.size(); });
    // Filtering keeps the order, so each group is longest first and, among equal lengths, in list
    // order.
    for (const auto& e : longest_first_) {
      if (e.front() < kAscii)
        ascii_[e.front()].push_back(e);
      else
        other_.push_back(e);
    }
  }

  // Every emoticon, longest first (stable: equal lengths keep the list's order).
  const std::vector<std::u32string>& longest_first() const { return longest_first_; }

  // The emoticons that may start at code point `cp`, in longest_first() order: for an ASCII `cp`
  // exactly those that start with it; the few that start with another code point share one group,
  // which the caller's comparison with the text filters.
  const std::vector<std::u32string>& candidates(char32_t cp) const {
    return cp < kAscii ? ascii_[cp] : other_;
  }

 private:
  static constexpr char32_t kAscii = 0x80;
  std::vector<std::u32string> longest_first_;
  std::array<std::vector<std::u32string>, kAscii> ascii_;
  std::vector<std::u32string> other_;
};

}  // namespace kessel::text
