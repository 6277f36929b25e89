// The agent's reply to the customer's last shown words (decode_parts.h, last_reply): a summary that ends
// on the customer shows what the agent answered, when the sentence budget has room.
#include <gtest/gtest.h>

#include "kessel/summarize/summary.h"
#include "summarize/decode_parts.h"
#include "test_dialogues.h"

namespace kessel::summarize {
namespace {

using text::Speaker;
using testing::make_dialogue;
const text::Lexicon& lexicon() { return testing::default_lexicon(); }

decoding::ConstrainedSelection selection_of(std::vector<int> units) {
  decoding::ConstrainedSelection s;
  s.units = std::move(units);
  return s;
}

TEST(LastReply, ASummaryEndingOnTheCustomerGainsTheAgentsReply) {
  // CSDS te157: 用户:主要是怕接不到电话。 ended the summary; the agent's reply came after a short 没关系的.
  auto d = make_dialogue({{Speaker::customer, {"地址只写了一个小区，没有写单元和房间号"}},
                          {Speaker::agent, {"快递师傅联系您时你可以告诉他详细的地址"}},
                          {Speaker::customer, {"主要是怕接不到电话"}},
                          {Speaker::agent, {"没关系的", "如果您忙时没有接到电话，您可以联系快递师傅改天给您配送"}},
                          {Speaker::agent, {"请问还有其他还可以帮到您的吗?"}}});
  Prepared p = prepare(d, lexicon());
  ASSERT_EQ(p.units.size(), 6u);
  const UnitScores s = testing::same_salience(p);
  const DecodeOptions four = testing::sentence_budget(4);
  const decoding::Context c(p, s, four);
  EXPECT_EQ(decoding::last_reply(c, {0, 1, 2}), 4);
  auto ends_on_customer = selection_of({0, 1, 2});
  decoding::add_last_reply(c, ends_on_customer);
  EXPECT_EQ(ends_on_customer.units, (std::vector<int>{0, 1, 2, 4}));
  // A summary that ends on the agent, or one at its sentence cap, gains nothing.
  EXPECT_EQ(decoding::last_reply(c, {0, 1}), -1);
  auto at_cap = selection_of({0, 1, 2});
  const DecodeOptions three = testing::sentence_budget(3);
  const decoding::Context full(p, s, three);
  decoding::add_last_reply(full, at_cap);
  EXPECT_EQ(at_cap.units, (std::vector<int>{0, 1, 2}));
}

TEST(AnswerToQuestion, AShownQuestionLeftUnansweredGainsTheAgentsReplyWhereThereIsRoom) {
  // CSDS val 699: 客服:操作不了了。 answers the customer's question; the summary went on to their next line.
  auto d = make_dialogue({{Speaker::customer, {"能帮我取消这个退货申请吗"}},
                          {Speaker::agent, {"这个已经操作不了了呢"}},
                          {Speaker::customer, {"那我的货什么时候能送到"}},
                          {Speaker::agent, {"预计明天会为您送达"}},
                          {Speaker::customer, {"飞科FLYCO是哪款"}},
                          {Speaker::agent, {"飞科FLYCO)FS[数字]剃须刀"}}});
  Prepared p = prepare(d, lexicon());
  ASSERT_EQ(p.units.size(), 6u);
  const UnitScores s = testing::same_salience(p);
  const DecodeOptions five = testing::sentence_budget(5);
  const decoding::Context c(p, s, five);
  EXPECT_EQ(decoding::answer_to_question(c, {0, 2, 3}, 0), 1);
  // Answered already (an agent line shown before the customer's next), or no question.
  EXPECT_EQ(decoding::answer_to_question(c, {0, 2, 3}, 2), -1);
  EXPECT_EQ(decoding::answer_to_question(c, {0, 1, 2}, 1), -1);
  // A product's pasted title is no answer a reader can use.
  EXPECT_EQ(decoding::answer_to_question(c, {4}, 4), -1);
  auto unanswered = selection_of({0, 2, 3});
  decoding::add_answers_to_questions(c, unanswered);
  EXPECT_EQ(unanswered.units, (std::vector<int>{0, 2, 3, 1}));
  // At the sentence cap nothing is added.
  const DecodeOptions three = testing::sentence_budget(3);
  const decoding::Context full(p, s, three);
  auto at_cap = selection_of({0, 2, 3});
  decoding::add_answers_to_questions(full, at_cap);
  EXPECT_EQ(at_cap.units, (std::vector<int>{0, 2, 3}));
}

TEST(LastReply, ClosingsThanksApologiesAndHoldsAreNoReply) {
  for (const char* closing : {"感谢您对京东的支持，祝您生活愉快", "给您带来不便，还请您见谅", "祝您幸福快乐，前程锦绣",
                              "您太客气了，这是我应该做的", "还请您稍等，马上为您查询", "申请时间:[日期][时间]"}) {
    auto d = make_dialogue({{Speaker::customer, {"我的快递三天了还没到"}}, {Speaker::agent, {closing}}});
    Prepared p = prepare(d, lexicon());
    const UnitScores s = testing::same_salience(p);
    const DecodeOptions four = testing::sentence_budget(4);
    const decoding::Context c(p, s, four);
    EXPECT_EQ(decoding::last_reply(c, {0}), -1) << closing;
  }
}

TEST(LastReply, TheCustomerSayingMoreFirstLeavesTheReplyToThat) {
  auto d = make_dialogue({{Speaker::customer, {"我的快递三天了还没到"}},
                          {Speaker::customer, {"明天能到上海的仓库吗"}},
                          {Speaker::agent, {"预计明天下午可以送到上海仓库"}}});
  Prepared p = prepare(d, lexicon());
  const UnitScores s = testing::same_salience(p);
  const DecodeOptions four = testing::sentence_budget(4);
  const decoding::Context c(p, s, four);
  EXPECT_EQ(decoding::last_reply(c, {0}), -1);
  EXPECT_EQ(decoding::last_reply(c, {0, 1}), 2);
}

TEST(LastReply, AnEnglishSummaryEndingOnACustomerStatementGainsTheAgentsReply) {
  // TweetSumm valid 32401943: "Great the 9:11 has been cancelled anyways 😭" ended the summary.
  auto d = make_dialogue({{Speaker::customer, {"Great the 9:11 has been cancelled anyways 😭"}},
                          {Speaker::agent, {"Sorry for the trouble!"}},
                          {Speaker::agent, {"Unfortunately we have now received reports of a signalling issue."}}});
  Prepared p = prepare(d, lexicon());
  ASSERT_EQ(p.units.size(), 3u);
  const UnitScores s = testing::same_salience(p);
  const DecodeOptions four = testing::sentence_budget(4);
  const decoding::Context c(p, s, four);
  EXPECT_EQ(decoding::last_reply(c, {0}), 2);  // past the apology
  auto ends_on_customer = selection_of({0});
  decoding::add_english_last_reply(c, ends_on_customer);
  EXPECT_EQ(ends_on_customer.units, (std::vector<int>{0, 2}));
  // The Chinese adder leaves English summaries to it.
  auto zh_adder = selection_of({0});
  decoding::add_last_reply(c, zh_adder);
  EXPECT_EQ(zh_adder.units, (std::vector<int>{0}));
}

// last_reply of an English dialogue of a customer's statement and the agent's one-sentence answer.
int english_reply(const char* customer, const char* agent) {
  auto d = make_dialogue({{Speaker::customer, {customer}}, {Speaker::agent, {agent}}});
  Prepared p = prepare(d, lexicon());
  const UnitScores s = testing::same_salience(p);
  const DecodeOptions four = testing::sentence_budget(4);
  const decoding::Context c(p, s, four);
  return decoding::last_reply(c, {static_cast<int>(p.units.size()) - 2});
}

TEST(LastReply, EnglishCourtesiesThanksAndSolvedProblemsAreNoReply) {
  const char* problem = "My parcel has not arrived after three days.";
  EXPECT_EQ(english_reply(problem, "St Helens Extra has it on aisle twenty for you."), 1);
  for (const char* courtesy : {"We're really sorry to hear about the trouble with your parcel.",
                               "We sincerely apologize for the inconvenience caused by this.",
                               "Thanks for reaching out to us about your parcel today.",
                               "Let us know if you need anything else from us today.",
                               "Feel free to reach out again if you need any help.",
                               "That's good news, let us know if you need us again.",
                               "We do appreciate you choosing us for your delivery.",
                               "That's a great device you are looking for there.",
                               "You can find all of that information right here."})
    EXPECT_EQ(english_reply(problem, courtesy), -1) << courtesy;
  // Five words say too little (kEnglishLastReplyMinWords); a pronoun points back to what is left out.
  EXPECT_EQ(english_reply(problem, "Delivery is due tomorrow morning."), -1);
  EXPECT_EQ(english_reply(problem, "It will be delivered tomorrow before noon."), -1);
  // Thanks, praise and a solved problem need no reply; a question is answer_to_last_question's.
  EXPECT_EQ(english_reply("Thanks, really appreciate your help!", "St Helens Extra has it on aisle twenty for you."), -1);
  EXPECT_EQ(english_reply("Changed it and it works now.", "St Helens Extra has it on aisle twenty for you."), -1);
  EXPECT_EQ(english_reply("Where is my parcel?", "St Helens Extra has it on aisle twenty for you."), -1);
}

TEST(AgentReply, AnEnglishSummaryOfOnlyTheCustomerGainsTheAgentsMostSalientUnit) {
  // TweetSumm valid 1950ce6e: three sentences of the customer's rant and nothing of the agent's answer.
  auto d = make_dialogue({{Speaker::customer, {"Do not book with this company.", "Horrible!"}},
                          {Speaker::agent, {"Our partners sell those tickets.", "They would be best to advise.",
                                            "Please DM us your booking ID and we will look into this."}},
                          {Speaker::agent, {"Thanks!"}}});
  Prepared p = prepare(d, lexicon());
  ASSERT_EQ(p.units.size(), 6u);
  UnitScores s = testing::same_salience(p, 0.1f);
  s.salience[3] = 0.9f;  // "They would be best to advise." points back to the unit before it, left out
  s.salience[4] = 0.6f;
  const DecodeOptions three = testing::sentence_budget(3);
  const decoding::Context c(p, s, three);
  EXPECT_EQ(decoding::agent_reply(c, {0, 1}), 4);
  auto only_customer = selection_of({0, 1});
  decoding::add_agent_reply(c, only_customer);
  EXPECT_EQ(only_customer.units, (std::vector<int>{0, 1, 4}));
  // With an agent unit shown, or at the cap, nothing is added.
  EXPECT_EQ(decoding::agent_reply(c, {0, 4}), -1);
  auto at_cap = selection_of({0, 1, 2});
  at_cap.units = {0, 1};
  const DecodeOptions two = testing::sentence_budget(2);
  const decoding::Context full(p, s, two);
  decoding::add_agent_reply(full, at_cap);
  EXPECT_EQ(at_cap.units, (std::vector<int>{0, 1}));
  // Chinese has its own rules (last_reply, outcome_unit).
  auto zh = make_dialogue({{Speaker::customer, {"我的快递三天了还没到"}}, {Speaker::agent, {"已经为您催促站点尽快配送了"}}});
  Prepared q = prepare(zh, lexicon());
  const UnitScores zs = testing::same_salience(q);
  const decoding::Context zc(q, zs, three);
  EXPECT_EQ(decoding::agent_reply(zc, {0}), -1);
}

TEST(ClosingAction, AnEnglishSummaryEndingOnAQuestionShowsWhatTheAgentLastDid) {
  const auto acts = [](const std::string& text) {
    auto d = make_dialogue({{Speaker::agent, {text}}});
    Prepared p = prepare(d, lexicon());
    return decoding::reports_agent_action(p.unit_tokens[0]);
  };
  EXPECT_TRUE(acts("We'll get this passed on to our devs so they can look into it."));
  EXPECT_TRUE(acts("We have arranged for a refund."));
  EXPECT_TRUE(acts("I'll have someone reach out to you."));
  EXPECT_FALSE(acts("We'll need you to send us a photo."));  // the customer's step
  EXPECT_FALSE(acts("We have not refunded it yet."));
  EXPECT_FALSE(acts("Thanks for getting in touch."));
  // TweetSumm valid fce3b9b9: the summary ended on the agent's question.
  auto d = make_dialogue({{Speaker::customer, {"Shouldn't I get 30 minutes of ad free listening instead of 10?"}},
                          {Speaker::agent, {"Did you watch the video ad in full after hearing the offer?"}},
                          {Speaker::customer, {"Yes I watched all of it"}},
                          {Speaker::agent, {"That's strange.", "We'll get this passed on to our devs so they can look into it."}}});
  Prepared p = prepare(d, lexicon());
  ASSERT_EQ(p.units.size(), 5u);
  const UnitScores s = testing::same_salience(p);
  const DecodeOptions three = testing::sentence_budget(3);
  const decoding::Context c(p, s, three);
  EXPECT_EQ(decoding::closing_action(c, {0, 1}), 4);
  decoding::ConstrainedSelection selection;
  selection.units = {0, 1};
  decoding::add_closing_action(c, selection);
  EXPECT_EQ(selection.units, (std::vector<int>{0, 1, 4}));
  // A summary that ends on an agent's statement has its last word already.
  EXPECT_EQ(decoding::closing_action(c, {0, 4}), -1);
}

TEST(AnswerToLastQuestion, AnEnglishSummaryEndingOnTheCustomersQuestionShowsTheAnswer) {
  // TweetSumm valid 4eed69e9 ended on "How do I formally complain?"; the agent's tweet opened with an
  // apology and a remark before the answer.
  auto d = make_dialogue({{Speaker::customer, {"Any news on what happened to the 9.13am to Bristol Parkway?"}},
                          {Speaker::agent, {"There were animals on the line so the train had to bypass the station."}},
                          {Speaker::customer, {"How do I formally complain?"}},
                          {Speaker::agent, {"Sorry for the inconvenience Greig.", "We always try to impact as few customers as possible.",
                                            "You can make a complaint by emailing our team."}}});
  Prepared p = prepare(d, lexicon());
  ASSERT_EQ(p.units.size(), 6u);
  const UnitScores s = testing::same_salience(p);
  const DecodeOptions four = testing::sentence_budget(4);
  const decoding::Context c(p, s, four);
  EXPECT_EQ(decoding::answer_to_last_question(c, {0, 1, 2}), 5);
  decoding::ConstrainedSelection selection = selection_of({0, 1, 2});
  decoding::add_answer_to_last_question(c, selection);
  EXPECT_EQ(selection.units, (std::vector<int>{0, 1, 2, 5}));
  // A summary that ends on the agent, or a full budget, is left as it is.
  EXPECT_EQ(decoding::answer_to_last_question(c, {0, 1}), -1);
  const DecodeOptions three = testing::sentence_budget(3);
  const decoding::Context full(p, s, three);
  selection = selection_of({0, 1, 2});
  decoding::add_answer_to_last_question(full, selection);
  EXPECT_EQ(selection.units, (std::vector<int>{0, 1, 2}));
}

TEST(AgentOutcome, AnEnglishSummaryShowsWhatTheAgentDidWhenNoShownUnitSaysIt) {
  const auto done = [](const std::string& text) {
    auto d = make_dialogue({{Speaker::agent, {text}}});
    Prepared p = prepare(d, lexicon());
    return decoding::reports_done(p.unit_tokens[0]);
  };
  EXPECT_TRUE(done("We have reversed the transaction."));
  EXPECT_TRUE(done("I've gone ahead and refunded the charge."));
  EXPECT_TRUE(done("Your refund has been processed."));
  EXPECT_TRUE(done("We can certainly refund you by sending you a £10.00 ecoupon."));
  EXPECT_FALSE(done("If we can refund it we will let you know."));            // a condition
  EXPECT_FALSE(done("They may have been booked by someone else."));          // a guess
  EXPECT_FALSE(done("We have not refunded it yet."));
  EXPECT_FALSE(done("Please return to the store for a replacement."));
  EXPECT_TRUE(done("This has all been forwarded onto our depot."));             // an adverb before "been"
  EXPECT_FALSE(done("I hope the issue has now been resolved for you."));        // a hope
  EXPECT_FALSE(done("Happy to check if a refund has been issued, please DM."));  // to be checked
  EXPECT_FALSE(done("We've noted your concern and will be in touch."));        // a holding reply
  // TweetSumm valid 816389a1: the summary showed the hakikisha advice without the reversal before it.
  auto d = make_dialogue({{Speaker::customer, {"Kindly can you reverse a transaction I did wrongly few minutes ago."}},
                          {Speaker::agent, {"Sorry this happened, kindly share the transaction id for assistance."}},
                          {Speaker::customer, {"Transaction id is LJD5O1L15X"}},
                          {Speaker::agent, {"We have reversed the transaction.",
                                            "Use the hakikisha service by responding with any letter to cancel a wrong transaction."}}});
  Prepared p = prepare(d, lexicon());
  ASSERT_EQ(p.units.size(), 5u);
  const UnitScores s = testing::same_salience(p);
  const DecodeOptions three = testing::sentence_budget(3);
  const decoding::Context c(p, s, three);
  EXPECT_EQ(decoding::agent_outcome(c, {0, 4}), 3);
  decoding::ConstrainedSelection selection = selection_of({0, 4});
  decoding::add_agent_outcome(c, selection);
  EXPECT_EQ(selection.units, (std::vector<int>{0, 4, 3}));
  // Shown already, nothing to add.
  EXPECT_EQ(decoding::agent_outcome(c, {0, 3}), -1);
}

TEST(EnglishCustomerReplies, AnAgentsQuestionShownGainsTheCustomersShortReplyWhereThereIsRoom) {
  // TweetSumm valid a399722e showed "The agent asks: What device, operating system, and Spotify version is
  // the customer on?" without the answer, "Galaxy s7 edge".
  auto d = make_dialogue({{Speaker::customer, {"why does Spotify close and not play in the background?"}},
                          {Speaker::agent, {"What device, operating system, and Spotify version are you on?"}},
                          {Speaker::customer, {"Galaxy s7 edge"}},
                          {Speaker::agent, {"Can you DM us your account's email address?"}}});
  Prepared p = prepare(d, lexicon());
  ASSERT_EQ(p.units.size(), 4u);
  const UnitScores s = testing::same_salience(p);
  const DecodeOptions four = testing::sentence_budget(4);
  const decoding::Context c(p, s, four);
  auto selection = selection_of({0, 1, 3});
  decoding::add_english_customer_replies(c, selection);
  EXPECT_EQ(selection.units, (std::vector<int>{0, 1, 3, 2}));
  // At the cap there is no room: the reply takes no ranked unit's place.
  const DecodeOptions three = testing::sentence_budget(3);
  const decoding::Context full(p, s, three);
  auto at_cap = selection_of({0, 1, 3});
  decoding::add_english_customer_replies(full, at_cap);
  EXPECT_EQ(at_cap.units, (std::vector<int>{0, 1, 3}));
  // A phone number given is a detail (TweetSumm valid 822bfbb8: "Sure 202-867-0033").
  auto call = make_dialogue({{Speaker::customer, {"The system is down again."}},
                             {Speaker::agent, {"May we call you when the system is back up?"}},
                             {Speaker::customer, {"Sure 202-867-0033"}},
                             {Speaker::agent, {"We will check with our supervisor."}}});
  Prepared r = prepare(call, lexicon());
  const UnitScores u = testing::same_salience(r);
  const decoding::Context asked(r, u, four);
  auto with_number = selection_of({0, 1, 3});
  decoding::add_english_customer_replies(asked, with_number);
  EXPECT_EQ(with_number.units, (std::vector<int>{0, 1, 3}));
  // A version is an answer (TweetSumm train e7f68827: "iPhone 7 iOS 11.0.3 NTC 5.7.0").
  auto version = make_dialogue({{Speaker::customer, {"I can't download any workouts on the app."}},
                                {Speaker::agent, {"What device, OS, and version of the app are you using?"}},
                                {Speaker::customer, {"iPhone 7 iOS 11.0.3 NTC 5.7.0"}},
                                {Speaker::agent, {"Are you able to update to iOS 11.1?"}}});
  Prepared vp = prepare(version, lexicon());
  const UnitScores vs = testing::same_salience(vp);
  const decoding::Context told_version(vp, vs, four);
  auto with_version = selection_of({0, 1, 3});
  decoding::add_english_customer_replies(told_version, with_version);
  EXPECT_EQ(with_version.units, (std::vector<int>{0, 1, 3, 2}));
  // A long reply is no direct answer (kReplyWordsEn), nor is a reply to a statement.
  auto statement = make_dialogue({{Speaker::customer, {"why does Spotify close?"}},
                                  {Speaker::agent, {"We are looking into this."}},
                                  {Speaker::customer, {"Galaxy s7 edge"}}});
  Prepared q = prepare(statement, lexicon());
  const UnitScores t = testing::same_salience(q);
  const decoding::Context told(q, t, four);
  auto no_question = selection_of({0, 1});
  decoding::add_english_customer_replies(told, no_question);
  EXPECT_EQ(no_question.units, (std::vector<int>{0, 1}));
}


TEST(EnglishCustomerReplies, AnAgentsQuestionWhoseReplyIsLeftOutLeaves) {
  // TweetSumm valid 8625cb30 showed "Agent: So we're on the same page is this the Apple News app or the
  // website you're attempting to access?" with the answer left out; the summary reads on without it.
  auto d = make_dialogue({{Speaker::customer, {"I can't get into the news app on my phone."}},
                          {Speaker::agent, {"Is this the news app or the website you're trying to access?"}},
                          {Speaker::customer, {"It is the news app on my phone, not the website."}},
                          {Speaker::agent, {"Let's go ahead and delete and reinstall the news app."}},
                          {Speaker::customer, {"It is working again now, thanks a lot."}}});
  Prepared p = prepare(d, lexicon());
  ASSERT_EQ(p.units.size(), 5u);
  const UnitScores s = testing::same_salience(p);
  const DecodeOptions four = testing::sentence_budget(4);
  const decoding::Context c(p, s, four);
  auto unanswered = selection_of({0, 1, 3, 4});
  EXPECT_TRUE(decoding::drop_unanswered_agent_questions(c, unanswered));
  EXPECT_EQ(unanswered.units, (std::vector<int>{0, 3, 4}));
  // With its answer shown it stays.
  auto answered = selection_of({0, 1, 2, 3});
  EXPECT_FALSE(decoding::drop_unanswered_agent_questions(c, answered));
  EXPECT_EQ(answered.units, (std::vector<int>{0, 1, 2, 3}));
  // The summary's only agent unit stays: it is all it shows of the agent.
  auto only_agent = selection_of({0, 1, 4});
  EXPECT_FALSE(decoding::drop_unanswered_agent_questions(c, only_agent));
  EXPECT_EQ(only_agent.units, (std::vector<int>{0, 1, 4}));
  // A request is answered by doing it, not by a reply.
  auto request = make_dialogue({{Speaker::customer, {"I can't get into the news app on my phone."}},
                                {Speaker::agent, {"Can you DM us the email address on your account?"}},
                                {Speaker::customer, {"Sure, I have sent it over to you just now."}},
                                {Speaker::agent, {"Thanks, we have reset the news app for you."}}});
  Prepared r = prepare(request, lexicon());
  ASSERT_EQ(r.units.size(), 4u);
  const UnitScores rs = testing::same_salience(r);
  const decoding::Context asked(r, rs, four);
  auto with_request = selection_of({0, 1, 3});
  EXPECT_FALSE(decoding::drop_unanswered_agent_questions(asked, with_request));
  EXPECT_EQ(with_request.units, (std::vector<int>{0, 1, 3}));
}
TEST(ClosingFeelings, AShortFeelingAfterTheAgentsWordsBringsWhatItIsAbout) {
  // TweetSumm valid 0e35203a ended "…leadership team. Customer: Ugh!": the tweet said before it what
  // the feeling was about.
  auto d = make_dialogue({{Speaker::customer, {"how can you let your staff promote another airline?"}},
                          {Speaker::agent, {"We will share your feedback with our leadership team."}},
                          {Speaker::customer, {"Flying VX used to be such a great experience - now it's a city bus.", "Ugh!"}}});
  Prepared p = prepare(d, lexicon());
  ASSERT_EQ(p.units.size(), 4u);
  const UnitScores s = testing::same_salience(p);
  const DecodeOptions four = testing::sentence_budget(4);
  const decoding::Context c(p, s, four);
  EXPECT_EQ(decoding::what_a_closing_feeling_is_about(c, 3), 2);
  EXPECT_EQ(decoding::what_a_closing_feeling_is_about(c, 2), -1);  // no short feeling
  // After the agent's words it brings the sentence before it, where the cap has room.
  auto after_agent = selection_of({0, 1, 3});
  decoding::add_what_closing_feelings_are_about(c, after_agent);
  EXPECT_EQ(after_agent.units, (std::vector<int>{0, 1, 3, 2}));
  // A number of sentences the user asked for holds.
  const DecodeOptions three = testing::sentence_budget(3);
  const decoding::Context full(p, s, three);
  auto at_cap = selection_of({0, 1, 3});
  decoding::add_what_closing_feelings_are_about(full, at_cap);
  EXPECT_EQ(at_cap.units, (std::vector<int>{0, 1, 3}));
  // After the customer's own shown words with an agent turn between, it would read as said of them and
  // the turn left out (1188a121: "Customer: Most unsatisfactory!!" after the customer's opening tweet):
  // what it is about comes too.
  auto after_customer = selection_of({0, 3});
  decoding::add_what_closing_feelings_are_about(c, after_customer);
  EXPECT_EQ(after_customer.units, (std::vector<int>{0, 3, 2}));
  // Right after the customer's own shown words, with no agent turn between, it is said of them.
  auto same_run = make_dialogue({{Speaker::customer, {"how can you let your staff promote another airline?"}},
                                 {Speaker::customer, {"Flying VX used to be such a great experience.", "Ugh!"}}});
  Prepared r = prepare(same_run, lexicon());
  ASSERT_EQ(r.units.size(), 3u);
  const UnitScores t = testing::same_salience(r);
  const decoding::Context run(r, t, four);
  auto own_words = selection_of({0, 2});
  decoding::add_what_closing_feelings_are_about(run, own_words);
  EXPECT_EQ(own_words.units, (std::vector<int>{0, 2}));
  // A feeling that opens its tweet is about what the tweet says next (3af258a3: "Disgraceful. We are not
  // as privileged as others to shop on Amazon").
  auto opening = make_dialogue({{Speaker::customer, {"Your products are not shipped to my address."}},
                                {Speaker::agent, {"Sorry, could you tell us what they were?"}},
                                {Speaker::customer, {"Disgraceful.", "We are not as privileged as others to shop here."}}});
  Prepared o = prepare(opening, lexicon());
  ASSERT_EQ(o.units.size(), 4u);
  const UnitScores w = testing::same_salience(o);
  const decoding::Context opens(o, w, four);
  EXPECT_EQ(decoding::what_a_closing_feeling_is_about(opens, 2), 3);
  // Not the rest of a sentence the data split ("way is the customer supposed to prove…").
  auto split = make_dialogue({{Speaker::customer, {"Your products are not shipped to my address."}},
                              {Speaker::agent, {"Sorry, could you tell us what they were?"}},
                              {Speaker::customer, {"Ridiculous.", "way am I supposed to prove it is me"}}});
  Prepared sp = prepare(split, lexicon());
  ASSERT_EQ(sp.units.size(), 4u);
  const UnitScores x = testing::same_salience(sp);
  const decoding::Context rest(sp, x, four);
  EXPECT_EQ(decoding::what_a_closing_feeling_is_about(rest, 2), -1);
}

TEST(TurningFeeling, TheCustomersLastFeelingIsShownWhereItTurns) {
  // TweetSumm valid 4844e675 ended on "Customer: Um, you are AMAZING!" though the customer's last word was
  // "Bummer. He just landed and said no HBD message."
  auto d = make_dialogue({{Speaker::customer, {"This service is disgusting."}},
                          {Speaker::agent, {"We have refunded the fee to your card."}},
                          {Speaker::customer, {"That is great news, I am so happy now"}}});
  Prepared p = prepare(d, lexicon());
  ASSERT_EQ(p.units.size(), 3u);
  const UnitScores s = testing::same_salience(p);
  const DecodeOptions four = testing::sentence_budget(4);
  const decoding::Context c(p, s, four);
  auto angry = selection_of({0, 1});
  EXPECT_EQ(decoding::turning_feeling_unit(c, angry), 2);
  decoding::add_turning_feeling(c, angry);
  EXPECT_EQ(angry.units, (std::vector<int>{0, 1, 2}));
  // The same feeling again is no turn; a summary that shows no feeling has none to turn from.
  auto still = make_dialogue({{Speaker::customer, {"This service is disgusting."}},
                              {Speaker::agent, {"We have refunded the fee to your card."}},
                              {Speaker::customer, {"Still a terrible and awful experience overall"}}});
  Prepared q = prepare(still, lexicon());
  const UnitScores t = testing::same_salience(q);
  const decoding::Context same(q, t, four);
  EXPECT_EQ(decoding::turning_feeling_unit(same, selection_of({0, 1})), -1);
  EXPECT_EQ(decoding::turning_feeling_unit(c, selection_of({1})), -1);
  // A feeling alone says nothing of how it turned.
  auto bare = make_dialogue({{Speaker::customer, {"This service is disgusting."}},
                             {Speaker::agent, {"We have refunded the fee to your card."}},
                             {Speaker::customer, {"Great news!"}}});
  Prepared r = prepare(bare, lexicon());
  const UnitScores u = testing::same_salience(r);
  const decoding::Context short_one(r, u, four);
  EXPECT_EQ(decoding::turning_feeling_unit(short_one, selection_of({0, 1})), -1);
  // An emoji sent as a sentence of its own closes the sentence before it in its tweet: that sentence says
  // how the customer left (4844e675's last feeling was the 😏 after "He just landed and said no HBD message.").
  auto emoji = make_dialogue({{Speaker::customer, {"Um, you are AMAZING!"}},
                              {Speaker::agent, {"Can do, we added the note."}},
                              {Speaker::customer, {"He just landed and said no HBD message.", "😏"}}});
  Prepared e = prepare(emoji, lexicon());
  ASSERT_EQ(e.units.size(), 4u);
  const UnitScores w = testing::same_salience(e);
  const decoding::Context closed(e, w, four);
  EXPECT_EQ(decoding::turning_feeling_unit(closed, selection_of({0, 1})), 2);
}

}  // namespace
}  // namespace kessel::summarize
