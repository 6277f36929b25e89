// A literal prefilter for the emotion cues' regular expressions (emotion_cues.cc).
//
// std::wregex tries every start position of a turn, for every cue, even when the turn holds none of
// the cue's words. The prefilter reads a pattern once and derives what any non-empty match must
// contain: a tree of "one of these code points" leaves joined by all-of (a sequence) and one-of (an
// alternation). A turn that lacks it cannot match, so the regex is not run on it; a turn that has
// it is matched by the regex as before. The requirement only ever over-approximates: whatever the
// analysis does not understand (a negated class, \d, ., a lookahead, a back-reference) requires
// nothing, so a cue whose pattern says nothing useful always runs. Matches, and so mentions, are
// the same as without the prefilter (tests/cpp/text/cue_prefilter_test.cc checks this on every
// customer turn of the real validation sets).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <locale>
#include <string_view>
#include <vector>

namespace kessel::text::detail {

// TextChars' filter: a bit per code point modulo kFilterBits.
inline constexpr std::size_t kFilterBits = 1024;
using CharBits = std::array<std::uint64_t, kFilterBits / 64>;
inline std::size_t filter_bit(wchar_t c) { return static_cast<std::size_t>(c) % kFilterBits; }
// Sets code point c's bit in `bits` (a cue's signature, a text's filter).
inline void set_filter_bit(CharBits& bits, wchar_t c) {
  bits[filter_bit(c) / 64] |= std::uint64_t{1} << (filter_bit(c) % 64);
}

struct CueRequirement {
  enum class Kind { anything, one_of_chars, all_of, one_of };
  Kind kind = Kind::anything;
  std::vector<wchar_t> chars;         // one_of_chars: sorted, unique
  std::vector<CueRequirement> parts;  // all_of, one_of
  // The filter bits of code points of which every match holds at least one (a one-of leaf's
  // chars; one part's set for all_of; the union of the parts' for one_of), when `has_signature`. A
  // text whose filter shares none of them cannot match: a few ANDs where the tree's walk
  // binary-searched leaf after leaf, for the two dozen cues that every customer turn is checked
  // against.
  bool has_signature = false;
  CharBits signature{};
};

// The distinct code points of a text, sorted; with `icase`, each one's lower and upper case too
// (through `ctype`, the facet the regex matches with). A bit per code point modulo kFilterBits
// answers most lookups (a cue's characters are mostly absent from a turn) before the binary search.
class TextChars {
 public:
  TextChars(std::wstring_view text, bool icase, const std::ctype<wchar_t>& ctype);
  // Whether the text holds one of `chars` (any order).
  bool has_any(const std::vector<wchar_t>& chars) const;
  // False only when the text holds no code point whose filter bit `bits` has.
  bool may_hold_one_of(const CharBits& bits) const;

 private:
  bool may_hold(wchar_t c) const {
    return (filter_[filter_bit(c) / 64] >> (filter_bit(c) % 64)) & 1u;
  }
  std::vector<wchar_t> chars_;
  CharBits filter_{};
};

// What every non-empty match of an ECMAScript `pattern` contains. With `icase`, each literal also
// stands for its lower and upper case through `ctype`.
CueRequirement cue_requirement(std::wstring_view pattern, bool icase,
                               const std::ctype<wchar_t>& ctype);

// False only when `text` cannot hold a match.
bool may_match(const CueRequirement& r, const TextChars& text);

}  // namespace kessel::text::detail
