// Rendering: how selected units read in a summary. Role labels, the terminal mark (a question keeps
// its question mark), clauses for the emotion-clause mode, and the summary text assembled from its
// sentences, where one label covers consecutive sentences of one speaker only when no turn of the
// other speaker lies between them. Selection (decode_select.*) and the emotion constraint
// (decode_emotion.*) decide what is shown; this file decides how it reads. render_questions.cc holds
// whether a unit asks and how a customer's question is reported; render.cc the rest.
#pragma once

#include <string>
#include <vector>

#include "kessel/summarize/summary.h"

namespace kessel::summarize::render {

// 。！？!?；;…. ，,、~～: the marks a rendered zh unit's end is normalized over.
bool is_terminal_punct(char32_t cp);
// False for text of terminal punctuation and space only ("？？？", "..."): it would render as an
// empty "用户:。".
bool has_content(const std::string& text);
bool has_content(const std::vector<char32_t>& cps);  // the same, of text already decoded (lossy)
// Whether a unit's source text ends by asking with a question mark: its last terminal mark run (before
// trailing space and emoji) holds ? or ？. The zh body keeps it (a 。 would make the question an
// assertion).
bool ends_as_question(const std::string& text);
bool ends_as_question(const std::vector<char32_t>& cps);  // of text already decoded (lossy)
// Whether a zh unit asks without a mark: not closed by 。 ！ and the like, its last clause ends in 吗 or
// 么, or in 呢 after a question word or 那 (这个能退吗, 是什么原因呢), or opens with a question word
// (多少, 几号到, 为什么还没发货, 那什么时候到). Its body ends in 。 as the CSDS protocol splits there; the
// particle or question word carries the question.
// `cut_off`: the unit ends a turn the data cut off (ends_cut_turn), whose last clause may stop mid-word.
bool asks_without_mark(const std::string& text, bool cut_off = false);
bool asks_without_mark(const std::vector<char32_t>& cps, bool cut_off = false);  // of text already decoded (lossy)
// zh: whether a unit's open last sentence asks in a clause before its last, and not in its last
// (为什么我还没收到货，订单就已经完成; 那咋办，显示还在充值): asks_without_mark's reading of it.
bool asks_in_an_earlier_clause(const std::string& text);
// A zh body with a ？ for the mark that ends its last asking clause before its last clause (为什么我还没收到货，
// 订单就已经完成。 -> 为什么我还没收到货？订单就已经完成。), for a question shown in the customer's words; the body
// as given when no such clause asks.
std::string with_mark_after_asking_clause(const std::string& body);
// zh: whether an agent's text asks without a question mark, more narrowly than asks_without_mark, since
// an agent's statements end in 呢 and hold embedded questions (退货的话扣不扣费用是要看…, 怎么支付的就怎么返回的,
// 建议您到时候拒收重新下单呢, 放心…的呢): its last clause ends in 吗 or 么 (not 什么 怎么 这么 那么 多么), past 啊 呀
// 哦 哈 亲, or in 嘛 without an adverb that insists (是嘛 and 好嘛 ask, 毕竟是专业的客服嘛 asserts); or in 呢 after a
// question word with no hedge or advice in the clause (服务单号是多少呢, 哪款商品呢); or it checks what the
// customer means (您是要退货: zh_question::checks_what_is_meant); or, opening with 是 (past 亲 and 请问), it
// asks a choice (是送货还是退货).
bool agent_asks_without_mark(const std::string& text);
// The text without the separating marks (，。、；：！？~ and their ASCII forms) and white space it opens
// with ("，这个就郁闷了" -> "这个就郁闷了"); an opening bracket stays ([数字]张没有).
std::string without_leading_marks(const std::string& text);
// zh: a body without the interjections and 对了 that open it before a comma (哦，对了，为什么白条还需要航班信息呢？
// -> 为什么白条还需要航班信息呢？): a question in the customer's words keeps what it asks, as a report drops them.
std::string without_opening_interjection(const std::string& body);

// zh: whether a text is nothing but a question's tail: 吗, 么, 呢, 嘛 or a question mark, with at most
// three code points in all ("吗?", "？"), or a request for permission or confirmation (可以吗, 行吗, 好吗,
// 能吗, 对吗, 是吗, 可以么?). CSDS customers send it as a turn of its own, or after a space.
bool is_question_tail(const std::string& text);
bool is_question_tail(const std::vector<char32_t>& cps);  // of text already decoded (lossy)
// English: whether unit u opens a tweet that goes on with the sentence the speaker's previous tweet (unit
// u - 1, the turn before) left open: it opens in lower case (opens_in_lower_case) after a tweet that
// leaves its sentence open (leaves_sentence_open), or with an acronym ("ISP to get this sorted out")
// after one that ends on a word no sentence ends with ("...reach out to your"). Alone it starts mid-sentence ("If different from
// what's on twitter) and…"): decoding shows it only after that tweet (Context::answers), and the
// summary joins the two.
bool continues_previous_tweet(const Prepared& p, std::size_t u);
// Whether unit u's question came in the speaker's next unit, on its own ("这个手表二代的可以放副卡" then
// "吗?" as the next turn; "那我吧退货申请取消 可以吗" in one turn): the unit asks though its text does not.
// Question marks alone after a request or a need (urges_with_marks: 我需要注销账号 / ??) urge, not ask.
bool asked_by_next_unit(const Prepared& p, std::size_t u);
// zh: whether `text`, unit u's as shown, presumes and asks to be confirmed: it ends in a confirming tag
// (是吧, 对吧, 是不是: 退到原支付卡上是吧), or it is the customer's and ends in 吧 (明天就能到吧, 不会坏吧) and the
// agent's next unit answers it yes or no (是的, 不会的, 可以的: zh_question::answers_polar). A 吧 that
// suggests or asks for something (直接退吧, 那请及时发货吧) gets no yes or no and stays a statement, and
// giving in (好吧, 行吧, 算了吧) asks nothing.
bool asks_to_confirm(const Prepared& p, std::size_t u, const std::string& text);
// zh: whether question marks alone (`tail`: ?? or ？) after `text` urge the agent rather than ask: the
// last clause of `text` asks for something or states a need (opens with 我想 我要 我需要 请 帮我 麻烦 给我,
// or ends in 给我: 退款给我; 请问 asks). 我可以自己去拿 / ?? and 是原装的 / ?? ask.
bool urges_with_marks(const std::vector<char32_t>& text, const std::vector<char32_t>& tail);
// Whether unit u ends a turn that the data cut off (text::Turn::truncated): its text stops mid-word.
bool ends_cut_turn(const Prepared& p, std::size_t u);

// zh: a dangling condition: the text's last clause ends in 的话 ("如果是换货的话", "没有的话") with
// nothing after it; its consequence came in a later turn, or never. Returns the byte offset where
// that clause starts (0: the whole text is the condition), or npos when there is none. 说的话 and 讲的话
// ("what was said") are no condition.
std::size_t dangling_condition_start(const std::string& text);
// zh: the text without its dangling condition and the mark before it ("有修改按钮可以修改，没有的话…" ->
// "有修改按钮可以修改"); the text itself when it has none or is nothing else.
std::string without_dangling_condition(const std::string& text);
// zh: a unit whose turn the data cut off (CSDS `truncated`, at 30 characters) without its last clause when
// that clause is a stub of at most kCutClauseChars code points ("款式选错了，需要改" -> "款式选错了", "…，如" ->
// "…"), which reads as a broken word, or a supposition whose consequence the cut took (…，如果是由配送需求的);
// a longer last clause says enough to keep, less a last word of one
// Chinese character, most often a word the cut broke (审核处理之后短 for …短信; a particle, 哦 呢 了 的, stays).
// The cut is still shown (mark_cut).
inline constexpr std::size_t kCutClauseChars = 4;
std::string without_cut_clause(const std::string& text);
// Whether without_cut_clause drops the last clause whole: what it leaves then ends where a clause ends.
bool drops_whole_cut_clause(const std::string& text);
// zh: whether the clause at code point `start` opens with a supposition (如果, 要是, 假如, 若, 若是): in a turn
// the data cut off, its consequence is what the cut took (如果是由配送需求的…, 若订单信息…).
bool opens_a_supposition(const std::vector<char32_t>& cps, std::size_t start);
// Where the clause that ends at code point `end` starts: after the last clause mark or space before it.
std::size_t clause_start(const std::vector<char32_t>& cps, std::size_t end);

std::string role_label(text::Speaker speaker, Lang lang);
// The text as it follows the label. zh: trailing terminal marks and space replaced by one mark: ？
// when `question`, else 。. en: the text as it is.
std::string body(const std::string& text, Lang lang, bool question);
// en: a one-sentence body whose only mark is its final stop, with a question mark instead (a question the
// customer wrote with a stop: "How long is it before you contact someone who's taken my bag by mistake."),
// unless a colon may introduce a message it quotes.
std::string question_mark_for_stop(const std::string& body);
// A body whose source was cut off in the data (CSDS `truncated`: the utterance stops at 30 characters,
// mid-word): zh 。 -> …。 (the CSDS protocol still splits at 。), so the reader sees the cut rather than
// a fragment presented as a sentence; a question's ？ is left as it is. en (a tweet whose sentence goes
// on in a tweet the summary leaves out): a trailing comma -> "…" ("...telephone number and name…").
std::string mark_cut(std::string body, Lang lang);
// zh (render_marks.cc): whether a body of a turn the data cut off stops where no clause ends, so that
// mark_cut shows the cut. It does at a word of one character that is no particle (…小时给, …工作人员叫,
// …等一两天你); at a word that opens with a negator (却没收…: 没 + 收到, not 没收); at a word the dictionary
// lacks (…元余); at a pronoun, adverb, numeral, measure word or conjunction (那个那个, 还有一个, 还是); at a
// placeholder the cut broke open ([订单编号…); at a [数字] whose measure the cut took (专员[数字]…; not
// 电话是[数字]); at 的 after anything but a verb or adjective (您以前的…); and
// in a last clause that opens a supposition or a topic (若订单信息…, 关于金融问题…), whose consequence or
// comment the cut took. A body that stops at a particle, a placeholder or a word that can end a clause
// (…需要单独购置的, …我装了电脑, …提交图片, …登录就可以) reads as the sentence it is and is shown without the mark.
bool stops_mid_clause(const std::string& body);

// The clauses of a rendered unit, each trimmed of spaces and of its break: split after , ; : and their
// full-width forms (an ASCII one only before a space or the end, so 1,000, 10:30 and :) stay whole),
// and in English also before and / but / because, which the clause then loses ("Ugh, my flight is
// delayed again and I am furious" -> "Ugh", "my flight is delayed again", "I am furious"). An English
// comma before a clause that leans on the one before ("…, which…", "…, that I think…") splits nothing.
std::vector<std::string> clauses(const std::string& text, Lang lang);
// Whether an English clause is one word ending in -ly ("unfortunately"): a sentence adverb says
// nothing alone.
bool is_lone_adverb(const std::string& clause);

// A customer's question as the CSDS references report it (DecodeOptions::report_questions): "询问" and
// the question, its own 请问 dropped and the ？ closed by 。 ("请问这个什么时候到？" -> "询问这个什么时候到。"):
// 询问 carries the question form, and the sentence ends where the CSDS protocol splits.
std::string reported_question(const std::string& body);

// zh (render_marks.cc): a body with the commas a chat message left out put back. After a particle that
// closes a clause, with the address that follows it, when a new clause starts right after (已经为您操作完成啦
// 马上发货 -> 已经为您操作完成啦，马上发货; 在的哦您是要改为公司抬头是吗 -> 在的哦，您是…); after a reply that opens a
// clause and runs on (是的已帮您操作退款了 -> 是的，已帮您操作退款了; 不是的是可以… -> 不是的，是可以…); before a
// conjunction that opens a clause (然后, 但是, 所以, 可是, 而且) after a run of at least six letters (…选择的京东上门
// 取件，但是现在…; 询问所以帮我提交吗 stays); after a 吧 that a pronoun follows (那就取消吧我看说… -> 那就取消吧，我看
// 说…; 你先试试吧 and 联系客户吧行么 stay); around a 是的 or 对的 that answers a second question inside the message
// (马上发货是的不需要 -> 马上发货，是的，不需要; 如果是的话 stays). Only between two words of the segmenter (哈尔滨,
// 呢子 and 之所以 stay whole); not before 话 (没有的话), a particle (好的吧) or the noun of 好的东西.
std::string with_run_ons_punctuated(const std::string& body);
// zh: a body without a name placeholder that only addresses someone, at its start before a mark ([姓名]，是的，
// 这款是… -> 是的，这款是…) or at its end after a comma (我再试试，[姓名]。 -> 我再试试。); a name inside the text
// ([姓名]的订单) stays.
std::string without_name_vocative(const std::string& body);
// zh: a body without the greeting it opens with (你好，我想问下… -> 我想问下…; 您好，请问是这个商品吗 -> 请问是这个商品
// 吗; 你好我在贵店买了电脑 -> 我在贵店买了电脑; 询问你好，… -> 询问…): 您好, 你好, 你们好, 哈喽 or 嗨, with its particles,
// before a mark or a word that opens a message (not 你好慢, 你好像…, where 你好 is no greeting); the body itself
// when nothing would be left.
std::string without_opening_greeting(const std::string& body);
// zh: a body without the yes it opens with (是的, 对, 好的, 可以的, 有的, 嗯嗯 …, with its particles and address and
// the comma after them: 是的，想七号送达 -> 想七号送达), for a unit whose yes answers nothing the summary shows;
// the body itself when no comma follows the yes or nothing would be left. A no is never dropped.
std::string without_opening_yes(const std::string& body);

// Whether sentence `next` may share the role label of `prev` (sentences in dialogue order): the same
// speaker, and no turn of the other speaker between their turns (an unselected agent answer between
// two customer turns would otherwise vanish, and the customer would seem to answer themself).
bool continues(const Prepared& p, const SummarySentence& prev, const SummarySentence& next);
// Sets each sentence's text and shares_label and builds Summary::summary from out.sentences (their
// body, turn and unit already set, in dialogue order). zh: "用户:A，B。客服:C？"; en: "Customer: A B
// Agent: C".
// `own_words` (empty, or one per sentence): a report's unit in its speaker's own words ("" when none); an
// English report that would stand under its speaker's label without naming them is shown in them
// instead ("Customer: do not book with this company. Deleting the app and telling all my friends…", not
// "…telling all the customer's friends…": no label before a third person).
void assemble(Summary& out, const Prepared& p, const std::vector<std::string>& own_words = {});

}  // namespace kessel::summarize::render
