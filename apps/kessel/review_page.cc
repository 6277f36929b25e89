// The review page served by `kessel serve`: the document at /, its script at /review.js and its style
// at /review.css. The page has no inline script, so the server's Content-Security-Policy can forbid it.
// The three are written as real files in apps/kessel/review/ (the workflow is in docs/review.md) and
// embedded at build time by cmake/embed_review_page.cmake into review_page_assets.inc.
#include "review_page.h"

#include "review_page_assets.inc"

namespace kessel::cli {

const char* review_page_html() { return kReviewHtml; }
const char* review_page_script() { return kReviewScript; }
const char* review_page_style() { return kReviewStyle; }

}  // namespace kessel::cli
