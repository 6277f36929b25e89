// `kessel summarize --html` and `kessel serve`: a self-contained review page (see report_html.cc).
#pragma once

#include <string>
#include <string_view>

#include "kessel/summarize/summary.h"

namespace kessel::cli {

// & < > " as entities: text and attribute values in the generated pages.
std::string html_escape(std::string_view s);

class HtmlReport {
 public:
  void add(const summarize::Prepared& p, const summarize::Summary& s, const summarize::UnitScores& scores);
  std::string html() const;                   // the whole page
  void write(const std::string& path) const;  // IoError when it cannot be written

 private:
  std::string body_;
  std::size_t count_ = 0;
};

}  // namespace kessel::cli
