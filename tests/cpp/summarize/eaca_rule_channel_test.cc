// The rule channel of the dual-channel attention (src/summarize/eaca_rule_channel.h): on a
// hand-made dialogue where each rule fires, the weights are the softmax of the rules' nats, each
// reason names the keys its rule fired on; and the channel is isolated from the learned one:
// summaries, scores and a trained model's parameters are bit-identical with and without it.
#include "summarize/eaca_rule_channel.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "kessel/attention.h"
#include "kessel/error.h"
#include "kessel/summarize/eaca.h"
#include "kessel/summarize/scorers.h"
#include "kessel/summarize/summary_json.h"
#include "kessel/text/dialogue.h"
#include "test_dialogues.h"

namespace kessel::summarize {
namespace {

using text::Speaker;

// Units 0..5, one per turn: a greeting, an agent question, a customer question, an agent line, a
// customer emotion, an agent line. Times (when given) put turns 3 and 4 within 60 s of each other
// only.
text::Dialogue rules_dialogue(bool timed) {
  auto d = testing::make_dialogue({{Speaker::customer, {"Hello there."}},
                                   {Speaker::agent, {"How can I help you today?"}},
                                   {Speaker::customer, {"Where is my order?"}},
                                   {Speaker::agent, {"Let me check the tracking."}},
                                   {Speaker::customer, {"I am furious with this service."}},
                                   {Speaker::agent, {"It ships tomorrow morning."}}});
  const double times[] = {0, 100, 200, 300, 330, 600};
  if (timed)
    for (std::size_t t = 0; t < d.turns.size(); ++t) d.turns[t].time = times[t];
  return d;
}

std::vector<float> softmax(const std::vector<float>& logits) {
  double z = 0;
  for (float l : logits) z += std::exp(static_cast<double>(l));
  std::vector<float> w;
  for (float l : logits) w.push_back(static_cast<float>(std::exp(static_cast<double>(l)) / z));
  return w;
}

std::string fixed2(float x) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.2f", static_cast<double>(x));
  return buf;
}

const RuleReason* reason(const RuleRow& row, Rule rule) {
  for (const auto& r : row.reasons)
    if (r.rule == rule) return &r;
  return nullptr;
}

TEST(RuleChannel, WeightsAreTheSoftmaxOfTheRulesThatFire) {
  const auto d = rules_dialogue(true);
  const Prepared p = prepare(d, testing::default_lexicon());
  ASSERT_EQ(p.units.size(), 6u);
  ASSERT_TRUE(p.customer_expressed_emotion()) << "the lexicon should find 'furious'";
  const RuleChannel rc = rule_channel(p, std::vector<int>{3, 5});
  EXPECT_TRUE(rc.by_time);
  ASSERT_EQ(rc.rows.size(), 2u);
  // Query unit 3 (t = 300): the window holds units 3 and 4 (t = 330); unit 2 is a customer
  // question, unit 4 a customer emotion. Agent questions (unit 1) do not count.
  const std::vector<float> want3 = softmax({0, 0, 1, 1, 2 + 1, 0});
  // Query unit 5 (t = 600): only itself in the window.
  const std::vector<float> want5 = softmax({0, 0, 1, 0, 2, 1});
  for (std::size_t j = 0; j < 6; ++j) {
    EXPECT_NEAR(rc.rows[0].weights[j], want3[j], 1e-6) << "key " << j;
    EXPECT_NEAR(rc.rows[1].weights[j], want5[j], 1e-6) << "key " << j;
  }
  EXPECT_EQ(rc.rows[0].fired, (std::vector<unsigned char>{0, 0, 2, 4, 1 | 4, 0}));

  const RuleRow& row = rc.rows[0];
  EXPECT_EQ(row.unit, 3);
  EXPECT_EQ(row.turn, 3);
  ASSERT_EQ(row.reasons.size(), 3u);
  const RuleReason* emotion = reason(row, Rule::kEmotion);
  const RuleReason* question = reason(row, Rule::kQuestion);
  const RuleReason* window = reason(row, Rule::kWindow);
  ASSERT_TRUE(emotion && question && window);
  EXPECT_EQ(emotion->fired, 1);
  EXPECT_NEAR(emotion->mass, want3[4], 1e-6);
  ASSERT_EQ(emotion->keys.size(), 1u);
  EXPECT_EQ(emotion->keys[0].turn, 4);
  EXPECT_NE(emotion->keys[0].term.find("furious"), std::string::npos) << emotion->keys[0].term;
  EXPECT_FLOAT_EQ(emotion->nats, 2.0f);
  EXPECT_EQ(question->fired, 1);
  EXPECT_EQ(question->keys[0].unit, 2);
  EXPECT_NEAR(question->mass, want3[2], 1e-6);
  EXPECT_EQ(window->fired, 2);
  EXPECT_NEAR(window->mass, want3[3] + want3[4], 1e-6);
  EXPECT_EQ(window->keys[0].unit, 4);  // the heaviest first
  // The reason is about unit 3 (an agent line): no rule on it; the emotion next to it (unit 4,
  // 30 s later) is in its window, the question (unit 2, 100 s earlier) is not.
  EXPECT_TRUE(row.self_rules.empty());
  EXPECT_NEAR(row.self_weight, want3[3], 1e-6);
  ASSERT_EQ(row.near.size(), 1u);
  EXPECT_EQ(row.near[0].rule, Rule::kEmotion);
  EXPECT_EQ(row.near[0].key.unit, 4);
  EXPECT_EQ(row.because, "rules: within 60 s of the customer's emotion '" + row.near[0].key.term +
                             "' (turn 4, " + fixed2(want3[4]) + ")");
  // Unit 5 is alone in its window.
  EXPECT_EQ(rc.rows[1].because,
            "no rule on or near this sentence: chosen by the learned channel alone");
}

TEST(RuleChannel, WithoutTimesTheWindowIsInTurns) {
  const auto d = rules_dialogue(false);
  const Prepared p = prepare(d, testing::default_lexicon());
  RuleChannelOptions o;
  o.window_turns = 1;
  o.emotion_nats = 3.0f;
  const RuleChannel rc = rule_channel(p, std::vector<int>{0}, o);
  EXPECT_FALSE(rc.by_time);
  ASSERT_EQ(rc.rows.size(), 1u);
  const std::vector<float> want = softmax({1, 1, 1, 0, 3, 0});
  for (std::size_t j = 0; j < 6; ++j)
    EXPECT_NEAR(rc.rows[0].weights[j], want[j], 1e-6) << "key " << j;
  const RuleReason* window = reason(rc.rows[0], Rule::kWindow);
  ASSERT_TRUE(window != nullptr);
  EXPECT_EQ(window->fired, 2);
  EXPECT_NEAR(window->mass, want[0] + want[1], 1e-6);
}

// Units 0..6, one per turn, no times (the window is 2 turns): a customer emotion, an agent line, a
// customer question, three agent lines, the customer's order number. Each summary sentence's reason
// is about that sentence: the one that holds the emotion says so, the one next to it points at the
// emotion and the question near it, the one far from any rule says the rules have nothing on it.
TEST(RuleChannel, EachSentencesReasonIsAboutThatSentence) {
  const auto d = testing::make_dialogue({{Speaker::customer, {"I am furious with this service."}},
                                         {Speaker::agent, {"Sorry to hear that."}},
                                         {Speaker::customer, {"Where is my order?"}},
                                         {Speaker::agent, {"Let me check the tracking."}},
                                         {Speaker::agent, {"It left the warehouse."}},
                                         {Speaker::agent, {"It ships tomorrow morning."}},
                                         {Speaker::customer, {"My order number is 123456."}}});
  const Prepared p = prepare(d, testing::default_lexicon());
  ASSERT_EQ(p.units.size(), 7u);
  const RuleChannel rc = rule_channel(p, std::vector<int>{0, 1, 2, 6});
  ASSERT_EQ(rc.rows.size(), 4u);
  const std::string term = rc.rows[0].self_term;
  EXPECT_NE(term.find("furious"), std::string::npos) << term;
  // Keys: 0 emotion (2 nats), 2 question (1 nat); +1 nat within 2 turns of the query.
  const std::vector<float> w0 = softmax({3, 1, 2, 0, 0, 0, 0});
  const std::vector<float> w1 = softmax({3, 1, 2, 1, 0, 0, 0});
  const std::vector<float> w2 = softmax({3, 1, 2, 1, 1, 0, 0});
  const std::vector<float> w6 = softmax({2, 0, 1, 0, 1, 1, 1});

  EXPECT_EQ(rc.rows[0].self_rules, std::vector<Rule>{Rule::kEmotion});
  EXPECT_NEAR(rc.rows[0].self_weight, w0[0], 1e-6);
  EXPECT_EQ(rc.rows[0].because, "rules: holds the customer's emotion '" + term + "' (" +
                                    fixed2(w0[0]) + "); within 2 turns of a customer question " +
                                    "(turn 2, " + fixed2(w0[2]) + ")");
  EXPECT_TRUE(rc.rows[1].self_rules.empty());
  ASSERT_EQ(rc.rows[1].near.size(), 2u);
  EXPECT_EQ(rc.rows[1].near[0].key.unit, 0);
  EXPECT_EQ(rc.rows[1].near[1].key.unit, 2);
  EXPECT_EQ(rc.rows[1].because, "rules: within 2 turns of the customer's emotion '" + term +
                                    "' (turn 0, " + fixed2(w1[0]) +
                                    "); within 2 turns of a customer question (turn 2, " +
                                    fixed2(w1[2]) + ")");
  EXPECT_EQ(rc.rows[2].self_rules, std::vector<Rule>{Rule::kQuestion});
  EXPECT_TRUE(rc.rows[2].self_term.empty());
  EXPECT_EQ(rc.rows[2].because, "rules: is a customer question (" + fixed2(w2[2]) +
                                    "); within 2 turns of the customer's emotion '" + term +
                                    "' (turn 0, " + fixed2(w2[0]) + ")");
  // Far from both rules: its row still weighs the emotion most, and the reason does not say so.
  EXPECT_TRUE(rc.rows[3].self_rules.empty());
  EXPECT_TRUE(rc.rows[3].near.empty());
  EXPECT_NEAR(rc.rows[3].weights[0], w6[0], 1e-6);
  EXPECT_EQ(rc.rows[3].because,
            "no rule on or near this sentence: chosen by the learned channel alone");
  EXPECT_EQ(rc.rows[3].because.find(term), std::string::npos);
}

// The engine call the channel makes (zero q and k, D = 1, key_boost [1, U] plus a broadcast bias
// [1, 1, S, U]) gives softmax(key_boost + bias) on the fused path and the reference alike, at odd
// sizes (one and several key tiles), for any thread count.
TEST(RuleChannel, TheEngineCallIsTheSoftmaxOfBoostPlusBias) {
  for (Index U : {1, 7, 37, 130}) {
    const Index S = 3;
    std::vector<float> boost(static_cast<std::size_t>(U)), bias(static_cast<std::size_t>(S * U));
    for (Index j = 0; j < U; ++j)
      boost[static_cast<std::size_t>(j)] = (j % 3 == 0 ? 2.0f : 0.0f) + (j % 5 == 1 ? 1.0f : 0.0f);
    for (Index i = 0; i < S; ++i)
      for (Index j = 0; j < U; ++j)
        bias[static_cast<std::size_t>(i * U + j)] = std::abs(j - 11 * i) <= 2 ? 1.0f : 0.0f;
    const std::vector<float> q(static_cast<std::size_t>(S), 0.0f),
        kv(static_cast<std::size_t>(U), 0.0f);
    AttentionInputs in;
    in.B = 1, in.H = 1, in.Lq = S, in.Lk = U, in.D = 1, in.Dv = 1;
    in.q = q.data(), in.k = kv.data(), in.v = kv.data();
    in.key_boost = boost.data();
    in.bias = Strided4<float>::contiguous(bias.data(), {1, 1, S, U});
    for (AttentionImpl impl : {AttentionImpl::kFused, AttentionImpl::kReference}) {
      for (int threads : {1, 3}) {
        AttentionSpec spec;
        spec.impl = impl;
        spec.threads = threads;
        std::vector<float> w(static_cast<std::size_t>(S * U));
        attention_weights(w.data(), in, spec);
        for (Index i = 0; i < S; ++i) {
          std::vector<float> logits;
          for (Index j = 0; j < U; ++j)
            logits.push_back(boost[static_cast<std::size_t>(j)] +
                             bias[static_cast<std::size_t>(i * U + j)]);
          const std::vector<float> want = softmax(logits);
          for (Index j = 0; j < U; ++j)
            ASSERT_NEAR(w[static_cast<std::size_t>(i * U + j)], want[static_cast<std::size_t>(j)],
                        1e-6)
                << "U " << U << " row " << i << " key " << j
                << (impl == AttentionImpl::kFused ? " fused" : " reference") << " threads "
                << threads;
        }
      }
    }
  }
}

TEST(RuleChannel, ABadQueryOrWindowIsAnError) {
  const auto d = rules_dialogue(true);
  const Prepared p = prepare(d, testing::default_lexicon());
  EXPECT_THROW(rule_channel(p, std::vector<int>{6}), InvalidArgument);
  EXPECT_THROW(rule_channel(p, std::vector<int>{-1}), InvalidArgument);
  RuleChannelOptions o;
  o.window_seconds = 0;
  EXPECT_THROW(rule_channel(p, std::vector<int>{0}, o), InvalidArgument);
  EXPECT_TRUE(rule_channel(p, std::vector<int>{}).rows.empty());
}

TEST(RuleChannel, ExplainRecordsCarryOneRowPerSelectedSentence) {
  const auto d = rules_dialogue(true);
  const Prepared p = prepare(d, testing::default_lexicon());
  const UnitScores scores = LeadScorer{}.score(p);
  const Summary s = decode(p, scores, DecodeOptions{});
  const auto plain = summary_to_json(p, s, nullptr);
  const auto explained = summary_to_json(p, s, &scores);
  EXPECT_FALSE(plain.contains("rule_channel"));
  ASSERT_TRUE(explained.contains("rule_channel"));
  const auto& rows = explained["rule_channel"]["sentences"];
  ASSERT_EQ(rows.size(), s.sentences.size());
  const RuleChannel rc = rule_channel(p, s);
  for (std::size_t k = 0; k < s.sentences.size(); ++k) {
    EXPECT_EQ(rows[k]["unit"], s.sentences[k].unit);
    EXPECT_EQ(rows[k]["weights"].size(), p.units.size());
    EXPECT_EQ(rows[k]["because"], rc.rows[k].because);
    EXPECT_EQ(rows[k]["self_rules"].size(), rc.rows[k].self_rules.size());
    EXPECT_FLOAT_EQ(rows[k]["self_weight"].get<float>(), rc.rows[k].self_weight);
    ASSERT_EQ(rows[k]["near"].size(), rc.rows[k].near.size());
    for (std::size_t n = 0; n < rc.rows[k].near.size(); ++n) {
      EXPECT_EQ(rows[k]["near"][n]["rule"], rule_name(rc.rows[k].near[n].rule));
      EXPECT_EQ(rows[k]["near"][n]["turn"], rc.rows[k].near[n].key.turn);
    }
  }
  EXPECT_EQ(explained["rule_channel"]["rules"]["window_seconds"], 60.0);
  // The rest of the record is the same with and without the explanation.
  for (const char* key : {"summary", "sentences", "emotions", "constraint_bound"})
    EXPECT_EQ(plain[key], explained[key]);
}

// Isolation: the rule channel has no parameters and runs after decoding. Training, computing every
// dialogue's rule channel (and explain records) with the model, then training again gives
// bit-identical parameters, and the model scores bit-identically before and after.
TEST(RuleChannel, LeavesTheLearnedChannelBitIdentical) {
  const auto& lex = testing::default_lexicon();
  const auto dialogues =
      text::read_dialogues(std::string(KESSEL_SOURCE_DIR) + "/data/samples/dialogues_en.jsonl")
          .dialogues;
  ASSERT_GE(dialogues.size(), 3u);
  const std::vector<text::Dialogue> train(dialogues.begin(), dialogues.end() - 1);
  const std::vector<text::Dialogue> dev(dialogues.end() - 1, dialogues.end());
  TrainOptions options;
  options.epochs = 3;
  options.verbose = false;
  const EacaConfig config = testing::small_eaca_config();
  const EacaModel a = train_eaca(train, dev, lex, config, options);

  std::vector<std::vector<float>> salience_before;
  for (const auto& d : dialogues) salience_before.push_back(a.score(prepare(d, lex)).salience);
  int rows = 0;
  for (const auto& d : dialogues) {
    const Prepared p = prepare(d, lex);
    const UnitScores scores = a.score(p);
    const Summary s = decode(p, scores, a.decode_options());
    rows += static_cast<int>(summary_to_json(p, s, &scores)["rule_channel"]["sentences"].size());
  }
  ASSERT_GT(rows, 0);
  for (std::size_t i = 0; i < dialogues.size(); ++i)
    EXPECT_EQ(a.score(prepare(dialogues[i], lex)).salience, salience_before[i]) << dialogues[i].id;

  const EacaModel b = train_eaca(train, dev, lex, config, options);
  EXPECT_EQ(a.parameters(), b.parameters());
}

}  // namespace
}  // namespace kessel::summarize
