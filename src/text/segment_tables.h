// The tables behind text::Segmenter (include/kessel/text/segment.h): jieba's prefix dictionary as a
// trie on code points, and its character HMM (finalseg). Loaded from jieba's files or from the
// built-in table; the segmentation itself is in segment.cc.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "kessel/hmm.h"

namespace kessel::text::detail {

// Every word of dict.txt and every prefix of one, as a trie: node 0 is the root, a node exists
// exactly when jieba's FREQ has its string as a key (a word, or a prefix stored with frequency 0).
// Children are found through one open-addressing hash on (parent, code point), BMP children of the
// root through a direct table: one probe per character of a DAG walk.
class PrefixTrie {
 public:
  static constexpr std::int32_t kNone = -1;
  PrefixTrie();

  std::int32_t child(std::int32_t node, char32_t c) const {
    if (node == 0 && c < kRootDirect) return root_[c];
    return find(key(node, c));
  }
  // The child, created (frequency 0) when absent.
  std::int32_t add_child(std::int32_t node, char32_t c);
  // Room for about `n` nodes without rehashing.
  void reserve(std::size_t n);
  // jieba's FREQ[word] = freq (a later line for the same word replaces the frequency).
  void set_frequency(std::int32_t node, std::int64_t freq);
  std::int64_t frequency(std::int32_t node) const { return freq_[node]; }
  // The word's part of speech from dict.txt's tag (WordClass, segment.h); unknown by default.
  void set_word_class(std::int32_t node, std::uint8_t word_class) { class_[node] = word_class; }
  std::uint8_t word_class(std::int32_t node) const { return class_[node]; }
  // log(freq) - log(total) for words, kNotWord for prefixes; finish() computes it once the total is
  // known. The DAG walk reads only this array (one cache line per node, not two).
  static constexpr double kNotWord = 1.0;
  double log_prob(std::int32_t node) const { return log_prob_[node]; }
  bool is_word(std::int32_t node) const { return log_prob_[node] != kNotWord; }
  void finish(double log_total);

  std::size_t nodes() const { return freq_.size(); }
  std::size_t words() const { return words_; }
  // The node of cps, or kNone.
  std::int32_t find_word(const char32_t* cps, std::size_t n) const;

 private:
  static constexpr char32_t kRootDirect = 0x10000;
  static std::uint64_t key(std::int32_t node, char32_t c) {
    return (static_cast<std::uint64_t>(node) + 1) << 21 | static_cast<std::uint64_t>(c);
  }
  struct Slot {
    std::uint64_t key = 0;  // 0: empty
    std::int32_t child = kNone;
  };
  std::int32_t find(std::uint64_t k) const;
  void rehash(int bits);

  std::vector<std::int32_t> root_;  // [0x10000] root's BMP children
  std::vector<Slot> slots_;         // open addressing, linear probing, load <= 1/2
  std::size_t used_ = 0;            // filled slots
  int bits_ = 0;                    // slots_.size() == 1 << bits_
  std::vector<std::int64_t> freq_;  // per node
  std::vector<double> log_prob_;    // per node
  std::vector<std::uint8_t> class_; // per node: WordClass
  std::size_t words_ = 0;           // nodes with frequency > 0
};

// finalseg's four states. kessel::hmm breaks ties towards the lowest state index and jieba's
// max((score, state)) towards the highest letter, so the indices run against the alphabet.
enum HmmState : int { kS = 0, kM = 1, kE = 2, kB = 3 };
inline constexpr int kHmmStates = 4;

// The character HMM as probabilities (exp of jieba's log values; jieba's MIN_FLOAT = -3.14e100
// becomes 0). Emissions are kept for the Han range that finalseg runs on, U+4E00..U+9FD5.
struct CharHmm {
  static constexpr char32_t kFirst = 0x4E00, kLast = 0x9FD5;
  std::array<double, kHmmStates> start{};
  std::array<double, kHmmStates * kHmmStates> trans{};  // [from * 4 + to]
  std::vector<double> emit;  // [(c - kFirst) * 4 + state], 0 when jieba has no entry
  hmm::TransitionLogs logs;  // of start and trans, made once by finish_hmm for every run's Viterbi
  CharHmm() : emit(static_cast<std::size_t>(kLast - kFirst + 1) * kHmmStates, 0.0) {}
  const double* emission(char32_t c) const { return &emit[(c - kFirst) * kHmmStates]; }
};

struct SegmentTables {
  PrefixTrie dict;
  std::int64_t total = 0;  // sum of every line's frequency, as jieba's Tokenizer.total
  double log_total = 0.0;
  CharHmm hmm;
};

// dict.txt lines "word freq [tag]" added to `tables` (ParseError "<file>:<line>: ..."); finish
// with finish_dictionary once every file is in.
void add_dictionary_text(SegmentTables& tables, std::string_view text, const std::string& file);
void finish_dictionary(SegmentTables& tables);

// finalseg/prob_{start,trans,emit}.py: `P = {...}` Python dict literals of log probabilities.
void set_hmm_start(CharHmm& hmm, std::string_view text, const std::string& file);
void set_hmm_trans(CharHmm& hmm, std::string_view text, const std::string& file);
void set_hmm_emit(CharHmm& hmm, std::string_view text, const std::string& file);
// Makes hmm.logs once start and trans are set.
void finish_hmm(CharHmm& hmm);

// finalseg's B/M/E/S path for the Han run cps[0, T), T >= 1, into states[0, T) (segment_hmm.cc).
void hmm_states(std::vector<std::int32_t>& states, const CharHmm& hmm, const char32_t* cps,
                std::size_t T);

// The whole file; IoError naming it when it cannot be read.
std::string read_whole_file(const std::string& path);

SegmentTables load_jieba_tables(const std::string& jieba_dir);
SegmentTables builtin_tables();

}  // namespace kessel::text::detail
