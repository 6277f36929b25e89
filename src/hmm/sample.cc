// Sampling. The standard library's distributions are implementation-defined, so uniforms and normals
// are derived here from raw std::mt19937_64 output: the same seed gives the same sequences with any
// compiler. Draw order per step: the state (from start or the previous state's row), then the
// emission (one uniform for a symbol; D normals for a Gaussian observation, Box–Muller in pairs).
#include <cmath>
#include <numbers>
#include <random>

#include "kessel/error.h"
#include "kessel/hmm.h"

namespace kessel::hmm {

namespace {

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

}  // namespace

std::vector<Sequence> sample(const Model& model, Index n_seqs, Index length, std::uint64_t seed,
                             std::vector<std::vector<std::int32_t>>* states) {
  model.validate("hmm::sample");
  KESSEL_CHECK_ARG(n_seqs >= 0, "hmm::sample: n_seqs is ", n_seqs, " (must be >= 0)");
  KESSEL_CHECK_ARG(length >= 1, "hmm::sample: length is ", length, " (must be >= 1)");
  const Index S = model.n_states, K = model.n_symbols, D = model.dim;
  Rng rng(seed);
  std::vector<Sequence> out(n_seqs);
  if (states != nullptr) states->assign(n_seqs, std::vector<std::int32_t>(length));
  for (Index n = 0; n < n_seqs; ++n) {
    Sequence& seq = out[n];
    seq.length = length;
    if (model.type == EmissionType::categorical) {
      seq.symbols.resize(length);
    } else {
      seq.values.resize(length * D);
    }
    std::int32_t s = 0;
    for (Index t = 0; t < length; ++t) {
      s = t == 0 ? rng.categorical(model.start.data(), S)
                 : rng.categorical(model.transitions.data() + s * S, S);
      if (states != nullptr) (*states)[n][t] = s;
      if (model.type == EmissionType::categorical) {
        seq.symbols[t] = rng.categorical(model.emissions.data() + s * K, K);
      } else {
        for (Index d = 0; d < D; ++d) {
          seq.values[t * D + d] =
              model.means[s * D + d] + std::sqrt(model.variances[s * D + d]) * rng.normal();
        }
      }
    }
  }
  return out;
}

}  // namespace kessel::hmm
