// Summary units and what every scorer reads of a dialogue (Prepared): include/kessel/summarize/summary.h.
#include <algorithm>
#include <string>

#include "summarize/content.h"
#include "kessel/summarize/summary.h"
#include "kessel/text/segment.h"
#include "kessel/text/utf8.h"

namespace kessel::summarize {

namespace {

// Byte span of each sentence inside its turn's text; sentences are trimmed substrings in order.
// A sentence that cannot be found (a reader that rewrote it) spans nothing and owns no mention.
std::vector<std::pair<std::size_t, std::size_t>> sentence_spans(const text::Turn& turn) {
  std::vector<std::pair<std::size_t, std::size_t>> spans;
  std::size_t cursor = 0;
  for (const auto& s : turn.sentences) {
    const std::size_t at = turn.text.find(s, cursor);
    if (at == std::string::npos) {
      spans.emplace_back(std::string::npos, std::string::npos);
      continue;
    }
    spans.emplace_back(at, at + s.size());
    cursor = at + s.size();
  }
  return spans;
}

// The word of each token: tokens whose code points start inside one segmenter word share its number.
std::vector<int> token_words(const std::vector<text::Token>& tokens, const std::vector<char32_t>& cps, Lang lang) {
  std::vector<int> out(tokens.size());
  if (lang != Lang::zh) {
    for (std::size_t i = 0; i < tokens.size(); ++i) out[i] = static_cast<int>(i);
    return out;
  }
  const auto words = text::Segmenter::default_segmenter().segment(std::span<const char32_t>(cps));
  std::size_t w = 0;
  int next = 0, last_word = -1;
  for (std::size_t i = 0; i < tokens.size(); ++i) {
    while (w < words.size() && words[w].char_end <= tokens[i].char_start) ++w;
    // A token inside a word of two or more code points belongs to it (U盘: a Latin letter and a CJK
    // character); one that reaches past the word's end (a number, a placeholder) is its own.
    const bool in_word = w < words.size() && words[w].char_start <= tokens[i].char_start &&
                         tokens[i].char_end <= words[w].char_end && words[w].char_end - words[w].char_start > 1;
    if (in_word && last_word == static_cast<int>(w)) {
      out[i] = next - 1;
    } else {
      out[i] = next++;
    }
    last_word = in_word ? static_cast<int>(w) : -1;
  }
  return out;
}

// An acknowledgement's pleasure ("Ok great!", "Perfect", 好的呢😊, 哈哈哈: a unit of fillers only,
// content.h) answers what was said before it: it is no feeling about the customer's matter, and alone
// it says nothing. Its positive mentions are courtesies (EmotionMention::polite), as "thank you" is, and
// not expressed.
void treat_acknowledgements_as_courtesy(Prepared& p) {
  for (std::size_t m = 0; m < p.mentions.size(); ++m) {
    text::EmotionMention& mention = p.mentions[m];
    if (!mention.expressed || mention.polarity != text::Polarity::positive) continue;
    if (classify_unit(p, static_cast<std::size_t>(p.mention_unit[m])) != UnitContent::filler) continue;
    mention.expressed = false;
    mention.polite = true;
    mention.strength = 0.0f;
  }
}

}  // namespace

Lang detect_lang(const text::Dialogue& dialogue) {
  text::ScriptCounts counts;
  for (const auto& turn : dialogue.turns) counts.add(turn.text);
  return counts.mostly_cjk() ? Lang::zh : Lang::en;
}

LangCounts count_langs(const std::vector<text::Dialogue>& dialogues) {
  LangCounts c;
  for (const auto& d : dialogues) ++(detect_lang(d) == Lang::zh ? c.zh : c.en);
  return c;
}

bool Prepared::customer_expressed_emotion() const {
  return std::any_of(mentions.begin(), mentions.end(),
                     [](const text::EmotionMention& m) { return m.expressed; });
}

Prepared prepare(const text::Dialogue& dialogue, const text::Lexicon& lexicon) {
  Prepared p;
  p.dialogue = &dialogue;
  p.lang = detect_lang(dialogue);
  for (int t = 0; t < static_cast<int>(dialogue.turns.size()); ++t) {
    const auto& turn = dialogue.turns[static_cast<std::size_t>(t)];
    const int first_unit = static_cast<int>(p.units.size());
    for (int s = 0; s < static_cast<int>(turn.sentences.size()); ++s) {
      Unit u;
      u.turn = t;
      u.sentence = s;
      u.speaker = turn.speaker;
      u.text = turn.sentences[static_cast<std::size_t>(s)];
      text::DecodedText decoded = text::decode_utf8(u.text, text::Utf8Mode::lossy);
      u.chars = static_cast<int>(decoded.size());
      p.unit_tokens.push_back(text::tokenize(u.text, decoded, text::TokenizeOptions{nullptr, text::Utf8Mode::lossy}));
      p.unit_token_words.push_back(token_words(p.unit_tokens.back(), decoded.cps, p.lang));
      p.unit_cps.push_back(std::move(decoded.cps));
      p.units.push_back(std::move(u));
    }
    text::DetectOptions options;
    options.customer_turn = turn.speaker == text::Speaker::customer;
    const auto spans = sentence_spans(turn);
    for (std::size_t s = 0; s < spans.size(); ++s)
      if (spans[s].first != std::string::npos)
        p.units[static_cast<std::size_t>(first_unit) + s].byte_start = static_cast<long>(spans[s].first);
    // The dialogue's language decides for a turn too short to tell ("ok", "Shit"); a turn in a language
    // kessel has no lexicon for gets no mentions and is reported (Prepared::unsupported_turns).
    options.fallback_language = p.lang == Lang::zh ? text::Language::zh : text::Language::en;
    if (t > 0 && dialogue.turns[static_cast<std::size_t>(t) - 1].speaker != turn.speaker)
      options.after_other_turn = dialogue.turns[static_cast<std::size_t>(t) - 1].text;  // rule 8
    text::TurnEmotions found = text::detect_turn_emotions(turn.text, lexicon, t, options);
    if (found.language != text::Language::unknown && !text::is_supported_language(found.language))
      p.unsupported_turns.push_back({t, found.language});
    for (auto& m : found.mentions) {
      int unit = -1;
      for (std::size_t s = 0; s < spans.size(); ++s) {
        if (spans[s].first == std::string::npos) continue;
        if (static_cast<std::size_t>(m.byte_start) >= spans[s].first &&
            static_cast<std::size_t>(m.byte_end) <= spans[s].second) {
          unit = first_unit + static_cast<int>(s);
          break;
        }
      }
      if (unit < 0) continue;  // the term straddles two sentences: no single unit can keep it
      p.mentions.push_back(std::move(m));
      p.mention_unit.push_back(unit);
    }
  }
  treat_acknowledgements_as_courtesy(p);
  return p;
}

}  // namespace kessel::summarize
