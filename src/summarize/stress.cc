// kessel stress: the seed's four stress tests (include/kessel/summarize/stress.h says what each
// measures and why its pass condition is the one it is).
#include "kessel/summarize/stress.h"

#include <sys/resource.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <memory>

#include "kessel/attention.h"
#include "kessel/attention_choice.h"
#include "kessel/cpu.h"
#include "kessel/error.h"
#include "kessel/summarize/eaca.h"
#include "kessel/text/utf8.h"
#include "summarize/eaca_features.h"
#include "util/hash.h"
#include "util/splitmix.h"
#include "util/timer.h"

namespace kessel::summarize {

namespace {

double peak_rss_mb() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return static_cast<double>(usage.ru_maxrss) / 1024.0;  // Linux reports KiB
}

text::Turn make_turn(text::Speaker speaker, const std::string& text,
                     std::optional<double> time = std::nullopt) {
  text::Turn t;
  t.speaker = speaker;
  t.text = text;
  t.time = time;
  t.sentences = text::split_sentences(text);
  return t;
}

long code_points(const std::string& s) {
  return static_cast<long>(text::decode_utf8(s, text::Utf8Mode::lossy).size());
}

// What is wrong with one summarized dialogue, in words; empty when nothing is.
std::string check_summarized(const Summarized& r, const Scorer& scorer) {
  std::string problems;
  auto add = [&](const std::string& what) { problems += (problems.empty() ? "" : "; ") + what; };
  for (float s : r.scores.salience)
    if (!std::isfinite(s)) {
      add("a non-finite salience");
      break;
    }
  for (float s : r.scores.inclusion)
    if (!std::isfinite(s) || s < 0.0f || s > 1.0f) {
      add("an inclusion probability outside [0, 1]");
      break;
    }
  if (r.scores.has_emotion >= 0.0f && !(r.scores.has_emotion <= 1.0f))
    add("has_emotion outside [0, 1]");
  if (!r.prepared.units.empty() && r.summary.sentences.empty()) add("an empty summary");
  if (!r.summary.constraint_satisfied) add("the emotion constraint not kept");
  const auto& turns = r.prepared.dialogue->turns;
  for (const auto& e : r.summary.emotions) {
    const bool in_range = e.turn >= 0 && e.turn < static_cast<int>(turns.size()) && e.start >= 0 &&
                          e.start < e.end &&
                          e.end <= code_points(turns[static_cast<std::size_t>(e.turn)].text);
    if (!in_range) {
      add("an emotion offset outside its turn");
      break;
    }
  }
  for (const auto& m : r.prepared.mentions)
    if (!(std::hypot(m.wheel.x, m.wheel.y) <= 1.0f + 1e-5f)) {
      add("a wheel coordinate outside the unit circle");
      break;
    }
  // EACA's inputs, which the scores alone would not show: every dense feature within [-1, 1] (the
  // log length within [0, kMaxLogLength]), the keys' wheel columns inside the unit circle, the
  // times finite.
  if (const auto* model = dynamic_cast<const EacaModel*>(&scorer)) {
    const UnitFeatures f = compute_features(r.prepared, model->config().hash_buckets);
    for (std::size_t i = 0; i < f.dense.size(); ++i) {
      const int column = static_cast<int>(i % kNumDenseFeatures);
      const float bound = column == kLogLength ? kMaxLogLength : 1.0f;
      if (!(std::fabs(f.dense[i]) <= bound + 1e-6f)) {
        add("EACA dense feature " + std::to_string(column) + " = " + std::to_string(f.dense[i]) +
            ", outside [-" + std::to_string(bound) + ", " + std::to_string(bound) + "]");
        break;
      }
    }
    for (std::size_t u = 0; u + 1 < f.wheel.size(); u += 2)
      if (!(std::hypot(f.wheel[u], f.wheel[u + 1]) <= 1.0f + 1e-5f)) {
        add("an EACA key wheel coordinate outside the unit circle");
        break;
      }
    for (float t : f.times)
      if (!std::isfinite(t)) {
        add("a non-finite EACA time");
        break;
      }
  }
  return problems;
}

// Mean normalized entropy, entropy in bits and largest weight over the rows of a map.
struct MapSpread {
  double entropy_norm = -1.0, entropy_bits = -1.0, max_weight = -1.0;
};
MapSpread spread_of(const AttentionMap& map) {
  MapSpread out;
  if (map.weights.size() == 0) return out;
  const Index rows = map.weights.dim(0), cols = map.weights.dim(1);
  double sum_norm = 0.0, sum_bits = 0.0, sum_max = 0.0;
  Index counted = 0;
  for (Index r = 0; r < rows; ++r) {
    const float* w = map.weights.data() + r * cols;
    double h = 0.0, top = 0.0;
    Index n = 0;
    for (Index c = 0; c < cols; ++c)
      if (w[c] > 0.0f) {
        h -= static_cast<double>(w[c]) * std::log(static_cast<double>(w[c]));
        top = std::max(top, static_cast<double>(w[c]));
        ++n;
      }
    if (n < 2) continue;  // a row that sees one key (or none) has no spread to measure
    sum_norm += h / std::log(static_cast<double>(n));
    sum_bits += h / std::log(2.0);
    sum_max += top;
    ++counted;
  }
  if (counted == 0) return out;
  out.entropy_norm = sum_norm / static_cast<double>(counted);
  out.entropy_bits = sum_bits / static_cast<double>(counted);
  out.max_weight = sum_max / static_cast<double>(counted);
  return out;
}

// Times `summarizer` on `dialogue` (median of runs until options' time or count is reached).
double median_run_ms(const text::Dialogue& dialogue, const text::Lexicon& lexicon, const Summarizer& summarizer,
                     const StressOptions& options, Summarized& last) {
  std::vector<double> ms;
  Timer total;
  do {
    Timer t;
    last = summarizer.run(dialogue, lexicon);
    ms.push_back(t.milliseconds());
  } while (static_cast<int>(ms.size()) < std::max(1, options.max_repeats) &&
           total.seconds() < options.min_seconds);
  std::sort(ms.begin(), ms.end());
  return ms[ms.size() / 2];
}

// A row whose EACA attention took chunk-and-bridge by the length-based choice, against the same model
// with full attention forced (LengthRow::full_*).
void compare_with_full_attention(LengthRow& row, const text::Dialogue& dialogue, const Summarized& chunked,
                                 const text::Lexicon& lexicon, const Summarizer& summarizer,
                                 const StressOptions& options) {
  const auto* model = dynamic_cast<const EacaModel*>(summarizer.scorer.get());
  if (model == nullptr || model->attention_kernel() != AttentionKernel::kAuto ||
      row.attention_kernel.rfind("chunk_bridge", 0) != 0)
    return;
  auto full_model = std::make_unique<EacaModel>(*model);
  full_model->set_attention_kernel(AttentionKernel::kFused);
  const Summarizer full{std::move(full_model), summarizer.decode};
  Summarized last;
  row.full_ms = median_run_ms(dialogue, lexicon, full, options, last);
  std::vector<char> in_a(chunked.prepared.units.size(), 0), in_b(in_a.size(), 0);
  for (const auto& s : chunked.summary.sentences) in_a[static_cast<std::size_t>(s.unit)] = 1;
  for (const auto& s : last.summary.sentences) in_b[static_cast<std::size_t>(s.unit)] = 1;
  int both = 0, either = 0;
  for (std::size_t u = 0; u < in_a.size(); ++u) {
    both += in_a[u] && in_b[u];
    either += in_a[u] || in_b[u];
  }
  row.full_summary_jaccard = either == 0 ? 1.0 : static_cast<double>(both) / either;
  row.full_max_inclusion_diff = 0.0;
  for (std::size_t u = 0; u < chunked.scores.inclusion.size() && u < last.scores.inclusion.size(); ++u)
    row.full_max_inclusion_diff = std::max(
        row.full_max_inclusion_diff, std::fabs(static_cast<double>(chunked.scores.inclusion[u]) - last.scores.inclusion[u]));
}

LengthRow run_length(const std::vector<text::Dialogue>& base, int requested,
                     const text::Lexicon& lexicon, const Summarizer& summarizer,
                     const StressOptions& options) {
  LengthRow row;
  row.requested = requested;
  const text::Dialogue dialogue = build_long_dialogue(base, requested, &row.repeated);
  Summarized last;
  row.ms = median_run_ms(dialogue, lexicon, summarizer, options, last);
  row.attention_kernel = last.scores.attention_kernel;
  row.units = static_cast<int>(last.prepared.units.size());
  row.us_per_unit = 1e3 * row.ms / std::max(1, row.units);
  row.summary_units = static_cast<int>(last.summary.sentences.size());
  row.problems = check_summarized(last, *summarizer.scorer);
  const AttentionMap map = summarizer.scorer->attention_map(last.prepared);
  row.queries = static_cast<int>(map.queries.size());
  const MapSpread spread = spread_of(map);
  row.entropy_norm = spread.entropy_norm;
  row.entropy_bits = spread.entropy_bits;
  row.max_weight = spread.max_weight;
  row.peak_rss_mb = peak_rss_mb();
  compare_with_full_attention(row, dialogue, last, lexicon, summarizer, options);
  return row;
}

DensityRow run_density(const std::vector<text::Dialogue>& base, double target,
                       const text::Lexicon& lexicon, const Summarizer& summarizer) {
  DensityRow row;
  row.target = target;
  std::size_t customer_units = 0, emotional_units = 0, with_emotion = 0, satisfied = 0, bound = 0;
  double kept = 0.0, summary_units = 0.0, emotional_share = 0.0;
  for (const auto& d : base) {
    const text::Dialogue injected = inject_emotions(d, target);
    const Summarized r = summarizer.run(injected, lexicon);
    const Prepared& p = r.prepared;
    std::vector<char> unit_has(p.units.size(), 0);
    for (std::size_t m = 0; m < p.mentions.size(); ++m)
      if (p.mentions[m].expressed) unit_has[static_cast<std::size_t>(p.mention_unit[m])] = 1;
    for (std::size_t u = 0; u < p.units.size(); ++u)
      if (p.units[u].speaker == text::Speaker::customer) {
        ++customer_units;
        emotional_units += static_cast<std::size_t>(unit_has[u]);
      }
    if (p.customer_expressed_emotion()) {
      ++with_emotion;
      satisfied += r.summary.constraint_satisfied ? 1 : 0;
    }
    bound += r.summary.constraint_bound ? 1 : 0;
    for (const auto& e : r.summary.emotions) kept += e.in_summary ? 1.0 : 0.0;
    summary_units += static_cast<double>(r.summary.sentences.size());
    std::size_t customer_selected = 0, emotional_selected = 0;
    for (const auto& s : r.summary.sentences)
      if (p.units[static_cast<std::size_t>(s.unit)].speaker == text::Speaker::customer) {
        ++customer_selected;
        emotional_selected += static_cast<std::size_t>(unit_has[static_cast<std::size_t>(s.unit)]);
      }
    if (customer_selected > 0)
      emotional_share +=
          static_cast<double>(emotional_selected) / static_cast<double>(customer_selected);
  }
  const double n = static_cast<double>(std::max<std::size_t>(1, base.size()));
  row.density = static_cast<double>(emotional_units) /
                static_cast<double>(std::max<std::size_t>(1, customer_units));
  row.with_emotion = static_cast<double>(with_emotion) / n;
  row.satisfied =
      with_emotion ? static_cast<double>(satisfied) / static_cast<double>(with_emotion) : 1.0;
  row.bound = static_cast<double>(bound) / n;
  row.kept_mentions = kept / n;
  row.summary_units = summary_units / n;
  row.emotional_summary_units = emotional_share / n;
  return row;
}

// EACA-shaped engine problems: Q queries over U keys, D = 18 (the EACA query/key width with its two
// wheel columns), Dv = 64, a key boost; random inputs from a fixed seed.
KernelRow run_kernels(int keys, int queries, int threads) {
  KernelRow row;
  row.keys = keys;
  row.queries = std::max(1, queries);
  row.dim = 18;
  const Index Q = row.queries, U = keys, D = row.dim, Dv = 64;
  std::uint64_t state = 0x5eed0000ull + static_cast<std::uint64_t>(keys);
  auto uniform = [&] {
    return static_cast<float>(splitmix64(state) >> 40) / static_cast<float>(1 << 24) * 2.0f - 1.0f;
  };
  std::vector<float> q(static_cast<std::size_t>(Q * D)), k(static_cast<std::size_t>(U * D)),
      v(static_cast<std::size_t>(U * Dv)), boost(static_cast<std::size_t>(U));
  for (auto* x : {&q, &k, &v})
    for (float& e : *x) e = uniform();
  for (float& b : boost) b = 0.5f * (uniform() + 1.0f);
  AttentionInputs in;
  in.B = in.H = 1;
  in.Lq = Q, in.Lk = U, in.D = D, in.Dv = Dv;
  in.q = q.data(), in.k = k.data(), in.v = v.data();
  in.key_boost = boost.data();
  AttentionSpec fused;
  fused.threads = 1;
  AttentionSpec many = fused;
  many.threads = std::max(1, threads);
  AttentionSpec reference = fused;
  reference.impl = AttentionImpl::kReference;

  std::vector<float> out_f(static_cast<std::size_t>(Q * Dv)), out_m(out_f.size()),
      out_r(out_f.size());
  Timer t;
  attention_forward(out_f.data(), nullptr, in, fused);
  row.fused_ms = t.milliseconds();
  t.reset();
  attention_forward(out_r.data(), nullptr, in, reference);
  row.reference_ms = t.milliseconds();
  attention_forward(out_m.data(), nullptr, in, many);
  std::vector<float> w_f(static_cast<std::size_t>(Q * U)), w_m(w_f.size()), w_r(w_f.size());
  attention_weights(w_f.data(), in, fused);
  attention_weights(w_m.data(), in, many);
  attention_weights(w_r.data(), in, reference);
  for (std::size_t i = 0; i < out_f.size(); ++i)
    row.max_diff_output =
        std::max(row.max_diff_output, static_cast<double>(std::fabs(out_f[i] - out_r[i])));
  for (std::size_t i = 0; i < w_f.size(); ++i)
    row.max_diff_weights =
        std::max(row.max_diff_weights, static_cast<double>(std::fabs(w_f[i] - w_r[i])));
  row.threads_identical =
      std::memcmp(out_f.data(), out_m.data(), out_f.size() * sizeof(float)) == 0 &&
      std::memcmp(w_f.data(), w_m.data(), w_f.size() * sizeof(float)) == 0;
  return row;
}

// Least-squares slope and R^2 of y on x; R^2 = 1 when y does not vary.
std::pair<double, double> fit_line(const std::vector<double>& x, const std::vector<double>& y) {
  const double n = static_cast<double>(x.size());
  if (x.size() < 2) return {0.0, 1.0};
  double mx = 0, my = 0;
  for (std::size_t i = 0; i < x.size(); ++i) mx += x[i] / n, my += y[i] / n;
  double sxx = 0, sxy = 0, syy = 0;
  for (std::size_t i = 0; i < x.size(); ++i) {
    sxx += (x[i] - mx) * (x[i] - mx);
    sxy += (x[i] - mx) * (y[i] - my);
    syy += (y[i] - my) * (y[i] - my);
  }
  if (sxx <= 0.0) return {0.0, 1.0};
  const double slope = sxy / sxx;
  return {slope, syy <= 0.0 ? 1.0 : (sxy * sxy) / (sxx * syy)};
}

constexpr double kGolden = 0.6180339887498949;

}  // namespace

