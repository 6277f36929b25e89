// EACA per-unit inputs: hashed n-gram ids of each unit's tokens (the learned text embedding looks them
// up), cheap extractive features, the emoji-wheel coordinate and emotion intensity of each unit, and
// times. Pure functions of a Prepared dialogue: no parameters, deterministic.
#pragma once

#include <cmath>
#include <cstdint>
#include <string_view>
#include <vector>

#include "kessel/summarize/summary.h"
#include "kessel/text/tokenize.h"
#include "util/hash.h"

namespace kessel::summarize {

// Dense feature columns (documented in docs/eaca.md): all in [0, 1] or [-1, 1] but kLogLength, which
// is at most kMaxLogLength.
enum DenseFeature : int {
  kRelPosition = 0,   // u / (U - 1)
  kFirstUnit,         // 1 for unit 0
  kLastUnit,
  kRelTurn,           // turn / (turns - 1)
  kLogLength,         // log1p(min(chars, kLogLengthCapChars)) / 5
  kLengthRatio,       // chars / max chars in the dialogue
  kCustomer,          // 1 customer, 0 agent
  kTurnInitial,       // first sentence of its turn
  kQuestion,          // contains ? / ？ or ends with 吗 / 呢
  kCentrality,        // cosine of the unit's token counts with the rest of the dialogue's
  kOverlap,           // share of the unit's distinct tokens that occur in another unit
  kHasEmotion,        // an expressed customer emotion mention lies in the unit
  kEmotionIntensity,  // max intensity of those mentions
  kWheelX,            // the unit's mean per-character wheel coordinate (emotion terms carry
  kWheelY,            //   their (x, y), other characters 0)
  kTimeSin,           // sin / cos(2 pi (t - t0) / 300 s) when the dialogue has times
  kTimeCos,
  kHasTime,
  kNumberOrSlot,      // a number or an anonymization placeholder ([数字], [订单编号], ...)
  kShort,             // <= 4 code points ("在吗", "好的")
  kPolite,            // a polite formula (谢谢, thanks, ...) lies in the unit
  kSpeakerChange,     // speaker differs from the previous unit's
  kTruncated,         // CSDS: the utterance was cut in the source
  kFirstCustomer,     // the first customer unit
  kNumDenseFeatures
};

inline constexpr float kTimePeriodSeconds = 300.0f;
inline constexpr int kLogLengthCapChars = 1000;
inline const float kMaxLogLength = std::log1p(static_cast<float>(kLogLengthCapChars)) / 5.0f;  // 1.38

struct UnitFeatures {
  int units = 0;
  std::vector<std::int32_t> token_ids;      // hashed n-gram ids of all units, concatenated
  std::vector<std::int32_t> token_offsets;  // [U + 1]: unit u owns token_ids[offsets[u], offsets[u+1])
  std::vector<float> dense;                 // [U, kNumDenseFeatures]
  std::vector<float> wheel;                 // [U, 2] wheel coordinate of the unit's strongest expressed
                                            //   emotion (0, 0 when none): what the EACA keys carry
  std::vector<float> emotion;               // [U] max expressed intensity (0 when none): the key boost
  std::vector<float> times;                 // [U] seconds since the first turn's time; empty if untimed
  std::vector<int> customer_units;          // indices of customer units, in order
  std::vector<float> mention_intensity;     // [M] per Prepared::mentions
  bool any_expressed = false;
  float max_intensity = 0.0f;
};

// Hashed n-grams of a unit (ids = fnv1a64 % buckets, util/hash.h): every token's normalized form
// (tokenize.h) and every pair of adjacent non-punctuation tokens (CJK tokens are single characters, so
// this is character unigrams + bigrams for Chinese and words + word bigrams for English).
// buckets must be >= 1. The text form tokenizes as prepare() does (Prepared::unit_tokens).
std::vector<std::int32_t> hashed_ngrams(const std::vector<text::Token>& tokens, int buckets);
std::vector<std::int32_t> hashed_ngrams(std::string_view text, int buckets);

// Times must all be present (every turn timed) to be used; a dialogue with some untimed turns is
// treated as untimed (has_time = 0) rather than inventing times.
UnitFeatures compute_features(const Prepared& dialogue, int buckets);

}  // namespace kessel::summarize
