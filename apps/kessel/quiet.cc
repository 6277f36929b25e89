#include "quiet.h"

#include <cstdarg>

namespace kessel::cli {

namespace {
bool quiet_flag =
    false;  // one process, one command line: set once by CLI11 before any callback runs

void add_to_tree(CLI::App& app) {
  app.add_flag(
      "--quiet,-q", quiet_flag,
      "No progress or informational notes on stderr (errors and warnings about the data stay)");
  for (CLI::App* sub : app.get_subcommands(std::function<bool(CLI::App*)>{})) add_to_tree(*sub);
}
}  // namespace

void add_quiet_flags(CLI::App& app) { add_to_tree(app); }

bool quiet() { return quiet_flag; }

std::FILE* progress_stream() { return quiet_flag ? nullptr : stderr; }

void note(const char* format, ...) {
  if (quiet_flag) return;
  va_list args;
  va_start(args, format);
  std::vfprintf(stderr, format, args);
  va_end(args);
}

}  // namespace kessel::cli
