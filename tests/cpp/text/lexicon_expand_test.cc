#include "kessel/text/lexicon_expand.h"

#include <gtest/gtest.h>

#include <cmath>

#include "common/temp_file.h"
#include "kessel/error.h"

namespace kessel::text {
namespace {

std::vector<std::string> toy_corpus() {
  // Varied neighbours so the emotion words are not fragments of one longer n-gram.
  std::vector<std::string> lines;
  for (const char* pre : {"我很", "真的", "太", "好"}) {
    for (const char* post : {"要投诉", "了啊", "死了"}) {
      for (const char* w : {"生气", "恼怒"})
        lines.push_back(std::string("快递太慢") + pre + w + post);
    }
    for (const char* post : {"谢谢你", "呀", "极了"}) {
      for (const char* w : {"开心", "高兴"})
        lines.push_back(std::string("礼物收到") + pre + w + post);
    }
  }
  for (int i = 0; i < 12; ++i) {
    lines.push_back("the delivery is late and I am furious about it");
    lines.push_back("the delivery is late and I am livid about it");
  }
  return lines;
}

const ExpandCandidate* find(const ExpandResult& r, const std::string& term) {
  for (const auto& c : r.candidates) {
    if (c.term == term) return &c;
  }
  return nullptr;
}

TEST(LexiconExpand, ProposesTermsSharingTheSeedsContexts) {
  ExpandOptions o;
  o.min_count = 5;
  o.window = 3;
  o.top = 1000;
  const std::vector<SeedTerm> seeds = {
      {"生气", Emotion::anger}, {"furious", Emotion::anger}, {"开心", Emotion::joy}};
  const ExpandResult r = expand_lexicon(toy_corpus(), seeds, o);
  ASSERT_EQ(r.emotions.size(), 2u);
  EXPECT_EQ(r.seeds_found.size(), 3u);
  const ExpandCandidate* angry = find(r, "恼怒");
  const ExpandCandidate* happy = find(r, "高兴");
  const ExpandCandidate* livid = find(r, "livid");
  ASSERT_NE(angry, nullptr);
  ASSERT_NE(happy, nullptr);
  ASSERT_NE(livid, nullptr);
  EXPECT_EQ(angry->emotion, Emotion::anger);
  EXPECT_EQ(happy->emotion, Emotion::joy);
  EXPECT_EQ(livid->emotion, Emotion::anger);
  EXPECT_GT(angry->membership, 0.6f);
  EXPECT_EQ(angry->count, 12);
  EXPECT_EQ(find(r, "恼"), nullptr);  // a fragment: always inside 恼怒
  for (const auto& c : r.candidates) {
    float sum = 0;
    for (float u : c.memberships) sum += u;
    EXPECT_NEAR(sum, 1.0f, 1e-5) << c.term;
    EXPECT_NE(c.term, "生气");                          // seeds are not proposed
    EXPECT_EQ(c.term.find("生气"), std::string::npos);  // nor n-grams overlapping a seed
  }
  for (std::size_t i = 1; i < r.candidates.size(); ++i) {
    EXPECT_GE(r.candidates[i - 1].membership, r.candidates[i].membership);
  }
}

TEST(LexiconExpand, MembershipFormulaForTwoCentres) {
  // A candidate whose contexts equal one seed's sits on that centre (d2 = 0): membership ~1.
  ExpandOptions o;
  o.min_count = 3;
  o.top = 1000;
  std::vector<std::string> lines;
  for (int i = 0; i < 5; ++i) {
    lines.push_back("aa bb cc angry dd ee ff");
    lines.push_back("aa bb cc mad dd ee ff");
    lines.push_back("gg hh ii happy jj kk ll");
  }
  const ExpandResult r =
      expand_lexicon(lines, {{"angry", Emotion::anger}, {"happy", Emotion::joy}}, o);
  const ExpandCandidate* mad = find(r, "mad");
  ASSERT_NE(mad, nullptr);
  EXPECT_EQ(mad->emotion, Emotion::anger);
  EXPECT_GT(mad->membership, 0.999f);
}

TEST(LexiconExpand, RejectsBadOptionsAndTooFewSeeds) {
  ExpandOptions o;
  o.max_ngram = 5;
  EXPECT_THROW(expand_lexicon(toy_corpus(), {}, o), InvalidArgument);
  o = ExpandOptions{};
  o.fuzziness = 1.0f;
  EXPECT_THROW(expand_lexicon(toy_corpus(), {}, o), InvalidArgument);
  o = ExpandOptions{};
  EXPECT_THROW(expand_lexicon(toy_corpus(), {{"生气", Emotion::anger}}, o), InvalidArgument);
  EXPECT_THROW(expand_lexicon({}, {{"a", Emotion::anger}, {"b", Emotion::joy}}, o),
               InvalidArgument);
}

TEST(LexiconExpand, CorpusAndSeedReaders) {
  const std::string dir = ::testing::TempDir();
  auto write = [&](const std::string& path, const std::string& content) {
    testing_support::write_temp(path.substr(dir.size() + 1), content);
  };
  write(
      dir + "/stc3.json",
      R"([{"id": "1", "turns": [{"sender": "customer", "utterances": ["太慢了[怒]", "还没到"]}]}])");
  EXPECT_EQ(read_corpus_lines(dir + "/stc3.json", "stc3"),
            (std::vector<std::string>{"太慢了[怒]", "还没到"}));
  write(dir + "/bad_stc3.json", R"([{"id": "1", "turns": [{"utterances": [3]}]}])");
  EXPECT_THROW(read_corpus_lines(dir + "/bad_stc3.json", "stc3"), ParseError);
  EXPECT_THROW(read_corpus_lines(dir + "/stc3.json", "xml"), InvalidArgument);
  write(dir + "/seeds.tsv", "# seeds\n气死我了\tanger\t0.9\tneg\nyay\tjoy\n");
  const auto seeds = read_seed_file(dir + "/seeds.tsv");
  ASSERT_EQ(seeds.size(), 2u);
  EXPECT_EQ(seeds[1].emotion, Emotion::joy);
  write(dir + "/bad_seeds.tsv", "x\tlove\n");
  EXPECT_THROW(read_seed_file(dir + "/bad_seeds.tsv"), ParseError);
  write(dir + "/bad_text.txt", "ok\n\xFF\n");
  EXPECT_THROW(read_corpus_lines(dir + "/bad_text.txt", "text"), ParseError);
}

}  // namespace
}  // namespace kessel::text
