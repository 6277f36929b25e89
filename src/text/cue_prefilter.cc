#include "cue_prefilter.h"

#include <algorithm>

namespace kessel::text::detail {

namespace {

using Kind = CueRequirement::Kind;

struct Unsupported {};  // a construct the analysis does not read: the pattern then requires nothing

constexpr std::size_t kMaxRange = 1024;  // a wider class range requires nothing

CueRequirement anything() { return {}; }

// Sets r.signature (CueRequirement) for r and its parts, from the leaves up.
void sign(CueRequirement& r) {
  for (CueRequirement& part : r.parts) sign(part);
  switch (r.kind) {
    case Kind::anything:
      return;
    case Kind::one_of_chars:
      for (wchar_t c : r.chars) set_filter_bit(r.signature, c);
      r.has_signature = true;
      return;
    case Kind::all_of:  // any one part's set will do
      for (const CueRequirement& part : r.parts)
        if (part.has_signature) {
          r.signature = part.signature;
          r.has_signature = true;
          return;
        }
      return;
    case Kind::one_of:  // one of the parts matches, so one of their sets is met
      r.has_signature = !r.parts.empty() &&
                        std::all_of(r.parts.begin(), r.parts.end(),
                                    [](const CueRequirement& part) { return part.has_signature; });
      if (!r.has_signature) return;
      for (const CueRequirement& part : r.parts)
        for (std::size_t w = 0; w < r.signature.size(); ++w) r.signature[w] |= part.signature[w];
      return;
  }
}

void sort_unique(std::vector<wchar_t>& v) {
  std::sort(v.begin(), v.end());
  v.erase(std::unique(v.begin(), v.end()), v.end());
}

class Parser {
 public:
  Parser(std::wstring_view p, bool icase, const std::ctype<wchar_t>& ctype)
      : p_(p), icase_(icase), ctype_(ctype) {}

  CueRequirement whole() {
    CueRequirement r = alternation();
    if (i_ != p_.size()) throw Unsupported{};  // an unmatched ')'
    return r;
  }

 private:
  bool at_end() const { return i_ >= p_.size(); }
  wchar_t peek() const { return p_[i_]; }
  wchar_t next() {
    if (at_end()) throw Unsupported{};
    return p_[i_++];
  }

  // One code point, with its cases under icase (what a text char may be translated to).
  void add_char(std::vector<wchar_t>& to, wchar_t c) const {
    to.push_back(c);
    if (icase_) {
      to.push_back(ctype_.tolower(c));
      to.push_back(ctype_.toupper(c));
    }
  }

  CueRequirement chars(std::vector<wchar_t> cs) const {
    sort_unique(cs);
    CueRequirement r;
    r.kind = Kind::one_of_chars;
    r.chars = std::move(cs);
    return r;
  }

  CueRequirement alternation() {
    std::vector<CueRequirement> alts{sequence()};
    while (!at_end() && peek() == L'|') {
      ++i_;
      alts.push_back(sequence());
    }
    if (alts.size() == 1) return std::move(alts.front());
    std::vector<wchar_t> leaves;  // one-of leaves merge into one
    CueRequirement r;
    r.kind = Kind::one_of;
    for (CueRequirement& a : alts) {
      if (a.kind == Kind::anything) return anything();
      if (a.kind == Kind::one_of_chars)
        leaves.insert(leaves.end(), a.chars.begin(), a.chars.end());
      else
        r.parts.push_back(std::move(a));
    }
    if (!leaves.empty()) r.parts.push_back(chars(std::move(leaves)));
    if (r.parts.size() == 1) return std::move(r.parts.front());
    return r;
  }

  CueRequirement sequence() {
    CueRequirement r;
    r.kind = Kind::all_of;
    while (!at_end() && peek() != L'|' && peek() != L')') {
      CueRequirement a = atom();
      if (quantifier_min() > 0 && a.kind != Kind::anything) r.parts.push_back(std::move(a));
    }
    if (r.parts.empty()) return anything();
    if (r.parts.size() == 1) return std::move(r.parts.front());
    return r;
  }

  // The least count the quantifier after an atom allows (1 without one).
  std::size_t quantifier_min() {
    if (at_end()) return 1;
    std::size_t min = 1;
    const wchar_t c = peek();
    if (c == L'*' || c == L'?') {
      min = 0;
      ++i_;
    } else if (c == L'+') {
      ++i_;
    } else if (c == L'{') {
      ++i_;
      min = number();
      if (peek_is(L',')) {
        ++i_;
        if (!peek_is(L'}')) number();
      }
      if (next() != L'}') throw Unsupported{};
    } else {
      return 1;
    }
    if (peek_is(L'?')) ++i_;  // lazy
    return min;
  }

  bool peek_is(wchar_t c) const { return !at_end() && peek() == c; }

  std::size_t number() {
    if (at_end() || peek() < L'0' || peek() > L'9') throw Unsupported{};
    std::size_t n = 0;
    while (!at_end() && peek() >= L'0' && peek() <= L'9')
      n = n * 10 + static_cast<std::size_t>(next() - L'0');
    return n;
  }

