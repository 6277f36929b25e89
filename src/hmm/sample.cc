// Sampling. The standard library's distributions are implementation-defined, so uniforms and
// normals come from raw std::mt19937_64 output (hmm/rng.h): the same seed gives the same sequences
// with any compiler. Draw order per step: the state (from start or the previous state's row), then
// the emission (one uniform for a symbol; D normals for a Gaussian observation, Box–Muller in
// pairs; a full-covariance one is mu + L z with L the Cholesky factor).
#include <cmath>
#include <vector>

#include "hmm/linalg.h"
#include "hmm/rng.h"
#include "kessel/error.h"
#include "kessel/hmm.h"

namespace kessel::hmm {

std::vector<Sequence> sample(const Model& model, Index n_seqs, Index length, std::uint64_t seed,
                             std::vector<std::vector<std::int32_t>>* states) {
  model.validate("hmm::sample");
  KESSEL_CHECK_ARG(n_seqs >= 0, "hmm::sample: n_seqs is ", n_seqs, " (must be >= 0)");
  KESSEL_CHECK_ARG(length >= 1, "hmm::sample: length is ", length, " (must be >= 1)");
  const Index S = model.n_states, K = model.n_symbols, D = model.dim;
  detail::Rng rng(seed);
  std::vector<double> chol;  // gaussian_full: each state's Cholesky factor [S, D, D]
  if (model.type == EmissionType::gaussian_full) {
    chol.resize(S * D * D);
    double pivot = 0.0;
    for (Index s = 0; s < S; ++s)
      detail::cholesky(chol.data() + s * D * D, model.covariances.data() + s * D * D, D, &pivot);
  }
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
      } else if (model.type == EmissionType::gaussian_full) {  // mu + L z, Sigma = L L^T
        std::vector<double> z(D);
        for (Index d = 0; d < D; ++d) z[d] = rng.normal();
        const double* L = chol.data() + s * D * D;
        for (Index i = 0; i < D; ++i) {
          double v = model.means[s * D + i];
          for (Index k = 0; k <= i; ++k) v += L[i * D + k] * z[k];
          seq.values[t * D + i] = v;
        }
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
