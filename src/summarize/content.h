// Whether a summary unit carries content: the test that keeps fillers (在吗, 好的, "ok thanks"),
// courtesy formulas (感谢您对京东的支持，祝您生活愉快; "Is there anything else I can help with?")
// and agent sign-offs ("-Rach", "Phil.") out of a summary (DecodeOptions::skip_fillers).
//
// Rules over a unit's tokens (Prepared::unit_tokens) and a small phrase list per language: a unit
// is not content when, punctuation, emoji, emoticons, @mentions and URLs aside, it is covered
// entirely by listed phrases — fillers (好的, 嗯嗯, "thanks"), formula anchors (帮到您, 再见,
// "anything else") and glue (请问, 还有, 吗; "is", "there", "we"), glue only beside a formula
// anchor, so "可以吗" and "请问还有什么" stay content. Nothing else is listed, so any other word
// keeps a unit: 不行, 退货, 没有, 不是, 为什么, "No". A unit of nothing but emoji or punctuation is
// a filler. An English agent unit that is one capitalized word or initials behind a mark (^JK, /MT,
// -Rach), or a lone capitalized word that closes a turn of several sentences ("Phil."), is a
// sign-off; so is one that asks for a survey or a rating ("answering our survey on this link",
// "rate your experience", "how we did"). A Chinese agent unit that only opens the conversation, clause
// by clause (a pleasantry, an offer of help, a request for the order number, a hold: 小丸子很热情的哦，请问有
// 什么可以帮到您的吗), is a courtesy (agent_openings.h). A Chinese customer unit that is a menu entry they
// clicked (订单业务咨询, 返修退换货咨询, 账户与财务咨询: a name in 咨询 of at most kMenuEntryLetters Chinese
// letters, with no word of their own: 我, 想, 要, 都, 不, 吗) is a menu entry: a topic's name, not what
// they came about (用户:账户及财务咨询 opened a summary of a missing box); so is the header the chat system
// sends when the customer opens it from an order (咨询订单号:[订单编号]商品ID:2194131526). A Chinese unit of
// details alone (placeholders, digits and marks, no word: [订单编号], [数字]) is details: it says nothing to
// a reader (77 and 33 sentences of CSDS val's centrality summaries were such headers and details).
#pragma once

#include <cstddef>
#include <vector>

#include "kessel/summarize/summary.h"

namespace kessel::summarize {

enum class UnitContent { content, filler, courtesy, signoff, menu, details };
const char* to_string(UnitContent kind);

inline constexpr int kMenuEntryLetters = 8;

// What unit u of `p` (built by prepare(): it reads Prepared::unit_cps) is.
UnitContent classify_unit(const Prepared& p, std::size_t u);
// en: a word that thanks or signs a tweet off before a name, in lower case: thanks, thank, ty, thx,
// cheers, regards, rgds, best ("Ty - Darren", "Rgds,Sagar").
bool is_thanks(std::string_view lower);
// en: whether `word` (lower case) stands somewhere in the dialogue as a word in lower case, outside a
// handle, a tag or an address (@amazon, #amazon, amazon.com): then it is a common word, no name.
bool written_in_lower_case(const Prepared& p, std::string_view word);

// The decoder's mask under DecodeOptions::skip_fillers: 1 for each unit that carries content, or
// that holds an expressed customer emotion (the constraint may need it, and "气死了😡" is no
// filler).
std::vector<char> content_mask(const Prepared& p);

}  // namespace kessel::summarize
