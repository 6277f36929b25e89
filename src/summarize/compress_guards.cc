// The meaning guards of zh token deletion (compress_zh.h, meaning_guards): what deletion must keep so that a
// rendered sentence neither flips a negation, nor stops asking, nor loses who did what to whom.
#include <algorithm>
#include <cstring>
#include <iterator>
#include <string>
#include <string_view>
#include <vector>

#include "kessel/text/segment.h"
#include "kessel/text/utf8.h"
#include "summarize/compress_zh.h"
#include "summarize/faith_cues.h"
#include "summarize/zh_questions.h"

namespace kessel::summarize {

namespace {

// Whether the n bytes at x and y are the same, byte by byte: the texts here are a few bytes long and
// mostly differ in their first bytes, cheaper than a call to memcmp.
bool same_bytes(const char* x, const char* y, std::size_t n) {
  for (std::size_t i = 0; i < n; ++i)
    if (x[i] != y[i]) return false;
  return true;
}

// Whether two tokens' texts written together are `word`, without building the joined string. Two
// one-character tokens have the length of every two-character word, so the bytes decide.
bool spell_together(const text::Token& a, const text::Token& b, std::string_view word) {
  const std::size_t n = a.text.size();
  return n + b.text.size() == word.size() && same_bytes(a.text.data(), word.data(), n) &&
         same_bytes(b.text.data(), word.data() + n, b.text.size());
}

// The meaning guards of zh token deletion: a character that negates (its whole word is kept with it),
// the question particle, numbers and placeholders.
bool is_negator_char(const text::Token& t) {
  if (t.kind != text::TokenKind::cjk) return false;
  static constexpr std::u32string_view kNegators = U"不没未别无非否";
  std::size_t at = 0;
  return kNegators.find(text::next_code_point(t.text, &at)) != std::u32string_view::npos;
}

// Two characters that say how sure the speaker is (应该 可能 好像 ...).
bool is_hedge(const text::Token& a, const text::Token& b) {
  static constexpr std::string_view kHedges[] = {"应该", "应当", "可能", "好像", "似乎", "也许", "大概", "估计", "或许"};
  return std::any_of(std::begin(kHedges), std::end(kHedges), [&](std::string_view w) { return spell_together(a, b, w); });
}

// A condition (two characters): without it the sentence states as fact what was only supposed
// ("如果是由配送原因导致的" must not become "是由配送原因导致的", nor "是会员的话…" "是会员的…").
bool is_condition(const text::Token& a, const text::Token& b) {
  static constexpr std::string_view kConditions[] = {"如果", "假如", "要是", "若是", "假设", "除非", "只要", "万一", "的话"};
  return std::any_of(std::begin(kConditions), std::end(kConditions), [&](std::string_view w) { return spell_together(a, b, w); });
}

bool is_question_mark(const text::Token& t) {
  return t.kind == text::TokenKind::punct && (t.text.find('?') != std::string::npos || t.text.find("？") != std::string::npos);
}

// How many tokens just before token i name a third person (他 她 它 他们 她们, 快递 商家 师傅 客服 卖家 物流
// 小哥: who said what a 说 at i reports), or 0. Longest first.
std::size_t third_person_before(std::span<const text::Token> tokens, std::size_t i) {
  static constexpr std::string_view kSpeakers[] = {"他们", "她们", "快递", "商家", "师傅", "客服", "卖家", "物流",
                                                   "小哥", "他", "她", "它"};
  constexpr std::size_t kLongest = 6;  // bytes of the longest speaker word
  // The CJK tokens just before i, at least kLongest bytes of them where there are.
  std::string before;
  for (std::size_t j = i; j-- > 0 && before.size() < kLongest && tokens[j].kind == text::TokenKind::cjk;)
    before.insert(0, tokens[j].text);
  for (std::string_view w : kSpeakers) {
    if (!std::string_view(before).ends_with(w)) continue;
    // The tokens that spell w: from the end, until their bytes reach its length.
    std::size_t bytes = 0, k = 0;
    while (bytes < w.size()) bytes += tokens[i - 1 - k++].text.size();
    return k;
  }
  return 0;
}

// The first token of the clause that token i is in: after the punctuation before it, or 0.
std::size_t clause_start(std::span<const text::Token> tokens, std::size_t i) {
  while (i > 0 && tokens[i - 1].kind != text::TokenKind::punct) --i;
  return i;
}

// The first question word among tokens [start, end) (什么 and 怎么 through their 么, 哪 谁 几 啥 咋, 多少,
// 如何): its position, or `end` when there is none.
std::size_t question_word_before(std::span<const text::Token> tokens, std::size_t start, std::size_t end) {
  for (std::size_t j = start; j < end; ++j) {
    if (first_cp_in(tokens[j], zh_question::kQuestionWordChars)) return j;
    if (j + 1 < end && ((spells(tokens[j], "多") && spells(tokens[j + 1], "少")) ||
                        (spells(tokens[j], "如") && spells(tokens[j + 1], "何"))))
      return j;
  }
  return end;
}

// Whether a 呢 at i asks: its clause holds a question word (什么 怎么 哪 谁 几 啥 咋 多少 如何) or opens
// with 那 (那我的钱呢), unless the clause does a service for the customer (那小妹这边为您取消售后呢: 为您, 帮您,
// 给您). Without one it softens a statement (这边帮您申请换货呢).
bool asks_with_ne(std::span<const text::Token> tokens, std::size_t i, bool customer) {
  const std::size_t start = clause_start(tokens, i);
  auto serves = [&] {
    for (std::size_t j = start; j + 1 < i; ++j)
      if (first_cp_in(tokens[j], U"为帮给") && tokens[j].text.size() == 3 && first_cp_in(tokens[j + 1], U"您你"))
        return true;
    return false;
  };
  if (spells(tokens[start], "那") && !serves()) return true;
  std::u32string before;  // 打开之后呢: the clause before the 呢 asks what comes next
  for (std::size_t j = start; j < i; ++j)
    for (std::size_t at = 0; at < tokens[j].text.size();) before.push_back(text::next_code_point(tokens[j].text, &at));
  if (zh_question::asks_what_next(before) || (customer && zh_question::asks_about_bare_noun(before))) return true;
  return question_word_before(tokens, start, i) < i;
}

// A modal verb, which makes a yes/no question ask whether something can, must or will be done.
bool is_modal(const std::string& word) {
  for (std::string_view m : {"能", "会", "要", "可以", "需要", "能够", "应该", "必须", "得", "可"})
    if (word == m) return true;
  return false;
}

// A clause-final 把 after a word is the customer's typo for 吧 (数据线里面有把): a real 把 takes an object
// after it. It is guarded as the 吧 is.
bool is_tag_particle(std::span<const text::Token> tokens, std::size_t i) {
  const text::Token& t = tokens[i];
  if (spells(t, "吧") || spells(t, "嘛")) return true;
  return spells(t, "把") && i > 0 && tokens[i - 1].kind == text::TokenKind::cjk;
}

// Whether the token(s) right before token i end a verb whose object is the person after it (联系, 告诉,
// 告知, 转告, 通知, 送, 让, 叫, 问, 找, 骗, 催, 提醒, 答应, 回复, and V给: 发给, 寄给, 还给 …): without that person who did what to whom is
// lost ("这边告知我链接需要在线咨询" is not "告知链接需要在线咨询").
bool object_taking_verb(std::span<const text::Token> tokens, std::size_t i) {
  if (i == 0 || tokens[i - 1].kind != text::TokenKind::cjk) return false;
  // Not the 问 of 请问, 询问 or 想问 (请问我的快递到哪里: 我 is the subject of what is asked).
  if (spells(tokens[i - 1], "问") && i >= 2 && first_cp_in(tokens[i - 2], U"请询想")) return false;
  if (first_cp_in(tokens[i - 1], U"送让叫问找骗催")) return true;
  if (i < 2) return false;
  // A verb with 给, to whom it goes: 发给我看 must not become 发给看.
  if (spells(tokens[i - 1], "给") && first_cp_in(tokens[i - 2], U"发寄交还留转卖退打借")) return true;
  for (std::string_view verb : {"联系", "告诉", "告知", "转告", "通知", "提醒", "答应", "回复"})
    if (spell_together(tokens[i - 2], tokens[i - 1], verb)) return true;
  return false;
}

// Whether `word` (UTF-8) is a verb that takes an object: one jieba's dictionary tags a verb (要, 买), or a
// one-letter verb of choosing, buying or sending that it tags otherwise (选 is zg).
bool ends_a_verb(const std::string& word) {
  const std::vector<char32_t> cps = text::decode_utf8(word, text::Utf8Mode::lossy).cps;
  if (cps.size() == 1 && std::u32string_view(U"选挑买要用换退拿发寄改订").find(cps[0]) != std::u32string_view::npos)
    return true;
  return text::Segmenter::default_segmenter().word_class(std::u32string_view(cps.data(), cps.size())) ==
         text::WordClass::verb;
}

// A word that needs the predicate after it: a degree word or the copula ("就是麻烦", "太慢", "很好").
bool leads_to_a_predicate(std::string_view word) {
  static constexpr std::string_view kWords[] = {"是", "就是", "很", "太", "真", "非常", "特别", "比较", "有点",
                                                "挺", "好", "超", "蛮", "更", "最", "十分", "极其", "相当", "超级"};
  return std::find(std::begin(kWords), std::end(kWords), word) != std::end(kWords);
}

// The meaning guards of a zh unit's tokens (compress.h): what deletion must keep so that the sentence
// neither flips nor stops asking. A negator (its word, through word_keep) and the word it negates, the
// next word of its clause ("快递还没到" may become "没到", never "没" or "还到"); a clause-final question
// particle 吗 么 呢 (么 ends 什么 and 怎么 too; 呢 where it asks: asks_with_ne, and after a customer's bare
// noun, 手机呢), before modal particles and the address 亲; the question words 谁 哪 啥 咋 怎 多少 如何;
// question marks; numbers and placeholders; 给 before a person.
// A consequence after a supposition or a warning stays one: 就 (and 才) in a clause after one that
// supposes (is_condition: 如果, 要是, 万一, …的话) or warns (别, 不然, 否则). "别到时不生效，我活动就作废了"
// must not become the fact "别到时不生效，活动作废了".
void guard_consequences(std::span<const text::Token> tokens, std::vector<char>& guarded) {
  bool supposed = false;  // a clause before this one supposes or warns
  bool supposes = false;  // this clause does
  for (std::size_t i = 0; i < tokens.size(); ++i) {
    const text::Token& t = tokens[i];
    if (t.kind == text::TokenKind::punct) {
      supposed = supposed || supposes;
      supposes = false;
      continue;
    }
    if (spells(t, "别") || (i + 1 < tokens.size() && (is_condition(t, tokens[i + 1]) || spell_together(t, tokens[i + 1], "不然") ||
                                                       spell_together(t, tokens[i + 1], "否则"))))
      supposes = true;
    if (supposed && (spells(t, "就") || spells(t, "才"))) {
      guarded[i] = 1;  // with what follows: 就作废, not a 就 left alone
      if (i + 1 < tokens.size() && tokens[i + 1].kind == text::TokenKind::cjk) guarded[i + 1] = 1;
    }
  }
}

// Whether any of the tokens asks: a question mark, 吗 or 么, or a question word (怎 哪 啥 咋 什 谁 多少 几).
bool asks_anywhere(std::span<const text::Token> tokens) {
  for (std::size_t j = 0; j < tokens.size(); ++j)
    if (is_question_mark(tokens[j]) || first_cp_in(tokens[j], U"吗么怎哪啥咋什谁几") ||
        (j + 1 < tokens.size() && spells(tokens[j], "多") && spells(tokens[j + 1], "少")))
      return true;
  return false;
}

// The code points of tokens [from, to), stopping at the first punctuation (the end of their clause).
std::u32string clause_code_points(std::span<const text::Token> tokens, std::size_t from, std::size_t to) {
  std::u32string cps;
  for (std::size_t k = from; k < std::min(to, tokens.size()) && tokens[k].kind != text::TokenKind::punct; ++k)
    for (std::size_t at = 0; at < tokens[k].text.size();) cps += text::next_code_point(tokens[k].text, &at);
  return cps;
}

// Whether the clause from token `from` on holds a question word (zh_question::holds_question_word: 什么,
// 怎么, 哪, 多少 …) or 是否: what a check before it (看下, 查一下) asks about.
bool embeds_question(std::span<const text::Token> tokens, std::size_t from) {
  const std::u32string clause = clause_code_points(tokens, from, tokens.size());
  return zh_question::holds_question_word(clause) || clause.find(U"是否") != std::u32string::npos;
}

// One zh unit's tokens under the meaning guards, and the flags the guards set (1: deletion keeps the token).
struct Guarding {
  std::span<const text::Token> tokens;
  std::span<const int> words;  // each token's word; empty: each token is one
  bool customer;
  std::vector<char> guarded;

