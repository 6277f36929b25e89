// Helpers that turn Python objects into checked, contiguous numpy arrays and kessel views.
//
// Every check throws kessel::InvalidArgument (ValueError in Python) whose message names the function,
// the argument and the shapes, so that a wrong call never reaches a kernel with a bad pointer.
#pragma once

#include <array>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "bindings.h"
#include "kessel/error.h"
#include "kessel/tensor.h"

namespace kessel::python {

using Uint8Array = py::array_t<std::uint8_t, py::array::c_style | py::array::forcecast>;
using Int64Array = py::array_t<std::int64_t, py::array::c_style | py::array::forcecast>;

inline std::vector<Index> shape_vector(const py::array& a) {
  return std::vector<Index>(a.shape(), a.shape() + a.ndim());
}

// "[2, 3, 4]"
inline std::string shape_of(const py::array& a) { return shape_string(shape_vector(a)); }

inline std::string repr_of(const py::handle& obj) { return py::repr(obj).cast<std::string>(); }

// np.asarray(obj) with a dtype check. kinds: the numpy dtype kinds accepted ("biuf" = bool, signed,
// unsigned, float). Strings, objects and complex numbers are rejected rather than cast.
inline py::array numeric_array(const py::handle& obj, const char* fn, const char* name,
                               const char* kinds) {
  py::array a;
  try {
    a = py::module_::import("numpy").attr("asarray")(obj);
  } catch (py::error_already_set& e) {
    throw InvalidArgument(detail::concat(fn, ": ", name, " is not convertible to an array: ",
                                         e.what()));
  }
  const char kind = a.dtype().kind();
  KESSEL_CHECK_ARG(std::string(kinds).find(kind) != std::string::npos, fn, ": ", name,
                   " must be a numeric array (dtype kinds '", kinds, "'), got dtype ",
                   py::str(a.dtype()).cast<std::string>());
  return a;
}

// Throws if any element is NaN or infinite: kernels would pass such values on silently.
inline void check_finite(const float* data, Index n, const char* fn, const char* name,
                         const std::string& shape) {
  for (Index i = 0; i < n; ++i) {
    KESSEL_CHECK_ARG(std::isfinite(data[i]), fn, ": ", name, " of shape ", shape,
                     " contains a non-finite value (", data[i], ") at flat index ", i);
  }
}

// A finite float32 C-contiguous copy (or the array itself when it already is one); a float64 array
// raises kessel.PrecisionWarning the first time (warn_if_narrowed).
inline FloatArray float_array(const py::handle& obj, const char* fn, const char* name) {
  warn_if_narrowed(obj);
  FloatArray a = FloatArray::ensure(numeric_array(obj, fn, name, "biuf"));
  KESSEL_CHECK_ARG(a, fn, ": ", name, " could not be converted to float32");
  check_finite(a.data(), static_cast<Index>(a.size()), fn, name, shape_of(a));
  return a;
}

// Nonzero -> 1 as uint8; accepts bool and integer arrays (a float mask is ambiguous: rejected).
inline Uint8Array mask_array(const py::handle& obj, const char* fn, const char* name) {
  py::array a = numeric_array(obj, fn, name, "biu");
  py::array nonzero = py::module_::import("numpy").attr("not_equal")(a, 0);
  return Uint8Array::ensure(nonzero);
}

// The shape as a 4-vector, left-padded with 1s (numpy broadcasting rules).
inline std::array<Index, 4> padded_shape4(const py::array& a, const char* fn, const char* name,
                                          const char* target) {
  KESSEL_CHECK_ARG(a.ndim() <= 4, fn, ": ", name, " has rank ", a.ndim(), " (shape ", shape_of(a),
                   "); at most 4 dimensions broadcastable to ", target);
  std::array<Index, 4> s{1, 1, 1, 1};
  for (py::ssize_t d = 0; d < a.ndim(); ++d) s[4 - a.ndim() + d] = a.shape(d);
  return s;
}

// A broadcast view of a contiguous array onto `full` (each dimension 1 or the full extent).
template <typename T, int Flags>
Strided4<T> broadcast_view(const py::array_t<T, Flags>& a, std::array<Index, 4> full,
                           const char* fn, const char* name) {
  const std::string target = shape_string(full);
  const std::array<Index, 4> s = padded_shape4(a, fn, name, target.c_str());
  for (int d = 0; d < 4; ++d) {
    KESSEL_CHECK_ARG(s[d] == 1 || s[d] == full[d], fn, ": ", name, " of shape ", shape_of(a),
                     " is not broadcastable to [B, H, Lq, Lk] = ", target,
                     " (each dimension must be 1 or the full extent)");
  }
  return Strided4<T>::contiguous(a.data(), s);
}

// A per-batch row [B, N]; [N] is accepted when B == 1.
template <typename A>
void check_rows_shape(const A& a, Index B, Index N, const char* fn, const char* name,
                      const char* letters) {
  const bool ok = (a.ndim() == 2 && a.shape(0) == B && a.shape(1) == N) ||
                  (a.ndim() == 1 && B == 1 && a.shape(0) == N);
  KESSEL_CHECK_ARG(ok, fn, ": ", name, " has shape ", shape_of(a), " but must be ", letters, " = [",
                   B, ", ", N, "]", B == 1 ? " (or [N] since B = 1)" : "");
}

}  // namespace kessel::python
