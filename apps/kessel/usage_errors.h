// Usage errors as a user can act on them. CLI11 reports a mistyped flag as whatever check fails
// first
// ("summarize --inptu x" as "--input is required"); this looks at what the parse left over instead:
// an unknown option or command is named with the nearest valid one, an extra argument is named with
// what the command takes.
#pragma once

#include <CLI/CLI.hpp>
#include <string>
#include <vector>

namespace kessel::cli {

// Optimal string alignment distance: insertions, deletions, substitutions and swaps of two adjacent
// characters each cost 1 ("inptu" -> "input" is 1).
int edit_distance(const std::string& a, const std::string& b);

// The candidate nearest to `typed`, or "" when none is near enough to be a likely typo: at most
// (length + 1) / 3 edits, where length is that of `typed` without leading dashes. Ties go to the
// earlier candidate.
std::string nearest(const std::string& typed, const std::vector<std::string>& candidates);

// "kessel hmm fit": the command the user was running when `app` is the innermost parsed one.
std::string command_path(const CLI::App& app);

// The innermost subcommand that the parse entered (the root when none).
CLI::App& innermost_command(CLI::App& root);

// "<command>: usage error: <what>" and "run '<command> --help' for its options", two lines.
std::string usage_message(const CLI::App& command, const std::string& what);

// The two lines to print for a failed parse of `root` that threw `e` (not a help or version
// request): "kessel summarize: usage error: unknown option --inptu (did you mean --input?)" and
// "run 'kessel summarize --help' for its options".
std::string describe_usage_error(CLI::App& root, const CLI::ParseError& e);

}  // namespace kessel::cli
