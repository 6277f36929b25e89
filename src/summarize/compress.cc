#include "summarize/compress.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstring>
#include <initializer_list>
#include <iterator>
#include <string_view>
#include <utility>

#include "kessel/error.h"
#include "kessel/text/rouge.h"
#include "kessel/text/segment.h"
#include "kessel/text/utf8.h"
#include "summarize/eaca_features.h"
#include "summarize/faith_cues.h"
#include "summarize/zh_questions.h"
#include "util/splitmix.h"
#include "util/string_ids.h"

namespace kessel::summarize {

namespace {

// The form a token's features name it by: its normalized text, or one class for every number.
std::string_view form_of(const text::Token& t) {
  if (t.kind == text::TokenKind::number) return "<num>";
  return t.lower.empty() ? std::string_view(t.text) : std::string_view(t.lower);
}

// Small integer buckets for counts and lengths.
int bucket_count(int n) { return n <= 2 ? n : (n <= 5 ? 3 : 4); }

// A small integer's decimal digits as std::to_string writes them, without a heap string.
class Decimal {
 public:
  explicit Decimal(int v) : n_(static_cast<std::size_t>(std::to_chars(buf_, buf_ + sizeof buf_, v).ptr - buf_)) {}
  std::string_view view() const { return {buf_, n_}; }

