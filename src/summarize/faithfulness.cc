// The faithfulness probes (include/kessel/summarize/faithfulness.h).
#include "kessel/summarize/faithfulness.h"

#include <algorithm>

#include "kessel/error.h"
#include "kessel/text/utf8.h"
#include "summarize/faith_align.h"
#include "summarize/faith_cues.h"

namespace kessel::summarize {

using faith::Alignment;
using faith::Piece;

WordBoundaries per_character_words() {
  return {[](std::string_view s) {
            std::vector<text::WordSpan> out;
            const auto n = static_cast<std::int64_t>(text::decode_utf8(s, text::Utf8Mode::lossy).size());
            for (std::int64_t i = 0; i < n; ++i) out.push_back({i, i + 1});
            return out;
          },
          "per-character"};
}

const char* to_string(FaithFinding::Kind kind) {
  switch (kind) {
    case FaithFinding::Kind::negation_lost: return "negation_lost";
    case FaithFinding::Kind::question_asserted: return "question_asserted";
    case FaithFinding::Kind::word_cut: return "word_cut";
    case FaithFinding::Kind::cross_turn_merge: return "cross_turn_merge";
  }
  return "?";
}

namespace {

// One sentence beside its source unit, decoded and aligned once for every probe.
struct Pair {
  std::vector<char32_t> source_cps, body_cps;
  std::vector<Piece> source, body;
  std::size_t frame = 0;
  Alignment alignment;
};

// The words reported speech puts in ("the customer", "the agent's", "the company", they, their, ...)
// are the renderer's, not the source's: aligned, a "the" of "the customer" would pull the extent back to a
// "The" that opens the source and bring its negations into it.
void drop_report_words(std::vector<Piece>& body) {
  static const std::u32string kThe = U"the";
  auto named = [](const std::u32string& k) {
    return k == U"customer" || k == U"customer's" || k == U"agent" || k == U"agent's" || k == U"company" ||
           k == U"company's";
  };
  std::vector<Piece> kept;
  for (std::size_t i = 0; i < body.size(); ++i) {
    const std::u32string& k = body[i].key;
    if (k == kThe && i + 1 < body.size() && named(body[i + 1].key)) {
      ++i;
      continue;
    }
    if (k == U"they" || k == U"them" || k == U"their" || k == U"theirs" || k == U"themselves") continue;
    kept.push_back(body[i]);
  }
  body = std::move(kept);
}

// zh: the 是否 a reported question asks with (render_questions.cc, whether_for_tag: 退到原支付卡上是吧 ->
// 询问是否退到原支付卡上) is the renderer's too, where the source has none: aligned, its 是 would take a 是 of
// the source's 就是 or 是吧 and show that word cut.
void drop_whether(std::vector<Piece>& body, const std::vector<char32_t>& source) {
  static constexpr std::u32string_view kWhether = U"是否";
  if (std::search(source.begin(), source.end(), kWhether.begin(), kWhether.end()) != source.end()) return;
  std::vector<Piece> kept;
  for (std::size_t i = 0; i < body.size(); ++i) {
    if (body[i].key == U"是" && i + 1 < body.size() && body[i + 1].key == U"否") {
      ++i;
      continue;
    }
    kept.push_back(body[i]);
  }
  body = std::move(kept);
}

Pair pair_up(const std::string& source, const std::string& body, Lang lang, const WordBoundaries& words) {
  Pair pr;
  pr.source_cps = text::decode_utf8(source, text::Utf8Mode::lossy).cps;
  pr.body_cps = text::decode_utf8(body, text::Utf8Mode::lossy).cps;
  pr.source = faith::pieces(pr.source_cps, lang);
  if (lang == Lang::zh) faith::mark_word_starts(pr.source, words.split(source));
  pr.body = faith::pieces(pr.body_cps, lang);
  if (lang == Lang::en) drop_report_words(pr.body);
  if (lang == Lang::zh) drop_whether(pr.body, pr.source_cps);
  pr.frame = faith::frame_length(pr.body, pr.source, lang);
  pr.alignment = faith::align(pr.body, pr.frame, pr.source);
  return pr;
}

std::string cps_text(const std::vector<char32_t>& cps, int start, int end) {
  return text::encode_utf8(cps.data() + start, static_cast<std::size_t>(end - start));
}

// "'<source>' -> '<body>'": what every finding's detail ends with.
std::string shown(const Pair& pr) {
  return "'" + cps_text(pr.source_cps, 0, static_cast<int>(pr.source_cps.size())) + "' -> '" +
         cps_text(pr.body_cps, 0, static_cast<int>(pr.body_cps.size())) + "'";
}

struct Probe {
  FaithReport& report;
  int sentence;
  int unit;
  void add(FaithFinding::Kind kind, std::string detail) {
    report.findings.push_back({kind, sentence, unit, std::move(detail)});
    ++report.counts[static_cast<std::size_t>(kind)];
  }
};

void probe_negation(Probe& probe, const Pair& pr, Lang lang) {
  const std::vector<char> negator = faith::negator_pieces(pr.source_cps, pr.source, lang);
  for (std::size_t k = 0; k < pr.source.size(); ++k) {
    if (!negator[k] || !pr.alignment.in_extent(static_cast<int>(k)) || pr.alignment.source_to_body[k] >= 0) continue;
    probe.add(FaithFinding::Kind::negation_lost,
              "'" + cps_text(pr.source_cps, pr.source[k].start, pr.source[k].end) + "' dropped: " + shown(pr));
  }
}

void probe_question(Probe& probe, const Pair& pr, Lang lang) {
  if (faith::has_question_form(pr.body_cps, pr.body, lang)) return;
  for (const auto& q : faith::question_clauses(pr.source_cps, lang)) {
    bool overlaps = false;
    for (std::size_t k = 0; k < pr.source.size() && !overlaps; ++k)
      overlaps = pr.source[k].start >= q.start && pr.source[k].end <= q.end && pr.alignment.in_extent(static_cast<int>(k));
    if (!overlaps) continue;
    probe.add(FaithFinding::Kind::question_asserted, "'" + cps_text(pr.source_cps, q.start, q.end) + "' (" + q.cue +
                                                         ") rendered without a question form: " + shown(pr));
  }
}

// zh: words of the source of which some letters are kept and some not.
void probe_word_cut_zh(Probe& probe, const Pair& pr, const std::string& source, const WordBoundaries& words) {
  std::vector<int> piece_at(pr.source_cps.size(), -1);
  for (std::size_t k = 0; k < pr.source.size(); ++k) piece_at[static_cast<std::size_t>(pr.source[k].start)] = static_cast<int>(k);
  const auto n = static_cast<std::int64_t>(pr.source_cps.size());
  std::vector<text::WordSpan> spans = words.split(source);
  // 这|段时间 and the like are one word here (faith::binds_demonstrative).
  for (std::size_t k = 0; k + 1 < spans.size(); ++k) {
    text::WordSpan& w = spans[k];
    const text::WordSpan& next = spans[k + 1];
    if (w.char_end - w.char_start != 1 || next.char_start != w.char_end || next.char_end > n || w.char_start < 0)
      continue;
    if (!faith::binds_demonstrative(pr.source_cps[static_cast<std::size_t>(w.char_start)],
                                    pr.source_cps[static_cast<std::size_t>(next.char_start)]))
      continue;
    w.char_end = next.char_end;
    spans.erase(spans.begin() + static_cast<std::ptrdiff_t>(k) + 1);
  }
  for (const text::WordSpan& w : spans) {
    KESSEL_CHECK_ARG(w.char_start >= 0 && w.char_start <= w.char_end && w.char_end <= n, "check_faithfulness: ",
                     words.source, " word boundaries gave [", w.char_start, ", ", w.char_end, ") for a text of ", n,
                     " code points");
    int letters = 0, kept = 0;
    std::string kept_text;
    for (std::int64_t i = w.char_start; i < w.char_end; ++i) {
      const int k = piece_at[static_cast<std::size_t>(i)];
      if (k < 0) continue;
      ++letters;
      if (pr.alignment.source_to_body[static_cast<std::size_t>(k)] >= 0) {
        ++kept;
        text::append_utf8(kept_text, pr.source_cps[static_cast<std::size_t>(i)]);
      }
    }
    if (letters < 2 || kept == 0 || kept == letters) continue;
    probe.add(FaithFinding::Kind::word_cut, "'" + cps_text(pr.source_cps, static_cast<int>(w.char_start),
                                                           static_cast<int>(w.char_end)) +
                                                "' cut to '" + kept_text + "': " + shown(pr));
  }
}

// en: an unaligned body word that is the start of an unaligned source word inside the extent.
void probe_word_cut_en(Probe& probe, const Pair& pr) {
  static constexpr std::u32string_view kReported[] = {U"they", U"them", U"their", U"theirs", U"themselves",
                                                      U"the",  U"customer", U"ask", U"asks", U"whether", U"if", U"to"};
  for (std::size_t b = pr.frame; b < pr.body.size(); ++b) {
    const std::u32string& key = pr.body[b].key;
    if (pr.alignment.body_to_source[b] >= 0 || key.size() < 2 ||
        std::find(std::begin(kReported), std::end(kReported), key) != std::end(kReported))
      continue;
    for (std::size_t s = 0; s < pr.source.size(); ++s) {
      const std::u32string& full = pr.source[s].key;
      if (pr.alignment.source_to_body[s] >= 0 || !pr.alignment.in_extent(static_cast<int>(s)) ||
          full.size() <= key.size() || !full.starts_with(key))
        continue;
      probe.add(FaithFinding::Kind::word_cut, "'" + cps_text(pr.source_cps, pr.source[s].start, pr.source[s].end) +
                                                  "' cut to '" +
                                                  cps_text(pr.body_cps, pr.body[b].start, pr.body[b].end) +
                                                  "': " + shown(pr));
      break;
    }
  }
}

// A label shared across a turn of the other speaker.
void probe_merge(Probe& probe, const Prepared& p, const Summary& summary, std::size_t i) {
  const SummarySentence& s = summary.sentences[i];
  if (i == 0 || !s.shares_label) return;
  const auto& turns = p.dialogue->turns;
  const int a = p.units[static_cast<std::size_t>(summary.sentences[i - 1].unit)].turn;
  const int b = p.units[static_cast<std::size_t>(s.unit)].turn;
  const text::Speaker speaker = turns[static_cast<std::size_t>(b)].speaker;
  for (int t = std::min(a, b) + 1; t < std::max(a, b); ++t) {
    if (turns[static_cast<std::size_t>(t)].speaker == speaker) continue;
    probe.add(FaithFinding::Kind::cross_turn_merge,
              "turns " + std::to_string(a) + " and " + std::to_string(b) + " under one " + text::to_string(speaker) +
                  " label across " + text::to_string(turns[static_cast<std::size_t>(t)].speaker) + " turn " +
                  std::to_string(t) + ": '" + summary.sentences[i - 1].body + "' + '" + s.body + "'");
    return;
  }
}

}  // namespace

FaithReport check_faithfulness(const Prepared& p, const Summary& summary, const WordBoundaries& words) {
  KESSEL_CHECK_ARG(p.dialogue != nullptr, "check_faithfulness: the prepared dialogue has no dialogue");
  KESSEL_CHECK_ARG(p.lang == Lang::en || words.split, "check_faithfulness: no word boundaries for a zh dialogue");
  for (std::size_t i = 0; i < summary.sentences.size(); ++i) {
    const int u = summary.sentences[i].unit;
    KESSEL_CHECK_ARG(u >= 0 && static_cast<std::size_t>(u) < p.units.size(), "check_faithfulness: sentence ", i,
                     " of '", summary.id, "' has unit ", u, " but the dialogue has ", p.units.size(), " units");
    const int t = p.units[static_cast<std::size_t>(u)].turn;
    KESSEL_CHECK_ARG(t >= 0 && static_cast<std::size_t>(t) < p.dialogue->turns.size(), "check_faithfulness: unit ", u,
                     " of '", summary.id, "' is in turn ", t, " but the dialogue has ", p.dialogue->turns.size(),
                     " turns");
  }
  FaithReport report;
  report.sentences = static_cast<int>(summary.sentences.size());
  for (std::size_t i = 0; i < summary.sentences.size(); ++i) {
    const SummarySentence& s = summary.sentences[i];
    const std::string& source = p.units[static_cast<std::size_t>(s.unit)].text;
    Probe probe{report, static_cast<int>(i), s.unit};
    const Pair pr = pair_up(source, s.body, p.lang, words);
    probe_negation(probe, pr, p.lang);
    probe_question(probe, pr, p.lang);
    if (p.lang == Lang::zh) probe_word_cut_zh(probe, pr, source, words);
    else probe_word_cut_en(probe, pr);
    probe_merge(probe, p, summary, i);
  }
  return report;
}

}  // namespace kessel::summarize
