// The HTML review page of `kessel summarize --html`: for each dialogue the summary (each sentence links
// to its source turn), the dialogue with emotion words highlighted (kept ones marked), and the
// attention heat map of customer sentences over all sentences. One self-contained file, no scripts.
#include "report_html.h"

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <sstream>

#include "kessel/error.h"
#include "kessel/text/utf8.h"
#include "summarize/eaca_rule_channel.h"
#include "util/atomic_file.h"

namespace kessel::cli {

std::string html_escape(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (char c : s) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      default: out += c;
    }
  }
  return out;
}

namespace {

constexpr std::size_t kMaxHeatMapUnits = 300;

// Turn text with each emotion mention wrapped in <mark>; offsets are code points.
std::string highlighted_turn(const std::string& text, const std::vector<summarize::SummaryEmotion>& emotions,
                             int turn) {
  const auto decoded = text::decode_utf8(text, text::Utf8Mode::lossy);
  std::vector<const summarize::SummaryEmotion*> here;
  for (const auto& e : emotions)
    if (e.turn == turn) here.push_back(&e);
  std::sort(here.begin(), here.end(), [](auto* a, auto* b) { return a->start < b->start; });
  std::string out;
  long pos = 0;
  const long n = static_cast<long>(decoded.size());
  for (const auto* e : here) {
    if (e->start < pos || e->end > n) continue;  // overlapping or stale offsets: leave unmarked
    out += html_escape(text::encode_utf8(decoded.cps.data() + pos, static_cast<std::size_t>(e->start - pos)));
    out += std::string("<mark class=\"") + (e->in_summary ? "kept" : "lost") + "\" title=\"" +
           html_escape(e->emotion) + (e->in_summary ? ", kept in the summary" : "") + "\">";
    out += html_escape(text::encode_utf8(decoded.cps.data() + e->start, static_cast<std::size_t>(e->end - e->start)));
    out += "</mark>";
    pos = e->end;
  }
  out += html_escape(text::encode_utf8(decoded.cps.data() + pos, static_cast<std::size_t>(n - pos)));
  return out;
}

std::string heat_color(float w, float max_w) {
  const float t = max_w > 0 ? std::clamp(w / max_w, 0.0f, 1.0f) : 0.0f;
  const int shade = static_cast<int>(255 - 200 * t);
  char buf[32];
  std::snprintf(buf, sizeof buf, "rgb(255,%d,%d)", shade, shade);
  return buf;
}

}  // namespace

