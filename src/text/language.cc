#include "kessel/text/language.h"

#include <array>
#include <string>
#include <unordered_map>
#include <vector>

#include "kessel/text/lexicon.h"
#include "kessel/text/utf8.h"

namespace kessel::text {

namespace {

constexpr std::array<const char*, 12> kNames = {"unknown", "zh", "en", "es", "fr", "de",
                                                "pt",      "it", "id", "ja", "ko", "other"};

// The Latin-script languages told apart by their function words, in the order ties are broken.
constexpr std::array<Language, 7> kLatin = {Language::en, Language::es, Language::fr, Language::de,
                                            Language::pt, Language::it, Language::id};

// The most frequent function words of each language (and a few greetings and thanks, which short
// customer turns consist of). A word that is also English is left out of the other lists (no, me,
// a, in, an, am, was, so, do, come, son): English text holds them too often to be evidence.
const std::vector<const char*>& function_words(Language l) {
  static const std::vector<const char*> en = {
      "the",   "and",   "is",    "are",    "was",    "were",  "to",     "of",    "in",   "on",
      "for",   "it",    "my",    "i",      "you",    "your",  "this",   "that",  "with", "have",
      "has",   "not",   "be",    "can",    "will",   "me",    "we",     "they",  "at",   "but",
      "do",    "does",  "did",   "from",   "an",     "a",     "so",     "just",  "get",  "got",
      "what",  "why",   "how",   "please", "thanks", "thank", "hi",     "hello", "no",   "yes",
      "been",  "there", "about", "still",  "would",  "could", "should", "am",    "i'm",  "it's",
      "don't", "can't", "if",    "or",     "any",    "now",   "here",   "when",  "our",  "us",
      "they",  "them",  "their", "as",     "all",    "up",    "out"};
  static const std::vector<const char*> es = {
      "el",      "la",     "los",      "las",    "que",     "qué",  "de",    "del",    "en",
      "y",       "es",     "por",      "para",   "con",     "una",  "un",    "mi",     "mis",
      "pero",    "como",   "cómo",     "muy",    "esta",    "está", "estoy", "tengo",  "hola",
      "gracias", "favor",  "porque",   "cuando", "también", "ya",   "sí",    "lo",     "le",
      "su",      "sus",    "al",       "se",     "hay",     "nada", "ayuda", "cuenta", "hace",
      "puedo",   "quiero", "necesito", "pedido", "han",     "ni",   "eso",   "esto",   "nunca",
      "todavía", "aún",    "buenos",   "días"};
  static const std::vector<const char*> fr = {
      "le",     "la",       "les",  "des",   "du",      "de",       "et",     "est",      "je",
      "tu",     "il",       "elle", "nous",  "vous",    "pas",      "ne",     "une",      "un",
      "que",    "qui",      "dans", "sur",   "avec",    "mon",      "ma",     "mes",      "ce",
      "cette",  "c'est",    "j'ai", "merci", "bonjour", "très",     "mais",   "ou",       "où",
      "au",     "aux",      "sont", "suis",  "avez",    "avoir",    "être",   "votre",    "vos",
      "depuis", "toujours", "rien", "ça",    "été",     "toujours", "jamais", "commande", "n'est",
      "s'il",   "vous",     "plaît"};
  static const std::vector<const char*> de = {
      "der",   "das",   "und",        "ist",    "nicht", "ich",  "du",    "er",   "sie",   "wir",
      "ihr",   "ein",   "eine",       "einen",  "mit",   "für",  "auf",   "von",  "zu",    "dem",
      "den",   "des",   "bitte",      "danke",  "hallo", "mein", "meine", "aber", "oder",  "noch",
      "schon", "sehr",  "wie",        "warum",  "habe",  "sind", "kann",  "kein", "keine", "auch",
      "nur",   "wenn",  "dass",       "bei",    "immer", "mehr", "jetzt", "ja",   "nein",  "nie",
      "wurde", "ihnen", "bestellung", "leider", "mich",  "mir"};
  static const std::vector<const char*> pt = {
      "o",     "os",   "um",     "uma",    "de",    "do",       "da",       "dos",   "das",
      "e",     "é",    "não",    "que",    "em",    "na",       "nos",      "para",  "por",
      "com",   "meu",  "minha",  "você",   "vocês", "obrigado", "obrigada", "olá",   "mas",
      "muito", "está", "estou",  "tenho",  "isso",  "isto",     "ele",      "ela",   "seu",
      "sua",   "já",   "também", "quando", "ainda", "nada",     "ajuda",    "conta", "pedido",
      "nunca", "foi",  "bom",    "dia"};
  static const std::vector<const char*> it = {
      "il",     "lo",   "la",         "gli",    "le",     "di",     "del",   "della",
      "che",    "è",    "e",          "non",    "per",    "con",    "un",    "una",
      "mi",     "ti",   "si",         "sono",   "ho",     "ha",     "ma",    "perché",
      "grazie", "ciao", "buongiorno", "questo", "questa", "molto",  "anche", "ancora",
      "sempre", "nel",  "nella",      "alla",   "al",     "dei",    "delle", "mio",
      "mia",    "tuo",  "vostro",     "cosa",   "niente", "ordine", "mai"};
  // Indonesian and Malay, with the informal spellings tweets use (gak, udah, aja, ajah, nya).
  static const std::vector<const char*> id = {
      "yang",   "dan",    "di",     "ke",    "dari",   "ini",    "itu",    "saya",   "aku",    "kamu",
      "anda",   "tidak",  "tak",    "gak",   "nggak",  "sudah",  "udah",   "belum",  "bisa",   "mau",
      "ada",    "untuk",  "dengan", "juga",  "kok",    "apa",    "kenapa", "gimana", "tolong", "terima",
      "kasih",  "makasih", "malah", "lewat", "punya",  "nya",    "aja",    "ajah",   "saja",   "lagi",
      "kalau",  "kalo",   "tapi",   "sama",  "sih",    "dong",   "karena", "mohon",  "pesan",  "bagaimana",
      "selamat", "pak",   "bu",     "kak",   "mas",    "mbak",   "banget"};
  static const std::vector<const char*> none;
  switch (l) {
    case Language::en:
      return en;
    case Language::es:
      return es;
    case Language::fr:
      return fr;
    case Language::de:
      return de;
    case Language::pt:
      return pt;
    case Language::it:
      return it;
    case Language::id:
      return id;
    default:
      return none;
  }
}

// Greetings and thanks that say the language on their own ("Gracias!", "Merci"): they count 2.
bool is_strong_word(std::string_view w) {
  for (std::string_view s : {"hola", "gracias", "merci", "bonjour", "danke", "hallo", "obrigado",
                             "obrigada", "olá", "grazie", "ciao", "buongiorno", "makasih", "terimakasih"})
    if (w == s) return true;
  return false;
}

int latin_index(Language l) {
  for (std::size_t i = 0; i < kLatin.size(); ++i)
    if (kLatin[i] == l) return static_cast<int>(i);
  return -1;
}

// word -> the weight it adds to each Latin language's score (1/k for a word in k lists).
const std::unordered_map<std::string, std::array<float, kLatin.size()>>& word_weights() {
  static const auto table = [] {
    std::unordered_map<std::string, std::array<float, kLatin.size()>> t;
    const auto& english = function_words(Language::en);
    auto in_english = [&](const std::string& w) {
      for (const char* e : english)
        if (w == e) return true;
      return false;
    };
    for (Language l : kLatin)
      for (const char* w : function_words(l)) {
        const std::string key = normalize_term(w);
        if (l != Language::en && in_english(key)) continue;
        t[key][static_cast<std::size_t>(latin_index(l))] = 1.0f;
      }
    for (auto& [word, weights] : t) {
      float k = 0;
      for (float w : weights) k += w;
      const float strong = is_strong_word(word) ? 2.0f : 1.0f;
      for (float& w : weights) w *= strong / k;
    }
    return t;
  }();
  return table;
}

// Kana, without the marks kaomoji borrow (ヽ(￣д￣;)ノ, ¯\\_(ツ)_/¯) and the long-vowel bar.
bool is_kana(char32_t c) {
  if (c == U'ヽ' || c == U'ノ' || c == U'ツ' || c == U'ー' || c == U'ゞ' || c == U'ゝ')
    return false;
  return c >= 0x3040 && c <= 0x30FF && c != 0x30FB;
}
bool is_hangul(char32_t c) {
  return (c >= 0xAC00 && c <= 0xD7AF) || (c >= 0x1100 && c <= 0x11FF) ||
         (c >= 0x3130 && c <= 0x318F);
}
// Letters of scripts other than Latin and CJK: Greek, Cyrillic, Armenian, Hebrew, Arabic, the Indic
// scripts, Thai.
bool is_other_letter(char32_t c) {
  return (c >= 0x0370 && c <= 0x03FF) || (c >= 0x0400 && c <= 0x052F) ||
         (c >= 0x0530 && c <= 0x058F) || (c >= 0x0590 && c <= 0x05FF) ||
         (c >= 0x0600 && c <= 0x06FF) || (c >= 0x0900 && c <= 0x0DFF) ||
         (c >= 0x0E00 && c <= 0x0E7F);
}

// The one-language letters of a Latin word, as a score bonus: ñ ¿ ¡ (es), ß (de), ã õ (pt), œ (fr).
int distinctive_letter(char32_t c) {
  switch (c) {
    case U'ñ':
    case U'¿':
    case U'¡':
      return latin_index(Language::es);
    case U'ß':
      return latin_index(Language::de);
    case U'ã':
    case U'õ':
      return latin_index(Language::pt);
    case U'œ':
      return latin_index(Language::fr);
    default:
      return -1;
  }
}

}  // namespace

const char* to_string(Language language) {
  const auto i = static_cast<std::size_t>(language);
  return i < kNames.size() ? kNames[i] : "unknown";
}

std::optional<Language> parse_language(std::string_view name) {
  const std::string lower = normalize_term(name);
  for (std::size_t i = 0; i < kNames.size(); ++i)
    if (lower == kNames[i]) return static_cast<Language>(i);
  return std::nullopt;
}

bool is_supported_language(Language language) {
  return language == Language::zh || language == Language::en;
}

LanguageGuess guess_language(std::string_view text) {
  return guess_language(decode_utf8(text, Utf8Mode::lossy));
}

LanguageGuess guess_language(const DecodedText& d) {
  std::size_t han = 0, kana = 0, hangul = 0, latin = 0, other = 0;
  std::array<float, kLatin.size()> score{};
  std::size_t words = 0;
  const auto& weights = word_weights();
  std::string word;
  std::size_t word_letters = 0;
  bool skip_word = false;  // inside @handle, #tag or a URL: its letters are not the text's
  auto end_word = [&] {
    if (!word.empty() && !skip_word) {
      ++words;
      latin += word_letters;
      if (auto it = weights.find(word); it != weights.end())
        for (std::size_t l = 0; l < kLatin.size(); ++l) score[l] += it->second[l];
    }
    word.clear();
    word_letters = 0;
  };
  for (std::size_t i = 0; i < d.cps.size(); ++i) {
    const char32_t c = d.cps[i];
    const bool apostrophe = (c == '\'' || c == U'’') && !word.empty() && i + 1 < d.cps.size() &&
                            is_latin_letter(d.cps[i + 1]);
    if (is_latin_letter(c) || apostrophe) {
      if (word.empty()) {
        const char32_t before = i > 0 ? d.cps[i - 1] : U' ';
        if (before == '@' || before == '#') skip_word = true;
      }
      append_utf8(word, apostrophe ? char32_t{'\''} : fold_case(c));
      if (!apostrophe) ++word_letters;
      if (const int l = distinctive_letter(fold_case(c)); l >= 0 && !skip_word)
        score[static_cast<std::size_t>(l)] += 1.0f;
      continue;
    }
    if (c == U'¿' || c == U'¡') score[static_cast<std::size_t>(latin_index(Language::es))] += 1.0f;
    if (c == ':' && (word == "http" || word == "https")) skip_word = true;
    if (c == '.' && word == "www") skip_word = true;
    if (skip_word && !is_space(c)) {  // a URL or handle runs to the next space
      word.clear();
      word_letters = 0;
      continue;
    }
    end_word();
    if (is_space(c)) skip_word = false;
    if (is_kana(c))
      ++kana;
    else if (is_hangul(c))
      ++hangul;
    else if (is_cjk(c))
      ++han;
    else if (is_other_letter(c))
      ++other;
  }
  end_word();

  const std::size_t letters = han + kana + hangul + latin + other;
  if (letters == 0) return {Language::unknown, false};
  if (kana > 0 && 10 * kana >= han + kana) return {Language::ja, true};
  if (10 * hangul >= 3 * letters) return {Language::ko, true};
  if (han > 0 && 10 * han >= 3 * (han + latin)) return {Language::zh, true};
  if (other > latin) return {Language::other, true};
  std::size_t best = 0;
  for (std::size_t l = 1; l < kLatin.size(); ++l)
    if (score[l] > score[best]) best = l;
  if (best != 0 && score[best] > score[0] && score[best] >= 2.0f) return {kLatin[best], true};
  return {Language::en, score[0] > 0.0f};  // confident only on English evidence
}

}  // namespace kessel::text
