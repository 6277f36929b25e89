// Whether a Chinese clause asks (zh_questions.h).
#include "summarize/zh_questions.h"

#include <algorithm>
#include <string_view>

#include "kessel/text/segment.h"
#include "kessel/text/utf8.h"

namespace kessel::summarize::zh_question {

namespace {

// The modal particles and the address a clause may end with after what it says (能退吗啊, 还是换货吧亲): a
// clause's end is read past them.
constexpr std::u32string_view kTrailingParticles = U"啊呀啦哈嘛哦噢喔呗亲";

// The measure words that count a thing after 几 or 多少 (几个, 多少条).
constexpr std::u32string_view kHowManyMeasures = U"个件天号点次块元箱台张单瓶包袋套位周条斤米克码寸";

// What makes the 几 after it "a few", not "how many" (十几天, 好几个, 这几天, 前几天).
constexpr std::u32string_view kAFewBefore = U"十好这那前后";

// Whether a Chinese clause (code points [begin, end)) ends in a question word that asks: 那个卡有什么用,
// 这是为什么, 运费多少钱, 新地址距离收货地址有多远, 京东PC端在哪. Not after a negation (没什么, 没有什么用:
// "nothing") or 才 (这才几天: "only a few days!"), nor where the clause says it does not know, find or mind
// (不知道为什么, 找不到在哪里, 随便什么, 无论多少): the word is then indefinite.
bool ends_in_question_word(const std::vector<char32_t>& cps, std::size_t begin, std::size_t end) {
  static constexpr std::u32string_view kFinal[] = {U"什么用", U"啥用", U"什么意思", U"啥意思", U"什么时候", U"什么",
                                                   U"啥时候", U"啥", U"多少钱", U"多少", U"怎么样", U"怎么办", U"哪里",
                                                   U"哪儿", U"哪个", U"哪天", U"在哪", U"去哪", U"到哪",
                                                   U"几天", U"几号", U"几点", U"多久", U"多远", U"多大",
                                                   U"多长", U"多重", U"多高"};
  std::u32string_view clause(cps.data() + begin, end - begin);
  // A change of state after the question word asks the same (请问我的快递到哪里了, 现在多少了).
  if (clause.size() > 1 && clause.back() == U'了') clause.remove_suffix(1);
  // How many of a thing asks as 多少 does (目前有货的是多少条, 还剩多少个).
  if (clause.size() > 3 && clause.substr(clause.size() - 3, 2) == U"多少" &&
      kHowManyMeasures.find(clause.back()) != std::u32string_view::npos)
    clause.remove_suffix(1);
  for (std::u32string_view w : kFinal) {
    if (clause.size() <= w.size() || clause.substr(clause.size() - w.size()) != w) continue;
    const std::u32string_view before = clause.substr(0, clause.size() - w.size());
    const std::u32string_view near = before.substr(before.size() > 2 ? before.size() - 2 : 0);
    if (near.find_first_of(U"没不无才") != std::u32string_view::npos) return false;
    // 十几天, 好几天, 这几天: a few, not how many.
    if (w.front() == U'几' && !before.empty() && kAFewBefore.find(before.back()) != std::u32string_view::npos)
      return false;
    for (std::u32string_view indefinite : {U"知道", U"清楚", U"明白", U"找不到", U"不记得", U"忘了", U"忘记", U"随便", U"无论", U"不管", U"都行", U"都可以"})
      if (before.find(indefinite) != std::u32string_view::npos) return false;
    return true;
  }
  return false;
}

// Whether a Chinese clause (code points [begin, end)) asks "how" inside it: 怎么 怎样 如何 咋 after its first
// word (买家电怎样分期付款, 下错单如何取消, 发票怎么分开注明, 提现咋提; not 不咋好用), or "how long" anywhere
// (大概多久可以拿). Not in 不管 / 无论 / 不知道 clauses, where the word is indefinite (不知道怎么弄).
bool asks_how(const std::vector<char32_t>& cps, std::size_t begin, std::size_t end) {
  const std::u32string_view clause(cps.data() + begin, end - begin);
  for (std::u32string_view indefinite : {U"不管", U"无论", U"知道", U"不会", U"随便"})
    if (clause.find(indefinite) != std::u32string_view::npos) return false;
  for (std::u32string_view how : {U"怎么", U"怎样", U"如何"})
    if (const std::size_t at = clause.find(how); at != std::u32string_view::npos && at > 0) return true;
  // 咋 is how as spoken (提现咋提, 这个咋用); 不咋 is "not very" (不咋好用).
  if (const std::size_t at = clause.find(U'咋'); at != std::u32string_view::npos && at > 0 && clause[at - 1] != U'不')
    return true;
  // How long, anywhere in it (大概多久可以拿, 多长时间能到账), but for "not long" or "only" just before it
  // (没多久, 没用多久, 才多久).
  for (std::u32string_view how_long : {U"多久", U"多长时间"}) {
    const std::size_t at = clause.find(how_long);
    if (at == std::u32string_view::npos) continue;
    const std::u32string_view near = clause.substr(at >= 2 ? at - 2 : 0, at >= 2 ? 2 : at);
    if (near.find_first_of(U"没不才") == std::u32string_view::npos) return true;
  }
  return false;
}

// Whether a Chinese clause (code points [begin, end)) asks "how many" inside it: 几 and a measure word
// after a verb that counts (应该有几个赠品, 要买几箱, 还剩几天). 好几个 (several), 这几天 (these days) and
// 几个月前 (some months ago) do not follow such a verb.
bool asks_how_many(const std::vector<char32_t>& cps, std::size_t begin, std::size_t end) {
  static constexpr std::u32string_view kCounting = U"有是要买剩差发送退等收到";
  static constexpr std::u32string_view kMeasures = kHowManyMeasures;
  for (std::size_t i = begin + 1; i + 1 < end; ++i)
    if (cps[i] == U'几' && kCounting.find(cps[i - 1]) != std::u32string_view::npos &&
        kMeasures.find(cps[i + 1]) != std::u32string_view::npos)
      return true;
  return false;
}

// Whether a Chinese clause (code points [begin, end)) asks with an A不A / A没A form (会不会影响, 能不能
// 快点, 有没有货, 可不可以退) or ends in V了没有 (京东豆还了没有): not in a 不知道 / 不确定 / 不管 / 无论 / 看看 clause, where it is indefinite (不知道能不能
// 退, 看看有没有).
bool asks_a_not_a(const std::vector<char32_t>& cps, std::size_t begin, std::size_t end) {
  const std::u32string_view clause(cps.data() + begin, end - begin);
  for (std::u32string_view indefinite : {U"知道", U"不管", U"无论", U"看看", U"看下", U"看一下", U"确认", U"确定", U"清楚"})
    if (clause.find(indefinite) != std::u32string_view::npos) return false;
  // V了没有 / V了没 at the clause's end asks whether it happened (京东豆还了没有, 处理好了没).
  if (clause.ends_with(U"了没有") || clause.ends_with(U"了没")) return true;
  for (std::size_t i = 1; i + 1 < clause.size(); ++i)
    if ((clause[i] == U'不' || clause[i] == U'没') && clause[i - 1] == clause[i + 1] && clause[i - 1] >= 0x4E00 &&
        clause[i - 1] <= 0x9FFF && clause[i - 1] != U'不' && clause[i - 1] != U'没' &&
        !(clause[i - 1] == U'能' && i >= 2 && clause[i - 2] == U'可'))  // 可能不能: "may not be able to"
      return true;
  return false;
}

// Whether clause cps[begin, end), which ends in 不, is V不: a CJK word before the 不 that is not itself a
// negation or an adverb that leads one in (不不不, 要不 "otherwise", 如不, 就不).
bool ends_in_v_bu(const std::vector<char32_t>& cps, std::size_t begin, std::size_t end) {
  if (end - begin < 2) return false;
  const char32_t before = cps[end - 2];
  return before >= 0x4E00 && before <= 0x9FFF && std::u32string_view(U"不没要如就也都还").find(before) == std::u32string_view::npos;
}

}  // namespace

// Whether A还是B asks a choice without a 是 before A: both sides short (two to six letters) and alike in
// being no clause of their own (直接退款还是建赔付单, 银行卡还是jd账户, 今天取货还是明天, 下单还是货到发). 还是 reads "still"
// where A holds a subject, an adverb or an aspect (怎么现在还是收货, 订单这今天还是处理不了, 聊了半天还是机器, 看的还是派送),
// where B opens with a predicate (还是在出库状态, 还是有划痕), or where the clause ends as a statement in 了, 的 or 吧
// (你们还是发了); a side of one letter is too little to tell (弄来弄去还是坑).
bool short_sides_choice(std::u32string_view a, std::u32string_view after) {
  std::u32string_view b = after.substr(0, after.find_first_of(U"，,、；;：:。？?！!"));
  while (!b.empty() && kTrailingParticles.find(b.back()) != std::u32string_view::npos) b.remove_suffix(1);
  if (a.size() < 2 || a.size() > 6 || b.size() < 2 || b.size() > 6) return false;
  if (std::u32string_view(U"了的吧").find(b.back()) != std::u32string_view::npos) return false;
  if (a.find_first_of(U"了的我你您他她它这那还都也又仍怎现") != std::u32string_view::npos) return false;
  return std::u32string_view(U"在有会要是能可出没不未无很挺太老一").find(b.front()) == std::u32string_view::npos;
}

bool asks_alternative(const std::vector<char32_t>& cps, std::size_t begin, std::size_t end) {
  std::size_t last = end;
  while (last > begin && kTrailingParticles.find(cps[last - 1]) != std::u32string_view::npos) --last;
  if (last > begin && cps[last - 1] == U'吧') return false;  // 我觉得是质量问题，还是换货吧: a preference
  const std::u32string_view sentence(cps.data() + begin, end - begin);
  static constexpr std::u32string_view kStill = U"不没未无很挺太老", kStillWords[] = {U"一样", U"这样", U"那样", U"照样"};
  static constexpr std::u32string_view kNotChoice = U"但可就只要于总老还也都真";
  const auto is_clause_mark = [](char32_t c) { return std::u32string_view(U"，,、；;：:").find(c) != std::u32string_view::npos; };
  // Whether sentence[from, to) holds a 是 that leads a choice, with something after it.
  const auto leads_choice = [&](std::size_t from, std::size_t to) {
    for (std::size_t i = from; i + 1 < to; ++i)
      if (sentence[i] == U'是' && (i == 0 || kNotChoice.find(sentence[i - 1]) == std::u32string_view::npos)) return true;
    return false;
  };
  for (std::size_t at = sentence.find(U"还是"); at != std::u32string_view::npos; at = sentence.find(U"还是", at + 2)) {
    const std::u32string_view after = sentence.substr(at + 2);
    if (after.empty() || kStill.find(after[0]) != std::u32string_view::npos ||
        std::any_of(std::begin(kStillWords), std::end(kStillWords), [&](std::u32string_view w) { return after.starts_with(w); }))
      continue;
    std::size_t clause = at;
    while (clause > 0 && !is_clause_mark(sentence[clause - 1])) --clause;
    if (clause < at) {  // 是A还是B within one clause, or two short sides without 是 (银行卡还是jd账户)
      if (leads_choice(clause, at) || short_sides_choice(sentence.substr(clause, at - clause), after)) return true;
      continue;
    }
    if (at == 0) continue;  // A，还是B: the clause before asks or leads with 是
    std::size_t before = at - 1;
    while (before > 0 && !is_clause_mark(sentence[before - 1])) --before;
    if (before < at - 1 && (leads_choice(before, at - 1) || clause_asks(cps, begin + before, begin + at - 1))) return true;
  }
  return false;
}

bool checks_what_is_meant(std::u32string_view text) {
  for (std::u32string_view address : {U"亲爱的", U"亲爱哒", U"亲亲", U"亲"})
    if (text.starts_with(address)) {
      text.remove_prefix(address.size());
      break;
    }
  while (!text.empty() && std::u32string_view(U"，, ~～").find(text.front()) != std::u32string_view::npos) text.remove_prefix(1);
  if (!(text.starts_with(U"您是") || text.starts_with(U"你是"))) return false;
  text.remove_prefix(2);
  for (std::u32string_view verb : {U"需要", U"要", U"想", U"说", U"指"})
    if (text.starts_with(verb)) return true;
  return false;
}

bool asks_what_next(std::u32string_view before_ne) {
  if (before_ne.ends_with(U'的')) before_ne.remove_suffix(1);
  for (std::u32string_view w : {U"之后", U"以后", U"然后", U"后面", U"其他", U"其它", U"别的"})
    if (before_ne.ends_with(w)) return true;
  return false;
}

bool asks_about_bare_noun(std::u32string_view before_ne) {
  if (before_ne.empty() || before_ne.size() > 3 || before_ne == U"人") return false;
  static constexpr std::u32string_view kStatement = U"的了没不在是好嗯谢着还就也都会要对行哦下过正啦吧歉稍客您可以收明知";
  for (char32_t cp : before_ne)
    if (cp < 0x4E00 || cp > 0x9FFF || kStatement.find(cp) != std::u32string_view::npos) return false;
  return true;
}

namespace {

// Whether clause cps[lead, end) asks where, its question word after who and how it goes: a person (我, 我们,
// 你, 您), a modal (可以, 能, 应该, 要, 该) and a preposition of place (到, 在, 去, 从, 找), each at most once and
// in that order, the preposition required, then 哪里, 哪儿 or 哪个 (到哪里查询发票, 我可以在哪里申请, 去哪儿退).
bool asks_where(const std::vector<char32_t>& cps, std::size_t lead, std::size_t end) {
  const std::u32string_view clause(cps.data() + lead, end - lead);
  std::size_t at = 0;
  const auto skip_one_of = [&](std::initializer_list<std::u32string_view> words) {
    for (std::u32string_view w : words)
      if (clause.substr(at).starts_with(w)) {
        at += w.size();
        return true;
      }
    return false;
  };
  skip_one_of({U"我们", U"你们", U"我", U"你", U"您"});
  skip_one_of({U"可以", U"应该", U"能", U"要", U"该"});
  if (!skip_one_of({U"到", U"在", U"去", U"从", U"找"})) return false;
  const std::u32string_view rest = clause.substr(at);
  return rest.starts_with(U"哪里") || rest.starts_with(U"哪儿") || rest.starts_with(U"哪个");
}

// The words before a question word that make it indefinite (asks_with_a_question_word_inside): a verb of
// knowing, checking, telling, saying or waiting, a "whatever", a condition.
constexpr std::u32string_view kIndefiniteBefore[] = {U"知道", U"清楚", U"明白", U"就是", U"这是", U"解释", U"看",
                                                     U"确认", U"问问", U"咨询", U"了解", U"查", U"告诉", U"说", U"等",
                                                     U"随便", U"无论", U"不管", U"记得", U"忘", U"如果", U"要是",
                                                     U"万一", U"若"};

// Whether question word `w`, with `before` and `after` it in its clause, asks (asks_with_a_question_word_inside).
bool asks_at(std::u32string_view before, std::u32string_view after, std::u32string_view w) {
  // "Every": 都 or 也 within the phrase the word opens (哪里都没有, 什么东西都, 谁也).
  const std::u32string_view phrase = after.substr(0, 3);
  if (phrase.find_first_of(U"都也") != std::u32string_view::npos) return false;
  if (w == U"什么" && after == U"的") return false;  // and so on
  // 几 after 十 好 这 那 前 后 is "a few" (十几天, 好几个, 这几天); after 才 it exclaims (这才几天: "only days!").
  if (w.front() == U'几' && !before.empty() &&
      (kAFewBefore.find(before.back()) != std::u32string_view::npos || before.back() == U'才' || before.back() == U']' ||
       text::is_digit(before.back())))
    return false;
  if (w == U"什么" && (before.ends_with(U"那个") || before.ends_with(U"这个"))) return false;  // 那个什么: a filler
  // A negation before "what", "who", "where", "how much" makes it "any" (没看到哪里有, 没什么问题); "why" and
  // "when" still ask after one (没收到为什么显示签收, 还没发货什么时候发).
  const bool why_or_when = w == U"为什么" || w == U"为啥" || w == U"什么时候" || w == U"能否" || w == U"可否";
  if (!why_or_when && before.find_first_of(U"没不无") != std::u32string_view::npos) return false;
  // A negation after "where" or "who" makes it "nowhere", "nobody" (在订单哪里查不到, 他哪里没有); not after "what"
  // (有什么不同).
  if ((w == U"哪" || w == U"谁") && after.find_first_of(U"没不") != std::u32string_view::npos) return false;
  for (std::u32string_view r : kIndefiniteBefore)
    if (before.find(r) != std::u32string_view::npos) return false;
  return true;
}

// Whether clause cps[lead, end) asks with a question word inside it: why (为什么, 为啥: 我的订单物流为什么完全走错了
// 地方), when (什么时候, 几点, 几天, 几号: 你什么时候能回复我, 早上几点有人可以去取), who (谁: 快递费谁出), what (什么,
// 啥: 企业账户和普通账户什么区别), which or where (哪: 在哪联系厂家, 按哪里匹配), how much (多少: 是多少金币), or whether
// it can be done (能否, 可否: 购买分数较多，能否有折扣). Not where the word is indefinite:
//   - a verb of knowing, checking, telling, saying or waiting before it makes it a report (不知道为什么, 这就是为什么,
//     联系售后看能否修改, 确认能否, 等什么时候有货, 告诉我什么时候…, 说是他哪里没有);
//   - a condition or a negation makes what, who, where and how much "any" (万一又有个什么问题, 没什么问题, 没多少,
//     在订单哪里查不到); 那个什么 is a filler;
//   - a clause that ends in 吧 suggests (到哪了给他退款吧);
//   - 都 or 也 after it makes it "every" (什么时候都可以, 哪里都没有);
//   - 什么的 at the end is "and so on" (比如发票什么的);
//   - 几 after 十 好 这 那 前 后 or a number is "a few" (十几天, 好几个, 这几天), after 才 an exclamation (这才几天).
bool asks_with_a_question_word_inside(const std::vector<char32_t>& cps, std::size_t lead, std::size_t end) {
  const std::u32string_view clause(cps.data() + lead, end - lead);
  if (clause.ends_with(U'吧')) return false;  // a suggestion (到哪了给他退款吧) or a tag, asked as a tag if at all
  static constexpr std::u32string_view kWords[] = {U"为什么", U"为啥", U"什么时候", U"能否", U"可否", U"什么", U"谁",
                                                   U"哪", U"啥", U"多少", U"几点", U"几天", U"几号"};
  for (std::u32string_view w : kWords) {
    for (std::size_t at = clause.find(w); at != std::u32string_view::npos; at = clause.find(w, at + 1)) {
      const std::u32string_view before = clause.substr(0, at), after = clause.substr(at + w.size());
      // 什么 of 为什么 and 什么时候 was read as that word.
      if (w == U"什么" && (before.ends_with(U'为') || after.starts_with(U"时候"))) continue;
      if (!asks_at(before, after, w)) continue;
      return true;
    }
  }
  return false;
}

// Whether a clause pairs a question word with itself, which then asks nothing: 哪天到就哪天到 ("whichever day"),
// 怎么支付的就怎么返回的 ("the way it was paid"). A range asks (最大能穿多少斤到多少斤: 到 or 至 right before the
// second).
bool is_correlative(std::u32string_view clause) {
  for (std::u32string_view w : {U"什么时候", U"哪天", U"哪里", U"哪个", U"什么", U"怎么", U"多少", U"谁"}) {
    const std::size_t first = clause.find(w);
    if (first == std::u32string_view::npos) continue;
    const std::size_t second = clause.find(w, first + w.size());
    if (second != std::u32string_view::npos && clause[second - 1] != U'到' && clause[second - 1] != U'至') return true;
  }
  return false;
}

// Whether clause cps[begin, end) ends in 嘛 that asks as 吗 does: the clause has a modal to ask with (可以直接
// 吃嘛, 能转过去嘛, 能帮我联系一下嘛), or, unless it asks for something (有货的先发给我看嘛: 给我, 帮我, 先, 快), 是, 有
// or 了 (发票开出了嘛, 订单都备注了是嘛, 是你们京东的线下体验店嘛). Not after an adverb that insists (根本不是个问题嘛,
// 本来就是嘛), in a reply of two letters (对嘛, 好的嘛) or in 干嘛 (why: asked by its own word).
bool asks_with_ma(const std::vector<char32_t>& cps, std::size_t begin, std::size_t end) {
  while (end > begin && text::is_trailing_symbol(cps[end - 1])) --end;
  if (end - begin < 4 || cps[end - 1] != U'嘛' || cps[end - 2] == U'干') return false;
  const std::u32string_view clause(cps.data() + begin, end - 1 - begin);
  for (std::u32string_view insists : {U"根本", U"本来", U"明明", U"毕竟", U"反正", U"当然", U"本身"})
    if (clause.find(insists) != std::u32string_view::npos) return false;
  if (clause.find(U"可以") != std::u32string_view::npos || clause.find_first_of(U"能会") != std::u32string_view::npos)
    return true;
  for (std::u32string_view request : {U"给我", U"帮我", U"先", U"快"})
    if (clause.find(request) != std::u32string_view::npos) return false;
  return clause.find_first_of(U"是有了") != std::u32string_view::npos;
}

}  // namespace

bool clause_asks(const std::vector<char32_t>& cps, std::size_t begin, std::size_t end, bool cut_off) {
  if (asks_with_ma(cps, begin, end)) return true;
  while (end > begin && (kTrailingParticles.find(cps[end - 1]) != std::u32string_view::npos || text::is_trailing_symbol(cps[end - 1])))
    --end;
  if (end == begin) return false;
  if (is_correlative(std::u32string_view(cps.data() + begin, end - begin))) return false;
  // A clause that opens with a question word asks, whatever its end (多少, 几号到, 为什么还没发货, 怎么办,
  // 如何申请),
  // after a 那 / 那么 / 请问, a request to check it (帮我看下什么时候会有货, 你查下多少钱) or 想知道, that leads it in.
  std::size_t lead = begin;
  for (std::u32string_view in : {U"那么", U"请问", U"那", U"帮我看一下", U"帮我看下", U"帮我查一下", U"帮我查下",
                                 U"帮忙看一下", U"帮忙看下", U"帮忙查一下", U"帮忙查下", U"麻烦看一下", U"麻烦看下",
                                 U"麻烦查一下", U"麻烦查下", U"你查一下", U"你查下", U"我想知道", U"想知道"})
    if (end - lead > in.size() && std::equal(in.begin(), in.end(), cps.begin() + static_cast<std::ptrdiff_t>(lead))) {
      lead += in.size();
      break;
    }
  for (std::u32string_view w : {U"什么", U"怎么", U"为什么", U"为啥", U"哪里", U"哪个", U"哪天", U"哪儿", U"谁", U"多少",
                                U"几号", U"几点", U"几天", U"啥", U"咋", U"多久", U"如何"})
    if (end - lead >= w.size() && std::equal(w.begin(), w.end(), cps.begin() + static_cast<std::ptrdiff_t>(lead))) {
      // Not "every" (什么都可以, 谁也不知道, 哪里都没有).
      const std::u32string_view phrase(cps.data() + lead + w.size(), std::min<std::size_t>(3, end - lead - w.size()));
      if (phrase.find_first_of(U"都也") == std::u32string_view::npos) return true;
    }
  if (asks_where(cps, lead, end) || asks_with_a_question_word_inside(cps, lead, end)) return true;
  if (ends_in_question_word(cps, lead, end) || asks_how_many(cps, lead, end) || asks_how(cps, lead, end) ||
      asks_a_not_a(cps, lead, end))
    return true;
  const char32_t last = cps[end - 1];
  if (last == U'吗' || last == U'么') return true;
  if (last == U'不') return !cut_off && ends_in_v_bu(cps, begin, end);
  if (last != U'呢') return false;
  if (cps[begin] == U'那') return true;  // 那我的钱呢
  const std::u32string_view before_ne(cps.data() + begin, end - 1 - begin);
  if (asks_what_next(before_ne) || asks_about_bare_noun(before_ne)) return true;  // 打开之后呢, 手机呢
  for (std::size_t i = begin; i + 1 < end; ++i) {
    if (kQuestionWordChars.find(cps[i]) != std::u32string_view::npos) return true;
    if (i + 2 < end && ((cps[i] == U'多' && cps[i + 1] == U'少') || (cps[i] == U'如' && cps[i + 1] == U'何')))
      return true;
  }
  return false;
}

bool agent_clause_asks(const std::vector<char32_t>& cps, std::size_t begin, std::size_t end) {
  while (end > begin && (kTrailingParticles.find(cps[end - 1]) != std::u32string_view::npos || cps[end - 1] == U'恩' ||
                         cps[end - 1] == U'嗯'))
    --end;
  const std::u32string_view clause(cps.data() + begin, end - begin);
  if (clause.ends_with(U"什么") || clause.ends_with(U"啥")) return false;  // 这个是什么: what it is
  // A negated clause reports what is not known or shown (没有显示具体扣多少).
  if (clause.find_first_of(U"没不无") != std::u32string_view::npos) return false;
  if (ends_in_question_word(cps, begin, end)) return true;
  if (!clause.ends_with(U"的")) return false;
  for (std::u32string_view w : {U"什么时候", U"什么原因", U"什么情况", U"哪天", U"几号", U"几点"}) {
    const std::size_t at = clause.find(w);
    if (at == std::u32string_view::npos || at > 4) continue;  // after a short subject at most (商品什么时候…)
    const std::u32string_view after = clause.substr(at + w.size());
    if (after.find_first_of(U"就都也可能") != std::u32string_view::npos) return false;  // 什么时候发的可能要…
    return true;
  }
  return false;
}

bool opens_with_question_word(std::string_view text) {
  static constexpr std::string_view kWords[] = {"什么", "怎么", "为什么", "为啥", "哪", "谁", "多少", "几号",
                                                "几点", "几天", "多久", "如何", "啥", "咋"};
  return std::any_of(std::begin(kWords), std::end(kWords), [&](std::string_view w) { return text.starts_with(w); });
}

bool holds_question_word(std::string_view text) {
  static constexpr std::string_view kWords[] = {"多少", "什么", "哪", "谁", "怎么", "咋", "啥", "几号", "几天", "几点", "多久"};
  if (std::any_of(std::begin(kWords), std::end(kWords), [&](std::string_view w) { return text.find(w) != std::string_view::npos; }))
    return true;
  // 如何 asks unless it is "no matter how" (无论如何, 不管如何).
  for (std::size_t at = text.find("如何"); at != std::string_view::npos; at = text.find("如何", at + 1)) {
    const bool concessive = (at >= 6 && (text.compare(at - 6, 6, "无论") == 0 || text.compare(at - 6, 6, "不管") == 0));
    if (!concessive) return true;
  }
  return false;
}

bool holds_question_word(std::u32string_view cps) {
  auto next_is = [&](std::size_t i, std::u32string_view one_of) {
    return i + 1 < cps.size() && one_of.find(cps[i + 1]) != std::u32string_view::npos;
  };
  auto after = [&](std::size_t i, std::u32string_view word) {
    return i >= word.size() && cps.substr(i - word.size(), word.size()) == word;
  };
  for (std::size_t i = 0; i < cps.size(); ++i) {
    switch (cps[i]) {
      case U'哪': case U'谁': case U'咋': case U'啥': return true;
      case U'多': if (next_is(i, U"少久")) return true; break;
      case U'什': case U'怎': if (next_is(i, U"么")) return true; break;
      case U'几': if (next_is(i, U"号天点")) return true; break;
      case U'如': if (next_is(i, U"何") && !after(i, U"无论") && !after(i, U"不管")) return true; break;
      default: break;
    }
  }
  return false;
}

namespace {

std::u32string_view without_tag_tail(std::u32string_view text) {
  while (!text.empty() && (std::u32string_view(U"。？！?!，, ~～啊呀哈").find(text.back()) != std::u32string_view::npos ||
                           text::is_trailing_symbol(text.back())))
    text.remove_suffix(1);
  return text;
}

}  // namespace

bool ends_in_tag(std::u32string_view text) {
  text = without_tag_tail(text);
  return text.ends_with(U"吧") || text.ends_with(U"吧吗");
}

bool ends_in_tag_after_de(std::u32string_view text) {
  text = without_tag_tail(text);
  return text.ends_with(U"的吧");
}

bool ends_in_confirming_tag(std::u32string_view text) {
  text = without_tag_tail(text);
  return std::any_of(std::begin(kConfirmingTags), std::end(kConfirmingTags),
                     [&](std::u32string_view tag) { return text.ends_with(tag); });
}

std::u32string polar_verb(std::u32string_view q) {
  for (std::u32string_view w : {U"什么", U"哪", U"谁", U"几", U"多少", U"怎么", U"为什么", U"啥", U"咋", U"如何"})
    if (q.find(w) != std::u32string_view::npos) return {};
  std::size_t end = q.size();
  while (end > 0 && (text::is_space(q[end - 1]) || std::u32string_view(U"?？!！。.~～啊呀呢哈").find(q[end - 1]) != std::u32string_view::npos))
    --end;
  const bool ends_in_ma = end > 1 && (q[end - 1] == U'吗' || q[end - 1] == U'么');
  for (std::size_t i = 1; i + 1 < q.size(); ++i) {
    if (q[i] != U'不' && q[i] != U'没') continue;
    if (q[i - 1] == U'可' && q.substr(i + 1, 2) == U"可以") return U"可以";  // 可不可以
    if (q[i - 1] == q[i + 1] && q[i - 1] >= 0x4E00 && q[i - 1] <= 0x9FFF) {
      // 是不是 before a modal asks about the modal: 是不是今天就能用 is answered 可以的哦.
      if (q[i - 1] == U'是') {
        const std::u32string_view rest = q.substr(i + 2, q.substr(i + 2).find_first_of(U"，,。？?！!"));
        for (std::u32string_view modal : {U"可以", U"能", U"会"})
          if (rest.find(modal) != std::u32string_view::npos) return std::u32string(modal);
      }
      return std::u32string(1, q[i - 1]);
    }
  }
  std::size_t best = std::u32string_view::npos;
  std::u32string_view verb;
  for (std::u32string_view v : {U"可以", U"需要", U"是", U"有", U"能", U"会", U"要", U"用"}) {
    const std::size_t at = q.find(v);
    if (at < best) best = at, verb = v;
  }
  if (!verb.empty()) return std::u32string(verb);
  // Else the first word jieba's dictionary tags a verb (这款电脑带光驱吗 -> 带, answered 不带光驱的呢).
  const text::Segmenter& segmenter = text::Segmenter::default_segmenter();
  for (const text::WordSpan& w : segmenter.segment(std::span<const char32_t>(q.data(), q.size()))) {
    const std::u32string_view word = q.substr(static_cast<std::size_t>(w.char_start), static_cast<std::size_t>(w.char_end - w.char_start));
    if (text::is_cjk(word.front()) && segmenter.word_class(word) == text::WordClass::verb) return std::u32string(word);
  }
  return ends_in_ma ? std::u32string(kAnyVerb) : std::u32string();
}

namespace {

// The answer past its opening address, fillers and marks.
std::u32string_view without_opening_fillers(std::u32string_view a) {
  for (bool more = true; more && !a.empty();) {
    more = false;
    for (std::u32string_view f : {U"亲爱的", U"亲亲", U"亲", U"嗯嗯", U"嗯", U"哦", U"您好", U"你好", U"这个", U"那个",
                                  U"，", U",", U"～", U"~", U" ", U"！", U"!"})
      if (a.starts_with(f)) {
        a.remove_prefix(f.size());
        more = true;
      }
  }
  return a;
}

}  // namespace

int answers_polar(std::u32string_view answer, std::u32string_view verb) {
  if (verb.empty()) return 0;
  std::u32string_view a = without_opening_fillers(answer);
  if (verb != U"是" && a.starts_with(U"是") && !a.starts_with(U"是的")) a.remove_prefix(1);  // 这个是不会的
  // An adverb of time before the verb or its negation: 已经申请等待审核中, 还没有申请 answer 申请了吗.
  for (std::u32string_view adverb : {U"已经", U"已", U"还", U"暂时", U"目前"})
    if (a.starts_with(adverb) && a.size() > adverb.size() && !a.substr(adverb.size()).starts_with(U"是")) {
      a.remove_prefix(adverb.size());
      break;
    }
  auto opens = [&](std::u32string_view w) { return a.starts_with(w); };
  if (opens(verb)) return 2;
  if ((a.starts_with(U"不") || a.starts_with(U"没")) && a.substr(1).starts_with(verb)) return 2;
  if (verb == U"是" && (opens(U"对") || opens(U"不对"))) return 2;
  if (verb == U"有" && opens(U"没")) return 2;
  if ((verb == U"可以" || verb == U"能") &&
      (opens(U"可以") || opens(U"不可以") || opens(U"不行") || opens(U"能") || opens(U"不能")))
    return 2;
  if ((verb == U"需要" || verb == U"要" || verb == U"用") && (opens(U"不用") || opens(U"不需要"))) return 2;
  // 没有 alone, not 没有问题的话…: what follows it ends the answer.
  const bool bare_no = opens(U"没有") && (a.size() == 2 || std::u32string_view(U"的呢哦哈啊，。,.!！~ ").find(a[2]) != std::u32string_view::npos);
  return opens(U"是的") || opens(U"对的") || opens(U"不是") || opens(U"对") || opens(U"不对") || bare_no || opens(U"有的") ? 1 : 0;
}

}  // namespace kessel::summarize::zh_question
