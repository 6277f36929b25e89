// `kessel analyze`: the seed's four constraint quadrants, measured on a dialogue file.
//   compute    time and FLOPs per stage of the pipeline, and per layer of the scorer (EACA: features,
//              fusion, context attention, customer attention, heads, rendering)
//   data       token entropy, vocabulary, units per dialogue, oracle label balance, emotion terms
//   cognitive  which constraints are enforced and how often they bind
//   physical   modalities present (emoji, emoticons, Weibo emoticons, placeholders, times) and ranges
#pragma once

#include <functional>
#include <map>
#include <string>
#include <vector>

#include "kessel/summarize/summary.h"

namespace kessel::summarize {

struct StageTime {
  std::string stage;
  double total_ms = 0.0;
  double per_dialogue_ms = 0.0;
  double gflop = 0.0;  // floating-point work of the stage where it is well defined, else 0
};

struct Analysis {
  std::size_t dialogues = 0, turns = 0, units = 0;
  // compute
  std::string scorer;              // Scorer::name()
  std::vector<StageTime> stages;   // prepare, the scorer's parts ("score: ..."), decode, oracle
  // EACA: how many dialogues ran each attention kernel (UnitScores::attention_kernel); empty otherwise.
  std::map<std::string, std::size_t> attention_kernels;
  // data
  double token_entropy_bits = 0.0;  // Shannon entropy of the token distribution
  std::size_t tokens = 0, vocabulary = 0;
  double units_per_dialogue_mean = 0.0;
  std::size_t units_per_dialogue_max = 0;
  double customer_unit_share = 0.0;
  std::size_t with_references = 0;
  double oracle_positive_share = 0.0;  // share of units the greedy oracle selects (label balance)
  double dialogues_with_customer_emotion = 0.0;
  std::map<std::string, std::size_t> emotion_counts;  // expressed customer mentions per emotion
  std::vector<std::pair<std::string, std::size_t>> top_terms;  // most frequent expressed terms
  // cognitive
  std::vector<std::string> enforced;  // the constraints this scorer and decoder enforce, in words
  double constraint_binds = 0.0;   // share of dialogues where the emotion constraint changed the pick
  double constraint_satisfied = 0.0;
  double budget_binds = 0.0;       // share of dialogues with more units than the sentence budget
  // physical
  std::map<std::string, std::size_t> token_kinds;  // emoji, emoticon, weibo_emoticon, placeholder, url, ...
  double turns_with_emoji = 0.0;
  double dialogues_with_times = 0.0;
  double time_span_s_min = 0.0, time_span_s_max = 0.0;  // dialogue durations where times exist
  double turn_chars_mean = 0.0;
  std::size_t turn_chars_max = 0;
};

// Runs `scorer` and the decoder with `options` (a trained model's budget, say) over the dialogues,
// timing each stage and each of the scorer's parts (Scorer::score_profiled); `top_terms` keeps the
// `top` most frequent expressed terms.
// `progress`, when given, is called with the number of dialogues done after each one.
Analysis analyze(const std::vector<text::Dialogue>& dialogues, const text::Lexicon& lexicon, const Scorer& scorer,
                 const DecodeOptions& options, std::size_t top = 15,
                 const std::function<void(std::size_t done)>& progress = nullptr);

}  // namespace kessel::summarize
