// kessel.Summarizer and kessel.rouge: the EACA summarizer from Python. A dialogue is a dict (or a JSON
// string) in any of the three input formats (kessel, CSDS, TweetSumm); the result is the dict that
// `kessel summarize` writes as one JSON line (README: output schema).
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "bindings.h"
#include "kessel/error.h"
#include "kessel/summarize/eaca.h"
#include "kessel/summarize/summarizer.h"
#include "kessel/summarize/summary.h"
#include "kessel/summarize/summary_json.h"
#include "kessel/summarize/train_split.h"
#include "kessel/text/dialogue.h"
#include "kessel/text/lexicon.h"
#include "kessel/text/rouge.h"
#include "kessel/text/utf8.h"
#include "util/parallel.h"

namespace kessel::python {

std::string dialogue_utf8(const py::handle& dialogue) {
  const py::object text =
      py::isinstance<py::str>(dialogue)
          ? py::reinterpret_borrow<py::object>(dialogue)
          : py::module_::import("json").attr("dumps")(dialogue, py::arg("ensure_ascii") = false);
  // A lone surrogate ("\ud800") has no UTF-8 form; encoded with surrogatepass it becomes bytes the
  // reader rejects as invalid UTF-8 naming the field, instead of a cast error naming nothing.
  return text.attr("encode")("utf-8", "surrogatepass").cast<py::bytes>();
}

text::Dialogue parse_one_dialogue(const std::string& utf8, const std::string& name,
                                  const char* fn) {
  text::ReadResult read = text::read_dialogues_from_string(utf8, name);
  KESSEL_CHECK_ARG(read.dialogues.size() == 1, fn, ": expected one dialogue, got ", read.dialogues.size());
  return std::move(read.dialogues.front());
}

text::Dialogue one_dialogue(const py::object& dialogue, const char* fn) {
  return parse_one_dialogue(dialogue_utf8(dialogue), "<dialogue>", fn);
}

namespace {

class PySummarizer {
 public:
  PySummarizer(const std::optional<std::string>& model, const std::optional<std::string>& lexicon_dir_arg,
               const std::string& ranker, const std::string& attention, std::optional<int> max_sentences,
               std::optional<int> max_chars, std::optional<float> redundancy, bool constraint,
               const std::optional<std::string>& voice, const std::optional<std::string>& emotion_span,
               const std::string& kv, const std::string& attention_kernel)
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
    o.kv = parse_kv_dtype(kv);
    KESSEL_CHECK_ARG(o.kv == KvDtype::kFloat32 || model, "Summarizer: kv='", kv,
                     "' needs a model (the unsupervised rankers keep no K/V to store as int8)");
    o.attention_kernel = parse_attention_kernel(attention_kernel);
    KESSEL_CHECK_ARG(o.attention_kernel == AttentionKernel::kAuto || model, "Summarizer: attention_kernel='",
                     attention_kernel, "' needs a model (only EACA's attention has a kernel to choose)");
    summarizer_ = summarize::make_summarizer(o, lexicon_);
  }

  // One dialogue (dict or JSON string, any input format) -> the output record; explain adds the
  // attention map as `kessel summarize --explain` does. The parse, the summary and the record's
  // JSON text run without the GIL.
  py::object summarize(const py::object& dialogue, bool explain) const {
    const std::string utf8 = dialogue_utf8(dialogue);
    std::string record;
    {
      py::gil_scoped_release release;
      record =
          summary_record(parse_one_dialogue(utf8, "<dialogue>", "Summarizer.summarize"), explain);
    }
    return json_loads(record);
  }

