// Hidden Markov models with categorical, diagonal-Gaussian or full-covariance Gaussian emissions.
//
// Letters: S states, T time steps of one sequence, K symbols (categorical), D observation dims
// (Gaussian), N sequences. Matrices are row-major double; transitions[i * S + j] = P(j at t+1 | i
// at t). Every public function checks the model and the sequences and throws
// kessel::InvalidArgument naming the function, the argument and the values.
//
// Two evaluation spaces are provided and tested against each other:
//   - scaled: alphas normalized to sum 1 at every step with per-step log scale factors (fast, used
//   by
//     the batch functions, Baum–Welch and the CLI);
//   - log: log alphas / log betas via log-sum-exp (slower, never underflows; also what the Python
//     forward()/backward() return).
#pragma once

#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <vector>

#include "kessel/tensor.h"

namespace kessel::hmm {

// gaussian: diagonal covariance (means, variances); gaussian_full: full covariance (means,
// covariances), log-densities through each state's Cholesky factor.
enum class EmissionType { categorical, gaussian, gaussian_full };

// Full covariances must be symmetric within this relative tolerance (|c_ij - c_ji| <=
// tol * max(|c_ij|, |c_ji|, 1e-300)) and positive definite.
inline constexpr double kSymmetryTolerance = 1e-9;

// Probabilities (start, transition rows, emission rows) must sum to 1 within kProbabilityTolerance;
// they are used as given, not renormalized.
inline constexpr double kProbabilityTolerance = 1e-6;

struct Model {
  EmissionType type = EmissionType::categorical;
  Index n_states = 0;              // S
  Index n_symbols = 0;             // K (categorical only)
  Index dim = 0;                   // D (Gaussian only)
  std::vector<double> start;       // [S]
  std::vector<double> transitions; // [S, S]
  std::vector<double> emissions;   // [S, K] (categorical)
  std::vector<double> means;       // [S, D] (Gaussian)
  std::vector<double> variances;   // [S, D] (Gaussian), all > 0
  std::vector<double> covariances;  // [S, D, D] (gaussian_full), symmetric positive definite

  // Build and validate; the sizes are taken from the vectors (transitions must be S*S, etc.).
  static Model categorical(std::vector<double> start, std::vector<double> transitions,
                           std::vector<double> emissions);
  static Model gaussian(std::vector<double> start, std::vector<double> transitions,
                        std::vector<double> means, std::vector<double> variances);
  static Model gaussian_full(std::vector<double> start, std::vector<double> transitions,
                             std::vector<double> means, std::vector<double> covariances);

