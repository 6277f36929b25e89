// The customer's repeats (decode_parts.h, drop_customer_repeats): a question or request the customer
// sent twice in a row (询问是上门维修吗 / 询问师傅，是上门维修吗) is shown once. A unit whose words another
// shown unit of its speaker says in full (said_within: 客服:升级。 beside 客服:帮您升级[数字]小时内回复) is not
// shown.
#include <algorithm>

#include "decode_parts.h"

namespace kessel::summarize::decoding {

namespace {

// The negators a Chinese unit holds, as a bit set (不 没 未 别 无 非 否): two units that say the same
// words but one of them not (在线付款 / 不支持在线付款) are no repeat.
unsigned negators_of(std::u32string_view text) {
  constexpr std::u32string_view kNegators = U"不没未别无非否";
  unsigned bits = 0;
  for (char32_t cp : text) {
    const std::size_t i = kNegators.find(cp);
    if (i != std::u32string_view::npos) bits |= 1u << i;
  }
  return bits;
}

// The runs of digits a unit holds (商品ID:11951382): a unit that leaves must hold none the one that
// stays lacks (three 咨询订单号…商品ID lines of three products are no repeat).
std::vector<std::u32string_view> digit_runs(std::u32string_view text) {
  std::vector<std::u32string_view> runs;
  for (std::size_t i = 0; i < text.size();) {
    std::size_t j = i;
    while (j < text.size() && text[j] >= U'0' && text[j] <= U'9') ++j;
    if (j > i) runs.push_back(text.substr(i, j - i));
    i = j > i ? j : i + 1;
  }
  return runs;
}

bool holds_digits_of(std::u32string_view stays, std::u32string_view leaves) {
  const std::vector<std::u32string_view> kept = digit_runs(stays);
  for (std::u32string_view run : digit_runs(leaves))
    if (std::find(kept.begin(), kept.end(), run) == kept.end()) return false;
  return true;
}

// Whether customer units a < b say the same thing before the agent replied: no selectable agent unit
// that answers something (answers_nothing: not 稍等, not 为您服务) lies between them in the dialogue.
bool repeats_before_a_reply(const Context& c, int a, int b) {
  const auto ax = static_cast<std::size_t>(a), bx = static_cast<std::size_t>(b);
  if (c.overlap(ax, bx) < kSaysAgainOverlap) return false;
  if (negators_of(source_of(c, ax)) != negators_of(source_of(c, bx))) return false;
  for (std::size_t x = ax + 1; x < bx; ++x)
    if (c.p.units[x].speaker == text::Speaker::agent && c.selectable[x] && !answers_nothing(source_of(c, x)))
      return false;
  return true;
}

// Whether a shown unit answers unit u or goes on from it.
bool needed_by_shown(const Context& c, const ConstrainedSelection& s, int u) {
  return std::any_of(s.units.begin(), s.units.end(), [&](int x) {
    const auto xx = static_cast<std::size_t>(x);
    return c.answers[xx] == u || c.continues[xx] == u;
  });
}

// Whether unit u may leave the summary: it holds no expressed emotion, is not the constraint's clause,
// answers nothing, and no shown unit answers it or goes on from it.
bool may_leave(const Context& c, const ConstrainedSelection& s, int u) {
  const auto ux = static_cast<std::size_t>(u);
  if (u == s.clause_unit || c.expressed[ux] != Context::Expressed::none || c.answers[ux] >= 0) return false;
  return !needed_by_shown(c, s, u);
}

}  // namespace

bool said_within(const Context& c, std::size_t u, const std::vector<int>& chosen) {
  if (c.said_keys.empty() || c.expressed[u] != Context::Expressed::none) return false;
  // An answer says something beside its question; without the question it is what it says.
  if (c.answers[u] >= 0 && std::find(chosen.begin(), chosen.end(), c.answers[u]) != chosen.end()) return false;
  const std::u32string& key = c.said_keys[u];
  if (key.empty()) return false;
  const text::Speaker speaker = c.p.units[u].speaker;
  // Whether a chosen unit of the other speaker lies between units a and b.
  auto reply_between = [&](std::size_t a, std::size_t b) {
    const std::size_t lo = std::min(a, b), hi = std::max(a, b);  // no structured binding: clang cannot capture one
    return std::any_of(chosen.begin(), chosen.end(), [&](int x) {
      const auto xx = static_cast<std::size_t>(x);
      return xx > lo && xx < hi && c.p.units[xx].speaker != speaker;
    });
  };
  for (int a : chosen) {
    const auto ax = static_cast<std::size_t>(a);
    if (ax == u || c.p.units[ax].speaker != speaker) continue;
    const std::u32string& within = c.said_keys[ax];
    if (within.size() <= key.size() || within.find(key) == std::u32string::npos) continue;
    if (negators_of(within) != negators_of(key) || (asks(c, u) && !asks(c, ax)) || reply_between(ax, u)) continue;
    return true;
  }
  return false;
}

void drop_units_said_within(const Context& c, ConstrainedSelection& s) {
  std::vector<int> gone;
  for (int b : s.units)
    if (b != s.clause_unit && !needed_by_shown(c, s, b) && said_within(c, static_cast<std::size_t>(b), s.units))
      gone.push_back(b);
  std::erase_if(s.units, [&](int u) { return std::find(gone.begin(), gone.end(), u) != gone.end(); });
}

void drop_customer_repeats(const Context& c, ConstrainedSelection& s) {
  if (!c.options.skip_fillers || c.p.lang != Lang::zh || c.options.redundancy <= 0.0f) return;
  std::vector<int> sorted = s.units;
  std::sort(sorted.begin(), sorted.end());
  std::vector<int> gone;
  for (std::size_t i = 0; i < sorted.size(); ++i) {
    const int b = sorted[i];
    if (c.p.units[static_cast<std::size_t>(b)].speaker != text::Speaker::customer) continue;
    for (std::size_t j = 0; j < i; ++j) {
      const int a = sorted[j];
      if (c.p.units[static_cast<std::size_t>(a)].speaker != text::Speaker::customer) continue;
      if (std::find(gone.begin(), gone.end(), a) != gone.end() || !repeats_before_a_reply(c, a, b)) continue;
      // The one with more letters stays (保价协议什么时候退款 over 什么时候退款); on a tie the later, which
      // the agent's reply follows.
      const bool keep_a = c.letters[static_cast<std::size_t>(a)] > c.letters[static_cast<std::size_t>(b)];
      const int leaving = keep_a ? b : a;
      if (!may_leave(c, s, leaving) || !holds_digits_of(source_of(c, static_cast<std::size_t>(keep_a ? a : b)),
                                                        source_of(c, static_cast<std::size_t>(leaving))))
        continue;
      gone.push_back(leaving);
      if (keep_a) break;
    }
  }
  std::erase_if(s.units, [&](int u) { return std::find(gone.begin(), gone.end(), u) != gone.end(); });
}

}  // namespace kessel::summarize::decoding
