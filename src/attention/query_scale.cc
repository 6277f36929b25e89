#include "attention/query_scale.h"

#include <cmath>

namespace kessel::attention_detail {

namespace {

// s_b = 1 - gamma rho_b, or 1 without the balance.
float balance_scale(const AttentionInputs& in, const AttentionSpec& spec, Index b) {
  return in.emotion_ratio ? 1.0f - spec.balance * in.emotion_ratio[b] : 1.0f;
}

}  // namespace

bool scales_queries(const AttentionInputs& in, const AttentionSpec& spec) {
  return spec.adaptive_temperature || in.emotion_ratio != nullptr;
}

ScaledQueries scale_queries(const AttentionInputs& in, const AttentionSpec& spec) {
  const Index rows_per_b = in.H * in.Lq, rows = in.B * rows_per_b, D = in.D;
  ScaledQueries sq;
  sq.q.resize(static_cast<std::size_t>(rows * D));
  sq.factor.resize(static_cast<std::size_t>(rows));
  sq.mean_abs.assign(static_cast<std::size_t>(rows), 0.0f);
  for (Index r = 0; r < rows; ++r) {
    const float* q = in.q + r * D;
    float a = 1.0f;
    if (spec.adaptive_temperature) {
      double sum = 0.0;
      for (Index d = 0; d < D; ++d) sum += std::fabs(q[d]);
      const float mean = static_cast<float>(sum / static_cast<double>(D));
      sq.mean_abs[static_cast<std::size_t>(r)] = mean;
      a = 1.0f + spec.temperature_coef * mean;
    }
    const float f = balance_scale(in, spec, r / rows_per_b) * a;
    sq.factor[static_cast<std::size_t>(r)] = f;
    for (Index d = 0; d < D; ++d) sq.q[static_cast<std::size_t>(r * D + d)] = f * q[d];
  }
  if (in.emotion_ratio) {
    sq.key_boost.resize(static_cast<std::size_t>(in.B * in.Lk));
    for (Index b = 0; b < in.B; ++b)
      for (Index j = 0; j < in.Lk; ++j)
        sq.key_boost[static_cast<std::size_t>(b * in.Lk + j)] =
            spec.balance * in.emotion_ratio[b] * in.key_boost[b * in.Lk + j];
  }
  return sq;
}

void scaled_queries_backward(float* dq, float* dcoef, float* dkey_boost, const std::vector<float>& dq_scaled,
                             const std::vector<float>& dboost_scaled, const AttentionInputs& in,
                             const AttentionSpec& spec, const ScaledQueries& sq) {
  const Index rows_per_b = in.H * in.Lq, rows = in.B * rows_per_b, D = in.D;
  if (!dq_scaled.empty()) {
    double dc = 0.0;
    for (Index r = 0; r < rows; ++r) {
      const float* q = in.q + r * D;
      const float* g = dq_scaled.data() + r * D;
      const float f = sq.factor[static_cast<std::size_t>(r)];
      double through_a = 0.0;  // s_b <g_i, q_i> = dL/da_i (adaptive only)
      if (spec.adaptive_temperature) {
        double dot = 0.0;
        for (Index d = 0; d < D; ++d) dot += static_cast<double>(g[d]) * q[d];
        through_a = balance_scale(in, spec, r / rows_per_b) * dot;
        dc += through_a * sq.mean_abs[static_cast<std::size_t>(r)];
      }
      if (dq == nullptr) continue;
      const float sign_term = static_cast<float>(through_a * spec.temperature_coef / static_cast<double>(D));
      for (Index d = 0; d < D; ++d) {
        const float sign = q[d] > 0.0f ? 1.0f : (q[d] < 0.0f ? -1.0f : 0.0f);
        dq[r * D + d] += f * g[d] + sign_term * sign;
      }
    }
    if (dcoef != nullptr) *dcoef += static_cast<float>(dc);
  }
  if (dkey_boost != nullptr && !dboost_scaled.empty())
    for (Index b = 0; b < in.B; ++b)
      for (Index j = 0; j < in.Lk; ++j)
        dkey_boost[b * in.Lk + j] +=
            spec.balance * in.emotion_ratio[b] * dboost_scaled[static_cast<std::size_t>(b * in.Lk + j)];
}

}  // namespace kessel::attention_detail