  int word_of(std::size_t i) const { return words.size() == tokens.size() ? words[i] : static_cast<int>(i); }
  // The text of token i's word (可以, not 以).
  std::string word_text(std::size_t i) const {
    std::size_t b = i, e = i + 1;
    while (b > 0 && word_of(b - 1) == word_of(i)) --b;
    while (e < tokens.size() && word_of(e) == word_of(i)) ++e;
    std::string w;
    for (std::size_t k = b; k < e; ++k) w += tokens[k].text;
    return w;
  }
};

// A final question particle (吗, a tag in 吧, an asking 呢) and what it asks about: the word before it, a modal in
// its clause, the question word of a 呢, and the mark that closes its clause.
void guard_asking_particles(Guarding& g, std::size_t i) {
  const std::span<const text::Token> tokens = g.tokens;
  const std::size_t T = tokens.size();
  const text::Token& t = tokens[i];
  const bool asking_ne = spells(t, "呢") && asks_with_ne(tokens, i, g.customer) && ends_clause(tokens, i);
  // A clause-final 吧 or 嘛 asks for agreement or presumes ("不需要自己承担运费是吧", "数据线里面有吧",
  // "您有新订单嘛"; the typo 把 too, is_tag_particle); without it the sentence asserts. Where it only softens a suggestion ("您先试试吧")
  // keeping it changes nothing. The tag and the word before it stay.
  const bool tag = i > 0 && is_tag_particle(tokens, i) && ends_clause(tokens, i);
  if (tag) g.guarded[i - 1] = 1;
  // A 吧 before 和, 与, 跟, 或 or 的 is no particle but the end of a name the segmenter split (买的冰吧和电话:
  // 冰吧, a fridge): it and the letter before it stay, or the name is cut (买的冰和电话). After 好, 行, 算,
  // 对, 是 or 前 it is the particle that runs on unpunctuated (好吧查过确实是中奖了, 先前吧电脑寄过去).
  if (spells(t, "吧") && i > 0 && tokens[i - 1].kind == text::TokenKind::cjk && i + 1 < T &&
      first_cp_in(tokens[i + 1], U"和与跟或的") && !first_cp_in(tokens[i - 1], U"好行算对是前"))
    g.guarded[i - 1] = g.guarded[i] = 1;
  const bool final_ma = first_cp_in(t, U"吗么") && ends_clause(tokens, i);
  const bool final_particle = final_ma || asking_ne || tag;
  // What a final 吗 asks about stays with it: "您看可以吗" may become "可以吗", never "吗" alone.
  // A pronoun there brings its verb (给我吗, not 我吗).
  if (final_ma && i > 0 && tokens[i - 1].kind == text::TokenKind::cjk) {
    g.guarded[i - 1] = 1;
    if (i > 1 && first_cp_in(tokens[i - 1], U"我你您他她") && tokens[i - 2].kind == text::TokenKind::cjk) g.guarded[i - 2] = 1;
    // The modal before that word asks with it: "地址错了能改吗" must not become "改吗" (can it be
    // changed, not will you change it), nor "需要退回去吗" become "退回去吗".
    std::size_t w = i - 1;
    while (w > 0 && g.word_of(w - 1) == g.word_of(i - 1)) --w;
    if (w > 0 && is_modal(g.word_text(w - 1))) g.guarded[w - 1] = 1;  // its word through word_keep
    // So does a modal further back in the clause: "我能单独取消其中一单吗" asks whether it can be done, and
    // without its 能 the report reads 询问单独取消其中一单吗. jieba makes one word of a pronoun and 能 (我能).
    for (std::size_t m = clause_start(tokens, i); m + 1 < w; ++m) {
      if (!spells(tokens[m], "能") && !spells(tokens[m], "可") && !spells(tokens[m], "会")) continue;
      const std::string wt = g.word_text(m);
      const bool after_pronoun = m > 0 && g.word_of(m - 1) == g.word_of(m) && wt.size() == 6 &&
                                 first_cp_in(tokens[m - 1], U"我你您他她") && is_modal(wt.substr(3));
      if (is_modal(wt) || after_pronoun) g.guarded[m] = 1;
    }
  }
  if (asking_ne) {
    // The question word asks with the 呢 ("什么原因…呢" must not become "原因…呢"): it stays, and its
    // word with it (什么, through word_keep).
    const std::size_t start = clause_start(tokens, i);
    const std::size_t q = question_word_before(tokens, start, i);
    if (q < i) g.guarded[q] = 1;
    if (q == i && spells(tokens[start], "那")) g.guarded[start] = 1;  // 那我的钱呢: 那 is what asks
    if (q + 1 < i && (spells(tokens[q], "多") || spells(tokens[q], "如"))) g.guarded[q + 1] = 1;
  }
  if (!final_particle) return;
  g.guarded[i] = 1;
  // The mark that closes an asking clause stays, so that the particle still ends a clause ("明天能到吗，
  // 明后天…" must not run on as "明天到吗明后天").
  for (std::size_t j = i + 1; j < T; ++j)
    if (tokens[j].kind == text::TokenKind::punct) {
      g.guarded[j] = 1;
      break;
    }
}

// The predicate a degree word or 是 leads to at a clause's end, and 就 before a closing 可以.
void guard_predicate(Guarding& g, std::size_t i) {
  const std::span<const text::Token> tokens = g.tokens;
  const std::size_t T = tokens.size();
  const text::Token& t = tokens[i];
  // The predicate a degree word or 是 leads to at a clause's end stays: "不是自营的退货就是麻烦" must not
  // become "就是。", nor "速度太慢了" "速度太了".
  if (t.kind == text::TokenKind::cjk && ends_clause(tokens, i) && !first_cp_in(t, U"了的吧呢吗么啊呀啦哈嘛哦噢喔呗亲") &&
      (i + 1 >= T || g.word_of(i + 1) != g.word_of(i))) {
    std::size_t w = i;
    while (w > 0 && g.word_of(w - 1) == g.word_of(i)) --w;
    if (w > 0 && tokens[w - 1].kind == text::TokenKind::cjk && leads_to_a_predicate(g.word_text(w - 1))) g.guarded[i] = 1;
  }
  // 就 before a closing 可以(了) says that is all it takes ("登录就可以了" must not become "登录可以", nor "邮件给我
  // 就可以了" "邮件给可以").
  if (spells(t, "就") && i + 2 < T && spells(tokens[i + 1], "可") && spells(tokens[i + 2], "以")) {
    const std::size_t after = i + 3 < T && spells(tokens[i + 3], "了") ? i + 3 : i + 2;
    if (ends_clause(tokens, after)) g.guarded[i] = 1;
  }
}

// Numbers, placeholders, question marks and question words, and what a question word asks about.
void guard_question_words(Guarding& g, std::size_t i) {
  const std::span<const text::Token> tokens = g.tokens;
  const std::size_t T = tokens.size();
  const text::Token& t = tokens[i];
  if (t.kind == text::TokenKind::number || t.kind == text::TokenKind::placeholder || is_question_mark(t) ||
      first_cp_in(t, U"谁哪啥咋怎"))
    g.guarded[i] = 1;
  // What a question word asks about stays with it: the verb after 怎么, 咋 or 如何 ("那怎么拿" must not
  // become "怎么"), 有 before 什么 or 啥 ("有什么解决办法么", not "什么解决办法么"), and the verb after 可以 or
  // 能 in a clause that asks with a question word ("大概多久可以拿", not "多久可以").
  if (i + 1 < T && tokens[i + 1].kind == text::TokenKind::cjk) {
    // The verb: the next token, past a 给 and its person before another (能给我退款: 退款; 怎么给他: 给).
    std::size_t verb = i + 1;
    if (spells(tokens[i + 1], "给")) {
      const std::size_t after = after_pronoun(tokens, i + 2);
      if (after < T && tokens[after].kind == text::TokenKind::cjk) verb = after;
    }
    const bool how = (spells(t, "么") && i > 0 && spells(tokens[i - 1], "怎")) || spells(t, "咋") ||
                     (spells(t, "何") && i > 0 && spells(tokens[i - 1], "如"));
    if (how && !first_cp_in(tokens[verb], U"么样办回吗呢啊")) g.guarded[verb] = 1;
    if (spells(t, "有") && first_cp_in(tokens[i + 1], U"什啥")) g.guarded[i] = 1;
    if (spells(t, "能") || (spells(t, "以") && i > 0 && spells(tokens[i - 1], "可"))) {
      const std::size_t start = clause_start(tokens, i);
      bool how_long = false;  // 多久, 多长: a question word question_word_before does not count
      for (std::size_t j = start; j + 1 < i; ++j)
        how_long = how_long || (spells(tokens[j], "多") && first_cp_in(tokens[j + 1], U"久长"));
      if (how_long || question_word_before(tokens, start, i) < i) g.guarded[verb] = 1;
    }
  }
  // 多少 and 如何 ask anywhere in a clause ("运费多少", "如何申请售后"); 怎 above keeps 怎么 and 怎样.
  if (i + 1 < T && ((spells(t, "多") && spells(tokens[i + 1], "少")) || (spells(t, "如") && spells(tokens[i + 1], "何"))))
    g.guarded[i] = g.guarded[i + 1] = 1;
}

// For whom and to whom: 给 before a person or ending its clause with a pronoun; a pronoun before 来.
void guard_for_whom(Guarding& g, std::size_t i) {
  const std::span<const text::Token> tokens = g.tokens;
  const std::size_t T = tokens.size();
  const text::Token& t = tokens[i];
  // For whom: 给 before a person ("本来就是给朋友买的" must not become "就是朋友买的", where the friend
  // bought it).
  if (spells(t, "给") && i + 1 < T && is_person_word(tokens, after_pronoun(tokens, i + 1))) g.guarded[i] = 1;
  // To whom, ending its clause: "是要寄给我的吗" must not become "是要寄给的吗", nor "会退款给我" "会退款给",
  // nor "您电话给我" "电话" (给 and its pronoun stay: 发给您。, 退给我们了). Before a verb 给您 is the agent's
  // courtesy (给您寄出) and may go, and so may it after an amount (退30元给您).
  if (spells(t, "给") && i > 0 && tokens[i - 1].kind == text::TokenKind::cjk && tokens[i - 1].text.size() == 3 &&
      !first_cp_in(tokens[i - 1], U"0123456789元块")) {
    const std::size_t after = after_pronoun(tokens, i + 1);
    if (after > i + 1 && (after == T || tokens[after].kind == text::TokenKind::punct ||
                          first_cp_in(tokens[after], U"的吗吧呢了啊呀")))
      for (std::size_t j = i; j < after; ++j) g.guarded[j] = 1;
  }
  // Who will do it: a pronoun before 来 and a verb ("那我来联系" must not become "来联系", an order).
  if (spells(t, "来") && i > 0 && i + 1 < T && tokens[i + 1].kind == text::TokenKind::cjk &&
      first_cp_in(tokens[i - 1], U"我你您他她") && tokens[i - 1].text.size() == 3)
    g.guarded[i - 1] = g.guarded[i] = 1;
}

// Who did what, and what is wanted: 你们, 想, 我要.
void guard_who_and_wanting(Guarding& g, std::size_t i) {
  const std::span<const text::Token> tokens = g.tokens;
  const std::size_t T = tokens.size();
  const text::Token& t = tokens[i];
  // Who did what, and wanting to know: 你们 (the company: "你们说今天到" must not become the customer's
  // "说今天到"), and 想 before 知道 / 问 / 了解 ("想知道啥时候发" is not "知道啥时候发").
  if (spells(t, "你") && i + 1 < T && spells(tokens[i + 1], "们")) g.guarded[i] = g.guarded[i + 1] = 1;
  if (spells(t, "想") && i + 1 < T && first_cp_in(tokens[i + 1], U"知问了")) g.guarded[i] = g.guarded[i + 1] = 1;
  // Wanting is not doing: "想申请退货" must not become "申请退货", nor "我想找回来" "找回来".
  if (spells(t, "想") && i + 1 < T && tokens[i + 1].kind == text::TokenKind::cjk) g.guarded[i] = 1;
  // So is 我要 before a verb, one word to jieba: "我要开专用发票的" must not become "开专用发票的", nor "我要退货"
  // the bare "退货". Not in a unit that asks, which is reported (询问退货怎么处理, not 询问我要退货怎么处理).
  if (spells(t, "要") && i > 0 && i + 1 < T && g.word_of(i - 1) == g.word_of(i) && spells(tokens[i - 1], "我") &&
      tokens[i + 1].kind == text::TokenKind::cjk && ends_a_verb(g.word_text(i + 1)) && !asks_anywhere(tokens))
    g.guarded[i] = 1;
}

// Which one: a demonstrative and measure word after 是, 这种.
void guard_which_thing(Guarding& g, std::size_t i) {
  const std::span<const text::Token> tokens = g.tokens;
  const std::size_t T = tokens.size();
  const text::Token& t = tokens[i];
  // Which one: a demonstrative and the measure word of a thing after 是 identify ("请问是这个订单吗" must not
  // become "请问是订单", is it an order at all; not 是这样的 or 就是这边, which point at no thing), and 这种 says
  // "this kind" ("之前没有出现这种情况" is not "之前没有出现情况", nothing ever happened).
  if ((spells(t, "这") || spells(t, "那")) && i + 1 < T &&
      ((i > 0 && spells(tokens[i - 1], "是") && first_cp_in(tokens[i + 1], U"个种款单件台位只张笔")) ||
       (spells(t, "这") && spells(tokens[i + 1], "种"))))
    g.guarded[i] = g.guarded[i + 1] = 1;
}

// When and how sure: 已 and its verb, 说是, 才, 会, 目前 / 暂时 before a no.
void guard_time_and_hearsay(Guarding& g, std::size_t i) {
  const std::span<const text::Token> tokens = g.tokens;
  const std::size_t T = tokens.size();
  const text::Token& t = tokens[i];
  // Done is not to do: 已 (and 已经) stays with the verb it marks done, past a 为, 给, 帮 or 替 and its pronoun,
  // which may go as a pair ("已为您查询，包裹在…" may become "已查询，…", not "查询，…"; "站点很快已经反馈过去" not
  // "站点很快过去" nor "站点很快已经过去"). Not the particle 而已 ("只是一个周期而已").
  if (spells(t, "已") && !(i > 0 && spells(tokens[i - 1], "而")) && i + 1 < T && tokens[i + 1].kind == text::TokenKind::cjk) {
    std::size_t verb = spells(tokens[i + 1], "经") ? i + 2 : i + 1;
    for (std::size_t j = i; j < verb && j < T; ++j) g.guarded[j] = 1;
    if (verb < T && first_cp_in(tokens[verb], U"为给帮替") && tokens[verb].text.size() == 3 &&
        after_pronoun(tokens, verb + 1) > verb + 1)
      verb = after_pronoun(tokens, verb + 1);  // 为您 and the like may go, as a pair
    if (verb < T && tokens[verb].kind == text::TokenKind::cjk) g.guarded[verb] = 1;
  }
  // Hearsay is not fact: "说是从京东PC端找回来" must not become "是从京东PC端找回来".
  if (spells(t, "说") && i + 1 < T && spells(tokens[i + 1], "是")) g.guarded[i] = g.guarded[i + 1] = 1;
  // Only then, only now: 才 as a word of its own says the thing came late or needs a condition
  // ("今天才收到货" is a complaint, "今天收到货" none; "财务才可以审核" is not "财务可以审核"). Not 刚才 or 人才.
  if (spells(t, "才") && g.word_text(i) == "才") g.guarded[i] = 1;
  // Will is not is: 会 as a word of its own before a verb stays ("我会在服务单预留上您的电话号码" must not become
  // the order "在服务单预留上电话号码", nor "售后是会处理的" "售后是处理").
  if (spells(t, "会") && i + 1 < T && tokens[i + 1].kind == text::TokenKind::cjk && g.word_text(i) == "会")
    g.guarded[i] = 1;
  // Not now is not never: 目前 or 暂时 before a no in its clause stays ("目前是无法申请的" is not "是无法申请").
  if (i + 1 < T && ((spells(t, "目") && spells(tokens[i + 1], "前")) || (spells(t, "暂") && spells(tokens[i + 1], "时"))))
    for (std::size_t j = i + 2; j < T && j < i + 6 && tokens[j].kind == text::TokenKind::cjk; ++j)
      if (first_cp_in(tokens[j], U"无不没未")) {
        g.guarded[i] = g.guarded[i + 1] = 1;
        break;
      }
}

// How much and which: 只 / 仅, 但 / 或 inside a unit, 另外 / 其中 before a count.
void guard_limits(Guarding& g, std::size_t i) {
  const std::span<const text::Token> tokens = g.tokens;
  const std::size_t T = tokens.size();
  const text::Token& t = tokens[i];
  // Only: 只 or 仅 as a word of its own, or 只有 / 仅有, limits what follows ("但只退了[数字]元安装服务费" must not
  // become "退[数字]元安装服务费", all of it refunded; "只有增票吗" is not "有增票吗"). 只是 (merely) may go.
  // But and or inside a unit: 但, 但是, 或, 或者 or 或是 after words of the unit stay ("申请成功但是显示的是待退款"
  // must not run on as "申请成功显示的是待退款"; "联系供应商客服或是在商品提问区" must not fuse two ways into one).
  // Opening the unit they may go with the turn they answer.
  if (first_cp_in(t, U"只仅但或") && t.text.size() == 3) {
    const std::string word = g.word_text(i);
    const bool only = word == "只" || word == "仅" || word == "只有" || word == "仅有";
    const bool links = (word == "但" || word == "但是" || word == "或" || word == "或者" || word == "或是") &&
                       std::any_of(tokens.begin(), tokens.begin() + static_cast<std::ptrdiff_t>(i),
                                   [](const text::Token& k) { return k.kind == text::TokenKind::cjk; });
    if (only || links)
      for (std::size_t j = i; j < T && g.word_of(j) == g.word_of(i); ++j) g.guarded[j] = 1;
  }
  // Which one: 另外 or 其中 before a count or 的 picks one of several ("取消其中一个，另外一个也会关联取消"
  // must not become "取消一个，一个也会关联取消"). As a connective ("另外，…") it may go.
  if (i + 2 < T && ((spells(t, "另") && spells(tokens[i + 1], "外")) || (spells(t, "其") && spells(tokens[i + 1], "中"))) &&
      (first_cp_in(tokens[i + 2], U"一两二三几个的些") || tokens[i + 2].kind == text::TokenKind::number ||
       spells(tokens[i + 2], "[数字]")))
    g.guarded[i] = g.guarded[i + 1] = 1;
}

// Whose words: a third person before 说.
void guard_whose_words(Guarding& g, std::size_t i) {
  const std::span<const text::Token> tokens = g.tokens;
  const text::Token& t = tokens[i];
  // Whose words: a third person before 说 stays with it ("他说会返回" must not become the customer's own
  // "说会返回"; 他们说, 快递说, 商家说).
  if (spells(t, "说"))
    if (const std::size_t who = third_person_before(tokens, i); who > 0)
      for (std::size_t j = i - who; j <= i; ++j) g.guarded[j] = 1;
}

// Counts and codes: a count in words and its measure word, letters against a number, a number's unit.
void guard_counts(Guarding& g, std::size_t i) {
  const std::span<const text::Token> tokens = g.tokens;
  const std::size_t T = tokens.size();
  const text::Token& t = tokens[i];
  // A count in words is a number: "每次只能申请一件商品" must not become "每次只能申请商品" (the numeral
  // and its measure word stay).
  if (first_cp_in(t, U"一二两三四五六七八九十百千万半几") && i + 1 < T && first_cp_in(tokens[i + 1], faith::kMeasureWords)) {
    g.guarded[i] = g.guarded[i + 1] = 1;
    // "Only" before the count limits it: "就一个手机给我了" must not become "一个手机给我了" (only the phone
    // was handed over), nor "只一件" "一件".
    if (i > 0 && g.word_text(i - 1).size() == 3 && first_cp_in(tokens[i - 1], U"就只仅")) g.guarded[i - 1] = 1;
  }
  // Letters written against a number or placeholder are part of one code (VB[数字], JD123, 3C): the
  // code stays whole.
  const auto is_count = [](const text::Token& x) {
    return x.kind == text::TokenKind::number || x.kind == text::TokenKind::placeholder;
  };
  if (t.kind == text::TokenKind::word &&
      ((i + 1 < T && is_count(tokens[i + 1]) && tokens[i + 1].byte_start == t.byte_end) ||
       (i > 0 && is_count(tokens[i - 1]) && tokens[i - 1].byte_end == t.byte_start)))
    g.guarded[i] = 1;
  // A number in digits, or CSDS's [数字], keeps its unit: "签收起[数字]天内" must not become "签收起[数字]"
  // (how many of what is lost), nor "[数字]元" "[数字]".
  if ((t.kind == text::TokenKind::number || spells(t, "[数字]")) && i + 1 < T &&
      (first_cp_in(tokens[i + 1], faith::kMeasureWords) || first_cp_in(tokens[i + 1], U"元块号日时分秒斤米克")))
    g.guarded[i + 1] = 1;
}

// Who to whom: 我 as a verb's object, 跟 / 和 after a pronoun.
void guard_objects(Guarding& g, std::size_t i) {
  const std::span<const text::Token> tokens = g.tokens;
  const std::size_t T = tokens.size();
  const text::Token& t = tokens[i];
  // 我 as the object of a verb that says who did what to whom stays with the verb: "联系我了它说它帮我签收了"
  // must not become "联系它说它帮签收了", nor "送我明天不在" "送明天不在".
  if (spells(t, "我") && i > 0 && !(i + 1 < T && spells(tokens[i + 1], "们")) && object_taking_verb(tokens, i)) {
    g.guarded[i] = g.guarded[i - 1] = 1;
  }
  // 跟 or 和 after a pronoun says who does it with whom: "您跟配送小哥能否协商一下" must not become
  // "配送小哥能否协商" (the courier, not the customer, would negotiate).
  // Only the preposition, a word of its own (not 跟进, follow up).
  if ((spells(t, "跟") || spells(t, "和")) && i > 0 && i + 1 < T && first_cp_in(tokens[i - 1], U"您你我他她") &&
      tokens[i + 1].kind == text::TokenKind::cjk && g.word_of(i - 1) != g.word_of(i) && g.word_of(i + 1) != g.word_of(i)) {
    g.guarded[i - 1] = g.guarded[i] = 1;
    // On the pronoun's behalf: "帮您跟站点负责人联系" must not become "您跟站点负责人联系" (the agent contacts them).
    if (i >= 2 && first_cp_in(tokens[i - 2], U"帮替为给")) g.guarded[i - 2] = 1;
  }
}

// What is asked of whom: a check before an embedded question, 您是要, the customer's 你这边, 帮 + pronoun + verb.
void guard_requests(Guarding& g, std::size_t i) {
  const std::span<const text::Token> tokens = g.tokens;
  const std::size_t T = tokens.size();
  const text::Token& t = tokens[i];
  // A check (看, 查) asked for before the question it embeds stays: "麻烦看下是什么问题" must not become
  // "是什么问题", which asks the agent instead of asking them to look. Its 下 or 一下 stays with it. Asked
  // for: the agent's (建议您看下是否能重新下单), or after 麻烦, 请, 帮, 你 or 您; a customer's own 看 before a
  // question (看最快什么时候送到) is reported as the question (询问最快什么时候送到).
  const bool asked_to_check = !g.customer || (i > 0 && first_cp_in(tokens[i - 1], U"烦请帮你您"));
  if ((spells(t, "看") || spells(t, "查")) && asked_to_check && i + 1 < T && embeds_question(tokens, i + 1)) {
    g.guarded[i] = 1;
    if (spells(tokens[i + 1], "下")) g.guarded[i + 1] = 1;
    if (i + 2 < T && spells(tokens[i + 1], "一") && spells(tokens[i + 2], "下")) g.guarded[i + 1] = g.guarded[i + 2] = 1;
  }
  // 您是要… checks what the other side means (亲您是要退货): its 您 stays, or "是要退货" reads as a statement.
  if ((spells(t, "您") || spells(t, "你")) && i + 1 < T && spells(tokens[i + 1], "是") &&
      (i == 0 || tokens[i - 1].kind == text::TokenKind::punct || spells(tokens[i - 1], "亲")) &&
      zh_question::checks_what_is_meant(clause_code_points(tokens, i, i + 4)))
    g.guarded[i] = g.guarded[i + 1] = 1;
  // The customer's 你 or 您 before 这边 or 那边 is the agent's side: "你这边联系下客户吧行么" must not become
  // "这边联系客户行么", which reads as the customer's own side.
  if (g.customer && (spells(t, "你") || spells(t, "您")) && i + 2 < T &&
      (spell_together(tokens[i + 1], tokens[i + 2], "这边") || spell_together(tokens[i + 1], tokens[i + 2], "那边")))
    g.guarded[i] = 1;
  // 帮 + a pronoun + a verb: the verb says what is done ("帮我看下这个订单" must not become "帮订单").
  // Its word stays, whatever happens to 帮 and the pronoun.
  if (spells(t, "帮") && i + 2 < T && first_cp_in(tokens[i + 1], U"我您你") && tokens[i + 2].kind == text::TokenKind::cjk)
    g.guarded[i + 2] = 1;
}

// Sentence frames: 把 to its clause's end, which one as a verb's object, hedges and conditions.
void guard_frames(Guarding& g, std::size_t i) {
  const std::span<const text::Token> tokens = g.tokens;
  const std::size_t T = tokens.size();
  const text::Token& t = tokens[i];
  // A 把 construction puts its object before its verb: "把优惠券还给我" must not become "把优惠券"
  // (what is to be done with it is gone), nor "把地址改一下" "把地址". From 把 to the end of its
  // clause nothing goes. A clause-final 把 is the typo for 吧 (is_tag_particle), not this.
  if (spells(t, "把") && !(ends_clause(tokens, i) && i > 0 && is_tag_particle(tokens, i)))
    for (std::size_t j = i; j < T && tokens[j].kind != text::TokenKind::punct; ++j) g.guarded[j] = 1;
  // Which one, as a verb's object at its clause's end: "不知道选那个了" must not become "不知道选" (the verb
  // loses what it is about). The demonstrative or 哪, its measure word and the word before them stay.
  if (first_cp_in(t, U"这那哪") && i > 0 && tokens[i - 1].kind == text::TokenKind::cjk && i + 1 < T &&
      first_cp_in(tokens[i + 1], U"个种款件些") && g.word_of(i - 1) != g.word_of(i) && ends_a_verb(g.word_text(i - 1))) {
    std::size_t end = i + 2;
    while (end < T && first_cp_in(tokens[end], U"了的呢吧啊呀")) ++end;
    if (end == T || tokens[end].kind == text::TokenKind::punct) g.guarded[i - 1] = g.guarded[i] = g.guarded[i + 1] = 1;
  }
  // How sure the speaker is: "应该是付款了" must not become the certain "是付款" (a hedge word and
  // the whole of its word stay).
  if (i + 1 < T && is_hedge(t, tokens[i + 1])) g.guarded[i] = g.guarded[i + 1] = 1;
  // A supposition stays one: its condition word stays whole.
  if (i + 1 < T && is_condition(t, tokens[i + 1])) g.guarded[i] = g.guarded[i + 1] = 1;
}

// A negator, its A不A or X否 partner, 要不, a clause-final 不, and the next word it negates.
void guard_negation(Guarding& g, std::size_t i) {
  const std::span<const text::Token> tokens = g.tokens;
  const std::size_t T = tokens.size();
  const text::Token& t = tokens[i];
  if (!is_negator_char(t)) return;
  g.guarded[i] = 1;
  // A不A (能不能, 有没有) and X否 (是否, 能否): the A or X asks with the negator.
  if (i > 0 && tokens[i - 1].kind == text::TokenKind::cjk &&
      ((i + 1 < T && tokens[i + 1].text == tokens[i - 1].text) || spells(t, "否")))
    g.guarded[i - 1] = 1;
  // 要不 ("how about", "or else": 要不姑娘留个电话吧) is one word to a reader though the segmenter
  // splits it; without its 要 the 不 would negate (不姑娘留个电话吧).
  if (i > 0 && spells(t, "不") && spells(tokens[i - 1], "要")) g.guarded[i - 1] = 1;
  // A clause-final 不 asks with the word before it (对不, 可以不, 能改不: zh_question::clause_asks); alone
  // it would negate (就是了不).
  if (i > 0 && spells(t, "不") && ends_clause(tokens, i) && tokens[i - 1].kind == text::TokenKind::cjk)
    g.guarded[i - 1] = 1;
  for (std::size_t j = i + 1; j < T && tokens[j].kind != text::TokenKind::punct; ++j)
    if (g.word_of(j) != g.word_of(i)) {
      g.guarded[j] = 1;
      break;
    }
}

}  // namespace

std::vector<char> meaning_guards(std::span<const text::Token> tokens, std::span<const int> words, bool customer) {
  Guarding g{tokens, words, customer, std::vector<char>(tokens.size(), 0)};
  // Each guard only sets flags, so their order does not matter; called directly, the compiler inlines them.
  for (std::size_t i = 0; i < tokens.size(); ++i) {
    guard_asking_particles(g, i);
    guard_predicate(g, i);
    guard_question_words(g, i);
    guard_for_whom(g, i);
    guard_who_and_wanting(g, i);
    guard_which_thing(g, i);
    guard_time_and_hearsay(g, i);
    guard_limits(g, i);
    guard_whose_words(g, i);
    guard_counts(g, i);
    guard_objects(g, i);
    guard_requests(g, i);
    guard_frames(g, i);
    guard_negation(g, i);
  }
  guard_consequences(tokens, g.guarded);
  return std::move(g.guarded);
}

}  // namespace kessel::summarize
