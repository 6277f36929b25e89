// zh: the marks and openings of a summary line: the commas a chat message left out (with_run_ons_punctuated),
// where a turn the data cut off shows its cut (stops_mid_clause), a name placeholder that only addresses
// someone (without_name_vocative), a greeting that opens a line (without_opening_greeting), and a yes to
// nothing shown (without_opening_yes). render.h has the contracts.
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "kessel/text/segment.h"
#include "kessel/text/utf8.h"
#include "render.h"

namespace kessel::summarize::render {

namespace {

// Particles that close a clause in chat (完成啦, 抱歉哈, 在的哦, 返券的呢, 是啊, 哎呀). Not 吧 (酒吧, 网吧), 嘛
// (干嘛 asks why), 了 (买了三种) or 的, which also stand inside a clause.
constexpr std::u32string_view kClosingParticles = U"啦哦哈呢呀啊";
// What may follow a closing particle in the same run of particles (哦哦, 的呢, 呢亲亲 is the address below).
constexpr std::u32string_view kParticles = U"啦哦哈呢呀啊嘛吧了的么吗哇噢喔嘞咯哟滴";
// The address an agent writes after a particle (完成啦亲马上为您发货; 对的呢亲您申请售后之后).
constexpr std::u32string_view kAddresses[] = {U"亲爱的", U"亲爱哒", U"亲亲", U"亲"};
// A reply that opens a message and runs on into what it says (是的已帮您操作退款了, 不是的是可以在下单时选定地址).
constexpr std::u32string_view kReplies[] = {U"不可以的", U"不需要的", U"不是的", U"没有的", U"可以的", U"不会的",
                                            U"不用的", U"是的", U"对的", U"好的", U"嗯嗯", U"恩恩"};
// After 好的 these make a noun phrase, not a reply (好的东西, 好的服务).
constexpr std::u32string_view kAfterGood[] = {U"东西", U"服务", U"商品", U"产品", U"体验", U"方法", U"办法",
                                              U"评价", U"消息", U"结果", U"质量"};

// 吧 closes a clause when a pronoun opens the next one (那就取消吧我看说今天到…, 好吧我知道了); elsewhere it
// may stand inside one (酒吧, 网吧, 你先试试吧).
bool closes_before_pronoun(const std::vector<char32_t>& cps, std::size_t i) {
  return cps[i] == U'吧' && i > 0 && text::is_cjk(cps[i - 1]) && i + 1 < cps.size() &&
         std::u32string_view(U"我你您他她").find(cps[i + 1]) != std::u32string_view::npos;
}

bool is_clause_mark(char32_t c) {
  return std::u32string_view(U"，,。.、；;：:!！?？~～ ").find(c) != std::u32string_view::npos;
}

bool starts_with(const std::vector<char32_t>& cps, std::size_t at, std::u32string_view word) {
  if (at + word.size() > cps.size()) return false;
  for (std::size_t k = 0; k < word.size(); ++k)
    if (cps[at + k] != word[k]) return false;
  return true;
}

// Past an address at `at` (not 亲自, 亲人, 亲身: a word of its own), or `at` itself.
std::size_t past_address(const std::vector<char32_t>& cps, std::size_t at, const std::vector<char>& word_start) {
  for (std::u32string_view a : kAddresses) {
    const std::size_t end = at + a.size();
    if (starts_with(cps, at, a) && (end == cps.size() || word_start[end])) return end;
  }
  return at;
}

// Whether a new clause can start at `at`: a Chinese letter that is no particle, or a placeholder, at a
// word's start (哈尔滨 and 呢子 are words: their 哈 and 呢 end nothing).
bool clause_starts(const std::vector<char32_t>& cps, std::size_t at, const std::vector<char>& word_start) {
  if (at >= cps.size() || !word_start[at]) return false;
  const char32_t c = cps[at];
  if (c == U'[') return true;
  return text::is_cjk(c) && kParticles.find(c) == std::u32string_view::npos && c != U'话';
}

// Where the comma goes after an opening reply at `at` (its particles and address with it), or 0.
std::size_t after_reply(const std::vector<char32_t>& cps, std::size_t at, const std::vector<char>& word_start) {
  for (std::u32string_view r : kReplies) {
    if (!starts_with(cps, at, r)) continue;
    std::size_t end = at + r.size();
    while (end < cps.size() && kParticles.find(cps[end]) != std::u32string_view::npos) ++end;
    end = past_address(cps, end, word_start);
    if (!clause_starts(cps, end, word_start)) return 0;
    if (r == U"好的")
      for (std::u32string_view noun : kAfterGood)
        if (starts_with(cps, end, noun)) return 0;
    return end;
  }
  return 0;
}

// The letters and placeholders in the run before `at` back to the last mark, counting from `from` at the
// earliest (after a comma put back before it).
std::size_t letters_since_mark(const std::vector<char32_t>& cps, std::size_t at, std::size_t from) {
  std::size_t run = 0;
  for (std::size_t k = at; k-- > from && !is_clause_mark(cps[k]);) run += text::is_cjk(cps[k]) || cps[k] == U'[';
  return run;
}

// Conjunctions that open a clause (…扣八元运费，然后退款…; …上门取件，但是现在…; 不是一个编号，所以…), and the
// letters a run must hold before one for a comma to go there: a short lead (询问所以帮我提交吗, 是但是…) is
// the clause's own opening.
constexpr std::u32string_view kConjunctions[] = {U"然后", U"但是", U"所以", U"可是", U"而且"};
constexpr std::size_t kRunBeforeConjunction = 6;

// Where a comma goes before a clause-opening conjunction at `at`, or 0: the conjunction is a word of the
// segmenter's (之所以 is not) after at least kRunBeforeConjunction letters or placeholders since the last
// mark, with a letter or placeholder after it.
// `from`: where the run starts at the latest (after a comma put back before it).
std::size_t before_conjunction(const std::vector<char32_t>& cps, std::size_t at, std::size_t from,
                               const std::vector<char>& word_start) {
  if (at == 0 || !word_start[at] || !(text::is_cjk(cps[at - 1]) || cps[at - 1] == U']')) return 0;
  for (std::u32string_view conj : kConjunctions) {
    if (!starts_with(cps, at, conj) || !word_start[at + conj.size()]) continue;
    const std::size_t after = at + conj.size();
    if (after >= cps.size() || !(text::is_cjk(cps[after]) || cps[after] == U'[')) return 0;
    return letters_since_mark(cps, at, from) >= kRunBeforeConjunction ? at : 0;
  }
  return 0;
}

// A yes that answers a second question inside one message (马上发货是的不需要: will ship now; yes, no postage):
// 是的 or 对的, a word of the segmenter's, after at least kRunBeforeReply letters since the last mark and
// before a new clause (not 是的话, 对的吗). Where the commas go: before it and after it (its particles
// with it), or {0, 0}.
constexpr std::u32string_view kInnerReplies[] = {U"是的", U"对的"};
constexpr std::size_t kRunBeforeReply = 4;

std::pair<std::size_t, std::size_t> around_inner_reply(const std::vector<char32_t>& cps, std::size_t at, std::size_t from,
                                                       const std::vector<char>& word_start) {
  if (at == 0 || !word_start[at] || !text::is_cjk(cps[at - 1]) || kParticles.find(cps[at - 1]) != std::u32string_view::npos ||
      cps[at - 1] == U'不')
    return {0, 0};
  for (std::u32string_view r : kInnerReplies) {
    if (!starts_with(cps, at, r) || !word_start[at + r.size()]) continue;
    std::size_t end = at + r.size();
    while (end < cps.size() && kParticles.find(cps[end]) != std::u32string_view::npos && word_start[end + 1]) ++end;
    if (!clause_starts(cps, end, word_start)) return {0, 0};
    return letters_since_mark(cps, at, from) >= kRunBeforeReply ? std::pair{at, end}
                                                                 : std::pair<std::size_t, std::size_t>{0, 0};
  }
  return {0, 0};
}

// Whether a comma may be due at all: a closing particle before a letter or placeholder, a reply or a
// conjunction. Most bodies have none and are not segmented.
bool may_run_on(const std::vector<char32_t>& cps) {
  for (std::size_t i = 0; i < cps.size(); ++i) {
    for (std::u32string_view conj : kConjunctions)
      if (starts_with(cps, i, conj)) return true;
    if (kClosingParticles.find(cps[i]) != std::u32string_view::npos && i + 1 < cps.size() &&
        (text::is_cjk(cps[i + 1]) || cps[i + 1] == U'['))
      return true;
    if (closes_before_pronoun(cps, i)) return true;
    for (std::u32string_view r : kReplies)
      if (starts_with(cps, i, r)) return true;
  }
  return false;
}

}  // namespace

std::string with_run_ons_punctuated(const std::string& body) {
  std::vector<char32_t> cps = text::decode_utf8(body, text::Utf8Mode::lossy).cps;
  if (!may_run_on(cps)) return body;
  const std::vector<text::WordSpan> words = text::Segmenter::default_segmenter().segment(cps);
  std::vector<char> word_start(cps.size() + 1, 0);
  word_start[cps.size()] = 1;
  for (const text::WordSpan& w : words) word_start[static_cast<std::size_t>(w.char_start)] = 1;
  std::vector<std::size_t> commas;  // positions to insert before, ascending
  for (std::size_t i = 0; i < cps.size(); ++i) {
    const bool opens_clause = i == 0 || is_clause_mark(cps[i - 1]) || (!commas.empty() && commas.back() == i);
    if (opens_clause) {
      if (const std::size_t end = after_reply(cps, i, word_start); end > 0) {
        commas.push_back(end);
        i = end - 1;
        continue;
      }
    }
    if (const std::size_t at = before_conjunction(cps, i, commas.empty() ? 0 : commas.back(), word_start); at > 0) {
      if (commas.empty() || commas.back() != at) commas.push_back(at);
      continue;
    }
    if (const auto [before, after] = around_inner_reply(cps, i, commas.empty() ? 0 : commas.back(), word_start);
        before > 0) {
      if (commas.empty() || commas.back() != before) commas.push_back(before);
      commas.push_back(after);
      i = after - 1;
      continue;
    }
    if (closes_before_pronoun(cps, i) && word_start[i + 1]) {
      commas.push_back(i + 1);
      continue;
    }
    if (kClosingParticles.find(cps[i]) == std::u32string_view::npos || !word_start[i + 1]) continue;
    std::size_t end = i + 1;
    while (end < cps.size() && kParticles.find(cps[end]) != std::u32string_view::npos && word_start[end + 1]) ++end;
    end = past_address(cps, end, word_start);
    if (clause_starts(cps, end, word_start)) commas.push_back(end);
    i = end - 1;
  }
  if (commas.empty()) return body;
  std::vector<char32_t> out;
  out.reserve(cps.size() + commas.size());
  std::size_t next = 0;
  for (std::size_t i = 0; i < cps.size(); ++i) {
    if (next < commas.size() && commas[next] == i) {
      out.push_back(U'，');
      ++next;
    }
    out.push_back(cps[i]);
  }
  return text::encode_utf8(out.data(), out.size());
}

std::string without_opening_yes(const std::string& body) {
  static constexpr std::u32string_view kYes[] = {U"可以的", U"是的", U"对的", U"好的", U"有的", U"嗯嗯", U"恩恩", U"是啊",
                                                 U"对啊", U"是呀", U"对呀", U"对", U"嗯"};
  const std::vector<char32_t> cps = text::decode_utf8(body, text::Utf8Mode::lossy).cps;
  for (std::u32string_view yes : kYes) {
    if (!starts_with(cps, 0, yes)) continue;
    std::size_t end = yes.size();
    while (end < cps.size() && kParticles.find(cps[end]) != std::u32string_view::npos) ++end;
    for (std::u32string_view a : kAddresses)
      if (starts_with(cps, end, a)) {
        end += a.size();
        break;
      }
    if (end >= cps.size() || (cps[end] != U'，' && cps[end] != U',')) return body;
    ++end;
    const std::vector<char32_t> rest(cps.begin() + static_cast<std::ptrdiff_t>(end), cps.end());
    return has_content(rest) ? text::encode_utf8(rest.data(), rest.size()) : body;
  }
  return body;
}

std::string without_name_vocative(const std::string& body) {
  static const std::string kName = "[姓名]";
  static constexpr std::string_view kAfterOpening[] = {"，", ",", "~", "～", "！", "!", " "};
  std::string text = body;
  for (std::string_view mark : kAfterOpening)
    if (text.starts_with(kName + std::string(mark)) && text.size() > kName.size() + mark.size()) {
      text.erase(0, kName.size() + mark.size());
      break;
    }
  // At the end: "，[姓名]" before the final mark (我再试试，[姓名]。).
  for (std::string_view end : {"。", "？", "！"}) {
    const std::string tail = "，" + kName + std::string(end);
    if (text.size() > tail.size() && text.ends_with(tail)) {
      text.replace(text.size() - tail.size(), tail.size(), std::string(end));
      break;
    }
  }
  return render::has_content(text) ? text : body;
}

std::string without_opening_greeting(const std::string& body) {
  static constexpr std::u32string_view kGreetings[] = {U"您们好", U"你们好", U"您好", U"你好", U"哈喽", U"嗨"};
  // What may open the message after a greeting written without a mark (你好我在贵店买了电脑, 您好这样的…):
  // not 你好慢, 你好像, where 你好 is no greeting.
  constexpr std::u32string_view kOpeners = U"我请想问麻帮能可这那为怎什咨[亲在订是有您你京刚昨今前之收申退换";
  constexpr std::u32string_view kMarks = U"，,！!~～。 ";
  const std::vector<char32_t> cps = text::decode_utf8(body, text::Utf8Mode::lossy).cps;
  const std::size_t from = starts_with(cps, 0, U"询问") ? 2 : 0;  // a reported question: 询问你好，…
  for (std::u32string_view greeting : kGreetings) {
    if (!starts_with(cps, from, greeting)) continue;
    std::size_t at = from + greeting.size();
    while (at < cps.size() && std::u32string_view(U"呀啊哦呢").find(cps[at]) != std::u32string_view::npos) ++at;
    const bool marked = at < cps.size() && kMarks.find(cps[at]) != std::u32string_view::npos;
    if (!marked && (at >= cps.size() || kOpeners.find(cps[at]) == std::u32string_view::npos)) return body;
    while (at < cps.size() && kMarks.find(cps[at]) != std::u32string_view::npos) ++at;
    const std::vector<char32_t> rest(cps.begin() + static_cast<std::ptrdiff_t>(at), cps.end());
    if (!has_content(rest)) return body;
    std::vector<char32_t> out(cps.begin(), cps.begin() + static_cast<std::ptrdiff_t>(from));
    out.insert(out.end(), rest.begin(), rest.end());
    return text::encode_utf8(out.data(), out.size());
  }
  return body;
}

bool stops_mid_clause(const std::string& body) {
  const std::vector<char32_t> cps = text::decode_utf8(body, text::Utf8Mode::lossy).cps;
  std::size_t end = cps.size();
  while (end > 0 && (is_terminal_punct(cps[end - 1]) || text::is_space(cps[end - 1]))) --end;
  if (end == 0) return true;
  // A supposition or a topic whose consequence or comment the cut took (若订单信息…, 关于金融问题白条小金库…).
  const std::size_t clause = clause_start(cps, end);
  const std::u32string_view last_clause(cps.data() + clause, end - clause);
  if (opens_a_supposition(cps, clause) || last_clause.starts_with(U"关于") || last_clause.starts_with(U"对于") ||
      last_clause.starts_with(U"至于"))
    return true;
  // A placeholder the cut broke open ([订单编号).
  const std::u32string_view words_left(cps.data(), end);
  const std::size_t open = words_left.rfind(U'[');
  if (open != std::u32string_view::npos && words_left.find(U']', open) == std::u32string_view::npos) return true;
  const char32_t last = cps[end - 1];
  // A count whose measure the cut took (专员[数字]小时 cut to 专员[数字]); a number that is itself what is
  // given (电话是[数字], 订单号[数字], 服务单[数字], 账号：[数字]) ends a clause, as other placeholders do.
  if (last == U']') {
    static constexpr std::u32string_view kNumber = U"[数字]";
    if (end < kNumber.size() || std::u32string_view(cps.data() + end - kNumber.size(), kNumber.size()) != kNumber)
      return false;
    const std::size_t before = end - kNumber.size();
    return before > 0 && text::is_cjk(cps[before - 1]) &&
           std::u32string_view(U"是号码为单").find(cps[before - 1]) == std::u32string_view::npos;
  }
  const text::Segmenter& segmenter = text::Segmenter::default_segmenter();
  const std::vector<text::WordSpan> words = segmenter.segment(std::span<const char32_t>(cps.data(), end));
  // 的 closes a clause after a verb or adjective (尽快配送的, 需要单独购置的); after anything else it leads into
  // a noun the cut took (留一下您以前的…).
  if (last == U'的' && words.size() >= 2 && words.back().char_end - words.back().char_start == 1) {
    const text::WordSpan& before = words[words.size() - 2];
    const text::WordClass c = segmenter.word_class(
        std::u32string_view(cps.data() + before.char_start, static_cast<std::size_t>(before.char_end - before.char_start)));
    return c != text::WordClass::verb && c != text::WordClass::adjective;
  }
  if (kParticles.find(last) != std::u32string_view::npos) return false;
  if (!text::is_cjk(last)) return true;
  const text::WordSpan& w = words.back();
  if (w.char_end - w.char_start == 1) return true;  // 给, 到, 将, 你, 个: a word the next one completes
  const std::u32string_view word(cps.data() + w.char_start, static_cast<std::size_t>(w.char_end - w.char_start));
  // 就可以 closes what it takes (登录就可以: that is all it takes), whatever 可以's class.
  if (word == U"可以" && w.char_start > 0 && cps[static_cast<std::size_t>(w.char_start) - 1] == U'就') return false;
  // A negated verb whose object the cut took: 却没收… is 没 + 收(到), not 没收 (to confiscate).
  if (std::u32string_view(U"不没未别无").find(word.front()) != std::u32string_view::npos) return true;
  switch (segmenter.word_class(word)) {
    case text::WordClass::noun: case text::WordClass::verb: case text::WordClass::adjective:
    case text::WordClass::particle:
      return false;
    default:
      // 那个, 一直, 一个, 还是 lead into what the cut took; a word the dictionary lacks (元余) is most often
      // the cut's broken word joined to the one before it.
      return true;
  }
}

}  // namespace kessel::summarize::render
