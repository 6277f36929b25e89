#pragma once

namespace kessel::cli {

// The HTML of the review page `kessel serve` answers GET / with: one self-contained document (no
// network), which talks to the server's POST routes.
const char* review_page_html();

}  // namespace kessel::cli
