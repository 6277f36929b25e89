// The EACA model's vector math as one kernel family: the activations (sigmoid, tanh), the products
// of its small linear layers and the elementwise parts of an LSTM step, forward and backward.
//
// One Highway source (vector_math_kernels.cc) is compiled for every target of the build; the
// scalar reference is util/vector_math.h's exp_approx / sigmoid_approx / tanh_approx and plain
// loops. An op (eaca_forward, say) takes the table for simd::active_target() once at its entry
// and calls through it; nothing below looks at the CPU.
//
// Bits. Every kernel computes each output with the same operations in the same order in every
// variant (sums in index order, the activations' polynomials term by term); no kernel reassociates
// across lanes, and loop tails go through the same vector code as full vectors. What differs is
// the multiply-add: targets with FMA (avx2, avx512, neon, sve) fuse each a * b + c, the others
// (sse4, emu128) and the scalar reference round the product first. So on x86-64 there are two
// classes of bit-identical results, {scalar, emu128, sse4} and {avx2, avx512} (the vector width
// never matters), and between them the activations differ by at most a few ulp and a product by
// rounding of its multiply-adds (tests/cpp/util/vector_math_test.cc states the tolerances; a build
// with -march=native lets the compiler fuse the scalar reference too). No kernel is threaded.
#pragma once

#include <cstddef>
#include <cstdint>

namespace kessel {

struct VectorMathKernels {
  const char* variant;  // simd::target_name of the target the table was compiled for

  // x[i] = σ(x[i]), resp. tanh(x[i]), for i < n (accuracy: util/vector_math.h).
  void (*sigmoid_inplace)(float* x, std::size_t n);
  void (*tanh_inplace)(float* x, std::size_t n);

  // dx[i] *= 1 - y[i]^2 for i < n: the gradient through y = tanh(x), given y.
  void (*tanh_backward_inplace)(float* dx, const float* y, std::size_t n);

  // y[i] += a x[i] for i < n.
  void (*axpy)(float* y, float a, const float* x, std::size_t n);

  // y[j] += a table[rows[r], j] for j < n, r = 0, 1, ..., count - 1 in turn (table [*, n] row-major):
  // count axpy calls, the same bits (a mean of embedding rows, say).
  void (*add_scaled_rows)(float* y, float a, const float* table, const std::int32_t* rows,
                          std::size_t count, std::size_t n);

  // y [O] += Wt^T x for Wt [I, O] (a weight W [O, I] transposed, row-major): each y[o] is summed in
  // i order, y[o] + Wt[0, o] x[0] + Wt[1, o] x[1] + ... The loop along o is the vector one.
  void (*add_matvec_t)(float* y, const float* wt, const float* x, std::size_t I, std::size_t O);

  // y [rows, O] += x [rows, I] Wt for Wt [I, O]: add_matvec_t on each row, the same bits; a weight
  // vector loaded once serves several rows.
  void (*add_matmat_t)(float* y, const float* wt, const float* x, std::size_t rows, std::size_t I,
                       std::size_t O);

  // One LSTM step after its matrix products, H units. gates [4H] holds the pre-activations of
  // i, f, g, o (PyTorch's order) and is overwritten with [σ(i) σ(f) tanh(g) σ(o)]; then
  // c = f c_prev + i g (c_prev null: c = i g) and h = o tanh(c).
  void (*lstm_cell_forward)(float* gates, float* c, float* h, const float* c_prev, std::size_t H);

  // Backward of lstm_cell_forward at one step, given its gates (after the nonlinearities), tanh_c =
  // tanh(c), c_prev (null: 0), dh = dh_out + dh_next (the gradient reaching h from the layer's
  // output and from the next step) and dc_next (from the next step). Writes dgates [4H], the
  // gradient at the pre-activations, and replaces dc_next [H] by the gradient at c_prev.
  void (*lstm_cell_backward)(float* dgates, float* dc_next, const float* gates, const float* tanh_c,
                             const float* c_prev, const float* dh_out, const float* dh_next,
                             std::size_t H);
};

// The table for a variant: a Highway target bit from simd::available_targets(), or
// simd::kScalarReference for the scalar reference. Throws InvalidArgument for a target this build
// did not compile.
const VectorMathKernels& vector_math_kernels(std::int64_t target);

}  // namespace kessel
