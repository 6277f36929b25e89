// zh: an agent's unit that only opens the conversation (content.h's courtesy): pleasantries, an offer of
// help, a request to state the problem or give the order number, a hold. CSDS val's centrality
// summaries showed 107 of them (客服:小丸子很热情的哦，请问有什么可以帮到您的吗？) before this test.
#pragma once

#include <functional>
#include <span>
#include <string_view>
#include <vector>

#include "kessel/text/tokenize.h"

namespace kessel::summarize {

// How content.cc's phrase list covers a clause's tokens: 0 not at all, 1 with fillers, 2 with a formula,
// 3 with glue and no formula (您看可以吗, 好吗). The clause is a view of the unit's tokens.
using ClauseCover = std::function<int(std::span<const text::Token>)>;

// Whether clause `text` (its marks aside) of `letters` code points opens a conversation: at most
// kOpeningClauseLetters long, and
//   - a pleasantry: 很高兴为您服务, 一定是缘分让我们相遇, 小丸子很热情的哦, 让您久等了, 我是您的京东物流小红人, a wish
//     (祝您家大卖订单接到手软, 祝亲身体健康; not 自助祝福中, a menu's name); the agent
//     present, in at most kPresentLetters letters (小妹在的哦); an address of at most kAddressLetters letters that
//     opens the clause (客官您好, 掌柜大人, 亲爱的客户; not 已拆分亲爱的);
//   - an offer of help or a request to state the problem: 请问有什么可以帮到您的吗, 您是遇到什么问题了呢,
//     您方便简单描述下您的问题吗, 请问您是咨询之前的问题;
//   - a hold: 请您稍等, 还请您稍微等待一会儿, 小妹为您看下的恩, 正在为您积极查询哟 (为您/帮您/给您 or 你, perhaps an adverb, 查/看/核实, and at most
//     kLookUpRest letters to the clause's end; not 为您看了这个是厂家进行安装的, 帮您取消您看乐意吗, 给您审核退款);
//   - an invitation to come back, which closes rather than opens: 有任何疑问可以随时与我们联系, 有什么需要随时咨询哦
//     (随时 and 联系, 咨询, 来问, 呼唤, 反馈 or 找; not 有新订单随时可以申请的);
//   - a request for the order number or a contact: 您方便的提供一下您的订单号哦, 麻烦您提供一下电话、还有地址哦,
//     unless it says the one given is wrong (您提供得订单号错了哦).
// A hold or request that tells what the agent does meanwhile (这边反馈了请您稍等一下, 我帮您联系一下站点您稍等), refuses
// (实在无法帮您查询呢) or supposes (如果您可以提供一个降价的新订单) is none; nor is a request for the right one
// (麻烦您提供一下正确的地址哈: the one given was wrong). Waiting for something (建议您耐心等待一下退款, 等待配送审核退款)
// answers.
inline constexpr int kOpeningClauseLetters = 28, kAddressLetters = 6, kPresentLetters = 8;
// A hold may say how long it is: its [数字] (稍等[数字]分钟), and a clause of at most kWaitLetters letters
// after it that is the wait alone ([数字]分钟哦, after 还请您稍等[数字]-).
inline constexpr int kWaitLetters = 8;
inline constexpr std::size_t kLookUpRest = 5;
bool is_opening_clause(std::string_view text, int letters);
// A pleasantry alone (the first case above), which may hold the agent's number (家电小秘书[数字]号很高兴为您服务,
// [数字]客服小雨点为您服务).
bool is_pleasantry(std::string_view text, int letters);

// Whether a Chinese agent unit's tokens only open the conversation: every clause (between marks) is
// covered by the phrase list (`cover` 1 or 2; glue without a formula only as a tag question of at most
// kTagQuestionLetters letters: 您看可以吗, 好吗) or opens the conversation (is_opening_clause), and one at
// least is a formula (`cover` 2) or an opening. A clause with a number or a placeholder but [姓名]
// says something of the case, unless it is a pleasantry whose only placeholder is [数字].
inline constexpr int kTagQuestionLetters = 5;
bool only_opens_conversation(const std::vector<text::Token>& tokens, const ClauseCover& cover);

}  // namespace kessel::summarize
