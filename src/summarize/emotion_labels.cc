// The labelled emotion set: loading, the strongest-emotion metric, detection precision and recall
// (include/kessel/summarize/emotion_labels.h).
#include "kessel/summarize/emotion_labels.h"

#include <algorithm>
#include <fstream>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <nlohmann/json.hpp>

#include "kessel/error.h"
#include "kessel/text/utf8.h"

namespace kessel::summarize {

using nlohmann::json;

const LabelledExpression* DialogueLabels::strongest() const {
  for (const auto& e : expressions)
    if (e.strongest) return &e;
  return nullptr;
}

const DialogueLabels* EmotionLabelSet::find(const std::string& id) const {
  const auto it = by_id.find(id);
  return it == by_id.end() ? nullptr : &dialogues[it->second];
}

namespace {

struct Where {
  const std::string& file;
  long line;
  [[noreturn]] void fail(const std::string& field, const std::string& what) const {
    throw ParseError(file, line, field + ": " + what);
  }
};

const json& need(const Where& w, const json& obj, const char* key, const std::string& prefix) {
  const auto it = obj.find(key);
  if (it == obj.end()) w.fail(prefix + key, "missing");
  return *it;
}

std::int64_t need_int(const Where& w, const json& obj, const char* key, const std::string& prefix) {
  const json& v = need(w, obj, key, prefix);
  if (!v.is_number_integer()) w.fail(prefix + key, std::string("expected an integer, got ") + v.type_name());
  return v.get<std::int64_t>();
}

LabelledExpression read_expression(const Where& w, const json& e, const std::string& prefix) {
  if (!e.is_object()) w.fail(prefix.substr(0, prefix.size() - 1), std::string("expected an object, got ") + e.type_name());
  LabelledExpression x;
  const std::int64_t turn = need_int(w, e, "turn", prefix);
  if (turn < 0 || turn > INT32_MAX) w.fail(prefix + "turn", "must be >= 0, got " + std::to_string(turn));
  x.turn = static_cast<int>(turn);
  x.start = need_int(w, e, "start", prefix);
  x.end = need_int(w, e, "end", prefix);
  if (x.start < 0) w.fail(prefix + "start", "must be >= 0, got " + std::to_string(x.start));
  if (x.end <= x.start)
    w.fail(prefix + "end", "must be > start (" + std::to_string(x.start) + "), got " + std::to_string(x.end));
  const json& emotion = need(w, e, "emotion", prefix);
  if (!emotion.is_string()) w.fail(prefix + "emotion", std::string("expected a string, got ") + emotion.type_name());
  const auto parsed = text::parse_emotion(emotion.get<std::string>());
  if (!parsed) w.fail(prefix + "emotion", "'" + emotion.get<std::string>() + "' is not one of Plutchik's eight");
  x.emotion = *parsed;
  const std::int64_t intensity = need_int(w, e, "intensity", prefix);
  if (intensity < 1 || intensity > 3) w.fail(prefix + "intensity", "must be 1, 2 or 3, got " + std::to_string(intensity));
  x.intensity = static_cast<int>(intensity);
  const json& strongest = need(w, e, "strongest", prefix);
  if (!strongest.is_boolean()) w.fail(prefix + "strongest", std::string("expected a boolean, got ") + strongest.type_name());
  x.strongest = strongest.get<bool>();
  return x;
}

DialogueLabels read_record(const Where& w, const std::string& line_text) {
  json j;
  try {
    j = json::parse(line_text);
  } catch (const json::exception& e) {  // parse_error, and out_of_range for a number beyond double
    w.fail("record", std::string("bad JSON: ") + e.what());
  }
  if (!j.is_object()) w.fail("record", std::string("expected an object, got ") + j.type_name());
  DialogueLabels d;
  d.file = w.file;
  d.line = w.line;
  const json& id = need(w, j, "id", "");
  if (id.is_string()) d.id = id.get<std::string>();
  else if (id.is_number_integer()) d.id = std::to_string(id.get<std::int64_t>());
  else w.fail("id", std::string("expected a string, got ") + id.type_name());
  const json& exprs = need(w, j, "expressions", "");
  if (!exprs.is_array()) w.fail("expressions", std::string("expected an array, got ") + exprs.type_name());
  for (std::size_t k = 0; k < exprs.size(); ++k)
    d.expressions.push_back(read_expression(w, exprs[k], "expressions[" + std::to_string(k) + "]."));
  const auto strongest = std::count_if(d.expressions.begin(), d.expressions.end(),
                                       [](const LabelledExpression& e) { return e.strongest; });
  if (!d.expressions.empty() && strongest != 1)
    w.fail("expressions", "exactly one expression must be the strongest, " + std::to_string(strongest) + " are");
  return d;
}

// A text as the strongest-emotion test compares it: no spaces or punctuation, letters case-folded.
// `keep_punct` keeps the punctuation, for a span that is all punctuation: an emoticon such as :( is
// what a reader sees.
std::u32string comparable(std::string_view s, bool keep_punct = false) {
  std::u32string out;
  for (char32_t cp : text::decode_utf8(s, text::Utf8Mode::lossy).cps)
    if (!text::is_space(cp) && (keep_punct || !text::is_punct(cp))) out.push_back(text::fold_case(cp));
  return out;
}

bool overlaps(std::int64_t a0, std::int64_t a1, std::int64_t b0, std::int64_t b1) { return a0 < b1 && b0 < a1; }

// English words as the strongest-emotion test compares them: reported speech names who speaks ("my
// phone is so messed up" -> "the customer's phone is so messed up", "I worried" -> "they worried"),
// so every person (I, you, they, the customer, the agent, the company; their cases and possessives)
// is one word "P", the forms of be / have / do one each, and a verb right after a person without
// its -s ("I need" / "the customer needs"). Letters are lower-cased; ’ is '.
std::vector<std::string> person_free_words(std::string_view s) {
  std::vector<std::string> raw;
  std::string w;
  for (char32_t cp : text::decode_utf8(s, text::Utf8Mode::lossy).cps) {
    const char32_t c = cp == U'\u2019' ? U'\'' : text::fold_case(cp);
    if ((c >= U'a' && c <= U'z') || (c >= U'0' && c <= U'9') || c == U'\'') {
      w.push_back(static_cast<char>(c));
    } else if (!w.empty()) {
      raw.push_back(std::move(w));
      w.clear();
    }
  }
  if (!w.empty()) raw.push_back(std::move(w));
  static const std::unordered_map<std::string_view, std::string_view> kContractions = {
      {"i'm", "i am"}, {"im", "i am"}, {"we're", "we are"}, {"you're", "you are"}, {"they're", "they are"},
      {"i've", "i have"}, {"we've", "we have"}, {"you've", "you have"}, {"they've", "they have"},
      {"i'll", "i will"}, {"we'll", "we will"}, {"you'll", "you will"}, {"they'll", "they will"},
      {"i'd", "i would"}, {"we'd", "we would"}, {"you'd", "you would"}, {"they'd", "they would"}};
  static const std::unordered_map<std::string_view, std::string_view> kForms = {
      {"am", "be"}, {"is", "be"}, {"are", "be"}, {"was", "was"}, {"were", "was"}, {"has", "have"},
      {"have", "have"}, {"does", "do"}, {"do", "do"}, {"isn't", "isn't"}, {"aren't", "isn't"},
      {"wasn't", "wasn't"}, {"weren't", "wasn't"}, {"hasn't", "haven't"}, {"haven't", "haven't"},
      {"doesn't", "don't"}, {"don't", "don't"}};
  static const std::unordered_set<std::string_view> kPersons = {
      "i", "me", "my", "mine", "myself", "we", "us", "our", "ours", "ourselves", "you", "your", "yours",
      "yourself", "yourselves", "u", "ur", "they", "them", "their", "theirs", "themselves", "themself"};
  std::vector<std::string> words;
  for (const std::string& r : raw) {
    const auto c = kContractions.find(r);
    if (c == kContractions.end()) {
      words.push_back(r);
      continue;
    }
    const std::string_view both = c->second;
    words.emplace_back(both.substr(0, both.find(' ')));
    words.emplace_back(both.substr(both.find(' ') + 1));
  }
  std::vector<std::string> out;
  for (std::size_t i = 0; i < words.size(); ++i) {
    std::string word = words[i];
    if (word.size() > 2 && word.ends_with("'s")) word.resize(word.size() - 2);  // the customer's, Sam's
    if (word == "the" && i + 1 < words.size()) {
      std::string next = words[i + 1];
      if (next.ends_with("'s")) next.resize(next.size() - 2);
      if (next == "customer" || next == "agent" || next == "company") {
        out.emplace_back("P");
        ++i;
        continue;
      }
    }
    if (kPersons.count(word)) {
      out.emplace_back("P");
      continue;
    }
    if (const auto f = kForms.find(word); f != kForms.end()) {
      out.emplace_back(f->second);
      continue;
    }
    if (!out.empty() && out.back() == "P" && word.size() > 3 && word.ends_with('s') && !word.ends_with("ss")) {
      // the customer needs / I need; after a hiss, -es: the customer wishes / I wish, watches, fixes, misses
      const bool es = word.size() > 4 && (word.ends_with("shes") || word.ends_with("ches") || word.ends_with("xes") ||
                                          word.ends_with("sses") || word.ends_with("zes"));
      word.resize(word.size() - (es ? 2 : 1));
    }
    out.push_back(std::move(word));
  }
  return out;
}

bool contains_words(const std::vector<std::string>& text, const std::vector<std::string>& words) {
  return !words.empty() && std::search(text.begin(), text.end(), words.begin(), words.end()) != text.end();
}

}  // namespace

EmotionLabelSet load_emotion_labels(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw IoError("load_emotion_labels: cannot open '" + path + "'");
  EmotionLabelSet set;
  std::string line_text;
  for (long line = 1; std::getline(in, line_text); ++line) {
    if (line_text.find_first_not_of(" \t\r") == std::string::npos) continue;
    const Where w{path, line};
    DialogueLabels d = read_record(w, line_text);
    if (!set.by_id.emplace(d.id, set.dialogues.size()).second)
      w.fail("id", "dialogue '" + d.id + "' is labelled twice (first at line " +
                       std::to_string(set.dialogues[set.by_id[d.id]].line) + ")");
    set.dialogues.push_back(std::move(d));
  }
  return set;
}

void check_labels_fit(const DialogueLabels& labels, const text::Dialogue& dialogue) {
  const Where w{labels.file, labels.line};
  for (std::size_t k = 0; k < labels.expressions.size(); ++k) {
    const LabelledExpression& e = labels.expressions[k];
    const std::string field = "expressions[" + std::to_string(k) + "]";
    if (e.turn < 0 || static_cast<std::size_t>(e.turn) >= dialogue.turns.size())
      w.fail(field + ".turn", "dialogue '" + dialogue.id + "' has " + std::to_string(dialogue.turns.size()) +
                                  " turns, got " + std::to_string(e.turn));
    const text::Turn& turn = dialogue.turns[static_cast<std::size_t>(e.turn)];
    if (e.start < 0 || e.end <= e.start)
      w.fail(field, "span [" + std::to_string(e.start) + ", " + std::to_string(e.end) + ") is empty or negative");
    if (turn.speaker != text::Speaker::customer)
      w.fail(field + ".turn", "turn " + std::to_string(e.turn) + " of dialogue '" + dialogue.id +
                                  "' is the agent's; only the customer's emotions are labelled");
    const auto chars = static_cast<std::int64_t>(text::decode_utf8(turn.text, text::Utf8Mode::lossy).size());
    if (e.end > chars)
      w.fail(field + ".end", std::to_string(e.end) + " is past turn " + std::to_string(e.turn) + " of dialogue '" +
                                 dialogue.id + "' (" + std::to_string(chars) + " code points)");
  }
}

bool strongest_kept(const Prepared& p, const Summary& summary, const DialogueLabels& labels) {
  KESSEL_CHECK_ARG(p.dialogue != nullptr, "strongest_kept: the prepared dialogue has no dialogue");
  const LabelledExpression* strongest = labels.strongest();
  KESSEL_CHECK_ARG(strongest != nullptr, "strongest_kept: dialogue '", labels.id, "' has no labelled expression");
  check_labels_fit(labels, *p.dialogue);
  auto kept = [&](const LabelledExpression& e) {
    const auto cps = text::decode_utf8(p.dialogue->turns[static_cast<std::size_t>(e.turn)].text, text::Utf8Mode::lossy).cps;
    const std::string span = text::encode_utf8(cps.data() + e.start, static_cast<std::size_t>(e.end - e.start));
    const bool emoticon = comparable(span).empty();
    const std::u32string words = comparable(span, emoticon);
    if (words.empty()) return false;  // a span of spaces keeps nothing a reader sees
    const std::vector<std::string> person_free = p.lang == Lang::en ? person_free_words(span) : std::vector<std::string>{};
    const text::Turn& labelled = p.dialogue->turns[static_cast<std::size_t>(e.turn)];
    auto same_message = [&](const SummarySentence& s) {  // the labelled turn, or the same message sent again
      if (s.unit < 0 || static_cast<std::size_t>(s.unit) >= p.units.size()) return false;
      const int turn = p.units[static_cast<std::size_t>(s.unit)].turn;
      const text::Turn& t = p.dialogue->turns[static_cast<std::size_t>(turn)];
      return turn == e.turn || (t.speaker == labelled.speaker && t.text == labelled.text);
    };
    // The words within one sentence, or across consecutive sentences of the message: an expression
    // over two units (不是说是自营吗?还这么慢) is kept when both are shown.
    std::u32string run;
    for (std::size_t i = 0; i < summary.sentences.size(); ++i) {
      const SummarySentence& s = summary.sentences[i];
      if (!same_message(s)) {
        run.clear();
        continue;
      }
      const bool continues = i > 0 && same_message(summary.sentences[i - 1]) && summary.sentences[i - 1].turn == s.turn;
      if (!continues) run.clear();
      run += comparable(s.body, emoticon);
      if (run.find(words) != std::u32string::npos) return true;
      // In a report the same words with the person named ("my phone" -> "the customer's phone").
      if (s.reported && contains_words(person_free_words(s.body), person_free)) return true;
    }
    return false;
  };
  if (kept(*strongest)) return true;
  return std::any_of(labels.expressions.begin(), labels.expressions.end(), [&](const LabelledExpression& e) {
    return &e != strongest && e.emotion == strongest->emotion && e.intensity >= strongest->intensity && kept(e);
  });
}

void add_detection(const Prepared& p, const DialogueLabels& labels, DetectionCounts& counts) {
  KESSEL_CHECK_ARG(p.dialogue != nullptr, "add_detection: the prepared dialogue has no dialogue");
  check_labels_fit(labels, *p.dialogue);
  ++counts.dialogues;
  counts.labelled += labels.expressions.size();
  for (const LabelledExpression& e : labels.expressions)
    counts.labelled_found += std::any_of(p.mentions.begin(), p.mentions.end(), [&](const text::EmotionMention& m) {
      return m.expressed && m.turn == e.turn && overlaps(m.char_start, m.char_end, e.start, e.end);
    });
  for (const text::EmotionMention& m : p.mentions) {
    if (!m.expressed) continue;
    ++counts.detected;
    counts.detected_matched += std::any_of(labels.expressions.begin(), labels.expressions.end(), [&](const auto& e) {
      return m.turn == e.turn && overlaps(m.char_start, m.char_end, e.start, e.end);
    });
  }
}

DetectionCounts score_detection(const std::vector<text::Dialogue>& dialogues, const text::Lexicon& lexicon,
                                const EmotionLabelSet& labels) {
  DetectionCounts counts;
  for (const auto& d : dialogues)
    if (const DialogueLabels* l = labels.find(d.id)) add_detection(prepare(d, lexicon), *l, counts);
  return counts;
}

}  // namespace kessel::summarize
