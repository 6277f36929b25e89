// Lexicon expansion: propose new emotion terms from an unlabelled corpus.
//
//   1. Candidates: CJK n-grams of 1..max_ngram characters inside CJK runs, and lowercased Latin
//   words,
//      seen at least min_count times (at most max_candidates, most frequent first).
//   2. Context features: the `context_vocab` most frequent units (single CJK characters and Latin
//      words); each candidate occurrence counts the units within `window` units on either side of
//      it.
//   3. PPMI weighting: ppmi(c, f) = max(0, log(P(c, f) / (P(c) P(f)))) from the co-occurrence
//   counts,
//      then each candidate vector is L2-normalized.
//   4. Centres: for each emotion with seeds found in the corpus, the mean of its seeds' vectors.
//   5. Fuzzy c-means memberships (m = 2) of each candidate to those fixed centres, with squared
//      Euclidean distances: u_i = 1 / sum_l (d2_i / d2_l)^(1 / (m - 1)).
//   6. Output: candidates that are not seeds, do not overlap a seed (substring either way) and are
//   not
//      fragments of a longer n-gram (fragment_share), ranked by their best membership (ties:
//      frequency). In a sparse high-dimensional PPMI space all distances are close, so memberships
//      at m = 2 stay near 1/K; the ranking is still by relative closeness (a smaller m sharpens).
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "kessel/text/emotion.h"

namespace kessel::text {

struct ExpandOptions {
  int max_ngram = 4;
  int min_count = 5;
  int window = 5;
  int context_vocab = 1000;
  int max_candidates = 20000;  // memory: max_candidates * context_vocab floats
  // A CJK n-gram is a fragment, and not proposed, when one of its one-character extensions (left or
  // right, within max_ngram + 1) covers at least this share of its occurrences (加努 inside
  // 加努力).
  float fragment_share = 0.8f;
  int top = 50;
  float fuzziness = 2.0f;  // m
};

struct SeedTerm {
  std::string term;
  Emotion emotion = Emotion::joy;
};

struct ExpandCandidate {
  std::string term;
  Emotion emotion = Emotion::joy;  // best membership
  float membership = 0.0f;
  std::int64_t count = 0;
  std::vector<float> memberships;  // per emotion in ExpandResult::emotions order
};

struct ExpandResult {
  std::vector<ExpandCandidate> candidates;  // top N, best first
  std::vector<Emotion> emotions;            // emotions that got a centre
  std::vector<std::string> seeds_found;
  std::vector<std::string> seeds_missing;  // seeds below min_count in the corpus
  std::int64_t lines = 0;
  std::int64_t candidate_count = 0;  // candidates scored
};

// `progress` (optional) receives (stage, done, total) for display.
using ExpandProgress =
    std::function<void(const std::string& stage, std::int64_t done, std::int64_t total)>;

// Throws InvalidArgument on bad options or when fewer than two emotions have seeds in the corpus.
ExpandResult expand_lexicon(const std::vector<std::string>& corpus_lines,
                            const std::vector<SeedTerm>& seeds, const ExpandOptions& options,
                            const ExpandProgress& progress = nullptr);

// Seeds file: term<TAB>emotion[<TAB>...] per line ('#' comments), e.g. a default lexicon TSV.
std::vector<SeedTerm> read_seed_file(const std::string& path);
// Corpus: plain text (one line per unit) or STC-3 json (a list of dialogues with
// turns[].utterances[]; every utterance becomes a line).
std::vector<std::string> read_corpus_lines(const std::string& path, const std::string& format);

}  // namespace kessel::text
