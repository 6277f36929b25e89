// Token deletion inside extracted units ("extract, then compress"; Knight & Marcu 2002, Filippova &
// Altun 2013 in spirit): a logistic model over hashed local features says, for each token of a unit,
// how likely the reference summary keeps it. The decoder then renders each selected unit without the
// tokens below a threshold chosen on dev.
//
// Why: CSDS references are short third-person rewrites ("用户询问…。客服回答…。"); a whole extracted
// utterance carries greetings, particles and politeness (您好, 请问, 呢, 哦, 亲) that the references
// never repeat. On a held-out split, deleting by an LCS oracle lifts ROUGE-L by ~14 points over the
// same selection; this model recovers part of that (docs/eaca.md has the figures).
//
// Guarantees: deletion keeps or drops whole words (Prepared::unit_token_words: a word is kept when the
// mean keep probability of its characters reaches the threshold), so no word is ever cut; tokens
// inside an expressed customer emotion mention are never deleted (the summary keeps the term the
// constraint is about, at the offsets `emotions[*]` report); the meaning guards keep every negator
// (不 没 未 别 无 非 否: 没有, 不是, 能不能, 是否, 能否) with the word it negates, clause-final question
// particles (吗 么 呢, tags 是吧 嘛), question words (谁 哪 啥 咋), 想知道, the subject 你们, question
// marks, numbers and placeholders
// ([订单编号]), so a compressed sentence never flips its meaning or stops asking; a unit is never reduced to nothing (when no content token survives, the unit is rendered whole). Chinese only: English word
// deletion breaks the grammar the English summaries are required to keep (EacaModel trains none).
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "kessel/summarize/summary.h"
#include "kessel/text/tokenize.h"

