// The emotion cues' literal prefilter (cue_prefilter.h): what a pattern requires, and that it never
// skips a text the cue's regex matches (on hand-picked texts and every customer turn and sentence
// of the real validation sets).
#include "text/cue_prefilter.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <vector>

#include "kessel/text/dialogue.h"
#include "kessel/text/utf8.h"
#include "text/emotion_cues.h"
#include "text/test_paths.h"

namespace kessel::text::detail {
namespace {

const std::ctype<wchar_t>& ctype() { return std::use_facet<std::ctype<wchar_t>>(std::locale()); }

bool admits(const wchar_t* pattern, const wchar_t* text, bool icase = false) {
  return may_match(cue_requirement(pattern, icase, ctype()), TextChars(text, icase, ctype()));
}

// has_any against a plain search of the text, with characters that share a filter bit (1024 apart)
// and case variants.
TEST(CuePrefilter, TextCharsHasAnyIsAPlainSearch) {
  const std::wstring text = L"Why 又是这样 \u4e00\u4800 A";
  for (const bool icase : {false, true}) {
    const TextChars chars(text, icase, ctype());
    const std::vector<std::vector<wchar_t>> asks = {
        {}, {L'又'}, {L'z'}, {L'W'}, {L'w'}, {L'a'}, {static_cast<wchar_t>(L'又' + 1024)},
        {static_cast<wchar_t>(0x4e00 + 1024)}, {L'x', L'y', L'这'}, {L'x', L'y', static_cast<wchar_t>(0x4800 - 2048)}};
    for (const auto& ask : asks) {
      bool want = false;
      for (wchar_t c : ask)
        for (wchar_t t : text)
          want = want || c == t || (icase && (c == ctype().tolower(t) || c == ctype().toupper(t)));
      EXPECT_EQ(chars.has_any(ask), want) << "icase " << icase << " ask size " << ask.size();
    }
  }
}

TEST(CuePrefilter, ASequenceRequiresEachOfItsParts) {
  EXPECT_TRUE(admits(L"又(是|要)", L"怎么又是这样"));
  EXPECT_TRUE(admits(L"又(是|要)", L"要又"));  // order is not checked: the regex decides
  EXPECT_FALSE(admits(L"又(是|要)", L"又来了"));
  EXPECT_FALSE(admits(L"又(是|要)", L"是的"));
}

TEST(CuePrefilter, AnAlternationRequiresOneOfItsBranches) {
  EXPECT_TRUE(admits(L"(为什么|难道)x", L"难道x"));
  EXPECT_FALSE(admits(L"(为什么|难道)x", L"为x"));  // 为 alone is not 为什么
  EXPECT_FALSE(admits(L"(为什么|难道)x", L"难道"));
}

TEST(CuePrefilter, OptionalPartsAndOpenClassesRequireNothing) {
  EXPECT_TRUE(admits(L"a{0,3}b", L"b"));
  EXPECT_TRUE(admits(L"a?b*c", L"c"));
  EXPECT_FALSE(admits(L"a{1,3}b", L"b"));
  EXPECT_TRUE(admits(L"[^，,。]{1,4}也不是", L"也不是"));
  EXPECT_FALSE(admits(L"[^，,。]{1,4}也不是", L"也是"));
  EXPECT_TRUE(admits(L"\\d+天", L"3天"));
  EXPECT_FALSE(admits(L"[0-9一二]+遍了", L"几遍了"));
  EXPECT_TRUE(admits(L"[0-9一二]+遍了", L"7遍了"));
  EXPECT_TRUE(admits(L"\\bwhy\\b.", L"why"));
}

TEST(CuePrefilter, EscapedPunctuationIsALiteral) {
  EXPECT_TRUE(admits(L"\\?\\?|\\?!", L"what??"));
  EXPECT_FALSE(admits(L"\\?\\?|\\?!", L"what!"));
  EXPECT_FALSE(admits(L"[?？][!！]", L"what?"));
}

TEST(CuePrefilter, CaseIsIgnoredUnderIcase) {
  EXPECT_TRUE(admits(L"still (not|no)", L"STILL NOT", true));
  EXPECT_FALSE(admits(L"still (not|no)", L"STILL NOT", false));
  EXPECT_FALSE(admits(L"still (not|no)", L"stil nt", true));
}

TEST(CuePrefilter, WhatItDoesNotReadRequiresNothing) {
  EXPECT_TRUE(admits(L"(?=x)y", L"z"));
  EXPECT_TRUE(admits(L"(a?)\\1", L"z"));  // a back-reference requires nothing itself
  EXPECT_FALSE(admits(L"(a)\\1", L"z"));  // its group still does
  EXPECT_TRUE(admits(L"[[:alpha:]]", L"z"));
  EXPECT_TRUE(admits(L"a)", L"z"));
  EXPECT_TRUE(admits(L"a{x}", L"z"));
  EXPECT_TRUE(admits(L"[a-\\d]", L"z"));
  EXPECT_FALSE(admits(L"(?:ab)c", L"z"));
}

std::wstring wide(const std::string& utf8) {
  const DecodedText d = decode_utf8(utf8, Utf8Mode::lossy);
  return {d.cps.begin(), d.cps.end()};
}

// Every cue of the language against `text`: the prefilter admits whatever the regex matches.
// Returns how many (cue, text) pairs the regex matched.
int check_all_cues(const std::wstring& text, Language language, const std::string& where) {
  int matched = 0;
  for (std::size_t i = 0; i < emotion_cues().size(); ++i) {
    if (emotion_cues()[i].language != language) continue;
    const CueCheck c = check_cue(i, text);
    matched += c.matched;
    EXPECT_TRUE(!c.matched || c.admitted)
        << "cue " << emotion_cues()[i].name << " skipped a match in " << where;
  }
  return matched;
}

TEST(CuePrefilter, HandWrittenCueExamplesAreAdmitted) {
  int matched = 0;
  for (const char* zh :
       {"你好，为什么完全走错了地方", "原订单不是告诉你了吗", "一直联系也没人来修",
        "都不敢在你们京东买了", "哭也不是，笑也不是", "不会要到明年吧", "怎么又坏了", "说了好几次",
        "怎么突然涨价了", "便宜那么多啊", "天哪！", "什么？！"})
    matched += check_all_cues(wide(zh), Language::zh, zh);
  for (const char* en :
       {"Why is it so hard to get a refund?", "how long does it take", "still haven’t received it",
        "yet again", "waiting for 3 days", "do you even read", "As I SAID", "haven't heard back",
        "was never notified", "nobody answers", "what??"})
    matched += check_all_cues(wide(en), Language::en, en);
  EXPECT_GE(matched, 20);
}

// The real validation sets: every customer turn and sentence. Skips when the shared data is absent.
TEST(CuePrefilter, NeverSkipsAMatchOnTheValidationSets) {
  const std::string dir = testing::shared_data_dir();
  int files = 0, matched = 0;
  for (const auto& [rel, language] :
       {std::pair<const char*, Language>{"csds/val.jsonl", Language::zh},
        {"tweetsumm/valid.jsonl", Language::en}}) {
    const std::string path = dir.empty() ? "" : dir + "/" + rel;
    if (path.empty() || !std::filesystem::exists(path)) continue;
    ++files;
    for (const Dialogue& d : read_dialogues(path).dialogues)
      for (const Turn& t : d.turns) {
        if (t.speaker != Speaker::customer) continue;
        matched += check_all_cues(wide(t.text), language, d.id);
        for (const std::string& s : t.sentences) matched += check_all_cues(wide(s), language, d.id);
      }
  }
  if (files == 0)
    GTEST_SKIP()
        << "shared data not found (csds/val.jsonl, tweetsumm/valid.jsonl); set KESSEL_DATA";
  EXPECT_GT(matched, 100);  // the check saw matches, not only texts without any
}

}  // namespace
}  // namespace kessel::text::detail
