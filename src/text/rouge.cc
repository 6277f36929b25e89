#include "kessel/text/rouge.h"

#include <algorithm>
#include <map>
#include <unordered_map>

#include "kessel/error.h"
#include "kessel/text/dialogue.h"
#include "kessel/text/utf8.h"

namespace kessel::text {

namespace {

RougeScore make_score(double hits, double candidate_total, double reference_total) {
  RougeScore s;
  s.precision = candidate_total > 0 ? hits / candidate_total : 0.0;
  s.recall = reference_total > 0 ? hits / reference_total : 0.0;
  s.f1 = (s.precision + s.recall) > 0 && hits > 0
             ? 2.0 * s.precision * s.recall / (s.precision + s.recall)
             : 0.0;
  return s;
}

std::vector<int> flatten(const TokenSentences& s) {
  std::vector<int> out;
  for (const auto& sent : s) out.insert(out.end(), sent.begin(), sent.end());
  return out;
}

TokenSentences to_ids(const std::vector<std::vector<std::string>>& sents,
                      std::unordered_map<std::string, int>* vocab) {
  TokenSentences out;
  for (const auto& s : sents) {
    std::vector<int> ids;
    for (const auto& tok : s)
      ids.push_back(vocab->emplace(tok, static_cast<int>(vocab->size())).first->second);
    out.push_back(std::move(ids));
  }
  return out;
}

}  // namespace

void lcs_positions(const std::vector<int>& ref, const std::vector<int>& cand,
                   std::vector<char>* hit) {
  const std::size_t m = ref.size(), n = cand.size();
  if (m == 0 || n == 0) return;
  std::vector<int> c((m + 1) * (n + 1), 0);
  auto at = [&](std::size_t i, std::size_t j) -> int& { return c[i * (n + 1) + j]; };
  for (std::size_t i = 1; i <= m; ++i) {
    for (std::size_t j = 1; j <= n; ++j) {
      at(i, j) =
          ref[i - 1] == cand[j - 1] ? at(i - 1, j - 1) + 1 : std::max(at(i - 1, j), at(i, j - 1));
    }
  }
  std::size_t i = m, j = n;
  while (i > 0 && j > 0) {
    if (ref[i - 1] == cand[j - 1]) {
      (*hit)[i - 1] = 1;
      --i, --j;
    } else if (at(i - 1, j) >= at(i, j - 1)) {
      --i;
    } else {
      --j;
    }
  }
}

RougeScore rouge_n(const TokenSentences& candidate, const TokenSentences& reference, int n) {
  KESSEL_CHECK_ARG(n >= 1, "rouge_n: n=", n, " must be >= 1");
  const auto cand = flatten(candidate), ref = flatten(reference);
  auto grams = [n](const std::vector<int>& t) {
    std::map<std::vector<int>, int> g;
    for (std::size_t i = 0; i + static_cast<std::size_t>(n) <= t.size(); ++i) {
      ++g[std::vector<int>(t.begin() + static_cast<long>(i), t.begin() + static_cast<long>(i) + n)];
    }
    return g;
  };
  const auto gc = grams(cand), gr = grams(ref);
  double hits = 0, total_c = 0, total_r = 0;
  for (const auto& [g, k] : gc) total_c += k;
  for (const auto& [g, k] : gr) {
    total_r += k;
    auto it = gc.find(g);
    if (it != gc.end()) hits += std::min(k, it->second);
  }
  return make_score(hits, total_c, total_r);
}

RougeScore rouge_l_summary(const TokenSentences& candidate, const TokenSentences& reference) {
  std::unordered_map<int, int> ref_count, cand_count;
  double total_r = 0, total_c = 0;
  for (const auto& s : reference) {
    for (int t : s) ++ref_count[t], ++total_r;
  }
  for (const auto& s : candidate) {
    for (int t : s) ++cand_count[t], ++total_c;
  }
  double hits = 0;
  for (const auto& r : reference) {
    std::vector<char> in_union(r.size(), 0);
    for (const auto& cs : candidate) lcs_positions(r, cs, &in_union);
    for (std::size_t i = 0; i < r.size(); ++i) {
      if (!in_union[i]) continue;
      int& rc = ref_count[r[i]];
      int& cc = cand_count[r[i]];
      if (rc > 0 && cc > 0) {
        ++hits;
        --rc;
        --cc;
      }
    }
  }
  return make_score(hits, total_c, total_r);
}

RougeScores rouge_all(const TokenSentences& candidate, const TokenSentences& reference) {
  return RougeScores{rouge_n(candidate, reference, 1), rouge_n(candidate, reference, 2),
                     rouge_l_summary(candidate, reference)};
}

RougeLang parse_rouge_lang(std::string_view name) {
  if (name == "zh") return RougeLang::zh;
  if (name == "en") return RougeLang::en;
  throw InvalidArgument("rouge: lang='" + std::string(name) + "' is not zh or en");
}

RougeLang detect_rouge_lang(const std::vector<std::string>& texts) {
  ScriptCounts counts;
  for (const auto& t : texts) counts.add(t);
  if (counts.cjk + counts.latin == 0)
    throw InvalidArgument("rouge: cannot detect the language: the references have no CJK or Latin letter (give lang zh or en)");
  return counts.mostly_cjk() ? RougeLang::zh : RougeLang::en;
}

RougeLang resolve_rouge_lang(std::string_view name, const std::vector<std::string>& references) {
  return name == "auto" ? detect_rouge_lang(references) : parse_rouge_lang(name);
}

const char* to_string(RougeLang lang) { return lang == RougeLang::zh ? "zh" : "en"; }

ZhSplit parse_zh_split(std::string_view name) {
  if (name == "period") return ZhSplit::period;
  if (name == "none") return ZhSplit::none;
  if (name == "period-eos") return ZhSplit::period_eos;
  throw InvalidArgument("rouge: zh_split='" + std::string(name) + "' is not period, none or period-eos");
}

std::vector<std::vector<std::string>> rouge_tokens_zh(std::string_view text, ZhSplit split) {
  const DecodedText d = decode_utf8(text, Utf8Mode::lossy);
  std::size_t b = 0, e = d.cps.size();
  while (b < e && is_space(d.cps[b])) ++b;
  while (e > b && is_space(d.cps[e - 1])) --e;
  // The CSDS scripts delete ASCII spaces first, then the "<q>" sentence markers.
  std::vector<char32_t> cps;
  for (std::size_t i = b; i < e; ++i) {
    if (d.cps[i] != ' ') cps.push_back(d.cps[i]);
  }
  std::vector<char32_t> kept;
  for (std::size_t i = 0; i < cps.size(); ++i) {
    if (i + 2 < cps.size() && cps[i] == '<' && cps[i + 1] == 'q' && cps[i + 2] == '>') {
      i += 2;
      continue;
    }
    kept.push_back(cps[i]);
  }
  // period_eos: the script's end-of-sentence token; every other token is one code point, so this
  // two-character string equals none of them.
  static const std::string kEos = "</s>";
  std::vector<std::vector<std::string>> out(1);
  for (char32_t c : kept) {
    out.back().push_back(encode_utf8(c));
    if (c != U'。' || split == ZhSplit::none) continue;
    if (split == ZhSplit::period_eos) out.back().push_back(kEos);
    out.emplace_back();
  }
  if (out.back().empty()) out.pop_back();
  return out;
}

std::vector<std::vector<std::string>> rouge_tokens_en(std::string_view text) {
  // One sentence: the whole summary (see rouge.h for why).
  std::vector<std::string> toks;
  std::string cur;
  for (char ch : text) {
    const char c = (ch >= 'A' && ch <= 'Z') ? static_cast<char>(ch + 32) : ch;
    if ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9')) {
      cur.push_back(c);
    } else if (!cur.empty()) {
      toks.push_back(cur);
      cur.clear();
    }
  }
  if (!cur.empty()) toks.push_back(cur);
  std::vector<std::vector<std::string>> out;
  if (!toks.empty()) out.push_back(std::move(toks));
  return out;
}

