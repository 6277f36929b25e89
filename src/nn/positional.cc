// Positional encodings: sinusoidal (fixed), learned absolute table, T5 relative-position bias.
#include <cmath>
#include <vector>

#include "kessel/attention.h"
#include "kessel/error.h"
#include "kessel/nn.h"
#include "nn/norm_kernels.h"
#include "util/parallel.h"

namespace kessel {

void sinusoidal_encoding(float* pe, Index L, Index D, double base) {
  KESSEL_CHECK_ARG(L >= 0 && D >= 1, "sinusoidal_encoding: need L >= 0 and D >= 1, got L=", L,
                   " D=", D);
  KESSEL_CHECK_ARG(base > 1.0 && std::isfinite(base),
                   "sinusoidal_encoding: base must be finite and > 1, got base=", base);
  KESSEL_CHECK_ARG(L == 0 || pe, "sinusoidal_encoding: pe must not be null");
  // The frequency depends on the pair index i only (columns 2i and 2i+1 share it), and on D, so an odd
  // D changes every frequency slightly compared with D-1: the formula is applied as written, with the
  // last sine left without its cosine.
  std::vector<double> inv_freq(static_cast<size_t>((D + 1) / 2));
  for (Index i = 0; i < (D + 1) / 2; ++i)
    inv_freq[static_cast<size_t>(i)] =
        std::pow(base, -static_cast<double>(2 * i) / static_cast<double>(D));
  for (Index pos = 0; pos < L; ++pos) {
    for (Index c = 0; c < D; ++c) {
      const double angle = static_cast<double>(pos) * inv_freq[static_cast<size_t>(c / 2)];
      pe[pos * D + c] = static_cast<float>(c % 2 == 0 ? std::sin(angle) : std::cos(angle));
    }
  }
}

// ---- learned absolute -------------------------------------------------------------------------------

namespace {
void check_positions(const char* fn, std::span<const Index> positions, Index N, Index D,
                     Index Lmax) {
  KESSEL_CHECK_ARG(N >= 0 && D >= 1 && Lmax >= 1, fn, ": need N >= 0, D >= 1, Lmax >= 1, got N=", N,
                   " D=", D, " Lmax=", Lmax);
  KESSEL_CHECK_ARG(static_cast<Index>(positions.size()) == N, fn, ": positions has ",
                   positions.size(), " entries but N=", N);
  for (Index n = 0; n < N; ++n) {
    const Index p = positions[static_cast<size_t>(n)];
    KESSEL_CHECK_ARG(p >= 0 && p < Lmax, fn, ": positions[", n, "]=", p, " is outside [0, Lmax=",
                     Lmax, ")");
  }
}
}  // namespace

void learned_position_forward(float* out, const float* inp, const float* table,
                              std::span<const Index> positions, Index N, Index D, Index Lmax) {
  check_positions("learned_position_forward", positions, N, D, Lmax);
  KESSEL_CHECK_ARG(N == 0 || (out && inp && table),
                   "learned_position_forward: out, inp and table must not be null");
  for (Index n = 0; n < N; ++n) {
    const float* row = table + positions[static_cast<size_t>(n)] * D;
    for (Index c = 0; c < D; ++c) out[n * D + c] = inp[n * D + c] + row[c];
  }
}

// Serial over rows on purpose: rows sharing a position add into the same table row, and a fixed order
// keeps the sum deterministic. The op is memory-bound and cheap next to anything that follows it.
void learned_position_backward(float* dinp, float* dtable, const float* dout,
                               std::span<const Index> positions, Index N, Index D, Index Lmax) {
  check_positions("learned_position_backward", positions, N, D, Lmax);
  KESSEL_CHECK_ARG(N == 0 || dout, "learned_position_backward: dout must not be null");
  for (Index n = 0; n < N; ++n) {
    const float* g = dout + n * D;
    if (dinp)
      for (Index c = 0; c < D; ++c) dinp[n * D + c] += g[c];
    if (dtable) {
      float* row = dtable + positions[static_cast<size_t>(n)] * D;
      for (Index c = 0; c < D; ++c) row[c] += g[c];
    }
  }
}

// ---- T5 relative-position bias ----------------------------------------------------------------------

namespace {

// bucket_of[rel + (Lk - 1)] for every rel = pos_k(j) - pos_q(i) that occurs: rel in [-(Lk-1), Lq-1].
std::vector<Index> t5_bucket_table(const char* fn, Index H, Index Lq, Index Lk, Index buckets,
                                   Index max_distance, bool bidirectional) {
  KESSEL_CHECK_ARG(H >= 1 && Lq >= 1 && Lk >= 1, fn, ": need H, Lq, Lk >= 1, got H=", H, " Lq=", Lq,
                   " Lk=", Lk);
  KESSEL_CHECK_ARG(buckets >= (bidirectional ? 2 : 1), fn, ": buckets=", buckets,
                   " is too few (need >= ", bidirectional ? 2 : 1, ")");
  KESSEL_CHECK_ARG(max_distance >= 1, fn, ": max_distance must be >= 1, got ", max_distance);
  std::vector<Index> bucket_of(static_cast<size_t>(Lq + Lk - 1));
  for (Index rel = -(Lk - 1); rel <= Lq - 1; ++rel)
    bucket_of[static_cast<size_t>(rel + Lk - 1)] =
        t5_relative_bucket(rel, buckets, max_distance, bidirectional);
  return bucket_of;
}

}  // namespace

void t5_bias_forward(float* bias, const float* table, Index H, Index Lq, Index Lk, Index buckets,
                     Index max_distance, bool bidirectional, int threads) {
  const std::vector<Index> bucket_of =
      t5_bucket_table("t5_bias_forward", H, Lq, Lk, buckets, max_distance, bidirectional);
  KESSEL_CHECK_ARG(bias && table, "t5_bias_forward: bias and table must not be null");
  const int nt = resolve_threads(threads);
#pragma omp parallel for collapse(2) num_threads(nt) schedule(static) \
    if (H * Lq * Lk >= nn_detail::kMinParallelWork)
  for (Index h = 0; h < H; ++h) {
    for (Index i = 0; i < Lq; ++i) {
      const Index pos_q = i + Lk - Lq;
      const float* trow = table + h * buckets;
      float* out = bias + (h * Lq + i) * Lk;
      for (Index j = 0; j < Lk; ++j)
        out[j] = trow[bucket_of[static_cast<size_t>(j - pos_q + Lk - 1)]];
    }
  }
}

// One thread per head: each head owns its row of dtable, so the scatter-add needs no atomics and sums
// in a fixed order.
void t5_bias_backward(float* dtable, const float* dbias, Index H, Index Lq, Index Lk, Index buckets,
                      Index max_distance, bool bidirectional, int threads) {
  const std::vector<Index> bucket_of =
      t5_bucket_table("t5_bias_backward", H, Lq, Lk, buckets, max_distance, bidirectional);
  KESSEL_CHECK_ARG(dtable && dbias, "t5_bias_backward: dtable and dbias must not be null");
  const int nt = resolve_threads(threads);
#pragma omp parallel for num_threads(nt) schedule(static) \
    if (H * Lq * Lk >= nn_detail::kMinParallelWork)
  for (Index h = 0; h < H; ++h) {
    float* trow = dtable + h * buckets;
    for (Index i = 0; i < Lq; ++i) {
      const Index pos_q = i + Lk - Lq;
      const float* g = dbias + (h * Lq + i) * Lk;
      for (Index j = 0; j < Lk; ++j) trow[bucket_of[static_cast<size_t>(j - pos_q + Lk - 1)]] += g[j];
    }
  }
}

}  // namespace kessel