  static bool ascii_alnum(wchar_t c) {
    return (c >= L'a' && c <= L'z') || (c >= L'A' && c <= L'Z') || (c >= L'0' && c <= L'9');
  }

  CueRequirement atom() {
    const wchar_t c = next();
    switch (c) {
      case L'(': {
        if (peek_is(L'?')) {  // only (?: ... ) is read; a lookahead is not
          ++i_;
          if (next() != L':') throw Unsupported{};
        }
        CueRequirement r = alternation();
        if (next() != L')') throw Unsupported{};
        return r;
      }
      case L'[':
        return bracket();
      case L'\\': {
        const wchar_t e = next();
        if (ascii_alnum(e)) return anything();  // \b \d \w \s \1 \n \x \u ...: no literal
        std::vector<wchar_t> cs;
        add_char(cs, e);
        return chars(std::move(cs));
      }
      case L'.':
      case L'^':
      case L'$':
        return anything();
      case L'*':
      case L'+':
      case L'?':
      case L'{':
      case L'}':
      case L']':
        throw Unsupported{};
      default: {
        std::vector<wchar_t> cs;
        add_char(cs, c);
        return chars(std::move(cs));
      }
    }
  }

  // One member of a bracket (after the '[' or a previous member); false for an escape class.
  bool class_char(wchar_t& out) {
    const wchar_t c = next();
    if (c == L'[') throw Unsupported{};  // [:alpha:] and the like
    if (c != L'\\') {
      out = c;
      return true;
    }
    const wchar_t e = next();
    if (ascii_alnum(e)) return false;  // \d \s \w \b ...
    out = e;
    return true;
  }

  CueRequirement bracket() {
    const bool negated = peek_is(L'^');
    if (negated) ++i_;
    if (peek_is(L']')) throw Unsupported{};
    std::vector<wchar_t> cs;
    bool open = negated;  // the class may match a code point not listed
    while (next() != L']') {
      --i_;
      wchar_t lo = 0;
      if (!class_char(lo)) {
        open = true;
        continue;
      }
      if (peek_is(L'-') && i_ + 1 < p_.size() && p_[i_ + 1] != L']') {
        ++i_;
        wchar_t hi = 0;
        if (!class_char(hi) || hi < lo) throw Unsupported{};
        if (static_cast<std::size_t>(hi - lo) >= kMaxRange)
          open = true;
        else
          for (wchar_t x = lo; x <= hi; ++x) add_char(cs, x);
        continue;
      }
      add_char(cs, lo);
    }
    if (open || cs.empty()) return anything();
    return chars(std::move(cs));
  }

  std::wstring_view p_;
  std::size_t i_ = 0;
  bool icase_;
  const std::ctype<wchar_t>& ctype_;
};

}  // namespace

TextChars::TextChars(std::wstring_view text, bool icase, const std::ctype<wchar_t>& ctype) {
  chars_.reserve(icase ? 3 * text.size() : text.size());
  for (wchar_t c : text) {
    chars_.push_back(c);
    if (icase) {
      chars_.push_back(ctype.tolower(c));
      chars_.push_back(ctype.toupper(c));
    }
  }
  sort_unique(chars_);
  for (wchar_t c : chars_) set_filter_bit(filter_, c);
}

bool TextChars::may_hold_one_of(const CharBits& bits) const {
  std::uint64_t shared = 0;
  for (std::size_t w = 0; w < bits.size(); ++w) shared |= bits[w] & filter_[w];
  return shared != 0;
}

bool TextChars::has_any(const std::vector<wchar_t>& chars) const {
  return std::any_of(chars.begin(), chars.end(), [&](wchar_t c) {
    return may_hold(c) && std::binary_search(chars_.begin(), chars_.end(), c);
  });
}

CueRequirement cue_requirement(std::wstring_view pattern, bool icase,
                               const std::ctype<wchar_t>& ctype) {
  try {
    CueRequirement r = Parser(pattern, icase, ctype).whole();
    sign(r);
    return r;
  } catch (const Unsupported&) {
    return anything();
  }
}

bool may_match(const CueRequirement& r, const TextChars& text) {
  // A tree's signature first (a leaf's own search is as quick as its bits).
  if (r.kind != Kind::one_of_chars && r.has_signature && !text.may_hold_one_of(r.signature))
    return false;
  switch (r.kind) {
    case Kind::anything:
      return true;
    case Kind::one_of_chars:
      return text.has_any(r.chars);
    case Kind::all_of:
      return std::all_of(r.parts.begin(), r.parts.end(),
                         [&](const CueRequirement& p) { return may_match(p, text); });
    case Kind::one_of:
      return std::any_of(r.parts.begin(), r.parts.end(),
                         [&](const CueRequirement& p) { return may_match(p, text); });
  }
  return true;
}

}  // namespace kessel::text::detail