bool StressReport::passed() const {
  const bool lengths_ok = std::all_of(lengths.begin(), lengths.end(),
                                      [](const LengthRow& r) { return r.problems.empty(); });
  const bool modality_ok =
      std::all_of(modality.begin(), modality.end(), [](const ModalityCase& c) { return c.ok; });
  return lengths_ok && length_entropy_ok && modality_ok && density_ok && kernels_ok;
}

text::Dialogue build_long_dialogue(const std::vector<text::Dialogue>& base, int units,
                                   bool* repeated) {
  KESSEL_CHECK_ARG(units >= 1, "stress: a length must be at least 1 unit, got ", units);
  text::Dialogue out;
  out.id = "stress-" + std::to_string(units);
  int have = 0;
  bool any = false;
  if (repeated) *repeated = false;
  for (int pass = 0; have < units; ++pass) {
    if (repeated && pass > 0) *repeated = true;
    for (const auto& d : base) {
      for (const auto& turn : d.turns) {
        if (turn.sentences.empty()) continue;
        any = true;
        text::Turn t = turn;
        t.time.reset();
        have += static_cast<int>(t.sentences.size());
        out.turns.push_back(std::move(t));
        if (have >= units) return out;
      }
    }
    KESSEL_CHECK_ARG(any, "stress: the base dialogues have no turn with a sentence to build from");
  }
  return out;
}

