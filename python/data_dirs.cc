// Where the Python package finds kessel's data. The wheel carries it as
// kessel/data/{lexicon,samples} beside the extension; the extension finds its own file through the
// dynamic loader (dladdr), so the lookup follows the installed package wherever pip put it, and the
// source tree it was built from is read only while the extension is still in that build tree.
#include <dlfcn.h>

#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include "bindings.h"
#include "kessel/text/lexicon.h"

namespace kessel::python {

namespace {

namespace fs = std::filesystem;

// The directory holding this extension (…/kessel/), empty when the loader cannot say.
fs::path extension_dir() {
  Dl_info info{};
  if (dladdr(reinterpret_cast<const void*>(&extension_dir), &info) == 0 ||
      info.dli_fname == nullptr)
    return {};
  std::error_code ec;
  const fs::path file = fs::canonical(info.dli_fname, ec);
  return ec ? fs::path() : file.parent_path();
}

}  // namespace

std::string default_lexicon_dir(const std::optional<std::string>& given, const char* what,
                                const char* context) {
  std::vector<std::string> candidates;
  if (const char* home = std::getenv("KESSEL_HOME"))
    candidates.push_back((fs::path(home) / "data/lexicon").string());
  const fs::path here = extension_dir();
  if (!here.empty()) {
    candidates.push_back((here / "data/lexicon").string());
    std::error_code ec;
    if (fs::equivalent(here, KESSEL_BUILD_PACKAGE_DIR, ec))
      candidates.push_back((fs::path(KESSEL_SOURCE_DIR) / "data/lexicon").string());
  }
  return text::find_default_lexicon_dir(given.value_or(""), candidates, what, context);
}

}  // namespace kessel::python
