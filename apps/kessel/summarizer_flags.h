// The summarizer's command-line options, shared by `kessel summarize` and `kessel serve`: which scorer
// (a trained model or an unsupervised ranker) and the decode settings that override its defaults.
#pragma once

#include <CLI/CLI.hpp>
#include <string>

#include "kessel/summarize/summarizer.h"

namespace kessel::cli {

struct SummarizerFlags {
  std::string model;  // a trained EACA model; replaces --ranker
  std::string ranker = "centrality";
  std::string attention = "softmax";
  std::string kv = "float32";  // float32 | int8 (with --model)
  std::string attention_kernel = "auto";  // auto | reference | fused | chunk_bridge (with --model)
  // Used only when given on the command line; the defaults are make_summarizer's (summarizer.h).
  int max_sentences = 4;
  int max_chars = 0;
  float redundancy = 0.5f;
  bool no_constraint = false;
  std::string voice;  // empty: the model's
  std::string emotion_span;  // clause | sentence; empty: the model's (clause without one)
};

void add_summarizer_flags(CLI::App& cmd, SummarizerFlags& flags);
// The options for make_summarizer from the parsed flags (InvalidArgument: --ranker with --model).
summarize::SummarizerOptions summarizer_options(const SummarizerFlags& flags, const CLI::App& cmd);

}  // namespace kessel::cli
