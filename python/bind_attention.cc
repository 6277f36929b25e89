// Python interface of the attention engine (include/kessel/attention.h):
//   kessel.attention(q, k, v, **spec)                -> out [, lse] [, stats]
//   kessel.attention_backward(q, k, v, dout, **spec) -> {"dq", "dk", "dv", ["dbias", "drel_bias",
//                                                       "dkey_boost", "dboost_gate", "dm",
//                                                       "dtime_decay"]}
//   kessel.attention_weights(q, k, v, **spec)        -> weights
//   kessel.quantize_rows(x)                          -> (x_int8, scale)
// q/k/v are [B, H, L, D], [H, L, D] or [L, D] (B = 1, H = 1 implied); outputs take q's rank.
// Every array is converted once, kept alive in a Call for the whole kernel, and the GIL is released
// while the kernel runs.
#include <algorithm>
#include <array>
#include <cstdint>
#include <limits>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "bindings.h"
#include "kessel/attention.h"
#include "numpy_views.h"

namespace kessel::python {
namespace {

// Keywords accepted by every entry point (the AttentionSpec and the optional inputs).
const std::vector<std::string> kSpecKeywords = {
    "similarity", "normalizer",  "m",           "temperature",      "scale",
    "beta",       "fuzzy_eps",   "fuzzy_match_tol", "cosine_eps",   "causal",
    "window",     "min_lag",     "lag_by_time", "key_lengths",      "allowed_keys",
    "mask",       "bias",        "alibi_slopes", "rel_bias",        "rel_buckets",
    "rel_max_distance", "rel_bidirectional", "times", "time_decay", "time_decay_mode",
    "key_boost",  "zscore",      "zscore_eps",  "chunk_size",       "kv_dtype",
    "impl",       "threads",     "temperature_coef", "emotion_ratio", "balance",
    "boost_gate"};

std::string join(const std::vector<std::string>& names) {
  std::string s;
  for (const auto& n : names) s += (s.empty() ? "" : ", ") + n;
  return s;
}

float as_float(const py::handle& v, const char* fn, const std::string& key) {
  try {
    return static_cast<float>(v.cast<double>());
  } catch (const py::cast_error&) {
    throw InvalidArgument(detail::concat(fn, ": ", key, " must be a number, got ", repr_of(v)));
  }
}

Index as_index(const py::handle& v, const char* fn, const std::string& key) {
  try {
    return v.cast<std::int64_t>();
  } catch (const py::cast_error&) {
    throw InvalidArgument(detail::concat(fn, ": ", key, " must be an integer, got ", repr_of(v)));
  }
}

// An integer that fits an int (threads=2**40 was cast to 0, the default, without a word).
int as_int(const py::handle& v, const char* fn, const std::string& key) {
  const Index i = as_index(v, fn, key);
  KESSEL_CHECK_ARG(i >= std::numeric_limits<int>::min() && i <= std::numeric_limits<int>::max(), fn, ": ", key, "=",
                   i, " does not fit a 32-bit int");
  return static_cast<int>(i);
}

bool as_bool(const py::handle& v, const char* fn, const std::string& key) {
  KESSEL_CHECK_ARG(py::isinstance<py::bool_>(v) || py::isinstance<py::int_>(v), fn, ": ", key,
                   " must be a bool, got ", repr_of(v));
  return v.cast<bool>();
}

std::string as_string(const py::handle& v, const char* fn, const std::string& key) {
  KESSEL_CHECK_ARG(py::isinstance<py::str>(v), fn, ": ", key, " must be a string, got ",
                   repr_of(v));
  return v.cast<std::string>();
}

// [B, H, L, X] from an array in rank 2, 3 or 4 (missing leading dimensions are 1).
std::array<Index, 4> padded_bhlx(const py::array& a) {
  std::array<Index, 4> s{1, 1, 1, 1};
  for (py::ssize_t d = 0; d < a.ndim(); ++d) s[4 - a.ndim() + d] = a.shape(d);
  return s;
}

// A shape that starts [B, H, ...] in q's rank: rank 3 drops B, rank 2 drops B and H.
std::vector<py::ssize_t> in_rank(int rank, const std::vector<Index>& bh_shape) {
  return std::vector<py::ssize_t>(bh_shape.begin() + (4 - rank), bh_shape.end());
}

// One call's converted arrays (alive until the call returns) and the views built on them.
struct Call {
  explicit Call(const char* function) : fn(function) {}
  const char* fn;
  int rank = 4;
  AttentionInputs in;
  AttentionSpec spec;
  FloatArray q, k, v;
  std::vector<std::int8_t> k_int8, v_int8;
  std::vector<float> k_scale, v_scale;
  Uint8Array mask, allowed_keys;
  FloatArray bias, alibi_slopes, rel_bias, q_times, k_times, key_boost, emotion_ratio, boost_gate;
  std::vector<Index> key_lengths;

