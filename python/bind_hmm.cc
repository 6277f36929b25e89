// Python interface of the HMMs (include/kessel/hmm.h): the class kessel.HMM.
//
// Sequences: categorical ones are 1-D integer arrays [T]; Gaussian ones are 2-D [T, D] (1-D [T] is
// accepted when D == 1). A list/tuple whose first element is itself a sequence (1-D for categorical,
// 2-D for Gaussian), or a numpy array with one more dimension, is a batch of sequences; batch calls
// return one result per sequence. Inputs are copied into C++ vectors, then the GIL is released.
#include <cmath>
#include <cstdint>
#include <optional>
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

  static PyHmm gaussian_full(const py::object& start, const py::object& trans,
                             const py::object& means, const py::object& covs) {
    const char* fn = "HMM.gaussian_full";
    Index r = 0, c = 0, S = 0, D = 0;
    auto s = doubles(start, 1, fn, "start", &S, &c);
    auto t = doubles(trans, 2, fn, "transitions", &r, &c);
    KESSEL_CHECK_ARG(r == S && c == S, fn, ": transitions is [", r, ", ", c,
                     "] but start has S=", S);
    auto mu = doubles(means, 2, fn, "means", &r, &D);
    KESSEL_CHECK_ARG(r == S, fn, ": means has ", r, " rows but start has S=", S);
    const auto a = DoubleArray::ensure(as_numeric(covs, fn, "covariances"));
    KESSEL_CHECK_ARG(a.ndim() == 3 && a.shape(0) == S && a.shape(1) == D && a.shape(2) == D, fn,
                     ": covariances must be [S, D, D] = [", S, ", ", D, ", ", D, "], got ndim ",
                     a.ndim());
    std::vector<double> cov(a.data(), a.data() + a.size());
    return PyHmm(Model::gaussian_full(std::move(s), std::move(t), std::move(mu), std::move(cov)));
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

std::string type_name(const Model& m) { return hmm::emission_name(m.type); }

// ---- HMM.fit on the class: a new model from data
// ----------------------------------------------------

EmissionType parse_emission(const std::string& name) {
  if (name == "categorical") return EmissionType::categorical;
  if (name == "gaussian-diag" || name == "gaussian") return EmissionType::gaussian;
  if (name == "gaussian-full") return EmissionType::gaussian_full;
  throw InvalidArgument(
      "HMM.fit: emission must be 'categorical', 'gaussian-diag' or 'gaussian-full', got '" + name +
      "'");
}

// X [N, D] (or [N]) split into sequences by `lengths` (None: one sequence), or, with lengths None,
// a list of sequences. *D is the observations' dimension (Gaussian).
std::vector<Sequence> observations(EmissionType type, const py::object& X,
                                   const py::object& lengths, Index* D) {
  const char* fn = "HMM.fit";
  std::vector<py::object> parts;
  if (lengths.is_none() && (py::isinstance<py::list>(X) || py::isinstance<py::tuple>(X))) {
    for (const auto item : py::reinterpret_borrow<py::sequence>(X))
      parts.push_back(py::reinterpret_borrow<py::object>(item));
  } else {
    const auto a = DoubleArray::ensure(as_numeric(X, fn, "X"));
    KESSEL_CHECK_ARG(a.ndim() == 1 || a.ndim() == 2, fn, ": X must be [N] or [N, D], got ",
                     a.ndim(), "-D");
    std::vector<Index> lens;
    if (lengths.is_none()) {
      lens.push_back(a.shape(0));
    } else {
      for (const auto l : lengths) lens.push_back(l.cast<Index>());
    }
    Index total = 0;
    for (Index l : lens) {
      KESSEL_CHECK_ARG(l >= 1, fn, ": lengths has an entry ", l, " (must be >= 1)");
      total += l;
    }
    KESSEL_CHECK_ARG(total == a.shape(0), fn, ": lengths sum to ", total, " but X has ", a.shape(0),
                     " rows");
    Index start = 0;
    const py::object slicer = py::reinterpret_borrow<py::object>(a);
    for (Index l : lens) {
      parts.push_back(slicer[py::slice(start, start + l, 1)]);
      start += l;
    }
  }
  KESSEL_CHECK_ARG(!parts.empty(), fn, ": no sequences to fit");
  std::vector<Sequence> out;
  *D = 0;
  for (std::size_t n = 0; n < parts.size(); ++n) {
    const std::string where = std::string(fn) + " (sequence " + std::to_string(n) + ")";
    const auto d = DoubleArray::ensure(as_numeric(parts[n], where, "sequence"));
    Sequence s;
    s.length = d.ndim() >= 1 ? d.shape(0) : 0;
    if (type == EmissionType::categorical) {
      KESSEL_CHECK_ARG(d.ndim() == 1 || (d.ndim() == 2 && d.shape(1) == 1), where,
                       ": categorical observations must be [T] (or [T, 1]) integers");
      for (Index t = 0; t < s.length; ++t) {
        const double v = d.data()[t];
        KESSEL_CHECK_ARG(v == std::floor(v) && v >= 0 && v < 2147483648.0, where, ": step ", t,
                         " has symbol ", v, " (must be a non-negative integer)");
        s.symbols.push_back(static_cast<std::int32_t>(v));
      }
    } else {
      KESSEL_CHECK_ARG(d.ndim() == 1 || d.ndim() == 2, where,
                       ": Gaussian observations must be [T, D] or [T]");
      const Index dim = d.ndim() == 2 ? d.shape(1) : 1;
      KESSEL_CHECK_ARG(n == 0 || dim == *D, where, " has D=", dim, " but sequence 0 has D=", *D);
      *D = dim;
      s.values.assign(d.data(), d.data() + d.size());
    }
    out.push_back(std::move(s));
  }
  return out;
}

// A descriptor: on the class its first function, on an instance its second bound to the instance.
// HMM.fit(X, lengths, n_states=...) makes a new model; h.fit(seqs) re-estimates h in place.
struct ClassOrInstanceMethod {
  py::object on_class, on_instance;
};

}  // namespace