namespace kessel::summarize {

inline constexpr int kCompressBuckets = 1 << 18;
// The highest deletion threshold training may choose (eaca_decoding_choice.cc): a word is deleted
// only when the model is fairly sure the reference drops it.
inline constexpr float kMaxDeletionThreshold = 0.4f;
inline constexpr std::size_t kCompressFeatures = 12;  // hashed feature ids per token

// The tokens of every unit (text::tokenize, no lexicon terms), which of them an expressed customer
// emotion mention covers, and — from compress_features only — the hashed feature ids of each token
// (features_of(t) lists the ids of token t). Pure functions of the dialogue. `tokens` views
// Prepared::unit_tokens: the Prepared must outlive the UnitTokens.
struct UnitTokens {
  std::span<const text::Token> tokens;
  // kCompressFeatures ids per token, token t's at [t * kCompressFeatures, (t + 1) * kCompressFeatures):
  // one buffer per unit rather than one per token, whose allocation cost more than the hashing.
  // Empty from unit_tokens.
  std::vector<std::int32_t> features;
  std::vector<char> forced;  // 1: inside the clause of an expressed customer emotion mention, never deleted
  // 1: a meaning guard (a negator and its word, a question form, a number, a placeholder): never deleted
  // by compress_unit.
  std::vector<char> guarded;
  std::span<const int> words;  // the word of each token (Prepared::unit_token_words)
  // en: 1 on an agent's vocatives, the customer's name and its comma ("...any issues, Claire.", "Bob, once
  // Samsung shares..."): dropped as addressing is. Empty: none.
  std::vector<char> vocative;
  std::span<const std::int32_t> features_of(std::size_t t) const {
    return std::span<const std::int32_t>(features).subspan(t * kCompressFeatures, kCompressFeatures);
  }
};
std::vector<UnitTokens> unit_tokens(const Prepared& p);
std::vector<UnitTokens> compress_features(const Prepared& p, int buckets);

// Keep probability of each token: sigmoid(bias + sum of the token's feature weights).
// `weights` has buckets + 1 entries; the last is the bias. InvalidArgument unless `unit.features`
// holds kCompressFeatures ids per token, each in [0, buckets).
std::vector<float> keep_probabilities(const UnitTokens& unit, const std::vector<float>& weights);

// The unit's text without the words whose mean keep probability is below `threshold` (a word with a
// forced or guarded token always stays). Kept tokens keep their bytes; a space joins two kept tokens that white space
// separated in the source. Returns the unit's own text when no content token would remain, and an
// empty text (a unit the decoder never selects) when one character would remain of several ("好的"
// -> "的"), unless that character is forced.
std::string compress_unit(const Unit& unit, const UnitTokens& tokens, const std::vector<float>& weights,
                          float threshold);

// The unit's text without its addressing: @mentions, URLs, a leading salutation ("Hi there,",
// "Hello Shayc!") and an agent's trailing sign-off ("^XS", "-AB"). Forced tokens stay. Empty when
// nothing else remains, so that the decoder never selects the unit. EACA applies it to English units: a tweet's addressing (@AppleSupport) and links
// are not what a summary reports, and no reference repeats them.
std::string drop_addressing(const Unit& unit, const UnitTokens& tokens);

// Whether an English unit's tokens open (after their @mentions) with a thread counter past the first
// ("2/2", "(3/3)") or a continuation mark ("-(contd)"): the tweet goes on with what its speaker's
// previous tweet left open ("...by responding with" / "-(contd)any letter or number...").
bool continues_thread(std::span<const text::Token> t);

// Whether an English tweet's tokens leave its sentence open for the speaker's next tweet: past its
// trailing addressing (sign-off, counter, links), it ends with a comma or an opening bracket, or
// (customers, who often write without a final stop) a word that cannot end a sentence ("and", "the",
// "to", "your", ...); an agent's tweet is open whenever it ends with a word ("...getting someone to
// 1 ^FC" / "contact you at the soonest...").
// Whether an English unit's tokens open as a question, past its @mentions and a connective (so, and,
// but, ...): an auxiliary before a subject ("can I…", "don't you…") or a question word before an auxiliary
// ("why can't I…", "how do…"), as customers write them without a question mark.
bool opens_as_english_question(std::span<const text::Token> tokens);
bool leaves_sentence_open(const std::vector<text::Token>& t, bool agent);
// Whether an English tweet's sentence ends on a comma, past its addressing (a thread counter, a
// sign-off), links and handles: "…but is not included in it, 2/3".
bool ends_on_comma(const std::vector<text::Token>& t, bool agent);
// Whether an English tweet opens (after its @mentions) with a word in lower case: with the tweet
// before it left open, it goes on with that sentence.
bool opens_in_lower_case(std::span<const text::Token> t);
// Whether it opens (after its @mentions) with an acronym of two to five capitals ("ISP", "DM") that
// is not followed by a capitalized or question word, i.e. in the middle of a sentence.
bool opens_with_acronym(std::span<const text::Token> t);
// en: marks each agent unit's vocatives in `out` (UnitTokens::vocative):
//   - its closing one: its last word before the final stop, when it is a name the agent addresses the
//     customer by elsewhere (after a comma or a greeting, at a clause's end), with the comma before it;
//     not a name after a thanks or regards, which signs off;
//   - its opening one: a name and a comma before the sentence ("Bob, once Samsung shares…"), the name
//     addressed elsewhere or a word that opens no sentence and is never written in lower case.
// unit_tokens calls it.
void mark_vocatives(const Prepared& p, std::vector<UnitTokens>& out);

// Whole-word keep decisions (compress_words.cc): a word stays when the mean keep probability `p` of its
// tokens reaches `threshold`, or when one of them is forced or guarded. Words bound to a neighbour (a
// one-letter verb and its 了 or direction complement, 给 or 为 and its pronoun before a verb, a
// preposition and its person, 跟 between two nouns, a demonstrative and its measure word) decide together.
std::vector<char> word_keep(const UnitTokens& tokens, const std::vector<float>& p, float threshold);
// What whole-word deletion leaves that reads as a cut, mended in `keep` (compress_words.cc): an orphan
// particle, an opening courtesy run on into what follows (您客气了换开之后…) or a clause cut to one letter or
// one noun goes; a clause-final 了 after a kept action verb, the person a kept 帮 (or 已为, 会为) helps, the
// words a new stutter or a broken 么 needs, and the colon between a kept label and its value come back.
void mend_deletion(const UnitTokens& tokens, std::vector<char>& keep);

// The unit's text with only the kept tokens: their bytes, and a space between two kept tokens that
// white space separated in the source. Punctuation that deletion left leading or doubled ("，请问",
// "好，，谢谢") is dropped too; punctuation that stood together in the source ("costs).", "?!") and
// an opening bracket or quote at the start stay. The unit's own text when no content token is kept.
// `forms`, when given, replaces each token with a non-empty entry (reported speech).
std::string rebuild(const Unit& unit, std::span<const text::Token> tokens, const std::vector<char>& keep,
                    const std::vector<std::string>* forms = nullptr);

// How EACA renders an English unit: drop_addressing, and with `reported_speech` the unit's first and
// second person rewritten into the third (reported_speech.h). `reported`, when given, says whether the
// text was put into the third person (it is then shown without a role label: it names its speaker).
std::string render_english(const Unit& unit, const UnitTokens& tokens, bool reported_speech,
                           bool* reported = nullptr);

// Training targets: token t of a unit is "kept" when at least half of its code points lie on a
// longest common subsequence of the unit's text with one of the reference sentences (zh: code points,
// sentences split after 。 as the CSDS protocol does) — the tokens summary-level ROUGE-L credits.
std::vector<float> keep_targets(const UnitTokens& unit, const std::vector<std::string>& references);

struct CompressTrainOptions {
  int epochs = 2;
  float lr = 0.1f;     // AdaGrad step
  float l2 = 1e-5f;    // per-update shrinkage of the touched weights
  std::uint64_t seed = 1;
};

// One labelled token for training: its feature ids and target.
struct KeepExample {
  std::vector<std::int32_t> features;
  float target = 0.0f;
};

// Logistic regression by AdaGrad over shuffled examples (deterministic for a seed). Returns
// buckets + 1 weights (last: bias).
std::vector<float> train_compressor(const std::vector<KeepExample>& examples, int buckets,
                                    const CompressTrainOptions& options);

}  // namespace kessel::summarize
