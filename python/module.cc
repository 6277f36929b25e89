// Python module `kessel`: numpy in, numpy out. kessel::InvalidArgument and ParseError surface as
// ValueError, IoError as OSError.
#include "bindings.h"
#include "kessel/error.h"

PYBIND11_MODULE(kessel, m) {
  namespace py = pybind11;
  m.doc() = "kessel: attention engine, fuzzy clustering, HMMs, normalization layers, EACA";
  m.attr("__version__") = "0.1.0";
  py::register_exception<kessel::InvalidArgument>(m, "InvalidArgument", PyExc_ValueError);
  py::register_exception<kessel::ParseError>(m, "ParseError", PyExc_ValueError);
  py::register_exception<kessel::IoError>(m, "IoError", PyExc_OSError);
  // One line per area (see bindings.h).
  kessel::python::bind_hmm(m);
  kessel::python::bind_attention(m);
  kessel::python::bind_nn(m);
  kessel::python::bind_cluster(m);
  kessel::python::bind_summarize(m);
  kessel::python::bind_eaca_trace(m);
}
