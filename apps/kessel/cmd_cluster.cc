// `kessel cluster --method fcm|gk -k K -m M [--seed S] [--n-init N] [--max-iter I] [--tol T]
//                 [--init random|kmeans++] [--columns a,b,...] [--gamma G] [--beta B] data.csv [--json]`
// Text output: centres, objective, iterations, PC/PE/XB (and GK covariances); --json adds memberships.
// See docs/clustering.md.
#include <cstdio>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "commands.h"
#include "exit_codes.h"
#include "kessel/cluster.h"
#include "kessel/error.h"
#include "quiet.h"
#include "util/progress.h"
#include "util/timer.h"

namespace kessel::cli {
namespace {

using Json = nlohmann::ordered_json;

struct ClusterCommand {
  std::string method = "fcm";
  std::string data_path;
  std::string init = "random";
  std::string columns_text;  // --columns as given: comma-separated names or indices
  Index k = 2;
  double m = 2.0;
  std::uint64_t seed = 0;
  int n_init = 1;
  int max_iter = 300;
  double tol = 1e-6;
  double gamma = 0.01;
  double beta = 1e15;
  int threads = 0;
  bool json = false;
};

Json rows_json(const std::vector<double>& v, Index rows, Index cols) {
  Json out = Json::array();
  for (Index i = 0; i < rows; ++i) {
    out.push_back(std::vector<double>(v.begin() + i * cols, v.begin() + (i + 1) * cols));
  }
  return out;
}

void print_rows(const char* title, const std::vector<double>& v, Index rows, Index cols,
                const char* indent) {
  std::printf("%s\n", title);
  for (Index i = 0; i < rows; ++i) {
    std::printf("%s%lld:", indent, static_cast<long long>(i));
    for (Index k = 0; k < cols; ++k) std::printf(" %.6g", v[i * cols + k]);
    std::printf("\n");
  }
}

// "a,b,,c" -> {"a", "b", "c"}: empty names (a trailing comma) are dropped.
std::vector<std::string> split_columns(const std::string& text) {
  std::vector<std::string> out;
  std::size_t start = 0;
  while (start <= text.size()) {
    const std::size_t end = std::min(text.find(',', start), text.size());
    if (end > start) out.push_back(text.substr(start, end - start));
    start = end + 1;
  }
  return out;
}

void run(const ClusterCommand& o) {
  check_usage(o.k >= 1, "-k must be >= 1, got " + std::to_string(o.k));
  check_usage(o.m > 1, detail::concat("-m must be > 1, got ", o.m));
  const cluster::CsvMatrix data =
      cluster::read_csv_matrix(o.data_path, split_columns(o.columns_text));
  KESSEL_CHECK_ARG(o.k <= data.rows, "cluster: -k ", o.k, " exceeds the ", data.rows,
                   " data rows of ", o.data_path);

  cluster::GkOptions opts;
  opts.clusters = o.k;
  opts.m = o.m;
  opts.seed = o.seed;
  opts.n_init = o.n_init;
  opts.max_iter = o.max_iter;
  opts.tol = o.tol;
  opts.threads = o.threads;
  opts.init = o.init == "kmeans++" ? cluster::Init::kKMeansPlusPlus : cluster::Init::kRandomMemberships;
  opts.gamma = o.gamma;
  opts.beta = o.beta;

  // Progress on stderr: nothing for quick runs (Progress draws only after its interval), a final line
  // for runs that took more than a couple of seconds.
  Progress progress("cluster " + o.method, static_cast<std::int64_t>(o.max_iter) * o.n_init,
                    progress_stream(), 2.0);
  opts.on_iteration = [&](int restart, int iteration, double objective) {
    char extra[96];
    std::snprintf(extra, sizeof extra, "restart %d | J %.6g", restart, objective);
    progress.update(static_cast<std::int64_t>(restart) * o.max_iter + iteration, extra);
  };
  const Timer timer;
  cluster::GkResult r;
  if (o.method == "gk") {
    r = cluster::gustafson_kessel(data.view(), opts);
  } else {
    static_cast<cluster::FcmResult&>(r) = cluster::fuzzy_c_means(data.view(), opts);
  }
  if (timer.seconds() > 2.0) progress.finish();

  const cluster::MatrixView u{r.memberships.data(), r.points, r.clusters};
  const double pc = cluster::partition_coefficient(u);
  const double pe = cluster::partition_entropy(u);
  const bool has_xb = r.clusters >= 2;
  const double xb =
      has_xb ? cluster::xie_beni(data.view(), u, {r.centres.data(), r.clusters, r.dims}, o.m) : 0.0;

  if (o.json) {
    Json j;
    j["method"] = o.method;
    j["file"] = o.data_path;
    j["columns"] = data.columns;
    j["k"] = o.k;
    j["m"] = o.m;
    j["seed"] = o.seed;
    j["n_init"] = o.n_init;
    j["best_restart"] = r.best_restart;
    j["iterations"] = r.iterations;
    j["converged"] = r.converged;
    j["objective"] = r.objective;
    j["objective_history"] = r.objective_history;
    j["pc"] = pc;
    j["pe"] = pe;
    j["xb"] = has_xb ? Json(xb) : Json(nullptr);
    j["centers"] = rows_json(r.centres, r.clusters, r.dims);
    if (o.method == "gk") {
      Json covs = Json::array();
      for (Index c = 0; c < r.clusters; ++c) {
        std::vector<double> one(r.covariances.begin() + c * r.dims * r.dims,
                                r.covariances.begin() + (c + 1) * r.dims * r.dims);
        covs.push_back(rows_json(one, r.dims, r.dims));
      }
      j["covariances"] = covs;
    }
    j["memberships"] = rows_json(r.memberships, r.points, r.clusters);
    std::printf("%s\n", j.dump(2).c_str());
    return;
  }
  std::printf("method %s | k %lld | m %.10g | %lld rows x %lld columns from %s\n", o.method.c_str(),
              static_cast<long long>(o.k), o.m, static_cast<long long>(r.points),
              static_cast<long long>(r.dims), o.data_path.c_str());
  std::printf("iterations %d (%s) | best restart %d of %d\n", r.iterations,
              r.converged ? "converged" : "max_iter reached", r.best_restart, o.n_init);
  std::printf("objective %.10g\n", r.objective);
  print_rows("centers:", r.centres, r.clusters, r.dims, "  ");
  if (o.method == "gk") {
    for (Index c = 0; c < r.clusters; ++c) {
      std::vector<double> one(r.covariances.begin() + c * r.dims * r.dims,
                              r.covariances.begin() + (c + 1) * r.dims * r.dims);
      const std::string title = "covariance " + std::to_string(c) + ":";
      print_rows(title.c_str(), one, r.dims, r.dims, "    ");
    }
  }
  if (has_xb) {
    std::printf("PC %.6f | PE %.6f | XB %.6g\n", pc, pe, xb);
  } else {
    std::printf("PC %.6f | PE %.6f | XB n/a (k = 1)\n", pc, pe);
  }
}

}  // namespace

void add_cluster_commands(CLI::App& app) {
  auto opts = std::make_shared<ClusterCommand>();
  auto* cmd = app.add_subcommand("cluster", "fuzzy c-means / Gustafson–Kessel clustering of a CSV");
  cmd->add_option("data", opts->data_path, "CSV of numbers, with or without a header row")
      ->required();
  cmd->add_option("--method", opts->method, "fcm or gk")
      ->check(CLI::IsMember({"fcm", "gk"}))
      ->capture_default_str();
  cmd->add_option("-k,--clusters", opts->k, "number of clusters")->capture_default_str();
  cmd->add_option("-m,--fuzzifier", opts->m, "fuzzifier m > 1")->capture_default_str();
  cmd->add_option("--seed", opts->seed, "random seed (restart r uses seed + r)")
      ->capture_default_str();
  cmd->add_option("--n-init", opts->n_init, "restarts; the lowest objective wins")
      ->capture_default_str();
  cmd->add_option("--max-iter", opts->max_iter, "maximum iterations")->capture_default_str();
  cmd->add_option("--tol", opts->tol,
                  "stop when no centre coordinate moves by tol·σ (σ: RMS feature std)")
      ->capture_default_str();
  cmd->add_option("--init", opts->init, "random (memberships) or kmeans++ (centres)")
      ->check(CLI::IsMember({"random", "kmeans++"}))
      ->capture_default_str();
  // One argument, split at commas here: a vector option would swallow the CSV path after it
  // ("--columns 0,1,2,3 data.csv --json" read data.csv as a column name).
  cmd->add_option("--columns", opts->columns_text, "columns to use, comma-separated: header names or 0-based indices");
  cmd->add_option("--gamma", opts->gamma, "GK: shrinkage towards the data covariance scale")
      ->capture_default_str();
  cmd->add_option("--beta", opts->beta, "GK: condition-number cap")->capture_default_str();
  cmd->add_option("--threads", opts->threads, "OpenMP threads (0: default)")->capture_default_str()->check(CLI::NonNegativeNumber);
  cmd->add_flag("--json", opts->json, "JSON output, memberships included");
  cmd->callback([opts] { run(*opts); });
}

}  // namespace kessel::cli
