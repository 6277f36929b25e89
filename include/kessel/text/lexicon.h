// Emotion lexicons: terms mapped to Plutchik emotions with an intensity and polarity, a term
// matcher for forward maximum matching, the project's default lexicon (data/lexicon/*.tsv) and
// loaders for the external lexicons in ../shared/data/lexicons (loaded by path, never copied).
//
// Mapping decisions (see docs/text.md for the reasoning):
//   DUTIR (csv, 21 fine classes, intensity 1..9 -> /9, polarity 0 neu / 1 pos / 2 neg / 3 both):
//     PA 快乐, PE 安心, PB 喜爱 -> joy; PD 尊敬, PG 相信, PH 赞扬 -> trust; PK 祝愿 ->
//     anticipation; NA 愤怒 -> anger; NB 悲伤, NJ 失望, NH 疚, PF 思 -> sadness; NI 慌, NC 恐惧, NG
//     羞 -> fear; NE 烦闷, ND 憎恶, NN 贬责, NK 妒忌, NL 怀疑 -> disgust; PC 惊奇 -> surprise. The
//     optional auxiliary class becomes a second entry. Polarity 0 on a class other than PC is
//     replaced by the class's polarity (the file marks e.g. 愤怒 NA as 0; ~5,500 rows are like
//     that).
//   NRC EmoLex (word, label, 0|1): every association 1 with one of the eight emotions becomes an
//   entry
//     of intensity kNrcIntensity; "positive"/"negative" only set the polarity (a word with neither
//     gets the emotion's default polarity); words with no emotion association are not loaded.
//   Emoji Sentiment Ranking (csv counts): sentiment s = (pos - neg) / (pos + neu + neg + 3) with
//     add-one smoothing of each class; s >= +0.05 -> joy, s <= -0.05 -> sadness (counts carry no
//     finer emotion), intensity min(1, |s| * 2), otherwise neutral polarity (intensity |s| * 2,
//     joy); rows with fewer than 5 occurrences are skipped.
//   emoji-emotion json (valence -5..5): positive -> joy (surprise for astonished / open-mouth
//   names);
//     negative -> anger / fear / disgust / sadness by name keywords; intensity |v| / 5; 0 ->
//     neutral.
//   emoticon json (ASCII emoticon -> emoji name): each emoticon copies the entry of its emoji from
//   the
//     lexicon it is added to (so load the emoji tables first); unresolved emoticons are skipped and
//     counted.
// When several sources define a term, entries accumulate; primary() picks the entry with the
// highest intensity among the earliest-added source that defines the term, preferring expressive
// entries (紧张 is a DUTIR verb and an adjective; the adjective is the feeling).
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "kessel/text/emotion.h"
#include "kessel/text/language.h"

