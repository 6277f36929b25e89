// Chinese word segmentation as jieba 0.42.1's jieba.cut(s, HMM=True) does it (cut_all=False):
//
//   cut          blocks of [\u4E00-\u9FD5a-zA-Z0-9+#&._%-]+ (re_han_default) go to cut_block;
//                outside them every code point is a word, except "\r\n" (re_skip_default).
//   cut_block    (__cut_DAG) the maximum-probability route through the dictionary DAG; consecutive
//                single-character pieces gather in a buffer, which is emitted as it is when it has
//                one character, character by character when it is itself a dictionary word, and
//                through finalseg otherwise.
//   finalseg     Han runs ([\u4E00-\u9FD5]+) by Viterbi over B/M/E/S; the rest of the buffer by
//                re_skip, [a-zA-Z0-9]+(?:\.\d+)?%? as words and the text between them as words.
//
// The Viterbi is kessel::hmm's, on a categorical model built for each Han run (segment_hmm.cc,
// which says how it follows jieba's arithmetic); tests/python/test_segment_jieba.py measures the
// agreement on CSDS (docs/text.md: "Word segmentation").
#include "kessel/text/segment.h"

#include <cstdlib>
#include <filesystem>

#include "kessel/error.h"
#include "kessel/text/utf8.h"
#include "text/segment_tables.h"

namespace kessel::text {

struct Segmenter::Impl {
  detail::SegmentTables tables;
  std::string source;
};

namespace {

using detail::CharHmm;
using detail::PrefixTrie;

bool is_han(char32_t c) { return c >= CharHmm::kFirst && c <= CharHmm::kLast; }
bool is_ascii_digit(char32_t c) { return c >= '0' && c <= '9'; }
bool is_ascii_alnum(char32_t c) {
  return is_ascii_digit(c) || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}
// re_han_default's class.
bool in_block(char32_t c) {
  return is_han(c) || is_ascii_alnum(c) || c == '+' || c == '#' || c == '&' || c == '.' ||
         c == '_' || c == '%' || c == '-';
}

class Cutter {
 public:
  Cutter(const detail::SegmentTables& t, const char32_t* s, std::vector<WordSpan>& out)
      : t_(t), s_(s), out_(out) {}

  void word(std::size_t b, std::size_t e) {
    out_.push_back({static_cast<std::int64_t>(b), static_cast<std::int64_t>(e)});
  }

  // __cut_DAG over s_[b, e).
  void cut_block(std::size_t b, std::size_t e) {
    route(b, e);
    std::size_t buf = b;  // the buffer is s_[buf, x)
    std::size_t x = b;
    while (x < e) {
      const std::size_t y = next_[x - b] + 1;
      if (y - x > 1) {
        flush(buf, x);
        word(x, y);
        buf = y;
      }
      x = y;
    }
    flush(buf, e);
  }

 private:
  // jieba's calc: route[idx] = max over the DAG's ends x of (log freq - logtotal + route[x + 1],
  // x), from the end; the tuple max takes the larger x on equal scores. A position without
  // dictionary words is its own piece, scored log(1) - logtotal.
  void route(std::size_t b, std::size_t e) {
    const std::size_t n = e - b;
    score_.assign(n + 1, 0.0);
    next_.assign(n, 0);
    const PrefixTrie& dict = t_.dict;
    for (std::size_t idx = n; idx-- > 0;) {
      double best = 0.0;
      std::size_t best_x = n;  // none yet
      std::int32_t node = dict.child(0, s_[b + idx]);
      for (std::size_t x = idx; node != PrefixTrie::kNone;) {
        if (dict.is_word(node)) {
          const double sc = dict.log_prob(node) + score_[x + 1];
          if (best_x == n || sc >= best) {
            best = sc;
            best_x = x;
          }
        }
        if (++x == n) break;
        node = dict.child(node, s_[b + x]);
      }
      if (best_x == n) {
        best = -t_.log_total + score_[idx + 1];
        best_x = idx;
      }
      score_[idx] = best;
      next_[idx] = b + best_x;
    }
  }

  void flush(std::size_t b, std::size_t e) {
    if (e - b == 0) return;
    if (e - b == 1) return word(b, e);
    const std::int32_t node = t_.dict.find_word(s_ + b, e - b);
    if (node != PrefixTrie::kNone && t_.dict.is_word(node)) {
      for (std::size_t i = b; i < e; ++i) word(i, i + 1);
      return;
    }
    finalseg(b, e);
  }

  void finalseg(std::size_t b, std::size_t e) {
    for (std::size_t p = b; p < e;) {
      std::size_t q = p;
      const bool han = is_han(s_[p]);
      while (q < e && is_han(s_[q]) == han) ++q;
      if (han) {
        hmm_cut(p, q);
      } else {
        skip_split(p, q);
      }
      p = q;
    }
  }