 private:
  char buf_[12];
  std::size_t n_;
};

// The bucket of a feature written as its parts: fnv1a64 of the parts joined, which is fnv1a64 of
// each part in turn, each seeded with the hash so far, so no joined string is built.
std::int32_t feature_id(std::initializer_list<std::string_view> parts, std::uint64_t seed, std::uint64_t buckets) {
  std::uint64_t h = seed;
  for (std::string_view part : parts) h = fnv1a64(part, h);
  return static_cast<std::int32_t>(bucket_of(h, buckets));
}

// Whether a token's text is `s`. meaning_guards asks about twenty of these a token, most of them of
// one CJK character (3 bytes) against a token of one: inlined with a literal, the length is a constant
// and the compare a few instructions, where std::string == const char* calls memcmp.
inline bool spells(const text::Token& t, std::string_view s) {
  return t.text.size() == s.size() && std::memcmp(t.text.data(), s.data(), s.size()) == 0;
}

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

// Each token feature's hash state after its constant prefix: "t|", "pt|", ..., and for the speaker's
// features "st|C|" and "pos|C|" (or A). A token's ids start from these, so that the ~40 constant
// bytes of its twelve features are hashed once a unit instead of once a token (fnv1a64 is a chain
// of one multiply a byte).
struct FeaturePrefixes {
  std::uint64_t t, pt, tn, ppt, tnn, pn, st, pos, own, oth, tot;
  FeaturePrefixes(std::uint64_t seed, std::string_view spk)
      : t(fnv1a64("t|", seed)),
        pt(fnv1a64("pt|", seed)),
        tn(fnv1a64("tn|", seed)),
        ppt(fnv1a64("ppt|", seed)),
        tnn(fnv1a64("tnn|", seed)),
        pn(fnv1a64("pn|", seed)),
        st(fnv1a64("|", fnv1a64(spk, fnv1a64("st|", seed)))),
        pos(fnv1a64("|", fnv1a64(spk, fnv1a64("pos|", seed)))),
        own(fnv1a64("own|", seed)),
        oth(fnv1a64("oth|", seed)),
        tot(fnv1a64("tot|", seed)) {}
};

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

// The code point of a CJK token (one code point; its text is valid UTF-8, as every token's is). The
// meaning guards ask about a token's character a dozen times: the three-byte characters of the BMP,
// nearly all of them, are read here in line rather than through next_code_point's checks.
char32_t cjk_code_point(const text::Token& t) {
  if (t.text.size() != 3) {
    std::size_t at = 0;
    return text::next_code_point(t.text, &at);
  }
  const auto byte = [&](std::size_t i) { return static_cast<char32_t>(static_cast<unsigned char>(t.text[i])); };
  return ((byte(0) & 0x0F) << 12) | ((byte(1) & 0x3F) << 6) | (byte(2) & 0x3F);
}

bool first_cp_in(const text::Token& t, std::u32string_view set) {
  if (t.kind != text::TokenKind::cjk) return false;
  return set.find(cjk_code_point(t)) != std::u32string_view::npos;
}

bool is_question_mark(const text::Token& t) {
  return t.kind == text::TokenKind::punct && (t.text.find('?') != std::string::npos || t.text.find("？") != std::string::npos);
}

// Whether token i ends its clause: punctuation, the end, or only modal particles and emoji before them.
bool ends_clause(std::span<const text::Token> tokens, std::size_t i) {
  for (std::size_t j = i + 1; j < tokens.size(); ++j) {
    if (tokens[j].kind == text::TokenKind::punct) return true;
    // Modal particles, emoji and the address 亲 ("您有开通白条吗亲") may follow the clause's last word.
    if (tokens[j].kind == text::TokenKind::emoji || first_cp_in(tokens[j], U"啊呀啦哈嘛哦噢喔呗亲")) continue;
    return false;
  }
  return true;
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

// Whether the word at token i names a person someone does something for (朋友, 家人, 老人, 孩子, 妈妈, …).
bool is_person_word(std::span<const text::Token> tokens, std::size_t i) {
  static constexpr std::string_view kPersons[] = {"朋友", "家人", "老人", "孩子", "小孩", "妈妈", "爸爸", "父母", "老婆",
                                                  "老公", "媳妇", "儿子", "女儿", "同事", "客户", "别人", "家里", "老妈",
                                                  "老爸", "宝宝", "亲戚", "客服", "商家", "卖家", "快递", "小哥", "师傅"};
  // The bytes of the next two CJK tokens: a UTF-8 prefix is a prefix of code points.
  std::string next;
  for (std::size_t j = i; j < tokens.size() && j < i + 2 && tokens[j].kind == text::TokenKind::cjk; ++j) next += tokens[j].text;
  for (std::string_view w : kPersons)
    if (std::string_view(next).starts_with(w)) return true;
  return false;
}

// Whether a token is a one-letter preposition that takes a person (为 替 跟 和 对 向 与). It and its
// person (a pronoun, a person word or both: 跟你们, 为您, 和我老妈) stay or go together (word_end): "本来早上
// 跟你们说了要延期" must not become "你们说了要延期", where the company said it, nor "会为您配送" "会为配送"
// (the references' third person drops both: "会配送"). Not 给, which is also the verb "give"
// (能第一时间给我订单号 would lose it with its 我); meaning_guards keeps 给 before a person word.
bool is_person_preposition(const text::Token& t) { return t.text.size() == 3 && first_cp_in(t, U"为替跟和对向与"); }

// The token after a pronoun (你 您 他 她 我, and a 们 after it) at token k, or k when there is none.
std::size_t after_pronoun(std::span<const text::Token> tokens, std::size_t k) {
  if (k >= tokens.size() || tokens[k].text.size() != 3 || !first_cp_in(tokens[k], U"你您他她我")) return k;
  return k + 1 < tokens.size() && spells(tokens[k + 1], "们") ? k + 2 : k + 1;
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
    for (char32_t cp : text::decode_utf8(tokens[j].text, text::Utf8Mode::lossy).cps) before.push_back(cp);
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
// 通知, 送, 让, 叫, 问, 找, 骗, 催, 提醒, 答应, 回复): without that person who did what to whom is lost.
bool object_taking_verb(std::span<const text::Token> tokens, std::size_t i) {
  if (i == 0 || tokens[i - 1].kind != text::TokenKind::cjk) return false;
  // Not the 问 of 请问, 询问 or 想问 (请问我的快递到哪里: 我 is the subject of what is asked).
  if (spells(tokens[i - 1], "问") && i >= 2 && first_cp_in(tokens[i - 2], U"请询想")) return false;
  if (first_cp_in(tokens[i - 1], U"送让叫问找骗催")) return true;
  if (i < 2) return false;
  for (std::string_view verb : {"联系", "告诉", "通知", "提醒", "答应", "回复"})
    if (spell_together(tokens[i - 2], tokens[i - 1], verb)) return true;
  return false;
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

std::vector<char> meaning_guards(std::span<const text::Token> tokens, std::span<const int> words, bool customer) {
  const std::size_t T = tokens.size();
  std::vector<char> guarded(T, 0);
  auto word_of = [&](std::size_t i) { return words.size() == T ? words[i] : static_cast<int>(i); };
  auto word_text = [&](std::size_t i) {  // the text of token i's word (可以, not 以)
    std::size_t b = i, e = i + 1;
    while (b > 0 && word_of(b - 1) == word_of(i)) --b;
    while (e < T && word_of(e) == word_of(i)) ++e;
    std::string w;
    for (std::size_t k = b; k < e; ++k) w += tokens[k].text;
    return w;
  };
  for (std::size_t i = 0; i < T; ++i) {
    const text::Token& t = tokens[i];
    const bool asking_ne = spells(t, "呢") && asks_with_ne(tokens, i, customer) && ends_clause(tokens, i);
    // A clause-final 吧 or 嘛 asks for agreement or presumes ("不需要自己承担运费是吧", "数据线里面有吧",
    // "您有新订单嘛"; the typo 把 too, is_tag_particle); without it the sentence asserts. Where it only softens a suggestion ("您先试试吧")
    // keeping it changes nothing. The tag and the word before it stay.
    const bool tag = i > 0 && is_tag_particle(tokens, i) && ends_clause(tokens, i);
    if (tag) guarded[i - 1] = 1;
    // A 吧 before 和, 与, 跟, 或 or 的 is no particle but the end of a name the segmenter split (买的冰吧和电话:
    // 冰吧, a fridge): it and the letter before it stay, or the name is cut (买的冰和电话). After 好, 行, 算,
    // 对, 是 or 前 it is the particle that runs on unpunctuated (好吧查过确实是中奖了, 先前吧电脑寄过去).
    if (spells(t, "吧") && i > 0 && tokens[i - 1].kind == text::TokenKind::cjk && i + 1 < T &&
        first_cp_in(tokens[i + 1], U"和与跟或的") && !first_cp_in(tokens[i - 1], U"好行算对是前"))
      guarded[i - 1] = guarded[i] = 1;
    const bool final_ma = first_cp_in(t, U"吗么") && ends_clause(tokens, i);
    const bool final_particle = final_ma || asking_ne || tag;
    // What a final 吗 asks about stays with it: "您看可以吗" may become "可以吗", never "吗" alone.
    // A pronoun there brings its verb (给我吗, not 我吗).
    if (final_ma && i > 0 && tokens[i - 1].kind == text::TokenKind::cjk) {
      guarded[i - 1] = 1;
      if (i > 1 && first_cp_in(tokens[i - 1], U"我你您他她") && tokens[i - 2].kind == text::TokenKind::cjk) guarded[i - 2] = 1;
      // The modal before that word asks with it: "地址错了能改吗" must not become "改吗" (can it be
      // changed, not will you change it), nor "需要退回去吗" become "退回去吗".
      std::size_t w = i - 1;
      while (w > 0 && word_of(w - 1) == word_of(i - 1)) --w;
      if (w > 0 && is_modal(word_text(w - 1))) guarded[w - 1] = 1;  // its word through word_keep
    }
    // The predicate a degree word or 是 leads to at a clause's end stays: "不是自营的退货就是麻烦" must not
    // become "就是。", nor "速度太慢了" "速度太了".
    if (t.kind == text::TokenKind::cjk && ends_clause(tokens, i) && !first_cp_in(t, U"了的吧呢吗么啊呀啦哈嘛哦噢喔呗亲") &&
        (i + 1 >= T || word_of(i + 1) != word_of(i))) {
      std::size_t w = i;
      while (w > 0 && word_of(w - 1) == word_of(i)) --w;
      if (w > 0 && tokens[w - 1].kind == text::TokenKind::cjk && leads_to_a_predicate(word_text(w - 1))) guarded[i] = 1;
    }
    if (asking_ne) {
      // The question word asks with the 呢 ("什么原因…呢" must not become "原因…呢"): it stays, and its
      // word with it (什么, through word_keep).
      const std::size_t start = clause_start(tokens, i);
      const std::size_t q = question_word_before(tokens, start, i);
      if (q < i) guarded[q] = 1;
      if (q == i && spells(tokens[start], "那")) guarded[start] = 1;  // 那我的钱呢: 那 is what asks
      if (q + 1 < i && (spells(tokens[q], "多") || spells(tokens[q], "如"))) guarded[q + 1] = 1;
    }
    if (t.kind == text::TokenKind::number || t.kind == text::TokenKind::placeholder || is_question_mark(t) ||
        first_cp_in(t, U"谁哪啥咋怎") || final_particle)
      guarded[i] = 1;
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
      if (how && !first_cp_in(tokens[verb], U"么样办回吗呢啊")) guarded[verb] = 1;
      if (spells(t, "有") && first_cp_in(tokens[i + 1], U"什啥")) guarded[i] = 1;
      if (spells(t, "能") || (spells(t, "以") && i > 0 && spells(tokens[i - 1], "可"))) {
        const std::size_t start = clause_start(tokens, i);
        bool how_long = false;  // 多久, 多长: a question word question_word_before does not count
        for (std::size_t j = start; j + 1 < i; ++j)
          how_long = how_long || (spells(tokens[j], "多") && first_cp_in(tokens[j + 1], U"久长"));
        if (how_long || question_word_before(tokens, start, i) < i) guarded[verb] = 1;
      }
    }
    // 多少 and 如何 ask anywhere in a clause ("运费多少", "如何申请售后"); 怎 above keeps 怎么 and 怎样.
    if (i + 1 < T && ((spells(t, "多") && spells(tokens[i + 1], "少")) || (spells(t, "如") && spells(tokens[i + 1], "何"))))
      guarded[i] = guarded[i + 1] = 1;
    // For whom: 给 before a person ("本来就是给朋友买的" must not become "就是朋友买的", where the friend
    // bought it).
    if (spells(t, "给") && i + 1 < T && is_person_word(tokens, after_pronoun(tokens, i + 1))) guarded[i] = 1;
    // To whom, ending its clause: "是要寄给我的吗" must not become "是要寄给的吗", nor "会退款给我" "会退款给",
    // nor "您电话给我" "电话" (给 and its pronoun stay: 发给您。, 退给我们了). Before a verb 给您 is the agent's
    // courtesy (给您寄出) and may go, and so may it after an amount (退30元给您).
    if (spells(t, "给") && i > 0 && tokens[i - 1].kind == text::TokenKind::cjk && tokens[i - 1].text.size() == 3 &&
        !first_cp_in(tokens[i - 1], U"0123456789元块")) {
      const std::size_t after = after_pronoun(tokens, i + 1);
      if (after > i + 1 && (after == T || tokens[after].kind == text::TokenKind::punct ||
                            first_cp_in(tokens[after], U"的吗吧呢了啊呀")))
        for (std::size_t j = i; j < after; ++j) guarded[j] = 1;
    }
    // Who will do it: a pronoun before 来 and a verb ("那我来联系" must not become "来联系", an order).
    if (spells(t, "来") && i > 0 && i + 1 < T && tokens[i + 1].kind == text::TokenKind::cjk &&
        first_cp_in(tokens[i - 1], U"我你您他她") && tokens[i - 1].text.size() == 3)
      guarded[i - 1] = guarded[i] = 1;
    // The mark that closes an asking clause stays, so that the particle still ends a clause ("明天能到吗，
    // 明后天…" must not run on as "明天到吗明后天").
    if (final_particle)
      for (std::size_t j = i + 1; j < T; ++j)
        if (tokens[j].kind == text::TokenKind::punct) {
          guarded[j] = 1;
          break;
        }
    // Who did what, and wanting to know: 你们 (the company: "你们说今天到" must not become the customer's
    // "说今天到"), and 想 before 知道 / 问 / 了解 ("想知道啥时候发" is not "知道啥时候发").
    if (spells(t, "你") && i + 1 < T && spells(tokens[i + 1], "们")) guarded[i] = guarded[i + 1] = 1;
    if (spells(t, "想") && i + 1 < T && first_cp_in(tokens[i + 1], U"知问了")) guarded[i] = guarded[i + 1] = 1;
    // Wanting is not doing: "想申请退货" must not become "申请退货", nor "我想找回来" "找回来".
    if (spells(t, "想") && i + 1 < T && tokens[i + 1].kind == text::TokenKind::cjk) guarded[i] = 1;
    // Hearsay is not fact: "说是从京东PC端找回来" must not become "是从京东PC端找回来".
    if (spells(t, "说") && i + 1 < T && spells(tokens[i + 1], "是")) guarded[i] = guarded[i + 1] = 1;
    // Whose words: a third person before 说 stays with it ("他说会返回" must not become the customer's own
    // "说会返回"; 他们说, 快递说, 商家说).
    if (spells(t, "说"))
      if (const std::size_t who = third_person_before(tokens, i); who > 0)
        for (std::size_t j = i - who; j <= i; ++j) guarded[j] = 1;
    // A count in words is a number: "每次只能申请一件商品" must not become "每次只能申请商品" (the numeral
    // and its measure word stay).
    if (first_cp_in(t, U"一二两三四五六七八九十百千万半几") && i + 1 < T && first_cp_in(tokens[i + 1], faith::kMeasureWords))
      guarded[i] = guarded[i + 1] = 1;
    // Letters written against a number or placeholder are part of one code (VB[数字], JD123, 3C): the
    // code stays whole.
    const auto is_count = [](const text::Token& x) {
      return x.kind == text::TokenKind::number || x.kind == text::TokenKind::placeholder;
    };
    if (t.kind == text::TokenKind::word &&
        ((i + 1 < T && is_count(tokens[i + 1]) && tokens[i + 1].byte_start == t.byte_end) ||
         (i > 0 && is_count(tokens[i - 1]) && tokens[i - 1].byte_end == t.byte_start)))
      guarded[i] = 1;
    // A number in digits, or CSDS's [数字], keeps its unit: "签收起[数字]天内" must not become "签收起[数字]"
    // (how many of what is lost), nor "[数字]元" "[数字]".
    if ((t.kind == text::TokenKind::number || spells(t, "[数字]")) && i + 1 < T &&
        (first_cp_in(tokens[i + 1], faith::kMeasureWords) || first_cp_in(tokens[i + 1], U"元块号日时分秒斤米克")))
      guarded[i + 1] = 1;
    // 我 as the object of a verb that says who did what to whom stays with the verb: "联系我了它说它帮我签收了"
    // must not become "联系它说它帮签收了", nor "送我明天不在" "送明天不在".
    if (spells(t, "我") && i > 0 && !(i + 1 < T && spells(tokens[i + 1], "们")) && object_taking_verb(tokens, i)) {
      guarded[i] = guarded[i - 1] = 1;
    }
    // The customer's 你 or 您 before 这边 or 那边 is the agent's side: "你这边联系下客户吧行么" must not become
    // "这边联系客户行么", which reads as the customer's own side.
    if (customer && (spells(t, "你") || spells(t, "您")) && i + 2 < T &&
        (spell_together(tokens[i + 1], tokens[i + 2], "这边") || spell_together(tokens[i + 1], tokens[i + 2], "那边")))
      guarded[i] = 1;
    // 帮 + a pronoun + a verb: the verb says what is done ("帮我看下这个订单" must not become "帮订单").
    // Its word stays, whatever happens to 帮 and the pronoun.
    if (spells(t, "帮") && i + 2 < T && first_cp_in(tokens[i + 1], U"我您你") && tokens[i + 2].kind == text::TokenKind::cjk)
      guarded[i + 2] = 1;
    // A 把 construction puts its object before its verb: "把优惠券还给我" must not become "把优惠券"
    // (what is to be done with it is gone), nor "把地址改一下" "把地址". From 把 to the end of its
    // clause nothing goes. A clause-final 把 is the typo for 吧 (is_tag_particle), not this.
    if (spells(t, "把") && !(ends_clause(tokens, i) && i > 0 && is_tag_particle(tokens, i)))
      for (std::size_t j = i; j < T && tokens[j].kind != text::TokenKind::punct; ++j) guarded[j] = 1;
    // How sure the speaker is: "应该是付款了" must not become the certain "是付款" (a hedge word and
    // the whole of its word stay).
    if (i + 1 < T && is_hedge(t, tokens[i + 1])) guarded[i] = guarded[i + 1] = 1;
    // A supposition stays one: its condition word stays whole.
    if (i + 1 < T && is_condition(t, tokens[i + 1])) guarded[i] = guarded[i + 1] = 1;
    if (!is_negator_char(t)) continue;
    guarded[i] = 1;
    // A不A (能不能, 有没有) and X否 (是否, 能否): the A or X asks with the negator.
    if (i > 0 && tokens[i - 1].kind == text::TokenKind::cjk &&
        ((i + 1 < T && tokens[i + 1].text == tokens[i - 1].text) || spells(t, "否")))
      guarded[i - 1] = 1;
    // 要不 ("how about", "or else": 要不姑娘留个电话吧) is one word to a reader though the segmenter
    // splits it; without its 要 the 不 would negate (不姑娘留个电话吧).
    if (i > 0 && spells(t, "不") && spells(tokens[i - 1], "要")) guarded[i - 1] = 1;
    // A clause-final 不 asks with the word before it (对不, 可以不, 能改不: zh_question::clause_asks); alone
    // it would negate (就是了不).
    if (i > 0 && spells(t, "不") && ends_clause(tokens, i) && tokens[i - 1].kind == text::TokenKind::cjk)
      guarded[i - 1] = 1;
    for (std::size_t j = i + 1; j < T && tokens[j].kind != text::TokenKind::punct; ++j)
      if (word_of(j) != word_of(i)) {
        guarded[j] = 1;
        break;
      }
  }
  guard_consequences(tokens, guarded);
  return guarded;
}

// The clause around an emotion mention (tokens [first, last) of it) stays whole: the customer's
// feeling is read in their own words (你们的服务太垃圾了, not 服务太垃圾了; 怎么还是发货了, not
// 怎么发货了), and the readers who labelled the strongest emotions labelled clauses. A clause ends at
// punctuation.
void force_clause(UnitTokens& ut, std::size_t first, std::size_t last) {
  const auto is_break = [&](std::size_t i) { return ut.tokens[i].kind == text::TokenKind::punct; };
  for (std::size_t i = first; i > 0 && !is_break(i - 1); --i) ut.forced[i - 1] = 1;
  for (std::size_t i = last; i < ut.tokens.size() && !is_break(i); ++i) ut.forced[i] = 1;
}

}  // namespace

std::vector<UnitTokens> unit_tokens(const Prepared& p) {
  KESSEL_CHECK_ARG(p.unit_tokens.size() == p.units.size(), "unit_tokens: Prepared has ", p.unit_tokens.size(),
                   " unit token lists for ", p.units.size(), " units (build it with prepare())");
  std::vector<UnitTokens> out(p.units.size());
  for (std::size_t u = 0; u < p.units.size(); ++u) {
    out[u].tokens = p.unit_tokens[u];
    out[u].forced.assign(out[u].tokens.size(), 0);
    out[u].guarded.assign(out[u].tokens.size(), 0);
    if (u < p.unit_token_words.size()) out[u].words = p.unit_token_words[u];
    if (p.lang == Lang::zh) out[u].guarded = meaning_guards(out[u].tokens, out[u].words, p.units[u].speaker == text::Speaker::customer);
  }
  // Expressed customer emotion mentions: their clauses stay (force_clause). Tokens are in text order, so the ones a
  // mention overlaps start at the first that ends after it starts (one linear scan per mention was
  // quadratic on a turn with thousands of mentions).
  for (std::size_t m = 0; m < p.mentions.size(); ++m) {
    const int u = p.mention_unit[m];
    if (u < 0 || !p.mentions[m].expressed) continue;
    const Unit& unit = p.units[static_cast<std::size_t>(u)];
    if (unit.byte_start < 0) continue;
    UnitTokens& ut = out[static_cast<std::size_t>(u)];
    const std::int64_t s = p.mentions[m].byte_start - unit.byte_start;
    const std::int64_t e = p.mentions[m].byte_end - unit.byte_start;
    const auto first = std::partition_point(ut.tokens.begin(), ut.tokens.end(),
                                            [&](const text::Token& t) { return t.byte_end <= s; });
    auto last = first;
    for (; last != ut.tokens.end() && last->byte_start < e; ++last)
      ut.forced[static_cast<std::size_t>(last - ut.tokens.begin())] = 1;
    if (p.lang == Lang::zh)  // English has no learned deletion, and its mention keeps its spelling
      force_clause(ut, static_cast<std::size_t>(first - ut.tokens.begin()),
                   static_cast<std::size_t>(last - ut.tokens.begin()));
  }
  if (p.lang == Lang::en) mark_closing_vocatives(p, out);
  return out;
}

std::vector<UnitTokens> compress_features(const Prepared& p, int buckets) {
  KESSEL_CHECK_ARG(buckets >= 1, "compress_features: buckets must be >= 1, got ", buckets);
  const auto B = static_cast<std::uint64_t>(buckets);
  const std::uint64_t seed = fnv1a64("compress");
  std::vector<UnitTokens> out = unit_tokens(p);
  // Dialogue-level context: in how many units each form occurs, per speaker. Forms are numbered in
  // the dialogue, so that each token's counts are an index away.
  std::size_t tokens = 0;
  for (const auto& ut : out) tokens += ut.tokens.size();
  util::StringIds form_ids(tokens);
  std::vector<std::vector<int>> token_forms(p.units.size());
  std::vector<int> customer_units, agent_units;  // by form id
  std::vector<int> last_unit;                    // by form id: the last unit it occurred in
  for (std::size_t u = 0; u < p.units.size(); ++u) {
    std::vector<int>& ids = token_forms[u];
    ids.reserve(out[u].tokens.size());
    for (const auto& t : out[u].tokens) {
      ids.push_back(form_ids.insert(form_of(t)).first);
    }
    customer_units.resize(form_ids.size(), 0);
    agent_units.resize(form_ids.size(), 0);
    last_unit.resize(form_ids.size(), -1);
    auto& count = p.units[u].speaker == text::Speaker::customer ? customer_units : agent_units;
    for (int f : ids) {  // each form once a unit, without a sorted copy of the unit's ids
      const auto at = static_cast<std::size_t>(f);
      if (last_unit[at] == static_cast<int>(u)) continue;
      last_unit[at] = static_cast<int>(u);
      count[at] += 1;
    }
  }
  // The features of each token, as the strings tests/cpp/summarize/compress_test.cc spells out
  // (plain_compress_features, which these ids are checked against).
  for (std::size_t u = 0; u < p.units.size(); ++u) {
    const Unit& unit = p.units[u];
    UnitTokens& ut = out[u];
    const auto& toks = ut.tokens;
    const int T = static_cast<int>(toks.size());
    const bool customer = unit.speaker == text::Speaker::customer;
    const std::string_view spk = customer ? "C" : "A";
    const Decimal len(std::min(unit.chars / 4, 10));
    const std::int32_t len_id = feature_id({"len|", spk, "|", len.view()}, seed, B);  // the same for the unit's tokens
    const FeaturePrefixes prefixes(seed, spk);
    ut.features.reserve(toks.size() * kCompressFeatures);
    auto form = [&](int i) -> std::string_view {
      if (i < 0) return "^";
      if (i >= T) return "$";
      return form_of(toks[static_cast<std::size_t>(i)]);
    };
    for (int i = 0; i < T; ++i) {
      const std::string_view t = form(i), pv = form(i - 1), nx = form(i + 1), pv2 = form(i - 2), nx2 = form(i + 2);
      const auto f = static_cast<std::size_t>(token_forms[u][static_cast<std::size_t>(i)]);
      const int own = (customer ? customer_units[f] : agent_units[f]) - 1;  // other units of the same speaker
      const int other = customer ? agent_units[f] : customer_units[f];      // units of the other speaker
      const std::string_view kind = text::to_string(toks[static_cast<std::size_t>(i)].kind);
      const Decimal rel(T > 1 ? (4 * i) / T : 0), first(i == 0), last(i == T - 1);
      const Decimal own_bucket(bucket_count(std::max(0, own))), other_bucket(bucket_count(other));
      const Decimal seen_elsewhere(std::min(1, own + other));
      const FeaturePrefixes& h = prefixes;
      const std::int32_t ids[] = {
          feature_id({t}, h.t, B),                                             // "t|" t
          feature_id({pv, "|", t}, h.pt, B),                                   // "pt|" pv "|" t
          feature_id({t, "|", nx}, h.tn, B),                                   // "tn|" ...
          feature_id({pv2, "|", pv, "|", t}, h.ppt, B),                        // "ppt|" ...
          feature_id({t, "|", nx, "|", nx2}, h.tnn, B),                        // "tnn|" ...
          feature_id({pv, "|", nx}, h.pn, B),                                  // "pn|" ...
          feature_id({t}, h.st, B),                                            // "st|" spk "|" t
          feature_id({rel.view(), "|", first.view(), last.view()}, h.pos, B),  // "pos|" spk "|" ...
          len_id,
          feature_id({kind, "|", own_bucket.view()}, h.own, B),     // "own|" ...
          feature_id({kind, "|", other_bucket.view()}, h.oth, B),   // "oth|" ...
          feature_id({t, "|", seen_elsewhere.view()}, h.tot, B),    // "tot|" ...
      };
      static_assert(std::size(ids) == kCompressFeatures);
      ut.features.insert(ut.features.end(), std::begin(ids), std::end(ids));
    }
  }
  return out;
}

std::vector<float> keep_probabilities(const UnitTokens& unit, const std::vector<float>& weights) {
  KESSEL_CHECK_ARG(!weights.empty(), "keep_probabilities: no weights");
  KESSEL_CHECK_ARG(unit.features.size() % kCompressFeatures == 0, "keep_probabilities: ", unit.features.size(),
                   " feature ids is not ", kCompressFeatures, " per token");
  const float bias = weights.back();
  const auto B = static_cast<std::int32_t>(weights.size() - 1);
  const std::size_t T = unit.features.size() / kCompressFeatures;
  std::vector<float> out;
  out.reserve(T);
  for (std::size_t t = 0; t < T; ++t) {
    float z = bias;
    for (std::int32_t id : unit.features_of(t)) {
      KESSEL_CHECK_ARG(id >= 0 && id < B, "keep_probabilities: feature id ", id, " outside [0, ", B, ")");
      z += weights[static_cast<std::size_t>(id)];
    }
    out.push_back(1.0f / (1.0f + std::exp(-z)));
  }
  return out;
}

namespace {

// A clause separator that reads wrong right before a question mark: , ; : and their full-width forms.
bool separates(const text::Token& t) {
  return t.kind == text::TokenKind::punct &&
         (spells(t, ",") || spells(t, ";") || spells(t, ":") || spells(t, "，") || spells(t, "；") || spells(t, "："));
}

// Whether a punctuation token opens what follows it (a bracket or an opening quote), so that it may
// lead a text: "“Create similar playlist” doesn't work", "(and related costs)".
bool opens(const text::Token& t) {
  static constexpr std::u32string_view kOpening = U"([{\"'“‘«「『《（【〈＜〔";
  std::size_t at = 0;
  return !t.text.empty() && kOpening.find(text::next_code_point(t.text, &at)) != std::u32string_view::npos;
}

}  // namespace

std::string rebuild(const Unit& unit, std::span<const text::Token> tokens, const std::vector<char>& keep,
                    const std::vector<std::string>* forms) {
  std::string out;
  std::int64_t last_end = -1;
  bool content = false;
  bool any_kept = false, last_punct = false;
  std::size_t last_kept = 0;
  for (std::size_t i = 0; i < tokens.size(); ++i) {
    if (!keep[i]) continue;
    const auto& t = tokens[i];
    const bool punct = t.kind == text::TokenKind::punct;
    // A question mark is never dropped as doubled punctuation: it is what makes the sentence ask.
    const bool asks = punct && (t.text.find('?') != std::string::npos || t.text.find("？") != std::string::npos);
    if (punct && !asks && (any_kept ? last_punct && i != last_kept + 1 : !opens(t))) continue;
    if (asks && last_punct && any_kept && i != last_kept + 1 &&
        (opens(tokens[last_kept]) || separates(tokens[last_kept]))) {
      // "handle(@573230)?" without the handle: the bracket that opened it goes, the "?" stays; so does
      // the comma before a dropped vocative ("What gives, @AppleSupport?" -> "What gives?").
      const auto& before = tokens[last_kept];
      out.resize(out.size() - static_cast<std::size_t>(before.byte_end - before.byte_start));
      while (!out.empty() && out.back() == ' ') out.pop_back();
      last_end = -1;
    }
    // A closing mark after dropped words closes up on the word before them ("closed tonight I'm
    // afraid." -> "closed tonight.", not "closed tonight .").
    const bool closes_up = punct && !opens(t) && any_kept && i != last_kept + 1;
    any_kept = true;
    last_punct = punct;
    last_kept = i;
    if (last_end >= 0 && !closes_up) {
      const std::string_view gap(unit.text.data() + last_end, static_cast<std::size_t>(t.byte_start - last_end));
      if (gap.find_first_of(" \t\n\r") != std::string_view::npos) out += ' ';
    }
    if (forms != nullptr && !(*forms)[i].empty())
      out += (*forms)[i];
    else
      out.append(unit.text, static_cast<std::size_t>(t.byte_start), static_cast<std::size_t>(t.byte_end - t.byte_start));
    last_end = t.byte_end;
    content = content || !text::is_punctuation(t);
  }
  return content ? out : unit.text;
}

// A structural particle whose word went (好的 -> 的, 亲爱的 -> 的, 收到了 -> 了) reads as a cut: it goes
// too, unless a guard or an emotion mention holds it. The segmenter makes 好|的 two words, so whole-word
// deletion alone would leave it.
void drop_orphan_particles(const UnitTokens& tokens, std::vector<char>& keep) {
  const auto& t = tokens.tokens;
  for (std::size_t i = 0; i < t.size(); ++i) {
    if (!keep[i] || tokens.forced[i] || (!tokens.guarded.empty() && tokens.guarded[i])) continue;
    if (!spells(t[i], "的") && !spells(t[i], "地") && !spells(t[i], "得") && !spells(t[i], "了") && !spells(t[i], "着") &&
        !spells(t[i], "过"))
      continue;
    const bool words = tokens.words.size() == t.size();
    const bool in_word = words && ((i > 0 && tokens.words[i - 1] == tokens.words[i]) ||
                                   (i + 1 < t.size() && tokens.words[i + 1] == tokens.words[i]));
    if (in_word) continue;  // 目的, 为了, 地址: the character is part of a longer word
    const bool head_gone = i == 0 || t[i - 1].kind == text::TokenKind::punct || !keep[i - 1];
    if (head_gone) keep[i] = 0;
  }
}

// Whether the word [i, j) and the clause-final 了 at j are one unit of meaning: after a one-letter verb
// 了 completes it (说明书扔了 must not become 说明书扔, nor 提交好了 提交好), and after 怎么 it asks
// (这个商品怎么了 is "what is wrong with it", 商品怎么 nothing).
bool completes_with_le(const UnitTokens& tokens, std::size_t i, std::size_t j) {
  const auto& t = tokens.tokens;
  if (!spells(t[j], "了") || !ends_clause(t, j) || (j + 1 < t.size() && tokens.words[j + 1] == tokens.words[j])) return false;
  if (j == i + 1) return !(t[i].kind != text::TokenKind::cjk || spells(t[i], "了") || spells(t[i], "的") || spells(t[i], "吗"));
  return j == i + 2 && spells(t[i], "怎") && spells(t[i + 1], "么");
}

// A clause that deletion cut to one character ("如果您购买的，到您那面，…" -> "如果购买，到，…") reads as
// noise: that character goes too, unless a guard or an emotion mention holds it, or nothing else of
// the unit is left (then the unit is a one-character cut, which compress_unit refuses as a whole).
void drop_lone_letters(const UnitTokens& tokens, std::vector<char>& keep) {
  const auto& t = tokens.tokens;
  std::vector<std::size_t> lone;
  std::size_t letters = 0;
  for (std::size_t a = 0; a < t.size();) {
    std::size_t b = a;
    while (b < t.size() && t[b].kind != text::TokenKind::punct) ++b;
    std::size_t kept = 0, last = a;
    for (std::size_t i = a; i < b; ++i)
      if (keep[i]) ++kept, last = i;
    letters += kept;
    const bool held = kept == 1 && (tokens.forced[last] || (!tokens.guarded.empty() && tokens.guarded[last]));
    if (kept == 1 && b - a >= 3 && t[last].kind == text::TokenKind::cjk && !held) lone.push_back(last);
    a = b + 1;
  }
  if (lone.size() < letters)
    for (std::size_t i : lone) keep[i] = 0;
}

// A clause that deletion cut to one noun of three words or more ("您这个订单我先为您跟进" -> "订单", "亲爱的客户"
// -> "客户", "为了更好更快更专业的解决您的问题" -> "问题") names a thing with nothing said of it: the noun goes too,
// unless a guard or an emotion mention holds it, or nothing else of the unit is left. A verb kept alone
// ("这边给您补发呢" -> "补发") still says what is done; jieba's dictionary gives the class.
void drop_lone_nouns(const UnitTokens& tokens, std::vector<char>& keep) {
  const auto& t = tokens.tokens;
  if (tokens.words.size() != t.size()) return;
  const text::Segmenter& segmenter = text::Segmenter::default_segmenter();
  std::vector<std::pair<std::size_t, std::size_t>> lone;  // [first, last] token of each lone noun
  std::size_t kept_elsewhere = 0;
  // Clauses end at a stop or a comma; a dash or a slash joins the steps of a path (京东—客户服务—我的订单),
  // whose first step is no clause of its own.
  const auto ends_a_clause = [&](const text::Token& x) {
    if (x.kind != text::TokenKind::punct || x.text.empty()) return false;
    std::size_t at = 0;
    return std::u32string_view(U"，。！？；：、,.!?;:…").find(text::next_code_point(x.text, &at)) != std::u32string_view::npos;
  };
  for (std::size_t a = 0; a < t.size();) {
    std::size_t b = a;
    while (b < t.size() && !ends_a_clause(t[b])) ++b;
    int words = 0, kept_words = 0;
    std::size_t first = b, last = a, kept = 0;
    bool held = false;
    for (std::size_t i = a; i < b; ++i) {
      if (t[i].kind == text::TokenKind::punct) continue;
      const bool starts_word = i == a || tokens.words[i] != tokens.words[i - 1];
      words += starts_word ? 1 : 0;
      if (!keep[i]) continue;
      kept_words += starts_word || !keep[i - 1] ? 1 : 0;
      first = std::min(first, i), last = i, ++kept;
      held = held || tokens.forced[i] || (!tokens.guarded.empty() && tokens.guarded[i]);
    }
    const bool one_word = kept_words == 1 && tokens.words[first] == tokens.words[last];
    if (words >= 3 && one_word && !held && t[first].kind == text::TokenKind::cjk) {
      std::u32string word;
      for (std::size_t i = first; i <= last; ++i) {
        std::size_t at = 0;
        while (at < t[i].text.size()) word.push_back(text::next_code_point(t[i].text, &at));
      }
      if (segmenter.word_class(word) == text::WordClass::noun) {
        lone.emplace_back(first, last);
        kept = 0;
      }
    }
    kept_elsewhere += kept;
    a = b + 1;
  }
  if (kept_elsewhere == 0) return;
  for (auto [first, last] : lone)
    for (std::size_t i = first; i <= last; ++i) keep[i] = 0;
}

// Whether tokens [j, end) spell a direction complement (过去 过来 回来 出去 起来 …): after a one-letter
// verb it completes it, and the two stay or go together (这边打过去的一般都是宿迁座机 had become
// 打一般是宿迁座机, "calls made to you" cut to "call").
bool is_direction_complement(const UnitTokens& tokens, std::size_t j, std::size_t end) {
  std::string word;
  for (std::size_t k = j; k < end; ++k) word += tokens.tokens[k].text;
  static constexpr std::string_view kComplements[] = {"过去", "过来", "回来", "回去", "出去", "出来", "进去",
                                                      "进来", "上来", "下来", "上去", "下去", "起来"};
  return std::find(std::begin(kComplements), std::end(kComplements), word) != std::end(kComplements);
}

// The end of the word that starts at token i: the tokens with its word number, and the words bound to
// it, which stay or go together: for a one-letter demonstrative (这|段时间, 那|次), the word after it
// (faith::binds_demonstrative); for a one-letter verb, a direction complement after it (打|过去); for a
// one-letter preposition, the person after it (跟|你们, is_person_preposition); for a
// one-letter word or 怎么, a clause-final 了 after it (completes_with_le). Without word numbers each
// token is a word.
std::size_t word_end(const UnitTokens& tokens, std::size_t i) {
  const std::size_t T = tokens.tokens.size();
  if (tokens.words.size() != T) return i + 1;
  auto end_of = [&](std::size_t k) {
    std::size_t j = k + 1;
    while (j < T && tokens.words[j] == tokens.words[k]) ++j;
    return j;
  };
  const std::size_t j = end_of(i);
  if (j >= T || tokens.tokens[i].kind != text::TokenKind::cjk || tokens.tokens[j].kind != text::TokenKind::cjk) return j;
  if (completes_with_le(tokens, i, j)) return j + 1;
  if (j != i + 1) return j;
  if (is_direction_complement(tokens, j, end_of(j))) return end_of(j);
  if (is_person_preposition(tokens.tokens[i])) {
    const std::size_t k = after_pronoun(tokens.tokens, j);
    if (k < T && is_person_word(tokens.tokens, k)) return end_of(k);
    if (k > j) return k;
  }
  std::size_t a = 0, b = 0;
  const bool binds = faith::binds_demonstrative(text::next_code_point(tokens.tokens[i].text, &a),
                                                text::next_code_point(tokens.tokens[j].text, &b));
  return binds ? end_of(j) : j;
}

// Whole-word keep decisions (word_end): a word stays when the mean keep probability of its tokens
// reaches the threshold, or when one of them is forced or guarded.
std::vector<char> word_keep(const UnitTokens& tokens, const std::vector<float>& p, float threshold) {
  const std::size_t T = p.size();
  std::vector<char> keep(T, 0);
  for (std::size_t i = 0; i < T;) {
    const std::size_t j = word_end(tokens, i);
    double sum = 0.0;
    bool must = false;
    for (std::size_t k = i; k < j; ++k) {
      sum += p[k];
      must = must || tokens.forced[k] || (!tokens.guarded.empty() && tokens.guarded[k]);
    }
    const bool kept = must || sum / static_cast<double>(j - i) >= threshold;
    for (std::size_t k = i; k < j; ++k) keep[k] = kept;
    i = j;
  }
  return keep;
}

std::string compress_unit(const Unit& unit, const UnitTokens& tokens, const std::vector<float>& weights,
                          float threshold) {
  if (threshold <= 0.0f || tokens.tokens.empty()) return unit.text;
  const std::vector<float> p = keep_probabilities(tokens, weights);
  std::vector<char> keep = word_keep(tokens, p, threshold);
  drop_orphan_particles(tokens, keep);
  drop_lone_letters(tokens, keep);
  drop_lone_nouns(tokens, keep);
  // A unit cut down to one character ("好的" -> "的", "请问" -> "问") says nothing a reader can use,
  // though the character may well be on the reference's LCS: it is not offered at all (an empty
  // text, which the decoder never selects), unless that character is an emotion the customer
  // expressed (an emoji), which keeps its whole unit.
  std::size_t kept_chars = 0;
  bool forced = false;
  for (std::size_t i = 0; i < p.size(); ++i)
    if (keep[i] && !text::is_punctuation(tokens.tokens[i])) {
      kept_chars += static_cast<std::size_t>(tokens.tokens[i].char_end - tokens.tokens[i].char_start);
      forced = forced || tokens.forced[i];
    }
  if (kept_chars == 1 && unit.chars > 1) return forced ? unit.text : std::string();
  return rebuild(unit, tokens.tokens, keep);
}

std::vector<float> keep_targets(const UnitTokens& unit, const std::vector<std::string>& references) {
  // The unit's code points (as ids) and how many each token has.
  std::vector<int> a;
  std::vector<std::size_t> sizes;
  for (const auto& t : unit.tokens) {
    const auto cps = text::decode_utf8(t.text, text::Utf8Mode::lossy).cps;
    a.insert(a.end(), cps.begin(), cps.end());
    sizes.push_back(cps.size());
  }
  std::vector<char> hits(a.size(), 0);  // on some reference sentence's LCS
  for (const auto& ref : references) {
    for (const auto& sentence : text::rouge_tokens_zh(ref, text::ZhSplit::period)) {
      std::vector<int> b;
      for (const auto& tok : sentence) {
        const auto cps = text::decode_utf8(tok, text::Utf8Mode::lossy).cps;
        b.insert(b.end(), cps.begin(), cps.end());
      }
      text::lcs_positions(a, b, &hits);
    }
  }
  std::vector<float> y;
  std::size_t pos = 0;
  for (std::size_t n : sizes) {
    int on = 0;
    for (std::size_t i = 0; i < n; ++i) on += hits[pos + i];
    y.push_back(2 * on >= static_cast<int>(n) && n > 0 ? 1.0f : 0.0f);
    pos += n;
  }
  return y;
}

std::vector<float> train_compressor(const std::vector<KeepExample>& examples, int buckets,
                                    const CompressTrainOptions& o) {
  KESSEL_CHECK_ARG(buckets >= 1, "train_compressor: buckets must be >= 1, got ", buckets);
  KESSEL_CHECK_ARG(o.epochs >= 1 && o.lr > 0.0f && o.l2 >= 0.0f, "train_compressor: epochs ", o.epochs,
                   ", lr ", o.lr, ", l2 ", o.l2, " out of range");
  const std::size_t B = static_cast<std::size_t>(buckets);
  std::vector<float> w(B + 1, 0.0f);
  std::vector<float> g2(B + 1, 1e-6f);  // AdaGrad accumulators
  std::vector<std::size_t> order(examples.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::uint64_t rng = o.seed ^ 0xc0ffee;
  for (int epoch = 0; epoch < o.epochs; ++epoch) {
    shuffle_splitmix(order, rng);
    for (std::size_t k : order) {
      const KeepExample& ex = examples[k];
      float z = w[B];
      for (std::int32_t id : ex.features) z += w[static_cast<std::size_t>(id)];
      const float g = 1.0f / (1.0f + std::exp(-z)) - ex.target;  // d BCE / d z
      auto update = [&](std::size_t j) {
        const float gj = g + o.l2 * w[j];
        g2[j] += gj * gj;
        w[j] -= o.lr * gj / std::sqrt(g2[j]);
      };
      update(B);
      for (std::int32_t id : ex.features) update(static_cast<std::size_t>(id));
    }
  }
  return w;
}

}  // namespace kessel::summarize
