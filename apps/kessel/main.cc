// kessel command-line front end. The library does the work; this file only wires subcommands and
// turns errors into a message and a non-zero exit code.
#include <cstdio>
#include <exception>
#include <iostream>
#include <string>
#include <vector>

#include "commands.h"
#include "exit_codes.h"
#include "kessel/cpu.h"
#include "kessel/error.h"
#include "kessel/text/utf8.h"
#include "kessel/version.h"
#include "quiet.h"
#include "usage_errors.h"

namespace {

std::string join(const std::vector<std::string>& names) {
  std::string s;
  for (const std::string& n : names) s += (s.empty() ? "" : ", ") + n;
  return s;
}

// The version and the SIMD variant: what a bug report needs first.
std::string version_text() {
  return std::string("kessel ") + kessel::kVersion + "\nSIMD variant: " + kessel::cpu_variant() +
         " (set KESSEL_CPU to force one)" +
         "\navailable on this CPU: " + join(kessel::cpu_variants_available()) +
         "\nin this build: " + join(kessel::cpu_variants_built());
}

// The root's --help footer: what the exit codes mean (the README's "Exit codes" says the same).
constexpr const char* kFooter =
    "Exit codes:\n"
    "  0  success\n"
    "  1  a check failed (kessel stress; kessel eval --min-rougeL / --min-constraint)\n"
    "  2  usage error: an unknown, missing or contradicting option, a bad option value\n"
    "  3  input or runtime error: a file that cannot be read or is malformed, data a command\n"
    "     refuses, an internal error\n"
    "--quiet (-q), before or after the command: no progress or informational notes on stderr;\n"
    "errors and warnings about the data stay.";

std::string printable(const std::exception& e) { return kessel::text::sanitize_utf8(e.what()); }

// Every command's results on standard output reached it: a full disk (`> /dev/full`) or a closed
// descriptor is an error (exit 3), not a silent success with the output lost.
void check_standard_output() {
  std::cout.flush();
  const bool failed = !std::cout || std::fflush(stdout) != 0 || std::ferror(stdout);
  if (failed) throw kessel::IoError("standard output: write failed (disk full, or the output closed)");
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"kessel: attention as normalized weighting — engine, classic algorithms, EACA"};
  app.require_subcommand(1);
  app.set_version_flag("--version", [] { return version_text(); });
  // Subcommands, one line per area (see commands.h).
  kessel::cli::add_cluster_commands(app);
  kessel::cli::add_hmm_commands(app);
  kessel::cli::add_attention_commands(app);
  kessel::cli::add_origins_command(app);
  kessel::cli::add_text_commands(app);
  kessel::cli::add_summarize_command(app);
  kessel::cli::add_eval_command(app);
  kessel::cli::add_analyze_command(app);
  kessel::cli::add_stress_command(app);
  kessel::cli::add_train_command(app);
  kessel::cli::add_serve_command(app);

  kessel::cli::add_quiet_flags(app);
  app.footer(kFooter);  // after the subcommands: they would inherit it

  namespace cli = kessel::cli;
  try {
    app.parse(argc, argv);
    check_standard_output();
  } catch (const CLI::Success& e) {
    return app.exit(e);  // --help, --version
  } catch (const CLI::ParseError& e) {
    std::fputs(cli::describe_usage_error(app, e).c_str(), stderr);
    return cli::kExitUsage;
  } catch (const cli::UsageError& e) {
    std::fputs(cli::usage_message(cli::innermost_command(app), printable(e)).c_str(), stderr);
    return cli::kExitUsage;
  } catch (const cli::CheckFailed& e) {
    std::fprintf(stderr, "kessel: check failed: %s\n", printable(e).c_str());
    return cli::kExitCheckFailed;
  } catch (const kessel::Error& e) {
    // Messages may quote malformed input (a JSON parser's "last read: '...'"): bad bytes become U+FFFD.
    std::fprintf(stderr, "kessel: error: %s\n", printable(e).c_str());
    return cli::kExitRuntime;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "kessel: internal error: %s\n", printable(e).c_str());
    return cli::kExitRuntime;
  }
  return cli::kExitOk;
}
