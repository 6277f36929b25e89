// AdamW (Loshchilov & Hutter 2019) over one flat parameter buffer, with a linear warmup then a linear
// decay of the learning rate. Weight decay is decoupled (applied to the parameter, not the gradient)
// and only where decay_mask says so (matrices and embeddings, not biases or scalars).
#pragma once

#include <cstdint>
#include <vector>

namespace kessel::summarize {

struct AdamWOptions {
  float lr = 3e-3f;
  float beta1 = 0.9f;
  float beta2 = 0.999f;
  float eps = 1e-8f;
  float weight_decay = 0.01f;
  std::int64_t warmup_steps = 0;  // lr ramps linearly from lr/warmup to lr
  std::int64_t total_steps = 0;   // > 0: after warmup, lr decays linearly to final_lr_fraction * lr
  float final_lr_fraction = 0.1f;
};

class AdamW {
 public:
  // decay_mask [P]: 1 where weight decay applies.
  AdamW(std::int64_t num_params, std::vector<std::uint8_t> decay_mask, const AdamWOptions& options);
  // The learning rate of step t (1-based) under the schedule.
  float learning_rate(std::int64_t t) const;
  // One step: params -= lr * (m_hat / (sqrt(v_hat) + eps) + wd * params). grads [P] is read only.
  void step(float* params, const float* grads);
  std::int64_t steps() const { return t_; }

 private:
  AdamWOptions options_;
  std::vector<std::uint8_t> decay_;
  std::vector<float> m_, v_;
  std::int64_t t_ = 0;
};

}  // namespace kessel::summarize
