// kessel._kessel, the compiled extension of the package `kessel` (python/kessel/__init__.py re-exports
// it): numpy in, numpy out. kessel::InvalidArgument and ParseError surface as
// ValueError, IoError as OSError.
#include "bindings.h"
#include "kessel/cpu.h"
#include "kessel/error.h"
#include "kessel/text/utf8.h"
#include "kessel/version.h"

PYBIND11_MODULE(_kessel, m) {
  namespace py = pybind11;
  m.doc() =
      "kessel: attention engine, fuzzy clustering, HMMs, normalization layers, EACA\n\n"
      "Precision: the attention and normalization-layer functions compute in float32. Other arrays "
      "are converted (copied) to float32; a float64 numpy array so converted raises "
      "kessel.PrecisionWarning once per process (silence it with warnings.simplefilter('ignore', "
      "kessel.PrecisionWarning)). The clustering and HMM functions compute in float64.";
  m.attr("__version__") = kessel::kVersion;  // project(kessel VERSION ...) in CMakeLists.txt
  static py::exception<kessel::InvalidArgument> invalid_argument(m, "InvalidArgument", PyExc_ValueError);
  static py::exception<kessel::ParseError> parse_error(m, "ParseError", PyExc_ValueError);
  static py::exception<kessel::IoError> io_error(m, "IoError", PyExc_OSError);
  // A message may quote malformed input (a JSON parser's "last read: '...'"); Python needs valid
  // UTF-8 for the exception text, so bad bytes become U+FFFD.
  py::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p) std::rethrow_exception(p);
    } catch (const kessel::InvalidArgument& e) {
      PyErr_SetString(invalid_argument.ptr(), kessel::text::sanitize_utf8(e.what()).c_str());
    } catch (const kessel::ParseError& e) {
      PyErr_SetString(parse_error.ptr(), kessel::text::sanitize_utf8(e.what()).c_str());
    } catch (const kessel::IoError& e) {
      PyErr_SetString(io_error.ptr(), kessel::text::sanitize_utf8(e.what()).c_str());
    }
  });
  // SIMD variant (kessel/cpu.h): which one runs, which this CPU has, and forcing one.
  m.def("cpu_variant", &kessel::cpu_variant,
        "The SIMD variant kessel's kernels use now (KESSEL_CPU or set_cpu_variant chooses; else the best).");
  m.def("cpu_variants", &kessel::cpu_variants_available, "The variants this CPU runs, best first.");
  m.def("cpu_variants_built", &kessel::cpu_variants_built, "Every variant this build contains.");
  m.def("set_cpu_variant", [](const std::string& name) { kessel::set_cpu_variant(name); }, py::arg("name"),
        "Forces a SIMD variant for the process ('auto' restores the best); ValueError for a name this "
        "CPU or build cannot run.");
  kessel::python::register_precision_warning(m);
  // One line per area (see bindings.h).
  kessel::python::bind_hmm(m);
  kessel::python::bind_attention(m);
  kessel::python::bind_nn(m);
  kessel::python::bind_cluster(m);
  kessel::python::bind_summarize(m);
  kessel::python::bind_text(m);
  kessel::python::bind_eaca_trace(m);
}