  // finalseg's re_skip.split on non-Han text: matches of [a-zA-Z0-9]+(?:\.\d+)?%? and the text
  // between them are words.
  void skip_split(std::size_t b, std::size_t e) {
    std::size_t pending = b;
    for (std::size_t i = b; i < e;) {
      if (!is_ascii_alnum(s_[i])) {
        ++i;
        continue;
      }
      std::size_t j = i;
      while (j < e && is_ascii_alnum(s_[j])) ++j;
      if (j + 1 < e && s_[j] == '.' && is_ascii_digit(s_[j + 1])) {
        j += 2;
        while (j < e && is_ascii_digit(s_[j])) ++j;
      }
      if (j < e && s_[j] == '%') ++j;
      if (pending < i) word(pending, i);
      word(i, j);
      i = pending = j;
    }
    if (pending < e) word(pending, e);
  }

  void hmm_cut(std::size_t b, std::size_t e);

  const detail::SegmentTables& t_;
  const char32_t* s_;
  std::vector<WordSpan>& out_;
  std::vector<double> score_;
  std::vector<std::size_t> next_;
  std::vector<std::int32_t> states_;
};

// finalseg's __cut on the states of segment_hmm.cc: B opens a word, E closes it, S is a word; a
// tail without E is a word.
void Cutter::hmm_cut(std::size_t b, std::size_t e) {
  const std::size_t T = e - b;
  if (T == 1) return word(b, e);  // whatever its state, one character is one word
  detail::hmm_states(states_, t_.hmm, s_ + b, T);
  std::size_t begin = 0, next = 0;
  for (std::size_t i = 0; i < T; ++i) {
    if (states_[i] == detail::kB) {
      begin = i;
    } else if (states_[i] == detail::kE) {
      word(b + begin, b + i + 1);
      next = i + 1;
    } else if (states_[i] == detail::kS) {
      word(b + i, b + i + 1);
      next = i + 1;
    }
  }
  if (next < T) word(b + next, e);
}

}  // namespace

Segmenter::Segmenter(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
Segmenter::Segmenter(Segmenter&&) noexcept = default;
Segmenter& Segmenter::operator=(Segmenter&&) noexcept = default;
Segmenter::~Segmenter() = default;

Segmenter Segmenter::from_jieba(const std::string& jieba_dir) {
  auto impl = std::make_unique<Impl>();
  impl->tables = detail::load_jieba_tables(jieba_dir);
  impl->source = "jieba:" + jieba_dir;
  return Segmenter(std::move(impl));
}

Segmenter Segmenter::builtin() {
  auto impl = std::make_unique<Impl>();
  impl->tables = detail::builtin_tables();
  impl->source = "builtin";
  return Segmenter(std::move(impl));
}

const Segmenter& Segmenter::default_segmenter() {
  static const Segmenter instance = [] {
    // A directory asked for, or present, that fails to load is the caller's error, not a fallback.
    const char* env = std::getenv("KESSEL_JIEBA_DIR");
    if (env != nullptr && *env != '\0') {
      try {
        return from_jieba(env);
      } catch (const IoError& e) {
        throw IoError(std::string(e.what()) + " ($KESSEL_JIEBA_DIR=" + env + ")");
      }
    }
    const std::string debian = "/usr/lib/python3/dist-packages/jieba";
    std::error_code ec;
    if (std::filesystem::exists(debian + "/dict.txt", ec)) return from_jieba(debian);
    return builtin();
  }();
  return instance;
}

const std::string& Segmenter::source() const { return impl_->source; }
std::size_t Segmenter::dictionary_size() const { return impl_->tables.dict.words(); }

WordClass Segmenter::word_class(std::u32string_view word) const {
  const detail::PrefixTrie& dict = impl_->tables.dict;
  const std::int32_t node = dict.find_word(word.data(), word.size());
  if (node == detail::PrefixTrie::kNone || !dict.is_word(node)) return WordClass::unknown;
  return static_cast<WordClass>(dict.word_class(node));
}

std::vector<WordSpan> Segmenter::segment(std::span<const char32_t> cps) const {
  std::vector<WordSpan> out;
  out.reserve(cps.size() / 2 + 1);
  Cutter cutter(impl_->tables, cps.data(), out);
  const std::size_t n = cps.size();
  for (std::size_t i = 0; i < n;) {
    if (in_block(cps[i])) {
      std::size_t j = i + 1;
      while (j < n && in_block(cps[j])) ++j;
      cutter.cut_block(i, j);
      i = j;
    } else {
      const std::size_t len = (cps[i] == '\r' && i + 1 < n && cps[i + 1] == '\n') ? 2 : 1;
      cutter.word(i, i + len);
      i += len;
    }
  }
  return out;
}

std::vector<WordSpan> Segmenter::segment(std::string_view utf8) const {
  const DecodedText text = decode_utf8(utf8, Utf8Mode::lossy);
  return segment(std::span<const char32_t>(text.cps));
}

}  // namespace kessel::text
