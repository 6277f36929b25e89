// What a shown question needs when the summary leaves its answer out: it leaves too (decode_parts.h,
// drop_unanswered_agent_questions). A reader who sees "Agent: is this the app or the website?" and no
// reply has learned nothing and wonders what was said.
#include <algorithm>
#include <string>

#include "decode_parts.h"
#include "summarize/render.h"
#include "summarize/reported_speech.h"

namespace kessel::summarize::decoding {

namespace {

// en: whether an agent unit opens with a request ("Can you DM us…?", "Please follow…"), which the
// customer answers by doing it, not by a reply the summary must show: report_request would report it.
bool is_request(const std::vector<text::Token>& tokens) {
  std::vector<char> keep(tokens.size(), 1);
  const std::vector<char> forced(tokens.size(), 0);
  std::vector<std::string> forms(tokens.size());
  return report_request(tokens, keep, forms, forced);
}

bool shown(const std::vector<int>& units, std::size_t u) {
  return std::find(units.begin(), units.end(), static_cast<int>(u)) != units.end();
}

// Whether the customer's next turn after q's run of the agent's units is selectable and shows none of its
// units.
bool answer_left_out(const Context& c, const std::vector<int>& units, std::size_t q) {
  const Prepared& p = c.p;
  const std::size_t v = customer_after(c, q);
  if (v >= p.units.size() || !c.selectable[v]) return false;
  for (std::size_t k = v; k < p.units.size() && p.units[k].turn == p.units[v].turn; ++k)
    if (shown(units, k)) return false;
  return true;
}

// zh: whether agent unit q is a yes/no question its line shows as one (客服:是退货么？), not an offer that
// holds a 能否 (帮您联系采销试试能否给您安排上门维修).
bool shown_asking_zh(const Context& c, std::size_t q) {
  const std::string& text = c.p.units[q].text;
  return asks_yes_or_no(c, q) && (render::ends_as_question(text) || render::agent_asks_without_mark(text));
}

// Whether the summary shows any unit of the customer's run of messages after q's run of the agent's: the
// reply may be a bare 是的 and what the customer went on to say (现在韩国号[数字]) its content.
bool reply_run_shown(const Context& c, const std::vector<int>& units, std::size_t q) {
  const Prepared& p = c.p;
  for (std::size_t v = customer_after(c, q); v < p.units.size() && p.units[v].speaker == text::Speaker::customer; ++v)
    if (shown(units, v)) return true;
  return false;
}

// Whether the other option of q (alternative_of: 还是还款呢) is shown: without q it is a fragment.
bool alternative_shown(const Context& c, const std::vector<int>& units, std::size_t q) {
  const int v = alternative_of(c, q);
  return v >= 0 && shown(units, static_cast<std::size_t>(v));
}

}  // namespace

bool drop_unanswered_agent_questions(const Context& c, ConstrainedSelection& s) {
  const Prepared& p = c.p;
  if (!c.options.skip_fillers) return false;
  bool dropped = false;
  const auto agent = [&](int u) { return p.units[static_cast<std::size_t>(u)].speaker == text::Speaker::agent; };
  std::vector<int> sorted = s.units;
  std::sort(sorted.begin(), sorted.end());
  for (int q : sorted) {
    const auto qx = static_cast<std::size_t>(q);
    if (!agent(q) || !asks(c, qx) || q == s.clause_unit) continue;
    if (p.lang == Lang::en && is_request(p.unit_tokens[qx])) continue;
    const bool left_out = p.lang == Lang::en ? answer_left_out(c, s.units, qx)
                                             : shown_asking_zh(c, qx) && customer_reply(c, qx, s.units) >= 0 &&
                                                   !reply_run_shown(c, s.units, qx) && !alternative_shown(c, s.units, qx);
    if (std::count_if(s.units.begin(), s.units.end(), agent) < 2 || !left_out) continue;
    s.units.erase(std::find(s.units.begin(), s.units.end(), q));
    dropped = true;
  }
  return dropped;
}

}  // namespace kessel::summarize::decoding
