#pragma once

namespace kessel::cli {

// The review page `kessel serve` answers GET / with. It loads nothing from the network: its script and
// style are served by the binary too, and it talks to the server's POST routes.
const char* review_page_html();    // GET /            text/html
const char* review_page_script();  // GET /review.js   text/javascript
const char* review_page_style();   // GET /review.css  text/css

}  // namespace kessel::cli
