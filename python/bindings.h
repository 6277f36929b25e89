// The pybind11 module `kessel._kessel` is assembled from one bind_<area> function per area (module.cc).
#pragma once

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <optional>
#include <string>

#include "kessel/text/dialogue.h"

namespace kessel::python {

namespace py = pybind11;

void bind_attention(py::module_& m);
void bind_cluster(py::module_& m);
void bind_hmm(py::module_& m);
void bind_nn(py::module_& m);
void bind_summarize(py::module_& m);
void bind_text(py::module_& m);
void bind_eaca_trace(py::module_& m);

// The default lexicon's directory (data_dirs.cc): `given`, else $KESSEL_HOME/data/lexicon, else
// kessel/data/lexicon beside the extension (the installed wheel), else, for the extension still in its
// build tree only, the source tree's data/lexicon. IoError naming `what` and every place tried,
// prefixed by `context`.
std::string default_lexicon_dir(const std::optional<std::string>& given, const char* what, const char* context);

// One dialogue from Python: a dict, or a JSON string, in any of the three input formats (kessel, CSDS,
// TweetSumm). ParseError naming the field for a bad record; InvalidArgument "<fn>: expected one
// dialogue, got N" otherwise.
text::Dialogue one_dialogue(const py::object& dialogue, const char* fn);
// one_dialogue in two steps, so that the parse can run without the GIL: the dialogue's UTF-8 JSON
// text (a str as given, anything else through json.dumps; needs the GIL), then the parse of that
// text (ParseError "<name>:1: <field>: ..."; needs no Python).
std::string dialogue_utf8(const py::handle& dialogue);
text::Dialogue parse_one_dialogue(const std::string& utf8, const std::string& name, const char* fn);

// A C-contiguous float32 array: the form every kernel takes. Converts (copying) other
// dtypes/orders; a float64 (or wider) numpy array so converted raises kessel.PrecisionWarning, once
// per process (the caster below and float_array in numpy_views.h call warn_if_narrowed).
using FloatArray = py::array_t<float, py::array::c_style | py::array::forcecast>;
using DoubleArray = py::array_t<double, py::array::c_style | py::array::forcecast>;

// Adds kessel.PrecisionWarning (a UserWarning) to the module; module.cc calls it first.
void register_precision_warning(py::module_& m);
// Warns (kessel.PrecisionWarning, the first time only) when obj is a numpy array of a float dtype
// wider than float32; throws error_already_set when a warnings filter turns it into an error.
void warn_if_narrowed(const py::handle& obj);

}  // namespace kessel::python

namespace pybind11::detail {
// FloatArray arguments of bound functions: the converting pass (the second, after an exact-match
// pass fails) warns before pybind11 casts.
template <>
struct type_caster<kessel::python::FloatArray> : pyobject_caster<kessel::python::FloatArray> {
  bool load(handle src, bool convert) {
    if (convert) kessel::python::warn_if_narrowed(src);
    return pyobject_caster<kessel::python::FloatArray>::load(src, convert);
  }
};
}  // namespace pybind11::detail