namespace kessel::text {

inline constexpr float kNrcIntensity = 0.6f;  // NRC gives binary associations; see docs/text.md

struct LexiconEntry {
  Emotion emotion = Emotion::joy;
  float intensity = 0.0f;  // [0, 1]
  Polarity polarity = Polarity::neutral;
  std::string source;
  // False when the source's own annotation says the term judges or names something rather than
  // expresses a feeling (DUTIR, see dutir_expressive): its mentions are found but never expressed.
  bool expressive = true;
  // The language the source is written in: zh (DUTIR, default_zh.tsv), en (NRC, default_en.tsv), or
  // unknown for entries of any language (emoji, emoticons, a --lexicon tsv). detect_emotions applies
  // an entry to a turn only where entry_applies says so (emotion.h, rule 0): the Chinese lexicon's
  // slang `low` does not fire on "it says low users".
  Language language = Language::unknown;
  // What the term does (emotion.h): a feeling, a problem report, a judgement or a request. Sets the
  // weight of the mention's strength; TSV column 5, feeling when absent.
  MentionKind kind = MentionKind::feeling;
};

// Whether an entry of `entry.language` applies to a turn in `turn_language` (emotion.h, rule 0):
// always for an entry of any language (unknown); in a turn of its own language; a Chinese term
// written in Han characters in any turn but a Japanese one (Han characters in an English turn are
// Chinese words); an English entry also in a Chinese turn (Chinese chat mixes in English words: 太
// nice了, so sad). A Latin-script term of the Chinese lexicon (low, nice, 666) applies to Chinese
// turns only, and no English entry applies to a Spanish, French, ... turn.
bool entry_applies(const LexiconEntry& entry, std::string_view normalized_term, Language turn_language);

// What a loader did: nothing is dropped without being counted here.
struct LoadReport {
  std::string path;
  std::int64_t loaded = 0;                           // entries added
  std::int64_t skipped = 0;                          // records not loaded
  std::map<std::string, std::int64_t> skip_reasons;  // reason -> count
  void skip(const std::string& reason) {
    ++skipped;
    ++skip_reasons[reason];
  }
};

// Lowercases ASCII/Latin-1/fullwidth letters, writes the typographic apostrophe ’ as ', drops emoji
// variation selectors (U+FE0E, U+FE0F) and trims white space. Lexicon keys and lookups both go through it.
std::string normalize_term(std::string_view term);
// Whether normalize_term leaves the UTF-8 of these code points as it is: none is white space, a
// variation selector or one that folds to another. A tokenizer that has the code points decoded
// already copies such a token's text as its normalized form instead of decoding it again.
bool normalizes_to_itself(const char32_t* cps, std::size_t n);

// A trie over normalized code points for forward maximum matching.
class TermMatcher {
 public:
  void insert(std::string_view normalized_term);
  // Length in code points of the longest term starting at cps[0] (0 when none). The text is folded
  // as normalize_term folds it (case, ’ as ') and variation selectors are skipped while matching; `consumed` receives the
  // number of text code points covered (>= the returned term length when selectors were skipped).
  std::size_t longest_match(const char32_t* cps, std::size_t n, std::size_t* consumed) const;
  // False only when `normalized_term` (valid UTF-8, as normalize_term makes it) is surely no term
  // inserted: the trie has no path for it or its node is no term's end. Text with a code point that
  // does not decode cleanly is not ruled out. The emotion pass asks the lexicon about every token,
  // most of them no term, and this walk over edges the tokenizer has just visited is cheaper than
  // hashing the string into the lexicon's map.
  bool may_contain(std::string_view normalized_term) const;
  std::size_t size() const { return terms_; }

 private:
  struct Node {
    bool terminal = false;
  };
  // The trie's edges, (node << 21 | cp) -> child, in one open-addressing table (linear probing, a
  // power-of-two size, at most half full). The tokenizer looks up an edge at every position of a
  // text; an unordered_map's prime modulus and bucket chains cost more there than the rest of the
  // lookup. tests/cpp/text/lexicon_test.cc compares it with a plain search over the terms.
  struct Edge {
    std::uint64_t key = 0;
    std::int32_t child = -1;  // -1: an empty slot
  };
  std::int32_t child(std::uint64_t key) const;  // -1 when there is no such edge
  void add_edge(std::uint64_t key, std::int32_t child);
  std::size_t slot_of(std::uint64_t key) const;
  std::vector<Node> nodes_{Node{}};
  std::vector<Edge> edges_;
  std::size_t edge_count_ = 0;
  std::size_t terms_ = 0;
};

class Lexicon {
 public:
  // A new lexicon's matcher already knows the polite formulas (see emotion.h) as phrases.
  Lexicon();
  // Adds an entry for `term` (normalized here). Throws InvalidArgument for an empty term or an
  // intensity outside [0, 1].
  void add(std::string_view term, const LexiconEntry& entry);
  // Extra phrases the matcher should know without an emotion (polite formulas), so that forward
  // maximum matching consumes 祝您生活愉快 as a whole instead of finding 愉快 inside it.
  void add_phrase(std::string_view term);

