// The constrained decoder (include/kessel/summarize/summary.h): checks its inputs, then runs the parts
// of decode_parts.h in order (selection, the expected-F1 stop, the emotion constraint) and renders the
// result (render.h).
#include <algorithm>
#include <cctype>
#include <cmath>
#include <string_view>

#include "compress.h"
#include "decode_parts.h"
#include "kessel/error.h"
#include "render.h"
#include "summarize/reported_speech.h"

namespace kessel::summarize {

bool parse_emotion_span(const std::string& span) {
  KESSEL_CHECK_ARG(span == "clause" || span == "sentence", "emotion span must be 'clause' or 'sentence', got '", span,
                   "'");
  return span == "clause";
}

namespace {

// en: whether a tweet's opening @handle may be the subject of the verb after it: a verb in lower case that
// no subject pronoun follows ("@115900 has the worst customer service by far.", not "@116035 is this how…"
// nor "@AppleSupport why does…").
bool handle_may_be_subject(std::span<const text::Token> t) {
  std::size_t i = 0;
  while (i < t.size() && t[i].kind == text::TokenKind::mention) ++i;
  if (i == 0 || i + 1 >= t.size() || t[i].kind != text::TokenKind::word || t[i].text[0] < 'a' || t[i].text[0] > 'z')
    return false;
  static constexpr std::string_view kQuestionWords[] = {"what", "why", "how", "when", "where", "who", "which"};
  static constexpr std::string_view kSubjects[] = {"this", "that", "it", "you", "u", "there", "he", "she", "they", "we", "i"};
  if (std::find(std::begin(kQuestionWords), std::end(kQuestionWords), t[i].lower) != std::end(kQuestionWords)) return false;
  return std::find(std::begin(kSubjects), std::end(kSubjects), t[i + 1].lower) == std::end(kSubjects);
}

// Whether the summary (`shown`, sorted unit indices) shows one of the other speaker's units right before
// unit u's run of its own speaker's units: what a yes opening u would answer.
bool prompt_shown(const Prepared& p, const std::vector<int>& shown, std::size_t u) {
  const text::Speaker speaker = p.units[u].speaker;
  std::size_t k = u;
  while (k > 0 && p.units[k - 1].speaker == speaker) --k;
  for (; k > 0 && p.units[k - 1].speaker != speaker; --k)
    if (std::binary_search(shown.begin(), shown.end(), static_cast<int>(k - 1))) return true;
  return false;
}

void check_inputs(const Prepared& p, const UnitScores& scores, const DecodeOptions& options) {
  const std::size_t U = p.units.size();
  KESSEL_CHECK_ARG(scores.salience.size() == U, "decode: salience has ", scores.salience.size(),
                   " entries but the dialogue has ", U, " units");
  KESSEL_CHECK_ARG(scores.mention_source.empty() || scores.mention_source.size() == p.mentions.size(),
                   "decode: mention_source has ", scores.mention_source.size(),
                   " entries but the dialogue has ", p.mentions.size(), " mentions");
  KESSEL_CHECK_ARG(options.max_sentences >= 1, "decode: max_sentences must be >= 1, got ",
                   options.max_sentences);
  KESSEL_CHECK_ARG(options.redundancy >= 0.0f && options.redundancy <= 1.0f,
                   "decode: redundancy must be in [0, 1], got ", options.redundancy);
  for (std::size_t u = 0; u < U; ++u)
    KESSEL_CHECK_ARG(std::isfinite(scores.salience[u]), "decode: salience[", u, "] is not finite");
  KESSEL_CHECK_ARG(scores.max_chars >= 0, "decode: scores.max_chars must be >= 0, got ", scores.max_chars);
  KESSEL_CHECK_ARG(std::isfinite(options.f1_stop_chars) && options.f1_stop_chars >= 0.0f,
                   "decode: f1_stop_chars must be >= 0, got ", options.f1_stop_chars);
  KESSEL_CHECK_ARG(scores.inclusion.empty() || scores.inclusion.size() == U, "decode: inclusion has ",
                   scores.inclusion.size(), " entries but the dialogue has ", U, " units");
  for (std::size_t u = 0; u < scores.inclusion.size(); ++u)
    KESSEL_CHECK_ARG(scores.inclusion[u] >= 0.0f && scores.inclusion[u] <= 1.0f, "decode: inclusion[", u, "] = ",
                     scores.inclusion[u], " is not a probability");
  KESSEL_CHECK_ARG(options.f1_stop_chars == 0.0f || !scores.inclusion.empty(),
                   "decode: f1_stop_chars = ", options.f1_stop_chars,
                   " needs the scorer's inclusion probabilities, and this scorer gives none");
  KESSEL_CHECK_ARG(scores.unit_reported.empty() || scores.unit_reported.size() == scores.unit_text.size(),
                   "decode: unit_reported has ", scores.unit_reported.size(), " entries but unit_text has ",
                   scores.unit_text.size());
  KESSEL_CHECK_ARG(scores.unit_text.empty() || scores.unit_text.size() == U, "decode: unit_text has ",
                   scores.unit_text.size(), " entries but the dialogue has ", U, " units");
}

}  // namespace

Summary decode(const Prepared& p, const UnitScores& scores, const DecodeOptions& options) {
  check_inputs(p, scores, options);
  decoding::Context c(p, scores, options);
  std::vector<int> selected = decoding::greedy_selection(c);
  // The expected-F1 stop keeps the greedy order's best prefix: the scorer's confidence sets the length.
  const std::vector<int> order = selected;
  if (options.f1_stop_chars > 0.0f)
    selected.resize(expected_f1_prefix(order, scores.inclusion, c.unit_chars, options.f1_stop_chars));
  decoding::ConstrainedSelection kept = decoding::constrain_emotion(c, selected, order);
  // The constraint may have let a question go for its emotion unit; its answer goes with it.
  decoding::drop_unasked_answers(c, kept.units);
  // A question the customer sent twice before the agent replied is shown once; the room goes to answers.
  decoding::drop_customer_repeats(c, kept);
  // A unit whose words another shown unit of its speaker says in full (客服:升级。) is not shown.
  decoding::drop_units_said_within(c, kept);
  // The feeling is shown whole when the char budget has room for it before answers are added (they
  // take no part of that budget: an answer added must not cost the customer's words).
  const int verbatim = options.emotion_constraint ? decoding::verbatim_emotion_unit(c, kept) : -1;
  // A selected yes/no question brings its direct answer.
  decoding::add_direct_answers(c, kept);
  // zh: an alternative question is shown with its other option (还是护发的).
  decoding::add_alternatives(c, kept);
  // A summary that opens on the agent's words first says what the customer came about.
  decoding::add_issue(c, kept);
  // zh: the customer's bare yes or no to a shown question of the agent's, where there is still room:
  // before the outcome, which can make its own room, so that the question does not leave unanswered.
  decoding::add_bare_replies(c, kept);
  // zh: what the agent last did or promised for the customer ends the summary's story.
  decoding::add_outcome(c, kept);
  // zh: what the agent said cannot be done, where the summary shows what came before it.
  decoding::add_refusal(c, kept);
  // zh: how the customer chose to go on (那不换了).
  decoding::add_decision(c, kept);
  // zh: a summary that still ends on the customer's words shows the agent's reply to them.
  decoding::add_last_reply(c, kept);
  // zh: and the agent's reply to each shown question the summary leaves unanswered, where there is room.
  decoding::add_answers_to_questions(c, kept);
  // en: a summary of only the customer's words shows what the agent said.
  decoding::add_agent_reply(c, kept);
  // en: a summary that ends on the customer's question shows the agent's answer to it.
  decoding::add_answer_to_last_question(c, kept);
  // en: whether the customer said it worked.
  decoding::add_resolution(c, kept);
  // en: or that it did not.
  decoding::add_unresolved(c, kept);
  // en: a summary that ends on the customer or on an agent's question shows what the agent last did.
  decoding::add_closing_action(c, kept);
  // en: what the agent did for the customer, when no shown agent unit says it (after the closing action,
  // which it must not say again).
  decoding::add_agent_outcome(c, kept);
  // en: a summary whose customer lines only vent ("Disgraceful.") says what the customer came about.
  decoding::add_english_issue(c, kept);
  // en: a summary that still ends on the customer's words shows the agent's reply to them.
  decoding::add_english_last_reply(c, kept);
  // en: an agent's question shown, where there is room, with the customer's reply.
  decoding::add_english_customer_replies(c, kept);
  // An agent's question whose answer the summary could not show leaves.
  if (decoding::drop_unanswered_agent_questions(c, kept)) {
    // The room it leaves goes to what the adders above had no room for.
    decoding::add_outcome(c, kept);
    decoding::add_refusal(c, kept);
    decoding::add_decision(c, kept);
    decoding::add_last_reply(c, kept);
    decoding::add_closing_action(c, kept);
    decoding::add_agent_outcome(c, kept);
    decoding::add_english_last_reply(c, kept);
  }
  // The customer's last feeling, where it turns from the one shown.
  decoding::add_turning_feeling(c, kept);
  // en: a short feeling shown after the agent's words brings what it is about.
  decoding::add_what_closing_feelings_are_about(c, kept);
  // en: a shown sentence that goes on in the next tweet is shown whole.
  decoding::add_rest_of_open_sentences(c, kept);

  Summary out;
  out.id = p.dialogue ? p.dialogue->id : "";
  out.constraint_bound = kept.bound;
  out.constraint_cost = kept.cost;
  std::vector<int>& units = kept.units;
  std::sort(units.begin(), units.end());
  std::vector<UnitTokens> tokens;       // en: built once a report needs its own words
  std::vector<std::string> own_words;   // per sentence: a report's unit in its speaker's words, or ""
  for (int u : units) {
    const auto ux = static_cast<std::size_t>(u);
    SummarySentence s;
    // en: a customer's question without its mark asks too ("SO WHY CAN'T I VIEW MY NOTIFICATIONS").
    const bool customer_en = p.lang == Lang::en && p.units[ux].speaker == text::Speaker::customer;
    const std::string& source = u == kept.clause_unit ? kept.clause_text : p.units[ux].text;
    // zh: an agent's question written without its mark ends with one (客服:订单有吗？, not 订单有吗。); a
    // customer's is reported (customer_asks below).
    const bool agent_zh = p.lang == Lang::zh && p.units[ux].speaker == text::Speaker::agent;
    const bool customer_asks_en = customer_en && u != kept.clause_unit && opens_as_english_question(p.unit_tokens[ux]);
    const bool question = render::ends_as_question(source) ||
                          (u != kept.clause_unit && (render::asked_by_next_unit(p, ux) || customer_asks_en ||
                                                     (agent_zh && render::agent_asks_without_mark(source)))) ||
                          render::asks_to_confirm(p, ux, source);
    const std::string shown = u == kept.clause_unit ? kept.clause_shown
                              : u == verbatim       ? render::without_leading_marks(p.units[ux].text)
                                                    : c.rendered(ux);
    // zh: a unit shown as rendered, with no emotion to keep, may lose a dangling end (with skip_fillers,
    // which computes `expressed`; baselines show units as written), and the cut is shown: a condition
    // whose consequence it does not hold ("没有的话"), or the stub a cut-off turn ends with ("…款式选错了，
    // 需要改" -> "…款式选错了").
    const bool cut_turn = u != kept.clause_unit && render::ends_cut_turn(p, ux);
    const bool trimmable = p.lang == Lang::zh && u != kept.clause_unit && u != verbatim && !c.expressed.empty() &&
                           c.expressed[ux] == decoding::Context::Expressed::none;
    const bool drops_condition = trimmable && render::dangling_condition_start(shown) != std::string::npos;
    const bool drops_cut_clause = trimmable && cut_turn && !question;
    // zh: a customer's question is reported as the references report it (用户:询问…。), unless it holds a
    // complaint the customer expressed (不是三十天吗, 交易怎么关闭了, 原订单不是告诉你了吗): "询问" would make the
    // push-back a neutral inquiry, so it stays in the customer's words, asking (用户:不是三十天吗？).
    const bool customer_asks = options.report_questions && p.lang == Lang::zh &&
                               p.units[ux].speaker == text::Speaker::customer &&
                               (question || render::asks_without_mark(source, render::ends_cut_turn(p, ux)));
    const bool complains = !c.expressed.empty() && (c.expressed[ux] == decoding::Context::Expressed::feeling ||
                                                     c.expressed[ux] == decoding::Context::Expressed::no_feeling);
    // A complaint asked in an earlier clause takes its ？ there (那咋办？显示还在充值。), not after the clause
    // that says why.
    const bool asked_inside = customer_asks && complains && !question && render::asks_in_an_earlier_clause(source);
    s.body = render::body(drops_condition     ? render::without_dangling_condition(shown)
                          : drops_cut_clause ? render::without_cut_clause(shown)
                                             : shown,
                          p.lang, question || (customer_asks && complains && !asked_inside));
    if (asked_inside) s.body = render::with_mark_after_asking_clause(s.body);
    if (customer_asks && complains) s.body = render::without_opening_interjection(s.body);
    if (customer_asks && !complains) s.body = render::reported_question(s.body);
    if (p.lang == Lang::zh)
      s.body = render::with_run_ons_punctuated(render::without_opening_greeting(render::without_name_vocative(s.body)));
    // zh: a yes that opens a unit answers the other speaker's turns right before its own; with none of them
    // shown it answers nothing the reader sees (用户:是的，想七号送达 after a left-out 如果需要晚一天的话), and goes:
    // after the commas are put back, so that one run on (可以的现在帮您提交) goes too.
    if (p.lang == Lang::zh && !prompt_shown(p, units, ux)) s.body = render::without_opening_yes(s.body);
    // en: a tweet whose sentence goes on in the next tweet, which the summary leaves out.
    const bool open_without_rest = ux + 1 < p.units.size() && render::continues_previous_tweet(p, ux + 1) &&
                                   !std::binary_search(units.begin(), units.end(), u + 1);
    // zh: the cut shows where the words left stop mid-clause; judged before a stub word was trimmed
    // (…小时给 -> …小时 still stops mid-clause), after a whole clause was (…款式选错了 ends one).
    const bool shows_cut =
        cut_turn && (p.lang == Lang::en ||
                     ((drops_cut_clause && render::drops_whole_cut_clause(shown)) ? render::stops_mid_clause(s.body)
                                                                                  : render::stops_mid_clause(shown)));
    if (drops_condition || open_without_rest || shows_cut) s.body = render::mark_cut(std::move(s.body), p.lang);
    s.reported = !scores.unit_reported.empty() && scores.unit_reported[ux];
    // en: a question the customer wrote with a stop, shown in their words, ends with its mark. Not after a
    // handle that may be its subject ("@115900 has the worst customer service by far.").
    if (customer_asks_en && !s.reported && !handle_may_be_subject(p.unit_tokens[ux]))
      s.body = render::question_mark_for_stop(s.body);
    // A clause of a reported unit is a report only when it refers to its speaker itself: "doing that
    // over the phone seems like a huge pain" keeps the customer's label, or it would read as the
    // agent's; "so they can't find songs" stays a report (a label would mix with the third person).
    if (s.reported && u == kept.clause_unit) s.reported = names_a_speaker(s.body);
    // Who says a report, where it needs saying, is render::assemble's.
    if (s.reported && !s.body.empty() && s.body[0] >= 'a' && s.body[0] <= 'z') s.body[0] = static_cast<char>(s.body[0] - 'a' + 'A');
    // en: the same unit in its speaker's own words, for a report that render::assemble shows under its
    // speaker's label.
    std::string own;
    if (p.lang == Lang::en && s.reported && u != kept.clause_unit && u != verbatim) {
      if (tokens.empty()) tokens = unit_tokens(p);
      own = render::body(drop_addressing(p.units[ux], tokens[ux]), p.lang, question);
      if (open_without_rest || cut_turn) own = render::mark_cut(std::move(own), p.lang);
    }
    own_words.push_back(std::move(own));
    s.turn = p.units[ux].turn;
    s.unit = u;
    s.score = scores.salience[ux];
    out.sentences.push_back(std::move(s));
  }
  render::assemble(out, p, own_words);
  std::vector<char> taken(p.units.size(), 0);
  for (int u : units) taken[static_cast<std::size_t>(u)] = 1;
  for (std::size_t m = 0; m < p.mentions.size(); ++m) {
    const auto& mention = p.mentions[m];
    if (!mention.expressed) continue;
    SummaryEmotion e;
    e.term = mention.expression.empty() ? mention.term : mention.expression;
    e.turn = mention.turn;
    e.start = static_cast<long>(mention.char_start);
    e.end = static_cast<long>(mention.char_end);
    e.emotion = text::to_string(mention.emotion);
    e.kind = text::to_string(mention.kind);
    e.strength = mention.strength;
    e.source = mention.source;
    e.in_summary = taken[static_cast<std::size_t>(p.mention_unit[m])] && decoding::survives(c, m, kept);
    out.emotions.push_back(std::move(e));
  }
  for (const auto& u : p.unsupported_turns)
    out.unsupported_languages.push_back("turn " + std::to_string(u.turn) + ": " + text::to_string(u.language));
  out.constraint_satisfied = decoding::keeps_strongest(c, kept);
  return out;
}

}  // namespace kessel::summarize
