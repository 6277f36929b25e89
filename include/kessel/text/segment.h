// Chinese word segmentation: jieba's method, in C++.
//
// A run of Chinese text is cut into words by
//   1. a dictionary DAG: every dictionary word that starts at each character;
//   2. the maximum-probability route through it (log word frequencies, dynamic programming from the
//      end, as jieba's calc);
//   3. unknown words: each run of route characters that are single and not dictionary words is
//      re-cut by Viterbi over the B/M/E/S states of a character HMM (kessel::hmm).
// The dictionary and the HMM tables are jieba's own (MIT), read by path from Debian's python3-jieba:
// `jieba/dict.txt` and `jieba/finalseg/prob_{start,trans,emit}.py`. Without them a small built-in
// table is used, and `source()` says so: callers report it, nothing falls back silently.
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

class Segmenter {
 public:
  // Reads dict.txt and finalseg/prob_{start,trans,emit}.py under `jieba_dir` (the directory of
  // jieba's __init__.py). Throws kessel::IoError / ParseError naming the file and line.
  static Segmenter from_jieba(const std::string& jieba_dir);
  // The small built-in table (no files needed).
  static Segmenter builtin();
  // The process-wide default, loaded once: $KESSEL_JIEBA_DIR, else Debian's
  // /usr/lib/python3/dist-packages/jieba, else builtin().
  static const Segmenter& default_segmenter();

  // "jieba:<dir>" or "builtin".
  const std::string& source() const;
  std::size_t dictionary_size() const;

  // The words of `cps` in order, covering it exactly. Chinese runs are segmented as above; outside
  // them each code point is its own span, except that runs of Latin letters and digits are one span
  // (the caller's tokenizer has its own rules there).
  std::vector<WordSpan> segment(std::span<const char32_t> cps) const;
  // The same on UTF-8 (lossy decoding).
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
