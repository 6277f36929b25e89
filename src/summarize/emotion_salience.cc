// The learned choice of the customer unit with the strongest feeling (emotion_salience.h).
#include "emotion_salience.h"

#include <algorithm>
#include <cmath>
#include <string>
#include <string_view>

#include "kessel/text/utf8.h"

namespace kessel::summarize::salience {

namespace {

#include "emotion_salience_weights.inc"

const std::array<const char*, kNumFeatures> kNames = {"bias",
                                                      "mention_strength",
                                                      "feeling",
                                                      "cue",
                                                      "report",
                                                      "judgement",
                                                      "dialogue_top",
                                                      "mentions",
                                                      "question",
                                                      "exclamation",
                                                      "repeated_marks",
                                                      "emoji",
                                                      "log_length",
                                                      "short",
                                                      "position",
                                                      "after_refusal",
                                                      "negator",
                                                      "degree",
                                                      "why",
                                                      "still",
                                                      "resignation",
                                                      "particle_caps",
                                                      "first_customer",
                                                      "log_customer_units"};

// Words, per language. Chinese is matched as a substring, English as a whole lower-case token
// (or, for the phrases with a space, as a substring of the lower-cased unit).
struct Words {
  std::vector<std::string_view> refusal, negator, degree, why, still, resignation, particle;
};

const Words kZh = {
    {"不能", "无法", "没办法", "不可以", "抱歉", "遗憾", "不支持", "没有办法", "只能", "不了"},
    {"不", "没", "别", "未"},
    {"太", "真", "很", "非常", "这么", "那么", "特别", "简直"},
    {"为什么", "怎么还", "凭什么", "怎么回事", "什么意思", "怎么又"},
    {"还", "一直", "又", "都"},
    {"好吧", "行吧", "算了", "哎", "唉", "那好", "只能这样"},
    {"啊", "呀", "啦", "嘛"},
};

const Words kEn = {
    {"sorry", "unfortunately", "unable", "can't", "cannot", "apologize", "apologise", "not able",
     "won't"},
    {"not", "no", "never", "n't", "don't", "didn't", "doesn't", "isn't", "wasn't", "can't",
     "won't"},
    {"so", "really", "very", "too", "such", "extremely", "totally", "absolutely"},
    {"why", "how come", "what gives", "seriously"},
    {"still", "yet", "again", "already", "days", "weeks", "hours"},
    {"whatever", "forget it", "fine", "ok then", "okay then", "oh well", "never mind"},
    {},
};

bool has_any(std::string_view text, const std::vector<std::string_view>& words) {
  return std::any_of(words.begin(), words.end(),
                     [&](std::string_view w) { return text.find(w) != std::string_view::npos; });
}

// English: a word list entry matches a whole token, or a phrase (with a space or an apostrophe)
// anywhere in the lower-cased text.
bool has_word(const std::vector<text::Token>& tokens, std::string_view lower,
              const std::vector<std::string_view>& words) {
  for (std::string_view w : words) {
    if (w.find(' ') != std::string_view::npos || w.find('\'') != std::string_view::npos) {
      if (lower.find(w) != std::string_view::npos) return true;
      continue;
    }
    if (std::any_of(tokens.begin(), tokens.end(),
                    [&](const text::Token& t) { return t.lower == w; }))
      return true;
  }
  return false;
}

// The turn before unit u's turn, when it is the agent's.
const std::string* agent_turn_before(const Prepared& p, std::size_t u) {
  if (p.dialogue == nullptr) return nullptr;
  const int turn = p.units[u].turn;
  if (turn <= 0) return nullptr;
  const auto& before = p.dialogue->turns[static_cast<std::size_t>(turn - 1)];
  return before.speaker == text::Speaker::customer ? nullptr : &before.text;
}

std::string lowered(std::string_view s) {
  std::string out(s);
  for (char& ch : out)
    if (ch >= 'A' && ch <= 'Z') ch = static_cast<char>(ch - 'A' + 'a');
  return out;
}

bool repeated_marks(std::string_view t) {
  for (std::string_view run :
       {"！！", "？？", "!!", "??", "?!", "!?", "？！", "！？", "。。。", "...", "……", "…"})
    if (t.find(run) != std::string_view::npos) return true;
  return false;
}

bool is_question(std::string_view t, Lang lang) {
  if (t.find('?') != std::string_view::npos || t.find("？") != std::string_view::npos) return true;
  if (lang != Lang::zh) return false;
  for (std::string_view end : {"吗", "吧", "呢"})
    if (t.size() >= end.size() && t.compare(t.size() - end.size(), end.size(), end) == 0)
      return true;
  return false;
}

// A word of at least three letters written in capitals ("NEVER", "WORST").
bool has_caps_word(const std::vector<text::Token>& tokens) {
  for (const auto& t : tokens) {
    if (t.kind != text::TokenKind::word || t.text.size() < 3) continue;
    if (std::all_of(t.text.begin(), t.text.end(), [](char ch) { return ch >= 'A' && ch <= 'Z'; }))
      return true;
  }
  return false;
}

// What every unit's features share: computed once per dialogue, so that scoring all of its units
// stays linear in the dialogue's length.
struct DialogueFacts {
  float strongest_expressed = 0.0f;       // the strongest expressed mention's strength
  int customer_units = 0;
  std::size_t first_customer = 0;         // the first customer unit's index (units.size(): none)
  std::vector<std::vector<int>> mentions;  // [U] the expressed mentions of each unit
};

DialogueFacts dialogue_facts(const Prepared& p) {
  DialogueFacts d;
  d.first_customer = p.units.size();
  d.mentions.resize(p.units.size());
  for (std::size_t m = 0; m < p.mentions.size(); ++m) {
    if (!p.mentions[m].expressed) continue;
    d.strongest_expressed = std::max(d.strongest_expressed, p.mentions[m].strength);
    const int u = p.mention_unit[m];
    if (u >= 0 && static_cast<std::size_t>(u) < p.units.size())
      d.mentions[static_cast<std::size_t>(u)].push_back(static_cast<int>(m));
  }
  for (std::size_t v = 0; v < p.units.size(); ++v) {
    if (p.units[v].speaker != text::Speaker::customer) continue;
    if (d.customer_units++ == 0) d.first_customer = v;
  }
  return d;
}

Features features_with(const Prepared& p, std::size_t u, const DialogueFacts& d) {
  Features f{};
  f[0] = 1.0f;
  const Unit& unit = p.units[u];
  if (unit.speaker != text::Speaker::customer) return f;
  const bool zh = p.lang == Lang::zh;
  const Words& words = zh ? kZh : kEn;
  const std::string lower = zh ? std::string() : lowered(unit.text);  // English words only
  const auto& tokens = p.unit_tokens[u];
  // What the detector found: the unit's strongest expressed mention, and whether it is the
  // dialogue's.
  float strongest = 0.0f;
  const int count = static_cast<int>(d.mentions[u].size());
  for (const int m : d.mentions[u]) {
    const auto& mention = p.mentions[static_cast<std::size_t>(m)];
    strongest = std::max(strongest, mention.strength);
    const bool cue = mention.source.rfind("cue:", 0) == 0;
    if (cue)
      f[3] = 1.0f;
    else if (mention.kind == text::MentionKind::feeling)
      f[2] = 1.0f;
    else if (mention.kind == text::MentionKind::report)
      f[4] = 1.0f;
    else
      f[5] = 1.0f;
  }
  f[1] = strongest;
  f[6] = count > 0 && strongest >= d.strongest_expressed - 1e-6f ? 1.0f : 0.0f;
  f[7] = static_cast<float>(std::min(count, 3)) / 3.0f;
  f[8] = is_question(unit.text, p.lang) ? 1.0f : 0.0f;
  f[9] = unit.text.find('!') != std::string::npos || unit.text.find("！") != std::string::npos
             ? 1.0f
             : 0.0f;
  f[10] = repeated_marks(unit.text) ? 1.0f : 0.0f;
  f[11] = std::any_of(tokens.begin(), tokens.end(),
                      [](const text::Token& t) {
                        return t.kind == text::TokenKind::emoji ||
                               t.kind == text::TokenKind::emoticon ||
                               t.kind == text::TokenKind::weibo_emoticon;
                      })
              ? 1.0f
              : 0.0f;
  f[12] = static_cast<float>(std::log1p(unit.chars) / 4.0);
  f[13] = unit.chars <= (zh ? 6 : 20) ? 1.0f : 0.0f;
  const int turns = p.dialogue ? static_cast<int>(p.dialogue->turns.size()) : 1;
  f[14] = turns > 1 ? static_cast<float>(unit.turn) / static_cast<float>(turns - 1) : 0.0f;
  const std::string* before = agent_turn_before(p, u);
  if (before != nullptr)
    f[15] = has_any(zh ? std::string_view(*before) : lowered(*before), words.refusal) ? 1.0f : 0.0f;
  auto present = [&](const std::vector<std::string_view>& list) {
    return (zh ? has_any(unit.text, list) : has_word(tokens, lower, list)) ? 1.0f : 0.0f;
  };
  f[16] = present(words.negator);
  f[17] = present(words.degree);
  f[18] = present(words.why);
  f[19] = present(words.still);
  f[20] = present(words.resignation);
  f[21] = zh ? present(words.particle) : (has_caps_word(tokens) ? 1.0f : 0.0f);
  f[22] = u == d.first_customer ? 1.0f : 0.0f;
  f[23] = static_cast<float>(std::log1p(d.customer_units) / 4.0);
  return f;
}

}  // namespace

const std::array<const char*, kNumFeatures>& feature_names() { return kNames; }

Features unit_features(const Prepared& p, std::size_t u) {
  return features_with(p, u, dialogue_facts(p));
}

bool is_courtesy(std::string_view text) {
  static const std::vector<std::string_view> kWords = {"谢",         "好的",   "没有了", "没啦",
                                                       "没别的问题", "没有啦", "不客气"};
  if (has_any(text, kWords)) return true;
  const std::string lower = lowered(text);
  for (std::string_view w : {"thank", "thx"})
    if (lower.find(w) != std::string::npos) return true;
  return false;
}

const Weights& builtin_weights(Lang lang) { return lang == Lang::zh ? kWeightsZh : kWeightsEn; }

double logit(const Weights& weights, const Features& f) {
  double z = 0.0;
  for (std::size_t k = 0; k < f.size(); ++k) z += static_cast<double>(weights.w[k]) * f[k];
  return z;
}

std::vector<double> unit_probabilities(const Prepared& p, const Weights& weights) {
  std::vector<double> out(p.units.size(), 0.0);
  double top = 0.0;  // "none" has logit 0
  std::vector<char> customer(p.units.size(), 0);
  const DialogueFacts facts = dialogue_facts(p);
  for (std::size_t u = 0; u < p.units.size(); ++u)
    if (p.units[u].speaker == text::Speaker::customer) {
      customer[u] = 1;
      out[u] = logit(weights, features_with(p, u, facts));
      top = std::max(top, out[u]);
    }
  double z = std::exp(-top);
  for (std::size_t u = 0; u < out.size(); ++u)
    if (customer[u]) z += (out[u] = std::exp(out[u] - top));
  for (double& x : out) x /= z;
  return out;
}

int target_unit(const Prepared& p, const Weights& weights, const std::vector<char>& eligible) {
  if (weights.threshold > 1.0f) return -1;  // a table that is off
  const std::vector<double> pr = unit_probabilities(p, weights);
  int best = -1;
  for (std::size_t u = 0; u < pr.size(); ++u)
    if (p.units[u].speaker == text::Speaker::customer && (eligible.empty() || eligible[u]) &&
        (best < 0 || pr[u] > pr[static_cast<std::size_t>(best)]))
      best = static_cast<int>(u);
  return best >= 0 && pr[static_cast<std::size_t>(best)] >= static_cast<double>(weights.threshold)
             ? best
             : -1;
}

}  // namespace kessel::summarize::salience
