// The customer's decision (decode_parts.h, decision_unit): how the customer chose to go on once the agent
// had answered (那不换了, 那我再考虑下, 那我就等着), which a summary ending on the agent's advice leaves the
// reader to guess.
#include <algorithm>

#include "decode_parts.h"

namespace kessel::summarize::decoding {

namespace {

// Whether `text` opens with a 那 of consequence and the customer's choice after it: 我, 就, 先, 再, 不, 还是
// or 只能 (那不换了, 那我先不支付定金了, 那就算了); not 那个, 那边 or 那么, and not an acknowledgement (那就好, 那就行,
// 那好吧 is a resignation the emotion rules see).
bool opens_with_a_choice(std::u32string_view text) {
  if (!text.starts_with(U"那")) return false;
  const std::u32string_view rest = text.substr(1);
  for (std::u32string_view ack : {U"就好", U"就行", U"就可以", U"就这样", U"就没事", U"就没问题", U"我知道"})
    if (rest.starts_with(ack)) return false;
  for (std::u32string_view choice : {U"我", U"就", U"先", U"再", U"不", U"还是", U"只能"})
    if (rest.starts_with(choice)) return true;
  return false;
}

}  // namespace

int decision_unit(const Context& c) {
  const Prepared& p = c.p;
  if (p.lang != Lang::zh) return -1;
  for (std::size_t u = p.units.size(); u-- > 0;) {
    if (p.units[u].speaker != text::Speaker::customer || !c.selectable[u]) continue;
    // Only the customer's last selectable unit: a choice they went back on is no decision.
    if (asks(c, u) || c.letters[u] < kDecisionMinLetters || !opens_with_a_choice(source_of(c, u))) return -1;
    return static_cast<int>(u);
  }
  return -1;
}

void add_decision(const Context& c, ConstrainedSelection& s) {
  if (!c.options.skip_fillers) return;
  const int v = decision_unit(c);
  if (v < 0 || std::find(s.units.begin(), s.units.end(), v) != s.units.end()) return;
  // What it decides on is what the agent said before it: a summary that shows none of the agent's words
  // before it leaves the choice about nothing.
  const bool agent_before = std::any_of(s.units.begin(), s.units.end(), [&](int u) {
    return u < v && c.p.units[static_cast<std::size_t>(u)].speaker == text::Speaker::agent;
  });
  if (agent_before) add_below_cap(c, s, v);
}

}  // namespace kessel::summarize::decoding
