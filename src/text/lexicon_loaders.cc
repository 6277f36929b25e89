// Loaders for the external lexicons in ../shared/data/lexicons. The mapping decisions are
// documented in kessel/text/lexicon.h and docs/text.md.
#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <nlohmann/json.hpp>
#include <optional>
#include <sstream>

#include "kessel/error.h"
#include "kessel/text/lexicon.h"
#include "kessel/text/utf8.h"
#include "util/csv_row.h"
#include "lexicon_lines.h"
#include "util/json_strict.h"

namespace kessel::text {

namespace {

std::ifstream open_or_throw(const std::string& path, const char* who) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw IoError(std::string(who) + ": cannot open '" + path + "'");
  return in;
}

std::vector<std::string> split_char(const std::string& line, char sep) {
  std::vector<std::string> out;
  std::string cur;
  for (char ch : line) {
    if (ch == sep) {
      out.push_back(cur);
      cur.clear();
    } else if (ch != '\r') {
      cur.push_back(ch);
    }
  }
  out.push_back(cur);
  return out;
}

bool parse_int(const std::string& s, long* value) {
  if (s.empty()) return false;
  char* end = nullptr;
  *value = std::strtol(s.c_str(), &end, 10);
  return *end == '\0';
}

bool contains_any(const std::string& name, std::initializer_list<const char*> keys) {
  for (const char* k : keys) {
    if (name.find(k) != std::string::npos) return true;
  }
  return false;
}

nlohmann::json read_json(const std::string& path, const char* who) {
  auto in = open_or_throw(path, who);
  std::stringstream ss;
  ss << in.rdbuf();
  const std::string content = ss.str();
  if (const auto bad = find_invalid_utf8(content)) {
    throw ParseError(path, 0, detail::concat(who, ": invalid UTF-8 at byte offset ", *bad));
  }
  try {
    return util::parse_json_strict(content);
  } catch (const util::JsonStructureError& e) {
    throw ParseError(path, 0, std::string(who) + ": " + e.what());
  } catch (const nlohmann::json::parse_error& e) {
    throw ParseError(path, 0, std::string(who) + ": " + e.what());
  }
}

}  // namespace

std::optional<Emotion> dutir_class_emotion(std::string_view code) {
  if (code == "PA" || code == "PE" || code == "PB") return Emotion::joy;
  if (code == "PD" || code == "PG" || code == "PH") return Emotion::trust;
  if (code == "PK") return Emotion::anticipation;
  if (code == "NA") return Emotion::anger;
  if (code == "NB" || code == "NJ" || code == "NH" || code == "PF") return Emotion::sadness;
  if (code == "NI" || code == "NC" || code == "NG") return Emotion::fear;
  if (code == "NE" || code == "ND" || code == "NN" || code == "NK" || code == "NL") {
    return Emotion::disgust;
  }
  if (code == "PC") return Emotion::surprise;
  return std::nullopt;
}

bool dutir_expressive(std::string_view pos, std::string_view code, long intensity) {
  // Judgements of a claim, a person or a thing rather than feelings: belief and doubt are
  // modal words (PG 确定 必须 一定, NL 不是 不够 什么的), respect is honorifics (PD 师傅 申请),
  // praise is a quality (PH 一级 准确 到家). Their strong rows are superlatives, so intensity
  // does not help.
  if (code == "PD" || code == "PG" || code == "PH" || code == "NL") return false;
  // Nouns name people and things (朋友 PB 9, 后台, 天才); verbs and adverbs name actions and
  // manners (成功, 原来, 确实) unless strong (怨恨, 痛惜); DUTIR's weak grades 1 and 3 are mostly
  // ordinary words (通过, 普通, 不对, 具体).
  if (pos == "noun") return false;
  return intensity >= (pos == "verb" || pos == "adv" ? 7 : 5);
}

namespace {
// DUTIR's judgement classes (dutir_expressive) judge rather than feel.
MentionKind dutir_kind(std::string_view code) {
  return code == "PD" || code == "PG" || code == "PH" || code == "NL" ? MentionKind::judgement
                                                                       : MentionKind::feeling;
}
}  // namespace

