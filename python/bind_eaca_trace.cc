// kessel._eaca_trace: one dialogue through one EACA network (src/summarize/eaca_trace.h), as numpy
// arrays, so that tests/python/test_eaca_torch.py can rebuild the network in PyTorch and compare its
// outputs and autograd gradients with the hand-written backward. Internal (leading underscore): the
// layout follows the C++ structs and may change with them.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "bindings.h"
#include "kessel/error.h"
#include "kessel/text/dialogue.h"
#include "kessel/text/lexicon.h"
#include "summarize/eaca_trace.h"

namespace kessel::python {

namespace {

template <typename T>
py::array_t<T> array_of(const std::vector<T>& v, std::vector<py::ssize_t> shape) {
  py::array_t<T> a(shape);
  std::copy(v.begin(), v.end(), a.mutable_data());
  return a;
}
template <typename T>
py::array_t<T> array_of(const std::vector<T>& v) {
  return array_of(v, {static_cast<py::ssize_t>(v.size())});
}

// name -> array of its shape, for a flat buffer laid out by specs.
py::dict tensors(const std::vector<summarize::ParamSpec>& specs, const std::vector<float>& flat) {
  py::dict out;
  for (const auto& s : specs) {
    std::vector<py::ssize_t> shape(s.shape.begin(), s.shape.end());
    std::vector<float> part(flat.begin() + s.offset, flat.begin() + s.offset + s.size());
    out[py::str(s.name)] = array_of(part, shape);
  }
  return out;
}

py::dict eaca_trace_py(const py::object& dialogue, const std::string& attention, int hash_buckets, int embed_dim,
                       int hidden, int attn_dim, bool context_encoder, const std::string& context,
                       bool emotion_attention, std::uint64_t seed,
                       const std::optional<py::dict>& params, const std::optional<std::string>& lexicon_dir,
                       float coverage_weight, float source_weight, bool modality_norm, bool zero_text_init,
                       bool boost_gate) {
  const char* fn = "_eaca_trace";
  summarize::EacaConfig config;
  summarize::set_attention_variant(config, attention);
  config.hash_buckets = hash_buckets;
  config.embed_dim = embed_dim;
  config.hidden = hidden;
  config.attn_dim = attn_dim;
  config.context_encoder = context_encoder;
  summarize::set_context_encoder(config, context);
  config.emotion_attention = emotion_attention;
  config.members = 1;
  config.modality_norm = modality_norm;
  config.zero_text_init = zero_text_init;
  config.boost_gate = boost_gate;
  const summarize::EacaDims dims = summarize::dims_of(config);

  const text::Dialogue d = one_dialogue(dialogue, fn);
  const text::Lexicon lexicon = text::load_default_lexicon(default_lexicon_dir(lexicon_dir, "lexicon_dir", "_eaca_trace: "));

  std::vector<float> flat;
  if (params) {
    const auto specs = summarize::eaca_param_specs(dims);
    flat.assign(static_cast<std::size_t>(summarize::eaca_param_count(dims)), 0.0f);
    KESSEL_CHECK_ARG(params->size() == specs.size(), fn, ": params must name all ", specs.size(),
                     " tensors, got ", params->size());
    for (const auto& s : specs) {
      KESSEL_CHECK_ARG(params->contains(s.name), fn, ": params has no tensor '", s.name, "'");
      const FloatArray a = FloatArray::ensure((*params)[py::str(s.name)]);
      KESSEL_CHECK_ARG(a && a.size() == s.size(), fn, ": params['", s.name, "'] must have ", s.size(),
                       " elements, got ", a ? a.size() : 0);
      std::copy_n(a.data(), s.size(), flat.begin() + s.offset);
    }
  }
  const summarize::EacaTrace t = summarize::eaca_trace(d, lexicon, config, seed, flat,
                                                       summarize::LossWeights{coverage_weight, source_weight});
  const auto& f = t.features;
  const auto U = static_cast<py::ssize_t>(f.units);
  const auto D = static_cast<py::ssize_t>(dims.D);

  py::dict features;
  features["units"] = f.units;
  features["token_ids"] = array_of(f.token_ids);
  features["token_offsets"] = array_of(f.token_offsets);
  features["dense"] = array_of(f.dense, {U, static_cast<py::ssize_t>(summarize::kNumDenseFeatures)});
  features["wheel"] = array_of(f.wheel, {U, 2});
  features["emotion"] = array_of(f.emotion);
  features["times"] = array_of(f.times);
  features["customer_units"] = array_of(f.customer_units);
  features["mention_unit"] = array_of(t.mention_unit);
  features["mention_intensity"] = array_of(f.mention_intensity);
  features["any_expressed"] = f.any_expressed;
  features["max_intensity"] = f.max_intensity;

  py::dict targets;
  targets["salience"] = array_of(t.targets.salience);
  targets["has_emotion"] = t.targets.has_emotion;
  targets["mention"] = array_of(t.targets.mention);

  py::dict switches;
  switches["context_encoder"] = t.switches.context_encoder;
  switches["context"] = dims.bilstm ? "bilstm" : "attention";
  switches["emotion_attention"] = t.switches.emotion_attention;
  switches["emotion_terms"] = t.switches.emotion_terms;
  switches["time_decay"] = t.switches.time_decay;
  switches["modality_norm"] = dims.modality_norm;
  switches["boost_gate"] = dims.boost_gate;
  switches["normalizer"] = t.switches.normalizer == Normalizer::kFuzzy ? "fuzzy" : "softmax";

  const auto& a = t.activations;
  py::dict outputs;
  outputs["h0"] = array_of(a.h0, {U, D});
  outputs["h1"] = array_of(a.h1, {U, D});
  outputs["g"] = array_of(a.g);
  outputs["salience"] = array_of(a.salience);
  outputs["has_logit"] = a.has_logit;
  outputs["mention_logit"] = array_of(a.mention_logit);

  py::dict out;
  out["features"] = features;
  out["targets"] = targets;
  out["switches"] = switches;
  out["loss_weights"] = py::make_tuple(t.loss_weights.coverage, t.loss_weights.source);
  out["params"] = tensors(t.specs, t.params);
  out["outputs"] = outputs;
  out["loss"] = t.loss;
  out["grads"] = tensors(t.specs, t.grads);
  return out;
}

}  // namespace

void bind_eaca_trace(py::module_& m) {
  m.def("_eaca_trace", &eaca_trace_py, py::arg("dialogue"), py::kw_only(), py::arg("attention") = "eaca",
        py::arg("hash_buckets") = 512, py::arg("embed_dim") = 6, py::arg("hidden") = 8, py::arg("attn_dim") = 4,
        py::arg("context_encoder") = true, py::arg("context") = "attention", py::arg("emotion_attention") = true,
        py::arg("seed") = 1,
        py::arg("params") = py::none(), py::arg("lexicon_dir") = py::none(), py::arg("coverage_weight") = 0.3f,
        py::arg("source_weight") = 0.3f, py::arg("modality_norm") = false, py::arg("zero_text_init") = false,
        py::arg("boost_gate") = false,
        R"doc(One dialogue through one EACA network (internal; for parity tests).

Returns a dict: features (what the network sees), targets (the training labels), switches, params and
grads (name -> array), outputs (h0, h1, g, salience, has_logit, mention_logit) and loss. attention is
eaca | plain | fuzzy as in `kessel train --attention`, context attention | bilstm as in `--context`; params (name -> array) replaces the seeded
initialization; modality_norm, zero_text_init and boost_gate as `kessel train --modality-norm /
--zero-text-init / --boost-gate`.)doc");
}

}  // namespace kessel::python
