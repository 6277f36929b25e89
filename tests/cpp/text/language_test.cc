#include "kessel/text/language.h"

#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

namespace kessel::text {
namespace {

TEST(Language, NamesRoundTrip) {
  for (Language l :
       {Language::unknown, Language::zh, Language::en, Language::es, Language::fr, Language::de,
        Language::pt, Language::it, Language::id, Language::ja, Language::ko, Language::other})
    EXPECT_EQ(parse_language(to_string(l)), l) << to_string(l);
  EXPECT_EQ(parse_language("ZH"), Language::zh);
  EXPECT_FALSE(parse_language("klingon").has_value());
  EXPECT_TRUE(is_supported_language(Language::zh));
  EXPECT_TRUE(is_supported_language(Language::en));
  EXPECT_FALSE(is_supported_language(Language::es));
  EXPECT_FALSE(is_supported_language(Language::unknown));
}

TEST(Language, CustomerTurnsInEachLanguage) {
  const std::vector<std::pair<std::string, Language>> cases = {
      {"你们的服务太垃圾了，今天是挺生气的", Language::zh},
      {"我的iPhone坏了", Language::zh},  // Chinese with an English brand name
      {"太low了", Language::zh},
      {"My flight was delayed and I am so frustrated", Language::en},
      {"@VerizonSupport my phone is broken https://t.co/x1y2", Language::en},
      {"Hola, mi pedido no ha llegado y estoy muy enojado", Language::es},
      {"¿Por qué no funciona la aplicación?", Language::es},
      {"Gracias!", Language::es},
      {"Bonjour, je n'ai pas reçu ma commande depuis une semaine", Language::fr},
      {"Ich habe meine Bestellung noch nicht bekommen, das ist sehr ärgerlich", Language::de},
      {"Olá, meu pedido ainda não chegou", Language::pt},
      {"Ciao, il mio ordine non è ancora arrivato", Language::it},
      // TweetSumm valid f7a6652a, Indonesian with English words in it.
      {"Telp ke call center @115802 malah disarankan pesan lewat call center ajah next nya.. WHAT?\?!! Apagunanya you punya web",
       Language::id},
      {"Saya sudah bayar tapi tiket belum ada", Language::id},
      {"注文した商品が届きません", Language::ja},
      {"배송이 너무 늦어요", Language::ko},
      {"Спасибо за помощь", Language::other}};
  for (const auto& [text, want] : cases) {
    const LanguageGuess g = guess_language(text);
    EXPECT_EQ(g.language, want) << text << " -> " << to_string(g.language);
    EXPECT_TRUE(g.confident) << text;
  }
}

TEST(Language, TooLittleTextIsUnknownOrAnUnconfidentEnglish) {
  for (const char* text : {"", "😡😡😡", "123 456", "!!! :)", "[]"}) {
    const LanguageGuess g = guess_language(text);
    EXPECT_EQ(g.language, Language::unknown) << text;
    EXPECT_FALSE(g.confident) << text;
  }
  // Latin text with no function word of any language: English by default, but not confident.
  for (const char* text : {"Shit", "low", "ok?", "WTF"}) {
    const LanguageGuess g = guess_language(text);
    EXPECT_EQ(g.language, Language::en) << text;
    EXPECT_FALSE(g.confident) << text;
  }
  EXPECT_TRUE(guess_language("Not happy with this").confident);
}

TEST(Language, EnglishWordsSharedWithOtherLanguagesAreNoEvidence) {
  // "no", "me", "a", "come", "in" are English too; a Spanish-looking word or two does not outvote
  // the English function words.
  for (const char* text : {"no one came to help me", "come in and see a manager",
                           "la la land is on", "I ordered a burrito con queso and it never came"})
    EXPECT_EQ(detect_language(text), Language::en) << text;
}

TEST(Language, HandlesAndUrlsAreNotWords) {
  EXPECT_EQ(detect_language("@el_corte_ingles @de_la_rue the app is down"), Language::en);
  EXPECT_EQ(detect_language("https://es.example.com/la/de/el/que my order"), Language::en);
}

}  // namespace
}  // namespace kessel::text
