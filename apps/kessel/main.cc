// kessel command-line front end. The library does the work; this file only wires subcommands and
// turns errors into a message and a non-zero exit code.
#include <cstdio>
#include <exception>
#include <string>
#include <vector>

#include "commands.h"
#include "kessel/cpu.h"
#include "kessel/error.h"
#include "kessel/text/utf8.h"
#include "kessel/version.h"

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

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e);
  } catch (const kessel::Error& e) {
    // Messages may quote malformed input (a JSON parser's "last read: '...'"): bad bytes become U+FFFD.
    std::fprintf(stderr, "kessel: error: %s\n", kessel::text::sanitize_utf8(e.what()).c_str());
    return 2;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "kessel: internal error: %s\n", kessel::text::sanitize_utf8(e.what()).c_str());
    return 3;
  }
  return 0;
}
