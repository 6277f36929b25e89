// EACA's per-modality normalization (EacaConfig::modality_norm; seed 000 §4.3, nn's HybridLayerNorm):
// the text, emoji-wheel and time columns of the fusion layer's input x, each group layer-normalized over
// its own columns with its own gain and bias, before h0 = tanh(x W_in^T + b_in). Internal to summarize.
//
//   xm[u]      = x[u, cols]  (cols: text 0..E-1, wheel E+kWheelX, E+kWheelY, time E+kTimeSin..E+kHasTime)
//   x[u, cols] = HybridLayerNorm(xm[u]; segments E | 2 | 3; mnorm_w, mnorm_b)          [U, M], M = E + 5
#pragma once

#include <vector>

#include "summarize/eaca_model.h"

namespace kessel::summarize {

// The columns of x the norm covers, in segment order (M = dims.M() of them).
std::vector<int> modality_columns(const EacaDims& d);

// Normalizes a.x's columns in place, keeping xm and the statistics in a (dims.modality_norm only).
void modality_norm_forward(EacaActivations& a, const EacaWeights& w, const EacaDims& d);

// dx [U, F]: on entry the gradient with respect to the normalized x; on return, in the covered
// columns, the gradient with respect to the columns before the norm. ADDS INTO gw.mnorm_w, gw.mnorm_b.
void modality_norm_backward(float* dx, const EacaWeights& gw, const EacaActivations& a, const EacaWeights& w,
                            const EacaDims& d);

// The seed's initialization (EacaConfig::zero_text_init): W_in's text columns [0, E) set to 0.
void zero_text_columns(float* params, const EacaDims& d);

}  // namespace kessel::summarize
