// `kessel hmm loglik|viterbi|posterior|fit|sample --model model.json [--data seqs.txt] [--json] ...`
// File formats and output layouts: docs/hmm.md.
#include <cstdio>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "commands.h"
#include "exit_codes.h"
#include "kessel/error.h"
#include "kessel/hmm.h"
#include "quiet.h"
#include "util/atomic_file.h"

namespace kessel::cli {
namespace {

using Json = nlohmann::ordered_json;

struct HmmOptions {
  std::string model_path;
  std::string data_path;
  bool json = false;
  int threads = 0;
  // fit
  std::string out_path;
  int max_iter = 100;
  double tol = 1e-6;
  std::vector<std::string> fix;
  double variance_floor = 1e-6;
  // sample
  Index n_seqs = 1;
  Index length = 100;
  std::uint64_t seed = 0;
};

void print_json(const Json& j) { std::printf("%s\n", j.dump(2).c_str()); }

Json model_json(const hmm::Model& m) { return Json::parse(hmm::model_to_json_text(m)); }

struct Loaded {
  hmm::Model model;
  std::vector<hmm::Sequence> seqs;
  std::vector<hmm::SequenceView> views;
};

Loaded load(const HmmOptions& o) {
  Loaded l;
  l.model = hmm::read_model(o.model_path);
  l.seqs = hmm::read_sequences(o.data_path, l.model);
  l.views = hmm::views(l.seqs);
  return l;
}

void run_loglik(const HmmOptions& o) {
  const Loaded l = load(o);
  const auto ll = hmm::log_likelihood(l.model, l.views, o.threads);
  double total = 0.0;
  for (double x : ll) total += x;
  if (o.json) {
    print_json(Json{{"log_likelihood", ll}, {"total", total}});
    return;
  }
  for (double x : ll) std::printf("%.12g\n", x);
  std::printf("total\t%.12g\n", total);
}

void run_viterbi(const HmmOptions& o) {
  const Loaded l = load(o);
  const auto res = hmm::viterbi(l.model, l.views, o.threads);
  if (o.json) {
    Json arr = Json::array();
    for (const auto& r : res) arr.push_back(Json{{"log_score", r.log_score}, {"path", r.path}});
    print_json(Json{{"viterbi", arr}});
    return;
  }
  for (const auto& r : res) {
    std::printf("%.12g\t", r.log_score);
    for (std::size_t t = 0; t < r.path.size(); ++t) std::printf(t ? " %d" : "%d", r.path[t]);
    std::printf("\n");
  }
}

void run_posterior(const HmmOptions& o) {
  const Loaded l = load(o);
  std::vector<double> ll;
  const auto gammas = hmm::posterior(l.model, l.views, o.threads, &ll);
  const Index S = l.model.n_states;
  if (o.json) {
    Json arr = Json::array();
    for (const auto& g : gammas) {
      Json rows = Json::array();
      for (std::size_t t = 0; t * S < g.size(); ++t) {
        rows.push_back(std::vector<double>(g.begin() + t * S, g.begin() + (t + 1) * S));
      }
      arr.push_back(rows);
    }
    print_json(Json{{"posterior", arr}, {"log_likelihood", ll}});
    return;
  }
  for (std::size_t n = 0; n < gammas.size(); ++n) {
    if (n) std::printf("\n");
    const auto& g = gammas[n];
    for (std::size_t t = 0; t * S < g.size(); ++t) {
      for (Index s = 0; s < S; ++s) std::printf(s ? " %.8f" : "%.8f", g[t * S + s]);
      std::printf("\n");
    }
  }
}

void run_fit(const HmmOptions& o) {
  hmm::FitOptions f;
  f.max_iter = o.max_iter;
  f.tol = o.tol;
  f.variance_floor = o.variance_floor;
  f.threads = o.threads;
  for (const auto& p : o.fix) {
    if (p == "start") {
      f.fix_start = true;
    } else if (p == "transitions") {
      f.fix_transitions = true;
    } else if (p == "emissions") {
      f.fix_emissions = true;
    } else {
      throw UsageError("--fix got '" + p + "' (expected start, transitions or emissions)");
    }
  }
  Loaded l = load(o);  // after the flags are checked: a usage error reads no file
  // Checked before fitting: a typo in --out should not cost the fit.
  if (!o.out_path.empty()) util::check_writable(o.out_path, "hmm fit: --out '" + o.out_path + "'");
  f.on_iteration = [](int it, double ll, double delta) {
    if (it == 0) {
      note("iter %d | loglik %.6f\n", it, ll);
    } else {
      note("iter %d | loglik %.6f | Δ %.6g\n", it, ll, delta);
    }
  };
  const auto r = hmm::baum_welch(l.model, l.views, f);
  note("%s after %d iterations | loglik %.6f\n", r.converged ? "converged" : "stopped (max-iter)",
       r.iterations, r.history.back());
  if (!o.out_path.empty()) hmm::write_model(o.out_path, l.model);
  if (o.json) {
    print_json(Json{{"history", r.history},
                    {"iterations", r.iterations},
                    {"converged", r.converged},
                    {"model", model_json(l.model)}});
  } else if (o.out_path.empty()) {
    std::printf("%s", hmm::model_to_json_text(l.model).c_str());
  } else {
    std::printf("wrote %s\n", o.out_path.c_str());
  }
}

void run_sample(const HmmOptions& o) {
  const hmm::Model m = hmm::read_model(o.model_path);
  const auto seqs = hmm::sample(m, o.n_seqs, o.length, o.seed);
  for (const auto& s : seqs) {
    std::string line;
    char buf[40];
    for (Index t = 0; t < s.length; ++t) {
      if (m.type == hmm::EmissionType::categorical) {
        line += (t ? " " : "") + std::to_string(s.symbols[t]);
        continue;
      }
      if (t) line += "; ";
      for (Index d = 0; d < m.dim; ++d) {
        std::snprintf(buf, sizeof buf, d ? " %.17g" : "%.17g", s.values[t * m.dim + d]);
        line += buf;
      }
    }
    std::printf("%s\n", line.c_str());
  }
}

}  // namespace

void add_hmm_commands(CLI::App& app) {
  auto* hmm = app.add_subcommand("hmm", "Hidden Markov models: likelihood, decoding, Baum-Welch");
  hmm->require_subcommand(1);
  auto opts = std::make_shared<HmmOptions>();

  auto common = [&](CLI::App* sub, bool needs_data) {
    sub->add_option("--model", opts->model_path, "model JSON (docs/hmm.md)")->required();
    if (needs_data) {
      sub->add_option("--data", opts->data_path, "sequences, one per line (docs/hmm.md)")
          ->required();
      sub->add_flag("--json", opts->json, "print JSON instead of text");
      sub->add_option("--threads", opts->threads, "OpenMP threads over sequences (0: default)")->check(CLI::NonNegativeNumber);
    }
  };

  auto* loglik = hmm->add_subcommand("loglik", "log-likelihood of each sequence and the total");
  common(loglik, true);
  loglik->callback([opts] { run_loglik(*opts); });

  auto* vit = hmm->add_subcommand("viterbi", "most probable state path and its log score");
  common(vit, true);
  vit->callback([opts] { run_viterbi(*opts); });

  auto* post = hmm->add_subcommand("posterior", "posterior state marginals [T, S] per sequence");
  common(post, true);
  post->callback([opts] { run_posterior(*opts); });

  auto* fit = hmm->add_subcommand("fit", "Baum-Welch; progress on stderr, one line per iteration");
  common(fit, true);
  fit->add_option("--out", opts->out_path, "write the fitted model here");
  fit->add_option("--max-iter", opts->max_iter, "maximum EM iterations")->capture_default_str();
  fit->add_option("--tol", opts->tol, "stop when the total log-likelihood gains less")
      ->capture_default_str();
  fit->add_option("--fix", opts->fix, "keep fixed: start, transitions, emissions")->delimiter(',');
  fit->add_option("--var-floor", opts->variance_floor, "Gaussian variance floor")
      ->capture_default_str();
  fit->callback([opts] { run_fit(*opts); });

  auto* smp = hmm->add_subcommand("sample", "sample sequences in the --data format");
  common(smp, false);
  smp->add_option("--n", opts->n_seqs, "number of sequences")->capture_default_str();
  smp->add_option("--length", opts->length, "steps per sequence")->capture_default_str();
  smp->add_option("--seed", opts->seed, "std::mt19937_64 seed")->capture_default_str();
  smp->callback([opts] { run_sample(*opts); });
}

}  // namespace kessel::cli
