// Thread-count policy shared by every multithreaded kernel.
//
// Kernels split work into items whose results do not depend on which thread runs them, so any thread
// count gives bit-identical output. `threads <= 0` means "what OpenMP would use" (OMP_NUM_THREADS or
// the core count).
#pragma once

#include <omp.h>

#include <cstddef>
#include <exception>
#include <vector>

namespace kessel {

inline int resolve_threads(int threads) {
  if (threads > 0) return threads;
  const int n = omp_get_max_threads();
  return n > 0 ? n : 1;
}

// Runs fn(i) for every i in [0, n) on up to `threads` threads (resolve_threads; dynamic schedule).
// Each item must write only its own results; an exception ends its item only, and after every item
// has run the one of the lowest i is rethrown, so the error does not depend on the thread count.
template <class Fn>
void parallel_items(std::size_t n, int threads, Fn&& fn) {
  std::vector<std::exception_ptr> errors(n);
#pragma omp parallel for schedule(dynamic) num_threads(resolve_threads(threads))
  for (std::size_t i = 0; i < n; ++i) {
    try {
      fn(i);
    } catch (...) {
      errors[i] = std::current_exception();
    }
  }
  for (auto& e : errors)
    if (e) std::rethrow_exception(e);
}

}  // namespace kessel
