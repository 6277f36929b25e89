// EACA summarization: the shared vocabulary of the summarizer — summary units, what a scorer returns,
// the constrained decoder and the output record. Scorers (the trained EACA model, the unsupervised
// attention-centrality ranker, the baselines) all produce UnitScores; one decoder turns any of them
// into a Summary under the same constraints, so rows of `kessel eval` differ only in their scorer.
//
// Layering: summarize -> text, nn, attention, cluster, util. Kernels know nothing of dialogues.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "kessel/tensor.h"
#include "kessel/text/dialogue.h"
#include "kessel/text/emotion.h"
#include "kessel/text/lexicon.h"
#include "kessel/text/tokenize.h"

namespace kessel::summarize {

enum class Lang { zh, en };
// zh when CJK code points make up at least 30% of the letters of the dialogue's text, else en
// (text::ScriptCounts::mostly_cjk).
Lang detect_lang(const text::Dialogue& dialogue);
// How many of `dialogues` are zh and en by detect_lang.
struct LangCounts {
  std::size_t zh = 0, en = 0;
};
LangCounts count_langs(const std::vector<text::Dialogue>& dialogues);

// One summary unit: a sentence of a turn (text::Turn::sentences).
struct Unit {
  int turn = 0;      // index into Dialogue::turns
  int sentence = 0;  // index into Turn::sentences
  text::Speaker speaker = text::Speaker::customer;
  std::string text;
  int chars = 0;  // code points
  long byte_start = -1;  // byte offset of `text` in the turn's text; -1 when the reader rewrote it
};

// A dialogue prepared once for every scorer: units, emotion mentions (all turns; `expressed` marks
// the customer emotions the constraint is about) and the unit each mention falls in.
struct Prepared {
  const text::Dialogue* dialogue = nullptr;
  Lang lang = Lang::zh;
  std::vector<Unit> units;
  // [U] each unit's tokens (text::tokenize, lossy, no lexicon terms): tokenized once here for every
  // scorer's text features and for token deletion.
  std::vector<std::vector<text::Token>> unit_tokens;
  // [U][T] the word each token belongs to, numbered within its unit in text order: the characters of
  // one Chinese word (text::Segmenter) share a number, every other token has its own. Token deletion
  // keeps or drops whole words.
  std::vector<std::vector<int>> unit_token_words;
  // [U] each unit's code points (text::decode_utf8, lossy): decoded once here for the tests that read
  // a unit letter by letter.
  std::vector<std::vector<char32_t>> unit_cps;
  std::vector<text::EmotionMention> mentions;  // char offsets are into Turn::text of mention.turn
  std::vector<int> mention_unit;               // unit index of each mention
  // Turns in a language kessel has no lexicon for (text::is_supported_language: zh and en): they get no
  // emotion mentions, and the summary says so rather than guessing.
  struct UnsupportedTurn {
    int turn = 0;
    text::Language language = text::Language::unknown;
  };
  std::vector<UnsupportedTurn> unsupported_turns;
  bool customer_expressed_emotion() const;
};
Prepared prepare(const text::Dialogue& dialogue, const text::Lexicon& lexicon);

// The largest dialogue (in units) whose attention map a scorer returns in UnitScores::attention.
inline constexpr int kMaxExplainUnits = 512;

// What a scorer says about one dialogue.
struct UnitScores {
  std::vector<float> salience;        // [U] higher = more summary-worthy (any scale)
  // Optional [U] probability that each unit belongs in the summary (empty: not modelled). EACA: the
  // sigmoid of its salience logit. The expected-F1 stop (DecodeOptions::f1_stop_chars) needs it.
  std::vector<float> inclusion;
  std::vector<float> mention_source;  // [M] preference for keeping each mention (empty: uniform)
  float has_emotion = -1.0f;          // P(summary should carry an emotion); < 0 when not modelled
  // The scorer's budget for this dialogue in code points; 0 = use DecodeOptions. When > 0 it replaces
  // DecodeOptions::max_chars (max_sentences still applies): a scorer that predicts how long this
  // dialogue's summary should be (EACA: a fit on the dialogue's length) sets it.
  int max_chars = 0;
  // Optional compressed text of each unit ([U]; empty: every unit as written). The decoder renders a
  // selected unit from it and counts its code points against the budget. A scorer that compresses
  // must keep every expressed emotion mention of the unit in it (EACA's compressor does).
  std::vector<std::string> unit_text;
  // Optional [U] (with unit_text): 1 where unit_text reports the unit in the third person ("The agent
  // asks the customer to DM their email."). Such a sentence names its speaker and is shown without a
  // role label, so that no label stands before a third-person report.
  std::vector<char> unit_reported;
  // Optional explanation: attention of customer-unit queries over all units, [Q, U] row-major, with
  // the unit index of each query row. Empty when the scorer has none, and for dialogues of more than
  // kMaxExplainUnits units (the map grows as Q x U; a 10,000-turn dialogue's would be 200 MB).
  std::vector<int> attention_queries;
  Tensor attention;
  // The kernel the EACA attention ran on (kessel/attention_choice.h: "fused", "chunk_bridge(C=256)",
  // "... (forced)"); empty for a scorer without one.
  std::string attention_kernel;
};

// Time and floating-point work of one part of a score() call (`kessel analyze`'s compute quadrant).
struct LayerCost {
  std::string layer;
  double ms = 0.0;
  double flops = 0.0;  // 0 where the work is not floating-point arithmetic worth counting
};

// The attention behind a scorer's ranking: rows for the query units `queries`, over all U units
// ([Q, U] row-major, each row a distribution over the keys it sees). Empty when the scorer has none.
struct AttentionMap {
  std::vector<int> queries;
  Tensor weights;
};

class Scorer {
 public:
  virtual ~Scorer() = default;
  virtual std::string name() const = 0;
  virtual UnitScores score(const Prepared& dialogue) const = 0;
  // score() for a caller that will not show UnitScores::attention: a scorer whose map is extra work
  // (EACA recomputes its members' attention weights for it) may leave attention and
  // attention_queries empty; everything else is as from score(). The default is score().
  virtual UnitScores score_without_map(const Prepared& dialogue) const;
  // score(), with the cost of each of its parts appended to `cost`. The default times the whole call
  // as one part named "score"; scorers with layers say more.
  virtual UnitScores score_profiled(const Prepared& dialogue, std::vector<LayerCost>& cost) const;
  // The map score() puts in UnitScores::attention, for a dialogue of any size (score() stops at
  // kMaxExplainUnits units). `kessel stress` reads its entropy at thousands of units. The default is
  // empty: the position, length and LexRank baselines have no attention.
  virtual AttentionMap attention_map(const Prepared& dialogue) const;
};

struct DecodeOptions {
  int max_sentences = 4;        // length budget in units
  int max_chars = 0;            // optional budget in code points (0: off; UnitScores::max_chars > 0 wins)
  // The user asked for max_sentences or max_chars (SummarizerOptions): the length is a contract. The
  // parts that add a unit past the budget for the reader's sake (the rest of an English sentence that
  // goes on in the next tweet) then add none past it.
  bool length_asked = false;
  float redundancy = 0.5f;      // MMR trade-off: 0 = pure salience; overlap penalty weight otherwise
  bool emotion_constraint = true;  // keep at least one expressed customer emotion when there is one
  // Expected-F1 stop (0: off; needs UnitScores::inclusion): the greedy selection is cut to the prefix
  // that maximizes expected_f1 below with this prior reference length R, so a summary is as long as
  // the scorer is confident, within the budget. EACA chooses R on out-of-fold dev (docs/eaca.md).
  float f1_stop_chars = 0.0f;
  // When the constraint adds a unit for its emotion, keep only the clause that holds the emotion words
  // (split at , ; : and their full-width forms) if the unit has several: the budget and the expected
  // F1 count the clause alone. The rest of the summary is whole units. On for EACA models (it lowers
  // the constraint's cost in CV), off by default: the unsupervised rankers lose 0.1-0.2 ROUGE-L with
  // it. docs/eaca.md, "Emotion clause", has the measurements.
  bool emotion_clause = false;
  // Fillers, courtesy formulas and agent sign-offs (在吗, 好的, 感谢您对京东的支持, "Thanks!", "-Rach";
  // src/summarize/content.h) are never selected, unless they hold an expressed customer emotion; nor
  // are fragments that say nothing alone ("客服:预计。"), and a bare answer ("用户:白条。") is shown only
  // with the question it answers (src/summarize/decode_parts.h). On by default (the unsupervised mode
  // and EACA models); off for the published baselines (Lead, Longest, LexRank), which rank every
  // sentence.
  bool skip_fillers = true;
  // zh: a customer's question is shown as the CSDS references report it, "用户:询问…。" (render.h,
  // reported_question), rather than as the customer wrote it ("用户:…吗？"). Off by default and for
  // the published baselines; on for EACA models and the unsupervised mode.
  bool report_questions = false;
};

// `--emotion-span` / `emotion_span`: "clause" -> true, "sentence" -> false (DecodeOptions::emotion_clause);
// InvalidArgument for any other name.
bool parse_emotion_span(const std::string& span);

// The expected-F1 stop's value of a selection: 2 * sum(p_u * c_u) / (sum(c_u) + R) over its units, with
// p_u the unit's inclusion probability and c_u its code points. The matched length sum(p c) is what a
// reference of R chars is expected to share with the selection, if each unit is kept or not with the
// probability the scorer gives. Returns how many of the first units of `order` (a greedy selection,
// most valuable first) to keep: the prefix of at least `min_length` units (at least one; the whole
// order when shorter) with the highest value (the shortest on ties), and that prefix's value in *value
// when given. R > 0; inclusion in [0, 1].
std::size_t expected_f1_prefix(const std::vector<int>& order, const std::vector<float>& inclusion,
                               const std::vector<int>& unit_chars, float prior_chars, double* value = nullptr,
                               std::size_t min_length = 1);

struct SummarySentence {
  std::string text;  // the unit text as rendered in the summary (role label, terminator normalized)
  std::string body;  // the same without the role label
  int turn = 0;
  int unit = 0;
  float score = 0.0f;
  bool shares_label = false;  // rendered under the previous sentence's role label (same speaker, same run of turns)
  bool reported = false;      // a third-person report (UnitScores::unit_reported): shown without a label
};

struct SummaryEmotion {
  std::string term;        // the expression as written, with its negation and degree words ("not happy", 太垃圾了)
  int turn = 0;
  long start = 0;  // code point offsets into the turn's text, end exclusive
  long end = 0;
  std::string emotion;
  std::string kind;        // feeling | report | judgement | request (text::MentionKind)
  float strength = 0.0f;   // text::EmotionMention::strength: what the constraint ranks by
  std::string source;      // the lexicon ("default", "dutir", ...) or the implicit cue ("cue:rhetorical")
  bool in_summary = false;
};

struct Summary {
  std::string id;
  // zh: "用户:…。客服:…。"  en: "Customer: … Agent: …"; consecutive sentences of one speaker share
  // one label ("用户:A，B。", "Customer: A B").
  std::string summary;
  std::vector<SummarySentence> sentences;  // in dialogue order
  std::vector<SummaryEmotion> emotions;    // the expressed customer emotions
  // True when there was nothing to keep, or the summary keeps the customer's strongest expressed
  // emotion, or another as strong (text::EmotionMention::strength).
  bool constraint_satisfied = true;
  bool constraint_bound = false;           // the constraint changed the selection
  // What keeping the emotion cost the ranking: the unconstrained selection's value (summed MMR value,
  // or expected F1 under the stop) minus the kept one's; 0 when the constraint did not bind.
  double constraint_cost = 0.0;
  // Turns whose language has no lexicon here (Prepared::unsupported_turns): "turn 3: es".
  std::vector<std::string> unsupported_languages;
};

// Picks units under the budget (UnitScores::max_chars when > 0, else DecodeOptions::max_chars; the
// first unit is always allowed) with redundancy control (MMR; with a redundancy weight > 0 a unit
// whose rendered text repeats a selected one, up to case, spaces and punctuation, is never selected),
// cut by the expected-F1 stop when DecodeOptions::f1_stop_chars > 0, in dialogue order; with the
// constraint on,
// when the customer expressed an emotion and no selected unit carries one, each unit that can carry
// one is tried in the selection (the selected units that add least beside it leave until it fits),
// and the choice that keeps the most MMR value wins (ties: mention_source, else intensity). Renders
// the summary text.
Summary decode(const Prepared& dialogue, const UnitScores& scores, const DecodeOptions& options);

// Rendering of one unit as the official extractive baselines do: zh "用户:<text>。" / "客服:<text>。"
// (terminal punctuation replaced by 。), en "Customer: <text>" / "Agent: <text>".
std::string render_unit(const Unit& unit, Lang lang);
// The same with `text` in place of the unit's own text (a compressed unit).
std::string render_unit(const Unit& unit, const std::string& text, Lang lang);

// What ROUGE scores for this language's protocol. zh: the unit rendered with its role label, as the
// CSDS extractive baselines' outputs were scored ("用户:…。"). en: the unit's text without the
// "Customer: "/"Agent: " label: the published TweetSumm figures score unlabelled sentences, and the
// words "customer" and "agent" occur in nearly every reference, so the labels alone add ~3 ROUGE-L to
// any system (Lead-3 on valid: 30.6 -> 33.6).
std::string scored_unit(const Unit& unit, Lang lang);
std::string scored_text(const Summary& summary, Lang lang);

}  // namespace kessel::summarize
