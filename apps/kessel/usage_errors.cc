#include "usage_errors.h"

#include <algorithm>

namespace kessel::cli {

namespace {

std::string strip_dashes(const std::string& s) {
  const std::size_t first = s.find_first_not_of('-');
  return first == std::string::npos ? std::string() : s.substr(first);
}

bool is_option_token(const std::string& s) { return s.size() > 1 && s[0] == '-' && s != "--"; }

// "--inptu=x" -> "--inptu": the value is not part of the name.
std::string option_name(const std::string& token) { return token.substr(0, token.find('=')); }

std::vector<std::string> option_names(const CLI::App& app) {
  std::vector<std::string> names;
  for (const CLI::Option* opt : app.get_options()) {
    for (const std::string& l : opt->get_lnames()) names.push_back("--" + l);
    for (const std::string& s : opt->get_snames()) names.push_back("-" + s);
  }
  return names;
}

std::vector<std::string> command_names(const CLI::App& app) {
  std::vector<std::string> names;
  for (const CLI::App* sub : app.get_subcommands(std::function<bool(const CLI::App*)>{}))
    if (!sub->get_name().empty()) names.push_back(sub->get_name());
  return names;
}

std::string join(const std::vector<std::string>& items, const std::string& separator) {
  std::string out;
  for (const std::string& s : items) out += (out.empty() ? "" : separator) + s;
  return out;
}

std::string unknown_option(const CLI::App& app, const std::string& token) {
  const std::string name = option_name(token);
  const std::string guess = nearest(name, option_names(app));
  return "unknown option " + name + (guess.empty() ? "" : " (did you mean " + guess + "?)");
}

std::string unknown_command(const CLI::App& app, const std::string& token) {
  const std::vector<std::string> commands = command_names(app);
  const std::string guess = nearest(token, commands);
  return "unknown command '" + token + "' (" +
         (guess.empty() ? "commands: " + join(commands, ", ") : "did you mean '" + guess + "'?") +
         ")";
}

std::string unexpected_argument(const CLI::App& app, const std::string& token) {
  std::vector<std::string> positionals;
  for (const CLI::Option* opt : app.get_options())
    if (opt->get_positional()) positionals.push_back(opt->get_name(true));
  std::string takes = app.get_name() + " takes no positional arguments";
  if (!positionals.empty())
    takes = app.get_name() + " takes " + std::to_string(positionals.size()) +
            " positional argument" + (positionals.size() == 1 ? "" : "s") + ": " +
            join(positionals, " ");
  // "--explain true": a flag given a value.
  for (const char* word : {"true", "false", "yes", "no", "on", "off"})
    if (token == word) takes += "; a flag takes no value";
  return "unexpected argument '" + token + "' (" + takes + ")";
}

struct Problem {
  const CLI::App* command = nullptr;  // whose options or arguments are wrong
  std::string what;                   // empty: the parse left nothing over
};

// What went wrong, from what the parse left over.
Problem from_leftovers(CLI::App& root) {
  CLI::App& inner = innermost_command(root);
  const std::vector<std::string> inner_left = inner.remaining(false);
  // A command that needs a subcommand and got none: the first word is a mistyped command.
  if (inner.get_require_subcommand_min() > 0 && inner.get_subcommands().empty()) {
    if (!inner_left.empty() && !is_option_token(inner_left.front()) && inner_left.front() != "--")
      return {&inner, unknown_command(inner, inner_left.front())};
    if (inner_left.empty())
      return {&inner, "a command is required (" + join(command_names(inner), ", ") + ")"};
  }
  // Innermost first: that is the command whose options the user was typing.
  std::vector<const CLI::App*> chain;
  for (const CLI::App* app = &inner; app != nullptr; app = app->get_parent()) chain.push_back(app);
  for (const CLI::App* app : chain)
    for (const std::string& token : app->remaining(false))
      if (is_option_token(token)) return {app, unknown_option(*app, token)};
  for (const CLI::App* app : chain)
    for (const std::string& token : app->remaining(false))
      if (token != "--") return {app, unexpected_argument(*app, token)};
  return {&inner, ""};
}

}  // namespace

int edit_distance(const std::string& a, const std::string& b) {
  const std::size_t n = a.size(), m = b.size();
  // d[i][j]: distance between a[0, i) and b[0, j) (option names are short: a full table is fine).
  std::vector<std::vector<int>> d(n + 1, std::vector<int>(m + 1));
  for (std::size_t i = 0; i <= n; ++i) d[i][0] = static_cast<int>(i);
  for (std::size_t j = 0; j <= m; ++j) d[0][j] = static_cast<int>(j);
  for (std::size_t i = 1; i <= n; ++i)
    for (std::size_t j = 1; j <= m; ++j) {
      const int cost = a[i - 1] == b[j - 1] ? 0 : 1;
      d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1])
        d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
    }
  return d[n][m];
}

std::string nearest(const std::string& typed, const std::vector<std::string>& candidates) {
  const std::string word = strip_dashes(typed);
  const int limit = static_cast<int>(word.size() + 1) / 3;
  std::string best;
  int best_distance = limit + 1;
  for (const std::string& c : candidates) {
    const int d = edit_distance(word, strip_dashes(c));
    if (d < best_distance) best = c, best_distance = d;
  }
  return best;
}

std::string command_path(const CLI::App& app) {
  std::vector<std::string> names;
  for (const CLI::App* a = &app; a != nullptr; a = a->get_parent())
    names.push_back(a->get_parent() == nullptr ? "kessel" : a->get_name());
  std::reverse(names.begin(), names.end());
  return join(names, " ");
}

CLI::App& innermost_command(CLI::App& root) {
  CLI::App* app = &root;
  while (!app->get_subcommands().empty()) app = app->get_subcommands().front();
  return *app;
}

std::string usage_message(const CLI::App& command, const std::string& what) {
  const std::string path = command_path(command);
  return path + ": usage error: " + what + "\nrun '" + path + " --help' for its options\n";
}

std::string describe_usage_error(CLI::App& root, const CLI::ParseError& e) {
  Problem p = from_leftovers(root);
  if (p.what.empty())
    p.what = e.what();  // CLI11's own message names the option ("--input is required")
  return usage_message(*p.command, p.what);
}

}  // namespace kessel::cli
