// `kessel origins`: the three experiments of seed 000 ("the 1960s mathematical origins of attention"),
// redone with correct mathematics. The library computes; apps/kessel/cmd_origins.cc only formats.
// Everything is deterministic (fixed data, fixed seeds). See docs/origins.md.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "kessel/tensor.h"

namespace kessel::origins {

using Matrix = std::vector<std::vector<double>>;  // small row-major matrices for reporting

// ---- (1) fuzzy c-means membership vs softmax ---------------------------------------------------------
struct FcmAtM {
  double m = 2.0;
  double tau = 1.0;           // softmax temperature on -ln d^2: tau = m - 1
  Matrix fcm;                 // u_ij = 1 / sum_k (d_ij / d_ik)^(2/(m-1))   [points, centres]
  Matrix softmax;             // softmax_j(-ln d2_ij / tau)
  double max_abs_diff = 0.0;  // |fcm - softmax|, max over all entries
  Matrix mistaken;            // the seed's code: 1 / sum_k (d2_ij / d2_ik)^(2/(m-1))
  double effective_m = 0.0;   // the m the mistaken formula really uses: (m + 1) / 2
  Matrix fcm_at_effective_m;  // correct FCM at effective_m (== mistaken)
  double mistaken_vs_effective_max_abs_diff = 0.0;
};

struct FcmExperiment {
  Matrix points;   // [3, 2], the seed's X
  Matrix centres;  // [2, 2], the seed's C
  Matrix d2;       // squared distances [3, 2]
  std::vector<FcmAtM> by_m;  // m in {1.1, 1.5, 2, 3, 10}
  // The seed's printed numbers for m = 2 (its "GK membership" column 0), what its own code computes
  // (the mistaken exponent, with its 1e-8 guards), and the correct FCM value.
  std::vector<double> seed_printed_u0;
  std::vector<double> seed_code_u0;
  std::vector<double> correct_u0;
};

// ---- (2) HMM forward recursion vs position mixing ----------------------------------------------------
struct HmmExperiment {
  Matrix transition;     // A [S, S], row i = P(next state | current state i) (row-stochastic)
  Matrix initial;        // [S, D]: column d is one initial distribution pi_d
  Index steps = 0;       // forward steps t = 1..steps
  Matrix alpha_hmm;      // alpha after `steps` steps [S, D], by the HMM recursion (double)
  Matrix alpha_mixing;   // the same by mixing with P = A^T (kessel::mix_rows, float)
  double max_abs_diff_transposed = 0.0;  // |hmm - mixing(P = A^T)|, max over all steps
  Matrix softmax_of_log_a;               // position_mix's P for logits = ln A (== A)
  double softmax_of_log_a_max_abs_diff = 0.0;  // |P - A|
  Matrix alpha_mixing_untransposed;  // mixing with P = A itself (the seed comment's orientation)
  double max_abs_diff_untransposed = 0.0;  // |hmm - mixing(P = A)|: not small
};

// ---- (3) HybridLayerNorm vs one LayerNorm on text+image -----------------------------------------------
struct SegmentStats {
  std::string name;
  Index size = 0;
  double input_std = 0.0;
  double output_mean = 0.0;
  double output_std = 0.0;
  double within_row_std = 0.0;  // std across the segment's dims inside a row, averaged over rows
  double in_out_corr = 0.0;     // correlation of input and output entries: how much signal survives
  double grad_var = 0.0;  // variance of dx over the segment's entries (all rows)
};

struct NormExperiment {
  Index rows = 0;
  std::uint64_t seed = 0;
  std::vector<SegmentStats> single;  // one LayerNorm over all F = 96 features
  std::vector<SegmentStats> hybrid;  // HybridLayerNorm, segments text | image
};

struct Report {
  FcmExperiment fcm;
  HmmExperiment hmm;
  NormExperiment norm;
};

Report run_origins();

}  // namespace kessel::origins