text::Dialogue inject_emotions(const text::Dialogue& dialogue, double share) {
  // Strong, unambiguous terms of the default lexicon (docs/text.md), each counted as expressed.
  static const std::vector<std::string> kZh = {"气死我了", "太失望了", "😡", "无语"};
  static const std::vector<std::string> kEn = {"so disappointed", "this is ridiculous", "😡", "ugh"};
  const bool zh = detect_lang(dialogue) == Lang::zh;
  const auto& phrases = zh ? kZh : kEn;
  text::Dialogue out = dialogue;
  // The sequence starts at a point drawn from the dialogue's id, so that across dialogues every
  // customer unit, the first included, is chosen with probability `share`.
  const double offset = static_cast<double>(fnv1a64(dialogue.id) >> 11) * 0x1.0p-53;
  long k = 0;
  for (auto& turn : out.turns) {
    if (turn.speaker != text::Speaker::customer) continue;
    bool changed = false;
    for (auto& sentence : turn.sentences) {
      const double position = std::fmod(offset + static_cast<double>(k) * kGolden, 1.0);
      const std::string& phrase = phrases[static_cast<std::size_t>(k) % phrases.size()];
      ++k;
      if (position >= share) continue;
      // The phrase goes before the sentence's closing punctuation: 我的快递还没到，气死我了。
      const std::vector<char32_t> cps = text::decode_utf8(sentence, text::Utf8Mode::lossy).cps;
      std::size_t end = cps.size();
      auto closing = [](char32_t c) {
        return c == U'。' || c == U'！' || c == U'？' || c == U'!' || c == U'?' || c == U'.' ||
               c == U'…' || c == U' ';
      };
      while (end > 0 && closing(cps[end - 1])) --end;
      const std::string head = text::encode_utf8(cps.data(), end);
      const std::string tail = text::encode_utf8(cps.data() + end, cps.size() - end);
      const bool emoji = phrase == "😡";
      sentence = head + (emoji ? (zh ? "" : " ") : (zh ? "，" : ", ")) + phrase + tail;
      changed = true;
    }
    if (!changed) continue;
    turn.text.clear();
    for (const auto& s : turn.sentences) turn.text += (turn.text.empty() || zh ? "" : " ") + s;
  }
  return out;
}

