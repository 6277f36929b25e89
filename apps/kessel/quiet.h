// --quiet: progress and informational notes on stderr go; errors and warnings about the data stay.
//
// Silenced: progress bars and lines (util/progress.h), training's per-epoch log, `hmm fit`'s
// iteration lines, stress's stage lines, counts and timings ("lexicon expand: 120 seeds from ...",
// "model load 3.1 ms"). Kept: errors, "warning: ..." lines, every skipped record (--on-error skip)
// and the count, a lexicon file's skipped entries, dialogues that are left out of a score, and
// `kessel serve`'s address line (with --port 0 the only place the port is printed).
#pragma once

#include <CLI/CLI.hpp>
#include <cstdio>

namespace kessel::cli {

// Adds --quiet (-q) to `app` and to every subcommand under it, so it goes before or after the
// command.
void add_quiet_flags(CLI::App& app);
bool quiet();

// Where progress goes: stderr, or nullptr under --quiet (Progress then draws nothing).
std::FILE* progress_stream();

// An informational note on stderr (printf format), dropped under --quiet.
void note(const char* format, ...) __attribute__((format(printf, 1, 2)));

}  // namespace kessel::cli