  std::vector<py::ssize_t> out_shape() const { return in_rank(rank, {in.B, in.H, in.Lq, in.Dv}); }
  std::vector<py::ssize_t> lse_shape() const { return in_rank(rank, {in.B, in.H, in.Lq}); }
};

FloatArray qkv_array(const py::handle& obj, const char* fn, const char* name) {
  FloatArray a = float_array(obj, fn, name);
  KESSEL_CHECK_ARG(a.ndim() >= 2 && a.ndim() <= 4, fn, ": ", name, " has rank ", a.ndim(),
                   " (shape ", shape_of(a), "); expected [B, H, L, D], [H, L, D] or [L, D]");
  for (py::ssize_t d = 0; d < a.ndim(); ++d) {
    KESSEL_CHECK_ARG(a.shape(d) > 0, fn, ": ", name, " of shape ", shape_of(a),
                     " is empty (every dimension must be >= 1)");
  }
  return a;
}

void load_qkv(Call& c, const py::handle& q, const py::handle& k, const py::handle& v) {
  const char* fn = c.fn;
  c.q = qkv_array(q, fn, "q");
  c.k = qkv_array(k, fn, "k");
  c.v = qkv_array(v, fn, "v");
  const std::string shapes = detail::concat(" (q ", shape_of(c.q), ", k ", shape_of(c.k), ", v ",
                                            shape_of(c.v), ")");
  KESSEL_CHECK_ARG(c.k.ndim() == c.q.ndim() && c.v.ndim() == c.q.ndim(), fn,
                   ": q, k and v must have the same rank", shapes);
  c.rank = static_cast<int>(c.q.ndim());
  const auto qs = padded_bhlx(c.q), ks = padded_bhlx(c.k), vs = padded_bhlx(c.v);
  KESSEL_CHECK_ARG(ks[0] == qs[0] && vs[0] == qs[0], fn, ": batch sizes differ", shapes);
  KESSEL_CHECK_ARG(ks[1] == qs[1] && vs[1] == qs[1], fn, ": head counts differ", shapes);
  KESSEL_CHECK_ARG(ks[3] == qs[3], fn, ": q has D=", qs[3], " but k has D=", ks[3], shapes);
  KESSEL_CHECK_ARG(vs[2] == ks[2], fn, ": k has Lk=", ks[2], " but v has Lk=", vs[2], shapes);
  c.in.B = qs[0];
  c.in.H = qs[1];
  c.in.Lq = qs[2];
  c.in.Lk = ks[2];
  c.in.D = qs[3];
  c.in.Dv = vs[3];
  c.in.q = c.q.data();
  c.in.k = c.k.data();
  c.in.v = c.v.data();
}

void load_times(Call& c, const py::handle& value) {
  const Index B = c.in.B;
  if (py::isinstance<py::tuple>(value)) {
    const auto pair = value.cast<py::tuple>();
    KESSEL_CHECK_ARG(pair.size() == 2, c.fn,
                     ": times as a tuple must be (q_times [B, Lq], k_times [B, Lk]), got ",
                     pair.size(), " items");
    c.q_times = float_array(pair[0], c.fn, "q_times");
    c.k_times = float_array(pair[1], c.fn, "k_times");
    check_rows_shape(c.q_times, B, c.in.Lq, c.fn, "q_times", "[B, Lq]");
    check_rows_shape(c.k_times, B, c.in.Lk, c.fn, "k_times", "[B, Lk]");
  } else {
    KESSEL_CHECK_ARG(c.in.Lq == c.in.Lk, c.fn, ": a single times array needs Lq == Lk (got Lq=",
                     c.in.Lq, ", Lk=", c.in.Lk, "); pass times=(q_times, k_times)");
    c.q_times = float_array(value, c.fn, "times");
    check_rows_shape(c.q_times, B, c.in.Lq, c.fn, "times", "[B, L]");
    c.k_times = c.q_times;
  }
  c.in.q_times = c.q_times.data();
  c.in.k_times = c.k_times.data();
}

// Applies one keyword to the call; `key` is known to be a spec keyword.
void apply_keyword(Call& c, const std::string& key, const py::handle& value, bool& rel_buckets_set) {
  const char* fn = c.fn;
  AttentionSpec& s = c.spec;
  AttentionInputs& in = c.in;
  if (key == "similarity") s.similarity = parse_similarity(as_string(value, fn, key));
  else if (key == "normalizer") s.normalizer = parse_normalizer(as_string(value, fn, key));
  else if (key == "time_decay_mode")
    s.time_decay_mode = parse_time_decay_mode(as_string(value, fn, key));
  else if (key == "impl") s.impl = parse_attention_impl(as_string(value, fn, key));
  else if (key == "kv_dtype") in.kv_dtype = parse_kv_dtype(as_string(value, fn, key));
  else if (key == "m") s.m = as_float(value, fn, key);
  else if (key == "temperature") {
    if (py::isinstance<py::str>(value)) {  // "adaptive": tau_i = 1 / (1 + temperature_coef mean|q_i|)
      const std::string mode = value.cast<std::string>();
      KESSEL_CHECK_ARG(mode == "adaptive", fn, ": temperature must be a number or 'adaptive', got '", mode, "'");
      s.adaptive_temperature = true;
    } else {
      s.temperature = as_float(value, fn, key);
    }
  } else if (key == "temperature_coef") s.temperature_coef = as_float(value, fn, key);
  else if (key == "balance") s.balance = as_float(value, fn, key);
  else if (key == "scale") s.scale = as_float(value, fn, key);
  else if (key == "beta") s.beta = as_float(value, fn, key);
  else if (key == "fuzzy_eps") s.fuzzy_eps = as_float(value, fn, key);
  else if (key == "fuzzy_match_tol") s.fuzzy_match_tol = as_float(value, fn, key);
  else if (key == "cosine_eps") s.cosine_eps = as_float(value, fn, key);
  else if (key == "zscore_eps") s.zscore_eps = as_float(value, fn, key);
  else if (key == "time_decay") s.time_decay = as_float(value, fn, key);
  else if (key == "causal") s.causal = as_bool(value, fn, key);
  else if (key == "lag_by_time") s.lag_by_time = as_bool(value, fn, key);
  else if (key == "zscore") s.zscore = as_bool(value, fn, key);
  else if (key == "rel_bidirectional") s.rel_bidirectional = as_bool(value, fn, key);
  else if (key == "window") s.window = as_index(value, fn, key);
  else if (key == "min_lag") s.min_lag = as_index(value, fn, key);
  else if (key == "chunk_size") s.chunk_size = as_index(value, fn, key);
  else if (key == "rel_max_distance") s.rel_max_distance = as_index(value, fn, key);
  else if (key == "rel_buckets") {
    s.rel_buckets = as_index(value, fn, key);
    rel_buckets_set = true;
  } else if (key == "threads") s.threads = as_int(value, fn, key);
  else if (key == "times") load_times(c, value);
  else if (key == "mask") {
    c.mask = mask_array(value, fn, "mask");
    in.mask = broadcast_view(c.mask, {in.B, in.H, in.Lq, in.Lk}, fn, "mask");
  } else if (key == "bias") {
    c.bias = float_array(value, fn, "bias");
    in.bias = broadcast_view(c.bias, {in.B, in.H, in.Lq, in.Lk}, fn, "bias");
  } else if (key == "allowed_keys") {
    c.allowed_keys = mask_array(value, fn, "allowed_keys");
    check_rows_shape(c.allowed_keys, in.B, in.Lk, fn, "allowed_keys", "[B, Lk]");
    in.allowed_keys = c.allowed_keys.data();
  } else if (key == "key_boost") {
    c.key_boost = float_array(value, fn, "key_boost");
    check_rows_shape(c.key_boost, in.B, in.Lk, fn, "key_boost", "[B, Lk]");
    in.key_boost = c.key_boost.data();
  } else if (key == "boost_gate") {
    c.boost_gate = float_array(value, fn, "boost_gate");
    const Index G = 2 * in.D + 1;
    const bool shaped = (c.boost_gate.ndim() == 2 && c.boost_gate.shape(0) == in.H && c.boost_gate.shape(1) == G) ||
                        (c.boost_gate.ndim() == 1 && in.H == 1 && c.boost_gate.shape(0) == G);
    KESSEL_CHECK_ARG(shaped, fn, ": boost_gate has shape ", shape_of(c.boost_gate), " but must be [H, 2D+1] = [",
                     in.H, ", ", G, "]");
    in.boost_gate = c.boost_gate.data();
  } else if (key == "key_lengths") {
    const Int64Array lengths = Int64Array::ensure(numeric_array(value, fn, "key_lengths", "iu"));
    KESSEL_CHECK_ARG(lengths.ndim() <= 1 && lengths.size() == in.B, fn, ": key_lengths has shape ",
                     shape_of(lengths), " but must be [B] = [", in.B, "]");
    c.key_lengths.assign(lengths.data(), lengths.data() + lengths.size());
    in.key_lengths = c.key_lengths;
  } else if (key == "emotion_ratio") {
    c.emotion_ratio = float_array(value, fn, "emotion_ratio");
    KESSEL_CHECK_ARG(c.emotion_ratio.ndim() <= 1 && c.emotion_ratio.size() == in.B, fn,
                     ": emotion_ratio has shape ", shape_of(c.emotion_ratio), " but must be [B] = [", in.B, "]");
    in.emotion_ratio = c.emotion_ratio.data();
  } else if (key == "alibi_slopes") {
    c.alibi_slopes = float_array(value, fn, "alibi_slopes");
    KESSEL_CHECK_ARG(c.alibi_slopes.ndim() == 1 && c.alibi_slopes.shape(0) == in.H, fn,
                     ": alibi_slopes has shape ", shape_of(c.alibi_slopes), " but must be [H] = [",
                     in.H, "]");
    in.alibi_slopes = std::span<const float>(c.alibi_slopes.data(), c.alibi_slopes.size());
  } else if (key == "rel_bias") {
    c.rel_bias = float_array(value, fn, "rel_bias");
    const bool ok = (c.rel_bias.ndim() == 2 && c.rel_bias.shape(0) == in.H) ||
                    (c.rel_bias.ndim() == 1 && in.H == 1);
    KESSEL_CHECK_ARG(ok, fn, ": rel_bias has shape ", shape_of(c.rel_bias),
                     " but must be [H, rel_buckets] with H = ", in.H);
    in.rel_bias = c.rel_bias.data();
  } else {
    // Every keyword of kSpecKeywords has a branch above; one without would be ignored in silence.
    throw std::logic_error(detail::concat(fn, ": keyword '", key, "' is listed but not applied"));
  }
}

// Parses the keywords; `extra` are the entry point's own keywords, returned for it to handle.
py::dict parse_call(Call& c, const py::kwargs& kwargs, const std::vector<std::string>& extra) {
  py::dict own;
  bool rel_buckets_set = false;
  for (const auto& item : kwargs) {
    const std::string key = item.first.cast<std::string>();
    const bool is_spec =
        std::find(kSpecKeywords.begin(), kSpecKeywords.end(), key) != kSpecKeywords.end();
    const bool is_extra = std::find(extra.begin(), extra.end(), key) != extra.end();
    if (!is_spec && !is_extra) {
      std::vector<std::string> valid = kSpecKeywords;
      valid.insert(valid.end(), extra.begin(), extra.end());
      throw InvalidArgument(detail::concat(c.fn, ": unknown keyword '", key,
                                           "'; valid keywords: ", join(valid)));
    }
    if (item.second.is_none()) continue;  // None means "absent", as for Python defaults
    if (is_extra) own[item.first] = item.second;
    else apply_keyword(c, key, item.second, rel_buckets_set);
  }
  if (c.in.rel_bias) {
    // rel_bias [H, rel_buckets] carries the bucket count; an explicit rel_buckets must agree.
    const Index given = c.rel_bias.shape(c.rel_bias.ndim() - 1);
    KESSEL_CHECK_ARG(!rel_buckets_set || c.spec.rel_buckets == given, c.fn, ": rel_buckets=",
                     c.spec.rel_buckets, " but rel_bias has shape ", shape_of(c.rel_bias));
    c.spec.rel_buckets = given;
  }
  if (c.in.kv_dtype == KvDtype::kInt8) {
    // Quantize here so that callers hand in float arrays and get the int8 path's numerics.
    const Index kv_rows = c.in.B * c.in.H * c.in.Lk;
    c.k_int8.resize(static_cast<size_t>(kv_rows * c.in.D));
    c.v_int8.resize(static_cast<size_t>(kv_rows * c.in.Dv));
    c.k_scale.resize(static_cast<size_t>(kv_rows));
    c.v_scale.resize(static_cast<size_t>(kv_rows));
    quantize_rows(c.k_int8.data(), c.k_scale.data(), c.k.data(), kv_rows, c.in.D);
    quantize_rows(c.v_int8.data(), c.v_scale.data(), c.v.data(), kv_rows, c.in.Dv);
    c.in.k = c.in.v = nullptr;
    c.in.k_int8 = c.k_int8.data();
    c.in.v_int8 = c.v_int8.data();
    c.in.k_scale = c.k_scale.data();
    c.in.v_scale = c.v_scale.data();
  }
  return own;
}

py::dict stats_dict(const AttentionStats& s) {
  py::dict d;
  d["fully_masked_rows"] = s.fully_masked_rows;
  d["crisp_rows"] = s.crisp_rows;
  d["key_tiles_visited"] = s.key_tiles_visited;
  d["key_tiles_skipped"] = s.key_tiles_skipped;
  return d;
}

py::object attention_py(const py::handle& q, const py::handle& k, const py::handle& v,
                        const py::kwargs& kwargs) {
  Call c("attention");
  load_qkv(c, q, k, v);
  py::dict own = parse_call(c, kwargs, {"return_lse", "return_stats"});
  const bool want_lse = own.contains("return_lse") && as_bool(own["return_lse"], c.fn, "return_lse");
  const bool want_stats =
      own.contains("return_stats") && as_bool(own["return_stats"], c.fn, "return_stats");
  py::array_t<float> out(c.out_shape());
  py::array_t<float> lse(c.lse_shape());
  AttentionStats stats;
  {
    float* out_p = out.mutable_data();
    float* lse_p = want_lse ? lse.mutable_data() : nullptr;
    py::gil_scoped_release release;
    stats = attention_forward(out_p, lse_p, c.in, c.spec);
  }
  if (!want_lse && !want_stats) return out;
  py::list result;
  result.append(out);
  if (want_lse) result.append(lse);
  if (want_stats) result.append(stats_dict(stats));
  return py::tuple(result);
}

// A float array whose shape must equal `expected` (dout, out, lse passed back in).
FloatArray exact_shape_array(const py::handle& obj, const char* fn, const char* name,
                             const std::vector<py::ssize_t>& expected, bool finite) {
  FloatArray a =
      finite ? float_array(obj, fn, name)
             : (warn_if_narrowed(obj), FloatArray::ensure(numeric_array(obj, fn, name, "f")));
  const std::vector<py::ssize_t> got(a.shape(), a.shape() + a.ndim());
  KESSEL_CHECK_ARG(got == expected, fn, ": ", name, " has shape ", shape_of(a), " but must be ",
                   shape_string(std::vector<Index>(expected.begin(), expected.end())));
  return a;
}

py::array_t<float> zeros_like_shape(const py::array& like) {
  py::array_t<float> a(std::vector<py::ssize_t>(like.shape(), like.shape() + like.ndim()));
  std::fill(a.mutable_data(), a.mutable_data() + a.size(), 0.0f);
  return a;
}

py::dict attention_backward_py(const py::handle& q, const py::handle& k, const py::handle& v,
                               const py::handle& dout_obj, const py::kwargs& kwargs) {
  Call c("attention_backward");
  load_qkv(c, q, k, v);
  py::dict own = parse_call(c, kwargs, {"out", "lse"});
  KESSEL_CHECK_ARG(c.in.kv_dtype == KvDtype::kFloat32, c.fn,
                   ": kv_dtype='int8' is for inference only (forward and weights); the backward "
                   "pass needs float32 k and v");
  const FloatArray dout = exact_shape_array(dout_obj, c.fn, "dout", c.out_shape(), true);
  KESSEL_CHECK_ARG(own.contains("out") == own.contains("lse"), c.fn,
                   ": pass both out= and lse= (the forward's results) or neither");
  FloatArray out, lse;
  if (own.contains("out")) {
    out = exact_shape_array(own["out"], c.fn, "out", c.out_shape(), true);
    // lse is -inf on fully masked rows and +inf on crisp rows: no finiteness check.
    lse = exact_shape_array(own["lse"], c.fn, "lse", c.lse_shape(), false);
  } else {
    out = FloatArray(c.out_shape());
    lse = FloatArray(c.lse_shape());
    float* out_p = out.mutable_data();
    float* lse_p = lse.mutable_data();
    py::gil_scoped_release release;
    attention_forward(out_p, lse_p, c.in, c.spec);
  }
  py::dict result;
  py::array_t<float> dq = zeros_like_shape(c.q), dk = zeros_like_shape(c.k),
                     dv = zeros_like_shape(c.v);
  AttentionGrads g;
  g.dq = dq.mutable_data();
  g.dk = dk.mutable_data();
  g.dv = dv.mutable_data();
  result["dq"] = dq;
  result["dk"] = dk;
  result["dv"] = dv;
  if (c.in.bias.data) {
    py::array_t<float> dbias = zeros_like_shape(c.bias);
    g.dbias = dbias.mutable_data();
    result["dbias"] = dbias;
  }
  if (c.in.rel_bias) {
    py::array_t<float> drel = zeros_like_shape(c.rel_bias);
    g.drel_bias = drel.mutable_data();
    result["drel_bias"] = drel;
  }
  if (c.in.key_boost) {
    py::array_t<float> dboost = zeros_like_shape(c.key_boost);
    g.dkey_boost = dboost.mutable_data();
    result["dkey_boost"] = dboost;
  }
  if (c.in.boost_gate) {
    py::array_t<float> dgate = zeros_like_shape(c.boost_gate);
    g.dboost_gate = dgate.mutable_data();
    result["dboost_gate"] = dgate;
  }
  // The spec's scalars: dm for the fuzzy normalizer, dtime_decay whenever times are given,
  // dtemperature_coef under an adaptive temperature.
  float dm = 0.0f, dtime_decay = 0.0f, dcoef = 0.0f;
  const bool want_dm = c.spec.normalizer == Normalizer::kFuzzy;
  const bool want_dtime_decay = c.in.q_times != nullptr;
  const bool want_dcoef = c.spec.adaptive_temperature;
  if (want_dm) g.dm = &dm;
  if (want_dtime_decay) g.dtime_decay = &dtime_decay;
  if (want_dcoef) g.dtemperature_coef = &dcoef;
  {
    const float* dout_p = dout.data();
    const float* out_p = out.data();
    const float* lse_p = lse.data();
    py::gil_scoped_release release;
    attention_backward(g, dout_p, out_p, lse_p, c.in, c.spec);
  }
  if (want_dm) result["dm"] = dm;
  if (want_dtime_decay) result["dtime_decay"] = dtime_decay;
  if (want_dcoef) result["dtemperature_coef"] = dcoef;
  return result;
}

py::array_t<float> attention_weights_py(const py::handle& q, const py::handle& k,
                                        const py::handle& v, const py::kwargs& kwargs) {
  Call c("attention_weights");
  load_qkv(c, q, k, v);
  parse_call(c, kwargs, {});
  py::array_t<float> weights(in_rank(c.rank, {c.in.B, c.in.H, c.in.Lq, c.in.Lk}));
  {
    float* w = weights.mutable_data();
    py::gil_scoped_release release;
    attention_weights(w, c.in, c.spec);
  }
  return weights;
}

py::tuple quantize_rows_py(const py::handle& x_obj) {
  const FloatArray x = float_array(x_obj, "quantize_rows", "x");
  KESSEL_CHECK_ARG(x.ndim() == 2 && x.shape(0) > 0 && x.shape(1) > 0,
                   "quantize_rows: x must be a non-empty 2-D array [rows, cols], got shape ",
                   shape_of(x));
  py::array_t<std::int8_t> q({x.shape(0), x.shape(1)});
  py::array_t<float> scale(x.shape(0));
  {
    std::int8_t* q_p = q.mutable_data();
    float* s_p = scale.mutable_data();
    py::gil_scoped_release release;
    quantize_rows(q_p, s_p, x.data(), x.shape(0), x.shape(1));
  }
  return py::make_tuple(q, scale);
}

const char* kSpecDoc = R"(
Spec keywords (see include/kessel/attention.h for the exact semantics):
  similarity       "dot" | "cosine" | "constrained_cosine" | "neg_sq_euclidean"
  normalizer       "softmax" | "fuzzy";   m (> 1), fuzzy_eps, fuzzy_match_tol
  temperature      a number (softmax), or "adaptive": row i's temperature is
                   1 / (1 + temperature_coef * mean_d |q_id|) (default coefficient 0.1; dot
                   similarity without zscore; gradients through it, dtemperature_coef)
  scale, beta, cosine_eps, zscore (bool), zscore_eps
  masks            causal, window, min_lag, lag_by_time, chunk_size, key_lengths [B],
                   allowed_keys [B, Lk], mask (bool/int, broadcastable to [B, H, Lq, Lk])
  score terms      bias (broadcastable to [B, H, Lq, Lk]), alibi_slopes [H],
                   rel_bias [H, rel_buckets] (rel_buckets inferred from it), rel_max_distance,
                   rel_bidirectional, times ([B, L] when Lq == Lk, or (q_times, k_times)),
                   time_decay, time_decay_mode ("additive" | "multiplicative"), key_boost [B, Lk],
                   emotion_ratio [B] and balance (the emotion-ratio balance: similarities x
                   (1 - balance ratio), key_boost x balance ratio; dot, softmax),
                   boost_gate [H, 2D+1] (the key boost gated per head by
                   sigmoid(w_q . q_i + w_k . k_j + b_g), rows [w_q ; w_k ; b_g]; softmax)
  execution        kv_dtype ("float32" | "int8", forward/weights only), impl ("fused" | "reference"),
                   threads (<= 0: OpenMP default)
A keyword set to None counts as absent. Bad arguments raise ValueError.
q, k, v: [B, H, L, D], [H, L, D] or [L, D]; outputs take q's rank.
Computation and outputs are float32: other arrays are converted, and a float64 array raises
kessel.PrecisionWarning once per process.)";

}  // namespace

