// `kessel origins [--json]`: formats kessel::origins::run_origins() (src/nn/origins.cc).
#include <cstdio>
#include <memory>
#include <string>

#include <nlohmann/json.hpp>

#include "commands.h"
#include "nn/origins.h"

namespace kessel::cli {
namespace {

using origins::Matrix;
using Json = nlohmann::ordered_json;

std::string row_string(const std::vector<double>& row, const char* fmt) {
  std::string s = "[";
  char buf[64];
  for (size_t j = 0; j < row.size(); ++j) {
    std::snprintf(buf, sizeof buf, fmt, row[j]);
    s += (j ? ", " : "") + std::string(buf);
  }
  return s + "]";
}

Json fcm_json(const origins::FcmExperiment& e) {
  Json j;
  j["points"] = e.points;
  j["centres"] = e.centres;
  j["d2"] = e.d2;
  Json by_m = Json::array();
  for (const auto& r : e.by_m)
    by_m.push_back({{"m", r.m},
                    {"tau", r.tau},
                    {"fcm", r.fcm},
                    {"softmax_neg_log_d2_over_tau", r.softmax},
                    {"max_abs_diff", r.max_abs_diff},
                    {"mistaken", r.mistaken},
                    {"effective_m", r.effective_m},
                    {"fcm_at_effective_m", r.fcm_at_effective_m},
                    {"mistaken_vs_effective_max_abs_diff", r.mistaken_vs_effective_max_abs_diff}});
  j["by_m"] = by_m;
  j["seed_m2_column0"] = {
      {"seed_printed", e.seed_printed_u0}, {"seed_code", e.seed_code_u0}, {"correct", e.correct_u0}};
  return j;
}

Json hmm_json(const origins::HmmExperiment& e) {
  return {{"transition", e.transition},
          {"initial", e.initial},
          {"steps", e.steps},
          {"alpha_hmm", e.alpha_hmm},
          {"alpha_mixing_P_eq_A_transpose", e.alpha_mixing},
          {"max_abs_diff_P_eq_A_transpose", e.max_abs_diff_transposed},
          {"softmax_of_log_A", e.softmax_of_log_a},
          {"softmax_of_log_A_max_abs_diff", e.softmax_of_log_a_max_abs_diff},
          {"alpha_mixing_P_eq_A", e.alpha_mixing_untransposed},
          {"max_abs_diff_P_eq_A", e.max_abs_diff_untransposed}};
}

Json segments_json(const std::vector<origins::SegmentStats>& segs) {
  Json a = Json::array();
  for (const auto& s : segs)
    a.push_back({{"name", s.name},
                 {"size", s.size},
                 {"input_std", s.input_std},
                 {"output_mean", s.output_mean},
                 {"output_std", s.output_std},
                 {"within_row_std", s.within_row_std},
                 {"in_out_corr", s.in_out_corr},
                 {"grad_var", s.grad_var}});
  return a;
}

void print_text(const origins::Report& r) {
  const auto& f = r.fcm;
  std::printf("(1) Fuzzy c-means membership is a softmax over -ln d^2 with temperature m - 1\n");
  std::printf("    points X = %s %s %s, centres C = %s %s (the seed's data)\n",
              row_string(f.points[0], "%g").c_str(), row_string(f.points[1], "%g").c_str(),
              row_string(f.points[2], "%g").c_str(), row_string(f.centres[0], "%g").c_str(),
              row_string(f.centres[1], "%g").c_str());
  for (size_t i = 0; i < f.d2.size(); ++i)
    std::printf("    d^2(x%zu, C) = %s\n", i, row_string(f.d2[i], "%.4f").c_str());
  std::printf("    u_ij = 1 / sum_k (d_ij/d_ik)^(2/(m-1)) = softmax_j(-ln d2_ij / tau), tau = m - 1\n");
  std::printf("    %-5s %-4s %-34s %-9s %-34s %s\n", "m", "tau", "u(x0), u(x1), u(x2) [to C0]",
              "|FCM-sm|", "seed's formula [to C0]", "= FCM at m'");
  for (const auto& m : f.by_m) {
    std::vector<double> u0, w0;
    for (size_t i = 0; i < m.fcm.size(); ++i) {
      u0.push_back(m.fcm[i][0]);
      w0.push_back(m.mistaken[i][0]);
    }
    std::printf("    %-5g %-4g %-34s %-9.1e %-34s %g (diff %.1e)\n", m.m, m.tau,
                row_string(u0, "%.6g").c_str(), m.max_abs_diff, row_string(w0, "%.6g").c_str(),
                m.effective_m, m.mistaken_vs_effective_max_abs_diff);
  }
  std::printf("    The seed raises squared distances to 2/(m-1), i.e. distances to 4/(m-1): that is FCM\n"
              "    with m' = (m+1)/2 (its m = 2 is really m' = 1.5, a sharper membership).\n");
  std::printf("    Seed at m = 2, u(x_i, C0): printed %s, its code gives %s, correct %s\n",
              row_string(f.seed_printed_u0, "%.3f").c_str(),
              row_string(f.seed_code_u0, "%.6f").c_str(), row_string(f.correct_u0, "%.6f").c_str());

  const auto& h = r.hmm;
  std::printf("\n(2) HMM forward recursion (all emissions 1) vs position mixing on the state axis\n");
  for (size_t i = 0; i < h.transition.size(); ++i)
    std::printf("    A[%zu,:] = %s\n", i, row_string(h.transition[i], "%.2f").c_str());
  std::printf("    alpha_t(i) = sum_j alpha_{t-1}(j) A[j,i]  ==  y = P x with P = A^T, x = alpha_{t-1}\n");
  std::printf("    after %lld steps (columns: 3 initial distributions):\n",
              static_cast<long long>(h.steps));
  for (size_t i = 0; i < h.alpha_hmm.size(); ++i)
    std::printf("    state %zu  HMM %s  mix(P=A^T) %s  mix(P=A) %s\n", i,
                row_string(h.alpha_hmm[i], "%.6f").c_str(),
                row_string(h.alpha_mixing[i], "%.6f").c_str(),
                row_string(h.alpha_mixing_untransposed[i], "%.6f").c_str());
  std::printf("    max |HMM - mix(P=A^T)| over all steps = %.2e (float32 mixing)\n",
              h.max_abs_diff_transposed);
  std::printf("    max |HMM - mix(P=A)|   over all steps = %.2e (wrong orientation)\n",
              h.max_abs_diff_untransposed);
  std::printf("    position_mix with logits ln A has P = row-softmax(ln A) = A (max diff %.1e): the\n"
              "    layer's y = P x with P = A runs the chain backwards; the seed's einsum\n"
              "    'bld,ls->bsd' computes P^T x, which is the forward step.\n",
              h.softmax_of_log_a_max_abs_diff);

  const auto& n = r.norm;
  std::printf("\n(3) One LayerNorm vs HybridLayerNorm on text (64 dims, N(0,1)) | image (32 dims,"
              " N(0,100^2))\n");
  std::printf("    %lld rows, seed %llu, gamma = 1, beta = 0, upstream gradient N(0,1)\n",
              static_cast<long long>(n.rows), static_cast<unsigned long long>(n.seed));
  std::printf("    %-7s %-6s %8s %9s %8s %10s %8s %10s\n", "norm", "seg", "in std", "out mean",
              "out std", "row std", "corr", "var(dx)");
  for (const auto* segs : {&n.single, &n.hybrid})
    for (const auto& s : *segs)
      std::printf("    %-7s %-6s %8.3f %9.4f %8.4f %10.4f %8.4f %10.3e\n",
                  segs == &n.single ? "single" : "hybrid", s.name.c_str(), s.input_std,
                  s.output_mean, s.output_std, s.within_row_std, s.in_out_corr, s.grad_var);
  std::printf("    (row std: spread of the segment inside one row, averaged; corr: correlation of\n"
              "    input and output entries.) One LayerNorm divides the whole row by the std the\n"
              "    image part sets: the text keeps a within-row spread of %.4f (hybrid: %.4f), its\n"
              "    output is dominated by the image-driven row mean (corr %.3f vs %.3f), and the\n"
              "    variance of its input gradient is %.0fx smaller than under HybridLayerNorm.\n",
              n.single[0].within_row_std, n.hybrid[0].within_row_std, n.single[0].in_out_corr,
              n.hybrid[0].in_out_corr, n.hybrid[0].grad_var / n.single[0].grad_var);
}

}  // namespace

void add_origins_command(CLI::App& app) {
  auto* cmd = app.add_subcommand(
      "origins", "Reproduce the seed's three 'origins of attention' experiments, corrected");
  auto json = std::make_shared<bool>(false);
  cmd->add_flag("--json", *json, "Machine-readable output");
  cmd->callback([json]() {
    const origins::Report r = origins::run_origins();
    if (*json) {
      Json j = {{"fcm_vs_softmax", fcm_json(r.fcm)},
                {"hmm_vs_position_mixing", hmm_json(r.hmm)},
                {"hybrid_vs_single_layernorm",
                 {{"rows", r.norm.rows},
                  {"seed", r.norm.seed},
                  {"single", segments_json(r.norm.single)},
                  {"hybrid", segments_json(r.norm.hybrid)}}}};
      std::printf("%s\n", j.dump(2).c_str());
    } else {
      print_text(r);
    }
  });
}

}  // namespace kessel::cli
