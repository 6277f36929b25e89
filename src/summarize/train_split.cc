#include "kessel/summarize/train_split.h"

#include <utility>

#include "kessel/error.h"
#include "util/splitmix.h"

namespace kessel::summarize {

std::vector<std::size_t> seeded_permutation(std::size_t n, std::uint64_t seed) {
  std::vector<std::size_t> p(n);
  for (std::size_t i = 0; i < n; ++i) p[i] = i;
  std::uint64_t state = seed ^ 0x5b1175b1175ull;
  for (std::size_t i = n; i > 1; --i)
    std::swap(p[i - 1], p[static_cast<std::size_t>(splitmix64(state) % i)]);
  return p;
}

void split_train_dev(const std::vector<text::Dialogue>& all, double fraction, std::uint64_t seed,
                     std::vector<text::Dialogue>& train, std::vector<text::Dialogue>& dev,
                     const std::string& what) {
  const auto perm = seeded_permutation(all.size(), seed);
  const auto n_dev = static_cast<std::size_t>(fraction * static_cast<double>(all.size()) + 0.5);
  KESSEL_CHECK_ARG(n_dev >= 1 && n_dev < all.size(), what, " ", fraction, " of ", all.size(),
                   " dialogues leaves an empty train or dev split");
  for (std::size_t i = 0; i < perm.size(); ++i) (i < n_dev ? dev : train).push_back(all[perm[i]]);
}

void set_fixed_char_budget(EacaModel& model, int max_chars) {
  KESSEL_CHECK_ARG(max_chars >= 0, "set_fixed_char_budget: max_chars must be >= 0, got ",
                   max_chars);
  model.mutable_config().max_chars = max_chars;
  model.mutable_config().budget_max = 0;        // the fixed budget replaces the per-dialogue one
  model.mutable_config().f1_stop_chars = 0.0f;  // and the expected-F1 stop, as in kessel summarize
}

}  // namespace kessel::summarize