RougeScores rouge(std::string_view candidate, std::string_view reference, RougeLang lang,
                  ZhSplit zh_split) {
  std::unordered_map<std::string, int> vocab;
  const auto c =
      lang == RougeLang::zh ? rouge_tokens_zh(candidate, zh_split) : rouge_tokens_en(candidate);
  const auto r =
      lang == RougeLang::zh ? rouge_tokens_zh(reference, zh_split) : rouge_tokens_en(reference);
  const TokenSentences ri = to_ids(r, &vocab), ci = to_ids(c, &vocab);
  return rouge_all(ci, ri);
}

MultiRougeScores rouge_multi(std::string_view candidate, const std::vector<std::string>& references,
                             RougeLang lang, ZhSplit zh_split) {
  KESSEL_CHECK_ARG(!references.empty(), "rouge_multi: references is empty");
  MultiRougeScores m;
  RougeScore* best[3] = {&m.best.rouge1, &m.best.rouge2, &m.best.rougeL};
  RougeScore* avg[3] = {&m.avg.rouge1, &m.avg.rouge2, &m.avg.rougeL};
  bool first = true;
  for (const auto& ref : references) {
    const RougeScores s = rouge(candidate, ref, lang, zh_split);
    const RougeScore* got[3] = {&s.rouge1, &s.rouge2, &s.rougeL};
    for (int k = 0; k < 3; ++k) {
      if (first || got[k]->f1 > best[k]->f1) *best[k] = *got[k];
      avg[k]->precision += got[k]->precision / static_cast<double>(references.size());
      avg[k]->recall += got[k]->recall / static_cast<double>(references.size());
      avg[k]->f1 += got[k]->f1 / static_cast<double>(references.size());
    }
    first = false;
  }
  return m;
}

RougeCorpus rouge_corpus(const std::vector<std::string>& candidates,
                         const std::vector<std::vector<std::string>>& references, RougeLang lang,
                         ZhSplit zh_split) {
  KESSEL_CHECK_ARG(candidates.size() == references.size(), "rouge_corpus: ", candidates.size(),
                   " candidates but ", references.size(), " reference sets");
  RougeCorpus out;
  out.count = candidates.size();
  if (candidates.empty()) return out;
  const double w = 1.0 / static_cast<double>(candidates.size());
  for (std::size_t i = 0; i < candidates.size(); ++i) {
    KESSEL_CHECK_ARG(!references[i].empty(), "rouge_corpus: reference set ", i, " is empty");
    const MultiRougeScores s = rouge_multi(candidates[i], references[i], lang, zh_split);
    auto acc = [w](RougeScores& dst, const RougeScores& src) {
      for (auto [d, s2] : {std::pair{&dst.rouge1, &src.rouge1}, std::pair{&dst.rouge2, &src.rouge2},
                           std::pair{&dst.rougeL, &src.rougeL}}) {
        d->precision += w * s2->precision;
        d->recall += w * s2->recall;
        d->f1 += w * s2->f1;
      }
    };
    acc(out.mean.best, s.best);
    acc(out.mean.avg, s.avg);
  }
  return out;
}

}  // namespace kessel::text
