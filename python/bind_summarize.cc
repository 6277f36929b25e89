// kessel.Summarizer and kessel.rouge: the EACA summarizer from Python. A dialogue is a dict (or a JSON
// string) in any of the three input formats (kessel, CSDS, TweetSumm); the result is the dict that
// `kessel summarize` writes as one JSON line (README: output schema).
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>

#include "bindings.h"
#include "kessel/error.h"
#include "kessel/summarize/eaca.h"
#include "kessel/summarize/summarizer.h"
#include "kessel/summarize/summary.h"
#include "kessel/summarize/summary_json.h"
#include "kessel/text/dialogue.h"
#include "kessel/text/lexicon.h"
#include "kessel/text/rouge.h"

namespace kessel::python {

text::Dialogue one_dialogue(const py::object& dialogue, const char* fn) {
  const py::object text = py::isinstance<py::str>(dialogue)
                              ? dialogue
                              : py::module_::import("json").attr("dumps")(dialogue, py::arg("ensure_ascii") = false);
  // A lone surrogate ("\ud800") has no UTF-8 form; encoded with surrogatepass it becomes bytes the
  // reader rejects as invalid UTF-8 naming the field, instead of a cast error naming nothing.
  const std::string line = text.attr("encode")("utf-8", "surrogatepass").cast<py::bytes>();
  text::ReadResult read = text::read_dialogues_from_string(line, "<dialogue>");
  KESSEL_CHECK_ARG(read.dialogues.size() == 1, fn, ": expected one dialogue, got ", read.dialogues.size());
  return std::move(read.dialogues.front());
}

namespace {

class PySummarizer {
 public:
  PySummarizer(const std::optional<std::string>& model, const std::optional<std::string>& lexicon_dir_arg,
               const std::string& ranker, const std::string& attention, std::optional<int> max_sentences,
               std::optional<int> max_chars, std::optional<float> redundancy, bool constraint,
               const std::optional<std::string>& voice, const std::optional<std::string>& emotion_span)
      : lexicon_(text::load_default_lexicon(default_lexicon_dir(lexicon_dir_arg, "lexicon_dir", "Summarizer: "))) {
    KESSEL_CHECK_ARG(!model || ranker == "centrality", "Summarizer: ranker='", ranker,
                     "' cannot be combined with a model (the model is the ranker)");
    summarize::SummarizerOptions o;
    o.model = model.value_or("");
    o.ranker = ranker;
    o.attention = parse_normalizer(attention);
    o.max_sentences = max_sentences;
    o.max_chars = max_chars;
    o.redundancy = redundancy;
    o.constraint = constraint;
    if (voice) o.reported_speech = summarize::parse_voice(*voice);
    if (emotion_span) o.emotion_clause = summarize::parse_emotion_span(*emotion_span);
    summarizer_ = summarize::make_summarizer(o, lexicon_);
  }

  // One dialogue (dict or JSON string, any input format) -> the output record; explain adds the
  // attention map as `kessel summarize --explain` does.
  py::object summarize(const py::object& dialogue, bool explain) const {
    const text::Dialogue d = one_dialogue(dialogue, "Summarizer.summarize");
    const summarize::Summarized r = summarizer_.run(d, lexicon_);
    // The record `kessel summarize` writes, through Python's json so that the two cannot drift apart.
    return py::module_::import("json").attr("loads")(
        summarize::summary_to_json(r.prepared, r.summary, explain ? &r.scores : nullptr).dump());
  }

  std::string scorer_name() const { return summarizer_.scorer->name(); }
  int max_sentences() const { return summarizer_.decode.max_sentences; }

