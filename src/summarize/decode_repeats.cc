// The customer's repeats (decode_parts.h, drop_customer_repeats): a question or request the customer
// sent twice in a row (询问是上门维修吗 / 询问师傅，是上门维修吗) is shown once.
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

// Whether unit u may leave the summary: it holds no expressed emotion, is not the constraint's clause,
// answers nothing, and no shown unit answers it or goes on from it.
bool may_leave(const Context& c, const ConstrainedSelection& s, int u) {
  const auto ux = static_cast<std::size_t>(u);
  if (u == s.clause_unit || c.expressed[ux] != Context::Expressed::none || c.answers[ux] >= 0) return false;
  return std::none_of(s.units.begin(), s.units.end(), [&](int x) {
    const auto xx = static_cast<std::size_t>(x);
    return c.answers[xx] == u || c.continues[xx] == u;
  });
}

}  // namespace

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
