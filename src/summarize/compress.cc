#include "summarize/compress.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <initializer_list>
#include <iterator>
#include <string_view>
#include <utility>

#include "kessel/error.h"
#include "kessel/text/rouge.h"
#include "kessel/text/utf8.h"
#include "summarize/compress_zh.h"
#include "summarize/eaca_features.h"
#include "util/splitmix.h"
#include "util/string_ids.h"

namespace kessel::summarize {

namespace {

// The form a token's features name it by: its normalized text, or one class for every number.
std::string_view form_of(const text::Token& t) {
  if (t.kind == text::TokenKind::number) return "<num>";
  return t.lower.empty() ? std::string_view(t.text) : std::string_view(t.lower);
}

// Small integer buckets for counts and lengths.
int bucket_count(int n) { return n <= 2 ? n : (n <= 5 ? 3 : 4); }

// A small integer's decimal digits as std::to_string writes them, without a heap string.
class Decimal {
 public:
  // One digit, nearly every value a feature takes (six a token), is written in line: to_chars is a call.
  explicit Decimal(int v) {
    if (v >= 0 && v <= 9) {
      buf_[0] = static_cast<char>('0' + v);
      n_ = 1;
    } else {
      n_ = static_cast<std::size_t>(std::to_chars(buf_, buf_ + sizeof buf_, v).ptr - buf_);
    }
  }
  std::string_view view() const { return {buf_, n_}; }

