// zh: an agent's unit that only opens the conversation (agent_openings.h).
#include "summarize/agent_openings.h"

#include <algorithm>
#include <initializer_list>
#include <string>

#include "kessel/text/utf8.h"

namespace kessel::summarize {

namespace {

bool holds(std::string_view clause, std::initializer_list<std::string_view> words) {
  return std::any_of(words.begin(), words.end(),
                     [&](std::string_view w) { return clause.find(w) != std::string_view::npos; });
}

bool looks_up_for_customer(std::string_view clause) {
  const std::vector<char32_t> cps = text::decode_utf8(clause, text::Utf8Mode::lossy).cps;
  const std::u32string_view t(cps.data(), cps.size());
  for (std::u32string_view who : {U"为您", U"帮您", U"给您", U"为你", U"帮你", U"给你"})
    for (std::size_t at = t.find(who); at != std::u32string_view::npos; at = t.find(who, at + 1)) {
      std::size_t k = at + who.size();
      for (std::u32string_view adverb : {U"积极", U"火速", U"仔细", U"马上", U"加急", U"去"})
        if (t.substr(k).starts_with(adverb)) k += adverb.size();
      const std::u32string_view rest = t.substr(k);
      for (std::u32string_view verb : {U"查", U"看", U"核实"})
        if (rest.starts_with(verb) && rest.size() - verb.size() <= kLookUpRest) return true;
    }
  return false;
}

bool asks_problem_or_offers_help(std::string_view clause) {
  if (holds(clause, {"遇到什么问题", "什么问题", "之前的问题", "之前问题", "其他的问题", "新的问题", "问题是什么"}))
    return true;
  if (clause.find("描述") != std::string_view::npos && clause.find("问题") != std::string_view::npos) return true;
  return clause.find("有什么") != std::string_view::npos && holds(clause, {"帮", "效劳", "需要", "问题", "服务"});
}

bool holds_or_asks_details(std::string_view clause) {
  if (holds(clause, {"反馈", "联系了", "联系一下", "联系中", "申请", "提交", "催", "试", "转接", "无法", "不能", "没", "不",
                     "如果"}))
    return false;
  if (holds(clause, {"稍等", "稍候", "稍微等", "稍稍等", "稍作等待"}) || looks_up_for_customer(clause)) return true;
  return holds(clause, {"提供", "复制"}) && holds(clause, {"订单", "号码", "电话", "地址", "联系方式", "服务单", "ID"}) &&
         !holds(clause, {"错", "正确"});
}

// An invitation to come back, the close of a conversation: 有任何疑问可以随时与我们联系, 有什么需要随时咨询哦,
// 后续有问题可以随时联系小妹 (随时 and a verb of getting in touch). 有新订单随时可以申请的 tells what the customer
// may do and is none.
// A clause of at most five letters with 随时 and no verb promises the same (妹子随时, 随时恭候, 随时在).
bool invites_return(std::string_view clause) {
  if (clause.find("随时") == std::string_view::npos) return false;
  return holds(clause, {"联系", "咨询", "来问", "呼唤", "反馈", "找", "恭候", "等您"}) || clause.size() <= 5 * 3;
}

// The condition an invitation to come back opens with: 如果今后再遇到什么疑问, 后续有问题 (a later
// question or need), as the first clause of 如果今后再遇到什么疑问，请亲亲随时来问妹子哦.
// Not a condition on the product (如果是商品质量问题是不需要承担运费的) nor one that asks (如果检测出不是呢).
bool supposes_a_later_question(std::string_view clause) {
  return holds(clause, {"如果", "若", "以后", "今后", "后续", "日后"}) &&
         holds(clause, {"遇到什么疑问", "遇到什么问题", "遇到任何问题", "遇到问题", "遇到疑问", "有什么疑问", "有任何疑问",
                        "有疑问", "有其他疑问", "有其他问题", "有任何问题", "有什么问题"});
}

// A wish: 祝您生活愉快, 祝亲身体健康, 妹子祝福您幸福快乐 (not 自助祝福中, a menu's name).
bool is_wish(std::string_view clause) { return holds(clause, {"祝您", "祝你", "祝亲", "祝福您", "祝福你", "祝宝宝"}); }

bool starts_with_any(std::string_view text, std::initializer_list<std::string_view> words) {
  return std::any_of(words.begin(), words.end(), [&](std::string_view w) { return text.starts_with(w); });
}

}  // namespace

bool is_pleasantry(std::string_view text, int letters) {
  if (letters > kOpeningClauseLetters) return false;
  if (holds(text, {"为您服务", "很高兴", "缘分", "欢迎", "很热情", "又见到您", "荣幸", "为了能为您", "为了更好",
                   "为了更快", "久等", "我是您的", "分内之事", "尽力为您", "为您解答"}) ||
      is_wish(text))
    return true;
  if (letters <= kPresentLetters && holds(text, {"在的哦", "在的哟", "在的呢", "在的呀"})) return true;
  return letters <= kAddressLetters && starts_with_any(text, {"客官", "掌柜", "尊敬的", "亲爱的", "亲爱滴", "亲爱哒", "嗨"});
}

bool is_opening_clause(std::string_view text, int letters) {
  if (letters > kOpeningClauseLetters) return false;
  return is_pleasantry(text, letters) || asks_problem_or_offers_help(text) || holds_or_asks_details(text) ||
         invites_return(text) || supposes_a_later_question(text);
}

bool only_opens_conversation(const std::vector<text::Token>& tokens, const ClauseCover& cover) {
  std::size_t clause_begin = 0, clause_end = 0;  // the clause: tokens [clause_begin, clause_end)
  std::string text;
  int letters = 0;
  bool says_a_fact = false;  // a number or a placeholder but a name
  bool other_fact = false;   // one but [数字], which a pleasantry may hold (the agent's number)
  bool opening = false;
  bool wishing = false;  // a clause before this one wishes
  bool holding = false;  // the clause before this one puts the customer on hold
  auto close_clause = [&]() {
    if (clause_end == clause_begin) return true;
    const int covered = cover(std::span<const text::Token>(tokens).subspan(clause_begin, clause_end - clause_begin));
    // A hold may say how long (还请您稍等[数字]-[数字]分钟哦): its [数字], and a clause of the wait alone after it.
    const bool timed_hold = !other_fact && says_a_fact && holds_or_asks_details(text) && holds(text, {"稍等", "稍候"});
    const bool wait_alone = holding && !other_fact && letters <= kWaitLetters && holds(text, {"分钟", "秒"});
    const bool opens = other_fact    ? false
                       : says_a_fact ? is_pleasantry(text, letters) || timed_hold || wait_alone
                                     : is_opening_clause(text, letters);
    holding = holds_or_asks_details(text) || (holding && wait_alone);
    // Glue alone is part of an opening only as its tag question (您看可以吗, 好吗); 能到的 answers.
    const bool tag_question = covered == 3 && letters <= kTagQuestionLetters && (text.ends_with("吗") || text.ends_with("么"));
    // The clauses after a wish go on wishing (祝您合家幸福，心情美美哒，钱包鼓鼓哒).
    const bool ok = opens || ((covered == 1 || covered == 2 || tag_question || wishing) && !says_a_fact);
    wishing = wishing || is_wish(text);
    opening = opening || covered == 2 || opens;
    clause_begin = clause_end;
    text.clear();
    letters = 0;
    says_a_fact = other_fact = false;
    return ok;
  };
  for (std::size_t i = 0; i < tokens.size(); ++i) {
    const text::Token& t = tokens[i];
    if (text::is_punctuation(t)) {
      if (!close_clause()) return false;
      clause_begin = clause_end = i + 1;
      continue;
    }
    if (t.kind == text::TokenKind::number || (t.text.front() == '[' && t.text != "[姓名]")) says_a_fact = true;
    if (t.kind == text::TokenKind::number || (t.text.front() == '[' && t.text != "[姓名]" && t.text != "[数字]"))
      other_fact = true;
    clause_end = i + 1;
    text += t.text;
    letters += static_cast<int>(t.char_end - t.char_start);
  }
  return close_clause() && opening;
}

}  // namespace kessel::summarize