 private:
  text::Lexicon lexicon_;
  summarize::Summarizer summarizer_;
};

py::dict rouge_dict(const text::MultiRougeScores& r) {
  auto one = [](const text::RougeScores& s) {
    py::dict d;
    const std::pair<const char*, const text::RougeScore*> parts[] = {
        {"rouge1", &s.rouge1}, {"rouge2", &s.rouge2}, {"rougeL", &s.rougeL}};
    for (const auto& [name, score] : parts)
      d[name] = py::dict(py::arg("f") = 100.0 * score->f1, py::arg("p") = 100.0 * score->precision,
                         py::arg("r") = 100.0 * score->recall);
    return d;
  };
  py::dict out;
  out["best"] = one(r.best);
  out["avg"] = one(r.avg);
  return out;
}

}  // namespace

void bind_summarize(py::module_& m) {
  py::class_<PySummarizer>(m, "Summarizer", R"doc(The EACA summarizer (the same decoder as `kessel summarize`).

Summarizer(model=None, lexicon_dir=None, ranker="centrality", attention="softmax",
           max_sentences=None, max_chars=None, redundancy=None, constraint=True, voice=None,
           emotion_span=None)

model: a safetensors file from `kessel train` (its stored budget and expected-F1 stop apply unless
max_sentences / max_chars / redundancy are given; either length turns the stop off); without one, the unsupervised ranker `ranker` (centrality with
`attention` softmax|fuzzy, or lead|longest|lexrank). The lexicon must be the one the model was
trained with (ValueError otherwise). voice: with a model, "reported" (English first and second person
rewritten into the third) or "verbatim" instead of the model's stored choice. emotion_span: what the
emotion constraint adds, "clause" (the clause holding the emotion words) or "sentence"; default the
model's, "sentence" without one.)doc")
      .def(py::init<const std::optional<std::string>&, const std::optional<std::string>&, const std::string&,
                    const std::string&, std::optional<int>, std::optional<int>, std::optional<float>, bool,
                    const std::optional<std::string>&, const std::optional<std::string>&>(),
           py::arg("model") = py::none(), py::arg("lexicon_dir") = py::none(), py::arg("ranker") = "centrality",
           py::arg("attention") = "softmax", py::arg("max_sentences") = py::none(),
           py::arg("max_chars") = py::none(), py::arg("redundancy") = py::none(), py::arg("constraint") = true,
           py::arg("voice") = py::none(), py::arg("emotion_span") = py::none())
      .def("summarize", &PySummarizer::summarize, py::arg("dialogue"), py::arg("explain") = false,
           R"doc(Summarize one dialogue: a dict (or JSON string) in the kessel, CSDS or TweetSumm format.
Returns {"id", "summary", "sentences": [{"text", "turn", "score"}], "emotions": [{"term", "turn",
"start", "end", "emotion", "in_summary"}], "constraint_satisfied"}. ValueError names the bad field.
explain=True adds what `kessel summarize --explain` adds: "attention" {"units": [{"turn", "text"}],
"queries": [unit indices], "weights": [[...] per query]} (the centrality ranker's sentence
attention, or a model's EACA attention), or "attention_omitted" saying why there is none.)doc")
      .def_property_readonly("scorer", &PySummarizer::scorer_name)
      .def_property_readonly("max_sentences", &PySummarizer::max_sentences);

  m.def(
      "rouge",
      [](const std::string& candidate, const py::object& refs, const std::string& lang, const std::string& zh_split) {
        // One reference as a string, or several as a list of strings.
        const std::vector<std::string> references = py::isinstance<py::str>(refs)
                                                        ? std::vector<std::string>{refs.cast<std::string>()}
                                                        : refs.cast<std::vector<std::string>>();
        KESSEL_CHECK_ARG(!references.empty(), "rouge: references must not be empty");
        return rouge_dict(text::rouge_multi(candidate, references, text::resolve_rouge_lang(lang, references),
                                            text::parse_zh_split(zh_split)));
      },
      py::arg("candidate"), py::arg("references"), py::arg("lang") = "auto", py::arg("zh_split") = "period",
      R"doc(ROUGE-1/2/L of one candidate against one reference (str) or several (list of str) (x100; `kessel rouge`'s protocol:
zh = CSDS characters with a break after each 。, en = lowercase words, whole-text LCS; "auto", the
default, is zh when CJK characters are at least 30% of the references' letters; zh_split as `kessel
rouge --zh-split`: "period", the published CSDS protocol; "none"; or "period-eos", which is not the
published protocol). Returns
{"best": {...}, "avg": {...}}, each {"rouge1"|"rouge2"|"rougeL": {"f", "p", "r"}}.)doc");
}

}  // namespace kessel::python
