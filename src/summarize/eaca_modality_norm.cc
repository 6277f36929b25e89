// EACA's per-modality normalization (eaca_modality_norm.h).
#include "summarize/eaca_modality_norm.h"

#include <array>
#include <cstddef>

#include "kessel/nn.h"

namespace kessel::summarize {

namespace {

std::array<NormSegment, 3> segments(const EacaDims& d) {
  return {NormSegment{"text", d.E}, NormSegment{"wheel", 2}, NormSegment{"time", 3}};
}

std::size_t sz(int n) { return static_cast<std::size_t>(n); }

}  // namespace

std::vector<int> modality_columns(const EacaDims& d) {
  std::vector<int> cols;
  for (int c = 0; c < d.E; ++c) cols.push_back(c);
  for (int c : {kWheelX, kWheelY, kTimeSin, kTimeCos, kHasTime}) cols.push_back(d.E + c);
  return cols;
}

void modality_norm_forward(EacaActivations& a, const EacaWeights& w, const EacaDims& d) {
  const int U = a.U, F = d.F(), M = d.M();
  const std::vector<int> cols = modality_columns(d);
  a.xm.resize(sz(U) * M);
  for (int u = 0; u < U; ++u)
    for (int c = 0; c < M; ++c) a.xm[sz(u) * M + c] = a.x[sz(u) * F + cols[sz(c)]];
  a.mnorm_mean.resize(sz(U) * 3);
  a.mnorm_rstd.resize(sz(U) * 3);
  std::vector<float> out(sz(U) * M);
  const auto seg = segments(d);
  hybrid_layernorm_forward(out.data(), a.mnorm_mean.data(), a.mnorm_rstd.data(), a.xm.data(), w.mnorm_w, w.mnorm_b,
                           seg, U, M, kLayerNormEps, 1);
  for (int u = 0; u < U; ++u)
    for (int c = 0; c < M; ++c) a.x[sz(u) * F + cols[sz(c)]] = out[sz(u) * M + c];
}

void modality_norm_backward(float* dx, const EacaWeights& gw, const EacaActivations& a, const EacaWeights& w,
                            const EacaDims& d) {
  const int U = a.U, F = d.F(), M = d.M();
  const std::vector<int> cols = modality_columns(d);
  std::vector<float> dout(sz(U) * M), dxm(sz(U) * M, 0.0f);
  for (int u = 0; u < U; ++u)
    for (int c = 0; c < M; ++c) dout[sz(u) * M + c] = dx[sz(u) * F + cols[sz(c)]];
  const auto seg = segments(d);
  hybrid_layernorm_backward(dxm.data(), gw.mnorm_w, gw.mnorm_b, dout.data(), a.xm.data(), w.mnorm_w,
                            a.mnorm_mean.data(), a.mnorm_rstd.data(), seg, U, M, 1);
  for (int u = 0; u < U; ++u)
    for (int c = 0; c < M; ++c) dx[sz(u) * F + cols[sz(c)]] = dxm[sz(u) * M + c];
}

void zero_text_columns(float* params, const EacaDims& d) {
  const EacaWeights w = carve_weights(params, d);
  for (int r = 0; r < d.D; ++r)
    for (int c = 0; c < d.E; ++c) w.w_in[sz(r) * d.F() + c] = 0.0f;
}

}  // namespace kessel::summarize
