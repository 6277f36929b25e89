// kessel command-line front end. The library does the work; this file only wires subcommands and
// turns errors into a message and a non-zero exit code.
#include <cstdio>
#include <exception>

#include "commands.h"
#include "kessel/error.h"
#include "kessel/text/utf8.h"

int main(int argc, char** argv) {
  CLI::App app{"kessel: attention as normalized weighting — engine, classic algorithms, EACA"};
  app.require_subcommand(1);
  app.set_version_flag("--version", "kessel 0.1.0");
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
