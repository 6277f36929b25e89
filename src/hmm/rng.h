// The HMMs' random numbers: uniforms and normals derived from raw std::mt19937_64 output (the
// standard library's distributions are implementation-defined), so a seed gives the same draws with
// any compiler. Sampling (sample.cc) and initialisation (init.cc) use it.
#pragma once

#include <cmath>
#include <cstdint>
#include <numbers>
#include <random>

#include "kessel/tensor.h"

namespace kessel::hmm::detail {

class Rng {
 public:
  explicit Rng(std::uint64_t seed) : engine_(seed) {}
  // Uniform in [0, 1) with 53 random bits.
  double uniform() { return static_cast<double>(engine_() >> 11) * 0x1.0p-53; }
  double normal() {
    if (has_spare_) {
      has_spare_ = false;
      return spare_;
    }
    const double u1 = 1.0 - uniform();  // (0, 1]: log stays finite
    const double u2 = uniform();
    const double r = std::sqrt(-2.0 * std::log(u1));
    spare_ = r * std::sin(2.0 * std::numbers::pi * u2);
    has_spare_ = true;
    return r * std::cos(2.0 * std::numbers::pi * u2);
  }
  // Index k with probability p[k] (inverse CDF); rounding slack goes to the last positive entry.
  std::int32_t categorical(const double* p, Index n) {
    const double u = uniform();
    double cdf = 0.0;
    Index last = 0;
    for (Index k = 0; k < n; ++k) {
      if (p[k] <= 0.0) continue;
      last = k;
      cdf += p[k];
      if (u < cdf) return static_cast<std::int32_t>(k);
    }
    return static_cast<std::int32_t>(last);
  }

 private:
  std::mt19937_64 engine_;
  bool has_spare_ = false;
  double spare_ = 0.0;
};

}  // namespace kessel::hmm::detail
