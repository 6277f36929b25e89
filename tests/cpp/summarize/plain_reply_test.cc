// A customer's question the summary shows unanswered brings the agent's plain reply when no yes, no,
// refusal or reply to an open question was found (decode_parts.h, plain_reply).
#include <gtest/gtest.h>

#include "kessel/summarize/summary.h"
#include "kessel/text/utf8.h"
#include "summarize/decode_parts.h"
#include "test_dialogues.h"

namespace kessel::summarize {
namespace {

using text::Speaker;
using testing::make_dialogue;
const text::Lexicon& lexicon() { return testing::default_lexicon(); }

TEST(PlainReply, QuestionsInARowGetTheAgentsReplyAfterItsHold) {
  // te157 653: 售后大概多久 / 能在放假前完成吗 / 这个以售后的审核意见为准的呢, shown without the reply.
  auto d = make_dialogue({{Speaker::customer, {"售后大概多久"}},
                          {Speaker::customer, {"能在放假前完成吗"}},
                          {Speaker::agent, {"稍等哦"}},
                          {Speaker::agent, {"这个以售后的审核意见为准的呢"}}});
  Prepared p = prepare(d, lexicon());
  ASSERT_EQ(p.units.size(), 4u);
  const UnitScores s = testing::same_salience(p);
  const DecodeOptions four = testing::sentence_budget(4);
  const decoding::Context c(p, s, four);
  EXPECT_EQ(decoding::plain_reply(c, 0, {0}), 3);
  EXPECT_EQ(decoding::plain_reply(c, 1, {1}), 3);
  EXPECT_EQ(decoding::plain_reply(c, 1, {1, 3}), -1);  // the summary shows a reply already
  decoding::ConstrainedSelection selection;
  selection.units = {0, 1};
  decoding::add_direct_answers(c, selection);
  EXPECT_EQ(selection.units, (std::vector<int>{0, 1, 3}));
}

TEST(PlainReply, AServiceOrdersNumberOrSympathyAloneAnswersNothing) {
  for (const char* line : {"服务单号[数字]订单编号[订单编号]", "非常理解您的心情"}) {
    const std::vector<char32_t> cps = text::decode_utf8(line, text::Utf8Mode::lossy).cps;
    EXPECT_TRUE(decoding::answers_nothing(std::u32string_view(cps.data(), cps.size()))) << line;
  }
  for (const char* line : {"大家电是[数字]天", "[订单编号]不符合价保的", "您的订单换单完成，新运单号【VB[数字]】"}) {
    const std::vector<char32_t> cps = text::decode_utf8(line, text::Utf8Mode::lossy).cps;
    EXPECT_FALSE(decoding::answers_nothing(std::u32string_view(cps.data(), cps.size()))) << line;
  }
}

TEST(PlainReply, NoReplyForAComplaintAStatementAfterTheQuestionOrAReplyThatSaysNothing) {
  const DecodeOptions four = testing::sentence_budget(4);
  auto reply_to = [&](std::vector<std::pair<Speaker, std::vector<std::string>>> turns) {
    auto d = make_dialogue(std::move(turns));
    Prepared p = prepare(d, lexicon());
    const UnitScores s = testing::same_salience(p);
    const decoding::Context c(p, s, four);
    return decoding::plain_reply(c, 0, {0});
  };
  // A "why" asked as a complaint: the agent's next words rarely answer it.
  EXPECT_EQ(reply_to({{Speaker::customer, {"为什么不能今天上门取件?"}}, {Speaker::agent, {"取件师傅明天上午会联系您的"}}}), -1);
  // The customer's statement after the question is what the reply answers.
  EXPECT_EQ(reply_to({{Speaker::customer, {"可以换货吗?"}},
                      {Speaker::customer, {"我要送人的，生日是下周三"}},
                      {Speaker::agent, {"这个以售后的审核意见为准的呢"}}}),
            -1);
  // Unless the reply takes up a word of the question (CSDS val 59: 财务可以帮忙作废么 / 这张专票我们用不了 /
  // 可以作废): then it answers the question, past the statement.
  EXPECT_EQ(reply_to({{Speaker::customer, {"订单的发票你们财务可以帮忙作废么"}},
                      {Speaker::customer, {"这张专票我们用不了"}},
                      {Speaker::agent, {"可以作废的呢"}}}),
            2);
  // A function pair in common (可以) is no word taken up.
  EXPECT_EQ(reply_to({{Speaker::customer, {"可以换货吗?"}},
                      {Speaker::customer, {"我要送人的，生日是下周三"}},
                      {Speaker::agent, {"可以的，售后审核后为您处理"}}}),
            -1);
  // A reply that asks back (te157 743: 有新订单嘛 for 有保价吗), or a product's title pasted (639).
  EXPECT_EQ(reply_to({{Speaker::customer, {"请问有保价吗?"}}, {Speaker::agent, {"您这边有新订单嘛"}}}), -1);
  EXPECT_EQ(reply_to({{Speaker::customer, {"这笔记本不送鼠标吗?"}}, {Speaker::agent, {"华硕ASUSPlus飞行堡垒电竞鼠标垫"}}}), -1);
  // The same question with a reply in words gets it.
  EXPECT_EQ(reply_to({{Speaker::customer, {"这笔记本不送鼠标吗?"}}, {Speaker::agent, {"这款是没有赠送鼠标的呢"}}}), 1);
}

}  // namespace
}  // namespace kessel::summarize
