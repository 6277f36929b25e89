#include "attention/boost_gate.h"

namespace kessel::attention_detail {

namespace {

double dot(const float* a, const float* b, Index n) {
  double s = 0.0;
  for (Index d = 0; d < n; ++d) s += static_cast<double>(a[d]) * b[d];
  return s;
}

}  // namespace

GateTerms gate_terms(const AttentionInputs& in) {
  const Index B = in.B, H = in.H, Lq = in.Lq, Lk = in.Lk, D = in.D;
  GateTerms t;
  t.row.resize(static_cast<size_t>(B * H * Lq));
  t.key.resize(static_cast<size_t>(B * H * Lk));
  for (Index bh = 0; bh < B * H; ++bh) {
    const float* gate = in.boost_gate + (bh % H) * (2 * D + 1);
    for (Index i = 0; i < Lq; ++i)
      t.row[static_cast<size_t>(bh * Lq + i)] =
          static_cast<float>(dot(gate, in.q + (bh * Lq + i) * D, D) + gate[2 * D]);
    for (Index j = 0; j < Lk; ++j) {
      const Index row = bh * Lk + j;
      double v = 0.0;
      if (in.kv_dtype == KvDtype::kInt8)  // k as the kernels read it: dequantized
        for (Index d = 0; d < D; ++d)
          v += static_cast<double>(gate[D + d]) *
               (static_cast<double>(in.k_int8[row * D + d]) * in.k_scale[row]);
      else
        v = dot(gate + D, in.k + row * D, D);
      t.key[static_cast<size_t>(row)] = static_cast<float>(v);
    }
  }
  return t;
}

void gate_terms_backward(const AttentionGrads& grads, const std::vector<float>& du,
                         const std::vector<float>& dv, const AttentionInputs& in) {
  const Index B = in.B, H = in.H, Lq = in.Lq, Lk = in.Lk, D = in.D, G = 2 * D + 1;
  std::vector<double> dgate(grads.dboost_gate ? static_cast<size_t>(H * G) : 0, 0.0);
  for (Index bh = 0; bh < B * H; ++bh) {
    const Index h = bh % H;
    const float* gate = in.boost_gate + h * G;
    double* dg = grads.dboost_gate ? dgate.data() + h * G : nullptr;
    for (Index i = 0; i < Lq; ++i) {
      const float g = du[static_cast<size_t>(bh * Lq + i)];
      if (g == 0.0f) continue;
      const float* qi = in.q + (bh * Lq + i) * D;
      if (grads.dq)
        for (Index d = 0; d < D; ++d) grads.dq[(bh * Lq + i) * D + d] += g * gate[d];
      if (dg) {
        for (Index d = 0; d < D; ++d) dg[d] += static_cast<double>(g) * qi[d];
        dg[2 * D] += g;
      }
    }
    for (Index j = 0; j < Lk; ++j) {
      const float g = dv[static_cast<size_t>(bh * Lk + j)];
      if (g == 0.0f) continue;
      const float* kj = in.k + (bh * Lk + j) * D;
      if (grads.dk)
        for (Index d = 0; d < D; ++d) grads.dk[(bh * Lk + j) * D + d] += g * gate[D + d];
      if (dg)
        for (Index d = 0; d < D; ++d) dg[D + d] += static_cast<double>(g) * kj[d];
    }
  }
  if (grads.dboost_gate)
    for (Index e = 0; e < H * G; ++e)
      grads.dboost_gate[e] += static_cast<float>(dgate[static_cast<size_t>(e)]);
}

}  // namespace kessel::attention_detail
