// The lexicon loaders: kessel's TSV, DUTIR, NRC EmoLex, Emoji Sentiment, the emoji and emoticon JSON.
// The first byte picks the loader, so that the fuzzer's mutations of one format stay in it.
#include "fuzz_target.h"
#include "kessel/text/lexicon.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace kessel::text;
  if (size == 0) return 0;
  const int loader = data[0] % 6;
  kessel::fuzz::write_scratch(kessel::fuzz::as_text(data + 1, size - 1));
  const std::string& path = kessel::fuzz::scratch_path();
  kessel::fuzz::expect_typed_errors_only("lexicon", [&] {
    Lexicon lexicon;
    switch (loader) {
      case 0: add_lexicon_tsv(lexicon, path, "fuzz"); break;
      case 1: add_dutir(lexicon, path); break;
      case 2: add_nrc_emolex(lexicon, path); break;
      case 3: add_emoji_sentiment(lexicon, path); break;
      case 4: add_emoji_emotion_json(lexicon, path); break;
      default: add_emoticon_json(lexicon, path); break;
    }
  });
  return 0;
}
