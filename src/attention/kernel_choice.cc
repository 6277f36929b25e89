// Length-based choice among reference, fused and chunk-and-bridge attention (kessel/attention_choice.h).

#include <array>
#include <string>
#include <utility>

#include "kessel/attention_choice.h"
#include "kessel/error.h"

namespace kessel {

namespace {

constexpr std::array<std::pair<const char*, AttentionKernel>, 5> kNames{{
    {"auto", AttentionKernel::kAuto},
    {"reference", AttentionKernel::kReference},
    {"fused", AttentionKernel::kFused},
    {"chunk_bridge", AttentionKernel::kChunkBridge},
    {"chunk", AttentionKernel::kChunkBridge},
}};

}  // namespace

AttentionKernel parse_attention_kernel(const std::string& name) {
  for (const auto& [key, value] : kNames)
    if (name == key) return value;
  throw InvalidArgument(detail::concat("parse_attention_kernel: unknown attention_kernel '", name,
                                       "' (expected one of: auto, reference, fused, chunk_bridge)"));
}

const char* attention_kernel_name(AttentionKernel kernel) {
  for (const auto& [key, value] : kNames)
    if (value == kernel) return key;
  return "?";
}

KernelTable measured_kernel_table() {
  // docs/benchmarks.md, "Length-based kernel choice" (bench/kernel_choice_bench.cc, EACA shapes:
  // Lq = Lk / 2 customer queries, D = 18, Dv = 64, one thread):
  // - the reference path was never faster than the fused one, not even at Lk = 8 (reference_max_pairs 0);
  // - chunk-and-bridge (C = 256) first ran at under half the fused path's time at Lk = 2048, and its
  //   outputs there differ from full attention's (the table in the docs); below that it saves little
  //   and changes the result, so the fused path keeps full attention.
  KernelTable t;
  t.reference_max_pairs = 0;
  t.chunk_min_keys = 2048;
  t.chunk_size = 256;
  return t;
}

KernelChoice choose_attention_kernel(Index Lq, Index Lk, AttentionKernel forced, const KernelTable& table) {
  KESSEL_CHECK_ARG(Lq >= 0 && Lk >= 0, "choose_attention_kernel: Lq and Lk must be >= 0, got ", Lq, " and ", Lk);
  KernelChoice c;
  c.forced = forced != AttentionKernel::kAuto;
  if (c.forced) {
    c.kernel = forced;
  } else if (table.reference_max_pairs > 0 && Lq * Lk <= table.reference_max_pairs) {
    c.kernel = AttentionKernel::kReference;
  } else if (table.chunk_min_keys > 0 && table.chunk_size > 0 && Lk >= table.chunk_min_keys && Lq <= Lk) {
    c.kernel = AttentionKernel::kChunkBridge;
  } else {
    c.kernel = AttentionKernel::kFused;
  }
  if (c.kernel == AttentionKernel::kChunkBridge) {
    KESSEL_CHECK_ARG(table.chunk_size > 0, "choose_attention_kernel: chunk_bridge needs a chunk_size > 0, got ",
                     table.chunk_size);
    KESSEL_CHECK_ARG(Lq <= Lk, "choose_attention_kernel: chunk_bridge needs Lq <= Lk, got Lq = ", Lq,
                     " and Lk = ", Lk);
    c.chunk_size = table.chunk_size;
  }
  return c;
}

void apply_kernel_choice(AttentionSpec& spec, const KernelChoice& choice) {
  spec.impl = choice.kernel == AttentionKernel::kReference ? AttentionImpl::kReference : AttentionImpl::kFused;
  spec.chunk_size = choice.kernel == AttentionKernel::kChunkBridge ? choice.chunk_size : 0;
}

std::string describe(const KernelChoice& choice) {
  std::string s = attention_kernel_name(choice.kernel);
  if (choice.kernel == AttentionKernel::kChunkBridge) s += detail::concat("(C=", choice.chunk_size, ")");
  if (choice.forced) s += " (forced)";
  return s;
}

}  // namespace kessel
