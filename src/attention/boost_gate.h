// The key boost's gate (include/kessel/attention.h, step 5): g_ij = sigmoid(u_i + v_j) with the
// per-row term u_i = <w_q[h], q_i> + b_g[h] and the per-key term v_j = <w_k[h], k_j>. The fused
// path computes u and v once per call (gate_terms) and one sigmoid per (i, j); its backward
// collects
//   du_i = sum_j dlogit_ij g_ij (1 - g_ij) key_boost_j,   dv_j = sum_i (the same),
// and gate_terms_backward maps them to the inputs: dq_i += du_i w_q, dk_j += dv_j w_k,
// dw_q += sum_i du_i q_i, dw_k += sum_j dv_j k_j, db_g += sum_i du_i (per head). The reference path
// computes the same formulas per element in double (reference.cc).
//
// Internal header: inputs are assumed validated (validate_attention).
#pragma once

#include <cmath>
#include <vector>

#include "kessel/attention.h"

namespace kessel::attention_detail {

struct GateTerms {
  std::vector<float> row;  // u [B, H, Lq]
  std::vector<float> key;  // v [B, H, Lk]
};

GateTerms gate_terms(const AttentionInputs& in);

inline float gate_sigmoid(float x) { return 1.0f / (1.0f + std::exp(-x)); }

// Adds into grads.dq, grads.dk, grads.dboost_gate (each may be null) from du [B, H, Lq] and
// dv [B, H, Lk]. Serial, in (b, h) order: bit-identical for any thread count.
void gate_terms_backward(const AttentionGrads& grads, const std::vector<float>& du,
                         const std::vector<float>& dv, const AttentionInputs& in);

}  // namespace kessel::attention_detail
