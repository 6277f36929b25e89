// The once-per-process warning for float arrays wider than float32 (bindings.h).
#include "bindings.h"

namespace kessel::python {

namespace {
PyObject* precision_warning = nullptr;  // kessel.PrecisionWarning, owned by the module
bool warned = false;                    // the GIL serializes every access
}  // namespace

void register_precision_warning(py::module_& m) {
  precision_warning = PyErr_NewExceptionWithDoc(
      "kessel.PrecisionWarning",
      "A float64 (or wider) array was converted to float32 for a float32 kernel.",
      PyExc_UserWarning, nullptr);
  m.attr("PrecisionWarning") = py::handle(precision_warning);
}

void warn_if_narrowed(const py::handle& obj) {
  if (warned || !py::isinstance<py::array>(obj)) return;
  const py::dtype dtype = py::reinterpret_borrow<py::array>(obj).dtype();
  if (dtype.kind() != 'f' || dtype.itemsize() <= 4) return;
  warned = true;
  const std::string message =
      "kessel: a " + dtype.attr("name").cast<std::string>() +
      " array was converted to float32: the attention and layer kernels compute in float32, so "
      "values keep about 7 significant digits and results are float32. Pass float32 arrays to "
      "avoid the copy. (Shown once per process; the clustering and HMM functions take float64.)";
  // stacklevel 1: the innermost Python frame, the line that called kessel (a C function has no
  // frame of its own). A warning turned into an error by a filter propagates as that error.
  if (PyErr_WarnEx(precision_warning, message.c_str(), 1) < 0) throw py::error_already_set();
}

}  // namespace kessel::python
