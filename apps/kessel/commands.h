// Each area of the CLI registers its subcommands on the root app. Keep main.cc short: add a line there
// and a cmd_<area>.cc here.
#pragma once

#include <CLI/CLI.hpp>

namespace kessel::cli {

void add_attention_commands(CLI::App& app);  // kessel bench attention
void add_cluster_commands(CLI::App& app);    // kessel cluster
void add_hmm_commands(CLI::App& app);        // kessel hmm ...
void add_origins_command(CLI::App& app);     // kessel origins
void add_text_commands(CLI::App& app);       // kessel rouge, kessel lexicon expand
void add_summarize_command(CLI::App& app);   // kessel summarize
void add_eval_command(CLI::App& app);        // kessel eval
void add_analyze_command(CLI::App& app);     // kessel analyze
void add_stress_command(CLI::App& app);      // kessel stress

void add_train_command(CLI::App& app);      // kessel train
void add_serve_command(CLI::App& app);      // kessel serve

}  // namespace kessel::cli
