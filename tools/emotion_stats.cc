// emotion_stats: what detect_emotions finds in the customer turns of a dialogue file, for
// measuring a change to the detection rules or the lexicons (docs/text.md quotes its figures).
//
//   build/emotion_stats [--lexicon-dir DIR] [--external DIR] [--no-language-filter]
//                       [--kinds-from DIR] [--top N] [--show TERM] [--dump] FILE...
//
// Loads the default lexicon (DIR, else data/lexicon of the source tree); with --external DIR also
// the DUTIR, NRC and emoji lexicons under DIR (../shared/data/lexicons). Prints per file:
// dialogues, the languages of the customer turns, the share of dialogues with an expressed customer
// mention and with an expressed feeling, expressed mentions per kind, and the most frequent
// expressed terms (all kinds, then feelings). --kinds-from classifies the mentions with another
// default lexicon's kinds (to classify what an older lexicon found); --show prints the turns where
// TERM is expressed; --dump prints one line per expressed customer mention instead of the summary
// (id, turn, char_start, char_end, strength, kind, term, expression; tab-separated), to compare
// with tests/data/emotion_labels; each customer turn first as a line T, id, turn, text.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <string>
#include <vector>

#include "kessel/text/dialogue.h"
#include "kessel/text/emotion.h"
#include "kessel/text/language.h"
#include "kessel/text/lexicon.h"

using namespace kessel::text;

namespace {

struct Args {
  std::string lexicon_dir = KESSEL_SOURCE_DIR "/data/lexicon";
  std::string external, kinds_from, show;
  bool filter = true;
  bool dump = false;
  std::size_t top = 15;
  std::vector<std::string> files;
};

Lexicon load(const Args& a) {
  Lexicon lex = load_default_lexicon(a.lexicon_dir);
  if (a.external.empty()) return lex;
  add_dutir(lex, a.external + "/dutir_zh/dutir_emotion_ontology.csv");
  add_nrc_emolex(lex, a.external + "/nrc_emolex_en/NRC-Emotion-Lexicon-Wordlevel-v0.92.txt");
  add_emoji_sentiment(lex, a.external + "/emoji/Emoji_Sentiment_Data_v1.0.csv");
  add_emoji_emotion_json(lex, a.external + "/emoji/emoji-emotion-3.0.1.json");
  add_emoticon_json(lex, a.external + "/emoji/emoticon-4.1.0.json");
  return lex;
}

void print_top(const char* what, const std::map<std::string, long>& counts, std::size_t top) {
  std::vector<std::pair<std::string, long>> sorted(counts.begin(), counts.end());
  std::stable_sort(sorted.begin(), sorted.end(),
                   [](const auto& a, const auto& b) { return a.second > b.second; });
  std::printf("  %s:", what);
  for (std::size_t i = 0; i < sorted.size() && i < top; ++i)
    std::printf(" %s %ld%s", sorted[i].first.c_str(), sorted[i].second,
                i + 1 < top && i + 1 < sorted.size() ? "," : "");
  std::printf("\n");
}

void report(const std::string& path, const Lexicon& lex, const Lexicon* kinds, const Args& a) {
  ReadOptions ro;
  ro.on_error = OnError::skip;
  const ReadResult data = read_dialogues(path, ro);
  std::map<std::string, long> terms, feelings, languages;
  std::map<std::string, long> per_kind, strongest_kind,
      strongest;  // the strongest mention per dialogue
  long any = 0, any_feeling = 0;
  DetectOptions options;
  options.filter_by_language = a.filter;
  for (const Dialogue& d : data.dialogues) {
    bool expressed = false, feeling = false;
    const EmotionMention* best = nullptr;
    MentionKind best_kind = MentionKind::feeling;
    std::vector<TurnEmotions> turns;  // kept so that `best` stays valid
    turns.reserve(d.turns.size());
    for (std::size_t t = 0; t < d.turns.size(); ++t) {
      if (d.turns[t].speaker != Speaker::customer) continue;
      if (a.dump) std::printf("T\t%s\t%zu\t%s\n", d.id.c_str(), t, d.turns[t].text.c_str());
      turns.push_back(detect_turn_emotions(d.turns[t].text, lex, static_cast<int>(t), options));
      const TurnEmotions& te = turns.back();
      ++languages[to_string(te.language)];
      for (const EmotionMention& m : te.mentions) {
        if (!m.expressed) continue;
        MentionKind kind = m.kind;
        if (kinds != nullptr) {
          const LexiconEntry* e = kinds->primary(m.term);
          kind = e != nullptr ? e->kind : MentionKind::feeling;
        }
        const std::string term = normalize_term(m.term);
        expressed = true;
        feeling |= kind == MentionKind::feeling;
        if (best == nullptr || m.strength > best->strength) best = &m, best_kind = kind;
        if (a.dump)
          std::printf("%s\t%zu\t%lld\t%lld\t%.3f\t%s\t%s\t%s\n", d.id.c_str(), t,
                      static_cast<long long>(m.char_start), static_cast<long long>(m.char_end),
                      static_cast<double>(m.strength), to_string(kind), term.c_str(),
                      m.expression.c_str());
        ++terms[term];
        ++per_kind[to_string(kind)];
        if (kind == MentionKind::feeling) ++feelings[term];
        if (!a.show.empty() && term == a.show)
          std::printf("  [%s] %s | %s\n", d.id.c_str(), m.expression.c_str(),
                      d.turns[t].text.c_str());
      }
    }
    any += expressed;
    any_feeling += feeling;
    if (best != nullptr) {
      ++strongest_kind[to_string(best_kind)];
      ++strongest[best->expression];
    }
  }
  if (a.dump) return;
  const double n = static_cast<double>(std::max<std::size_t>(1, data.dialogues.size()));
  std::printf("%s: %zu dialogues\n", path.c_str(), data.dialogues.size());
  std::printf("  customer turns by language:");
  for (const auto& [l, c] : languages) std::printf(" %s %ld", l.c_str(), c);
  std::printf("\n  with an expressed customer mention: %.1f%%; with an expressed feeling: %.1f%%\n",
              100.0 * static_cast<double>(any) / n, 100.0 * static_cast<double>(any_feeling) / n);
  std::printf("  expressed mentions by kind:");
  for (const auto& [k, c] : per_kind) std::printf(" %s %ld", k.c_str(), c);
  std::printf("\n");
  std::printf("  the strongest expressed mention of a dialogue is a:");
  for (const auto& [k, c] : strongest_kind) std::printf(" %s %ld", k.c_str(), c);
  std::printf("\n");
  print_top("top expressed terms", terms, a.top);
  print_top("top strongest expressions", strongest, a.top);
  print_top("top expressed feelings", feelings, a.top);
}

}  // namespace