std::vector<std::pair<ModalityCase, text::Dialogue>> modality_dialogues(const std::string& lang) {
  KESSEL_CHECK_ARG(lang == "zh" || lang == "en", "stress: language must be zh or en, got '", lang,
                   "'");
  const bool zh = lang == "zh";
  const std::string ask =
      zh ? "我的快递三天了还没到，气死我了。" : "My package is three days late and I am furious.";
  const std::string reply =
      zh ? "非常抱歉，我马上为您查询。" : "Sorry about that, we are checking it now.";
  const std::string follow = zh ? "好的，请尽快处理。" : "Ok, please sort it out quickly.";
  const std::string word = zh ? "退款" : "refund";
  using text::Speaker;
  std::vector<std::pair<ModalityCase, text::Dialogue>> out;
  auto add = [&](const std::string& name, const std::string& what, std::vector<text::Turn> turns) {
    text::Dialogue d;
    d.id = "stress-" + name;
    d.turns = std::move(turns);
    ModalityCase c;
    c.name = name;
    c.what = what;
    out.emplace_back(std::move(c), std::move(d));
  };
  const std::vector<std::string> emoji = {
      "😡", "😭", "👍🏽", "👨‍👩‍👧‍👦", "❤️", "🤦🏻‍♂️"};
  std::string flood;
  for (int i = 0; i < 100; ++i) flood += emoji[static_cast<std::size_t>(i) % emoji.size()];
  add("emoji_flood",
      "100 emoji (ZWJ sequences, skin tones, variation selectors) and one word; times 0-3 s",
      {make_turn(Speaker::customer, flood + " " + word, 0.0), make_turn(Speaker::agent, reply, 1.0),
       make_turn(Speaker::customer, follow, 2.0), make_turn(Speaker::agent, reply, 3.0)});
  std::string emoticons;
  for (int i = 0; i < 50; ++i) emoticons += ":( [怒] ";
  add("emoticon_flood", "50 ASCII emoticons and 50 Weibo bracket emoticons and one word",
      {make_turn(Speaker::customer, emoticons + word), make_turn(Speaker::agent, reply)});
  add("emoji_only", "every turn emoji only, no letters",
      {make_turn(Speaker::customer, "😡😡😡"), make_turn(Speaker::agent, "🙏"),
       make_turn(Speaker::customer, "👍")});
  auto timed = [&](const std::string& name, const std::string& what, std::vector<double> times) {
    std::vector<text::Turn> turns;
    const std::vector<std::string> texts = {ask, reply, follow, reply};
    for (std::size_t i = 0; i < times.size(); ++i)
      turns.push_back(make_turn(i % 2 == 0 ? Speaker::customer : Speaker::agent,
                                texts[i % texts.size()], times[i]));
    add(name, what, std::move(turns));
  };
  timed("times_epoch", "times at the Unix epoch: 0, 30, 60, 90 s", {0.0, 30.0, 60.0, 90.0});
  timed("times_limit", "times at the readers' limit: -1e11, -1e11 + 10, 1e11 - 10, 1e11 s",
        {-text::kMaxTimeSeconds, -text::kMaxTimeSeconds + 10, text::kMaxTimeSeconds - 10,
         text::kMaxTimeSeconds});
  timed("times_equal", "every turn at the same second", {1.7e9, 1.7e9, 1.7e9, 1.7e9});
  timed("times_backwards", "times running backwards", {1000.0, 900.0, 800.0, 700.0});
  std::string long_text;
  const std::string filler = zh ? "快递" : "my order ";
  while (code_points(long_text) < 20000) long_text += filler;
  long_text += zh ? "气死我了" : "this is ridiculous";
  add("long_turn", "one 20,000-character customer turn without a sentence break",
      {make_turn(Speaker::customer, long_text), make_turn(Speaker::agent, reply)});
  return out;
}