  // Many dialogues on `threads` threads (parallel_items: each dialogue is summarized by the same
  // serial code as summarize(), so the records do not depend on the thread count). Every dialogue
  // is converted and parsed before any is summarized; with on_error="raise" the bad dialogue of the
  // lowest index raises (its type: ParseError/InvalidArgument, both ValueError) naming
  // "dialogues[i]" and the field, before any summarizing; with "skip" its slot is None.
  py::list summarize_many(const py::iterable& dialogues, int threads, bool explain,
                          const std::string& on_error) const {
    const char* fn = "Summarizer.summarize_many";
    KESSEL_CHECK_ARG(on_error == "raise" || on_error == "skip", fn,
                     ": on_error must be 'raise' or 'skip', got '", on_error, "'");
    KESSEL_CHECK_ARG(threads >= 0, fn, ": threads must be >= 0 (0: all cores), got ", threads);
    std::vector<std::string> inputs;
    std::vector<std::exception_ptr> errors;
    for (const py::handle item : dialogues) {
      const std::string where =
          std::string(fn) + ": dialogues[" + std::to_string(inputs.size()) + "]";
      errors.emplace_back();
      try {
        inputs.push_back(dialogue_utf8(item));
      } catch (py::error_already_set& e) {
        // json.dumps refused the object; anything else (KeyboardInterrupt, MemoryError) propagates.
        if (!e.matches(PyExc_TypeError) && !e.matches(PyExc_ValueError) &&
            !e.matches(PyExc_OverflowError) && !e.matches(PyExc_RecursionError))
          throw;
        inputs.emplace_back();
        errors.back() = std::make_exception_ptr(InvalidArgument(
            where + " is neither a JSON string nor JSON-serializable: " + e.what()));
      }
    }
    const std::size_t n = inputs.size();
    std::vector<text::Dialogue> parsed(n);
    std::vector<std::string> records(n);
    {
      py::gil_scoped_release release;
      parallel_items(n, threads, [&](std::size_t i) {
        if (errors[i]) return;
        const std::string where = std::string(fn) + ": dialogues[" + std::to_string(i) + "]";
        try {
          parsed[i] = parse_one_dialogue(inputs[i], where, where.c_str());
        } catch (const Error&) {
          errors[i] = std::current_exception();
        }
      });
      if (on_error == "raise") rethrow_first(errors);
      parallel_items(n, threads, [&](std::size_t i) {
        if (errors[i]) return;
        try {
          records[i] = summary_record(parsed[i], explain);
        } catch (const InvalidArgument& e) {
          errors[i] = std::make_exception_ptr(InvalidArgument(
              std::string(fn) + ": dialogues[" + std::to_string(i) + "]: " + e.what()));
        }
      });
      if (on_error == "raise") rethrow_first(errors);
    }
    py::list out;
    for (std::size_t i = 0; i < n; ++i) out.append(errors[i] ? py::none() : json_loads(records[i]));
    return out;
  }

  // A JSONL shard -> the bytes `kessel summarize` writes for it, and what was read, skipped and
  // refused (kessel.dask's task). first_line numbers the shard's lines as the whole file's, so
  // records, errors and skips name true lines; the records are summary_record's, so the bytes are
  // the CLI's. on_error "fail": the first bad record raises (ValueError "name:line: field: ...").
  py::dict summarize_jsonl(const py::bytes& content, const std::string& name, long first_line,
                           const std::optional<std::string>& format, const std::string& on_error,
                           int threads, bool explain) const {
    const char* fn = "Summarizer.summarize_jsonl";
    KESSEL_CHECK_ARG(first_line >= 1, fn, ": first_line must be >= 1, got ", first_line);
    KESSEL_CHECK_ARG(threads >= 0, fn, ": threads must be >= 0 (0: all cores), got ", threads);
    text::ReadOptions ro;
    if (format) ro.format = text::parse_dialogue_format(*format);
    ro.on_error = text::parse_on_error(on_error);
    ro.first_line = first_line;
    const std::string_view view = content;  // the bytes stay alive with `content`
    text::ReadResult read;
    std::vector<std::string> records;
    std::vector<std::string> refused;
    {
      py::gil_scoped_release release;
      read = text::read_dialogues_from_string(view, name, ro);
      const std::size_t n = read.dialogues.size();
      records.resize(n);
      refused.resize(n);
      parallel_items(n, threads, [&](std::size_t i) {
        try {
          records[i] = summary_record(read.dialogues[i], explain);
        } catch (const InvalidArgument& e) {
          refused[i] = name + ":" + std::to_string(read.dialogues[i].line) + ": " + e.what();
        }
      });
      if (ro.on_error == text::OnError::fail)
        for (const auto& r : refused)
          if (!r.empty()) throw InvalidArgument(r);
    }
    std::string output;
    py::list skipped, warnings;
    for (const auto& s : read.skipped)
      skipped.append(py::dict(py::arg("line") = s.line, py::arg("reason") = s.reason,
                              py::arg("kind") = "record"));
    std::int64_t written = 0;
    for (std::size_t i = 0; i < records.size(); ++i) {
      if (!refused[i].empty()) {
        skipped.append(py::dict(py::arg("line") = read.dialogues[i].line, py::arg("reason") = refused[i],
                                py::arg("kind") = "refused"));
        continue;
      }
      output += records[i];
      output += '\n';
      ++written;
    }
    for (const auto& w : read.warnings) warnings.append(w.reason);
    return py::dict(py::arg("output") = py::bytes(output), py::arg("format") = text::to_string(read.format),
                    py::arg("lines") = read.lines, py::arg("dialogues") = read.dialogues.size(),
                    py::arg("written") = written, py::arg("skipped") = skipped,
                    py::arg("warnings") = warnings);
  }

