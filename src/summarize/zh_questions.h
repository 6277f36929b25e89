// What makes a Chinese clause ask, for rendering, decoding and the deletion guards: a question
// particle (吗 么, 呢 after a question word), a question word at its start or end (多少, 几号到, 这是为什么),
// "how" and "how many" inside it (怎样分期, 有几个赠品), 呢 after "and then" or a customer's bare noun.
// Rendering reports such a clause as a question (用户询问…), decoding keeps a question's answer with it,
// and deletion keeps the words that ask (compress_guards.cc, meaning_guards, which works on tokens and uses
// the same words).
//
// The faithfulness probes (faith_cues.h) define a source question independently of this module, on
// purpose: they measure what rendering does, so they must not share its definition.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace kessel::summarize::zh_question {

// The characters of the one-character question words and the ones that end two-character ones
// (什么 怎么 through their 么, 哪 谁 几 啥 咋); 多少 and 如何 are the two-character words to add.
inline constexpr std::u32string_view kQuestionWordChars = U"么哪谁几啥咋";

// Whether clause cps[begin, end) (its terminal marks already trimmed) asks without a question mark:
// it ends in 吗 or 么 (after modal particles) or in 嘛 with something to ask with (可以直接吃嘛, 发票开出了嘛; not
// 根本不是个问题嘛, 对嘛, 先发给我看嘛), opens or ends with a question word (not "every": 什么都可以),
// asks where after who and how it goes (我可以在哪里申请, 到哪里查询发票), holds a question word that asks inside it
// (订单为什么还没到, 你什么时候能回复我, 快递费谁出, 能否有折扣; not where the word is indefinite: 不知道为什么, 看能否
// 修改, 没什么问题, 比如发票什么的), asks how or how many inside it, ends in 呢
// after a question word, 那, "and then" or a bare noun (手机呢), or ends in a verb or adjective and 不
// (可以不, 能改不, 包安装不, 要等到[数字]天可以拿到退款不: V不 is V不V with its second V left out). A clause the data cut off (`cut_off`, CSDS `truncated`) may stop in the middle of
// 不V (安装师傅打电话说不[送]), so there a final 不 asks nothing.
bool clause_asks(const std::vector<char32_t>& cps, std::size_t begin, std::size_t end, bool cut_off = false);

// Whether a sentence cps[begin, end) (its terminal marks already trimmed) asks a choice between two
// answers with 还是 ("or"): 是A还是B in it (售后是京东负责还是专卖店负责, 是现金还是京豆呢, 是整个订单退，还是…), or 还是
// opening its last clause after a clause that asks (需要不需要我再做什么，还是到时自动启动; 是下单的手机号吗，还是接收人的).
// 还是 before 不 没 未 无 一样 这样 那样 照样 很 挺 太 老 is "still" (是因为充了一个晚上还是没反应, 还是不行), and 是 in 但是 可是
// 就是 只是 要是 于是 总是 老是 还是 也是 都是 真是 leads no choice.
bool asks_alternative(const std::vector<char32_t>& cps, std::size_t begin, std::size_t end);

// Whether a text opens (past 亲, 亲亲, 亲爱的, 亲爱哒 and marks) by checking what the other side means: 您是 or 你是
// before 要 想 说 指 需要 (亲您是要退货, 您是说下单的时候使用白条), a question however it ends.
bool checks_what_is_meant(std::u32string_view text);

// Whether a clause-final 呢 after `before_ne` (the clause's code points before the 呢) asks "and
// then?" or "what about …?" with no question word: 打开之后呢, 然后呢, 其他的呢. Deletion keeps such a 呢,
// and rendering reports the clause as a question.
bool asks_what_next(std::u32string_view before_ne);

// Whether a customer's clause-final 呢 after `before_ne` asks "what about X?", X a bare noun of at
// most three characters: 手机呢, 地址呢, 那款呢, 两条呢. A clause that answers, thanks or apologizes (好的呢,
// 是的呢, 嗯呢, 谢谢呢, 抱歉呢) or that a particle, adverb or aspect marks as a statement (在呢, 还没呢, 保持着呢,
// 改一下呢) is none, and so is 人呢 ("anyone there?"), a call rather than a question to report. An agent's
// bare 呢 softens (预计呢，具体的时间不能确定): callers ask this of customers only.
bool asks_about_bare_noun(std::u32string_view before_ne);