void bind_hmm(py::module_& m) {
  py::class_<PyHmm>(
      m, "HMM",
      R"doc(Hidden Markov model with categorical, diagonal-Gaussian or full-covariance Gaussian emissions.

Build with HMM.categorical(start, transitions, emissions),
HMM.gaussian(start, transitions, means, variances) or HMM.gaussian_full(start, transitions, means,
covariances), or fit one to data: HMM.fit(X, lengths, n_states=K, emission=...). Sequences: categorical [T] ints, Gaussian [T, D]
floats; a list of sequences is a batch. Bad input raises ValueError. See docs/hmm.md.)doc")
      .def_static("categorical", &PyHmm::categorical, py::arg("start"), py::arg("transitions"),
                  py::arg("emissions"))
      .def_static("gaussian", &PyHmm::gaussian, py::arg("start"), py::arg("transitions"),
                  py::arg("means"), py::arg("variances"))
      .def_static(
          "gaussian_full", &PyHmm::gaussian_full, py::arg("start"), py::arg("transitions"),
          py::arg("means"), py::arg("covariances"),
          "Full-covariance Gaussian emissions: covariances [S, D, D], symmetric positive definite.")
      .def_static(
          "load", [](const std::string& path) { return PyHmm(hmm::read_model(path)); },
          py::arg("path"), "Read a model JSON file (docs/hmm.md).")
      .def(
          "save",
          [](const PyHmm& h, const std::string& path) { hmm::write_model(path, h.model()); },
          py::arg("path"))
      .def("to_json", [](const PyHmm& h) { return hmm::model_to_json_text(h.model()); })
      .def_property_readonly("type", [](const PyHmm& h) { return type_name(h.model()); })
      .def_property_readonly("n_states", [](const PyHmm& h) { return h.model().n_states; })
      .def_property_readonly(
          "start",
          [](const PyHmm& h) { return to_numpy(h.model().start, h.model().n_states, 1, false); })
      .def_property_readonly("transitions",
                             [](const PyHmm& h) {
                               return to_numpy(h.model().transitions, h.model().n_states,
                                               h.model().n_states, true);
                             })
      .def_property_readonly(
          "emissions",
          [](const PyHmm& h) {
            KESSEL_CHECK_ARG(
                h.model().type == EmissionType::categorical,
                "HMM.emissions: a Gaussian model has means and variances, not emissions");
            return to_numpy(h.model().emissions, h.model().n_states, h.model().n_symbols, true);
          })
      .def_property_readonly(
          "means",
          [](const PyHmm& h) {
            KESSEL_CHECK_ARG(hmm::is_gaussian(h.model().type),
                             "HMM.means: a categorical model has emissions, not means");
            return to_numpy(h.model().means, h.model().n_states, h.model().dim, true);
          })
      .def_property_readonly(
          "variances",
          [](const PyHmm& h) {
            KESSEL_CHECK_ARG(
                h.model().type == EmissionType::gaussian,
                "HMM.variances: only a diagonal Gaussian model has variances (this one is ",
                type_name(h.model()), ")");
            return to_numpy(h.model().variances, h.model().n_states, h.model().dim, true);
          })
      .def_property_readonly(
          "covariances",
          [](const PyHmm& h) {
            const auto& m = h.model();
            KESSEL_CHECK_ARG(hmm::is_gaussian(m.type),
                             "HMM.covariances: a categorical model has emissions, not covariances");
            // [S, D, D]; a diagonal model's as diagonal matrices
            py::array_t<double> a({m.n_states, m.dim, m.dim});
            double* out = a.mutable_data();
            const Index D = m.dim;
            for (Index s = 0; s < m.n_states; ++s)
              for (Index i = 0; i < D; ++i)
                for (Index j = 0; j < D; ++j)
                  out[(s * D + i) * D + j] = m.type == EmissionType::gaussian_full
                                                 ? m.covariances[(s * D + i) * D + j]
                                             : i == j ? m.variances[s * D + i]
                                                      : 0.0;
            return a;
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
          "_fit_in_place",
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
"emissions" (Gaussian: means and variances/covariances), kept bit-identical. Stops when the gain < tol.
On the class, HMM.fit(X, lengths, n_states=...) builds a new model instead (see _fit_from_data).)doc")
      .def_static(
          "_fit_from_data",
          [](const py::object& X, const py::object& lengths, Index n_states,
             const std::string& emission, const std::optional<std::string>& init, int n_init,
             std::uint64_t seed, std::optional<Index> n_symbols, int max_iter, double tol,
             double variance_floor, int kmeans_iter, int threads, bool verbose,
             bool return_info) -> py::object {
            const EmissionType type = parse_emission(emission);
            hmm::InitOptions io;
            const std::string method =
                init.value_or(type == EmissionType::categorical ? "random" : "kmeans");
            KESSEL_CHECK_ARG(method == "kmeans" || method == "random",
                             "HMM.fit: init must be 'kmeans' or 'random', got '", method, "'");
            io.method = method == "kmeans" ? hmm::InitMethod::kmeans : hmm::InitMethod::random;
            io.n_init = n_init;
            io.seed = seed;
            io.kmeans_iter = kmeans_iter;
            io.n_symbols = n_symbols.value_or(0);
            hmm::FitOptions opt;
            opt.max_iter = max_iter;
            opt.tol = tol;
            opt.variance_floor = variance_floor;
            opt.threads = threads;
            if (verbose) {
              opt.on_iteration = [](int it, double ll, double delta) {
                std::fprintf(stderr, "iter %d | loglik %.6f | Δ %.6g\n", it, ll, delta);
              };
            }
            Index D = 0;
            const auto owned = observations(type, X, lengths, &D);
            const auto v = hmm::views(owned);
            hmm::FitFromDataResult r;
            {
              py::gil_scoped_release release;
              r = hmm::fit_from_data(type, n_states, v, D, io, opt);
            }
            py::object model = py::cast(PyHmm(std::move(r.model)));
            if (!return_info) return model;
            py::dict info(
                py::arg("history") =
                    to_numpy(r.fit.history, static_cast<Index>(r.fit.history.size()), 1, false),
                py::arg("iterations") = r.fit.iterations, py::arg("converged") = r.fit.converged,
                py::arg("best_restart") = r.best_restart,
                py::arg("restart_logliks") = r.restart_logliks);
            return py::make_tuple(model, info);
          },
          py::arg("X"), py::arg("lengths") = py::none(), py::kw_only(), py::arg("n_states"),
          py::arg("emission") = "gaussian-diag", py::arg("init") = py::none(),
          py::arg("n_init") = 1, py::arg("seed") = 0, py::arg("n_symbols") = py::none(),
          py::arg("max_iter") = 100, py::arg("tol") = 1e-6, py::arg("variance_floor") = 1e-6,
          py::arg("kmeans_iter") = 100, py::arg("threads") = 0, py::arg("verbose") = false,
          py::arg("return_info") = false,
          R"doc(HMM.fit(X, lengths=None, *, n_states, emission="gaussian-diag", init=None, n_init=1, seed=0, ...)
on the class: a new model fitted to data (hmmlearn's layout: X [N, D] (or [N] for D=1 / symbols) with
`lengths` the sequence lengths summing to N; None: one sequence; or X a list of sequences).
emission: "categorical" | "gaussian-diag" | "gaussian-full". init: "kmeans" (Gaussian default:
k-means++ and Lloyd; states from the clusters) or "random" (categorical default: Dirichlet(1) rows;
Gaussian: random observations as means). n_init restarts from seeds drawn from `seed`, each fitted by
Baum–Welch (max_iter, tol, variance_floor, threads as h.fit); the best final log-likelihood wins.
n_symbols: categorical K (default: largest symbol + 1). return_info=True returns (model, {"history",
"iterations", "converged", "best_restart", "restart_logliks"}). docs/hmm.md "Fitting from data".)doc")
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
  py::class_<ClassOrInstanceMethod>(m, "_ClassOrInstanceMethod")
      .def("__get__",
           [](const ClassOrInstanceMethod& d, const py::object& obj,
              const py::object&) -> py::object {
             if (obj.is_none()) return d.on_class;
             return py::module_::import("types").attr("MethodType")(d.on_instance, obj);
           });
  py::object cls = m.attr("HMM");
  cls.attr("fit") =
      py::cast(ClassOrInstanceMethod{cls.attr("_fit_from_data"), cls.attr("_fit_in_place")});
}

}  // namespace kessel::python