  // Throws InvalidArgument("<where>: ...") on wrong sizes, negative/NaN entries, rows not summing
  // to 1, non-positive/non-finite variances, or a covariance that is not symmetric or not positive
  // definite (singular: "covariances[s] is not positive definite (Cholesky pivot d is x)").
  void validate(const std::string& where = "hmm") const;
};

// "categorical" | "gaussian" (diagonal) | "gaussian-full": the names of files and of Python.
const char* emission_name(EmissionType type);
inline bool is_gaussian(EmissionType type) { return type != EmissionType::categorical; }

// A non-owning view of one observation sequence: `symbols` [T] for categorical models, `values`
// [T, D] for Gaussian ones (the other pointer stays null).
struct SequenceView {
  const std::int32_t* symbols = nullptr;
  const double* values = nullptr;
  Index length = 0;  // T
};

// An owning sequence (file input, sampling).
struct Sequence {
  std::vector<std::int32_t> symbols;  // [T] (categorical)
  std::vector<double> values;         // [T, D] (Gaussian)
  Index length = 0;
  SequenceView view() const {
    return {symbols.empty() ? nullptr : symbols.data(), values.empty() ? nullptr : values.data(),
            length};
  }
};
std::vector<SequenceView> views(const std::vector<Sequence>& sequences);

// ---- single sequence -------------------------------------------------------------------------------
// log p(x_t | state s) -> log_b [T, S].
void emission_log_prob(std::span<double> log_b, const Model& model, SequenceView seq);

// Scaled forward: alpha [T, S] with each row summing to 1, log_scale [T]; returns log p(x) =
// sum_t log_scale[t].
double forward_scaled(std::span<double> alpha, std::span<double> log_scale, const Model& model,
                      SequenceView seq);
// Scaled backward matching forward_scaled's alpha: row t is scaled so that sum_s alpha[t,s] *
// beta[t,s] = 1, hence alpha[t] * beta[t] is the posterior of step t. The recursion itself carries a
// max-normalized vector, so it neither overflows nor underflows where transitions are zero.
void backward_scaled(std::span<double> beta, const Model& model, SequenceView seq,
                     std::span<const double> alpha);

// Log-space forward/backward: log_alpha [T, S], log_beta [T, S]; both return log p(x).
double forward_log(std::span<double> log_alpha, const Model& model, SequenceView seq);
double backward_log(std::span<double> log_beta, const Model& model, SequenceView seq);

double log_likelihood(const Model& model, SequenceView seq);
// Posterior state marginals gamma [T, S] (rows sum to 1); returns log p(x).
double posterior(std::span<double> gamma, const Model& model, SequenceView seq);
// Most probable path [T] and its log joint probability log p(x, path).
double viterbi(std::span<std::int32_t> path, const Model& model, SequenceView seq);

// ---- many sequences, OpenMP over sequences (threads <= 0: OpenMP's default) -------------------------
// Results do not depend on the thread count (each sequence is computed by the same serial code).
std::vector<double> log_likelihood(const Model& model, std::span<const SequenceView> seqs,
                                   int threads = 0);
// gammas[n] is [T_n, S].
std::vector<std::vector<double>> posterior(const Model& model, std::span<const SequenceView> seqs,
                                           int threads = 0, std::vector<double>* logliks = nullptr);
struct ViterbiResult {
  std::vector<std::int32_t> path;  // [T]
  double log_score = 0.0;          // log p(x, path)
};
std::vector<ViterbiResult> viterbi(const Model& model, std::span<const SequenceView> seqs,
                                   int threads = 0);

// ---- Viterbi over prebuilt logs -----------------------------------------------------------------
// A model's start and transition logs, made and checked once, for decoding many sequences whose
// emission logs the caller makes itself: a model whose emission table changes with each sequence
// (the segmenter's runs of unknown characters) is then not built, validated and logged again for
// each.
struct TransitionLogs {
  Index n_states = 0;               // S
  std::vector<double> log_start;    // [S]
  std::vector<double> log_trans;    // [S, S]  log A[i, j]
  std::vector<double> log_trans_t;  // [S, S]  log A[j, i]
};
// start [S], transitions [S, S], checked as Model::validate checks them (InvalidArgument).
TransitionLogs transition_logs(std::span<const double> start, std::span<const double> transitions);
// viterbi(path, model, seq) from log_b [T, S], log b_s(x_t), with T = path.size(): the same path
// and score when log_b holds the logs of the model's emissions along seq (test
// Viterbi.OverPrebuiltLogsMatchesTheModelsViterbi). delta: [T, S] scratch. InvalidArgument on
// sizes that disagree, a NaN in log_b, or when every path has probability 0.
double viterbi(std::span<std::int32_t> path, std::span<double> delta, const TransitionLogs& logs,
               std::span<const double> log_b);

// ---- Baum–Welch ------------------------------------------------------------------------------------
struct FitOptions {
  int max_iter = 100;          // M-steps at most
  double tol = 1e-6;           // stop when the total log-likelihood improves by less than this
  bool fix_start = false;      // keep start bit-identical
  bool fix_transitions = false;
  bool fix_emissions = false;  // emissions, or means and variances
  // Gaussian: re-estimated variances are clamped to >= this; full covariances have their
  // eigenvalues clamped to >= this (the constrained maximum of the M-step, so EM stays monotone).
  double variance_floor = 1e-6;
  int threads = 0;
  // Called after every E-step: iteration (0 = the initial model), total log-likelihood, change.
  std::function<void(int iter, double loglik, double delta)> on_iteration;
};

struct FitResult {
  std::vector<double> history;  // total log-likelihood of the initial model, then after each M-step
  int iterations = 0;           // M-steps done
  bool converged = false;       // stopped because the improvement fell below tol
};

// Re-estimates `model` in place from all sequences (variable lengths).
FitResult baum_welch(Model& model, std::span<const SequenceView> seqs, const FitOptions& options);

// ---- fitting from data: initialisation and restarts (init.cc)
// -------------------------------------
enum class InitMethod {
  kmeans,  // Gaussian: k-means++ then Lloyd on all observations; states from the clusters
  random,  // random parameters (categorical: Dirichlet(1) rows; Gaussian: random observations as
           // means)
};

struct InitOptions {
  InitMethod method = InitMethod::kmeans;
  int n_init = 1;  // restarts (each from its own seed); the best final log-likelihood wins
  std::uint64_t seed = 0;
  int kmeans_iter = 100;  // Lloyd iterations at most
  Index n_symbols = 0;    // categorical K; 0: the largest symbol + 1
};

// One initial model of S states for `type` from the sequences (docs/hmm.md: "Fitting from data").
// InvalidArgument for k-means on a categorical model, S < 1, fewer observations than states, or bad
// sequences.
// D: the observations' dimension (Gaussian; ignored for categorical).
Model initial_model(EmissionType type, Index n_states, std::span<const SequenceView> seqs,
                    const InitOptions& init, std::uint64_t seed, double variance_floor, Index dim);

struct FitFromDataResult {
  Model model;    // the best restart's fitted model
  FitResult fit;  // its Baum–Welch history
  int best_restart = 0;
  std::vector<double> restart_logliks;  // final total log-likelihood of every restart
};
// n_init times: initial_model(seed of restart r = the r-th splitmix64 draw from init.seed), then
// baum_welch; the restart with the highest final log-likelihood is kept (ties: the lowest r).
FitFromDataResult fit_from_data(EmissionType type, Index n_states,
                                std::span<const SequenceView> seqs, Index dim,
                                const InitOptions& init, const FitOptions& options);

// ---- sampling --------------------------------------------------------------------------------------
// n_seqs sequences of `length` steps from a std::mt19937_64 seeded with `seed`; uniforms are
// (rng() >> 11) * 2^-53 and normals come from Box–Muller on those, so the output is the same on every
// platform. states (optional) receives the hidden paths.
std::vector<Sequence> sample(const Model& model, Index n_seqs, Index length, std::uint64_t seed,
                             std::vector<std::vector<std::int32_t>>* states = nullptr);

// ---- files (formats in docs/hmm.md) ----------------------------------------------------------------
// Errors: IoError when a file cannot be opened, ParseError "<file>:<line>: ..." when it is malformed.
Model read_model(const std::string& path);
Model model_from_json_text(const std::string& text, const std::string& name = "<model>");
std::string model_to_json_text(const Model& model);
void write_model(const std::string& path, const Model& model);
// One sequence per line, checked against the model (symbol range, dimension).
std::vector<Sequence> read_sequences(const std::string& path, const Model& model);
std::vector<Sequence> sequences_from_text(const std::string& text, const Model& model,
                                          const std::string& name = "<sequences>");

}  // namespace kessel::hmm
