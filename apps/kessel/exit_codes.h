// kessel's exit codes and the two CLI-only failures that choose them. The codes are documented in
// `kessel --help` (main.cc's footer) and in the README ("Exit codes"); main() maps exceptions to
// them.
#pragma once

#include <stdexcept>
#include <string>

namespace kessel::cli {

enum ExitCode : int {
  kExitOk = 0,
  kExitCheckFailed = 1,  // the command ran and a check it makes failed (stress, eval --min-*)
  kExitUsage =
      2,  // the command line is wrong: unknown, missing or contradicting options, bad values
  kExitRuntime =
      3,  // an input file or the data in it, or the run itself, failed (kessel::Error, ...)
};

// A command line that parses but contradicts itself ("--voice needs --model"), found before any
// work. Exit 2, like CLI11's own parse errors. The message names the option.
class UsageError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// A check the command makes failed; the command has printed its report (which says why). Exit 1.
class CheckFailed : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Throws UsageError(message) unless `ok`: the checks of flags against each other.
inline void check_usage(bool ok, const std::string& message) {
  if (!ok) throw UsageError(message);
}

}  // namespace kessel::cli