void bind_attention(py::module_& m) {
  m.def("attention", &attention_py, py::arg("q"), py::arg("k"), py::arg("v"),
        (std::string("attention(q, k, v, *, return_lse=False, return_stats=False, **spec)\n"
                     "-> out [, lse] [, stats dict]\n") + kSpecDoc).c_str());
  m.def("attention_backward", &attention_backward_py, py::arg("q"), py::arg("k"), py::arg("v"),
        py::arg("dout"),
        (std::string("attention_backward(q, k, v, dout, *, out=None, lse=None, **spec)\n"
                     "-> dict dq, dk, dv [, dbias, drel_bias, dkey_boost, dboost_gate] (arrays, for the inputs "
                     "given), dm (float, normalizer='fuzzy'), dtime_decay (float, when times are "
                     "given), dtemperature_coef (float, temperature='adaptive'). Runs the forward for out and lse unless both are given.\n") +
         kSpecDoc)
            .c_str());
  m.def("attention_weights", &attention_weights_py, py::arg("q"), py::arg("k"), py::arg("v"),
        (std::string("attention_weights(q, k, v, **spec) -> weights [B, H, Lq, Lk] (q's rank)\n") +
         kSpecDoc).c_str());
  m.def("quantize_rows", &quantize_rows_py, py::arg("x"),
        "quantize_rows(x [rows, cols]) -> (int8 [rows, cols], float32 scale [rows]): symmetric "
        "per-row quantization, x ~= q * scale[:, None]");
}

}  // namespace kessel::python
