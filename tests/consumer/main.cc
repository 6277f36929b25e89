// An installed kessel from outside: one attention call (checked against a hand-computed softmax
// weighting) and one summary of a bundled sample dialogue with the installed default lexicon.
// Prints what it computed; exits 1 on a wrong result, 2 on an error.
#include <cmath>
#include <cstdio>
#include <exception>
#include <string>
#include <vector>

#include "kessel/attention.h"
#include "kessel/error.h"
#include "kessel/summarize/summarizer.h"
#include "kessel/text/dialogue.h"
#include "kessel/text/lexicon.h"
#include "kessel/version.h"

namespace {

// One head, one query over two keys, D = Dv = 2: out = softmax(q.k / sqrt(2)) v.
bool attention_matches() {
  const std::vector<float> q = {1.0f, 0.0f}, k = {1.0f, 0.0f, 0.0f, 1.0f}, v = {1.0f, 2.0f, 3.0f, 4.0f};
  kessel::AttentionInputs in;
  in.B = in.H = in.Lq = 1;
  in.Lk = in.D = in.Dv = 2;
  in.q = q.data();
  in.k = k.data();
  in.v = v.data();
  std::vector<float> out(2);
  kessel::attention_forward(out.data(), nullptr, in, kessel::AttentionSpec{});
  const double w0 = 1.0 / (1.0 + std::exp(-1.0 / std::sqrt(2.0)));  // weight of key 0
  const double want0 = w0 * 1 + (1 - w0) * 3, want1 = w0 * 2 + (1 - w0) * 4;
  std::printf("attention: out = [%.6f, %.6f], expected [%.6f, %.6f]\n", out[0], out[1], want0, want1);
  return std::abs(out[0] - want0) < 1e-5 && std::abs(out[1] - want1) < 1e-5;
}

bool summary_made() {
  const std::string data = KESSEL_DATA_DIR;
  const kessel::text::Lexicon lexicon = kessel::text::load_default_lexicon(data + "/lexicon");
  const auto read = kessel::text::read_dialogues(data + "/samples/dialogues_en.jsonl");
  const auto summarizer = kessel::summarize::make_summarizer({}, lexicon);
  const auto result = summarizer.run(read.dialogues.front(), lexicon);
  std::printf("summary of %s (%zu sentences): %s\n", result.summary.id.c_str(),
              result.summary.sentences.size(), result.summary.summary.c_str());
  return !result.summary.sentences.empty() && !result.summary.summary.empty();
}

}  // namespace

int main() {
  std::printf("kessel %s\n", kessel::kVersion);
  try {
    const bool ok = attention_matches() & summary_made();
    std::printf("%s\n", ok ? "consumer: ok" : "consumer: FAILED");
    return ok ? 0 : 1;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "consumer: error: %s\n", e.what());
    return 2;
  }
}