// Whether an agent's clause cps[begin, end) asks with a question word, though agents write question words
// in statements and instructions too (怎么支付的就怎么返回的, 运费取决寄什么快递): it ends in one that asks for an
// amount, a place or a time (运费是多少, 需要多少，发货哪里), not 什么 (这个是什么) nor in a negated clause (没有显示
// 具体扣多少), or it asks when or why with a
// cleft in 的 (什么原因退款的, 商品什么时候交给配送的), not where the clause goes on to say what then happens
// (什么时候发的可能要完一点才能看呢, 什么时候闪烁就…).
bool agent_clause_asks(const std::vector<char32_t>& cps, std::size_t begin, std::size_t end);

// Whether a text opens with a question word (什么, 怎么, 为什么, 哪, 谁, 多少, 几号, 几点, 几天, 多久, 如何, 啥, 咋).
bool opens_with_question_word(std::string_view text);

// Whether a text holds a question word anywhere (多少 什么 哪 谁 怎么 咋 啥 几号 几天 几点 多久, and 如何
// but for 无论如何 / 不管如何): decoding's test that a unit asks something even without a mark.
bool holds_question_word(std::string_view text);
// The same of text already decoded (lossy), in one pass over its code points instead of a search a
// word; decoding asks it of every unit.
bool holds_question_word(std::u32string_view cps);

// Whether a text ends (past marks, 啊 呀 哈 and emoji) in the tag 吧, with which a customer presumes and asks
// to be confirmed: 一般都可以换成普通发票的吧, 是京东快递吧. Rendering leaves it as written (its 吧 is kept);
// decoding looks for its answer as for a yes/no question.
bool ends_in_tag(std::u32string_view text);
// Whether that tag follows 的 (系统会自动生成的吧, 配送时会先打电话确认的吧): a fact presumed, asked to be confirmed.
bool ends_in_tag_after_de(std::u32string_view text);
// The tags that ask to be confirmed whatever comes after them, longest first where one ends another.
inline constexpr std::u32string_view kConfirmingTags[] = {U"是不是", U"对不对", U"没错吧", U"是吧", U"对吧"};
// Whether a text ends (past marks, 啊 呀 哈 and emoji) in one of kConfirmingTags (退到原支付卡上是吧,
// 要先确认收货再申请退货退款，对吧).
bool ends_in_confirming_tag(std::u32string_view text);

// The verb a yes/no question turns on, which its answer repeats: the A of an A不A / A没A question (会不会
// -> 会, 有没有 -> 有, 可不可以 -> 可以; 是不是 before 可以, 能 or 会 in its clause: that modal, 是不是今天就能用
// -> 能, answered 可以的哦), else the first of 可以 需要 是 有 能 会 要 用 in it (是傍…配送站吗 -> 是,
// 保修换新这个服务有吗 -> 有). Empty when the question asks with a question word (什么 哪 谁 几 多少 怎么 为什么
// 啥 咋 如何: not a yes/no question). Without those verbs, the first word jieba's dictionary tags a verb
// (text::Segmenter::word_class: 这款电脑带光驱吗 -> 带); without one either, a question in 吗 / 么 gives
// kAnyVerb (its answer says yes or no without a verb to repeat). Empty otherwise.
inline constexpr std::u32string_view kAnyVerb = U"吗";
std::u32string polar_verb(std::u32string_view question);

// How `answer` answers a yes/no question on `verb`, past an opening address or filler (亲 亲亲 亲爱的 嗯
// 嗯嗯 哦 您好 你好 这个 那个, marks, and a 是 before another verb): 2 when it opens with the verb, with 不 / 没
// and the verb, or with the verb's own yes or no (对 for 是, 没有 for 有, 不行 for 可以, 不用 for 需要): 没有单独
// 售卖的支架, 这个是不会的哈, 不是的呢; 1 when it opens with a yes or no that fits any question (是的, 对的, 不是,
// 对, 不对, 有的, and 没有 alone; an adverb of time before the verb is passed over: 已经申请等待审核中 after 申请了吗; 这个是没有的 after 带耳机和手机壳吗, not 没有问题的话就再见了); 0 when it does not
// answer it.
int answers_polar(std::u32string_view answer, std::u32string_view verb);

}  // namespace kessel::summarize::zh_question
