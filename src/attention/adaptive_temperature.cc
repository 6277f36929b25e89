#include "attention/adaptive_temperature.h"

#include <cmath>

namespace kessel::attention_detail {

ScaledQueries scale_queries(const AttentionInputs& in, float coef) {
  const Index rows = in.B * in.H * in.Lq, D = in.D;
  ScaledQueries sq;
  sq.q.resize(static_cast<std::size_t>(rows * D));
  sq.factor.resize(static_cast<std::size_t>(rows));
  sq.mean_abs.resize(static_cast<std::size_t>(rows));
  for (Index r = 0; r < rows; ++r) {
    const float* q = in.q + r * D;
    double sum = 0.0;
    for (Index d = 0; d < D; ++d) sum += std::fabs(q[d]);
    const float mean = static_cast<float>(sum / static_cast<double>(D));
    const float a = 1.0f + coef * mean;
    sq.mean_abs[static_cast<std::size_t>(r)] = mean;
    sq.factor[static_cast<std::size_t>(r)] = a;
    for (Index d = 0; d < D; ++d) sq.q[static_cast<std::size_t>(r * D + d)] = a * q[d];
  }
  return sq;
}

void adaptive_temperature_backward(float* dq, float* dcoef, const std::vector<float>& dq_scaled,
                                   const AttentionInputs& in, const ScaledQueries& sq, float coef) {
  const Index rows = in.B * in.H * in.Lq, D = in.D;
  double dc = 0.0;
  for (Index r = 0; r < rows; ++r) {
    const float* q = in.q + r * D;
    const float* g = dq_scaled.data() + r * D;
    double dot = 0.0;  // <dq'_i, q_i> = dL/da_i
    for (Index d = 0; d < D; ++d) dot += static_cast<double>(g[d]) * q[d];
    dc += dot * sq.mean_abs[static_cast<std::size_t>(r)];
    if (dq == nullptr) continue;
    const float a = sq.factor[static_cast<std::size_t>(r)];
    const float through_a = static_cast<float>(dot * coef / static_cast<double>(D));
    for (Index d = 0; d < D; ++d) {
      const float sign = q[d] > 0.0f ? 1.0f : (q[d] < 0.0f ? -1.0f : 0.0f);
      dq[r * D + d] += a * g[d] + through_a * sign;
    }
  }
  if (dcoef != nullptr) *dcoef += static_cast<float>(dc);
}

}  // namespace kessel::attention_detail
