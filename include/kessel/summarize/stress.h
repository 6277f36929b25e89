// `kessel stress`: the seed's four pre-release stress tests (004, section 5.3), in versions whose
// pass conditions mean something, run on a summarizer (a trained EACA model or an unsupervised
// ranker).
//
//   length     dialogues of 16 .. 4,096 units built from real turns: time and peak memory per
//              dialogue, and the spread of the attention rows. The seed asks that the attention
//              entropy at the shortest and the longest length differ by under 15%; raw entropy
//              grows as ln(keys) by construction, so the test compares the normalized entropy H /
//              ln(n) (n = keys with a nonzero weight), 1 for uniform rows, 0 for one-hot ones.
//   modality   extreme but valid inputs: 100 emoji and one word in a turn (ZWJ sequences and skin
//              tones included), emoticons and Weibo brackets in bulk, an emoji-only dialogue, times
//              at the Unix epoch, at the readers' limit of +-1e11 s, all equal and running
//              backwards, a 20,000-character turn. Each must give finite scores (and, for EACA,
//              features in their documented ranges and wheel coordinates inside the unit circle), a
//              summary, the constraint kept, and emotion offsets inside their turns.
//   density    the share of customer units carrying an expressed emotion raised step by step (an
//              emotion phrase from the default lexicon appended to chosen customer units) from the
//              base dialogues' own share to 100%: the constraint must hold at every level; the seed
//              expects the summary's emotion count to grow with the density, and the test reports
//              the least-squares line through it (slope, R^2).
//   kernels    the attention engine on this machine, for EACA-shaped problems at each length: the
//              compiled SIMD variant against the double-precision reference path (max |difference|
//              of the weights and outputs), 1 thread against several (bit-identical), and the speed
//              of each. The seed's test compares GPUs; a CPU library's hardware question is this
//              one.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "kessel/summarize/summarizer.h"
#include "kessel/text/dialogue.h"
#include "kessel/text/lexicon.h"