int main(int argc, char** argv) {
  Args a;
  for (int i = 1; i < argc; ++i) {
    const std::string s = argv[i];
    const bool has_value = i + 1 < argc;
    if (s == "--external" && has_value)
      a.external = argv[++i];
    else if (s == "--lexicon-dir" && has_value)
      a.lexicon_dir = argv[++i];
    else if (s == "--kinds-from" && has_value)
      a.kinds_from = argv[++i];
    else if (s == "--show" && has_value)
      a.show = argv[++i];
    else if (s == "--top" && has_value)
      a.top = static_cast<std::size_t>(std::atol(argv[++i]));
    else if (s == "--dump")
      a.dump = true;
    else if (s == "--no-language-filter")
      a.filter = false;
    else
      a.files.push_back(s);
  }
  if (a.files.empty()) {
    std::fprintf(stderr,
                 "usage: emotion_stats [--lexicon-dir DIR] [--external DIR] [--no-language-filter] "
                 "[--kinds-from DIR] [--top N] [--show TERM] [--dump] FILE...\n");
    return 2;
  }
  try {
    const Lexicon lex = load(a);
    Lexicon kinds;
    if (!a.kinds_from.empty()) kinds = load_default_lexicon(a.kinds_from);
    for (const auto& f : a.files) report(f, lex, a.kinds_from.empty() ? nullptr : &kinds, a);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "emotion_stats: %s\n", e.what());
    return 1;
  }
  return 0;
}
