// Python bindings of kessel nn (include/kessel/nn.h): normalization layers, positional encodings,
// position mixing, gated fusion. Forward functions return numpy arrays; backward functions return a
// dict of fresh gradient arrays (the C++ "adds into" buffers are zeroed here). docs/nn.md.
#include <string>
#include <utility>
#include <vector>

#include "bindings.h"
#include "kessel/error.h"
#include "kessel/nn.h"

namespace kessel::python {
namespace {

using Shape = std::vector<py::ssize_t>;

Shape shape_of(const FloatArray& a) { return Shape(a.shape(), a.shape() + a.ndim()); }

std::string shape_str(const FloatArray& a) {
  std::vector<Index> s(a.shape(), a.shape() + a.ndim());
  return shape_string(s);
}

FloatArray empty(const Shape& shape) { return FloatArray(shape); }

FloatArray zeros(const Shape& shape) {
  FloatArray a(shape);
  std::fill(a.mutable_data(), a.mutable_data() + a.size(), 0.0f);
  return a;
}

// x [..., C] -> (N = prod(...), C); the leading shape is returned for the statistics.
std::pair<Index, Index> rows_of(const FloatArray& x, const char* fn, const char* name) {
  KESSEL_CHECK_ARG(x.ndim() >= 1, fn, ": ", name, " must have at least 1 dimension, got shape ",
                   shape_str(x));
  const Index C = x.shape(x.ndim() - 1);
  return {C == 0 ? 0 : static_cast<Index>(x.size()) / C, C};
}

Shape lead_shape(const FloatArray& x) { return Shape(x.shape(), x.shape() + x.ndim() - 1); }

void expect_shape(const FloatArray& a, const Shape& want, const char* fn, const char* name) {
  Shape got = shape_of(a);
  if (got != want) {
    std::vector<Index> w(want.begin(), want.end());
    throw InvalidArgument(std::string(fn) + ": " + name + " has shape " + shape_str(a) +
                          ", expected " + shape_string(w));
  }
}

void expect_vector(const FloatArray& a, Index n, const char* fn, const char* name) {
  expect_shape(a, {static_cast<py::ssize_t>(n)}, fn, name);
}

// [T, D] or [B, T, D] -> (B, T, D)
std::tuple<Index, Index, Index> btd_of(const FloatArray& x, const char* fn) {
  KESSEL_CHECK_ARG(x.ndim() == 2 || x.ndim() == 3, fn, ": x must be [T, D] or [B, T, D], got shape ",
                   shape_str(x));
  if (x.ndim() == 2) return {1, x.shape(0), x.shape(1)};
  return {x.shape(0), x.shape(1), x.shape(2)};
}

std::vector<NormSegment> parse_segments(const py::sequence& segments) {
  std::vector<NormSegment> out;
  for (size_t s = 0; s < segments.size(); ++s) {
    py::handle item = segments[s];
    if (py::isinstance<py::int_>(item)) {
      out.push_back({"segment" + std::to_string(s), item.cast<Index>()});
    } else {
      auto pair = item.cast<std::pair<std::string, Index>>();
      out.push_back({pair.first, pair.second});
    }
  }
  return out;
}

// Concatenates per-segment parameter vectors into one [F] array.
std::vector<float> concat_params(const std::vector<FloatArray>& parts,
                                 const std::vector<NormSegment>& segs, const char* fn,
                                 const char* name) {
  KESSEL_CHECK_ARG(parts.size() == segs.size(), fn, ": got ", parts.size(), " ", name, " for ",
                   segs.size(), " segments");
  std::vector<float> flat;
  for (size_t s = 0; s < segs.size(); ++s) {
    expect_vector(parts[s], segs[s].size, fn, name);
    flat.insert(flat.end(), parts[s].data(), parts[s].data() + parts[s].size());
  }
  return flat;
}

void bind_norms(py::module_& m) {
  m.def(
      "layer_norm",
      [](const FloatArray& x, const FloatArray& weight, const FloatArray& bias, float eps,
         bool return_stats, int threads) -> py::object {
        const char* fn = "layer_norm";
        auto [N, C] = rows_of(x, fn, "x");
        expect_vector(weight, C, fn, "weight");
        expect_vector(bias, C, fn, "bias");
        FloatArray out = empty(shape_of(x)), mean = empty(lead_shape(x)), rstd = empty(lead_shape(x));
        {
          py::gil_scoped_release release;
          layernorm_forward(out.mutable_data(), mean.mutable_data(), rstd.mutable_data(), x.data(),
                            weight.data(), bias.data(), N, C, eps, threads);
        }
        if (!return_stats) return out;
        return py::make_tuple(out, mean, rstd);
      },
      py::arg("x"), py::arg("weight"), py::arg("bias"), py::arg("eps") = kLayerNormEps,
      py::arg("return_stats") = true, py::arg("threads") = 0,
      "LayerNorm over the last axis of x [..., C]. Returns (out, mean, rstd) or out.");
  m.def(
      "layer_norm_backward",
      [](const FloatArray& dout, const FloatArray& x, const FloatArray& weight,
         const FloatArray& mean, const FloatArray& rstd, int threads) {
        const char* fn = "layer_norm_backward";
        auto [N, C] = rows_of(x, fn, "x");
        expect_shape(dout, shape_of(x), fn, "dout");
        expect_vector(weight, C, fn, "weight");
        expect_shape(mean, lead_shape(x), fn, "mean");
        expect_shape(rstd, lead_shape(x), fn, "rstd");
        FloatArray dx = zeros(shape_of(x)), dw = zeros({C}), db = zeros({C});
        {
          py::gil_scoped_release release;
          layernorm_backward(dx.mutable_data(), dw.mutable_data(), db.mutable_data(), dout.data(),
                             x.data(), weight.data(), mean.data(), rstd.data(), N, C, threads);
        }
        py::dict d;
        d["dx"] = dx;
        d["dweight"] = dw;
        d["dbias"] = db;
        return d;
      },
      py::arg("dout"), py::arg("x"), py::arg("weight"), py::arg("mean"), py::arg("rstd"),
      py::arg("threads") = 0, "Gradients of layer_norm: dict(dx, dweight, dbias).");

  m.def(
      "rms_norm",
      [](const FloatArray& x, const FloatArray& weight, float eps, bool return_stats) -> py::object {
        const char* fn = "rms_norm";
        auto [N, C] = rows_of(x, fn, "x");
        expect_vector(weight, C, fn, "weight");
        FloatArray out = empty(shape_of(x)), rstd = empty(lead_shape(x));
        rmsnorm_forward(out.mutable_data(), rstd.mutable_data(), x.data(), weight.data(), N, C, eps);
        if (!return_stats) return out;
        return py::make_tuple(out, rstd);
      },
      py::arg("x"), py::arg("weight"), py::arg("eps") = kRmsNormEps, py::arg("return_stats") = true,
      "RMSNorm over the last axis of x [..., C]. Returns (out, rstd) or out.");
  m.def(
      "rms_norm_backward",
      [](const FloatArray& dout, const FloatArray& x, const FloatArray& weight,
         const FloatArray& rstd) {
        const char* fn = "rms_norm_backward";
        auto [N, C] = rows_of(x, fn, "x");
        expect_shape(dout, shape_of(x), fn, "dout");
        expect_vector(weight, C, fn, "weight");
        expect_shape(rstd, lead_shape(x), fn, "rstd");
        FloatArray dx = zeros(shape_of(x)), dw = zeros({C});
        rmsnorm_backward(dx.mutable_data(), dw.mutable_data(), dout.data(), x.data(), weight.data(),
                         rstd.data(), N, C);
        py::dict d;
        d["dx"] = dx;
        d["dweight"] = dw;
        return d;
      },
      py::arg("dout"), py::arg("x"), py::arg("weight"), py::arg("rstd"),
      "Gradients of rms_norm: dict(dx, dweight).");

  m.def(
      "hybrid_layer_norm",
      [](const FloatArray& x, const py::sequence& segments, const std::vector<FloatArray>& weights,
         const std::vector<FloatArray>& biases, float eps, bool return_stats) -> py::object {
        const char* fn = "hybrid_layer_norm";
        auto [N, F] = rows_of(x, fn, "x");
        const auto segs = parse_segments(segments);
        segment_offsets(segs, F);
        const auto w = concat_params(weights, segs, fn, "weights");
        const auto b = concat_params(biases, segs, fn, "biases");
        Shape stat_shape = lead_shape(x);
        stat_shape.push_back(static_cast<py::ssize_t>(segs.size()));
        FloatArray out = empty(shape_of(x)), mean = empty(stat_shape), rstd = empty(stat_shape);
        hybrid_layernorm_forward(out.mutable_data(), mean.mutable_data(), rstd.mutable_data(),
                                 x.data(), w.data(), b.data(), segs, N, F, eps);
        if (!return_stats) return out;
        return py::make_tuple(out, mean, rstd);
      },
      py::arg("x"), py::arg("segments"), py::arg("weights"), py::arg("biases"),
      py::arg("eps") = kLayerNormEps, py::arg("return_stats") = true,
      "Per-segment LayerNorm of x [..., F]; segments: sizes or (name, size) pairs summing to F; "
      "weights/biases: one array per segment. Returns (out, mean [..., S], rstd [..., S]) or out.");
  m.def(
      "hybrid_layer_norm_backward",
      [](const FloatArray& dout, const FloatArray& x, const py::sequence& segments,
         const std::vector<FloatArray>& weights, const FloatArray& mean, const FloatArray& rstd) {
        const char* fn = "hybrid_layer_norm_backward";
        auto [N, F] = rows_of(x, fn, "x");
        const auto segs = parse_segments(segments);
        const auto off = segment_offsets(segs, F);
        const auto w = concat_params(weights, segs, fn, "weights");
        expect_shape(dout, shape_of(x), fn, "dout");
        Shape stat_shape = lead_shape(x);
        stat_shape.push_back(static_cast<py::ssize_t>(segs.size()));
        expect_shape(mean, stat_shape, fn, "mean");
        expect_shape(rstd, stat_shape, fn, "rstd");
        FloatArray dx = zeros(shape_of(x));
        std::vector<float> dw(static_cast<size_t>(F), 0.0f), db(static_cast<size_t>(F), 0.0f);
        hybrid_layernorm_backward(dx.mutable_data(), dw.data(), db.data(), dout.data(), x.data(),
                                  w.data(), mean.data(), rstd.data(), segs, N, F);
        py::list dws, dbs;
        for (size_t s = 0; s < segs.size(); ++s) {
          FloatArray a = empty({segs[s].size}), c = empty({segs[s].size});
          std::copy(dw.begin() + off[s], dw.begin() + off[s + 1], a.mutable_data());
          std::copy(db.begin() + off[s], db.begin() + off[s + 1], c.mutable_data());
          dws.append(a);
          dbs.append(c);
        }
        py::dict d;
        d["dx"] = dx;
        d["dweights"] = dws;
        d["dbiases"] = dbs;
        return d;
      },
      py::arg("dout"), py::arg("x"), py::arg("segments"), py::arg("weights"), py::arg("mean"),
      py::arg("rstd"), "Gradients of hybrid_layer_norm: dict(dx, dweights [list], dbiases [list]).");
}

void bind_positional(py::module_& m) {
  m.def(
      "sinusoidal_encoding",
      [](Index L, Index D, double base) {
        KESSEL_CHECK_ARG(L >= 0, "sinusoidal_encoding: L must be >= 0, got L=", L);
        FloatArray pe = empty({L, std::max<Index>(D, 0)});
        sinusoidal_encoding(pe.mutable_data(), L, D, base);
        return pe;
      },
      py::arg("L"), py::arg("D"), py::arg("base") = 10000.0,
      "Sinusoidal encoding [L, D]: pe[p, 2i] = sin(p / base^(2i/D)), pe[p, 2i+1] = cos(same).");

  m.def(
      "learned_position",
      [](const FloatArray& x, const FloatArray& table, const std::vector<Index>& positions) {
        const char* fn = "learned_position";
        auto [N, D] = rows_of(x, fn, "x");
        KESSEL_CHECK_ARG(table.ndim() == 2 && table.shape(1) == D, fn, ": table must be [Lmax, ", D,
                         "], got shape ", shape_str(table));
        FloatArray out = empty(shape_of(x));
        learned_position_forward(out.mutable_data(), x.data(), table.data(), positions, N, D,
                                 table.shape(0));
        return out;
      },
      py::arg("x"), py::arg("table"), py::arg("positions"),
      "out[n] = x[n] + table[positions[n]] for x [..., D] flattened to rows.");
  m.def(
      "learned_position_backward",
      [](const FloatArray& dout, const std::vector<Index>& positions, Index Lmax) {
        const char* fn = "learned_position_backward";
        auto [N, D] = rows_of(dout, fn, "dout");
        FloatArray dx = zeros(shape_of(dout)), dtable = zeros({Lmax, D});
        learned_position_backward(dx.mutable_data(), dtable.mutable_data(), dout.data(), positions, N,
                                  D, Lmax);
        py::dict d;
        d["dx"] = dx;
        d["dtable"] = dtable;
        return d;
      },
      py::arg("dout"), py::arg("positions"), py::arg("Lmax"),
      "Gradients of learned_position: dict(dx, dtable [Lmax, D]) (scatter-add).");

  m.def(
      "t5_bias",
      [](const FloatArray& table, Index Lq, Index Lk, Index max_distance, bool bidirectional) {
        KESSEL_CHECK_ARG(table.ndim() == 2, "t5_bias: table must be [H, buckets], got shape ",
                         shape_str(table));
        const Index H = table.shape(0), buckets = table.shape(1);
        KESSEL_CHECK_ARG(Lq >= 1 && Lk >= 1, "t5_bias: need Lq, Lk >= 1, got Lq=", Lq, " Lk=", Lk);
        FloatArray bias = empty({H, Lq, Lk});
        t5_bias_forward(bias.mutable_data(), table.data(), H, Lq, Lk, buckets, max_distance,
                        bidirectional);
        return bias;
      },
      py::arg("table"), py::arg("Lq"), py::arg("Lk"), py::arg("max_distance") = 128,
      py::arg("bidirectional") = true,
      "T5 relative-position bias [H, Lq, Lk] from table [H, buckets], pos_q(i) = i + Lk - Lq.");
  m.def(
      "t5_bias_backward",
      [](const FloatArray& dbias, Index buckets, Index max_distance, bool bidirectional) {
        KESSEL_CHECK_ARG(dbias.ndim() == 3, "t5_bias_backward: dbias must be [H, Lq, Lk], got shape ",
                         shape_str(dbias));
        const Index H = dbias.shape(0), Lq = dbias.shape(1), Lk = dbias.shape(2);
        KESSEL_CHECK_ARG(buckets >= 1, "t5_bias_backward: buckets must be >= 1, got ", buckets);
        FloatArray dtable = zeros({H, buckets});
        t5_bias_backward(dtable.mutable_data(), dbias.data(), H, Lq, Lk, buckets, max_distance,
                         bidirectional);
        return dtable;
      },
      py::arg("dbias"), py::arg("buckets"), py::arg("max_distance") = 128,
      py::arg("bidirectional") = true, "Gradient of t5_bias w.r.t. its table: dtable [H, buckets].");
}

void bind_mixing(py::module_& m) {
  m.def(
      "position_mix",
      [](const FloatArray& x, const FloatArray& logits) {
        auto [B, T, D] = btd_of(x, "position_mix");
        expect_shape(logits, {T, T}, "position_mix", "logits");
        FloatArray y = empty(shape_of(x)), probs = empty({T, T});
        position_mix_forward(y.mutable_data(), probs.mutable_data(), x.data(), logits.data(), B, T, D);
        return py::make_tuple(y, probs);
      },
      py::arg("x"), py::arg("logits"),
      "y[..., i, :] = sum_j P[i, j] x[..., j, :], P = row-softmax(logits) [T, T]. Returns (y, P).");
  m.def(
      "position_mix_backward",
      [](const FloatArray& dy, const FloatArray& x, const FloatArray& probs) {
        auto [B, T, D] = btd_of(x, "position_mix_backward");
        expect_shape(dy, shape_of(x), "position_mix_backward", "dy");
        expect_shape(probs, {T, T}, "position_mix_backward", "probs");
        FloatArray dx = zeros(shape_of(x)), dlogits = zeros({T, T});
        position_mix_backward(dx.mutable_data(), dlogits.mutable_data(), dy.data(), x.data(),
                              probs.data(), B, T, D);
        py::dict d;
        d["dx"] = dx;
        d["dlogits"] = dlogits;
        return d;
      },
      py::arg("dy"), py::arg("x"), py::arg("probs"),
      "Gradients of position_mix: dict(dx, dlogits).");

  m.def(
      "gated_fusion",
      [](const FloatArray& x, const FloatArray& pe, const FloatArray& logits, const FloatArray& gate) {
        auto [B, T, D] = btd_of(x, "gated_fusion");
        expect_shape(pe, {T, D}, "gated_fusion", "pe");
        expect_shape(logits, {T, T}, "gated_fusion", "logits");
        expect_vector(gate, D, "gated_fusion", "gate");
        FloatArray y = empty(shape_of(x)), probs = empty({T, T});
        gated_fusion_forward(y.mutable_data(), probs.mutable_data(), x.data(), pe.data(),
                             logits.data(), gate.data(), B, T, D);
        return py::make_tuple(y, probs);
      },
      py::arg("x"), py::arg("pe"), py::arg("logits"), py::arg("gate"),
      "y = g*(x + pe) + (1 - g)*(P x), g = sigmoid(gate) [D], P = row-softmax(logits). "
      "Returns (y, P).");
  m.def(
      "gated_fusion_backward",
      [](const FloatArray& dy, const FloatArray& x, const FloatArray& pe, const FloatArray& probs,
         const FloatArray& gate) {
        auto [B, T, D] = btd_of(x, "gated_fusion_backward");
        expect_shape(dy, shape_of(x), "gated_fusion_backward", "dy");
        expect_shape(pe, {T, D}, "gated_fusion_backward", "pe");
        expect_shape(probs, {T, T}, "gated_fusion_backward", "probs");
        expect_vector(gate, D, "gated_fusion_backward", "gate");
        FloatArray dx = zeros(shape_of(x)), dpe = zeros({T, D}), dlogits = zeros({T, T}),
                   dgate = zeros({D});
        gated_fusion_backward(dx.mutable_data(), dpe.mutable_data(), dlogits.mutable_data(),
                              dgate.mutable_data(), dy.data(), x.data(), pe.data(), probs.data(),
                              gate.data(), B, T, D);
        py::dict d;
        d["dx"] = dx;
        d["dpe"] = dpe;
        d["dlogits"] = dlogits;
        d["dgate"] = dgate;
        return d;
      },
      py::arg("dy"), py::arg("x"), py::arg("pe"), py::arg("probs"), py::arg("gate"),
      "Gradients of gated_fusion: dict(dx, dpe, dlogits, dgate).");
}

}  // namespace

void bind_nn(py::module_& m) {
  bind_norms(m);
  bind_positional(m);
  bind_mixing(m);
}

}  // namespace kessel::python