 private:
  char buf_[12];
  std::size_t n_;
};

// The bucket of a feature written as its parts: fnv1a64 of the parts joined, which is fnv1a64 of
// each part in turn, each seeded with the hash so far, so no joined string is built.
std::int32_t feature_id(std::initializer_list<std::string_view> parts, std::uint64_t seed, std::uint64_t buckets) {
  std::uint64_t h = seed;
  for (std::string_view part : parts) h = fnv1a64(part, h);
  return static_cast<std::int32_t>(bucket_of(h, buckets));
}

// Each token feature's hash state after its constant prefix: "t|", "pt|", ..., and for the speaker's
// features "st|C|" and "pos|C|" (or A). A token's ids start from these, so that the ~40 constant
// bytes of its twelve features are hashed once a unit instead of once a token (fnv1a64 is a chain
// of one multiply a byte).
struct FeaturePrefixes {
  std::uint64_t t, pt, tn, ppt, tnn, pn, st, pos, own, oth, tot;
  FeaturePrefixes(std::uint64_t seed, std::string_view spk)
      : t(fnv1a64("t|", seed)),
        pt(fnv1a64("pt|", seed)),
        tn(fnv1a64("tn|", seed)),
        ppt(fnv1a64("ppt|", seed)),
        tnn(fnv1a64("tnn|", seed)),
        pn(fnv1a64("pn|", seed)),
        st(fnv1a64("|", fnv1a64(spk, fnv1a64("st|", seed)))),
        pos(fnv1a64("|", fnv1a64(spk, fnv1a64("pos|", seed)))),
        own(fnv1a64("own|", seed)),
        oth(fnv1a64("oth|", seed)),
        tot(fnv1a64("tot|", seed)) {}
};

// The clause around an emotion mention (tokens [first, last) of it) stays whole: the customer's
// feeling is read in their own words (你们的服务太垃圾了, not 服务太垃圾了; 怎么还是发货了, not
// 怎么发货了), and the readers who labelled the strongest emotions labelled clauses. A clause ends at
// punctuation.
void force_clause(UnitTokens& ut, std::size_t first, std::size_t last) {
  const auto is_break = [&](std::size_t i) { return ut.tokens[i].kind == text::TokenKind::punct; };
  for (std::size_t i = first; i > 0 && !is_break(i - 1); --i) ut.forced[i - 1] = 1;
  for (std::size_t i = last; i < ut.tokens.size() && !is_break(i); ++i) ut.forced[i] = 1;
}

}  // namespace

std::vector<UnitTokens> unit_tokens(const Prepared& p) {
  KESSEL_CHECK_ARG(p.unit_tokens.size() == p.units.size(), "unit_tokens: Prepared has ", p.unit_tokens.size(),
                   " unit token lists for ", p.units.size(), " units (build it with prepare())");
  std::vector<UnitTokens> out(p.units.size());
  for (std::size_t u = 0; u < p.units.size(); ++u) {
    out[u].tokens = p.unit_tokens[u];
    out[u].forced.assign(out[u].tokens.size(), 0);
    out[u].guarded.assign(out[u].tokens.size(), 0);
    if (u < p.unit_token_words.size()) out[u].words = p.unit_token_words[u];
    if (p.lang == Lang::zh) out[u].guarded = meaning_guards(out[u].tokens, out[u].words, p.units[u].speaker == text::Speaker::customer);
  }
  // Expressed customer emotion mentions: their clauses stay (force_clause). Tokens are in text order, so the ones a
  // mention overlaps start at the first that ends after it starts (one linear scan per mention was
  // quadratic on a turn with thousands of mentions).
  for (std::size_t m = 0; m < p.mentions.size(); ++m) {
    const int u = p.mention_unit[m];
    if (u < 0 || !p.mentions[m].expressed) continue;
    const Unit& unit = p.units[static_cast<std::size_t>(u)];
    if (unit.byte_start < 0) continue;
    UnitTokens& ut = out[static_cast<std::size_t>(u)];
    const std::int64_t s = p.mentions[m].byte_start - unit.byte_start;
    const std::int64_t e = p.mentions[m].byte_end - unit.byte_start;
    const auto first = std::partition_point(ut.tokens.begin(), ut.tokens.end(),
                                            [&](const text::Token& t) { return t.byte_end <= s; });
    auto last = first;
    for (; last != ut.tokens.end() && last->byte_start < e; ++last)
      ut.forced[static_cast<std::size_t>(last - ut.tokens.begin())] = 1;
    if (p.lang == Lang::zh)  // English has no learned deletion, and its mention keeps its spelling
      force_clause(ut, static_cast<std::size_t>(first - ut.tokens.begin()),
                   static_cast<std::size_t>(last - ut.tokens.begin()));
  }
  if (p.lang == Lang::en) mark_vocatives(p, out);
  return out;
}

std::vector<UnitTokens> compress_features(const Prepared& p, int buckets) {
  KESSEL_CHECK_ARG(buckets >= 1, "compress_features: buckets must be >= 1, got ", buckets);
  const auto B = static_cast<std::uint64_t>(buckets);
  const std::uint64_t seed = fnv1a64("compress");
  std::vector<UnitTokens> out = unit_tokens(p);
  // Dialogue-level context: in how many units each form occurs, per speaker. Forms are numbered in
  // the dialogue, so that each token's counts are an index away.
  std::size_t tokens = 0;
  for (const auto& ut : out) tokens += ut.tokens.size();
  util::StringIds form_ids(tokens);
  std::vector<std::vector<int>> token_forms(p.units.size());
  std::vector<int> customer_units, agent_units;  // by form id
  std::vector<int> last_unit;                    // by form id: the last unit it occurred in
  for (std::size_t u = 0; u < p.units.size(); ++u) {
    std::vector<int>& ids = token_forms[u];
    ids.reserve(out[u].tokens.size());
    for (const auto& t : out[u].tokens) {
      ids.push_back(form_ids.insert(form_of(t)).first);
    }
    customer_units.resize(form_ids.size(), 0);
    agent_units.resize(form_ids.size(), 0);
    last_unit.resize(form_ids.size(), -1);
    auto& count = p.units[u].speaker == text::Speaker::customer ? customer_units : agent_units;
    for (int f : ids) {  // each form once a unit, without a sorted copy of the unit's ids
      const auto at = static_cast<std::size_t>(f);
      if (last_unit[at] == static_cast<int>(u)) continue;
      last_unit[at] = static_cast<int>(u);
      count[at] += 1;
    }
  }
  // The features of each token, as the strings tests/cpp/summarize/compress_test.cc spells out
  // (plain_compress_features, which these ids are checked against).
  for (std::size_t u = 0; u < p.units.size(); ++u) {
    const Unit& unit = p.units[u];
    UnitTokens& ut = out[u];
    const auto& toks = ut.tokens;
    const int T = static_cast<int>(toks.size());
    const bool customer = unit.speaker == text::Speaker::customer;
    const std::string_view spk = customer ? "C" : "A";
    const Decimal len(std::min(unit.chars / 4, 10));
    const std::int32_t len_id = feature_id({"len|", spk, "|", len.view()}, seed, B);  // the same for the unit's tokens
    const FeaturePrefixes prefixes(seed, spk);
    ut.features.reserve(toks.size() * kCompressFeatures);
    auto form = [&](int i) -> std::string_view {
      if (i < 0) return "^";
      if (i >= T) return "$";
      return form_of(toks[static_cast<std::size_t>(i)]);
    };
    for (int i = 0; i < T; ++i) {
      const std::string_view t = form(i), pv = form(i - 1), nx = form(i + 1), pv2 = form(i - 2), nx2 = form(i + 2);
      const auto f = static_cast<std::size_t>(token_forms[u][static_cast<std::size_t>(i)]);
      const int own = (customer ? customer_units[f] : agent_units[f]) - 1;  // other units of the same speaker
      const int other = customer ? agent_units[f] : customer_units[f];      // units of the other speaker
      const std::string_view kind = text::to_string(toks[static_cast<std::size_t>(i)].kind);
      const Decimal rel(T > 1 ? (4 * i) / T : 0), first(i == 0), last(i == T - 1);
      const Decimal own_bucket(bucket_count(std::max(0, own))), other_bucket(bucket_count(other));
      const Decimal seen_elsewhere(std::min(1, own + other));
      const FeaturePrefixes& h = prefixes;
      const std::int32_t ids[] = {
          feature_id({t}, h.t, B),                                             // "t|" t
          feature_id({pv, "|", t}, h.pt, B),                                   // "pt|" pv "|" t
          feature_id({t, "|", nx}, h.tn, B),                                   // "tn|" ...
          feature_id({pv2, "|", pv, "|", t}, h.ppt, B),                        // "ppt|" ...
          feature_id({t, "|", nx, "|", nx2}, h.tnn, B),                        // "tnn|" ...
          feature_id({pv, "|", nx}, h.pn, B),                                  // "pn|" ...
          feature_id({t}, h.st, B),                                            // "st|" spk "|" t
          feature_id({rel.view(), "|", first.view(), last.view()}, h.pos, B),  // "pos|" spk "|" ...
          len_id,
          feature_id({kind, "|", own_bucket.view()}, h.own, B),     // "own|" ...
          feature_id({kind, "|", other_bucket.view()}, h.oth, B),   // "oth|" ...
          feature_id({t, "|", seen_elsewhere.view()}, h.tot, B),    // "tot|" ...
      };
      static_assert(std::size(ids) == kCompressFeatures);
      ut.features.insert(ut.features.end(), std::begin(ids), std::end(ids));
    }
  }
  return out;
}

std::vector<float> keep_probabilities(const UnitTokens& unit, const std::vector<float>& weights) {
  KESSEL_CHECK_ARG(!weights.empty(), "keep_probabilities: no weights");
  KESSEL_CHECK_ARG(unit.features.size() % kCompressFeatures == 0, "keep_probabilities: ", unit.features.size(),
                   " feature ids is not ", kCompressFeatures, " per token");
  const float bias = weights.back();
  const auto B = static_cast<std::int32_t>(weights.size() - 1);
  const std::size_t T = unit.features.size() / kCompressFeatures;
  std::vector<float> out;
  out.reserve(T);
  for (std::size_t t = 0; t < T; ++t) {
    float z = bias;
    for (std::int32_t id : unit.features_of(t)) {
      KESSEL_CHECK_ARG(id >= 0 && id < B, "keep_probabilities: feature id ", id, " outside [0, ", B, ")");
      z += weights[static_cast<std::size_t>(id)];
    }
    out.push_back(1.0f / (1.0f + std::exp(-z)));
  }
  return out;
}

namespace {

// A clause separator that reads wrong right before a question mark: , ; : and their full-width forms.
bool separates(const text::Token& t) {
  return t.kind == text::TokenKind::punct &&
         (spells(t, ",") || spells(t, ";") || spells(t, ":") || spells(t, "，") || spells(t, "；") || spells(t, "："));
}

// Whether a punctuation token opens what follows it (a bracket or an opening quote), so that it may
// lead a text: "“Create similar playlist” doesn't work", "(and related costs)".
bool opens(const text::Token& t) {
  static constexpr std::u32string_view kOpening = U"([{\"'“‘«「『《（【〈＜〔";
  std::size_t at = 0;
  return !t.text.empty() && kOpening.find(text::next_code_point(t.text, &at)) != std::u32string_view::npos;
}

}  // namespace

std::string rebuild(const Unit& unit, std::span<const text::Token> tokens, const std::vector<char>& keep,
                    const std::vector<std::string>* forms) {
  std::string out;
  std::int64_t last_end = -1;
  bool content = false;
  bool any_kept = false, last_punct = false;
  std::size_t last_kept = 0;
  for (std::size_t i = 0; i < tokens.size(); ++i) {
    if (!keep[i]) continue;
    const auto& t = tokens[i];
    const bool punct = t.kind == text::TokenKind::punct;
    // A question mark is never dropped as doubled punctuation: it is what makes the sentence ask.
    const bool asks = punct && (t.text.find('?') != std::string::npos || t.text.find("？") != std::string::npos);
    if (punct && !asks && (any_kept ? last_punct && i != last_kept + 1 : !opens(t))) continue;
    if (asks && last_punct && any_kept && i != last_kept + 1 &&
        (opens(tokens[last_kept]) || separates(tokens[last_kept]))) {
      // "handle(@573230)?" without the handle: the bracket that opened it goes, the "?" stays; so does
      // the comma before a dropped vocative ("What gives, @AppleSupport?" -> "What gives?").
      const auto& before = tokens[last_kept];
      out.resize(out.size() - static_cast<std::size_t>(before.byte_end - before.byte_start));
      while (!out.empty() && out.back() == ' ') out.pop_back();
      last_end = -1;
    }
    // A closing mark after dropped words closes up on the word before them ("closed tonight I'm
    // afraid." -> "closed tonight.", not "closed tonight .").
    const bool closes_up = punct && !opens(t) && any_kept && i != last_kept + 1;
    any_kept = true;
    last_punct = punct;
    last_kept = i;
    if (last_end >= 0 && !closes_up) {
      const std::string_view gap(unit.text.data() + last_end, static_cast<std::size_t>(t.byte_start - last_end));
      if (gap.find_first_of(" \t\n\r") != std::string_view::npos) out += ' ';
    }
    if (forms != nullptr && !(*forms)[i].empty())
      out += (*forms)[i];
    else
      out.append(unit.text, static_cast<std::size_t>(t.byte_start), static_cast<std::size_t>(t.byte_end - t.byte_start));
    last_end = t.byte_end;
    content = content || !text::is_punctuation(t);
  }
  return content ? out : unit.text;
}

std::string compress_unit(const Unit& unit, const UnitTokens& tokens, const std::vector<float>& weights,
                          float threshold) {
  if (threshold <= 0.0f || tokens.tokens.empty()) return unit.text;
  const std::vector<float> p = keep_probabilities(tokens, weights);
  std::vector<char> keep = word_keep(tokens, p, threshold);
  mend_deletion(tokens, keep);
  // A unit cut down to one character ("好的" -> "的", "请问" -> "问") says nothing a reader can use,
  // though the character may well be on the reference's LCS: it is not offered at all (an empty
  // text, which the decoder never selects), unless that character is an emotion the customer
  // expressed (an emoji), which keeps its whole unit.
  std::size_t kept_chars = 0;
  bool forced = false;
  for (std::size_t i = 0; i < p.size(); ++i)
    if (keep[i] && !text::is_punctuation(tokens.tokens[i])) {
      kept_chars += static_cast<std::size_t>(tokens.tokens[i].char_end - tokens.tokens[i].char_start);
      forced = forced || tokens.forced[i];
    }
  if (kept_chars == 1 && unit.chars > 1) return forced ? unit.text : std::string();
  return rebuild(unit, tokens.tokens, keep);
}

std::vector<float> keep_targets(const UnitTokens& unit, const std::vector<std::string>& references) {
  // The unit's code points (as ids) and how many each token has.
  std::vector<int> a;
  std::vector<std::size_t> sizes;
  for (const auto& t : unit.tokens) {
    const auto cps = text::decode_utf8(t.text, text::Utf8Mode::lossy).cps;
    a.insert(a.end(), cps.begin(), cps.end());
    sizes.push_back(cps.size());
  }
  std::vector<char> hits(a.size(), 0);  // on some reference sentence's LCS
  for (const auto& ref : references) {
    for (const auto& sentence : text::rouge_tokens_zh(ref, text::ZhSplit::period)) {
      std::vector<int> b;
      for (const auto& tok : sentence) {
        const auto cps = text::decode_utf8(tok, text::Utf8Mode::lossy).cps;
        b.insert(b.end(), cps.begin(), cps.end());
      }
      text::lcs_positions(a, b, &hits);
    }
  }
  std::vector<float> y;
  std::size_t pos = 0;
  for (std::size_t n : sizes) {
    int on = 0;
    for (std::size_t i = 0; i < n; ++i) on += hits[pos + i];
    y.push_back(2 * on >= static_cast<int>(n) && n > 0 ? 1.0f : 0.0f);
    pos += n;
  }
  return y;
}

std::vector<float> train_compressor(const std::vector<KeepExample>& examples, int buckets,
                                    const CompressTrainOptions& o) {
  KESSEL_CHECK_ARG(buckets >= 1, "train_compressor: buckets must be >= 1, got ", buckets);
  KESSEL_CHECK_ARG(o.epochs >= 1 && o.lr > 0.0f && o.l2 >= 0.0f, "train_compressor: epochs ", o.epochs,
                   ", lr ", o.lr, ", l2 ", o.l2, " out of range");
  const std::size_t B = static_cast<std::size_t>(buckets);
  std::vector<float> w(B + 1, 0.0f);
  std::vector<float> g2(B + 1, 1e-6f);  // AdaGrad accumulators
  std::vector<std::size_t> order(examples.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::uint64_t rng = o.seed ^ 0xc0ffee;
  for (int epoch = 0; epoch < o.epochs; ++epoch) {
    shuffle_splitmix(order, rng);
    for (std::size_t k : order) {
      const KeepExample& ex = examples[k];
      float z = w[B];
      for (std::int32_t id : ex.features) z += w[static_cast<std::size_t>(id)];
      const float g = 1.0f / (1.0f + std::exp(-z)) - ex.target;  // d BCE / d z
      auto update = [&](std::size_t j) {
        const float gj = g + o.l2 * w[j];
        g2[j] += gj * gj;
        w[j] -= o.lr * gj / std::sqrt(g2[j]);
      };
      update(B);
      for (std::int32_t id : ex.features) update(static_cast<std::size_t>(id));
    }
  }
  return w;
}

}  // namespace kessel::summarize
