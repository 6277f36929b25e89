// Whole-word token deletion (compress.h, word_keep and mend_deletion): which words of a unit stay,
// the words bound to stay or go together, and the passes that mend what deletion leaves (an orphan
// particle, a lone letter or noun, a stutter, a broken 么, a 了, a helped person or a label's colon a
// line needs).
#include <algorithm>
#include <iterator>
#include <string>
#include <string_view>
#include <vector>

#include "kessel/text/segment.h"
#include "kessel/text/utf8.h"
#include "summarize/compress.h"
#include "summarize/compress_zh.h"
#include "summarize/faith_cues.h"

namespace kessel::summarize {

namespace {

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

// A clause-final 了 after an action verb that nothing else marks as done ("这两个也付款了", "应该是付款了"):
// without it the line reads as a plan or an order ("这两个也付款"). It stays with its kept verb unless
// the clause says it is done another way (已经, 已为). A verb with its result (开错了, 改好了) keeps it too:
// without it the line reads as a note, not as what happened.
void keep_perfective_le(const UnitTokens& tokens, std::vector<char>& keep) {
  const auto& t = tokens.tokens;
  if (tokens.words.size() != t.size()) return;
  for (std::size_t j = 1; j < t.size(); ++j) {
    if (keep[j] || !spells(t[j], "了") || !ends_clause(t, j) || !keep[j - 1] || t[j - 1].kind != text::TokenKind::cjk ||
        tokens.words[j - 1] == tokens.words[j])
      continue;
    std::size_t b = j - 1;
    while (b > 0 && tokens.words[b - 1] == tokens.words[j - 1]) --b;
    std::u32string verb;
    for (std::size_t k = b; k < j; ++k)
      for (std::size_t at = 0; at < t[k].text.size();) verb += text::next_code_point(t[k].text, &at);
    if (verb.back() == U'了' || verb.back() == U'的') continue;
    // A verb and its result that no dictionary lists (开错, 改好) is a verb too.
    const text::Segmenter& segmenter = text::Segmenter::default_segmenter();
    const text::WordClass c = segmenter.word_class(verb);
    const bool with_result = c == text::WordClass::unknown && verb.size() == 2 &&
                             std::u32string_view(U"错好完到掉坏").find(verb[1]) != std::u32string_view::npos &&
                             segmenter.word_class(std::u32string_view(verb).substr(0, 1)) == text::WordClass::verb;
    if (c != text::WordClass::verb && !with_result) continue;
    bool done_otherwise = false;
    for (std::size_t k = j; k-- > 0 && t[k].kind != text::TokenKind::punct;)
      done_otherwise = done_otherwise || first_cp_in(t[k], U"已");
    if (!done_otherwise) keep[j] = 1;
  }
}

// A kept 帮 keeps the person it helps before a kept verb: "已经帮您改好了" may become "已经改好了" (帮 low),
// never "已经帮改好了", which reads as a cut. 帮 itself is the model's: readers want to see who acts (帮催促配送
// over 催促配送), so it does not go with its pronoun as 给 and 为 do. So does a word jieba made of a letter
// and the preposition 为 or 给 (已为, 会为: "已为您申请换开增票" had become 已为申请换开增票, "会为您备注" 会为备注;
// 单为 in 服务单为您留言), which word_end cannot bind as it binds the one-letter 为.
void keep_the_person_helped(const UnitTokens& tokens, std::vector<char>& keep) {
  const auto& t = tokens.tokens;
  const bool words = tokens.words.size() == t.size();
  for (std::size_t i = 0; i + 1 < t.size(); ++i) {
    const bool word_ends = !words || tokens.words[i + 1] != tokens.words[i];
    const bool helps = spells(t[i], "帮") && word_ends;
    // A letter and 为 or 给 as one word of two letters: an adverb (已为, 会为) or a noun's last letter that jieba
    // glued to it (服务单为您留言 is 服务|单为|您|留言: "在服务单为您留言" had become 在服务单为留言); not 因为, 认为,
    // 作为 or 以为, which are no prepositions.
    const bool for_in_a_word = (spells(t[i], "为") || spells(t[i], "给")) && word_ends && words && i > 0 &&
                               tokens.words[i - 1] == tokens.words[i] && (i < 2 || tokens.words[i - 2] != tokens.words[i]) &&
                               !first_cp_in(t[i - 1], U"因认作以");
    if (!keep[i] || !(helps || for_in_a_word)) continue;
    const std::size_t after = after_pronoun(t, i + 1);
    if (after == i + 1 || after >= t.size() || !keep[after] || t[after].kind != text::TokenKind::cjk) continue;
    for (std::size_t k = i + 1; k < after; ++k) keep[k] = 1;
  }
}

// An agent's courtesy that opens a unit and runs on into what it says without a mark ("您客气了换开之后小妹短信
// 告知您", "不客气，…"): deletion that keeps 客气 of it leaves 客气换开之后短信告知, which reads as part of the
// sentence. The courtesy goes whole when anything after it is kept.
void drop_opening_courtesy(const UnitTokens& tokens, std::vector<char>& keep) {
  const auto& t = tokens.tokens;
  std::size_t i = 0;
  while (i < t.size() && (t[i].kind == text::TokenKind::punct || spells(t[i], "亲") || spells(t[i], "嗯"))) ++i;
  const std::size_t start = i;
  if (i < t.size() && (spells(t[i], "您") || spells(t[i], "你") || spells(t[i], "不"))) ++i;
  if (i + 1 >= t.size() || !spells(t[i], "客") || !spells(t[i + 1], "气")) return;
  std::size_t end = i + 2;
  if (end < t.size() && (spells(t[end], "了") || spells(t[end], "啦") || spells(t[end], "哈"))) ++end;
  bool said_after = false;
  for (std::size_t k = end; k < t.size(); ++k) said_after = said_after || (keep[k] && t[k].kind != text::TokenKind::punct);
  if (!said_after) return;
  for (std::size_t k = start; k < end; ++k)
    if (!tokens.forced[k]) keep[k] = 0;
  if (end < t.size() && t[end].kind == text::TokenKind::punct) keep[end] = 0;
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

// A deletion whose two sides start and end with the same character makes a stutter the speaker never
// wrote ("可不可以改一下改成不退啦" -> "可不可以改改成不退啦"): the deleted words come back. Doubling that was
// written ("看看", "专业人员人员") is not a gap and stays as it is.
void keep_no_new_doubling(const UnitTokens& tokens, std::vector<char>& keep) {
  const auto& t = tokens.tokens;
  std::size_t last = t.size();  // the last kept token
  for (std::size_t i = 0; i < t.size(); ++i) {
    if (!keep[i]) continue;
    if (last < t.size() && i > last + 1 && t[i].kind == text::TokenKind::cjk && t[i].text == t[last].text)
      for (std::size_t k = last + 1; k < i; ++k) keep[k] = 1;
    last = i;
  }
}

// A 么 that deletion leaves opening a clause reads as a broken word (我么收到, the typo for 我没收到, had
// become 么收到; 怎么, 什么 and 那么 lost their first letter the same way): the word before it comes back.
void keep_what_opens_me(const UnitTokens& tokens, std::vector<char>& keep) {
  const auto& t = tokens.tokens;
  bool clause_open = true;  // no kept token since the clause began
  for (std::size_t i = 0; i < t.size(); ++i) {
    if (t[i].kind == text::TokenKind::punct) {
      clause_open = true;
      continue;
    }
    if (!keep[i]) continue;
    if (clause_open && i > 0 && !keep[i - 1] && t[i - 1].kind == text::TokenKind::cjk && t[i].text == "么") {
      std::size_t b = i - 1;  // the whole word before it
      while (tokens.words.size() == t.size() && b > 0 && tokens.words[b - 1] == tokens.words[i - 1]) --b;
      for (std::size_t k = b; k < i; ++k) keep[k] = 1;
    }
    clause_open = false;
  }
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

// The code points of the whole word that token k is in (its word number).
std::u32string word_of_token(const UnitTokens& tokens, std::size_t k) {
  const auto& t = tokens.tokens;
  std::size_t b = k, e = k + 1;
  while (b > 0 && tokens.words[b - 1] == tokens.words[k]) --b;
  while (e < t.size() && tokens.words[e] == tokens.words[k]) ++e;
  std::u32string word;
  for (std::size_t m = b; m < e; ++m) {
    std::size_t at = 0;
    while (at < t[m].text.size()) word.push_back(text::next_code_point(t[m].text, &at));
  }
  return word;
}

// Whether the one-letter word 给 or 为 at token i, with its word ending at j, is the preposition "for" before
// a pronoun and a verb (会给您催促的, 给您安排上门维修, 正在为您查询): the two stay or go together, or deletion
// leaves 会给催促的, 正在为查询. Before a pronoun and a thing 给 is the verb "give" (能第一时间给我订单号), and the
// model's to keep whole.
bool gives_to_a_pronoun_before_a_verb(const UnitTokens& tokens, std::size_t i, std::size_t j) {
  const auto& t = tokens.tokens;
  if (!spells(t[i], "给") && !spells(t[i], "为")) return false;
  const std::size_t k = after_pronoun(t, j);
  if (k == j || k >= t.size() || t[k].kind != text::TokenKind::cjk) return false;
  const text::Segmenter& segmenter = text::Segmenter::default_segmenter();
  const std::u32string word = word_of_token(tokens, k);
  const text::WordClass c = segmenter.word_class(word);
  if (c == text::WordClass::verb) return true;
  // A set phrase jieba tags l or i rather than v (打电话, 打个电话) acts as a verb when its first letter is one
  // (快递员给我打电话 had become 快递员给打电话).
  return c == text::WordClass::other && word.size() > 1 &&
         segmenter.word_class(std::u32string_view(word).substr(0, 1)) == text::WordClass::verb;
}

// Whether the one-letter word at token i is 跟, 和, 与 or 及 joining the word that starts at j to a word
// before it, one of the two a noun (只有手机跟包装; jieba tags 包装 a verb): the two stay or go together,
// or deletion makes one thing of two (只有手机包装, the phone's box).
bool joins_a_noun(const UnitTokens& tokens, std::size_t i, std::size_t j) {
  const auto& t = tokens.tokens;
  if (t[i].text.size() != 3 || !first_cp_in(t[i], U"跟和与及") || i == 0 || t[i - 1].kind != text::TokenKind::cjk) return false;
  const text::Segmenter& segmenter = text::Segmenter::default_segmenter();
  return segmenter.word_class(word_of_token(tokens, i - 1)) == text::WordClass::noun ||
         segmenter.word_class(word_of_token(tokens, j)) == text::WordClass::noun;
}

// The end of the word that starts at token i: the tokens with its word number, and the words bound to
// it, which stay or go together: for a one-letter demonstrative (这|段时间, 那|次), the word after it
// (faith::binds_demonstrative); for a one-letter verb, a direction complement after it (打|过去); for a
// one-letter preposition, the person after it (跟|你们, is_person_preposition); for 给 or 为 before a
// pronoun and a verb, the pronoun (gives_to_a_pronoun_before_a_verb); for 跟, 和, 与 or 及 between two things,
// the noun after it (joins_a_noun); for a
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
  if (gives_to_a_pronoun_before_a_verb(tokens, i, j)) return after_pronoun(tokens.tokens, j);
  if (joins_a_noun(tokens, i, j)) return end_of(j);
  std::size_t a = 0, b = 0;
  const bool binds = faith::binds_demonstrative(text::next_code_point(tokens.tokens[i].text, &a),
                                                text::next_code_point(tokens.tokens[j].text, &b));
  return binds ? end_of(j) : j;
}

// A colon between a kept label and its kept value stays: without it "回电时间:次日[数字]点" and "原因:客户原因
// 退货" run together (回电时间次日[数字]点, 原因客户原因退货). 36 of the 46 CSDS val summary sentences whose
// source had one had lost it.
void keep_label_colons(const UnitTokens& tokens, std::vector<char>& keep) {
  const auto& t = tokens.tokens;
  for (std::size_t i = 1; i + 1 < t.size(); ++i) {
    if (keep[i] || (t[i].text != ":" && t[i].text != "：")) continue;
    // After 为 or 是 the copula already joins them ("质保期为一年").
    const bool label = keep[i - 1] && (t[i - 1].kind == text::TokenKind::cjk || t[i - 1].kind == text::TokenKind::placeholder) &&
                       !spells(t[i - 1], "为") && !spells(t[i - 1], "是");
    const bool value = keep[i + 1] && t[i + 1].kind != text::TokenKind::punct;
    if (label && value) keep[i] = 1;
  }
}

// A particle that closes a clause inside a message run on without a mark (没有的哦预计[金额]后有货的,
// 站点已经在处理中了呢放心): with a word of its clause kept before it and a word kept after it, deletion that
// drops it fuses the two clauses (没有的预计…, 已经在处理中了放心). It stays, and rendering puts the comma
// the message left out after it (render::with_run_ons_punctuated, whose particles these are: not 嘛, nor 吧
// but before a pronoun, as both also stand inside a clause; a 吧 that stays keeps its pronoun: 那就取消吧我看说
// 今天到… had become 取消看说今天到…). Only a particle that is a word of its own (not 哦哦).
void keep_run_on_particles(const UnitTokens& tokens, std::vector<char>& keep) {
  constexpr std::string_view kClosing[] = {"啊", "呢", "啦", "哦", "呀", "哈"};
  const auto& t = tokens.tokens;
  const bool words = tokens.words.size() == t.size();
  auto is_closing = [&](std::size_t i) {
    return t[i].kind == text::TokenKind::cjk &&
           std::any_of(std::begin(kClosing), std::end(kClosing), [&](std::string_view c) { return spells(t[i], c); });
  };
  // 吧 closes its clause when a pronoun opens the next (那就取消吧我看说今天到…; render.h's comma rule).
  auto closes_before_pronoun = [&](std::size_t i) {
    return spells(t[i], "吧") && t[i + 1].kind == text::TokenKind::cjk && first_cp_in(t[i + 1], U"我你您他她");
  };
  for (std::size_t i = 1; i + 1 < t.size(); ++i) {
    if (keep[i] || !(is_closing(i) || closes_before_pronoun(i)) || t[i + 1].kind == text::TokenKind::punct ||
        is_closing(i + 1))
      continue;
    if (words && (tokens.words[i - 1] == tokens.words[i] || tokens.words[i + 1] == tokens.words[i])) continue;
    bool before = false, after = false;  // a kept token in its clause before it, and in the next after it
    for (std::size_t k = i; k-- > 0 && t[k].kind != text::TokenKind::punct && !before;) before = keep[k] != 0;
    for (std::size_t k = i + 1; k < t.size() && t[k].kind != text::TokenKind::punct && !after; ++k) after = keep[k] != 0;
    if (!(before && after)) continue;
    keep[i] = 1;
    if (closes_before_pronoun(i)) keep[i + 1] = 1;  // the pronoun is what shows the new clause
  }
}

// An address that deletion cut to its noun (收到了呢亲爱的客户 -> 收到了呢客户, 尊敬的商家您好 -> 商家您好): with
// 亲爱的 (亲爱滴, 亲爱哒) or 尊敬的 gone, the 客户, 顾客, 用户, 买家, 商家 or 会员 after it goes too, unless a guard
// or an emotion mention holds it. CSDS val 367 read 客服:收到呢，客户。
void drop_address_nouns(const UnitTokens& tokens, std::vector<char>& keep) {
  static constexpr std::u32string_view kAddresses[] = {U"亲爱的", U"亲爱滴", U"亲爱哒", U"尊敬的"};
  static constexpr std::u32string_view kNouns[] = {U"客户", U"顾客", U"用户", U"买家", U"商家", U"会员"};
  const auto& t = tokens.tokens;
  auto spells_at = [&](std::size_t i, std::u32string_view w) {  // one CJK token a letter
    if (i + w.size() > t.size()) return false;
    for (std::size_t k = 0; k < w.size(); ++k) {
      std::size_t at = 0;
      if (t[i + k].kind != text::TokenKind::cjk || text::next_code_point(t[i + k].text, &at) != w[k] ||
          at != t[i + k].text.size())
        return false;
    }
    return true;
  };
  for (std::size_t i = 0; i + 5 <= t.size(); ++i) {
    const bool address = std::any_of(std::begin(kAddresses), std::end(kAddresses), [&](auto w) { return spells_at(i, w); });
    if (!address || keep[i] || keep[i + 1] || keep[i + 2]) continue;
    const std::size_t n = i + 3;
    if (!std::any_of(std::begin(kNouns), std::end(kNouns), [&](auto w) { return spells_at(n, w); })) continue;
    const bool held = tokens.forced[n] || tokens.forced[n + 1] ||
                      (!tokens.guarded.empty() && (tokens.guarded[n] || tokens.guarded[n + 1]));
    if (!held) keep[n] = keep[n + 1] = 0;
  }
}

}  // namespace

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

void mend_deletion(const UnitTokens& tokens, std::vector<char>& keep) {
  drop_orphan_particles(tokens, keep);
  keep_perfective_le(tokens, keep);
  keep_the_person_helped(tokens, keep);
  drop_opening_courtesy(tokens, keep);
  drop_lone_letters(tokens, keep);
  drop_lone_nouns(tokens, keep);
  keep_no_new_doubling(tokens, keep);
  keep_what_opens_me(tokens, keep);
  keep_label_colons(tokens, keep);
  drop_address_nouns(tokens, keep);
  keep_run_on_particles(tokens, keep);
}

}  // namespace kessel::summarize