void HtmlReport::add(const summarize::Prepared& p, const summarize::Summary& s,
                     const summarize::UnitScores& scores) {
  const std::string anchor = "d" + std::to_string(count_++);
  std::string& h = body_;
  h += "<section id=\"" + anchor + "\"><h2>" + html_escape(s.id) + "</h2>\n";
  h += "<h3>Summary</h3><ol class=\"summary\">";
  // The rule channel's reason for each sentence (dual-channel attention; the learned channel chose it).
  const auto rules = p.dialogue ? summarize::rule_channel(p, s) : summarize::RuleChannel{};
  for (std::size_t k = 0; k < s.sentences.size(); ++k) {
    const auto& sent = s.sentences[k];
    h += "<li><a href=\"#" + anchor + "-t" + std::to_string(sent.turn) + "\">" + html_escape(sent.text) +
         "</a> <span class=\"src\">turn " + std::to_string(sent.turn) + "</span>";
    if (k < rules.rows.size()) h += "<div class=\"why\">" + html_escape(rules.rows[k].because) + "</div>";
    h += "</li>";
  }
  h += "</ol><p class=\"constraint\">emotion constraint: ";
  h += s.constraint_satisfied ? "satisfied" : "<b>not satisfied</b>";
  h += "</p>\n<h3>Dialogue</h3><table class=\"dialogue\">";
  std::vector<char> selected_turn(p.dialogue ? p.dialogue->turns.size() : 0, 0);
  for (const auto& sent : s.sentences)
    if (sent.turn >= 0 && static_cast<std::size_t>(sent.turn) < selected_turn.size()) selected_turn[static_cast<std::size_t>(sent.turn)] = 1;
  if (p.dialogue) {
    for (std::size_t t = 0; t < p.dialogue->turns.size(); ++t) {
      const auto& turn = p.dialogue->turns[t];
      h += "<tr id=\"" + anchor + "-t" + std::to_string(t) + "\"" + (selected_turn[t] ? " class=\"sel\"" : "") +
           "><td class=\"n\">" + std::to_string(t) + "</td><td class=\"who\">" +
           (turn.speaker == text::Speaker::customer ? "customer" : "agent") + "</td><td>" +
           highlighted_turn(turn.text, s.emotions, static_cast<int>(t)) + "</td></tr>";
    }
  }
  h += "</table>\n";
  const auto& a = scores.attention;
  const bool has_map = a.size() > 0 && a.rank() == 2 && a.dim(1) == static_cast<Index>(p.units.size());
  // The map has one cell per (customer sentence, sentence): a 10,000-turn dialogue would need
  // gigabytes of HTML and no reader can scan it. Say so instead of drawing it.
  if (!has_map && p.units.size() > static_cast<std::size_t>(summarize::kMaxExplainUnits)) {
    h += "<p class=\"src\">Attention map omitted: " + std::to_string(p.units.size()) +
         " sentences (scorers compute it up to " + std::to_string(summarize::kMaxExplainUnits) + ").</p>";
  } else if (has_map && p.units.size() > kMaxHeatMapUnits) {
    h += "<p class=\"src\">Attention map omitted: " + std::to_string(p.units.size()) +
         " sentences (the page draws it up to " + std::to_string(kMaxHeatMapUnits) +
         "; <code>kessel summarize --explain</code> gives the full map).</p>";
  } else if (has_map) {
    h += "<h3>Attention (customer sentences &rarr; all sentences)</h3><div class=\"heat\"><table><tr><th></th>";
    for (std::size_t u = 0; u < p.units.size(); ++u)
      h += "<th title=\"" + html_escape(p.units[u].text) + "\">" + std::to_string(u) + "</th>";
    h += "</tr>";
    float max_w = 0.0f;
    for (Index i = 0; i < a.size(); ++i) max_w = std::max(max_w, a[i]);
    for (Index r = 0; r < a.dim(0); ++r) {
      const int q = r < static_cast<Index>(scores.attention_queries.size()) ? scores.attention_queries[static_cast<std::size_t>(r)] : -1;
      h += "<tr><th title=\"" + (q >= 0 ? html_escape(p.units[static_cast<std::size_t>(q)].text) : std::string()) + "\">" +
           std::to_string(q) + "</th>";
      for (Index j = 0; j < a.dim(1); ++j) {
        const float w = a[r * a.dim(1) + j];
        char value[16];
        std::snprintf(value, sizeof value, "%.3f", w);
        h += "<td style=\"background:" + heat_color(w, max_w) + "\" title=\"" + value + "\"></td>";
      }
      h += "</tr>";
    }
    h += "</table></div><p class=\"src\">Sentences: ";
    for (std::size_t u = 0; u < p.units.size(); ++u)
      h += std::to_string(u) + " = turn " + std::to_string(p.units[u].turn) + " &ldquo;" + html_escape(p.units[u].text) + "&rdquo;; ";
    h += "</p>";
  }
  h += "</section>\n";
}

std::string HtmlReport::html() const {
  std::ostringstream out;
  out << "<!doctype html><html><head><meta charset=\"utf-8\"><title>kessel summaries</title><style>"
         "body{font-family:sans-serif;max-width:70em;margin:1em auto;line-height:1.45}"
         "section{border-top:2px solid #888;margin-top:2em}"
         "mark.kept{background:#ffd54f;font-weight:bold}mark.lost{background:#eee}"
         "tr.sel td{background:#e8f5e9}td.n,td.who{color:#666;padding-right:1em;white-space:nowrap}"
         ".src{color:#777;font-size:85%}.heat td{width:1.2em;height:1.2em;border:1px solid #fff}"
         ".heat th{font-size:70%;color:#555}.why{color:#555;font-size:85%}</style></head><body>"
         "<h1>kessel summaries</h1><p>"
      << count_
      << " dialogues. Highlighted: customer emotion words (bold yellow: kept in the summary). "
         "Summary sentences link to their source turns; green rows are the turns the summary quotes. "
         "Under each sentence, the rule channel's reason: the explicit rules (customer emotion, customer "
         "question, time window) and the weights they give."
         "</p>\n"
      << body_ << "</body></html>\n";
  return out.str();
}

void HtmlReport::write(const std::string& path) const {
  util::write_file_atomically(path, html(), "--html " + path);
}

}  // namespace kessel::cli