void add_dutir(Lexicon& lexicon, const std::string& path, LoadReport* report) {
  auto in = open_or_throw(path, "add_dutir");
  LoadReport local;
  LoadReport& r = report != nullptr ? *report : local;
  r.path = path;
  std::string line;
  long line_no = 0;
  const auto polarity_of = [](long p) {
    switch (p) {
      case 1:
        return Polarity::positive;
      case 2:
        return Polarity::negative;
      case 3:
        return Polarity::both;
      default:
        return Polarity::neutral;
    }
  };
  while (std::getline(in, line)) {
    ++line_no;
    refuse_nul_byte(line, path, line_no);
    if (line_no == 1) {
      if (line.rfind("\xEF\xBB\xBF", 0) == 0) line.erase(0, 3);
      if (line.rfind("词语", 0) != 0) {
        throw ParseError(path, 1, "header: expected a DUTIR header starting with 词语");
      }
      continue;
    }
    if (line.empty() || line == "\r") continue;
    if (!is_valid_utf8(line)) {
      r.skip("invalid UTF-8");
      continue;
    }
    // RFC 4180: DUTIR quotes idioms that hold a comma ("眉头一皱,计上心头").
    const auto fields = util::split_csv_row(line);
    if (!fields) {
      r.skip("unterminated quote");
      continue;
    }
    const auto& f = *fields;
    if (f.size() < 7) {
      r.skip("fewer than 7 columns");
      continue;
    }
    const std::string term = f[0];
    long strength = 0, polarity = 0;
    const auto emotion = dutir_class_emotion(f[4]);
    if (term.empty()) {
      r.skip("empty term");
      continue;
    }
    if (!emotion) {
      r.skip("unknown class '" + f[4] + "'");
      continue;
    }
    if (!parse_int(f[5], &strength) || strength < 1 || strength > 9) {
      r.skip("intensity not in 1..9");
      continue;
    }
    if (!parse_int(f[6], &polarity) || polarity < 0 || polarity > 3) polarity = 0;
    // Polarity 0 (neutral) is common on clearly emotional classes (愤怒 is NA with polarity 0); the
    // class then decides, except for surprise, which stays neutral.
    const Polarity p = polarity == 0 ? default_polarity(*emotion) : polarity_of(polarity);
    lexicon.add(term, LexiconEntry{*emotion, static_cast<float>(strength) / 9.0f, p, "dutir",
                                   dutir_expressive(f[1], f[4], strength), Language::zh,
                                   dutir_kind(f[4])});
    ++r.loaded;
    // Auxiliary class (columns 8..10), when present and well formed.
    if (f.size() >= 9 && !f[7].empty()) {
      const auto aux = dutir_class_emotion(f[7]);
      long aux_strength = 0, aux_polarity = 0;
      if (aux && parse_int(f[8], &aux_strength) && aux_strength >= 1 && aux_strength <= 9) {
        if (f.size() < 10 || !parse_int(f[9], &aux_polarity)) aux_polarity = polarity;
        const Polarity ap = aux_polarity == 0 ? default_polarity(*aux) : polarity_of(aux_polarity);
        lexicon.add(term, LexiconEntry{*aux, static_cast<float>(aux_strength) / 9.0f, ap, "dutir",
                                       dutir_expressive(f[1], f[7], aux_strength), Language::zh,
                                       dutir_kind(f[7])});
        ++r.loaded;
      } else {
        r.skip("malformed auxiliary class");
      }
    }
  }
}

void add_nrc_emolex(Lexicon& lexicon, const std::string& path, LoadReport* report) {
  auto in = open_or_throw(path, "add_nrc_emolex");
  LoadReport local;
  LoadReport& r = report != nullptr ? *report : local;
  r.path = path;
  struct Word {
    std::vector<Emotion> emotions;
    int positive = 0, negative = 0;
  };
  std::vector<std::pair<std::string, Word>> words;  // file order
  std::string line;
  long line_no = 0;
  while (std::getline(in, line)) {
    ++line_no;
    refuse_nul_byte(line, path, line_no);
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.empty()) continue;
    const auto f = split_char(line, '\t');
    if (f.size() != 3 || (f[2] != "0" && f[2] != "1")) {
      throw ParseError(path, line_no, "expected word<TAB>label<TAB>0|1");
    }
    if (words.empty() || words.back().first != f[0]) words.emplace_back(f[0], Word{});
    if (f[2] != "1") continue;
    Word& w = words.back().second;
    if (f[1] == "positive") {
      w.positive = 1;
    } else if (f[1] == "negative") {
      w.negative = 1;
    } else if (const auto e = parse_emotion(f[1])) {
      w.emotions.push_back(*e);
    } else {
      throw ParseError(path, line_no, "label: unknown label '" + f[1] + "'");
    }
  }
  for (const auto& [term, w] : words) {
    if (w.emotions.empty()) {
      r.skip(w.positive || w.negative ? "polarity only, no emotion" : "no association");
      continue;
    }
    for (Emotion e : w.emotions) {
      Polarity p = default_polarity(e);
      if (w.positive && !w.negative) p = Polarity::positive;
      if (w.negative && !w.positive) p = Polarity::negative;
      if (w.negative && w.positive) p = Polarity::both;
      lexicon.add(term, LexiconEntry{e, kNrcIntensity, p, "nrc", true, Language::en});
      ++r.loaded;
    }
  }
}

