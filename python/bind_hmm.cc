// Python interface of the HMMs (include/kessel/hmm.h): the class kessel.HMM.
//
// Sequences: categorical ones are 1-D integer arrays [T]; Gaussian ones are 2-D [T, D] (1-D [T] is
// accepted when D == 1). A list/tuple whose first element is itself a sequence (1-D for categorical,
// 2-D for Gaussian), or a numpy array with one more dimension, is a batch of sequences; batch calls
// return one result per sequence. Inputs are copied into C++ vectors, then the GIL is released.
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "bindings.h"
#include "kessel/error.h"
#include "kessel/hmm.h"

namespace kessel::python {
namespace {

using hmm::EmissionType;
using hmm::Model;
using hmm::Sequence;
using hmm::SequenceView;

py::array as_numeric(const py::handle& obj, const std::string& where, const char* name) {
  py::array a;
  try {
    a = py::module_::import("numpy").attr("asarray")(obj);
  } catch (py::error_already_set& e) {
    throw InvalidArgument(where + ": " + name + " is not convertible to an array: " + e.what());
  }
  const char kind = a.dtype().kind();
  KESSEL_CHECK_ARG(kind == 'b' || kind == 'i' || kind == 'u' || kind == 'f', where, ": ", name,
                   " must be numeric, got dtype ", py::str(a.dtype()).cast<std::string>());
  return a;
}

// Row-major copy of a 1-D (ndim 1) or 2-D (ndim 2) float array; writes the shape.
std::vector<double> doubles(const py::handle& obj, int ndim, const char* where, const char* name,
                            Index* rows, Index* cols) {
  const auto a = DoubleArray::ensure(as_numeric(obj, where, name));
  KESSEL_CHECK_ARG(a.ndim() == ndim, where, ": ", name, " must be ", ndim, "-D, got ", a.ndim(),
                   "-D");
  *rows = a.shape(0);
  *cols = ndim == 2 ? a.shape(1) : 1;
  return std::vector<double>(a.data(), a.data() + a.size());
}

py::array_t<double> to_numpy(const std::vector<double>& v, Index rows, Index cols, bool matrix) {
  py::array_t<double> a = matrix ? py::array_t<double>({rows, cols}) : py::array_t<double>(rows);
  std::copy(v.begin(), v.end(), a.mutable_data());
  return a;
}

class PyHmm {
 public:
  explicit PyHmm(Model m) : m_(std::move(m)) {}

  static PyHmm categorical(const py::object& start, const py::object& trans,
                           const py::object& emis) {
    const char* fn = "HMM.categorical";
    Index r = 0, c = 0, S = 0, K = 0;
    auto s = doubles(start, 1, fn, "start", &S, &c);
    auto t = doubles(trans, 2, fn, "transitions", &r, &c);
    KESSEL_CHECK_ARG(r == S && c == S, fn, ": transitions is [", r, ", ", c, "] but start has S=",
                     S);
    auto e = doubles(emis, 2, fn, "emissions", &r, &K);
    KESSEL_CHECK_ARG(r == S, fn, ": emissions has ", r, " rows but start has S=", S);
    return PyHmm(Model::categorical(std::move(s), std::move(t), std::move(e)));
  }

  static PyHmm gaussian(const py::object& start, const py::object& trans, const py::object& means,
                        const py::object& vars) {
    const char* fn = "HMM.gaussian";
    Index r = 0, c = 0, S = 0, D = 0;
    auto s = doubles(start, 1, fn, "start", &S, &c);
    auto t = doubles(trans, 2, fn, "transitions", &r, &c);
    KESSEL_CHECK_ARG(r == S && c == S, fn, ": transitions is [", r, ", ", c, "] but start has S=",
                     S);
    auto mu = doubles(means, 2, fn, "means", &r, &D);
    KESSEL_CHECK_ARG(r == S, fn, ": means has ", r, " rows but start has S=", S);
    auto var = doubles(vars, 2, fn, "variances", &r, &c);
    KESSEL_CHECK_ARG(r == S && c == D, fn, ": variances is [", r, ", ", c,
                     "] but means is [", S, ", ", D, "]");
    return PyHmm(Model::gaussian(std::move(s), std::move(t), std::move(mu), std::move(var)));
  }

  const Model& model() const { return m_; }
  Model& model() { return m_; }