StressReport run_stress(const std::vector<text::Dialogue>& base, const text::Lexicon& lexicon,
                        const Summarizer& summarizer, const StressOptions& options,
                        const std::function<void(const std::string&)>& progress) {
  KESSEL_CHECK_ARG(!base.empty(), "stress: no base dialogues");
  const bool any_customer = std::any_of(base.begin(), base.end(), [](const text::Dialogue& d) {
    return std::any_of(d.turns.begin(), d.turns.end(), [](const text::Turn& t) {
      return t.speaker == text::Speaker::customer && !t.sentences.empty();
    });
  });
  KESSEL_CHECK_ARG(any_customer,
                   "stress: the base dialogues have no customer sentence; the attention and "
                   "density tests need customer units");
  KESSEL_CHECK_ARG(!options.lengths.empty(), "stress: no lengths");
  for (int length : options.lengths)
    KESSEL_CHECK_ARG(length >= 1 && length <= kMaxStressLength, "stress: a length must be in [1, ",
                     kMaxStressLength, "] units, got ", length);
  for (double d : options.densities)
    KESSEL_CHECK_ARG(d >= 0.0 && d <= 1.0, "stress: a density must be in [0, 1], got ", d);
  auto say = [&](const std::string& line) {
    if (progress) progress(line);
  };
  StressReport report;
  report.scorer = summarizer.scorer->name();
  report.kernel_variant = attention_kernel_variant();
  report.base_dialogues = base.size();

  std::vector<int> lengths = options.lengths;
  std::sort(lengths.begin(), lengths.end());  // the peak RSS only grows: report it shortest first
  for (int length : lengths) {
    say("length " + std::to_string(length));
    report.lengths.push_back(run_length(base, length, lexicon, summarizer, options));
  }
  const LengthRow* shortest = nullptr;
  const LengthRow* longest = nullptr;
  for (const LengthRow& row : report.lengths) {
    if (row.repeated || row.entropy_norm <= 0.0) continue;
    if (!shortest) shortest = &row;
    longest = &row;
  }
  if (shortest && longest != shortest) {
    report.entropy_measured = true;
    report.entropy_from = shortest->units;
    report.entropy_to = longest->units;
    report.entropy_change =
        (longest->entropy_norm - shortest->entropy_norm) / shortest->entropy_norm;
    report.length_entropy_ok = std::fabs(report.entropy_change) <= options.entropy_tolerance;
  }

  const std::string lang = detect_lang(base.front()) == Lang::zh ? "zh" : "en";
  for (auto& [c, dialogue] : modality_dialogues(lang)) {
    say("modality " + c.name);
    try {
      const Summarized r = summarizer.run(dialogue, lexicon);
      const std::string problems = check_summarized(r, *summarizer.scorer);
      c.ok = problems.empty();
      c.detail = c.ok ? std::to_string(r.prepared.units.size()) + " units, " +
                            std::to_string(r.summary.sentences.size()) + " in the summary, " +
                            std::to_string(r.prepared.mentions.size()) + " emotion mentions"
                      : problems;
    } catch (const Error& e) {
      c.ok = false;
      c.detail = std::string("error: ") + e.what();
    }
    report.modality.push_back(std::move(c));
  }

  std::vector<double> x, y;
  for (double target : options.densities) {
    say("density " + std::to_string(target));
    report.density.push_back(run_density(base, target, lexicon, summarizer));
    x.push_back(report.density.back().density);
    y.push_back(report.density.back().kept_mentions);
    report.density_ok = report.density_ok && report.density.back().satisfied == 1.0;
  }
  std::tie(report.density_slope, report.density_r2) = fit_line(x, y);

  for (const std::string& variant : cpu_variants_available()) {
    const ScopedCpuVariant forced(variant);
    for (const LengthRow& row : report.lengths) {
      say("kernels (" + variant + ") at " + std::to_string(row.units) + " keys");
      report.kernels.push_back(run_kernels(row.units, row.queries > 0 ? row.queries : row.units / 2,
                                           options.kernel_threads));
      KernelRow& k = report.kernels.back();
      k.variant = variant;
      report.kernels_ok = report.kernels_ok && k.threads_identical && k.max_diff_weights <= 1e-4 &&
                          k.max_diff_output <= 1e-4;
    }
  }
  return report;
}

}  // namespace kessel::summarize