void add_emoji_sentiment(Lexicon& lexicon, const std::string& path, LoadReport* report) {
  auto in = open_or_throw(path, "add_emoji_sentiment");
  LoadReport local;
  LoadReport& r = report != nullptr ? *report : local;
  r.path = path;
  std::string line;
  long line_no = 0;
  while (std::getline(in, line)) {
    ++line_no;
    refuse_nul_byte(line, path, line_no);
    if (line_no == 1) {
      if (line.find("Negative") == std::string::npos) {
        throw ParseError(path, 1, "header: expected Emoji,Unicode codepoint,Occurrences,...");
      }
      continue;
    }
    if (line.empty() || line == "\r") continue;
    const auto f = split_char(line, ',');
    long occ = 0, neg = 0, neu = 0, pos = 0;
    if (f.size() < 7 || !parse_int(f[2], &occ) || !parse_int(f[4], &neg) ||
        !parse_int(f[5], &neu) || !parse_int(f[6], &pos)) {
      r.skip("malformed row");
      continue;
    }
    if (neg < 0 || neu < 0 || pos < 0) {
      r.skip("negative count");
      continue;
    }
    if (!is_valid_utf8(f[0]) || f[0].empty()) {
      r.skip("invalid emoji field");
      continue;
    }
    if (occ < 5) {
      r.skip("fewer than 5 occurrences");
      continue;
    }
    // In double: counts near LONG_MAX would overflow a sum of longs.
    const double s = (static_cast<double>(pos) - static_cast<double>(neg)) /
                     (static_cast<double>(pos) + static_cast<double>(neu) + static_cast<double>(neg) + 3.0);
    const float intensity = static_cast<float>(std::min(1.0, std::fabs(s) * 2.0));
    LexiconEntry e{Emotion::joy, intensity, Polarity::neutral, "emoji_sentiment"};
    if (s >= 0.05) {
      e.polarity = Polarity::positive;
    } else if (s <= -0.05) {
      e.emotion = Emotion::sadness;
      e.polarity = Polarity::negative;
    }
    lexicon.add(f[0], e);
    ++r.loaded;
  }
}

void add_emoji_emotion_json(Lexicon& lexicon, const std::string& path, LoadReport* report) {
  const nlohmann::json j = read_json(path, "add_emoji_emotion_json");
  LoadReport local;
  LoadReport& r = report != nullptr ? *report : local;
  r.path = path;
  if (!j.is_array()) throw ParseError(path, 0, "add_emoji_emotion_json: expected a JSON array");
  for (const auto& item : j) {
    if (!item.is_object() || !item.contains("emoji") || !item["emoji"].is_string() ||
        !item.contains("polarity") || !item["polarity"].is_number()) {
      r.skip("missing emoji or polarity");
      continue;
    }
    const std::string emoji = item["emoji"].get<std::string>();
    const std::string name = item.value("name", std::string());
    const double v = item["polarity"].get<double>();
    if (!(v >= -5.0 && v <= 5.0)) {
      r.skip("polarity outside -5..5");
      continue;
    }
    LexiconEntry e{Emotion::joy, static_cast<float>(std::fabs(v) / 5.0), Polarity::neutral,
                   "emoji_emotion"};
    if (v > 0) {
      e.polarity = Polarity::positive;
      if (contains_any(name, {"astonished", "open_mouth", "hushed", "flushed"})) {
        e.emotion = Emotion::surprise;
      }
    } else if (v < 0) {
      e.polarity = Polarity::negative;
      if (contains_any(name, {"angry", "rage", "pout", "triumph", "imp", "cursing", "symbols"})) {
        e.emotion = Emotion::anger;
      } else if (contains_any(name,
                              {"fear", "scream", "cold_sweat", "anguished", "grimac", "worried"})) {
        e.emotion = Emotion::fear;
      } else if (contains_any(name, {"nause", "vomit", "poop", "unamused", "confounded", "persever",
                                     "skull", "clown"})) {
        e.emotion = Emotion::disgust;
      } else {
        e.emotion = Emotion::sadness;
      }
    }
    lexicon.add(emoji, e);
    ++r.loaded;
  }
}

void add_emoticon_json(Lexicon& lexicon, const std::string& path, LoadReport* report) {
  const nlohmann::json j = read_json(path, "add_emoticon_json");
  LoadReport local;
  LoadReport& r = report != nullptr ? *report : local;
  r.path = path;
  if (!j.is_array()) throw ParseError(path, 0, "add_emoticon_json: expected a JSON array");
  for (const auto& item : j) {
    if (!item.is_object() || !item.contains("emoji") || !item["emoji"].is_string() ||
        !item.contains("emoticons") || !item["emoticons"].is_array()) {
      r.skip("missing emoji or emoticons");
      continue;
    }
    // Copied: adding the emoticons may reallocate the lexicon's storage.
    std::optional<LexiconEntry> base;
    if (const LexiconEntry* found = lexicon.primary(item["emoji"].get<std::string>()))
      base = *found;
    for (const auto& emoticon : item["emoticons"]) {
      if (!emoticon.is_string() || emoticon.get<std::string>().empty()) {
        r.skip("emoticon not a non-empty string");
        continue;
      }
      if (!base) {
        r.skip("emoji not in lexicon");
        continue;
      }
      LexiconEntry e = *base;
      e.source = "emoticon";
      lexicon.add(emoticon.get<std::string>(), e);
      ++r.loaded;
    }
  }
}

}  // namespace kessel::text
