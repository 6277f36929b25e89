#include "summarize/eaca_features.h"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <string>
#include <string_view>
#include <utility>

#include "kessel/error.h"
#include "kessel/text/tokenize.h"
#include "kessel/text/utf8.h"
#include "util/string_ids.h"

namespace kessel::summarize {

namespace {

// A token as hashed_ngrams spells it: numbers are one class, "<num>" (the value rarely matters to
// salience and would scatter over buckets).
std::string_view hashed_form(const text::Token& t) {
  return t.kind == text::TokenKind::number ? std::string_view("<num>") : std::string_view(t.lower);
}

// Whether a unit reads as a question: a question mark anywhere, or 吗/呢 as its last code point
// before trailing white space and punctuation. One pass over the code points as decode_utf8 reads
// them (lossy), without decoding the text into a vector.
bool reads_as_question(std::string_view text) {
  bool mark = false;
  char32_t last = 0;  // the last code point that is neither white space nor punctuation
  for (std::size_t at = 0; at < text.size();) {
    const char32_t c = text::next_code_point(text, &at);
    mark = mark || c == U'?' || c == U'？';
    if (!text::is_space(c) && !text::is_punct(c)) last = c;
  }
  return mark || last == U'吗' || last == U'呢';
}

// hashed_ngrams, appended to `ids`. Unigram ids are fnv1a64(form) seeded with fnv1a64("1"), pair
// ids fnv1a64(prev '\x1f' form) seeded with fnv1a64("2"). FNV-1a runs byte by byte, so the pair's
// hash is taken part by part, each part seeded with the hash so far, and no joined string is built.
void append_hashed_ngrams(std::vector<std::int32_t>& ids, const std::vector<text::Token>& tokens, int buckets) {
  static const std::uint64_t kUnigramSeed = fnv1a64("1"), kPairSeed = fnv1a64("2");
  const auto B = static_cast<std::uint64_t>(buckets);
  const text::Token* prev = nullptr;
  for (const auto& t : tokens) {
    const std::string_view form = hashed_form(t);
    ids.push_back(static_cast<std::int32_t>(bucket_of(fnv1a64(form, kUnigramSeed), B)));
    if (text::is_punctuation(t)) {
      prev = nullptr;
      continue;
    }
    if (prev) {
      const std::uint64_t h = fnv1a64(form, fnv1a64("\x1f", fnv1a64(hashed_form(*prev), kPairSeed)));
      ids.push_back(static_cast<std::int32_t>(bucket_of(h, B)));
    }
    prev = &t;
  }
}

}  // namespace

std::vector<std::int32_t> hashed_ngrams(const std::vector<text::Token>& tokens, int buckets) {
  KESSEL_CHECK_ARG(buckets >= 1, "hashed_ngrams: buckets must be >= 1, got ", buckets);
  std::vector<std::int32_t> ids;
  ids.reserve(2 * tokens.size());
  append_hashed_ngrams(ids, tokens, buckets);
  return ids;
}

std::vector<std::int32_t> hashed_ngrams(std::string_view s, int buckets) {
  return hashed_ngrams(text::tokenize(s, text::TokenizeOptions{nullptr, text::Utf8Mode::lossy}), buckets);
}

UnitFeatures compute_features(const Prepared& p, int buckets) {
  KESSEL_CHECK_ARG(p.dialogue != nullptr, "compute_features: Prepared has no dialogue");
  KESSEL_CHECK_ARG(buckets >= 1, "compute_features: buckets must be >= 1, got ", buckets);
  KESSEL_CHECK_ARG(p.unit_tokens.size() == p.units.size(), "compute_features: Prepared has ", p.unit_tokens.size(),
                   " unit token lists for ", p.units.size(), " units (build it with prepare())");
  const int U = static_cast<int>(p.units.size());
  const int T = static_cast<int>(p.dialogue->turns.size());
  UnitFeatures f;
  f.units = U;
  f.token_offsets.assign(1, 0);
  f.dense.assign(static_cast<std::size_t>(U) * kNumDenseFeatures, 0.0f);
  f.wheel.assign(static_cast<std::size_t>(U) * 2, 0.0f);
  f.emotion.assign(static_cast<std::size_t>(U), 0.0f);
  auto D = [&](int u, int c) -> float& { return f.dense[static_cast<std::size_t>(u) * kNumDenseFeatures + c]; };

  // Token counts per unit over a dialogue-local vocabulary (centrality and overlap): each unit's
  // (token id, count) pairs, in the order the ids first occur in it. A flat list instead of a hash
  // map per unit (a node allocated per distinct token); the counts are small integers, so the sums
  // over them below are exact, and the same, in any order.
  std::size_t tokens = 0;
  for (const auto& unit : p.unit_tokens) tokens += unit.size();
  util::StringIds vocab(tokens);  // views of p.unit_tokens
  std::vector<std::vector<std::pair<int, float>>> counts(static_cast<std::size_t>(U));
  std::vector<float> total;          // dialogue-wide counts per token
  std::vector<int> df;               // units containing the token
  std::vector<int> last_unit;        // per token: the last unit it occurred in
  std::vector<std::size_t> pair_at;  // per token: its pair's index in that unit's counts
  int max_chars = 1;
  for (const auto& unit : p.units) max_chars = std::max(max_chars, unit.chars);

  bool timed = T > 0;
  for (const auto& turn : p.dialogue->turns) timed = timed && turn.time.has_value();
  const double t0 = timed ? *p.dialogue->turns.front().time : 0.0;
  if (timed) f.times.resize(static_cast<std::size_t>(U));

  int first_customer = -1;
  for (int u = 0; u < U; ++u) {
    const Unit& unit = p.units[static_cast<std::size_t>(u)];
    const auto& tokens = p.unit_tokens[static_cast<std::size_t>(u)];
    append_hashed_ngrams(f.token_ids, tokens, buckets);
    f.token_offsets.push_back(static_cast<std::int32_t>(f.token_ids.size()));

    bool number = false;
    counts[static_cast<std::size_t>(u)].reserve(tokens.size());  // at most a pair a token
    for (const auto& t : tokens) {
      if (t.kind == text::TokenKind::number || t.kind == text::TokenKind::placeholder) number = true;
      if (text::is_punctuation(t)) continue;
      const auto [vocab_id, inserted] = vocab.insert(t.lower);
      if (inserted) {
        total.push_back(0.0f);
        df.push_back(0);
        last_unit.push_back(-1);
        pair_at.push_back(0);
      }
      const auto id = static_cast<std::size_t>(vocab_id);
      auto& mine = counts[static_cast<std::size_t>(u)];
      if (last_unit[id] != u) {  // the token's first occurrence in this unit
        last_unit[id] = u;
        pair_at[id] = mine.size();
        mine.emplace_back(vocab_id, 0.0f);
        ++df[id];
      }
      mine[pair_at[id]].second += 1.0f;
      total[id] += 1.0f;
    }

    const bool question = reads_as_question(unit.text);

    const bool customer = unit.speaker == text::Speaker::customer;
    if (customer) {
      f.customer_units.push_back(u);
      if (first_customer < 0) first_customer = u;
    }
    D(u, kRelPosition) = U > 1 ? static_cast<float>(u) / static_cast<float>(U - 1) : 0.0f;
    D(u, kFirstUnit) = u == 0;
    D(u, kLastUnit) = u == U - 1;
    D(u, kRelTurn) = T > 1 ? static_cast<float>(unit.turn) / static_cast<float>(T - 1) : 0.0f;
    // Capped at kLogLengthCapChars, beyond every training unit (TweetSumm's longest sentence has 298
    // code points, CSDS's 27): a 20,000-character turn would otherwise feed the network 2.0 where it
    // has seen at most 1.14 (found by `kessel stress`).
    D(u, kLogLength) = std::log1p(static_cast<float>(std::min(unit.chars, kLogLengthCapChars))) / 5.0f;
    D(u, kLengthRatio) = static_cast<float>(unit.chars) / static_cast<float>(max_chars);
    D(u, kCustomer) = customer;
    D(u, kTurnInitial) = unit.sentence == 0;
    D(u, kQuestion) = question;
    D(u, kNumberOrSlot) = number;
    D(u, kShort) = unit.chars <= 4;
    D(u, kSpeakerChange) = u > 0 && p.units[static_cast<std::size_t>(u - 1)].speaker != unit.speaker;
    D(u, kTruncated) = p.dialogue->turns[static_cast<std::size_t>(unit.turn)].truncated;
    if (timed) {
      const double dt = *p.dialogue->turns[static_cast<std::size_t>(unit.turn)].time - t0;
      const double phase = 2.0 * std::numbers::pi * dt / kTimePeriodSeconds;
      D(u, kTimeSin) = static_cast<float>(std::sin(phase));
      D(u, kTimeCos) = static_cast<float>(std::cos(phase));
      D(u, kHasTime) = 1.0f;
      f.times[static_cast<std::size_t>(u)] = static_cast<float>(dt);
    }
  }
  if (first_customer >= 0) D(first_customer, kFirstCustomer) = 1.0f;

  for (int u = 0; u < U; ++u) {
    const auto& mine = counts[static_cast<std::size_t>(u)];
    double dot = 0.0, n_mine = 0.0, n_rest = 0.0;
    int shared = 0;
    for (const auto& [id, c] : mine) {
      const double rest = total[static_cast<std::size_t>(id)] - c;
      dot += c * rest;
      n_mine += static_cast<double>(c) * c;
      if (df[static_cast<std::size_t>(id)] > 1) ++shared;
    }
    for (float c : total) n_rest += static_cast<double>(c) * c;
    // |rest|^2 = |total|^2 - 2 <total, mine> + |mine|^2, computed without a second pass.
    double total_dot_mine = 0.0;
    for (const auto& [id, c] : mine) total_dot_mine += static_cast<double>(c) * total[static_cast<std::size_t>(id)];
    n_rest = n_rest - 2.0 * total_dot_mine + n_mine;
    D(u, kCentrality) = (n_mine > 0 && n_rest > 1e-12) ? static_cast<float>(dot / std::sqrt(n_mine * n_rest)) : 0.0f;
    D(u, kOverlap) = mine.empty() ? 0.0f : static_cast<float>(shared) / static_cast<float>(mine.size());
  }

  f.mention_intensity.resize(p.mentions.size());
  for (std::size_t m = 0; m < p.mentions.size(); ++m) {
    const auto& mention = p.mentions[m];
    const int u = p.mention_unit[m];
    f.mention_intensity[m] = mention.intensity;
    if (mention.polite) D(u, kPolite) = 1.0f;
    if (!mention.expressed) continue;
    f.any_expressed = true;
    f.max_intensity = std::max(f.max_intensity, mention.intensity);
    D(u, kHasEmotion) = 1.0f;
    const int chars = std::max(1, p.units[static_cast<std::size_t>(u)].chars);
    const float share = static_cast<float>(mention.term_char_end - mention.term_char_start) / static_cast<float>(chars);
    D(u, kWheelX) += share * mention.wheel.x;
    D(u, kWheelY) += share * mention.wheel.y;
    if (mention.intensity > f.emotion[static_cast<std::size_t>(u)]) {
      f.emotion[static_cast<std::size_t>(u)] = mention.intensity;
      f.wheel[static_cast<std::size_t>(u) * 2] = mention.wheel.x;
      f.wheel[static_cast<std::size_t>(u) * 2 + 1] = mention.wheel.y;
    }
    D(u, kEmotionIntensity) = f.emotion[static_cast<std::size_t>(u)];
  }
  return f;
}

}  // namespace kessel::summarize
