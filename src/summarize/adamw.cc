#include "summarize/adamw.h"

#include <algorithm>
#include <cmath>

#include "kessel/error.h"

namespace kessel::summarize {

AdamW::AdamW(std::int64_t num_params, std::vector<std::uint8_t> decay_mask, const AdamWOptions& options)
    : options_(options), decay_(std::move(decay_mask)),
      m_(static_cast<std::size_t>(num_params), 0.0f), v_(static_cast<std::size_t>(num_params), 0.0f) {
  KESSEL_CHECK_ARG(num_params >= 0, "AdamW: num_params must be >= 0, got ", num_params);
  KESSEL_CHECK_ARG(static_cast<std::int64_t>(decay_.size()) == num_params, "AdamW: decay_mask has ",
                   decay_.size(), " entries but num_params is ", num_params);
  KESSEL_CHECK_ARG(options.lr > 0.0f && std::isfinite(options.lr), "AdamW: lr must be > 0, got ", options.lr);
  KESSEL_CHECK_ARG(options.beta1 >= 0.0f && options.beta1 < 1.0f && options.beta2 >= 0.0f && options.beta2 < 1.0f,
                   "AdamW: betas must be in [0, 1), got ", options.beta1, ", ", options.beta2);
  KESSEL_CHECK_ARG(options.eps > 0.0f, "AdamW: eps must be > 0, got ", options.eps);
  KESSEL_CHECK_ARG(options.weight_decay >= 0.0f, "AdamW: weight_decay must be >= 0, got ", options.weight_decay);
  KESSEL_CHECK_ARG(options.warmup_steps >= 0 && options.total_steps >= 0, "AdamW: warmup_steps ",
                   options.warmup_steps, " and total_steps ", options.total_steps, " must be >= 0");
}

float AdamW::learning_rate(std::int64_t t) const {
  const auto& o = options_;
  if (o.warmup_steps > 0 && t <= o.warmup_steps)
    return o.lr * static_cast<float>(t) / static_cast<float>(o.warmup_steps);
  if (o.total_steps > o.warmup_steps) {
    const double progress = std::min(1.0, static_cast<double>(t - o.warmup_steps) /
                                              static_cast<double>(o.total_steps - o.warmup_steps));
    return o.lr * static_cast<float>(1.0 - (1.0 - o.final_lr_fraction) * progress);
  }
  return o.lr;
}

void AdamW::step(float* params, const float* grads) {
  ++t_;
  const auto& o = options_;
  const float lr = learning_rate(t_);
  const float bc1 = 1.0f - std::pow(o.beta1, static_cast<float>(t_));
  const float bc2 = 1.0f - std::pow(o.beta2, static_cast<float>(t_));
  const std::size_t P = m_.size();
  for (std::size_t i = 0; i < P; ++i) {
    const float g = grads[i];
    m_[i] = o.beta1 * m_[i] + (1.0f - o.beta1) * g;
    v_[i] = o.beta2 * v_[i] + (1.0f - o.beta2) * g * g;
    const float update = (m_[i] / bc1) / (std::sqrt(v_[i] / bc2) + o.eps);
    params[i] -= lr * (update + (decay_[i] ? o.weight_decay * params[i] : 0.0f));
  }
}

}  // namespace kessel::summarize
