// The training-curves page of `kessel train --curves` (training_curves.h).
#include "training_curves.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <vector>

#include "report_html.h"

namespace kessel::cli {

namespace {

// One colour per member, cycled (a colour-blind-safe qualitative palette).
constexpr const char* kColours[] = {"#0072b2", "#d55e00", "#009e73", "#cc79a7", "#e69f00", "#56b4e9", "#000000"};

struct Point {
  double x, y;
};

std::string fmt(double v, int decimals) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
  return buf;
}

// A "nice" tick step for a range: 1, 2 or 5 times a power of ten, about five ticks.
double tick_step(double span) {
  if (!(span > 0.0)) return 1.0;
  const double raw = span / 5.0;
  const double p = std::pow(10.0, std::floor(std::log10(raw)));
  for (double m : {1.0, 2.0, 5.0})
    if (raw <= m * p) return m * p;
  return 10.0 * p;
}

// One line chart: x = epoch, a polyline per member, a ring on each member's marked point.
std::string line_chart(const std::string& title, const std::vector<std::vector<Point>>& lines,
                       const std::vector<Point>& marks, int decimals) {
  const double W = 560, H = 300, left = 56, right = 16, top = 30, bottom = 40;
  double x_max = 1, y_lo = 1e300, y_hi = -1e300;
  for (const auto& line : lines)
    for (const auto& p : line) {
      x_max = std::max(x_max, p.x);
      y_lo = std::min(y_lo, p.y);
      y_hi = std::max(y_hi, p.y);
    }
  if (y_lo > y_hi) y_lo = 0, y_hi = 1;
  if (y_hi - y_lo < 1e-9) y_lo -= 0.5, y_hi += 0.5;
  const double step = tick_step(y_hi - y_lo);
  y_lo = std::floor(y_lo / step) * step;
  y_hi = std::ceil(y_hi / step) * step;
  auto X = [&](double x) { return left + (W - left - right) * (x_max > 1 ? (x - 1) / (x_max - 1) : 0.5); };
  auto Y = [&](double y) { return top + (H - top - bottom) * (1.0 - (y - y_lo) / (y_hi - y_lo)); };

  std::string s = "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" + fmt(W, 0) + "\" height=\"" + fmt(H, 0) +
                   "\" role=\"img\"><title>" + html_escape(title) + "</title>\n";
  s += "<text x=\"" + fmt(W / 2, 0) + "\" y=\"18\" text-anchor=\"middle\" class=\"t\">" + html_escape(title) + "</text>\n";
  for (double y = y_lo; y <= y_hi + step / 2; y += step) {
    s += "<line x1=\"" + fmt(left, 1) + "\" x2=\"" + fmt(W - right, 1) + "\" y1=\"" + fmt(Y(y), 1) + "\" y2=\"" +
         fmt(Y(y), 1) + "\" class=\"grid\"/>";
    s += "<text x=\"" + fmt(left - 6, 1) + "\" y=\"" + fmt(Y(y) + 4, 1) + "\" text-anchor=\"end\">" + fmt(y, decimals) +
         "</text>\n";
  }
  const int x_step = std::max(1, static_cast<int>(std::ceil(x_max / 10.0)));
  for (int x = 1; x <= static_cast<int>(x_max); x += x_step)
    s += "<text x=\"" + fmt(X(x), 1) + "\" y=\"" + fmt(H - bottom + 16, 1) + "\" text-anchor=\"middle\">" +
         std::to_string(x) + "</text>";
  s += "\n<text x=\"" + fmt((left + W - right) / 2, 0) + "\" y=\"" + fmt(H - 6, 0) + "\" text-anchor=\"middle\">epoch</text>\n";
  for (std::size_t m = 0; m < lines.size(); ++m) {
    const char* colour = kColours[m % std::size(kColours)];
    std::string pts;
    for (const auto& p : lines[m]) pts += fmt(X(p.x), 1) + "," + fmt(Y(p.y), 1) + " ";
    s += "<polyline class=\"member\" data-member=\"" + std::to_string(m) + "\" fill=\"none\" stroke=\"" + colour +
         "\" stroke-width=\"1.5\" points=\"" + pts + "\"/>\n";
    if (m < marks.size())
      s += "<circle class=\"best\" cx=\"" + fmt(X(marks[m].x), 1) + "\" cy=\"" + fmt(Y(marks[m].y), 1) +
           "\" r=\"4.5\" fill=\"none\" stroke=\"" + colour + "\" stroke-width=\"2\"><title>member " +
           std::to_string(m + 1) + ": best epoch " + fmt(marks[m].x, 0) + ", " + fmt(marks[m].y, decimals) +
           "</title></circle>\n";
  }
  return s + "</svg>\n";
}

}  // namespace

std::string training_curves_html(const summarize::TrainResult& r, const std::string& title, const std::string& summary) {
  std::map<int, std::vector<const summarize::EpochLog*>> by_member;
  for (const auto& e : r.epochs) by_member[e.member].push_back(&e);
  std::vector<std::vector<Point>> loss, dev;
  std::vector<Point> best_loss, best_dev;
  for (const auto& [member, logs] : by_member) {
    loss.emplace_back();
    dev.emplace_back();
    for (const auto* e : logs) {
      loss.back().push_back({static_cast<double>(e->epoch), e->loss});
      dev.back().push_back({static_cast<double>(e->epoch), e->dev_rougeL});
    }
    const auto m = static_cast<std::size_t>(member);
    const int best = m < r.member_best_epochs.size() ? r.member_best_epochs[m] : 0;
    for (const auto* e : logs)
      if (e->epoch == best) {
        best_loss.push_back({static_cast<double>(best), e->loss});
        best_dev.push_back({static_cast<double>(best), e->dev_rougeL});
      }
  }
  std::string legend;
  for (std::size_t m = 0; m < loss.size(); ++m)
    legend += "<span style=\"color:" + std::string(kColours[m % std::size(kColours)]) + "\">&#9644; member " +
              std::to_string(m + 1) + "</span> ";
  std::string h =
      "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>" + html_escape(title) +
      "</title>\n<style>body{font-family:sans-serif;margin:2em;color:#222}svg{margin:0 1em 1em 0}"
      "svg text{font-size:11px;fill:#444}svg text.t{font-size:13px;fill:#222}.grid{stroke:#ddd}"
      "p.note{color:#555;max-width:60em}</style></head><body>\n<h1>" +
      html_escape(title) + "</h1>\n<p>" + html_escape(summary) + "</p>\n<p>" + legend + "</p>\n";
  h += line_chart("training loss (mean per dialogue)", loss, best_loss, 2);
  h += line_chart("dev ROUGE-L (fixed base budget)", dev, best_dev, 1);
  h += "<p class=\"note\">One line per ensemble member; a ring marks the epoch each member keeps (early stopping "
       "on dev ROUGE-L). With cross-fitting, member k's dev data are fold k, which it never trains on.</p>\n"
       "</body></html>\n";
  return h;
}

}  // namespace kessel::cli