  const std::vector<LexiconEntry>* find(std::string_view term) const;  // nullptr if absent
  const LexiconEntry* primary(std::string_view term) const;
  // The same among the entries that apply to a turn in `turn_language` (entry_applies); nullptr
  // when none does.
  const LexiconEntry* primary(std::string_view term, Language turn_language) const;
  bool contains(std::string_view term) const { return find(term) != nullptr; }

  const TermMatcher& matcher() const { return matcher_; }
  std::size_t size() const { return entries_.size(); }  // distinct terms
  const std::unordered_map<std::string, std::vector<LexiconEntry>>& entries() const {
    return entries_;
  }
  // Identity for model files: sources in load order with their entry counts, then a hash of every
  // entry, e.g. "default:850;fnv1a64=3f2c9a0d51e7b6a4". Compare with same_lexicon().
  std::string identity() const;

 private:
  std::unordered_map<std::string, std::vector<LexiconEntry>> entries_;
  std::vector<std::pair<std::string, std::int64_t>> source_counts_;
  TermMatcher matcher_;
};

// ---- the project's own lexicon
// --------------------------------------------------------------------- TSV, one term per line:
// term<TAB>emotion<TAB>intensity<TAB>polarity[<TAB>kind], '#' starts a comment line (but a hashtag
// term, '#' then a word character on a line with tabs, is a row: #fail). emotion is one of the
// eight names, intensity in [0, 1], polarity pos|neg|neu|both, kind feeling|report|judgement|request
// (feeling when absent). Every entry gets `language`. Throws ParseError(file, line, "<field>: ...")
// on a malformed line.
void add_lexicon_tsv(Lexicon& lexicon, const std::string& path, const std::string& source,
                     LoadReport* report = nullptr, Language language = Language::unknown);
// data/lexicon/default_{zh,en,emoji}.tsv under `dir`, source "default", languages zh, en and any.
Lexicon load_default_lexicon(const std::string& dir);
// The directory holding the default lexicon (default_zh.tsv, ...): `given` when not empty, else the
// first of `candidates` that holds it. IoError "<context><what> <given>: no default_zh.tsv there", or
// "<context>default lexicon not found (tried <candidates>); pass <what> or set KESSEL_HOME".
// `what` names the caller's option (--lexicon-dir, lexicon_dir); `context` prefixes the message.
std::string find_default_lexicon_dir(const std::string& given, const std::vector<std::string>& candidates,
                                     const std::string& what, const std::string& context = "");

// ---- external lexicons (by path)
// -------------------------------------------------------------------
void add_dutir(Lexicon& lexicon, const std::string& path, LoadReport* report = nullptr);
void add_nrc_emolex(Lexicon& lexicon, const std::string& path, LoadReport* report = nullptr);
void add_emoji_sentiment(Lexicon& lexicon, const std::string& path, LoadReport* report = nullptr);
void add_emoji_emotion_json(Lexicon& lexicon, const std::string& path,
                            LoadReport* report = nullptr);
void add_emoticon_json(Lexicon& lexicon, const std::string& path, LoadReport* report = nullptr);

// Whether a model's recorded lexicon identity matches `identity` (Lexicon::identity()). A record
// from before the content hash ("default:850") is matched on the source counts alone.
bool same_lexicon(std::string_view recorded, std::string_view identity);

// Maps a DUTIR fine class ("PA", "NB", ...) to its Plutchik emotion; nullopt for unknown codes.
std::optional<Emotion> dutir_class_emotion(std::string_view code);
// Whether a DUTIR row (part of speech as in the file: adj, verb, noun, adv, idiom, prep, nw; fine
// class; intensity 1..9) can be a customer-expressed emotion (docs/text.md, rule 4b): not one of
// the judgement classes PD PG PH NL, not a noun, intensity >= 5, and >= 7 for verbs and adverbs.
bool dutir_expressive(std::string_view pos, std::string_view code, long intensity);

}  // namespace kessel::text