  std::string scorer_name() const { return summarizer_.scorer->name(); }
  int max_sentences() const { return summarizer_.decode.max_sentences; }

 private:
  // The record `kessel summarize` writes, as JSON text (Python's json builds the dict from it, so
  // the two cannot drift apart). Needs no GIL.
  std::string summary_record(const text::Dialogue& d, bool explain) const {
    const summarize::Summarized r = summarizer_.run(d, lexicon_);
    return summarize::summary_to_json(r.prepared, r.summary, explain ? &r.scores : nullptr).dump();
  }

  static py::object json_loads(const std::string& record) {
    return py::module_::import("json").attr("loads")(record);
  }

  // The error of the lowest index, if any.
  static void rethrow_first(const std::vector<std::exception_ptr>& errors) {
    for (const auto& e : errors)
      if (e) std::rethrow_exception(e);
  }

  text::Lexicon lexicon_;
  summarize::Summarizer summarizer_;
};

// ---- kessel.train_eaca: `kessel train --out` from Python ----

// A dialogue file (str or os.PathLike) or a list of dialogues (dicts or JSON strings).
struct DialogueSource {
  std::optional<std::string> path;
  std::vector<std::string> items;  // UTF-8 JSON, when not a path
};

DialogueSource dialogue_source(const py::object& obj, const char* what) {
  DialogueSource src;
  if (py::isinstance<py::str>(obj) || py::hasattr(obj, "__fspath__")) {
    src.path = py::module_::import("os").attr("fspath")(obj).cast<std::string>();
    return src;
  }
  KESSEL_CHECK_ARG(py::isinstance<py::iterable>(obj), "train_eaca: ", what,
                   " must be a path or a list of dialogues (dicts or JSON strings)");
  for (const py::handle item : obj) src.items.push_back(dialogue_utf8(item));
  return src;
}

// The dialogues of a source, as `kessel train` reads them (format detection, on_error). Skipped
// records become one Python warning after the GIL is back (the caller's job: `skipped` is
// returned).
std::vector<text::Dialogue> read_source(const DialogueSource& src, const text::ReadOptions& ro,
                                        const char* what,
                                        std::vector<text::SkippedRecord>& skipped) {
  if (src.path) {
    text::ReadResult r = text::read_dialogues(*src.path, ro);
    skipped.insert(skipped.end(), r.skipped.begin(), r.skipped.end());
    KESSEL_CHECK_ARG(!r.dialogues.empty(), "train_eaca: ", what, " '", *src.path,
                     "': no dialogues (", r.lines, " non-empty lines, ", r.skipped.size(),
                     " skipped)");
    return std::move(r.dialogues);
  }
  std::vector<text::Dialogue> out;
  for (std::size_t i = 0; i < src.items.size(); ++i) {
    const std::string where = std::string("train_eaca: ") + what + "[" + std::to_string(i) + "]";
    out.push_back(parse_one_dialogue(src.items[i], where, where.c_str()));
  }
  KESSEL_CHECK_ARG(!out.empty(), "train_eaca: ", what, " is an empty list");
  return out;
}

std::string source_name(const DialogueSource& src) {
  return src.path ? *src.path : "<" + std::to_string(src.items.size()) + " dialogues from Python>";
}

struct TrainCall {
  DialogueSource data, dev;
  bool has_dev = false;
  std::optional<double> dev_fraction;
  std::string out;
  text::ReadOptions read;
  summarize::EacaConfig config;
  summarize::TrainOptions train;
  std::optional<int> max_chars;
  std::string lexicon_dir;
};

// run_train of apps/kessel/cmd_train.cc for --out, without the reports: the same split, training,
// budget override and metadata, so the same options and seed write the same file. Needs no GIL.
summarize::EacaModel run_train_call(TrainCall& c, summarize::TrainResult& result,
                                    std::vector<text::SkippedRecord>& skipped) {
  const text::Lexicon lexicon = text::load_default_lexicon(c.lexicon_dir);
  std::vector<text::Dialogue> data = read_source(c.data, c.read, "data", skipped);
  std::size_t with_reference = 0;
  for (const auto& d : data) with_reference += d.references.empty() ? 0 : 1;
  KESSEL_CHECK_ARG(with_reference > 0, "train_eaca: none of the ", data.size(),
                   " dialogues of data '", source_name(c.data),
                   "' has a reference summary (csds: TopicSumm, tweetsumm: abstractive_summaries, "
                   "kessel: \"reference\"): there is nothing to learn from");
  if (c.train.data_name.empty()) c.train.data_name = source_name(c.data);
  // An ensemble is cross-fitted on data unless a dev set or split is asked for (as kessel train).
  c.train.cross_fit = c.config.members >= 2 && !c.has_dev && !c.dev_fraction;
  std::vector<text::Dialogue> train, dev;
  if (c.train.cross_fit) {
    train = std::move(data);
  } else if (c.has_dev) {
    train = std::move(data);
    dev = read_source(c.dev, c.read, "dev", skipped);
  } else {
    summarize::split_train_dev(data, c.dev_fraction.value_or(0.15), c.train.seed, train, dev,
                               "train_eaca: dev_fraction");
  }
  summarize::EacaModel model =
      summarize::train_eaca(train, dev, lexicon, c.config, c.train, &result);
  if (c.max_chars) summarize::set_fixed_char_budget(model, *c.max_chars);
  model.metadata()["dev"] = c.train.cross_fit ? "out of fold (cross-fitting)"
                            : !c.has_dev      ? "seeded split of --data"
                                              : source_name(c.dev);
  model.save(c.out);
  return model;
}

// The --report file's "model" entry.
py::dict train_call_result(const summarize::EacaModel& model, const summarize::TrainResult& result,
                           const std::string& out) {
  py::list epochs;
  for (const auto& e : result.epochs)
    epochs.append(py::dict(py::arg("member") = e.member, py::arg("epoch") = e.epoch,
                           py::arg("loss") = e.loss, py::arg("dev_rouge1") = e.dev_rouge1,
                           py::arg("dev_rouge2") = e.dev_rouge2,
                           py::arg("dev_rougeL") = e.dev_rougeL,
                           py::arg("dialogues_per_second") = e.dialogues_per_second));
  const auto& cfg = model.config();
  return py::dict(
      py::arg("path") = out, py::arg("members") = cfg.members,
      py::arg("best_epoch") = result.best_epoch,
      py::arg("member_best_epochs") = result.member_best_epochs,
      py::arg("dev_rougeL") = result.best_dev_rougeL, py::arg("max_sentences") = cfg.max_sentences,
      py::arg("max_chars") = cfg.max_chars, py::arg("per_dialogue_budget") = cfg.budget_max > 0,
      py::arg("f1_stop_chars") = cfg.f1_stop_chars, py::arg("seconds") = result.seconds,
      py::arg("epochs") = epochs);
}

void warn_skipped(const std::vector<text::SkippedRecord>& skipped) {
  if (skipped.empty()) return;
  const std::string message =
      "train_eaca: " + std::to_string(skipped.size()) +
      " records skipped (on_error='skip'); first: " + text::sanitize_utf8(skipped.front().reason);
  if (PyErr_WarnEx(PyExc_UserWarning, message.c_str(), 1) != 0) throw py::error_already_set();
}

py::dict train_eaca_py(const py::object& data, const py::object& out_path,
                       const std::optional<std::string>& format, const std::string& on_error,
                       const py::object& dev, std::optional<double> dev_fraction, int epochs,
                       int patience, std::uint64_t seed, int threads, float lr, int batch_size,
                       float weight_decay, int hidden, int embed_dim, int buckets, int members,
                       float redundancy, const std::optional<std::string>& context,
                       bool emotion_attention, const std::string& attention, bool compress,
                       const std::string& voice, float budget_quantile, bool select_budget,
                       bool length_budget, std::optional<int> max_chars, float human_label_weight,
                       const std::optional<std::string>& lexicon_dir, bool progress) {
  namespace fs = std::filesystem;
  TrainCall c;
  const std::string out = py::module_::import("os").attr("fspath")(out_path).cast<std::string>();
  KESSEL_CHECK_ARG(!out.empty(), "train_eaca: out must name the model file to write");
  const fs::path parent = fs::path(out).parent_path();
  if (!parent.empty() && !fs::is_directory(parent))
    throw IoError("train_eaca: cannot write out '" + out + "': " + parent.string() +
                  " is not a directory");
  c.out = out;
  KESSEL_CHECK_ARG(!dev_fraction || (*dev_fraction > 0.0 && *dev_fraction < 1.0),
                   "train_eaca: dev_fraction must be in (0, 1), got ", dev_fraction.value_or(0.0));
  KESSEL_CHECK_ARG(!(dev_fraction && !dev.is_none()),
                   "train_eaca: dev and dev_fraction contradict each other");
  KESSEL_CHECK_ARG(threads >= 0, "train_eaca: threads must be >= 0 (0: all cores), got ", threads);
  KESSEL_CHECK_ARG(members >= 1 && members <= 64, "train_eaca: members must be in [1, 64], got ",
                   members);
  KESSEL_CHECK_ARG(!max_chars || *max_chars >= 0, "train_eaca: max_chars must be >= 0, got ",
                   max_chars.value_or(0));
  if (format) c.read.format = text::parse_dialogue_format(*format);
  c.read.on_error = text::parse_on_error(on_error);
  c.data = dialogue_source(data, "data");
  c.has_dev = !dev.is_none();
  if (c.has_dev) c.dev = dialogue_source(dev, "dev");
  c.dev_fraction = dev_fraction;
  c.train.epochs = epochs;
  c.train.patience = patience;
  c.train.seed = seed;
  c.train.threads = threads;
  c.train.lr = lr;
  c.train.batch_size = batch_size;
  c.train.weight_decay = weight_decay;
  c.train.compress = compress;
  c.train.budget_quantile = budget_quantile;
  c.train.select_budget = select_budget;
  c.train.length_budget = length_budget;
  c.train.human_label_weight = human_label_weight;
  c.train.verbose = progress;
  c.config.hidden = hidden;
  c.config.embed_dim = embed_dim;
  c.config.hash_buckets = buckets;
  c.config.members = members;
  c.config.redundancy = redundancy;
  c.config.context_encoder = context.has_value();
  summarize::set_context_encoder(c.config, context.value_or("bilstm"));
  c.config.emotion_attention = emotion_attention;
  c.config.reported_speech = summarize::parse_voice(voice);
  summarize::set_attention_variant(c.config, attention);
  c.max_chars = max_chars;
  c.lexicon_dir = default_lexicon_dir(lexicon_dir, "lexicon_dir", "train_eaca: ");
  summarize::TrainResult result;
  std::vector<text::SkippedRecord> skipped;
  std::optional<summarize::EacaModel> model;
  {
    py::gil_scoped_release release;
    model.emplace(run_train_call(c, result, skipped));
  }
  warn_skipped(skipped);
  return train_call_result(*model, result, out);
}

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
  py::class_<PySummarizer>(m, "Summarizer",
                           R"doc(The EACA summarizer (the same decoder as `kessel summarize`).

Summarizer(model=None, lexicon_dir=None, ranker="centrality", attention="softmax",
           max_sentences=None, max_chars=None, redundancy=None, constraint=True, voice=None,
           emotion_span=None, kv="float32", attention_kernel="auto")

model: a safetensors file from `kessel train` (its stored budget and expected-F1 stop apply unless
max_sentences / max_chars / redundancy are given; either length turns the stop off); without one, the unsupervised ranker `ranker` (centrality with
`attention` softmax|fuzzy, or lead|longest|lexrank). The lexicon must be the one the model was
trained with (ValueError otherwise). voice: with a model, "reported" (English first and second person
rewritten into the third) or "verbatim" instead of the model's stored choice. emotion_span: what the
emotion constraint adds, "clause" (the clause holding the emotion words) or "sentence"; default the
model's, "sentence" without one. kv: "float32" or "int8", the K/V storage of the model's attention
layers while scoring (`kessel summarize --kv`; int8 needs a model). attention_kernel: "auto" (by
dialogue length, from the measured crossovers), "reference", "fused" or "chunk_bridge" for the
model's attention (`kessel summarize --attention-kernel`; anything but auto needs a model); each
explain record's "attention_kernel" says which ran.)doc")
      .def(py::init<const std::optional<std::string>&, const std::optional<std::string>&,
                    const std::string&, const std::string&, std::optional<int>, std::optional<int>,
                    std::optional<float>, bool, const std::optional<std::string>&,
                    const std::optional<std::string>&, const std::string&, const std::string&>(),
           py::arg("model") = py::none(), py::arg("lexicon_dir") = py::none(),
           py::arg("ranker") = "centrality", py::arg("attention") = "softmax",
           py::arg("max_sentences") = py::none(), py::arg("max_chars") = py::none(),
           py::arg("redundancy") = py::none(), py::arg("constraint") = true,
           py::arg("voice") = py::none(), py::arg("emotion_span") = py::none(), py::arg("kv") = "float32",
           py::arg("attention_kernel") = "auto")
      .def(
          "summarize", &PySummarizer::summarize, py::arg("dialogue"), py::arg("explain") = false,
          R"doc(Summarize one dialogue: a dict (or JSON string) in the kessel, CSDS or TweetSumm format.
Returns {"id", "summary", "sentences": [{"text", "turn", "score"}], "emotions": [{"term", "turn",
"start", "end", "emotion", "in_summary"}], "constraint_satisfied"}. ValueError names the bad field.
explain=True adds what `kessel summarize --explain` adds: "attention" {"units": [{"turn", "text"}],
"queries": [unit indices], "weights": [[...] per query]} (the centrality ranker's sentence
attention, or a model's EACA attention), or "attention_omitted" saying why there is none.)doc")
      .def(
          "summarize_many", &PySummarizer::summarize_many, py::arg("dialogues"),
          py::arg("threads") = 0, py::arg("explain") = false, py::arg("on_error") = "raise",
          R"doc(Summarize many dialogues (an iterable of dicts or JSON strings, as summarize() takes) on
`threads` threads (0: all cores) with the GIL released; returns a list of summarize()'s records in
input order, the same for any thread count. Every dialogue is converted and parsed before any is
summarized. on_error="raise" (default): the bad dialogue of the lowest index raises ValueError
"Summarizer.summarize_many: dialogues[i]..." naming the field, and nothing is returned;
on_error="skip": its slot is None (summarize() on it gives the error).)doc")
      .def("summarize_jsonl", &PySummarizer::summarize_jsonl, py::arg("content"), py::kw_only(),
           py::arg("name") = "<jsonl>", py::arg("first_line") = 1, py::arg("format") = py::none(),
           py::arg("on_error") = "fail", py::arg("threads") = 1, py::arg("explain") = false,
           R"doc(Summarize JSONL content (bytes: a file, or a shard of one cut at line boundaries) as
`kessel summarize --input FILE` does: returns {"output": the bytes it writes (one record per line, in
input order), "format", "lines" (non-empty lines), "dialogues" (read), "written", "skipped": [{"line",
"reason", "kind": "record" (unreadable) | "refused" (by the summarizer)}], "warnings": [str]}.
name labels errors (the file's path); first_line is the number of the content's first line in that
file, so records, errors and skips name its true lines. format: "csds" | "tweetsumm" | "kessel"
(detected when None; a transcript cannot be a shard unless first_line is 1). on_error "fail" raises
ValueError "name:line: field: ..." at the first bad record, "skip" counts it. threads as
summarize_many's (the output is the same for any count); the GIL is released.)doc")
      .def_property_readonly("scorer", &PySummarizer::scorer_name)
      .def_property_readonly("max_sentences", &PySummarizer::max_sentences);

  {
    const summarize::EacaConfig cfg;
    const summarize::TrainOptions opt;
    m.def(
        "train_eaca", &train_eaca_py, py::arg("data"), py::kw_only(), py::arg("out"),
        py::arg("format") = py::none(), py::arg("on_error") = "fail", py::arg("dev") = py::none(),
        py::arg("dev_fraction") = py::none(), py::arg("epochs") = opt.epochs,
        py::arg("patience") = opt.patience, py::arg("seed") = opt.seed, py::arg("threads") = 0,
        py::arg("lr") = opt.lr, py::arg("batch_size") = opt.batch_size,
        py::arg("weight_decay") = opt.weight_decay, py::arg("hidden") = cfg.hidden,
        py::arg("embed_dim") = cfg.embed_dim, py::arg("buckets") = cfg.hash_buckets,
        py::arg("members") = cfg.members, py::arg("redundancy") = cfg.redundancy,
        py::arg("context") = "bilstm", py::arg("emotion_attention") = cfg.emotion_attention,
        py::arg("attention") = "eaca", py::arg("compress") = opt.compress,
        py::arg("voice") = "reported", py::arg("budget_quantile") = opt.budget_quantile,
        py::arg("select_budget") = opt.select_budget, py::arg("length_budget") = opt.length_budget,
        py::arg("max_chars") = py::none(), py::arg("human_label_weight") = opt.human_label_weight,
        py::arg("lexicon_dir") = py::none(), py::arg("progress") = false,
        R"doc(Train the EACA summarizer and write its safetensors model: `kessel train --out` from Python
(the same split, training and metadata, so the same options and seed write the same file).

data: a dialogue file (JSONL in the kessel, CSDS or TweetSumm format; `format` and
`on_error`="fail"|"skip" as --format / --on-error) or a list of dialogues (dicts or JSON strings).
out: the model file. dev: dev dialogues for early stopping (a path or a list, as data); dev_fraction:
hold out this seeded share of data instead (default 0.15 for members=1); an ensemble (members >= 2)
with neither is cross-fitted on data, as `kessel train` does. The other options are kessel train's
flags with Python names: epochs, patience, seed, threads (0: all cores; the model is the same for any
count), lr, batch_size, weight_decay, hidden, embed_dim, buckets, members, redundancy,
context="bilstm"|"attention"|None (None: --no-context), emotion_attention (False:
--no-emotion-attention), attention="eaca"|"plain"|"fuzzy", compress (False: --no-compress),
voice="reported"|"verbatim", budget_quantile, select_budget (False: --no-select-budget),
length_budget (False: --fixed-budget), max_chars (--max-chars), human_label_weight. lexicon_dir as
Summarizer's (extra --lexicon files are not supported here). progress=True prints kessel train's
per-epoch lines on stderr. The GIL is released while training.

Returns {"path", "members", "best_epoch", "member_best_epochs", "dev_rougeL", "max_sentences",
"max_chars", "per_dialogue_budget", "f1_stop_chars", "seconds", "epochs": [{"member", "epoch", "loss",
"dev_rouge1", "dev_rouge2", "dev_rougeL", "dialogues_per_second"}]} (kessel train --report's "model"
entry). ValueError for a bad option or dialogue (naming it), OSError for a file.)doc");
  }
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
