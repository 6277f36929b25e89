// The alignment the faithfulness probes read (include/kessel/summarize/faithfulness.h): a summary
// sentence's body against its source unit, as a subsequence of pieces (zh code points, en words).
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "kessel/summarize/summary.h"
#include "kessel/text/segment.h"

namespace kessel::summarize::faith {

// An alignable piece of a text: a code point (zh) or a word (en) with its code point span [start, end).
// Spaces and punctuation are never pieces. The key is what alignment compares: the piece case-folded;
// an en word ending in n't has the key "n't" (its negation is what matters, not which auxiliary).
struct Piece {
  std::u32string key;
  int start = 0;
  int end = 0;
  bool word_start = true;  // zh: the piece starts a word (mark_word_starts); a run starting inside one costs more
};
std::vector<Piece> pieces(const std::vector<char32_t>& cps, Lang lang);

// How many pieces at the start of `body` are a reported-speech frame (faithfulness.h lists them); 0
// when none, or when `source` opens with the same keys (then they are the source's own words).
std::size_t frame_length(const std::vector<Piece>& body, const std::vector<Piece>& source, Lang lang);

struct Alignment {
  std::vector<int> body_to_source;  // [body pieces] the aligned source piece, or -1
  std::vector<int> source_to_body;  // [source pieces] the aligned body piece, or -1
  int first = -1;                   // the extent: first and last aligned source pieces (-1: none)
  int last = -1;
  bool in_extent(int source_piece) const { return first >= 0 && source_piece >= first && source_piece <= last; }
};

// Marks which zh pieces start a word of `words` (code point spans covering the text).
void mark_word_starts(std::vector<Piece>& pieces, const std::vector<text::WordSpan>& words);

// The alignment of body[skip..] to `source` that keeps the most pieces and, among those, has the fewest
// runs (pieces consecutive in both), a run that starts inside a source word counting three times and one that ends inside one three: of two
// equally good alignments of 为什么快 to 为什么这么快, the one that keeps 为什么 whole. The first `skip` body pieces (a frame) stay unaligned. Exact by
// dynamic programming up to kMaxAlignCells cells; beyond, greedy (each body piece to the next equal
// source piece), which long units do not need to be exact for.
inline constexpr std::size_t kMaxAlignCells = std::size_t{1} << 20;
Alignment align(const std::vector<Piece>& body, std::size_t skip, const std::vector<Piece>& source);

}  // namespace kessel::summarize::faith
