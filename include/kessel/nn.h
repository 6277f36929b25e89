// kessel nn: normalization layers and positional encodings, forward and backward (PyTorch parity).
//
// llm.c style: every layer is a pair of plain functions, `x_forward` next to `x_backward`; arguments are
// outputs first, then inputs, weights, sizes. Every backward ADDS INTO its gradient buffers (callers
// zero them first), so gradients of shared parameters accumulate naturally; a null gradient pointer
// means "not wanted". All arrays are contiguous row-major float32.
//
// Shape letters: N rows (tokens), C channels, F features of a segmented row, S segments, B batch,
// T/L/Lq/Lk lengths, H heads, D model width.
//
// Determinism: kernels run OpenMP over rows; parameter gradients (dweight, dbias, dtable, dlogits,
// dgate) are reduced from per-block partials over fixed blocks of rows in a fixed order, so the result
// is bit-identical for any thread count.
//
// Full documentation with the formulas: docs/nn.md.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "kessel/tensor.h"

namespace kessel {

// ---- LayerNorm --------------------------------------------------------------------------------------
// out[n,c] = (inp[n,c] - mean[n]) * rstd[n] * weight[c] + bias[c],
// mean[n] = (1/C) sum_c inp[n,c], rstd[n] = 1 / sqrt((1/C) sum_c (inp[n,c] - mean[n])^2 + eps)
// (biased variance, as torch.nn.LayerNorm). eps defaults to 1e-5, PyTorch's default, so that weights
// trained there behave identically here; it must be > 0 (it keeps rstd finite for a constant row).
inline constexpr float kLayerNormEps = 1e-5f;

// out [N, C]; mean, rstd [N] (either may be null when not needed, e.g. inference).
void layernorm_forward(float* out, float* mean, float* rstd, const float* inp, const float* weight,
                       const float* bias, Index N, Index C, float eps = kLayerNormEps, int threads = 0);
// ADDS INTO dinp [N, C], dweight [C], dbias [C] (each may be null).
void layernorm_backward(float* dinp, float* dweight, float* dbias, const float* dout, const float* inp,
                        const float* weight, const float* mean, const float* rstd, Index N, Index C,
                        int threads = 0);

// Plain single-threaded versions kept as the reference the fast kernels are tested against.
void layernorm_forward_reference(float* out, float* mean, float* rstd, const float* inp,
                                 const float* weight, const float* bias, Index N, Index C,
                                 float eps = kLayerNormEps);
void layernorm_backward_reference(float* dinp, float* dweight, float* dbias, const float* dout,
                                  const float* inp, const float* weight, const float* mean,
                                  const float* rstd, Index N, Index C);

// ---- RMSNorm ----------------------------------------------------------------------------------------
// out[n,c] = inp[n,c] * rstd[n] * weight[c], rstd[n] = 1 / sqrt((1/C) sum_c inp[n,c]^2 + eps).
// No mean subtraction and no bias (Zhang & Sennrich 2019; T5, LLaMA). eps defaults to 1e-6, the value
// of T5 and LLaMA checkpoints (torch.nn.RMSNorm's eps=None means finfo(float32).eps ~ 1.19e-7; pass
// that to match it).
inline constexpr float kRmsNormEps = 1e-6f;

void rmsnorm_forward(float* out, float* rstd, const float* inp, const float* weight, Index N, Index C,
                     float eps = kRmsNormEps, int threads = 0);
// ADDS INTO dinp [N, C], dweight [C].
void rmsnorm_backward(float* dinp, float* dweight, const float* dout, const float* inp,
                      const float* weight, const float* rstd, Index N, Index C, int threads = 0);

// ---- HybridLayerNorm: per-modality normalization ----------------------------------------------------
// A row x [F] is the concatenation of named segments (e.g. text | emoji | time) whose sizes sum to F.
// Each segment is layer-normalized with its own statistics and its own gamma/beta, so a segment of
// large scale cannot crush the others (see docs/origins.md, experiment 3).
struct NormSegment {
  std::string name;
  Index size = 0;
};

// Checks sizes > 0 and sum == F; returns the segment offsets [S + 1].
std::vector<Index> segment_offsets(std::span<const NormSegment> segments, Index F);

// out [N, F]; weight, bias [F] (segment s owns the slice [offset_s, offset_s + size_s));
// mean, rstd [N, S] (either may be null).
void hybrid_layernorm_forward(float* out, float* mean, float* rstd, const float* inp,
                              const float* weight, const float* bias,
                              std::span<const NormSegment> segments, Index N, Index F,
                              float eps = kLayerNormEps, int threads = 0);
// ADDS INTO dinp [N, F], dweight [F], dbias [F].
void hybrid_layernorm_backward(float* dinp, float* dweight, float* dbias, const float* dout,
                               const float* inp, const float* weight, const float* mean,
                               const float* rstd, std::span<const NormSegment> segments, Index N,
                               Index F, int threads = 0);

// ---- Positional encodings ---------------------------------------------------------------------------
// Sinusoidal (Vaswani et al. 2017): pe[pos, 2i] = sin(pos / base^(2i/D)), pe[pos, 2i+1] = cos(same).
// Odd D: the last column D-1 = 2i is a sine whose cosine partner would be column D (absent); every
// other column has exactly the value it has for D+1. Computed in double, rounded once.
// pe [L, D].
void sinusoidal_encoding(float* pe, Index L, Index D, double base = 10000.0);

// Learned absolute positions: out[n, :] = inp[n, :] + table[positions[n], :].
// out, inp [N, D]; table [Lmax, D]; positions [N] in [0, Lmax).
void learned_position_forward(float* out, const float* inp, const float* table,
                              std::span<const Index> positions, Index N, Index D, Index Lmax);
// ADDS INTO dinp [N, D] and dtable [Lmax, D] (scatter-add: rows sharing a position accumulate).
void learned_position_backward(float* dinp, float* dtable, const float* dout,
                               std::span<const Index> positions, Index N, Index D, Index Lmax);

// T5 relative-position bias, materialized: bias[h, i, j] = table[h, t5_relative_bucket(pos_k(j) -
// pos_q(i), buckets, max_distance, bidirectional)] with the engine's alignment pos_q(i) = i + Lk - Lq,
// pos_k(j) = j (include/kessel/attention.h), so attention(rel_bias = table) == attention(bias = this).
// bias [H, Lq, Lk]; table [H, buckets].
void t5_bias_forward(float* bias, const float* table, Index H, Index Lq, Index Lk, Index buckets,
                     Index max_distance = 128, bool bidirectional = true, int threads = 0);
// ADDS INTO dtable [H, buckets] from dbias [H, Lq, Lk].
void t5_bias_backward(float* dtable, const float* dbias, Index H, Index Lq, Index Lk, Index buckets,
                      Index max_distance = 128, bool bidirectional = true, int threads = 0);

// ---- HMM-style position mixing ----------------------------------------------------------------------
// Learnable logits A [T, T]; P = row-softmax(A); y[b, i, :] = sum_j P[i, j] x[b, j, :].
// Row i of P is the distribution over SOURCE positions j feeding OUTPUT position i (y = P x). The seed's
// einsum('bld,ls->bsd', x, P) computes y = P^T x instead, i.e. column s of P feeds output s -- which is
// the HMM forward step alpha_t = A^T alpha_{t-1} when P is the transition matrix (docs/nn.md).
// y, x [B, T, D]; probs [T, T] receives P (kept for backward; may be null).
void position_mix_forward(float* y, float* probs, const float* x, const float* logits, Index B,
                          Index T, Index D, int threads = 0);
// ADDS INTO dx [B, T, D] and dlogits [T, T]; probs is the forward's P.
void position_mix_backward(float* dx, float* dlogits, const float* dy, const float* x,
                           const float* probs, Index B, Index T, Index D, int threads = 0);

// The mixing step alone for a given P (any [T, T] matrix, not necessarily row-stochastic):
// y[b, i, :] = sum_j P[i, j] x[b, j, :]. y, x [B, T, D].
void mix_rows(float* y, const float* P, const float* x, Index B, Index T, Index D, int threads = 0);

// ---- Gated fusion of an absolute and a relative (mixing) encoding -----------------------------------
// g = sigmoid(gate) per dimension [D];  P = row-softmax(logits) [T, T];
// y[b, t, :] = g * (x[b, t, :] + pe[t, :]) + (1 - g) * sum_j P[t, j] x[b, j, :].
// g -> 1 gives the plain absolute encoding, g -> 0 the pure position mixing; pe may be sinusoidal
// (fixed: pass dpe = null) or a learned table. y, x [B, T, D]; pe [T, D]; probs [T, T] (may be null).
void gated_fusion_forward(float* y, float* probs, const float* x, const float* pe,
                          const float* logits, const float* gate, Index B, Index T, Index D,
                          int threads = 0);
// ADDS INTO dx [B, T, D], dpe [T, D], dlogits [T, T], dgate [D] (each may be null).
void gated_fusion_backward(float* dx, float* dpe, float* dlogits, float* dgate, const float* dy,
                           const float* x, const float* pe, const float* probs, const float* gate,
                           Index B, Index T, Index D, int threads = 0);

}  // namespace kessel
