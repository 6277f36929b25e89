#include "kessel/summarize/stress.h"

#include <gtest/gtest.h>

#include "kessel/cpu.h"

#include "kessel/error.h"
#include "kessel/summarize/eaca.h"
#include "test_dialogues.h"

namespace kessel::summarize {
namespace {

using text::Speaker;

std::vector<text::Dialogue> base_zh() {
  return {testing::make_dialogue({{Speaker::customer, {"我的快递三天没到。", "请帮我查一下。"}},
                                  {Speaker::agent, {"非常抱歉。", "包裹今天下午会送到。"}},
                                  {Speaker::customer, {"好的。"}}},
                                 "a"),
          testing::make_dialogue(
              {{Speaker::customer, {"耳机坏了。"}}, {Speaker::agent, {"请问有没有进水？"}}}, "b")};
}

int expressed_customer_units(const text::Dialogue& d) {
  const Prepared p = prepare(d, testing::default_lexicon());
  std::vector<char> has(p.units.size(), 0);
  for (std::size_t m = 0; m < p.mentions.size(); ++m)
    if (p.mentions[m].expressed) has[static_cast<std::size_t>(p.mention_unit[m])] = 1;
  int n = 0;
  for (char c : has) n += c;
  return n;
}

TEST(StressLength, BuildsFromWholeTurnsAndSaysWhenItRepeats) {
  const auto base = base_zh();  // 8 units in all
  bool repeated = true;
  const text::Dialogue d = build_long_dialogue(base, 5, &repeated);
  EXPECT_FALSE(repeated);
  EXPECT_EQ(d.id, "stress-5");
  int units = 0;
  for (const auto& t : d.turns) units += static_cast<int>(t.sentences.size());
  EXPECT_EQ(units, 5);  // 2 + 2 + 1: the third turn ends exactly there
  EXPECT_EQ(d.turns[2].text, "好的。");

  const text::Dialogue longer = build_long_dialogue(base, 20, &repeated);
  EXPECT_TRUE(repeated);
  units = 0;
  for (const auto& t : longer.turns) {
    units += static_cast<int>(t.sentences.size());
    EXPECT_FALSE(t.time.has_value());
  }
  EXPECT_GE(units, 20);
  EXPECT_LE(units, 21);  // turns are whole: at most one turn's sentences past the length

  EXPECT_THROW(build_long_dialogue(base, 0), InvalidArgument);
  EXPECT_THROW(build_long_dialogue({testing::make_dialogue({{Speaker::customer, {}}})}, 3),
               InvalidArgument);
}

TEST(StressDensity, InjectionFillsTheCustomerUnitsAsTheShareGrows) {
  const auto base = base_zh();
  const text::Dialogue& d = base[0];
  ASSERT_EQ(expressed_customer_units(d), 0);
  const text::Dialogue none = inject_emotions(d, 0.0);
  EXPECT_EQ(none.turns[0].text, d.turns[0].text);
  const text::Dialogue all = inject_emotions(d, 1.0);
  EXPECT_EQ(expressed_customer_units(all), 3) << "every customer unit carries an expressed emotion";
  EXPECT_EQ(all.turns[0].sentences[0], "我的快递三天没到，气死我了。");  // before the closing 。
  EXPECT_EQ(all.turns[1].text, d.turns[1].text) << "agent turns are left alone";
  EXPECT_EQ(all.turns[0].text, all.turns[0].sentences[0] + all.turns[0].sentences[1]);
  const int half = expressed_customer_units(inject_emotions(d, 0.5));
  EXPECT_GT(half, 0);
  EXPECT_LT(half, 3);

  const auto en =
      testing::make_dialogue({{Speaker::customer, {"My order is late.", "Where is it?"}},
                              {Speaker::agent, {"Sorry, checking."}}});
  const text::Dialogue en_all = inject_emotions(en, 1.0);
  EXPECT_EQ(en_all.turns[0].sentences[0], "My order is late, so disappointed.");
  EXPECT_EQ(en_all.turns[0].text,
            en_all.turns[0].sentences[0] + " " + en_all.turns[0].sentences[1]);
  EXPECT_EQ(expressed_customer_units(en_all), 2);
}

StressOptions small_options() {
  StressOptions o;
  o.lengths = {3, 6, 40};
  o.densities = {0.0, 0.5, 1.0};
  o.min_seconds = 0.0;
  o.max_repeats = 1;
  return o;
}

void expect_sound(const StressReport& r, const StressOptions& o) {
  ASSERT_EQ(r.lengths.size(), o.lengths.size());
  for (const auto& row : r.lengths) {
    EXPECT_GE(row.units, row.requested);
    EXPECT_TRUE(row.problems.empty()) << row.units << ": " << row.problems;
    EXPECT_GT(row.ms, 0.0);
    EXPECT_GT(row.peak_rss_mb, 0.0);
    if (row.entropy_norm >= 0.0) {
      EXPECT_LE(row.entropy_norm, 1.0 + 1e-9);
      EXPECT_GT(row.max_weight, 0.0);
    }
  }
  EXPECT_TRUE(r.lengths[0].repeated == false);
  EXPECT_TRUE(r.lengths[2].repeated) << "40 units need the 8-unit base five times";
  ASSERT_EQ(r.modality.size(), 8u);
  for (const auto& c : r.modality) EXPECT_TRUE(c.ok) << c.name << ": " << c.detail;
  ASSERT_EQ(r.density.size(), 3u);
  EXPECT_TRUE(r.density_ok);
  EXPECT_EQ(r.density[0].with_emotion, 0.0) << "the base dialogues express no emotion";
  EXPECT_EQ(r.density[2].density, 1.0);
  EXPECT_EQ(r.density[2].with_emotion, 1.0);
  EXPECT_LE(r.density[0].kept_mentions, r.density[2].kept_mentions);
  EXPECT_GT(r.density_slope, 0.0);
  // The kernel test runs at every length on every SIMD variant this CPU supports, in that order.
  const auto variants = cpu_variants_available();
  ASSERT_EQ(r.kernels.size(), o.lengths.size() * variants.size());
  EXPECT_TRUE(r.kernels_ok);
  for (std::size_t i = 0; i < r.kernels.size(); ++i) {
    const auto& k = r.kernels[i];
    EXPECT_EQ(k.variant, variants[i / o.lengths.size()]) << i;
    EXPECT_TRUE(k.threads_identical) << k.variant << " " << k.keys;
    EXPECT_LE(k.max_diff_weights, 1e-4) << k.variant << " " << k.keys;
  }
}

TEST(StressRun, TheUnsupervisedModePassesEveryCheck) {
  const auto& lex = testing::default_lexicon();
  const Summarizer s = make_summarizer({}, lex);
  const StressOptions o = small_options();
  const StressReport r = run_stress(base_zh(), lex, s, o);
  expect_sound(r, o);
  EXPECT_EQ(r.scorer, s.scorer->name());
  EXPECT_FALSE(r.kernel_variant.empty());
  // Both lengths that fit in the base are measured against each other; 40 units repeat it.
  EXPECT_TRUE(r.entropy_measured);
  EXPECT_EQ(r.entropy_from, r.lengths[0].units);
  EXPECT_EQ(r.entropy_to, r.lengths[1].units);
}

TEST(StressRun, AnUntrainedEacaModelKeepsItsInputsInRange) {
  const auto& lex = testing::default_lexicon();
  EacaConfig config = testing::small_eaca_config();
  config.members = 2;
  auto model = std::make_unique<EacaModel>(config, 7);
  Summarizer s;
  s.decode = model->decode_options();
  s.scorer = std::move(model);
  const StressOptions o = small_options();
  const StressReport r = run_stress(base_zh(), lex, s, o);
  expect_sound(r, o);
  for (const auto& row : r.lengths) EXPECT_EQ(row.queries > 0, row.entropy_norm >= 0.0);
  EXPECT_TRUE(r.passed() || !r.length_entropy_ok)
      << "everything but the entropy bound, which a random "
         "network need not meet";
}

TEST(StressRun, RefusesBadOptions) {
  const auto& lex = testing::default_lexicon();
  const Summarizer s = make_summarizer({}, lex);
  StressOptions o = small_options();
  EXPECT_THROW(run_stress({}, lex, s, o), InvalidArgument);
  o.densities = {1.5};
  EXPECT_THROW(run_stress(base_zh(), lex, s, o), InvalidArgument);
  o = small_options();
  o.lengths.clear();
  EXPECT_THROW(run_stress(base_zh(), lex, s, o), InvalidArgument);
  o.lengths = {kMaxStressLength + 1};
  EXPECT_THROW(run_stress(base_zh(), lex, s, o), InvalidArgument);
  EXPECT_THROW(modality_dialogues("fr"), InvalidArgument);
  o = small_options();
  EXPECT_THROW(run_stress({testing::make_dialogue({{Speaker::agent, {"您好。"}}})}, lex, s, o),
               InvalidArgument)
      << "no customer unit to query the attention or to inject emotions into";
}

}  // namespace
}  // namespace kessel::summarize
