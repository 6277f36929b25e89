#include "kessel/summarize/faithfulness.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "kessel/error.h"
#include "kessel/text/utf8.h"
#include "test_dialogues.h"

namespace kessel::summarize {
namespace {

using Kind = FaithFinding::Kind;
using text::Speaker;
using testing::make_dialogue;

// A segmenter stand-in: the listed words where they occur (longest first, left to right), every other
// code point a word of its own.
WordBoundaries fake_words(std::vector<std::u32string> dictionary) {
  return {[dictionary](std::string_view s) {
            const auto cps = text::decode_utf8(s, text::Utf8Mode::lossy).cps;
            std::vector<text::WordSpan> out;
            for (std::size_t i = 0; i < cps.size();) {
              std::size_t len = 1;
              for (const auto& w : dictionary)
                if (w.size() > len && i + w.size() <= cps.size() &&
                    std::equal(w.begin(), w.end(), cps.begin() + static_cast<std::ptrdiff_t>(i)))
                  len = w.size();
              out.push_back({static_cast<std::int64_t>(i), static_cast<std::int64_t>(i + len)});
              i += len;
            }
            return out;
          },
          "fake"};
}

// One hand-made summary sentence: `body` rendered from `unit`.
struct Made {
  int unit;
  std::string body;
  bool shares_label = false;
};

Summary summary_of(const Prepared& p, const std::vector<Made>& made) {
  Summary s;
  s.id = p.dialogue->id;
  for (const auto& m : made) {
    SummarySentence x;
    x.unit = m.unit;
    x.turn = p.units[static_cast<std::size_t>(m.unit)].turn;
    x.body = m.body;
    x.shares_label = m.shares_label;
    s.sentences.push_back(x);
  }
  return s;
}

// The findings of one sentence rendering unit 0 of a one-turn dialogue `source` as `body`.
FaithReport check_one(Speaker speaker, const std::string& source, const std::string& body,
                      const WordBoundaries& words = per_character_words()) {
  const text::Dialogue d = make_dialogue({{speaker, {source}}});
  const Prepared p = prepare(d, testing::default_lexicon());
  return check_faithfulness(p, summary_of(p, {{0, body}}), words);
}

std::string details(const FaithReport& r) {
  std::string out;
  for (const auto& f : r.findings) out += std::string(to_string(f.kind)) + ": " + f.detail + "\n";
  return out;
}

TEST(Faithfulness, AVerbatimSentenceHasNoFinding) {
  const auto r = check_one(Speaker::customer, "我的快递三天没到，怎么回事？", "我的快递三天没到，怎么回事？");
  EXPECT_TRUE(r.findings.empty()) << details(r);
  EXPECT_EQ(r.sentences, 1);
}

TEST(Faithfulness, NegationDroppedInsideTheExtentIsLost) {
  const auto r = check_one(Speaker::customer, "物流还没有更新", "物流还有更新。");
  ASSERT_EQ(r.count(Kind::negation_lost), 1) << details(r);
  EXPECT_NE(r.findings[0].detail.find("'没'"), std::string::npos) << r.findings[0].detail;
  EXPECT_EQ(r.findings[0].sentence, 0);
  EXPECT_EQ(r.findings[0].unit, 0);
}

TEST(Faithfulness, NegationKeptOrOutsideTheExtentPasses) {
  EXPECT_EQ(check_one(Speaker::customer, "物流还没有更新", "物流还没有更新。").count(Kind::negation_lost), 0);
  // A deleted greeting and particle around the kept negation.
  EXPECT_EQ(check_one(Speaker::customer, "亲，物流还没有更新哦", "物流还没有更新。").count(Kind::negation_lost), 0);
  // The clause holding the negator is left out entirely: not in the extent.
  EXPECT_EQ(check_one(Speaker::customer, "我不想等了，快点发货", "快点发货。").count(Kind::negation_lost), 0);
  // A whole negated word deleted inside the extent is lost.
  EXPECT_EQ(check_one(Speaker::customer, "我还没有收到货", "我还收到货。").count(Kind::negation_lost), 1);
}

TEST(Faithfulness, CharactersThatDoNotNegateAreNotNegators) {
  // 非常 "very", 别人 "others", the 不 of a 能不能 question.
  EXPECT_EQ(check_one(Speaker::agent, "我们非常重视", "我们重视。").count(Kind::negation_lost), 0);
  EXPECT_EQ(check_one(Speaker::customer, "我和别人一样", "我和一样。").count(Kind::negation_lost), 0);
  EXPECT_EQ(check_one(Speaker::customer, "要不然我自行取消", "要我自行取消。").count(Kind::negation_lost), 0);
  const auto r = check_one(Speaker::customer, "能不能今天发货", "能今天发货。");
  EXPECT_EQ(r.count(Kind::negation_lost), 0) << details(r);
  EXPECT_EQ(r.count(Kind::question_asserted), 1) << details(r);
}

TEST(Faithfulness, EnglishNegation) {
  EXPECT_EQ(check_one(Speaker::customer, "I have not received my order.", "I have received my order.")
                .count(Kind::negation_lost),
            1);
  // Reported speech changes the auxiliary, not the negation.
  EXPECT_EQ(check_one(Speaker::agent, "You don't need to reinstall it.", "The customer doesn't need to reinstall it.")
                .count(Kind::negation_lost),
            0);
  EXPECT_EQ(check_one(Speaker::customer, "I can't log in and it never works.", "I log in and it works.")
                .count(Kind::negation_lost),
            2);
}

TEST(Faithfulness, AQuestionRenderedAsAStatementIsAsserted) {
  const auto r = check_one(Speaker::agent, "订单联系方式可以联系到您吗？", "订单联系方式可以联系到。");
  ASSERT_EQ(r.count(Kind::question_asserted), 1) << details(r);
  EXPECT_NE(r.findings[0].detail.find("吗"), std::string::npos) << r.findings[0].detail;
  // The renderer's 。 for ？ alone: a wh-question without its mark.
  EXPECT_EQ(check_one(Speaker::customer, "什么时候发货？", "什么时候发货。").count(Kind::question_asserted), 1);
}

TEST(Faithfulness, AQuestionKeptOrReportedPasses) {
  EXPECT_EQ(check_one(Speaker::agent, "可以联系到您吗？", "可以联系到您吗。").count(Kind::question_asserted), 0);
  // Reported: the frame 用户询问 and 是否 are the body's own words, and its question form.
  const auto r = check_one(Speaker::customer, "可以退款吗？", "用户询问是否可以退款。");
  EXPECT_TRUE(r.findings.empty()) << details(r);
  EXPECT_EQ(check_one(Speaker::customer, "有没有优惠", "有没有优惠。").count(Kind::question_asserted), 0);
  EXPECT_EQ(check_one(Speaker::customer, "可以快一点么?", "可以快一点么。").count(Kind::question_asserted), 0);
  // The question clause is not in the extent.
  EXPECT_EQ(check_one(Speaker::customer, "我等了很久了，可以退款吗", "我等了很久了。").count(Kind::question_asserted), 0);
  // 呢 closed by the writer's 。 is a statement.
  EXPECT_EQ(check_one(Speaker::customer, "还没到呢。", "还没到。").count(Kind::question_asserted), 0);
  EXPECT_EQ(check_one(Speaker::customer, "那我的订单呢", "那我的订单。").count(Kind::question_asserted), 1);
  EXPECT_EQ(check_one(Speaker::customer, "那怎么办呢", "怎么办。").count(Kind::question_asserted), 1);
  // 呢 softening an agent's statement.
  EXPECT_EQ(check_one(Speaker::agent, "这边帮您申请下换货呢", "帮您申请下换货。").count(Kind::question_asserted), 0);
  // After 那 too, when the clause does a service for the customer: the agent tells what they will do.
  EXPECT_EQ(check_one(Speaker::agent, "那小妹为您联系一下派送员呢", "联系派送员。").count(Kind::question_asserted), 0);
}

TEST(Faithfulness, EnglishQuestions) {
  EXPECT_EQ(check_one(Speaker::agent, "Can you check your order?", "Can you check your order.")
                .count(Kind::question_asserted),
            1);
  EXPECT_EQ(check_one(Speaker::agent, "Can you check your order?", "Can you check your order?")
                .count(Kind::question_asserted),
            0);
  const auto r = check_one(Speaker::agent, "Have you tried restarting it?", "They ask whether the customer has tried restarting it.");
  EXPECT_TRUE(r.findings.empty()) << details(r);
  EXPECT_EQ(check_one(Speaker::customer, "Hi, is it shipped? I paid yesterday.", "I paid yesterday.")
                .count(Kind::question_asserted),
            0);
}

TEST(Faithfulness, AWordPartlyKeptIsCut) {
  const WordBoundaries words = fake_words({U"怎么办", U"我该"});
  const auto r = check_one(Speaker::customer, "我该怎么办", "我该么办。", words);
  ASSERT_EQ(r.count(Kind::word_cut), 1) << details(r);
  EXPECT_NE(r.findings[0].detail.find("'怎么办' cut to '么办'"), std::string::npos) << r.findings[0].detail;
  // The same cut is invisible with one word per character.
  EXPECT_EQ(check_one(Speaker::customer, "我该怎么办", "我该么办。").count(Kind::word_cut), 0);
}

TEST(Faithfulness, ADemonstrativeDroppedBeforeItsMeasureWordIsACut) {
  // The segmenter (like jieba) makes 这|段时间 two words; 段时间 alone reads as a cut word.
  const WordBoundaries words = fake_words({U"段时间", U"你们", U"这个", U"订单"});
  const auto r = check_one(Speaker::customer, "这段时间你们很慢", "段时间你们很慢。", words);
  ASSERT_EQ(r.count(Kind::word_cut), 1) << details(r);
  EXPECT_NE(r.findings[0].detail.find("'这段时间' cut to '段时间'"), std::string::npos) << r.findings[0].detail;
  // Both gone, or both kept, is no cut; nor is 这个 dropped whole before 订单.
  EXPECT_EQ(check_one(Speaker::customer, "这段时间你们很慢", "你们很慢。", words).count(Kind::word_cut), 0);
  EXPECT_EQ(check_one(Speaker::customer, "这段时间你们很慢", "这段时间很慢。", words).count(Kind::word_cut), 0);
  EXPECT_EQ(check_one(Speaker::customer, "这个订单很慢", "订单很慢。", words).count(Kind::word_cut), 0);
}

TEST(Faithfulness, AWholeWordDeletedIsNotCut) {
  const WordBoundaries words = fake_words({U"我的", U"订单", U"物流", U"一直", U"更新"});
  const auto r = check_one(Speaker::customer, "我的订单物流一直没更新", "订单一直没更新。", words);
  EXPECT_TRUE(r.findings.empty()) << details(r);
}

TEST(Faithfulness, EnglishWordCut) {
  EXPECT_EQ(check_one(Speaker::customer, "my order number is wrong", "my ord number is wrong").count(Kind::word_cut), 1);
  EXPECT_EQ(check_one(Speaker::customer, "my order number is wrong", "my number is wrong").count(Kind::word_cut), 0);
}

TEST(Faithfulness, OneLabelAcrossTheOtherSpeakersTurnIsAMerge) {
  const auto d = make_dialogue({{Speaker::customer, {"能送货上门安装吗"}},
                                {Speaker::agent, {"可以的亲"}},
                                {Speaker::customer, {"太好了👍", "那我现在下单"}}});
  const Prepared p = prepare(d, testing::default_lexicon());
  const auto merged = check_faithfulness(
      p, summary_of(p, {{0, "能送货上门安装吗"}, {2, "太好了👍", true}}), per_character_words());
  ASSERT_EQ(merged.count(Kind::cross_turn_merge), 1) << details(merged);
  EXPECT_EQ(merged.findings.back().sentence, 1);
  EXPECT_NE(merged.findings.back().detail.find("agent turn 1"), std::string::npos) << merged.findings.back().detail;
  // Two sentences of one turn under one label; and a label of its own across the agent's turn.
  EXPECT_EQ(check_faithfulness(p, summary_of(p, {{2, "太好了👍"}, {3, "那我现在下单", true}}), per_character_words())
                .count(Kind::cross_turn_merge),
            0);
  EXPECT_EQ(check_faithfulness(p, summary_of(p, {{0, "能送货上门安装吗"}, {2, "太好了👍"}}), per_character_words())
                .count(Kind::cross_turn_merge),
            0);
}

TEST(Faithfulness, ConsecutiveTurnsOfOneSpeakerMayShareALabel) {
  const auto d = make_dialogue({{Speaker::customer, {"在吗"}}, {Speaker::customer, {"我的快递到哪了"}}});
  const Prepared p = prepare(d, testing::default_lexicon());
  const auto r = check_faithfulness(p, summary_of(p, {{0, "在吗"}, {1, "我的快递到哪了", true}}), per_character_words());
  EXPECT_EQ(r.count(Kind::cross_turn_merge), 0) << details(r);
}

TEST(Faithfulness, DecodedSummariesAreChecked) {
  const auto d = make_dialogue({{Speaker::customer, {"什么时候发货？"}}, {Speaker::agent, {"今天下午发货。"}}});
  const Prepared p = prepare(d, testing::default_lexicon());
  UnitScores s;
  s.salience = {0.9f, 0.8f};
  DecodeOptions o;
  o.redundancy = 0.0f;
  const auto r = check_faithfulness(p, decode(p, s, o), per_character_words());
  EXPECT_EQ(r.sentences, 2);
  EXPECT_EQ(r.count(Kind::question_asserted), 0) << details(r);  // the renderer keeps the ？
}

TEST(Faithfulness, BadInputsAreNamed) {
  const auto d = make_dialogue({{Speaker::customer, {"你好"}}});
  const Prepared p = prepare(d, testing::default_lexicon());
  EXPECT_THROW(check_faithfulness(p, summary_of(p, {{0, "你好"}}), WordBoundaries{}), InvalidArgument);
  Summary bad = summary_of(p, {{0, "你好"}});
  bad.sentences[0].unit = 5;
  EXPECT_THROW(check_faithfulness(p, bad, per_character_words()), InvalidArgument);
  const WordBoundaries wrong{[](std::string_view) { return std::vector<text::WordSpan>{{0, 9}}; }, "wrong"};
  EXPECT_THROW(check_faithfulness(p, summary_of(p, {{0, "你好"}}), wrong), InvalidArgument);
}

}  // namespace
}  // namespace kessel::summarize
