// Chinese word segmentation: jieba's method, in C++.
//
// A run of Chinese text is cut into words by
//   1. a dictionary DAG: every dictionary word that starts at each character;
//   2. the maximum-probability route through it (log word frequencies, dynamic programming from the
//      end, as jieba's calc);
//   3. unknown words: each run of route characters that are single and not dictionary words is
//      re-cut by Viterbi over the B/M/E/S states of a character HMM (kessel::hmm).
// The dictionary and the HMM tables are jieba's own (MIT), read by path from Debian's
// python3-jieba: `jieba/dict.txt` and `jieba/finalseg/prob_{start,trans,emit}.py`. Without them a
// small built-in table is used, and `source()` says so: callers report it, nothing falls back
// silently.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace kessel::text {

// One word: code point offsets into the segmented text, end exclusive.
struct WordSpan {
  std::int64_t char_start = 0;
  std::int64_t char_end = 0;
};

// A dictionary word's part of speech, coarsely: the first letter of the tag dict.txt gives it
// (ICTCLAS: n noun, v verb, a adjective, ...; segment_tables.cc, class_of_tag). unknown for a word
// the dictionary does not hold or tags not (the built-in table has no tags).
enum class WordClass : std::uint8_t { unknown, noun, verb, adjective, adverb, numeral, measure, pronoun, particle, other };

class Segmenter {
 public:
  // Reads dict.txt and finalseg/prob_{start,trans,emit}.py under `jieba_dir` (the directory of
  // jieba's __init__.py). Throws kessel::IoError / ParseError naming the file and line.
  static Segmenter from_jieba(const std::string& jieba_dir);
  // The small built-in table (no files needed).
  static Segmenter builtin();
  // The process-wide default, loaded once: $KESSEL_JIEBA_DIR, else Debian's
  // /usr/lib/python3/dist-packages/jieba (when its dict.txt exists), else builtin(). A directory
  // that is named or present but unreadable throws; the next call tries again.
  static const Segmenter& default_segmenter();

  // "jieba:<dir>" or "builtin".
  const std::string& source() const;
  // Distinct dictionary words (frequency > 0): 349,045 for jieba 0.42.1's dict.txt.
  std::size_t dictionary_size() const;

  // The dictionary's class of `word` (WordClass::unknown when it is no tagged dictionary word).
  WordClass word_class(std::u32string_view word) const;

  // The words of `cps` in order, covering it exactly, as jieba.cut(text, HMM=True) cuts it.
  // Blocks of [\u4E00-\u9FD5a-zA-Z0-9+#&._%-] are segmented as above; inside them, text left to the
  // HMM that is not Han splits at [a-zA-Z0-9]+(\.\d+)?%? (so "abc123", "3.5%" are one word, "--"
  // too). Outside the blocks each code point is its own span, except "\r\n" (the caller's tokenizer
  // has its own rules there: emoji sequences, placeholders such as [订单编号]). Thread-safe.
  std::vector<WordSpan> segment(std::span<const char32_t> cps) const;
  // The same on UTF-8 (lossy decoding: a malformed byte is one U+FFFD); offsets count the decoded
  // code points.
  std::vector<WordSpan> segment(std::string_view utf8) const;

  Segmenter(Segmenter&&) noexcept;
  Segmenter& operator=(Segmenter&&) noexcept;
  ~Segmenter();

 private:
  struct Impl;
  explicit Segmenter(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

}  // namespace kessel::text