namespace kessel::summarize {

// The longest dialogue the length test builds: an EACA map of a 8,192-unit dialogue is about 4,096
// x 8,192 floats (134 MB), and the reference path of the kernel test holds twice that in double.
inline constexpr int kMaxStressLength = 8192;

struct StressOptions {
  std::vector<int> lengths = {16, 64, 256, 1024, 2048, 4096};  // units per built dialogue
  // Target shares of customer units with an expressed emotion (levels below the base dialogues' own
  // share run at that share).
  std::vector<double> densities = {0.0, 0.1, 0.25, 0.5, 0.75, 1.0};
  double min_seconds = 0.2;  // per length: repeat the dialogue until this much time has passed
  int max_repeats = 20;      //   or this many runs (at least one)
  double entropy_tolerance = 0.15;  // the seed's 15%, on the normalized entropy
  int kernel_threads = 2;           // the thread count compared with one thread in the kernel test
};

struct LengthRow {
  int requested = 0;
  int units = 0;    // units of the built dialogue (>= requested; turns are kept whole)
  int queries = 0;  // rows of the attention map (customer units); 0 when the scorer has no map
  double ms = 0.0;  // median time of prepare + score + decode, one thread
  double us_per_unit = 0.0;
  double peak_rss_mb = 0.0;    // the process's peak resident set after this length
  double entropy_norm = -1.0;  // mean over rows of H / ln(n); -1 without a map
  double entropy_bits = -1.0;  // mean over rows of H in bits
  double max_weight = -1.0;    // mean over rows of the largest weight
  int summary_units = 0;
  // The base dialogues ran out before this length and their turns were used again: the repeated
  // sentences attend to their copies, so such a row's entropy measures the repetition.
  bool repeated = false;
  std::string problems;  // what the modality checks found wrong here; empty when nothing
  // The EACA attention's kernel at this length (UnitScores::attention_kernel; empty without one). When
  // the length-based choice took chunk-and-bridge, the same dialogue also runs with full (fused)
  // attention forced, once the peak above is taken: its time (median, as `ms`), the share of the two
  // summaries' units in common (|A and B| / |A or B|) and the largest |difference| of the units'
  // inclusion probabilities. -1 when not compared.
  std::string attention_kernel;
  double full_ms = -1.0;
  double full_summary_jaccard = -1.0;
  double full_max_inclusion_diff = -1.0;
};

struct ModalityCase {
  std::string name;
  std::string what;  // the input, in words
  bool ok = true;
  std::string detail;  // what failed, or a short description of the result
};

struct DensityRow {
  double target = 0.0;
  double density = 0.0;        // measured share of customer units with an expressed mention
  double with_emotion = 0.0;   // share of dialogues whose customer expressed an emotion
  double satisfied = 0.0;      // among those, the share whose summary keeps one
  double bound = 0.0;          // share of dialogues where the constraint changed the selection
  double kept_mentions = 0.0;  // mean expressed mentions in the summary, per dialogue
  double summary_units = 0.0;  // mean summary length in units
  double emotional_summary_units = 0.0;  // mean share of the summary's customer units holding one
};

struct KernelRow {
  std::string variant;  // the SIMD variant of the fused path (every one the CPU runs is tested)
  int keys = 0, queries = 0, dim = 0;
  double max_diff_weights = 0.0;  // fused (this build's SIMD) against the reference path
  double max_diff_output = 0.0;
  bool threads_identical = true;  // 1 thread against StressOptions::kernel_threads, bitwise
  double fused_ms = 0.0, reference_ms = 0.0;
};

struct StressReport {
  std::string scorer;
  std::string kernel_variant;  // attention_kernel_variant(): the default, used by the other tests
  std::size_t base_dialogues = 0;
  std::vector<LengthRow> lengths;
  // |Hn(longest) - Hn(shortest)| <= tolerance * Hn(shortest), over the rows built without
  // repetition; not measured (and not failed) when fewer than two such rows have a map.
  bool entropy_measured = false;
  bool length_entropy_ok = true;
  double entropy_change = 0.0;           // that relative change
  int entropy_from = 0, entropy_to = 0;  // the units of the two rows compared
  std::vector<ModalityCase> modality;
  std::vector<DensityRow> density;
  double density_slope = 0.0, density_r2 = 0.0;  // kept_mentions against density, least squares
  bool density_ok = true;                        // the constraint held at every level
  std::vector<KernelRow> kernels;
  bool kernels_ok = true;  // differences within 1e-4 and threads bit-identical
  bool passed() const;
};

// A dialogue of at least `units` units made of the turns of `base` taken in order, cycling, with
// their sentences as units and no times; id "stress-<units>". `repeated`, when given, says whether
// the base ran out and turns were used again. InvalidArgument when `base` has no turn with a
// sentence or units < 1.
text::Dialogue build_long_dialogue(const std::vector<text::Dialogue>& base, int units,
                                   bool* repeated = nullptr);

// `dialogue` with an emotion phrase (from the default lexicon of its language: 气死我了, so
// disappointed, 😡, ...) added at the end of each chosen customer unit: unit k of the customer's
// units (counted over the dialogue) is chosen when frac(o + k * 0.618...) < share, o drawn from the
// dialogue's id: a spread that fills in as share grows, with no position favoured across dialogues.
// Turn text is rebuilt from the sentences.
text::Dialogue inject_emotions(const text::Dialogue& dialogue, double share);

// The modality cases' dialogues, in the language given ("zh" or "en"); exposed for the tests.
std::vector<std::pair<ModalityCase, text::Dialogue>> modality_dialogues(const std::string& lang);

// Runs the four tests. `base` are real dialogues (the length and density tests are built from
// them); `progress` receives a line per step.
StressReport run_stress(const std::vector<text::Dialogue>& base, const text::Lexicon& lexicon,
                        const Summarizer& summarizer, const StressOptions& options,
                        const std::function<void(const std::string&)>& progress = nullptr);

}  // namespace kessel::summarize
