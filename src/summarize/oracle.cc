#include "summarize/oracle.h"

#include <algorithm>
#include <unordered_map>

#include "kessel/text/rouge.h"

namespace kessel::summarize {

namespace {

using text::TokenSentences;

class Vocab {
 public:
  TokenSentences ids(const std::vector<std::vector<std::string>>& sentences) {
    TokenSentences out;
    for (const auto& s : sentences) {
      std::vector<int> row;
      row.reserve(s.size());
      for (const auto& tok : s) row.push_back(id(tok));
      out.push_back(std::move(row));
    }
    return out;
  }

 private:
  int id(const std::string& tok) {
    auto [it, inserted] = map_.emplace(tok, static_cast<int>(map_.size()));
    return it->second;
  }
  std::unordered_map<std::string, int> map_;
};

std::vector<std::vector<std::string>> protocol_tokens(const std::string& s, Lang lang) {
  return lang == Lang::zh ? text::rouge_tokens_zh(s, text::ZhSplit::period) : text::rouge_tokens_en(s);
}

}  // namespace

std::vector<std::string> reference_texts(const text::Dialogue& dialogue, Lang lang) {
  std::vector<std::string> out;
  for (const auto& ref : dialogue.references) {
    std::string joined;
    for (const auto& s : ref) {
      if (!joined.empty() && lang == Lang::en) joined += ' ';
      joined += s;
    }
    if (!joined.empty()) out.push_back(std::move(joined));
  }
  return out;
}

std::vector<int> greedy_oracle(const Prepared& p, const std::vector<std::string>& references,
                               const OracleOptions& options) {
  KESSEL_CHECK_ARG(options.max_units >= 0, "greedy_oracle: max_units must be >= 0, got ", options.max_units);
  if (references.empty() || p.units.empty()) return {};
  Vocab vocab;
  std::vector<TokenSentences> refs;
  for (const auto& r : references) refs.push_back(vocab.ids(protocol_tokens(r, p.lang)));
  std::vector<TokenSentences> units;
  for (const auto& u : p.units) units.push_back(vocab.ids(protocol_tokens(scored_unit(u, p.lang), p.lang)));

  auto objective = [&](const TokenSentences& cand) {
    double total = 0.0;
    for (const auto& ref : refs) total += text::rouge_n(cand, ref, 1).f1 + text::rouge_n(cand, ref, 2).f1;
    return total / static_cast<double>(refs.size());
  };

  std::vector<int> selected;
  std::vector<char> taken(p.units.size(), 0);
  double current = 0.0;
  const std::size_t limit = options.max_units > 0 ? static_cast<std::size_t>(options.max_units) : p.units.size();
  while (selected.size() < limit) {
    int best = -1;
    double best_value = current;
    for (std::size_t u = 0; u < units.size(); ++u) {
      if (taken[u] || units[u].empty()) continue;
      // Candidate summary in dialogue order, as the decoder would render it.
      std::vector<int> order = selected;
      order.push_back(static_cast<int>(u));
      std::sort(order.begin(), order.end());
      TokenSentences cand;
      for (int s : order)
        for (const auto& sent : units[static_cast<std::size_t>(s)]) cand.push_back(sent);
      const double value = objective(cand);
      if (value > best_value + 1e-12) {
        best_value = value;
        best = static_cast<int>(u);
      }
    }
    if (best < 0) break;
    taken[static_cast<std::size_t>(best)] = 1;
    selected.push_back(best);
    current = best_value;
  }
  std::sort(selected.begin(), selected.end());
  return selected;
}

}  // namespace kessel::summarize
