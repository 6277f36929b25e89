// Length-based choice among the engine's three ways to compute one attention call (issue 27 item 5;
// seed 004 §3.3 pit 2, "measured, not assumed"):
//
//   reference     the double-precision path (AttentionImpl::kReference): materializes [Lq, Lk]
//   fused         the tiled online-softmax path (AttentionImpl::kFused): O((Lq + Lk) D) memory
//   chunk_bridge  the fused path under the chunk-and-bridge mask (AttentionSpec::chunk_size C): each
//                 query sees its own chunk of C positions and the last position of every earlier chunk,
//                 so the work per query is C + L/C keys instead of L. This is a different (sparser)
//                 attention, not the same numbers faster: callers that may use it say so.
//
// The crossovers come from a measurement, not from a guess: bench/kernel_choice_bench.cc times the
// three on the EACA customer attention's shapes and docs/benchmarks.md ("Length-based kernel choice")
// gives the command, the CPU and the figures that measured_kernel_table() cites.
#pragma once

#include <string>

#include "kessel/attention.h"

namespace kessel {

// kAuto: choose_attention_kernel decides; the others force a path (the override).
enum class AttentionKernel { kAuto, kReference, kFused, kChunkBridge };

// "auto" | "reference" | "fused" | "chunk_bridge" (also "chunk"); throws InvalidArgument naming
// `attention_kernel` otherwise.
AttentionKernel parse_attention_kernel(const std::string& name);
const char* attention_kernel_name(AttentionKernel kernel);

struct KernelTable {
  // The reference path when Lq * Lk <= reference_max_pairs (it was faster there); 0: never.
  Index reference_max_pairs = 0;
  // Chunk-and-bridge when Lk >= chunk_min_keys, with chunks of chunk_size positions.
  Index chunk_min_keys = 0;
  Index chunk_size = 0;
};

// The table measured on this project's development machine (docs/benchmarks.md).
KernelTable measured_kernel_table();

struct KernelChoice {
  AttentionKernel kernel = AttentionKernel::kFused;
  Index chunk_size = 0;  // chunk_bridge only
  bool forced = false;   // given by the caller rather than chosen by the table
};

// The path for a call with Lq queries over Lk keys. `forced` != kAuto is returned as given (with the
// table's chunk size for chunk_bridge). Lq, Lk >= 0; chunk_bridge needs Lq <= Lk (the engine's rule),
// so the table never picks it otherwise, and a forced one is refused then.
KernelChoice choose_attention_kernel(Index Lq, Index Lk, AttentionKernel forced = AttentionKernel::kAuto,
                                     const KernelTable& table = measured_kernel_table());

// Sets spec.impl and spec.chunk_size as the choice says.
void apply_kernel_choice(AttentionSpec& spec, const KernelChoice& choice);

// "fused", "reference", "chunk_bridge(C=256)", with " (forced)" when the caller forced it.
std::string describe(const KernelChoice& choice);

}  // namespace kessel