  // ---- sequences ----
  bool is_batch(const py::handle& obj, const std::string& where) const {
    const int single = m_.type == EmissionType::categorical ? 1 : 2;
    if (py::isinstance<py::list>(obj) || py::isinstance<py::tuple>(obj)) {
      const auto seq = py::reinterpret_borrow<py::sequence>(obj);
      if (py::len(seq) == 0) return true;
      return as_numeric(seq[0], where, "sequence").ndim() >= single;
    }
    return as_numeric(obj, where, "sequence").ndim() == single + 1;
  }

  Sequence one(const py::handle& obj, const std::string& where) const {
    const auto a = as_numeric(obj, where, "sequence");
    Sequence s;
    if (m_.type == EmissionType::categorical) {
      KESSEL_CHECK_ARG(a.ndim() == 1, where, ": a categorical sequence must be 1-D [T], got ",
                       a.ndim(), "-D");
      const auto d = DoubleArray::ensure(a);  // exact for any int32 range; checks integrality
      s.length = d.shape(0);
      s.symbols.resize(s.length);
      for (Index t = 0; t < s.length; ++t) {
        const double v = d.data()[t];
        KESSEL_CHECK_ARG(v == std::floor(v) && v >= 0 && v < static_cast<double>(m_.n_symbols),
                         where, ": step ", t, " has symbol ", v, " (must be an integer in [0, ",
                         m_.n_symbols, "))");
        s.symbols[t] = static_cast<std::int32_t>(v);
      }
      return s;
    }
    const auto d = DoubleArray::ensure(a);
    const bool ok = (d.ndim() == 2 && d.shape(1) == m_.dim) || (d.ndim() == 1 && m_.dim == 1);
    KESSEL_CHECK_ARG(ok, where, ": a Gaussian sequence must be [T, D=", m_.dim, "]",
                     m_.dim == 1 ? " or [T]" : "", ", got ndim ", d.ndim(), " with last dim ",
                     d.ndim() ? d.shape(d.ndim() - 1) : 0);
    s.length = d.shape(0);
    s.values.assign(d.data(), d.data() + d.size());
    return s;
  }

  std::vector<Sequence> many(const py::handle& obj, const std::string& where) const {
    std::vector<Sequence> out;
    if (py::isinstance<py::list>(obj) || py::isinstance<py::tuple>(obj)) {
      for (const auto item : py::reinterpret_borrow<py::sequence>(obj)) {
        out.push_back(one(item, where + " (sequence " + std::to_string(out.size()) + ")"));
      }
    } else {
      const auto a = as_numeric(obj, where, "sequences");
      for (Index n = 0; n < a.shape(0); ++n) {
        out.push_back(one(a[py::int_(n)], where + " (sequence " + std::to_string(n) + ")"));
      }
    }
    return out;
  }

  py::array_t<double> matrix(const std::vector<double>& v, Index T) const {
    return to_numpy(v, T, m_.n_states, true);
  }

  py::object sequence_to_numpy(const Sequence& s) const {
    if (m_.type == EmissionType::categorical) {
      py::array_t<std::int32_t> a(s.length);
      std::copy(s.symbols.begin(), s.symbols.end(), a.mutable_data());
      return a;
    }
    return to_numpy(s.values, s.length, m_.dim, true);
  }

