#include "summarize/eaca_model.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <vector>

#include "kessel/attention.h"
#include "kessel/attention_choice.h"
#include "kessel/error.h"
#include "summarize/eaca_modality_norm.h"
#include "util/splitmix.h"
#include "util/simd.h"
#include "util/timer.h"
#include "util/vector_math_kernels.h"

namespace kessel::summarize {

namespace {

std::size_t sz(int a) { return static_cast<std::size_t>(a); }

// out [I, O] = W^T for W [O, I].
void transpose_into_at(float* out, const float* W, int O, int I) {
  for (int o = 0; o < O; ++o)
    for (int i = 0; i < I; ++i) out[static_cast<std::size_t>(i) * O + o] = W[static_cast<std::size_t>(o) * I + i];
}
void transpose_into(std::vector<float>& out, const float* W, int O, int I) {
  out.resize(static_cast<std::size_t>(I) * O);
  transpose_into_at(out.data(), W, O, I);
}
// y [N, O] = x [N, I] W^T (+ b); W [O, I]. Each y[n, o] is summed in the order of a dot product (b,
// then i = 0, 1, ...), but over a transposed copy of W (add_matvec_t, whose vectors run along o);
// the plain dot product ran at about 3 GFLOP/s, one dependent add chain per output. `Wt` is that copy
// when the caller has one (a model that only scores: EacaWeights::transposed); otherwise it is made
// here, at O I strided stores per call, which on a dialogue of ten units took longer than the product.
void linear_forward(const VectorMathKernels& vm, float* y, const float* x, const float* W, const float* Wt,
                    const float* b, int N, int I, int O) {
  thread_local std::vector<float> copy;
  if (Wt == nullptr) {
    transpose_into(copy, W, O, I);
    Wt = copy.data();
  }
  for (int n = 0; n < N; ++n) {
    float* yr = y + static_cast<std::size_t>(n) * O;
    if (b) std::copy_n(b, O, yr);
    else std::fill_n(yr, O, 0.0f);
  }
  vm.add_matmat_t(y, Wt, x, sz(N), sz(I), sz(O));  // add_matvec_t on each row, the same bits
}
// Backward of linear_forward; ADDS INTO dx [N, I] (may be null), dW [O, I], db [O] (may be null).
void linear_backward(const VectorMathKernels& vm, float* dx, float* dW, float* db, const float* dy, const float* x,
                     const float* W, int N, int I, int O) {
  for (int n = 0; n < N; ++n) {
    const float* xr = x + static_cast<std::size_t>(n) * I;
    const float* dyr = dy + static_cast<std::size_t>(n) * O;
    for (int o = 0; o < O; ++o) {
      const float d = dyr[o];
      if (d == 0.0f) continue;
      if (db) db[o] += d;
      vm.axpy(dW + sz(o) * I, d, xr, sz(I));                      // dW[o] += d x[n]
      if (dx) vm.axpy(dx + sz(n) * I, d, W + sz(o) * I, sz(I));  // dx[n] += d W[o]
    }
  }
}

float sigmoid(float x) { return 1.0f / (1.0f + std::exp(-x)); }
// BCE with logits, stable for large |x|.
double bce(float logit, float y) {
  return std::max(logit, 0.0f) - logit * y + std::log1p(std::exp(-std::fabs(logit)));
}

// 1 / std(q_i . k_j) over all Lq x Lk pairs (rows of width D); NaN (the engine's 1/sqrt(D)) when
// there are fewer than two pairs or the products are all equal, where a z-score has no meaning.
float zscore_scale(const float* q, int Lq, const float* k, int Lk, int D) {
  if (static_cast<long>(Lq) * Lk < 2) return std::numeric_limits<float>::quiet_NaN();
  double sum = 0.0, sum2 = 0.0;
  for (int i = 0; i < Lq; ++i)
    for (int j = 0; j < Lk; ++j) {
      double dot = 0.0;
      for (int c = 0; c < D; ++c) dot += static_cast<double>(q[sz(i) * D + c]) * k[sz(j) * D + c];
      sum += dot;
      sum2 += dot * dot;
    }
  const double n = static_cast<double>(Lq) * Lk, mean = sum / n;
  const double var = std::max(0.0, sum2 / n - mean * mean);
  if (!(var > 1e-20 * std::max(1.0, mean * mean))) return std::numeric_limits<float>::quiet_NaN();
  return static_cast<float>(1.0 / std::sqrt(var));
}

// EacaConfig::adaptive_temperature on an attention layer (softmax only; the config check refuses it
// with the fuzzy normalizer).
void set_adaptive_temperature(AttentionSpec& spec, const EacaSwitches& sw) {
  if (sw.adaptive_temperature <= 0.0f) return;
  spec.adaptive_temperature = true;
  spec.temperature_coef = sw.adaptive_temperature;
}

EacaAttnCall context_call(const EacaActivations& a, const EacaDims& d, const EacaSwitches& sw, const UnitFeatures& f) {
  EacaAttnCall c;
  c.in.B = 1;
  c.in.H = 1;
  c.in.Lq = a.U;
  c.in.Lk = a.U;
  c.in.D = d.A;
  c.in.Dv = d.D;
  c.in.q = a.qc.data();
  c.in.k = a.kc.data();
  c.in.v = a.vc.data();
  c.spec.scale = a.context_scale;
  c.spec.threads = 1;
  c.spec.normalizer = sw.normalizer;
  set_adaptive_temperature(c.spec, sw);
  if (sw.emotion_terms && !f.times.empty() && sw.time_decay > 0.0f) {
    c.in.q_times = f.times.data();
    c.in.k_times = f.times.data();
    c.spec.time_decay = sw.time_decay;
  }
  c.kernel = choose_attention_kernel(a.U, a.U, sw.kernel, sw.kernel_table);  // every unit is a query: no scatter needed
  apply_kernel_choice(c.spec, c.kernel);
  return c;
}

}  // namespace

EacaAttnCall eaca_emotion_call(const EacaActivations& a, const EacaDims& d, const EacaSwitches& sw,
                               const UnitFeatures& f) {
  EacaAttnCall c;
  c.in.B = 1;
  c.in.H = 1;
  c.in.Lq = a.Q;
  c.in.Lk = a.U;
  c.in.D = d.Ae();
  c.in.Dv = d.D;
  c.in.q = a.qe.data();
  c.in.k = a.ke.data();
  c.in.v = a.h1.data();
  if (sw.emotion_terms) c.in.key_boost = a.boost.data();
  if (sw.emotion_terms && !a.boost_gate.empty()) c.in.boost_gate = a.boost_gate.data();
  c.kernel = choose_attention_kernel(a.Q, a.U, sw.kernel, sw.kernel_table);
  apply_kernel_choice(c.spec, c.kernel);
  if (c.all_rows()) {  // the customer queries at their units' rows (eaca_model.h)
    c.q_all.assign(sz(a.U) * d.Ae(), 0.0f);
    for (int q = 0; q < a.Q; ++q)
      std::copy_n(a.qe.data() + sz(q) * d.Ae(), d.Ae(), c.q_all.data() + sz(f.customer_units[sz(q)]) * d.Ae());
    c.in.Lq = a.U;
    c.in.q = c.q_all.data();
  }
  if (sw.emotion_terms && sw.emotion_balance > 0.0f) {  // the seed's dynamic balance of the two terms
    c.in.emotion_ratio = &a.emotion_ratio;
    c.spec.balance = sw.emotion_balance;
  }
  c.spec.scale = a.emotion_scale;
  c.spec.threads = 1;
  c.spec.normalizer = sw.normalizer;
  set_adaptive_temperature(c.spec, sw);
  // Queries sit at the end of the key range by the engine's convention (pos_q = i + Lk - Lq). Full
  // attention uses no positional term or mask, so the alignment is irrelevant there; chunk-and-bridge
  // needs it, hence the all-rows form above (Lq = Lk = U, every query at its unit's position).
  if (sw.emotion_terms && !f.times.empty() && sw.time_decay > 0.0f) {
    c.in.q_times = c.all_rows() ? f.times.data() : a.qtimes.data();
    c.in.k_times = f.times.data();
    c.spec.time_decay = sw.time_decay;
  }
  return c;
}

void eaca_emotion_weights(float* weights, const EacaActivations& a, const EacaDims& d, const EacaSwitches& sw,
                          const UnitFeatures& f) {
  EacaAttnCall c = eaca_emotion_call(a, d, sw, f);
  if (sw.kv_dtype == KvDtype::kInt8) a.emotion_kv.use(c.in);  // the weights the forward attended with
  if (!c.all_rows()) {
    attention_weights(weights, c.in, c.spec);
    return;
  }
  std::vector<float> all(sz(a.U) * sz(a.U));
  attention_weights(all.data(), c.in, c.spec);
  for (int q = 0; q < a.Q; ++q)
    std::copy_n(all.data() + sz(f.customer_units[sz(q)]) * sz(a.U), a.U, weights + sz(q) * sz(a.U));
}

namespace {

// The EACA attention's forward into a.e [Q, D] and a.lse_e [Q] (eaca_model.h, EacaAttnCall).
void emotion_forward(EacaActivations& a, const EacaAttnCall& c, const UnitFeatures& f, int D) {
  if (!c.all_rows()) {
    a.e.assign(sz(a.Q) * D, 0.0f);
    a.lse_e.assign(sz(a.Q), 0.0f);
    attention_forward(a.e.data(), a.lse_e.data(), c.in, c.spec);
    return;
  }
  a.e.resize(sz(a.Q) * D);  // every row is a query's row of e_all, copied below
  a.lse_e.resize(sz(a.Q));
  a.e_all.assign(sz(a.U) * D, 0.0f);
  a.lse_all.assign(sz(a.U), 0.0f);
  attention_forward(a.e_all.data(), a.lse_all.data(), c.in, c.spec);
  for (int q = 0; q < a.Q; ++q) {
    const int u = f.customer_units[sz(q)];
    std::copy_n(a.e_all.data() + sz(u) * D, D, a.e.data() + sz(q) * D);
    a.lse_e[sz(q)] = a.lse_all[sz(u)];
  }
}

// Its backward: ADDS into g.dk, g.dv, g.dkey_boost, and dqe [Q, Ae]; de [Q, D].
void emotion_backward(AttentionGrads g, float* dqe, const float* de, const EacaActivations& a, const EacaAttnCall& c,
                      const UnitFeatures& f, int D, int Ae) {
  if (!c.all_rows()) {
    g.dq = dqe;
    attention_backward(g, de, a.e.data(), a.lse_e.data(), c.in, c.spec);
    return;
  }
  std::vector<float> de_all(sz(a.U) * D, 0.0f), dq_all(sz(a.U) * Ae, 0.0f);
  for (int q = 0; q < a.Q; ++q)
    std::copy_n(de + sz(q) * D, D, de_all.data() + sz(f.customer_units[sz(q)]) * D);
  g.dq = dq_all.data();
  attention_backward(g, de_all.data(), a.e_all.data(), a.lse_all.data(), c.in, c.spec);
  for (int q = 0; q < a.Q; ++q) {
    const float* src = dq_all.data() + sz(f.customer_units[sz(q)]) * Ae;
    for (int k = 0; k < Ae; ++k) dqe[sz(q) * Ae + k] += src[k];
  }
}

// One LSTM direction over the U rows of x [U, D], from the first row on or (reverse) from the last
// back. Fills gates [U, 4H] with i, f, g, o after their nonlinearities and c [U, H], and writes h_t
// into columns [col, col + H) of out [U, D].
void lstm_forward(const VectorMathKernels& vm, std::vector<float>& gates, std::vector<float>& c, float* out, int col,
                  const float* x, const LstmWeights& w, const LstmWeights* wt, int U, int D, int H, bool reverse) {
  const int G = 4 * H;
  gates.resize(sz(U) * G);  // both fully written below
  c.resize(sz(U) * H);
  // the input part of every step at once
  linear_forward(vm, gates.data(), x, w.wih, wt ? wt->wih : nullptr, w.b, U, D, G);
  // The recurrent part runs over Whh^T [H, 4H], so that the vectors run along the gates (as in
  // linear_forward).
  thread_local std::vector<float> copy;
  const float* whh_t = wt ? wt->whh : nullptr;
  if (whh_t == nullptr) {
    transpose_into(copy, w.whh, G, H);
    whh_t = copy.data();
  }
  const float* h_prev = nullptr;
  const float* c_prev = nullptr;
  for (int s = 0; s < U; ++s) {
    const int t = reverse ? U - 1 - s : s;
    float* gt = gates.data() + sz(t) * G;
    if (h_prev) vm.add_matvec_t(gt, whh_t, h_prev, sz(H), sz(G));
    float* ht = out + sz(t) * D + col;
    float* ct = c.data() + sz(t) * H;
    vm.lstm_cell_forward(gt, ct, ht, c_prev, sz(H));  // the nonlinearities, c_t and h_t
    h_prev = ht;
    c_prev = ct;
  }
}

// Backward of lstm_forward (backpropagation through time): dout [U, D] is read in columns
// [col, col + H); ADDS INTO dx [U, D] and gw's three tensors.
void lstm_backward(const VectorMathKernels& vm, float* dx, const LstmWeights& gw, const float* dout, int col,
                   const float* x, const float* out, const std::vector<float>& gates, const std::vector<float>& c,
                   const LstmWeights& w, int U, int D, int H, bool reverse) {
  const int G = 4 * H;
  std::vector<float> da(sz(U) * G, 0.0f), h_prev(sz(U) * H, 0.0f), dh_next(sz(H), 0.0f), dc_next(sz(H), 0.0f);
  std::vector<float> tanh_c(c);  // tanh(c_t), as the forward computed it
  vm.tanh_inplace(tanh_c.data(), tanh_c.size());
  for (int s = U - 1; s >= 0; --s) {
    const int t = reverse ? U - 1 - s : s;
    const int tp = reverse ? t + 1 : t - 1;  // the step before t in this direction (when s > 0)
    float* dat = da.data() + sz(t) * G;
    // the gates' gradients at t and dc_{t-1}, from dh = dout[t] + dh_next and dc_next
    vm.lstm_cell_backward(dat, dc_next.data(), gates.data() + sz(t) * G, tanh_c.data() + sz(t) * H,
                          s > 0 ? c.data() + sz(tp) * H : nullptr, dout + sz(t) * D + col, dh_next.data(), sz(H));
    std::fill(dh_next.begin(), dh_next.end(), 0.0f);
    if (s == 0) continue;
    // dh_{t-1} = Whh^T da_t (Whh [4H, H] is already Wt's layout)
    vm.add_matvec_t(dh_next.data(), w.whh, dat, sz(G), sz(H));
    std::copy_n(out + sz(tp) * D + col, H, h_prev.data() + sz(t) * H);
  }
  linear_backward(vm, dx, gw.wih, gw.b, da.data(), x, w.wih, U, D, G);
  linear_backward(vm, nullptr, gw.whh, nullptr, da.data(), h_prev.data(), w.whh, U, H, G);
}

}  // namespace

void Int8Kv::quantize(AttentionInputs& in) {
  KESSEL_CHECK_ARG(in.kv_dtype == KvDtype::kFloat32 && in.k != nullptr && in.v != nullptr && in.B == 1 && in.H == 1,
                   "Int8Kv::quantize: needs float32 k and v with B = H = 1");
  k.resize(static_cast<std::size_t>(in.Lk * in.D));
  v.resize(static_cast<std::size_t>(in.Lk * in.Dv));
  k_scale.resize(static_cast<std::size_t>(in.Lk));
  v_scale.resize(static_cast<std::size_t>(in.Lk));
  quantize_rows(k.data(), k_scale.data(), in.k, in.Lk, in.D);
  quantize_rows(v.data(), v_scale.data(), in.v, in.Lk, in.Dv);
  use(in);
}

void Int8Kv::use(AttentionInputs& in) const {
  KESSEL_CHECK_ARG(k.size() == static_cast<std::size_t>(in.Lk * in.D) && v.size() == static_cast<std::size_t>(in.Lk * in.Dv),
                   "Int8Kv::use: the stored K/V are [", k_scale.size(), ", *], the call has Lk = ", in.Lk);
  in.kv_dtype = KvDtype::kInt8;
  in.k = in.v = nullptr;
  in.k_int8 = k.data();
  in.k_scale = k_scale.data();
  in.v_int8 = v.data();
  in.v_scale = v_scale.data();
}

bool uses_engine_attention(const EacaDims& d, const EacaSwitches& sw) {
  return (sw.context_encoder && !d.bilstm) || sw.emotion_attention;
}

EacaDims dims_of(const EacaConfig& c) {
  KESSEL_CHECK_ARG(c.hash_buckets >= 1 && c.embed_dim >= 1 && c.hidden >= 1 && c.attn_dim >= 1,
                   "EacaConfig: hash_buckets, embed_dim, hidden and attn_dim must be >= 1, got ", c.hash_buckets,
                   ", ", c.embed_dim, ", ", c.hidden, ", ", c.attn_dim);
  KESSEL_CHECK_ARG(!(c.context_encoder && c.context_bilstm) || c.hidden % 2 == 0, "EacaConfig: the BiLSTM context encoder needs an even hidden "
                   "width (D/2 units per direction), got ", c.hidden);
  EacaDims d{c.hash_buckets, c.embed_dim, c.hidden, c.attn_dim, c.context_encoder && c.context_bilstm,
             c.modality_norm};
  d.boost_gate = c.boost_gate;
  return d;
}

std::int64_t ParamSpec::size() const {
  std::int64_t n = 1;
  for (auto s : shape) n *= s;
  return n;
}

std::vector<ParamSpec> eaca_param_specs(const EacaDims& d) {
  std::vector<ParamSpec> specs;
  auto add = [&](const char* name, std::vector<std::int64_t> shape, bool decay) {
    specs.push_back(ParamSpec{name, std::move(shape), decay});
  };
  add("emb", {d.V, d.E}, true);
  add("w_in", {d.D, d.F()}, true);
  add("b_in", {d.D}, false);
  if (d.bilstm) {  // the context layer: a BiLSTM, or the self-attention's projections
    const std::int64_t G = 4 * d.H();
    add("lstm_wih_f", {G, d.D}, true);
    add("lstm_whh_f", {G, d.H()}, true);
    add("lstm_b_f", {G}, false);
    add("lstm_wih_b", {G, d.D}, true);
    add("lstm_whh_b", {G, d.H()}, true);
    add("lstm_b_b", {G}, false);
  } else {
    add("wq", {d.A, d.D}, true);
    add("wk", {d.A, d.D}, true);
    add("wv", {d.D, d.D}, true);
  }
  add("wqe", {d.A, d.D}, true);
  add("wke", {d.A, d.D}, true);
  add("boost", {1}, false);
  add("ws", {d.D, 2 * d.D}, true);
  add("bs", {d.D}, false);
  add("vs", {d.D}, true);
  add("cs", {1}, false);
  add("wh", {d.D + 2}, true);
  add("bh", {1}, false);
  add("wm", {d.D}, true);
  add("wi", {1}, false);
  add("bm", {1}, false);
  if (d.modality_norm) {  // last, so that the other tensors keep their offsets and initial values
    add("mnorm_w", {d.M()}, false);
    add("mnorm_b", {d.M()}, false);
  }
  if (d.boost_gate) add("boost_gate", {d.G()}, false);  // last too (eaca_boost_gate_init)
  std::int64_t off = 0;
  for (auto& s : specs) {
    s.offset = off;
    off += s.size();
  }
  return specs;
}

namespace {

// eaca_param_specs(d), made once per thread for the dims asked for last: scoring carves the weights
// of each member for each dialogue, and the specs' strings and shapes cost more than the forward's
// smaller layers on a short dialogue.
const std::vector<ParamSpec>& specs_of(const EacaDims& d) {
  thread_local std::vector<ParamSpec> specs;
  thread_local EacaDims made_for;
  if (specs.empty() || !(made_for == d)) {
    specs = eaca_param_specs(d);
    made_for = d;
  }
  return specs;
}

// The tensors carve_weights hands out, in the order of kCarvedNames.
enum CarvedTensor {
  kEmb, kWIn, kBIn, kWq, kWk, kWv, kWqe, kWke, kBoost, kWs, kBs, kVs, kCs, kWh, kBh, kWm, kWi, kBm,
  kWihF, kWhhF, kBF, kWihB, kWhhB, kBB, kMnormW, kMnormB, kBoostGate, kCarvedTensors
};
constexpr const char* kCarvedNames[kCarvedTensors] = {
    "emb", "w_in", "b_in", "wq", "wk", "wv", "wqe", "wke", "boost", "ws", "bs", "vs", "cs", "wh",
    "bh", "wm", "wi", "bm", "lstm_wih_f", "lstm_whh_f", "lstm_b_f", "lstm_wih_b", "lstm_whh_b",
    "lstm_b_b", "mnorm_w", "mnorm_b", "boost_gate"};

// Where each carved tensor starts in a member's parameters (-1: a tensor these dims do not have),
// found by name once per thread for the dims asked for last, as specs_of: scoring carves every
// member's weights for each dialogue, and the 27 name searches cost 1.4% of a 5-member EACA summary.
const std::array<std::int64_t, kCarvedTensors>& carved_offsets(const EacaDims& d) {
  thread_local std::array<std::int64_t, kCarvedTensors> offsets{};
  thread_local EacaDims made_for;
  thread_local bool made = false;
  if (!made || !(made_for == d)) {
    const std::vector<ParamSpec>& specs = specs_of(d);
    for (int t = 0; t < kCarvedTensors; ++t) {
      const auto it = std::find_if(specs.begin(), specs.end(),
                                   [&](const ParamSpec& s) { return s.name == kCarvedNames[t]; });
      offsets[static_cast<std::size_t>(t)] = it == specs.end() ? -1 : it->offset;
    }
    made_for = d;
    made = true;
  }
  return offsets;
}

}  // namespace

std::int64_t eaca_param_count(const EacaDims& d) {
  const std::vector<ParamSpec>& specs = specs_of(d);
  return specs.back().offset + specs.back().size();
}

EacaWeights carve_weights(float* base, const EacaDims& d) {
  const std::array<std::int64_t, kCarvedTensors>& offsets = carved_offsets(d);
  auto at = [&](CarvedTensor t) -> float* {
    const std::int64_t o = offsets[static_cast<std::size_t>(t)];
    return o < 0 ? nullptr : base + o;
  };
  EacaWeights w{at(kEmb), at(kWIn), at(kBIn), at(kWq),  at(kWk), at(kWv), {}, {}, at(kWqe), at(kWke),
                at(kBoost), at(kWs), at(kBs), at(kVs), at(kCs), at(kWh), at(kBh), at(kWm), at(kWi), at(kBm)};
  w.fwd = LstmWeights{at(kWihF), at(kWhhF), at(kBF)};
  w.bwd = LstmWeights{at(kWihB), at(kWhhB), at(kBB)};
  w.mnorm_w = at(kMnormW);
  w.mnorm_b = at(kMnormB);
  w.boost_gate = at(kBoostGate);
  return w;
}

std::vector<float> transposed_layout(const float* params, const EacaDims& d) {
  const std::int64_t P = eaca_param_count(d);
  std::vector<float> out(params, params + P);
  for (const auto& s : eaca_param_specs(d))
    if (s.shape.size() == 2)
      transpose_into_at(out.data() + s.offset, params + s.offset, static_cast<int>(s.shape[0]),
                        static_cast<int>(s.shape[1]));
  return out;
}

void eaca_init(float* params, const EacaDims& d, std::uint64_t seed) {
  std::uint64_t state = seed;
  auto next = [&] {  // [0, 1), the same stream on every platform
    return static_cast<float>(static_cast<double>(splitmix64(state) >> 11) * 0x1.0p-53);
  };
  for (const auto& s : eaca_param_specs(d)) {
    float* p = params + s.offset;
    const auto n = s.size();
    float bound = 0.0f;
    if (s.name == "emb") bound = 0.1f;
    else if (s.shape.size() == 2) bound = std::sqrt(6.0f / static_cast<float>(s.shape[0] + s.shape[1]));
    else if (s.name == "vs" || s.name == "wh" || s.name == "wm") bound = std::sqrt(3.0f / static_cast<float>(n));
    for (std::int64_t i = 0; i < n; ++i) p[i] = bound > 0.0f ? bound * (2.0f * next() - 1.0f) : 0.0f;
  }
  // Start with a mild preference for emotion units; the sign and size are learned.
  const EacaWeights w = carve_weights(params, d);
  w.boost[0] = 0.5f;
  // LSTM forget gates start open (bias 1; Jozefowicz et al. 2015), so early gradients pass through time.
  if (d.bilstm)
    for (float* b : {w.fwd.b, w.bwd.b}) std::fill_n(b + d.H(), d.H(), 1.0f);
  if (d.modality_norm) std::fill_n(w.mnorm_w, d.M(), 1.0f);  // the norm's gain starts at 1, its bias at 0
  // The boost gate starts open and flat: w_q = w_k = 0, b_g = 2 (g = 0.88 for every pair: close to
  // today's ungated boost, with the sigmoid's slope 0.10 left to learn from).
  if (d.boost_gate) w.boost_gate[d.G() - 1] = 2.0f;
}

void eaca_forward(EacaActivations& a, const EacaWeights& w, const EacaDims& d, const EacaSwitches& sw,
                  const UnitFeatures& f, const std::vector<int>& mention_unit, EacaForwardCost* cost) {
  const int U = f.units, F = d.F(), D = d.D, A = d.A, Ae = d.Ae(), E = d.E;
  a.U = U;
  a.Q = sw.emotion_attention ? static_cast<int>(f.customer_units.size()) : 0;
  const int Q = a.Q;
  Timer timer;
  auto layer_done = [&](EacaForwardCost::Layer layer, double flops) {
    if (!cost) return;
    cost->ms[layer] += timer.milliseconds();
    cost->flops[layer] += flops;
    timer.reset();
  };
  const double Uf = U, Qf = Q;  // for the FLOP counts
  // The op's one look at the CPU: this forward, and the backward of these activations, run the
  // variant in use now.
  const VectorMathKernels& vm = vector_math_kernels(simd::active_target());
  a.kernels = &vm;
  // A weight matrix's transposed copy, when the caller keeps them (EacaWeights::transposed).
  const EacaWeights* wt = w.transposed;
  auto t = [wt](float* EacaWeights::*m) -> const float* { return wt ? wt->*m : nullptr; };
  a.context_scale = a.emotion_scale = std::numeric_limits<float>::quiet_NaN();  // act is reused
  a.x.resize(sz(U) * F);  // each row is written whole below: F = E + kNumDenseFeatures
  for (int u = 0; u < U; ++u) {
    float* xr = a.x.data() + sz(u) * F;
    const int t0 = f.token_offsets[sz(u)], t1 = f.token_offsets[sz(u) + 1];
    std::fill_n(xr, E, 0.0f);
    if (t1 > t0) {
      const float inv = 1.0f / static_cast<float>(t1 - t0);
      vm.add_scaled_rows(xr, inv, w.emb, f.token_ids.data() + t0, sz(t1 - t0), sz(E));  // an axpy a token
    }
    std::copy_n(f.dense.data() + sz(u) * kNumDenseFeatures, kNumDenseFeatures, xr + E);
  }
  if (d.modality_norm) modality_norm_forward(a, w, d);
  a.h0.resize(sz(U) * D);
  linear_forward(vm, a.h0.data(), a.x.data(), w.w_in, t(&EacaWeights::w_in), w.b_in, U, F, D);
  vm.tanh_inplace(a.h0.data(), a.h0.size());
  layer_done(EacaForwardCost::kFuse, 2.0 * E * static_cast<double>(f.token_ids.size()) + 2.0 * Uf * F * D);

  a.h1 = a.h0;
  if (sw.context_encoder && U > 0) {
    // The two LSTM directions write every column when D is even; the attention path starts from zeros.
    if (d.bilstm && 2 * d.H() == D) a.ctx.resize(sz(U) * D);
    else a.ctx.assign(sz(U) * D, 0.0f);
    double flops = 0.0;
    if (d.bilstm) {
      const int H = d.H();
      lstm_forward(vm, a.gates_f, a.c_f, a.ctx.data(), 0, a.h0.data(), w.fwd, wt ? &wt->fwd : nullptr, U, D, H,
                   false);
      lstm_forward(vm, a.gates_b, a.c_b, a.ctx.data(), H, a.h0.data(), w.bwd, wt ? &wt->bwd : nullptr, U, D, H,
                   true);
      flops = 2.0 * 2.0 * Uf * 4.0 * H * (D + H);
    } else {
      a.qc.resize(sz(U) * A);
      a.kc.resize(sz(U) * A);
      a.vc.resize(sz(U) * D);
      linear_forward(vm, a.qc.data(), a.h0.data(), w.wq, t(&EacaWeights::wq), nullptr, U, D, A);
      linear_forward(vm, a.kc.data(), a.h0.data(), w.wk, t(&EacaWeights::wk), nullptr, U, D, A);
      linear_forward(vm, a.vc.data(), a.h0.data(), w.wv, t(&EacaWeights::wv), nullptr, U, D, D);
      a.lse_c.assign(sz(U), 0.0f);
      if (sw.zscore_logits) a.context_scale = zscore_scale(a.qc.data(), U, a.kc.data(), U, A);
      EacaAttnCall c = context_call(a, d, sw, f);
      if (sw.kv_dtype == KvDtype::kInt8) a.context_kv.quantize(c.in);
      attention_forward(a.ctx.data(), a.lse_c.data(), c.in, c.spec);
      flops = 2.0 * Uf * D * (2.0 * A + D) + 2.0 * Uf * Uf * (A + D);
    }
    for (std::size_t i = 0; i < a.h1.size(); ++i) a.h1[i] += a.ctx[i];
    layer_done(EacaForwardCost::kContext, flops);
  }

  a.g.assign(sz(D), 0.0f);
  if (Q > 0) {
    // qe [Q, Ae] and ke [U, Ae] rows are written whole: A projected columns, then unit u's wheel
    // point (zeros without the emotion terms).
    a.qe.resize(sz(Q) * Ae);
    a.ke.resize(sz(U) * Ae);
    a.qtimes.assign(f.times.empty() ? 0 : sz(Q), 0.0f);
    auto write_row = [&](float* row, const float* projected, int u) {
      std::copy_n(projected, A, row);
      row[A] = sw.emotion_terms ? f.wheel[sz(u) * 2] : 0.0f;
      row[A + 1] = sw.emotion_terms ? f.wheel[sz(u) * 2 + 1] : 0.0f;
    };
    thread_local std::vector<float> tmp;  // [U, A], written whole by each linear_forward
    tmp.resize(sz(U) * A);
    linear_forward(vm, tmp.data(), a.h1.data(), w.wke, t(&EacaWeights::wke), nullptr, U, D, A);
    for (int u = 0; u < U; ++u) write_row(a.ke.data() + sz(u) * Ae, tmp.data() + sz(u) * A, u);
    linear_forward(vm, tmp.data(), a.h1.data(), w.wqe, t(&EacaWeights::wqe), nullptr, U, D, A);
    for (int q = 0; q < Q; ++q) {
      const int u = f.customer_units[sz(q)];
      write_row(a.qe.data() + sz(q) * Ae, tmp.data() + sz(u) * A, u);
      if (!a.qtimes.empty()) a.qtimes[sz(q)] = f.times[sz(u)];
    }
    a.boost.resize(sz(U));
    int emotional = 0;
    for (int u = 0; u < U; ++u) {
      a.boost[sz(u)] = w.boost[0] * f.emotion[sz(u)];
      emotional += f.emotion[sz(u)] > 0.0f ? 1 : 0;
    }
    a.emotion_ratio = static_cast<float>(emotional) / static_cast<float>(U);
    if (d.boost_gate) a.boost_gate.assign(w.boost_gate, w.boost_gate + d.G());
    else a.boost_gate.clear();
    if (sw.zscore_logits) a.emotion_scale = zscore_scale(a.qe.data(), Q, a.ke.data(), U, Ae);
    EacaAttnCall c = eaca_emotion_call(a, d, sw, f);
    if (sw.kv_dtype == KvDtype::kInt8) a.emotion_kv.quantize(c.in);
    emotion_forward(a, c, f, D);
    for (int q = 0; q < Q; ++q)
      for (int k = 0; k < D; ++k) a.g[sz(k)] += a.e[sz(q) * D + k] / static_cast<float>(Q);
    layer_done(EacaForwardCost::kEmotion, 2.0 * Uf * D * 2.0 * A + 2.0 * Qf * Uf * (Ae + D));
  }

  // Salience: z = tanh([h1 ; g] Ws^T + bs), sal = z . vs + cs.
  thread_local std::vector<float> zin;  // [U, 2D], written whole below
  zin.resize(sz(U) * 2 * D);
  for (int u = 0; u < U; ++u) {
    std::copy_n(a.h1.data() + sz(u) * D, D, zin.data() + sz(u) * 2 * D);
    std::copy_n(a.g.data(), D, zin.data() + sz(u) * 2 * D + D);
  }
  a.z.resize(sz(U) * D);
  linear_forward(vm, a.z.data(), zin.data(), w.ws, t(&EacaWeights::ws), w.bs, U, 2 * D, D);
  vm.tanh_inplace(a.z.data(), a.z.size());
  a.salience.resize(sz(U));
  linear_forward(vm, a.salience.data(), a.z.data(), w.vs, w.vs, w.cs, U, D, 1);  // [1, D]: its own transpose

  float has = w.bh[0];
  for (int k = 0; k < D; ++k) has += w.wh[k] * a.g[sz(k)];
  has += w.wh[D] * (f.any_expressed ? 1.0f : 0.0f) + w.wh[D + 1] * f.max_intensity;
  a.has_logit = has;

  a.mention_logit.resize(mention_unit.size());
  for (std::size_t m = 0; m < mention_unit.size(); ++m) {
    const float* hr = a.h1.data() + sz(mention_unit[m]) * D;
    float s = w.bm[0] + w.wi[0] * f.mention_intensity[m];
    for (int k = 0; k < D; ++k) s += w.wm[k] * hr[k];
    a.mention_logit[m] = s;
  }
  layer_done(EacaForwardCost::kHeads,
             2.0 * Uf * (2.0 * D * D + D) + 2.0 * (D + 2) + 2.0 * static_cast<double>(mention_unit.size()) * (D + 1));
}

double eaca_backward(const EacaWeights& gw, const EacaActivations& a, const EacaWeights& w, const EacaDims& d,
                     const EacaSwitches& sw, const UnitFeatures& f, const std::vector<int>& mention_unit,
                     const EacaTargets& t, const LossWeights& lw) {
  const int U = a.U, Q = a.Q, D = d.D, A = d.A, Ae = d.Ae(), F = d.F(), E = d.E;
  KESSEL_CHECK_ARG(sw.kv_dtype == KvDtype::kFloat32,
                   "eaca_backward: kv_dtype = int8 is for scoring only; training needs float32 K/V");
  KESSEL_CHECK_ARG(t.salience.size() == sz(U), "eaca_backward: salience targets have ", t.salience.size(),
                   " entries for ", U, " units");
  KESSEL_CHECK_ARG(t.mention.empty() || t.mention.size() == mention_unit.size(), "eaca_backward: mention targets have ",
                   t.mention.size(), " entries for ", mention_unit.size(), " mentions");
  // The variant that computed the activations (eaca_forward records it).
  const VectorMathKernels& vm = a.kernels ? *a.kernels : vector_math_kernels(simd::active_target());
  double loss = 0.0;
  std::vector<float> dh1(sz(U) * D, 0.0f), dg(sz(D), 0.0f);

  // Salience: loss += mean_u BCE(sal[u], y[u]).
  if (U > 0) {
    std::vector<float> dsal(sz(U)), dz(sz(U) * D, 0.0f), dzin(sz(U) * 2 * D, 0.0f), zin(sz(U) * 2 * D);
    for (int u = 0; u < U; ++u) {
      loss += bce(a.salience[sz(u)], t.salience[sz(u)]) / U;
      dsal[sz(u)] = (sigmoid(a.salience[sz(u)]) - t.salience[sz(u)]) / static_cast<float>(U);
      std::copy_n(a.h1.data() + sz(u) * D, D, zin.data() + sz(u) * 2 * D);
      std::copy_n(a.g.data(), D, zin.data() + sz(u) * 2 * D + D);
    }
    // sal = z . vs + cs
    linear_backward(vm, dz.data(), gw.vs, gw.cs, dsal.data(), a.z.data(), w.vs, U, D, 1);
    // z = tanh(pre): dpre = dz * (1 - z^2)
    vm.tanh_backward_inplace(dz.data(), a.z.data(), dz.size());
    linear_backward(vm, dzin.data(), gw.ws, gw.bs, dz.data(), zin.data(), w.ws, U, 2 * D, D);
    for (int u = 0; u < U; ++u)
      for (int k = 0; k < D; ++k) {
        dh1[sz(u) * D + k] += dzin[sz(u) * 2 * D + k];
        dg[sz(k)] += dzin[sz(u) * 2 * D + D + k];
      }
  }

  // Coverage: has = [g ; any ; max_int] . wh + bh.
  if (t.has_emotion >= 0.0f) {
    loss += lw.coverage * bce(a.has_logit, t.has_emotion);
    const float dl = lw.coverage * (sigmoid(a.has_logit) - t.has_emotion);
    for (int k = 0; k < D; ++k) {
      gw.wh[k] += dl * a.g[sz(k)];
      dg[sz(k)] += dl * w.wh[k];
    }
    gw.wh[D] += dl * (f.any_expressed ? 1.0f : 0.0f);
    gw.wh[D + 1] += dl * f.max_intensity;
    gw.bh[0] += dl;
  }

  // Emotion source: src[m] = h1[unit(m)] . wm + wi * intensity[m] + bm, mean over labelled mentions.
  int labelled = 0;
  for (float y : t.mention) labelled += y >= 0.0f;
  for (std::size_t m = 0; m < t.mention.size() && labelled > 0; ++m) {
    if (t.mention[m] < 0.0f) continue;
    loss += lw.source * bce(a.mention_logit[m], t.mention[m]) / labelled;
    const float dl = lw.source * (sigmoid(a.mention_logit[m]) - t.mention[m]) / static_cast<float>(labelled);
    const float* hr = a.h1.data() + sz(mention_unit[m]) * D;
    float* dhr = dh1.data() + sz(mention_unit[m]) * D;
    for (int k = 0; k < D; ++k) {
      gw.wm[k] += dl * hr[k];
      dhr[k] += dl * w.wm[k];
    }
    gw.wi[0] += dl * f.mention_intensity[m];
    gw.bm[0] += dl;
  }

  // EACA attention: g = mean_q e[q]; e = attn(qe, ke, v = h1, key_boost = boost * emotion).
  if (Q > 0) {
    std::vector<float> de(sz(Q) * D), dqe(sz(Q) * Ae, 0.0f), dke(sz(U) * Ae, 0.0f), dboost(sz(U), 0.0f);
    for (int q = 0; q < Q; ++q)
      for (int k = 0; k < D; ++k) de[sz(q) * D + k] = dg[sz(k)] / static_cast<float>(Q);
    const EacaAttnCall c = eaca_emotion_call(a, d, sw, f);
    AttentionGrads g;
    g.dk = dke.data();
    g.dv = dh1.data();  // v = h1: the value gradient lands directly in dh1
    if (sw.emotion_terms) g.dkey_boost = dboost.data();
    if (sw.emotion_terms && d.boost_gate) g.dboost_gate = gw.boost_gate;  // and its terms in dqe, dke
    emotion_backward(g, dqe.data(), de.data(), a, c, f, D, Ae);
    for (int u = 0; u < U; ++u) gw.boost[0] += dboost[sz(u)] * f.emotion[sz(u)];  // 0 without the terms
    // ke[u, :A] = h1[u] Wke^T (the wheel columns are inputs, their gradient is dropped).
    std::vector<float> dk_a(sz(U) * A), dq_a(sz(U) * A, 0.0f);
    for (int u = 0; u < U; ++u) std::copy_n(dke.data() + sz(u) * Ae, A, dk_a.data() + sz(u) * A);
    linear_backward(vm, dh1.data(), gw.wke, nullptr, dk_a.data(), a.h1.data(), w.wke, U, D, A);
    // qe[q, :A] = h1[cust(q)] Wqe^T: scatter to unit rows, then one linear backward over all units.
    for (int q = 0; q < Q; ++q) {
      const int u = f.customer_units[sz(q)];
      for (int k = 0; k < A; ++k) dq_a[sz(u) * A + k] += dqe[sz(q) * Ae + k];
    }
    linear_backward(vm, dh1.data(), gw.wqe, nullptr, dq_a.data(), a.h1.data(), w.wqe, U, D, A);
  }

  // h1 = h0 + ctx.
  std::vector<float> dh0 = dh1;
  if (sw.context_encoder && U > 0) {
    if (d.bilstm) {
      const int H = d.H();
      lstm_backward(vm, dh0.data(), gw.fwd, dh1.data(), 0, a.h0.data(), a.ctx.data(), a.gates_f, a.c_f, w.fwd, U, D,
                    H, false);
      lstm_backward(vm, dh0.data(), gw.bwd, dh1.data(), H, a.h0.data(), a.ctx.data(), a.gates_b, a.c_b, w.bwd, U, D,
                    H, true);
    } else {
      std::vector<float> dqc(sz(U) * A, 0.0f), dkc(sz(U) * A, 0.0f), dvc(sz(U) * D, 0.0f);
      const EacaAttnCall c = context_call(a, d, sw, f);
      AttentionGrads g;
      g.dq = dqc.data();
      g.dk = dkc.data();
      g.dv = dvc.data();
      attention_backward(g, dh1.data(), a.ctx.data(), a.lse_c.data(), c.in, c.spec);
      linear_backward(vm, dh0.data(), gw.wq, nullptr, dqc.data(), a.h0.data(), w.wq, U, D, A);
      linear_backward(vm, dh0.data(), gw.wk, nullptr, dkc.data(), a.h0.data(), w.wk, U, D, A);
      linear_backward(vm, dh0.data(), gw.wv, nullptr, dvc.data(), a.h0.data(), w.wv, U, D, D);
    }
  }

  // h0 = tanh(x W_in^T + b_in); x[u, :E] = mean of token embeddings.
  vm.tanh_backward_inplace(dh0.data(), a.h0.data(), dh0.size());
  std::vector<float> dx(sz(U) * F, 0.0f);
  linear_backward(vm, dx.data(), gw.w_in, gw.b_in, dh0.data(), a.x.data(), w.w_in, U, F, D);
  if (d.modality_norm) modality_norm_backward(dx.data(), gw, a, w, d);
  for (int u = 0; u < U; ++u) {
    const int t0 = f.token_offsets[sz(u)], t1 = f.token_offsets[sz(u) + 1];
    if (t1 <= t0) continue;
    const float inv = 1.0f / static_cast<float>(t1 - t0);
    for (int tk = t0; tk < t1; ++tk) vm.axpy(gw.emb + sz(f.token_ids[sz(tk)]) * E, inv, dx.data() + sz(u) * F, sz(E));
  }
  return loss;
}

double eaca_loss(const EacaWeights& w, const EacaDims& d, const EacaSwitches& sw, const UnitFeatures& f,
                 const std::vector<int>& mention_unit, const EacaTargets& t, const LossWeights& lw) {
  EacaActivations a;
  eaca_forward(a, w, d, sw, f, mention_unit);
  double loss = 0.0;
  for (int u = 0; u < a.U; ++u) loss += bce(a.salience[sz(u)], t.salience[sz(u)]) / a.U;
  if (t.has_emotion >= 0.0f) loss += lw.coverage * bce(a.has_logit, t.has_emotion);
  int labelled = 0;
  for (float y : t.mention) labelled += y >= 0.0f;
  for (std::size_t m = 0; m < t.mention.size(); ++m)
    if (t.mention[m] >= 0.0f) loss += lw.source * bce(a.mention_logit[m], t.mention[m]) / labelled;
  return loss;
}

}  // namespace kessel::summarize
