// EACA forward and backward over one dialogue (internal to the summarize area).
//
// Shapes: U units, Q customer units, N tokens, V hash buckets, E embedding width, F = E + kNumDense
// input width, D unit state width, A query/key width, Ae = A + 2 (EACA keys carry the wheel (x, y)).
//
//   x[u]   = [ mean_{t in u} emb[id_t] ; dense[u] ]                      [U, F]
//            with modality_norm, its text, wheel and time columns then each layer-normalized
//            (eaca_modality_norm.h; gain mnorm_w, bias mnorm_b)
//   h0     = tanh(x W_in^T + b_in)                                       [U, D]
//   ctx    = attn(q = h0 Wq^T, k = h0 Wk^T, v = h0 Wv^T; time decay)      [U, D]   (context encoder)
//          or [LSTM_f(h0) ; LSTM_b(h0)], H = D/2 units per direction       [U, D]   (with bilstm)
//            LSTM step: [i f g o] = [σ σ tanh σ](x_t Wih^T + h_{t-1} Whh^T + b), gates in PyTorch's
//            order; c_t = f c_{t-1} + i g, h_t = o tanh(c_t); LSTM_b runs from the last unit back
//   h1     = h0 + ctx                                                    [U, D]
//   e      = attn(q = [h1[cust] Wqe^T ; wheel[cust]], k = [h1 Wke^T ; wheel], v = h1,
//                 key_boost = boost * emotion, time decay)               [Q, D]   (EACA attention)
//            with boost_gate, the boost of key j for query q is gated: g_qj boost * emotion_j,
//            g_qj = σ(qe_q . w_q + ke_j . w_k + b_g), boost_gate = [w_q ; w_k ; b_g] [2 Ae + 1]
//   g      = mean_q e[q]  (0 when Q = 0 or the EACA attention is off)    [D]
//   z      = tanh([h1 ; g] Ws^T + bs)                                    [U, D]
//   sal[u] = z[u] . vs + cs                                              (salience logit)
//   has    = [g ; any_expressed ; max_intensity] . wh + bh               (has-emotion logit)
//   src[m] = h1[unit(m)] . wm + wi * intensity[m] + bm                   (emotion-source logit)
// Loss = mean_u BCE(sal, y) + coverage_weight * BCE(has, y_has) + source_weight * mean_m BCE(src, y_m).
// The forward's tanh and σ, its products and LSTM steps are util/vector_math_kernels.h's, in the SIMD
// variant in use when eaca_forward starts (tanh and σ within 1.6e-7 relative of the exact functions;
// how the variants' bits differ: that header and docs/eaca.md); the loss's σ is std::exp's.
#pragma once

#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "kessel/attention_choice.h"
#include "kessel/summarize/eaca.h"
#include "summarize/eaca_features.h"
#include "util/vector_math_kernels.h"