 private:
  Model m_;
};

std::string type_name(const Model& m) {
  return m.type == EmissionType::categorical ? "categorical" : "gaussian";
}

}  // namespace

void bind_hmm(py::module_& m) {
  py::class_<PyHmm>(m, "HMM", R"doc(Hidden Markov model with categorical or diagonal-Gaussian emissions.

Build with HMM.categorical(start, transitions, emissions) or
HMM.gaussian(start, transitions, means, variances). Sequences: categorical [T] ints, Gaussian [T, D]
floats; a list of sequences is a batch. Bad input raises ValueError. See docs/hmm.md.)doc")
      .def_static("categorical", &PyHmm::categorical, py::arg("start"), py::arg("transitions"),
                  py::arg("emissions"))
      .def_static("gaussian", &PyHmm::gaussian, py::arg("start"), py::arg("transitions"),
                  py::arg("means"), py::arg("variances"))
      .def_static("load", [](const std::string& path) { return PyHmm(hmm::read_model(path)); },
                  py::arg("path"), "Read a model JSON file (docs/hmm.md).")
      .def("save", [](const PyHmm& h, const std::string& path) { hmm::write_model(path, h.model()); },
           py::arg("path"))
      .def("to_json", [](const PyHmm& h) { return hmm::model_to_json_text(h.model()); })
      .def_property_readonly("type", [](const PyHmm& h) { return type_name(h.model()); })
      .def_property_readonly("n_states", [](const PyHmm& h) { return h.model().n_states; })
      .def_property_readonly("start", [](const PyHmm& h) {
        return to_numpy(h.model().start, h.model().n_states, 1, false);
      })
      .def_property_readonly("transitions", [](const PyHmm& h) {
        return to_numpy(h.model().transitions, h.model().n_states, h.model().n_states, true);
      })
      .def_property_readonly("emissions", [](const PyHmm& h) {
        KESSEL_CHECK_ARG(h.model().type == EmissionType::categorical,
                         "HMM.emissions: a Gaussian model has means and variances, not emissions");
        return to_numpy(h.model().emissions, h.model().n_states, h.model().n_symbols, true);
      })
      .def_property_readonly("means", [](const PyHmm& h) {
        KESSEL_CHECK_ARG(h.model().type == EmissionType::gaussian,
                         "HMM.means: a categorical model has emissions, not means");
        return to_numpy(h.model().means, h.model().n_states, h.model().dim, true);
      })
      .def_property_readonly("variances", [](const PyHmm& h) {
        KESSEL_CHECK_ARG(h.model().type == EmissionType::gaussian,
                         "HMM.variances: a categorical model has emissions, not variances");
        return to_numpy(h.model().variances, h.model().n_states, h.model().dim, true);
      })
      .def(
          "log_likelihood",
          [](const PyHmm& h, const py::object& seqs, int threads) -> py::object {
            const std::string where = "HMM.log_likelihood";
            const bool batch = h.is_batch(seqs, where);
            const auto owned = batch ? h.many(seqs, where)
                                     : std::vector<Sequence>{h.one(seqs, where)};
            const auto v = hmm::views(owned);
            std::vector<double> ll;
            {
              py::gil_scoped_release release;
              ll = hmm::log_likelihood(h.model(), v, threads);
            }
            if (!batch) return py::float_(ll[0]);
            return to_numpy(ll, static_cast<Index>(ll.size()), 1, false);
          },
          py::arg("seqs"), py::arg("threads") = 0,
          "log p(x) of one sequence (float) or of each sequence of a batch (array [N]).")
      .def(
          "forward",
          [](const PyHmm& h, const py::object& seq) {
            const auto s = h.one(seq, "HMM.forward");
            std::vector<double> la(s.length * h.model().n_states);
            hmm::forward_log(la, h.model(), s.view());
            return h.matrix(la, s.length);
          },
          py::arg("seq"), "Log alphas [T, S]: log p(x_0..x_t, state_t = s).")
      .def(
          "backward",
          [](const PyHmm& h, const py::object& seq) {
            const auto s = h.one(seq, "HMM.backward");
            std::vector<double> lb(s.length * h.model().n_states);
            hmm::backward_log(lb, h.model(), s.view());
            return h.matrix(lb, s.length);
          },
          py::arg("seq"), "Log betas [T, S]: log p(x_t+1..x_T-1 | state_t = s).")
      .def(
          "posterior",
          [](const PyHmm& h, const py::object& seqs, int threads) -> py::object {
            const std::string where = "HMM.posterior";
            const bool batch = h.is_batch(seqs, where);
            const auto owned = batch ? h.many(seqs, where)
                                     : std::vector<Sequence>{h.one(seqs, where)};
            const auto v = hmm::views(owned);
            std::vector<std::vector<double>> g;
            {
              py::gil_scoped_release release;
              g = hmm::posterior(h.model(), v, threads);
            }
            if (!batch) return h.matrix(g[0], owned[0].length);
            py::list out;
            for (std::size_t n = 0; n < g.size(); ++n) out.append(h.matrix(g[n], owned[n].length));
            return out;
          },
          py::arg("seqs"), py::arg("threads") = 0,
          "Posterior state marginals [T, S] (a list of them for a batch).")
      .def(
          "viterbi",
          [](const PyHmm& h, const py::object& seqs, int threads) -> py::object {
            const std::string where = "HMM.viterbi";
            const bool batch = h.is_batch(seqs, where);
            const auto owned = batch ? h.many(seqs, where)
                                     : std::vector<Sequence>{h.one(seqs, where)};
            const auto v = hmm::views(owned);
            std::vector<hmm::ViterbiResult> res;
            {
              py::gil_scoped_release release;
              res = hmm::viterbi(h.model(), v, threads);
            }
            py::list out;
            for (const auto& r : res) {
              py::array_t<std::int32_t> path(static_cast<Index>(r.path.size()));
              std::copy(r.path.begin(), r.path.end(), path.mutable_data());
              out.append(py::make_tuple(path, r.log_score));
            }
            if (!batch) return out[0];
            return out;
          },
          py::arg("seqs"), py::arg("threads") = 0,
          "(path int32 [T], log p(x, path)); a list of those for a batch.")
      .def(
          "fit",
          [](PyHmm& h, const py::object& seqs, int max_iter, double tol, const py::object& fix,
             double variance_floor, int threads, bool verbose) {
            const std::string where = "HMM.fit";
            hmm::FitOptions opt;
            opt.max_iter = max_iter;
            opt.tol = tol;
            opt.variance_floor = variance_floor;
            opt.threads = threads;
            std::vector<std::string> names;
            if (py::isinstance<py::str>(fix)) {
              names.push_back(fix.cast<std::string>());
            } else if (!fix.is_none()) {
              for (const auto item : fix) names.push_back(py::str(item).cast<std::string>());
            }
            for (const auto& n : names) {
              if (n == "start") {
                opt.fix_start = true;
              } else if (n == "transitions") {
                opt.fix_transitions = true;
              } else if (n == "emissions" || n == "means_variances") {
                opt.fix_emissions = true;
              } else {
                throw InvalidArgument(where + ": fix has '" + n +
                                      "' (expected 'start', 'transitions' or 'emissions')");
              }
            }
            if (verbose) {
              opt.on_iteration = [](int it, double ll, double delta) {
                std::fprintf(stderr, "iter %d | loglik %.6f | Δ %.6g\n", it, ll, delta);
              };
            }
            const auto owned = h.is_batch(seqs, where) ? h.many(seqs, where)
                                                       : std::vector<Sequence>{h.one(seqs, where)};
            const auto v = hmm::views(owned);
            hmm::FitResult r;
            Model work = h.model();  // the model changes only if fitting succeeds
            {
              py::gil_scoped_release release;
              r = hmm::baum_welch(work, v, opt);
            }
            h.model() = std::move(work);
            return to_numpy(r.history, static_cast<Index>(r.history.size()), 1, false);
          },
          py::arg("seqs"), py::arg("max_iter") = 100, py::arg("tol") = 1e-6,
          py::arg("fix") = py::tuple(), py::arg("variance_floor") = 1e-6, py::arg("threads") = 0,
          py::arg("verbose") = false,
          R"doc(Baum–Welch in place. Returns the total log-likelihood history: the initial model's,
then one entry per iteration (the last is the fitted model's). fix: any of "start", "transitions",
"emissions" (Gaussian: means and variances), kept bit-identical. Stops when the gain < tol.)doc")
      .def(
          "sample",
          [](const PyHmm& h, Index n_seqs, Index length, std::uint64_t seed, bool return_states) {
            std::vector<std::vector<std::int32_t>> states;
            const auto seqs = hmm::sample(h.model(), n_seqs, length, seed, &states);
            py::list out, st;
            for (std::size_t n = 0; n < seqs.size(); ++n) {
              out.append(h.sequence_to_numpy(seqs[n]));
              py::array_t<std::int32_t> s(length);
              std::copy(states[n].begin(), states[n].end(), s.mutable_data());
              st.append(s);
            }
            if (return_states) return py::object(py::make_tuple(out, st));
            return py::object(out);
          },
          py::arg("n_seqs"), py::arg("length"), py::arg("seed") = 0,
          py::arg("return_states") = false,
          "n_seqs sequences of `length` steps (std::mt19937_64 seeded with `seed`).")
      .def("__repr__", [](const PyHmm& h) {
        const auto& m = h.model();
        return "<kessel.HMM " + type_name(m) + " S=" + std::to_string(m.n_states) +
               (m.type == EmissionType::categorical ? " K=" + std::to_string(m.n_symbols)
                                                    : " D=" + std::to_string(m.dim)) +
               ">";
      });
}

}  // namespace kessel::python
