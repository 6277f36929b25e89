// kessel.fcm / kessel.gk / predict / validity indices: numpy float64 in, dicts of numpy arrays out.
#include <string>
#include <vector>

#include "bindings.h"
#include "kessel/cluster.h"

namespace kessel::python {

namespace {

using cluster::MatrixView;

MatrixView matrix_view(const DoubleArray& a, const char* fn, const char* name) {
  KESSEL_CHECK_ARG(a.ndim() == 2, fn, ": ", name, " must be 2-D [rows, cols], got ", a.ndim(),
                   "-D");
  return {a.data(), static_cast<Index>(a.shape(0)), static_cast<Index>(a.shape(1))};
}

py::array_t<double> to_array(const std::vector<double>& v, std::vector<py::ssize_t> shape) {
  py::array_t<double> out(shape);
  std::copy(v.begin(), v.end(), out.mutable_data());
  return out;
}

// init: "random" | "kmeans++" | array of centres [c, D].
void set_init(cluster::FcmOptions& o, const py::object& init, const char* fn) {
  if (py::isinstance<py::str>(init)) {
    const auto name = init.cast<std::string>();
    if (name == "random") {
      o.init = cluster::Init::kRandomMemberships;
    } else if (name == "kmeans++") {
      o.init = cluster::Init::kKMeansPlusPlus;
    } else {
      throw InvalidArgument(std::string(fn) + ": init must be 'random', 'kmeans++' or an array of "
                            "centres, got '" + name + "'");
    }
    return;
  }
  const auto centres = init.cast<DoubleArray>();
  KESSEL_CHECK_ARG(centres.ndim() == 2, fn, ": init centres must be 2-D [c, D], got ", centres.ndim(),
                   "-D");
  o.init = cluster::Init::kGivenCentres;
  o.init_centres.assign(centres.data(), centres.data() + centres.size());
  KESSEL_CHECK_ARG(centres.shape(0) == o.clusters, fn, ": init centres have ", centres.shape(0),
                   " rows but c = ", o.clusters);
}

// Hands the vector's buffer to numpy without a copy (U [N, C] is the largest output).
py::array_t<double> take_array(std::vector<double>&& v, std::vector<py::ssize_t> shape) {
  auto* owned = new std::vector<double>(std::move(v));
  py::capsule release(owned, [](void* p) { delete static_cast<std::vector<double>*>(p); });
  return py::array_t<double>(shape, owned->data(), release);
}

// indices = false leaves out pc/pe/xb: Xie–Beni is one more pass over X and U. Takes r's memberships.
void add_common(py::dict& d, cluster::FcmResult& r, MatrixView x, double m, bool indices = true) {
  const auto n = static_cast<py::ssize_t>(r.points), c = static_cast<py::ssize_t>(r.clusters),
             dims = static_cast<py::ssize_t>(r.dims);
  d["centers"] = to_array(r.centres, {c, dims});
  d["objective"] = r.objective;
  d["objective_history"] = to_array(r.objective_history,
                                    {static_cast<py::ssize_t>(r.objective_history.size())});
  d["n_iter"] = r.iterations;
  d["converged"] = r.converged;
  d["best_restart"] = r.best_restart;
  if (indices) {
    const MatrixView u{r.memberships.data(), r.points, r.clusters};
    d["pc"] = cluster::partition_coefficient(u);
    d["pe"] = cluster::partition_entropy(u);
    if (r.clusters >= 2) {
      d["xb"] = cluster::xie_beni(x, u, {r.centres.data(), r.clusters, r.dims}, m);
    } else {
      d["xb"] = py::none();  // Xie–Beni needs two centres to measure separation
    }
  }
  d["memberships"] = take_array(std::move(r.memberships), {n, c});
}

cluster::FcmOptions common_options(Index c, double m, double tol, int max_iter, std::uint64_t seed,
                                   int n_init, int threads) {
  cluster::FcmOptions o;
  o.clusters = c;
  o.m = m;
  o.tol = tol;
  o.max_iter = max_iter;
  o.seed = seed;
  o.n_init = n_init;
  o.threads = threads;
  return o;
}

}  // namespace

void bind_cluster(py::module_& m) {
  m.def(
      "fcm",
      [](const DoubleArray& x, Index c, double fuzzifier, double tol, int max_iter,
         std::uint64_t seed, int n_init, const py::object& init, int threads,
         const std::string& precision, bool indices) {
        const MatrixView xv = matrix_view(x, "fcm", "X");
        cluster::FcmOptions o = common_options(c, fuzzifier, tol, max_iter, seed, n_init, threads);
        set_init(o, init, "fcm");
        if (precision == "float32") {
          o.precision = cluster::Precision::kFloat32;
        } else if (precision != "float64") {
          throw InvalidArgument("fcm: precision must be 'float64' or 'float32', got '" + precision +
                                "'");
        }
        cluster::FcmResult r;
        {
          py::gil_scoped_release release;
          r = cluster::fuzzy_c_means(xv, o);
        }
        py::dict d;
        add_common(d, r, xv, fuzzifier, indices);
        return d;
      },
      py::arg("X"), py::arg("c"), py::arg("m") = 2.0, py::arg("tol") = 1e-6,
      py::arg("max_iter") = 300, py::arg("seed") = 0, py::arg("n_init") = 1,
      py::arg("init") = "random", py::arg("threads") = 0, py::arg("precision") = "float64",
      py::arg("indices") = true,
      "Fuzzy c-means. X [N, D]; init 'random' (memberships), 'kmeans++' or centres [c, D]; precision "
      "'float64' or 'float32' (float distances and per-block sums, ~2x faster, ~1e-6 relative); "
      "indices=False skips pc/pe/xb. Returns a dict: centers, memberships [N, c], objective, "
      "objective_history, n_iter, converged, best_restart, and with indices pc, pe, xb (None when "
      "c = 1).");

  m.def(
      "gk",
      [](const DoubleArray& x, Index c, double fuzzifier, double tol, int max_iter,
         std::uint64_t seed, int n_init, const py::object& init, int threads, double gamma,
         double beta, const py::object& rho) {
        const MatrixView xv = matrix_view(x, "gk", "X");
        cluster::GkOptions o;
        static_cast<cluster::FcmOptions&>(o) =
            common_options(c, fuzzifier, tol, max_iter, seed, n_init, threads);
        set_init(o, init, "gk");
        o.gamma = gamma;
        o.beta = beta;
        if (!rho.is_none()) {
          const auto volumes = rho.cast<DoubleArray>();
          KESSEL_CHECK_ARG(volumes.ndim() == 1, "gk: rho must be 1-D [c], got ", volumes.ndim(), "-D");
          o.volumes.assign(volumes.data(), volumes.data() + volumes.size());
        }
        cluster::GkResult r;
        {
          py::gil_scoped_release release;
          r = cluster::gustafson_kessel(xv, o);
        }
        py::dict d;
        add_common(d, r, xv, fuzzifier);
        const auto cc = static_cast<py::ssize_t>(r.clusters), dd = static_cast<py::ssize_t>(r.dims);
        d["covariances"] = to_array(r.covariances, {cc, dd, dd});
        d["norm_matrices"] = to_array(r.norm_matrices, {cc, dd, dd});
        return d;
      },
      py::arg("X"), py::arg("c"), py::arg("m") = 2.0, py::arg("tol") = 1e-6,
      py::arg("max_iter") = 300, py::arg("seed") = 0, py::arg("n_init") = 1,
      py::arg("init") = "random", py::arg("threads") = 0, py::arg("gamma") = 0.01,
      py::arg("beta") = 1e15, py::arg("rho") = py::none(),
      "Gustafson–Kessel with Babuška et al. (2002) safeguards (gamma shrinkage towards the data "
      "covariance scale, condition cap beta) and cluster volumes rho (default 1). Returns fcm's dict "
      "plus covariances and norm_matrices [c, D, D].");

  m.def(
      "fcm_predict",
      [](const DoubleArray& x, const DoubleArray& centers, double fuzzifier, int threads) {
        const MatrixView xv = matrix_view(x, "fcm_predict", "X");
        const MatrixView cv = matrix_view(centers, "fcm_predict", "centers");
        std::vector<double> u;
        {
          py::gil_scoped_release release;
          u = cluster::fcm_predict(xv, cv, fuzzifier, threads);
        }
        return to_array(u, {static_cast<py::ssize_t>(xv.rows), static_cast<py::ssize_t>(cv.rows)});
      },
      py::arg("X"), py::arg("centers"), py::arg("m") = 2.0, py::arg("threads") = 0,
      "Memberships [N, c] of new points for fixed centres (Euclidean).");

  m.def(
      "gk_predict",
      [](const DoubleArray& x, const DoubleArray& centers, const DoubleArray& norm_matrices,
         double fuzzifier, int threads) {
        const MatrixView xv = matrix_view(x, "gk_predict", "X");
        const MatrixView cv = matrix_view(centers, "gk_predict", "centers");
        KESSEL_CHECK_ARG(norm_matrices.ndim() == 3, "gk_predict: norm_matrices must be [c, D, D], got ",
                         norm_matrices.ndim(), "-D");
        std::vector<double> u;
        {
          py::gil_scoped_release release;
          u = cluster::gk_predict(
              xv, cv, {norm_matrices.data(), static_cast<size_t>(norm_matrices.size())}, fuzzifier,
              threads);
        }
        return to_array(u, {static_cast<py::ssize_t>(xv.rows), static_cast<py::ssize_t>(cv.rows)});
      },
      py::arg("X"), py::arg("centers"), py::arg("norm_matrices"), py::arg("m") = 2.0,
      py::arg("threads") = 0, "Memberships [N, c] of new points under GK norms.");

  m.def(
      "partition_coefficient",
      [](const DoubleArray& u) {
        return cluster::partition_coefficient(matrix_view(u, "partition_coefficient", "U"));
      },
      py::arg("U"), "(1/N) Σ u²");
  m.def(
      "partition_entropy",
      [](const DoubleArray& u) {
        return cluster::partition_entropy(matrix_view(u, "partition_entropy", "U"));
      },
      py::arg("U"), "−(1/N) Σ u ln u");
  m.def(
      "xie_beni",
      [](const DoubleArray& x, const DoubleArray& u, const DoubleArray& centers, double fuzzifier) {
        return cluster::xie_beni(matrix_view(x, "xie_beni", "X"), matrix_view(u, "xie_beni", "U"),
                                 matrix_view(centers, "xie_beni", "centers"), fuzzifier);
      },
      py::arg("X"), py::arg("U"), py::arg("centers"), py::arg("m") = 2.0,
      "Σ u^m ‖x − v‖² / (N · min ‖v_j − v_l‖²)");
}

}  // namespace kessel::python
