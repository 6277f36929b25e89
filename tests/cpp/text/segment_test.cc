// text::Segmenter on a tiny jieba directory written here (route, buffer rules, HMM, file errors)
// and on the built-in table (coverage of the input, mixed scripts). Agreement with jieba itself on
// real text is tests/python/test_segment_jieba.py.
#include "kessel/text/segment.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <random>

#include "kessel/error.h"
#include "kessel/text/utf8.h"

namespace kessel::text {
namespace {

namespace fs = std::filesystem;

// jieba's finalseg start and transition tables (prob_start.py, prob_trans.py), as files hold them.
constexpr const char* kStart =
    "P={'B': -0.26268660809250016,\n 'E': -3.14e+100,\n 'M': -3.14e+100,\n 'S': "
    "-1.4652633398537678}\n";
constexpr const char* kTrans =
    "P={'B': {'E': -0.510825623765990, 'M': -0.916290731874155},\n"
    " 'E': {'B': -0.5897149736854513, 'S': -0.8085250474669937},\n"
    " 'M': {'E': -0.33344856811948514, 'M': -1.2603623820268226},\n"
    " 'S': {'B': -0.7211965654669841, 'S': -0.6658631448798212}}\n";
// 天 begins and 宁 ends a word; 好/人 would be one word for the HMM too.
constexpr const char* kEmit =
    "from __future__ import unicode_literals\n"
    "\n"
    "P={'B': {'\\u5929': -1.0, '\\u597d': -1.0},  # 天 好\n"
    " 'E': {'\\u5b81': -1.0, '人': -1.0},\n"
    " 'M': {},\n"
    " 'S': {'\\u5929': -5.0, '\\u5b81': -5.0, '\\u597d': -5.0, '人': -5.0, '∶': -9.0}}\n";
constexpr const char* kDict =
    "北京 100 ns\n北京大学 300 nt\n大学 100 n\n大 10 a\n学 10 v\n生 5 v\n学生 80 n\n"
    "好 1000 a\n人 1000 n\n好人 1 n\nc# 3 nz\n";

class TinyJieba : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("kessel_segment_test_" + std::to_string(::getpid()) + "_" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::create_directories(dir_ / "finalseg");
    write("dict.txt", kDict);
    write("finalseg/prob_start.py", kStart);
    write("finalseg/prob_trans.py", kTrans);
    write("finalseg/prob_emit.py", kEmit);
  }
  void TearDown() override { fs::remove_all(dir_); }
  void write(const std::string& name, const std::string& text) {
    std::ofstream(dir_ / name, std::ios::binary) << text;
  }
  std::string file(const std::string& name) const { return (dir_ / name).string(); }
  fs::path dir_;
};

std::vector<std::string> words(const Segmenter& seg, std::string_view text) {
  const DecodedText d = decode_utf8(text, Utf8Mode::lossy);
  std::vector<std::string> out;
  for (const WordSpan& w : seg.segment(text)) {
    out.push_back(encode_utf8(d.cps.data() + w.char_start, w.char_end - w.char_start));
  }
  return out;
}

using Words = std::vector<std::string>;

std::string replace(std::string s, const std::string& from, const std::string& to) {
  s.replace(s.find(from), from.size(), to);
  return s;
}

TEST_F(TinyJieba, LoadsAndNamesTheSource) {
  const Segmenter seg = Segmenter::from_jieba(dir_.string());
  EXPECT_EQ(seg.source(), "jieba:" + dir_.string());
  EXPECT_EQ(seg.dictionary_size(), 11u);
}

TEST_F(TinyJieba, GivesEachDictionaryWordItsClass) {
  const Segmenter seg = Segmenter::from_jieba(dir_.string());
  EXPECT_EQ(seg.word_class(U"学生"), WordClass::noun);
  EXPECT_EQ(seg.word_class(U"北京"), WordClass::noun);  // ns
  EXPECT_EQ(seg.word_class(U"c#"), WordClass::noun);    // nz
  EXPECT_EQ(seg.word_class(U"好"), WordClass::adjective);
  EXPECT_EQ(seg.word_class(U"学"), WordClass::verb);
  EXPECT_EQ(seg.word_class(U"北京大"), WordClass::unknown);  // a prefix, no word
  EXPECT_EQ(seg.word_class(U"天宁"), WordClass::unknown);    // not in the dictionary
  EXPECT_EQ(seg.word_class(U""), WordClass::unknown);
}

TEST_F(TinyJieba, PersonNamesAndUntaggedWordsHaveNoNounClass) {
  write("dict.txt", "张三 10 nr\n今天下午 3 nr\n人 1000\n明天 5 t\n");
  const Segmenter seg = Segmenter::from_jieba(dir_.string());
  EXPECT_EQ(seg.word_class(U"张三"), WordClass::other);      // nr: the dictionary's least reliable tag
  EXPECT_EQ(seg.word_class(U"今天下午"), WordClass::other);
  EXPECT_EQ(seg.word_class(U"人"), WordClass::unknown);      // no tag
  EXPECT_EQ(seg.word_class(U"明天"), WordClass::other);
  EXPECT_EQ(Segmenter::builtin().word_class(U"订单"), WordClass::unknown);
}

// total = 2609; 北京大学/生 scores log 300 + log 5 - 2 log total, above 北京/大学/生 (three words)
// and 北京/大/学生; 大/学生 beats 大学/生 (log 10 + log 80 > log 100 + log 5).
TEST_F(TinyJieba, TakesTheMaximumProbabilityRoute) {
  const Segmenter seg = Segmenter::from_jieba(dir_.string());
  EXPECT_EQ(words(seg, "北京大学生"), (Words{"北京大学", "生"}));
  EXPECT_EQ(words(seg, "大学生"), (Words{"大", "学生"}));
  EXPECT_EQ(words(seg, "北京"), (Words{"北京"}));
  EXPECT_EQ(words(seg, "c#"), (Words{"c#"}));
}

TEST_F(TinyJieba, CutsUnknownRunsWithTheHmm) {
  const Segmenter seg = Segmenter::from_jieba(dir_.string());
  EXPECT_EQ(words(seg, "北京天宁"), (Words{"北京", "天宁"}));
  EXPECT_EQ(words(seg, "宁天"), (Words{"宁", "天"}));  // E cannot start, B cannot end
  // A buffer that is itself a dictionary word stays in characters (jieba's FREQ.get(buf)), even
  // where the HMM would join it.
  EXPECT_EQ(words(seg, "好人"), (Words{"好", "人"}));
  // No emission in any state for 丂: jieba's scores all tie from there on and its tie rules give S
  // from the character before it to the end (paths checked with jieba.finalseg.viterbi).
  EXPECT_EQ(words(seg, "丂丂"), (Words{"丂", "丂"}));
  EXPECT_EQ(words(seg, "天宁丂天宁"), (Words{"天", "宁", "丂", "天", "宁"}));
  EXPECT_EQ(words(seg, "北京天宁丂"), (Words{"北京", "天", "宁", "丂"}));
}

// finalseg's re_skip inside a buffer; whole words outside the block class.
TEST_F(TinyJieba, SplitsNonHanTextAsJiebaDoes) {
  const Segmenter seg = Segmenter::from_jieba(dir_.string());
  EXPECT_EQ(words(seg, "abc123"), (Words{"abc123"}));
  EXPECT_EQ(words(seg, "3.5%"), (Words{"3.5%"}));
  EXPECT_EQ(words(seg, "1.2.3"), (Words{"1.2", ".", "3"}));
  EXPECT_EQ(words(seg, "a--b"), (Words{"a", "--", "b"}));
  EXPECT_EQ(words(seg, "北京abc大学"), (Words{"北京", "abc", "大学"}));
  EXPECT_EQ(words(seg, "x y\r\nz\n"), (Words{"x", " ", "y", "\r\n", "z", "\n"}));
  EXPECT_EQ(words(seg, "[北京]"), (Words{"[", "北京", "]"}));
}

TEST_F(TinyJieba, BadDictionaryNamesFileAndLine) {
  write("dict.txt", "北京 100\n大学 100\n坏 abc\n");
  try {
    Segmenter::from_jieba(dir_.string());
    FAIL() << "expected ParseError";
  } catch (const ParseError& e) {
    EXPECT_EQ(e.file(), file("dict.txt"));
    EXPECT_EQ(e.line(), 3);
    EXPECT_NE(std::string(e.what()).find("dict.txt:3: frequency 'abc'"), std::string::npos)
        << e.what();
  }
  write("dict.txt", "北京\n");
  EXPECT_THROW(Segmenter::from_jieba(dir_.string()), ParseError);
  write("dict.txt", "北京 100\n\xff\xfe 3\n");
  EXPECT_THROW(Segmenter::from_jieba(dir_.string()), ParseError);
}

TEST_F(TinyJieba, BadProbabilityFilesNameFileAndLine) {
  struct Case {
    const char* file;
    std::string text;
    long line;
    const char* what;
  };
  const std::vector<Case> cases = {
      {"finalseg/prob_start.py", "P={'B': -0.26,\n 'E': -3.14e+100,\n 'M': -3.14e+100}\n", 1,
       "state S is missing"},
      {"finalseg/prob_start.py", "P={'B': -0.26,\n 'E': x,\n}\n", 2, "expected a number"},
      {"finalseg/prob_start.py", "Q={}\n", 1, "expected the assignment 'P = {...}'"},
      {"finalseg/prob_start.py", std::string(kStart) + "x = 1\n", 5, "unexpected text"},
      {"finalseg/prob_trans.py", replace(kTrans, "'S': {'B'", "'S': {'E'"), 4,
       "transition S->E breaks"},
      {"finalseg/prob_trans.py", replace(kTrans, "-0.916290731874155", "-0.9"), 1, "row B sums to"},
      {"finalseg/prob_emit.py", "P={'B': {},\n 'E': {},\n 'M': {'\\u4e00': 0.5},\n 'S': {}}\n", 3,
       "not a log probability"},
      {"finalseg/prob_emit.py",
       "P={'B': {},\n 'E': {},\n 'M': {'\\u4e00': -1, '\\u4e00': -2},\n 'S': {}}\n", 3,
       "appears twice"},
      {"finalseg/prob_emit.py", "P={'B': {},\n 'E': {},\n 'M': {'ab': -1},\n 'S': {}}\n", 3,
       "one character"},
      {"finalseg/prob_emit.py", "P={'B': {},\n 'E': {},\n 'M': {'\\q': -1},\n 'S': {}}\n", 3,
       "unsupported escape"},
      {"finalseg/prob_emit.py", "P={'B': {},\n 'E': {},\n 'M': {'a\n': -1},\n 'S': {}}\n", 3,
       "unterminated string"},
      // The file ends after a string's u prefix (found by fuzz_jieba_tables).
      {"finalseg/prob_emit.py", "P={'B': {u", 1, "expected a string's opening quote"},
      {"finalseg/prob_emit.py", "P={'B': {},\n 'X': {},\n 'M': {},\n 'S': {}}\n", 2, "not a state"},
      {"finalseg/prob_emit.py", "P={'B': {}, 'E': {}, 'M': {}, 'S': {}, 'B': {}}\n", 1,
       "appears twice"},
      {"finalseg/prob_emit.py", "import os\nP={}\n", 1, "expected the assignment"},
      {"finalseg/prob_emit.py", "P={'B': {},\n 'E': {},\n 'M': {'\\u4e00': -inf},\n 'S': {}}\n", 3,
       "expected a number"},
      {"finalseg/prob_emit.py", "P={'B': {},\n 'E': {},\n 'M': {'\\u4e00': -1e999},\n 'S': {}}\n",
       3, "out of range"},
      {"finalseg/prob_emit.py", "P={'B': {},\n 'E': {},\n 'M': {'\\u4e00': -1.5x},\n 'S': {}}\n", 3,
       "malformed number"},
  };
  for (const Case& c : cases) {
    SetUp();
    write(c.file, c.text);
    try {
      Segmenter::from_jieba(dir_.string());
      ADD_FAILURE() << c.file << ": expected ParseError for\n" << c.text;
    } catch (const ParseError& e) {
      EXPECT_EQ(e.file(), file(c.file)) << e.what();
      EXPECT_EQ(e.line(), c.line) << e.what();
      EXPECT_NE(std::string(e.what()).find(c.what), std::string::npos) << e.what();
    }
  }
}

TEST_F(TinyJieba, MissingFileIsAnIoError) {
  fs::remove(dir_ / "finalseg/prob_emit.py");
  EXPECT_THROW(Segmenter::from_jieba(dir_.string()), IoError);
  EXPECT_THROW(Segmenter::from_jieba((dir_ / "nowhere").string()), IoError);
}

bool covers(const std::vector<WordSpan>& spans, std::size_t n);

// As tests/python/mutation_sweep.py does for the CLI's readers: every damaged table ends in a
// segmenter that segments, or in a ParseError / IoError naming the file; nothing else escapes.
TEST_F(TinyJieba, DamagedFilesEndInASegmenterOrANamedError) {
  const std::vector<std::pair<std::string, std::string>> files = {
      {"dict.txt", kDict},
      {"finalseg/prob_start.py", kStart},
      {"finalseg/prob_trans.py", kTrans},
      {"finalseg/prob_emit.py", kEmit}};
  const std::string bytes = "{}:,'\"\\-.e0123456789 \n#uBMES\xff\xe5";
  std::mt19937 rng(22);
  int loaded = 0, rejected = 0;
  for (int round = 0; round < 250; ++round) {
    const auto& [name, good] = files[rng() % files.size()];
    std::string text = good;
    for (int m = 0, n = 1 + static_cast<int>(rng() % 3); m < n && !text.empty(); ++m) {
      const std::size_t at = rng() % text.size();
      switch (rng() % 4) {
        case 0:
          text[at] = bytes[rng() % bytes.size()];
          break;
        case 1:
          text.erase(at, 1);
          break;
        case 2:
          text.insert(at, 1, bytes[rng() % bytes.size()]);
          break;
        default:
          text.resize(at);
          break;
      }
    }
    write(name, text);
    try {
      const Segmenter seg = Segmenter::from_jieba(dir_.string());
      for (const char* t : {"北京大学生天宁好人", "丂天宁人好北京", "abc3.5%天"}) {
        EXPECT_TRUE(covers(seg.segment(t), decode_utf8(t).size())) << name << ":\n" << text;
      }
      ++loaded;
    } catch (const ParseError& e) {
      EXPECT_EQ(e.file(), file(name)) << e.what();
      ++rejected;
    }
    write(name, good);
  }
  EXPECT_GT(loaded, 20) << rejected << " rejected";
  EXPECT_GT(rejected, 60) << loaded << " loaded";
}

bool covers(const std::vector<WordSpan>& spans, std::size_t n) {
  std::int64_t at = 0;
  for (const WordSpan& w : spans) {
    if (w.char_start != at || w.char_end <= w.char_start) return false;
    at = w.char_end;
  }
  return at == static_cast<std::int64_t>(n);
}

TEST(SegmentBuiltin, SegmentsCustomerServiceText) {
  const Segmenter seg = Segmenter::builtin();
  EXPECT_EQ(seg.source(), "builtin");
  EXPECT_GT(seg.dictionary_size(), 1000u);
  EXPECT_EQ(words(seg, "我想申请退款"), (Words{"我", "想", "申请", "退款"}));
  EXPECT_EQ(words(seg, "请问您的订单号是多少"),
            (Words{"请问", "您", "的", "订单号", "是", "多少"}));
  EXPECT_EQ(words(seg, "已经帮您申请售后了"), (Words{"已经", "帮", "您", "申请", "售后", "了"}));
  EXPECT_EQ(words(seg, "快递什么时候发货"), (Words{"快递", "什么", "时候", "发货"}));
  EXPECT_EQ(words(seg, "订单号:[订单编号]"), (Words{"订单号", ":", "[", "订单", "编号", "]"}));
}

TEST(SegmentBuiltin, EmptyAndNonChineseInput) {
  const Segmenter seg = Segmenter::builtin();
  EXPECT_TRUE(seg.segment(std::string_view()).empty());
  EXPECT_TRUE(seg.segment(std::span<const char32_t>()).empty());
  EXPECT_EQ(words(seg, "好的😊👍🏻"),
            (Words{"好", "的", "😊", "👍", "🏻"}));  // jieba: 好/的
  EXPECT_EQ(words(seg, "iPhone12退货"), (Words{"iPhone12", "退货"}));
  EXPECT_EQ(words(seg, "ＡＢＣ，１２"), (Words{"Ａ", "Ｂ", "Ｃ", "，", "１", "２"}));
  EXPECT_EQ(words(seg, "\xff订单"), (Words{"\xEF\xBF\xBD", "订单"}));  // lossy: U+FFFD
}

TEST(SegmentBuiltin, SpansCoverTheInput) {
  const Segmenter seg = Segmenter::builtin();
  const std::vector<std::string> texts = {"您好，请问有什么可以帮您？",
                                          "在吗\r\n在吗",
                                          "  ",
                                          "a",
                                          "订",
                                          "订单号:[订单编号],金额[金额]元",
                                          "3.5%的优惠券--满100-20",
                                          "👨‍👩‍👧 家人",
                                          "丂丂丂丂",
                                          "１２３ＡＢＣ",
                                          "我我我我我我我我我我我我"};
  for (const std::string& t : texts) {
    EXPECT_TRUE(covers(seg.segment(t), decode_utf8(t).size())) << t;
  }
  // Long runs of distinct characters the dictionary mostly lacks: the HMM's emission rows are
  // rescaled, never rejected.
  std::mt19937 rng(7);
  std::u32string run;
  for (int i = 0; i < 3000; ++i) run.push_back(static_cast<char32_t>(0x4E00 + rng() % 0x51D6));
  EXPECT_TRUE(covers(seg.segment(std::span<const char32_t>(run.data(), run.size())), run.size()));
  std::u32string common;
  for (char32_t c = 0x4E00; c < 0x4E00 + 4000; ++c) common.push_back(c);
  EXPECT_TRUE(
      covers(seg.segment(std::span<const char32_t>(common.data(), common.size())), common.size()));
}

TEST(SegmentDefault, SaysWhereItsTablesCameFrom) {
  const Segmenter& seg = Segmenter::default_segmenter();
  EXPECT_TRUE(seg.source() == "builtin" || seg.source().rfind("jieba:", 0) == 0) << seg.source();
  EXPECT_EQ(&seg, &Segmenter::default_segmenter());
  EXPECT_FALSE(seg.segment("我想申请退款").empty());
}

}  // namespace
}  // namespace kessel::text