namespace kessel::summarize {

struct EacaDims {
  int V = 0, E = 0, D = 0, A = 0;
  bool bilstm = false;  // the context layer's parameters are an LSTM's (wq, wk, wv absent)
  bool modality_norm = false;  // EacaConfig::modality_norm: the tensors mnorm_w, mnorm_b [M()]
  bool boost_gate = false;     // EacaConfig::boost_gate: the tensor boost_gate [G()]
  int F() const { return E + kNumDenseFeatures; }
  int Ae() const { return A + 2; }
  int H() const { return D / 2; }  // LSTM units per direction
  int M() const { return E + 5; }   // the normalized columns: text (E), wheel (2), time (3)
  int G() const { return 2 * Ae() + 1; }  // the boost gate: [w_q (Ae) ; w_k (Ae) ; b_g]
  bool operator==(const EacaDims&) const = default;
};
EacaDims dims_of(const EacaConfig& config);

struct ParamSpec {
  std::string name;
  std::vector<std::int64_t> shape;
  bool decay = true;  // AdamW weight decay applies
  std::int64_t offset = 0;
  std::int64_t size() const;
};
// The parameter tensors in file and buffer order, with offsets into the flat buffer.
std::vector<ParamSpec> eaca_param_specs(const EacaDims& dims);
std::int64_t eaca_param_count(const EacaDims& dims);

// Views into a flat buffer laid out by eaca_param_specs (parameters or their gradients); the
// tensors of the context layer the dims do not have are null.
struct LstmWeights {
  float* wih = nullptr;  // [4H, D]
  float* whh = nullptr;  // [4H, H]
  float* b = nullptr;    // [4H] (PyTorch's b_ih + b_hh)
};
struct EacaWeights {
  float* emb;     // [V, E]
  float* w_in;    // [D, F]
  float* b_in;    // [D]
  float* wq;      // [A, D]
  float* wk;      // [A, D]
  float* wv;      // [D, D]
  LstmWeights fwd, bwd;  // with dims.bilstm
  float* wqe;     // [A, D]
  float* wke;     // [A, D]
  float* boost;   // [1]
  float* ws;      // [D, 2D]
  float* bs;      // [D]
  float* vs;      // [D]
  float* cs;      // [1]
  float* wh;      // [D + 2]
  float* bh;      // [1]
  float* wm;      // [D]
  float* wi;      // [1]
  float* bm;      // [1]
  float* mnorm_w = nullptr;  // [M] with dims.modality_norm
  float* mnorm_b = nullptr;  // [M]
  float* boost_gate = nullptr;  // [G] with dims.boost_gate
  // Optional, for scoring only: a view of transposed_layout() of these same weights. The forward then
  // reads each matrix's transposed copy instead of making it anew (same results, bit for bit).
  const EacaWeights* transposed = nullptr;
};
EacaWeights carve_weights(float* base, const EacaDims& dims);
// A copy of one member's parameters in which each 2-D tensor [O, I] is stored transposed, [I, O], at
// its own offset (the 1-D ones as they are): what eaca_forward's products read. The copy is only
// right while the parameters it came from do not change; EacaModel keeps one for a model that scores.
std::vector<float> transposed_layout(const float* params, const EacaDims& dims);

// Deterministic initialization (splitmix64-driven uniform Xavier; embeddings U(-0.1, 0.1); LSTM
// forget-gate biases 1).
void eaca_init(float* params, const EacaDims& dims, std::uint64_t seed);

// K and V of one engine attention layer stored as int8 (EacaSwitches::kv_dtype = int8; scoring only):
// quantize_rows' symmetric per-row scales, B = H = 1.
struct Int8Kv {
  std::vector<std::int8_t> k, v;
  std::vector<float> k_scale, v_scale;
  // Quantizes in.k [Lk, D] and in.v [Lk, Dv] into this, then points `in` at the int8 copies
  // (kv_dtype = int8, k = v = null).
  void quantize(AttentionInputs& in);
  // Points `in` (same Lk, D, Dv) at the copies quantize() made.
  void use(AttentionInputs& in) const;
};

// Everything the backward pass needs.
struct EacaActivations {
  int U = 0, Q = 0;
  std::vector<float> x, h0, qc, kc, vc, ctx, lse_c, h1;  // see the shapes above
  // With dims.modality_norm: x holds the normalized columns; xm [U, M] the columns before the norm,
  // mnorm_mean / mnorm_rstd [U, 3] their statistics per group.
  std::vector<float> xm, mnorm_mean, mnorm_rstd;
  std::vector<float> gates_f, c_f, gates_b, c_b;          // BiLSTM: [U, 4H] after the nonlinearity, [U, H]
  std::vector<float> qe, ke, boost, qtimes, e, lse_e, g;
  std::vector<float> boost_gate;  // the gate's parameters as the forward read them [G] (dims.boost_gate)
  // The EACA attention under chunk_bridge (EacaAttnCall): the engine's output [U, D] and lse [U] over
  // every unit's row; e and lse_e hold the customer rows gathered from them.
  std::vector<float> e_all, lse_all;
  float emotion_ratio = 0.0f;  // share of units with an expressed emotion (EacaSwitches::emotion_balance)
  std::vector<float> z, salience;                        // [U, D], [U]
  float has_logit = 0.0f;
  std::vector<float> mention_logit;                      // [M]
  // The similarity scales the two attention layers ran with: NaN (the engine's 1/sqrt(width)), or
  // 1/std(q.k) over the layer's query-key pairs when EacaSwitches::zscore_logits was set. The
  // backward reuses them, so the scale is a constant of the step (no gradient flows into it).
  float context_scale = std::numeric_limits<float>::quiet_NaN();
  float emotion_scale = std::numeric_limits<float>::quiet_NaN();
  const VectorMathKernels* kernels = nullptr;            // the variant the forward ran (and the backward runs)
  // With EacaSwitches::kv_dtype = int8: the K/V each attention layer read (context: kc/vc, EACA: ke/h1).
  Int8Kv context_kv, emotion_kv;
};

struct EacaSwitches {
  bool context_encoder = true;  // its kind (self-attention or BiLSTM) is EacaDims::bilstm
  bool emotion_attention = true;
  float time_decay = 0.0f;
  // false: the "plain attention" variant (the seed's standard-Transformer row) — no wheel columns in
  // the EACA queries/keys (they stay 0), no key boost, no time decay in either attention layer.
  bool emotion_terms = true;
  Normalizer normalizer = Normalizer::kSoftmax;  // of both attention layers (fuzzy: m = 2)
  // Warm-up scale (seed 000 §5.2, tip 1): the similarity term of each attention layer is divided by
  // the standard deviation of its q.k products over the dialogue instead of sqrt(width), so that
  // the logits start z-scored whatever the initial weights (the mean needs no subtracting: softmax
  // is shift-invariant). Training sets it for TrainOptions::zscore_warmup_epochs; scoring never.
  bool zscore_logits = false;
  float adaptive_temperature = 0.0f;  // EacaConfig::adaptive_temperature
  float emotion_balance = 0.0f;       // EacaConfig::emotion_balance
  // The engine attention layers' K/V storage. int8 is for scoring (EacaModel::set_kv_dtype): the
  // forward quantizes each layer's K and V per row and attends over those; eaca_backward refuses it
  // (the engine's backward needs float32 K/V). switches_of() always gives float32, so training never
  // sees int8.
  KvDtype kv_dtype = KvDtype::kFloat32;
  // The EACA customer attention's kernel (kessel/attention_choice.h): auto chooses by the dialogue's
  // length from the measured table (chunk-and-bridge from measured_kernel_table().chunk_min_keys units
  // on); the others force one. Not saved in the model (EacaModel::set_attention_kernel).
  AttentionKernel kernel = AttentionKernel::kAuto;
  KernelTable kernel_table = measured_kernel_table();  // the crossovers and chunk size (tests shrink C)
};

// Whether eaca_forward runs any attention layer on the engine (the self-attention context layer or
// the EACA customer attention): where kv_dtype = int8 can apply.
bool uses_engine_attention(const EacaDims& dims, const EacaSwitches& sw);

EacaSwitches switches_of(const EacaConfig& config);

// Time and floating-point work of eaca_forward's layers, added to on each call (`kessel analyze`).
// FLOPs count the multiply-adds of the products and attention (2 per multiply-add), not the
// elementwise tanh/exp.
struct EacaForwardCost {
  enum Layer { kFuse, kContext, kEmotion, kHeads, kLayers };
  static constexpr const char* kNames[kLayers] = {"embed + fuse -> h0", "context encoder (self-attention or BiLSTM)",
                                                  "EACA customer attention (engine)",
                                                  "heads: salience, emotion source, has-emotion"};
  double ms[kLayers] = {};
  double flops[kLayers] = {};
};

// The EACA customer attention's engine call for these activations (inputs and spec: the boost, the
// time decay, the adaptive temperature, the emotion-ratio balance): the forward, the backward and the
// explanation map all run this one call, so they cannot attend differently.
//
// The kernel is chosen here (choose_attention_kernel over Q queries and U keys, or sw.kernel). Under
// chunk_bridge the engine runs every unit as a query: the chunk mask needs each query's position, and
// the engine places its Lq queries at the last Lq positions. The customer rows of q_all hold their
// queries and the other rows zeros; the forward and the map keep the customer rows, and the backward
// gives the other rows a zero output gradient, so they change nothing.
struct EacaAttnCall {
  AttentionInputs in;
  AttentionSpec spec;
  KernelChoice kernel;
  std::vector<float> q_all;  // chunk_bridge: [U, Ae]
  bool all_rows() const { return kernel.kernel == AttentionKernel::kChunkBridge; }
};
EacaAttnCall eaca_emotion_call(const EacaActivations& a, const EacaDims& d, const EacaSwitches& sw,
                               const UnitFeatures& f);

// The EACA attention's normalized weights [Q, U] for these activations (the explanation map), through
// the call's kernel (int8 K/V as the forward read them).
void eaca_emotion_weights(float* weights, const EacaActivations& a, const EacaDims& d, const EacaSwitches& sw,
                          const UnitFeatures& f);

// Fills act. `mention_unit` [M] from Prepared. Single-threaded (deterministic, and dialogues are small).
// With `cost`, each layer's time and work are added to it.
void eaca_forward(EacaActivations& act, const EacaWeights& w, const EacaDims& dims, const EacaSwitches& sw,
                  const UnitFeatures& f, const std::vector<int>& mention_unit, EacaForwardCost* cost = nullptr);

struct EacaTargets {
  std::vector<float> salience;  // [U] in [0, 1]
  float has_emotion = -1.0f;    // < 0: no label
  std::vector<float> mention;   // [M] in [0, 1], < 0: no label for that mention
};
struct LossWeights {
  float coverage = 0.3f;
  float source = 0.3f;
};

// Returns the loss; ADDS the gradient of that loss into `grads` (a buffer of the same layout).
double eaca_backward(const EacaWeights& grads, const EacaActivations& act, const EacaWeights& w,
                     const EacaDims& dims, const EacaSwitches& sw, const UnitFeatures& f,
                     const std::vector<int>& mention_unit, const EacaTargets& targets, const LossWeights& lw);

// The loss alone (forward + loss), for finite-difference checks.
double eaca_loss(const EacaWeights& w, const EacaDims& dims, const EacaSwitches& sw, const UnitFeatures& f,
                 const std::vector<int>& mention_unit, const EacaTargets& targets, const LossWeights& lw);

}  // namespace kessel::summarize
