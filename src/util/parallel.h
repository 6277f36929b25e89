// Thread-count policy shared by every multithreaded kernel.
//
// Kernels split work into items whose results do not depend on which thread runs them, so any thread
// count gives bit-identical output. `threads <= 0` means "what OpenMP would use" (OMP_NUM_THREADS or
// the core count).
#pragma once

#include <omp.h>

namespace kessel {

inline int resolve_threads(int threads) {
  if (threads > 0) return threads;
  const int n = omp_get_max_threads();
  return n > 0 ? n : 1;
}

}  // namespace kessel
