// kessel.segment and kessel.segmenter_source: the Chinese word segmenter (kessel/text/segment.h);
// kessel.detect_format: the dialogue readers' format detection (kessel/text/dialogue.h).
#include <Python.h>

#include <vector>

#include "bindings.h"
#include "kessel/text/dialogue.h"
#include "kessel/text/segment.h"

namespace kessel::python {

namespace {

// The code points of a Python str as they are (lone surrogates included), and back: the words are
// slices of the caller's string, whatever it holds.
std::vector<char32_t> code_points(const py::str& s) {
  const Py_ssize_t n = PyUnicode_GetLength(s.ptr());
  if (n < 0) throw py::error_already_set();
  std::vector<char32_t> cps(static_cast<std::size_t>(n));
  if (n > 0 && PyUnicode_AsUCS4(s.ptr(), reinterpret_cast<Py_UCS4*>(cps.data()), n, 0) == nullptr) {
    throw py::error_already_set();
  }
  return cps;
}

py::list segment(const py::str& text) {
  const std::vector<char32_t> cps = code_points(text);
  const auto& seg = text::Segmenter::default_segmenter();
  std::vector<text::WordSpan> words;
  {
    py::gil_scoped_release release;
    words = seg.segment(std::span<const char32_t>(cps));
  }
  py::list out(words.size());
  for (std::size_t i = 0; i < words.size(); ++i) {
    PyObject* w = PyUnicode_FromKindAndData(PyUnicode_4BYTE_KIND, cps.data() + words[i].char_start,
                                            words[i].char_end - words[i].char_start);
    if (w == nullptr) throw py::error_already_set();
    PyList_SET_ITEM(out.ptr(), static_cast<Py_ssize_t>(i), w);
  }
  return out;
}

}  // namespace

void bind_text(py::module_& m) {
  m.def("segment", &segment, py::arg("text"),
        "Cuts Chinese text into words as jieba.cut(text, HMM=True) does: jieba 0.42.1's method\n"
        "and, when installed, its dictionary and HMM (see segmenter_source()). Returns the words,\n"
        "which joined give `text` back. Non-Chinese text: runs of ASCII letters and digits\n"
        "('abc123', '3.5%') are words; other characters, emoji and punctuation included, are one\n"
        "word each. The first call loads the tables (about 0.1 s); OSError / ValueError when\n"
        "$KESSEL_JIEBA_DIR or an installed jieba cannot be read.");
  m.def("segmenter_source", [] { return text::Segmenter::default_segmenter().source(); },
        "Where segment()'s tables come from: 'jieba:<dir>' ($KESSEL_JIEBA_DIR, else Debian's\n"
        "python3-jieba) or 'builtin' (a small embedded table, when neither is present).");
  m.def(
      "detect_format",
      [](const py::bytes& content, const std::string& name) {
        const std::string_view view = content;
        py::gil_scoped_release release;
        return std::string(text::to_string(text::detect_dialogue_format(view, name)));
      },
      py::arg("content"), py::arg("name") = "<content>",
      "The format `kessel summarize` reads `content` (bytes: a file or its first lines) in:\n"
      "'transcript' when its first line that tells is a transcript turn, else 'csds', 'tweetsumm'\n"
      "or 'kessel' from the first JSONL record that tells. ValueError \"name:line: ...\" (the\n"
      "first record's problem) when none does.");
}

}  // namespace kessel::python
