// The length-based kernel choice (kessel/attention_choice.h): the dispatcher picks what its table
// says, a forced kernel wins, and each path it can pick agrees with the reference path where the two
// compute the same attention (reference = fused; chunk-and-bridge = the reference under the same
// chunk mask, and = full attention when one chunk holds every key), forward and backward, on odd
// sizes, with masks and several thread counts.
#include <gtest/gtest.h>

#include <vector>

#include "attention_test_util.h"
#include "kessel/attention.h"
#include "kessel/attention_choice.h"
#include "kessel/error.h"

namespace kessel {
namespace {

using testing::AttentionTestData;
using testing::max_abs_diff;

TEST(KernelChoice, PicksWhatTheTableSays) {
  KernelTable t;
  t.reference_max_pairs = 100;
  t.chunk_min_keys = 50;
  t.chunk_size = 8;
  EXPECT_EQ(choose_attention_kernel(5, 20, AttentionKernel::kAuto, t).kernel, AttentionKernel::kReference);
  EXPECT_EQ(choose_attention_kernel(10, 10, AttentionKernel::kAuto, t).kernel, AttentionKernel::kReference);
  EXPECT_EQ(choose_attention_kernel(11, 10, AttentionKernel::kAuto, t).kernel, AttentionKernel::kFused);
  EXPECT_EQ(choose_attention_kernel(20, 49, AttentionKernel::kAuto, t).kernel, AttentionKernel::kFused);
  const KernelChoice c = choose_attention_kernel(25, 50, AttentionKernel::kAuto, t);
  EXPECT_EQ(c.kernel, AttentionKernel::kChunkBridge);
  EXPECT_EQ(c.chunk_size, 8);
  EXPECT_FALSE(c.forced);
  // chunk-and-bridge needs Lq <= Lk: the table falls back to fused rather than pick it.
  EXPECT_EQ(choose_attention_kernel(60, 50, AttentionKernel::kAuto, t).kernel, AttentionKernel::kFused);
}

TEST(KernelChoice, TheMeasuredTable) {
  const KernelTable t = measured_kernel_table();
  EXPECT_EQ(choose_attention_kernel(1, 8).kernel, AttentionKernel::kFused);  // the reference never won
  EXPECT_EQ(choose_attention_kernel(t.chunk_min_keys / 2, t.chunk_min_keys - 1).kernel, AttentionKernel::kFused);
  const KernelChoice c = choose_attention_kernel(t.chunk_min_keys / 2, t.chunk_min_keys);
  EXPECT_EQ(c.kernel, AttentionKernel::kChunkBridge);
  EXPECT_EQ(c.chunk_size, t.chunk_size);
  EXPECT_EQ(describe(c), "chunk_bridge(C=" + std::to_string(t.chunk_size) + ")");
}

TEST(KernelChoice, ForcedAndErrors) {
  const KernelChoice r = choose_attention_kernel(10000, 10000, AttentionKernel::kReference);
  EXPECT_EQ(r.kernel, AttentionKernel::kReference);
  EXPECT_TRUE(r.forced);
  EXPECT_EQ(describe(r), "reference (forced)");
  EXPECT_EQ(choose_attention_kernel(1, 1, AttentionKernel::kChunkBridge).kernel, AttentionKernel::kChunkBridge);
  EXPECT_THROW(choose_attention_kernel(3, 2, AttentionKernel::kChunkBridge), InvalidArgument);
  EXPECT_THROW(choose_attention_kernel(-1, 2), InvalidArgument);
  for (const char* name : {"auto", "reference", "fused", "chunk_bridge"})
    EXPECT_STREQ(attention_kernel_name(parse_attention_kernel(name)), name);
  EXPECT_EQ(parse_attention_kernel("chunk"), AttentionKernel::kChunkBridge);
  EXPECT_THROW(parse_attention_kernel("flash"), InvalidArgument);
}

TEST(KernelChoice, ApplySetsTheSpec) {
  AttentionSpec spec;
  apply_kernel_choice(spec, {AttentionKernel::kReference, 0, true});
  EXPECT_EQ(spec.impl, AttentionImpl::kReference);
  EXPECT_EQ(spec.chunk_size, 0);
  apply_kernel_choice(spec, {AttentionKernel::kChunkBridge, 16, false});
  EXPECT_EQ(spec.impl, AttentionImpl::kFused);
  EXPECT_EQ(spec.chunk_size, 16);
  apply_kernel_choice(spec, {AttentionKernel::kFused, 0, false});
  EXPECT_EQ(spec.chunk_size, 0);
}

struct PathRun {
  std::vector<float> out, lse, dq, dk, dv, dboost;
};

// Forward and backward of d under `spec` (impl and chunk from the choice).
PathRun run(AttentionTestData& d, AttentionSpec spec, const KernelChoice& choice, AttentionImpl impl, int threads) {
  apply_kernel_choice(spec, choice);
  spec.impl = impl;
  spec.threads = threads;
  const AttentionInputs in = d.inputs();
  PathRun r;
  r.out.assign(static_cast<size_t>(d.B * d.H * d.Lq * d.Dv), 0.0f);
  r.lse.assign(static_cast<size_t>(d.B * d.H * d.Lq), 0.0f);
  attention_forward(r.out.data(), r.lse.data(), in, spec);
  std::vector<float> dout(r.out.size());
  for (size_t i = 0; i < dout.size(); ++i) dout[i] = 0.01f * static_cast<float>(i % 13) - 0.05f;
  r.dq.assign(d.q.size(), 0.0f);
  r.dk.assign(d.k.size(), 0.0f);
  r.dv.assign(d.v.size(), 0.0f);
  r.dboost.assign(d.key_boost.size(), 0.0f);
  AttentionGrads g;
  g.dq = r.dq.data();
  g.dk = r.dk.data();
  g.dv = r.dv.data();
  g.dkey_boost = r.dboost.data();
  attention_backward(g, dout.data(), r.out.data(), r.lse.data(), in, spec);
  return r;
}

void expect_close(const PathRun& a, const PathRun& b, double tol) {
  EXPECT_LE(max_abs_diff(a.out, b.out), tol);
  EXPECT_LE(max_abs_diff(a.dq, b.dq), tol);
  EXPECT_LE(max_abs_diff(a.dk, b.dk), tol);
  EXPECT_LE(max_abs_diff(a.dv, b.dv), tol);
  EXPECT_LE(max_abs_diff(a.dboost, b.dboost), tol);
}

// Each kernel the table picks, at odd sizes on both sides of its crossovers, against the reference path
// with the same mask; with key lengths, a key boost and times; 1 and 3 threads bit-identical.
TEST(KernelChoice, EachPathAgreesWithTheReference) {
  KernelTable t;
  t.reference_max_pairs = 7 * 13;
  t.chunk_min_keys = 65;
  t.chunk_size = 7;
  for (const auto& [Lq, Lk] : std::vector<std::pair<Index, Index>>{{7, 13}, {1, 129}, {33, 64}, {65, 65}, {31, 129}}) {
    AttentionTestData d(2, 3, Lq, Lk, 9, 5, static_cast<std::uint32_t>(Lq * 1000 + Lk));
    d.add_key_lengths(Lk / 2);
    d.add_key_boost();
    d.add_times();
    AttentionSpec spec;
    spec.time_decay = 0.05f;
    const KernelChoice c = choose_attention_kernel(Lq, Lk, AttentionKernel::kAuto, t);
    SCOPED_TRACE(describe(c) + " at Lq = " + std::to_string(Lq) + ", Lk = " + std::to_string(Lk));
    const PathRun ref = run(d, spec, c, AttentionImpl::kReference, 1);
    const PathRun fused = run(d, spec, c, AttentionImpl::kFused, 1);
    expect_close(fused, ref, 2e-5);
    const PathRun fused3 = run(d, spec, c, AttentionImpl::kFused, 3);
    EXPECT_EQ(fused3.out, fused.out);
    EXPECT_EQ(fused3.dq, fused.dq);
    EXPECT_EQ(fused3.dk, fused.dk);
  }
}

// Chunk-and-bridge with one chunk over every key is full attention; with smaller chunks it is not.
TEST(KernelChoice, ChunkBridgeIsFullAttentionWhenOneChunkHoldsEveryKey) {
  AttentionTestData d(1, 2, 31, 31, 6, 7, 5);
  d.add_key_boost();
  const AttentionSpec spec;
  const PathRun full = run(d, spec, {AttentionKernel::kFused, 0, false}, AttentionImpl::kFused, 1);
  const PathRun one_chunk = run(d, spec, {AttentionKernel::kChunkBridge, 31, true}, AttentionImpl::kFused, 1);
  expect_close(one_chunk, full, 1e-6);
  const PathRun chunks = run(d, spec, {AttentionKernel::kChunkBridge, 4, true}, AttentionImpl::kFused, 1);
  EXPECT_GT(max_abs_diff(chunks.out, full.out), 1e-3);
}

}  // namespace
}  // namespace kessel
