// The review page served by `kessel serve`: the document at /, its script at /review.js and its style
// at /review.css. The page has no inline script, so the server's Content-Security-Policy can forbid it.
#include "review_page.h"

namespace kessel::cli {

const char* review_page_html() {
  return R"html(<!doctype html><html><head><meta charset="utf-8"><title>kessel review</title>
<link rel="stylesheet" href="review.css"></head><body>
<h1>kessel review</h1>
<p>Paste dialogues: JSONL (one dialogue a line) in the kessel, CSDS or TweetSumm format, a JSON object,
or an array. The summary keeps the customer's emotion words (bold yellow) and links each sentence to its
turn. <code>POST /summarize</code> returns the same as JSON lines.</p>
<textarea id="d">{"id": "zh-1", "turns": [{"speaker": "customer", "text": "我的快递三天了还没到，气死我了！"}, {"speaker": "agent", "text": "非常抱歉，请提供一下订单号。"}, {"speaker": "customer", "text": "订单号123456，太失望了"}, {"speaker": "agent", "text": "已为您催促，今天送达。"}]}
{"id": "en-1", "turns": [{"speaker": "customer", "text": "My order never arrived and nobody answers. This is ridiculous!"}, {"speaker": "agent", "text": "Sorry about that. Can you DM us the order number?"}, {"speaker": "customer", "text": "Sent. Please hurry."}, {"speaker": "agent", "text": "Thanks, a replacement ships today."}]}</textarea>
<p><button id="go">Summarize</button> <span id="err"></span></p>
<iframe id="out" title="report"></iframe>
<script src="review.js"></script></body></html>
)html";
}

const char* review_page_script() {
  return R"js(async function go() {
  const err = document.getElementById('err');
  err.textContent = '';
  const r = await fetch('review', {method: 'POST', body: document.getElementById('d').value});
  const text = await r.text();
  if (!r.ok) { try { err.textContent = JSON.parse(text).error; } catch (e) { err.textContent = text; } return; }
  document.getElementById('out').srcdoc = text;
}
document.getElementById('go').addEventListener('click', go);
)js";
}

const char* review_page_style() {
  return R"css(body{font-family:sans-serif;max-width:70em;margin:1em auto;line-height:1.45}
textarea{width:100%;height:14em;font-family:monospace}iframe{width:100%;height:60em;border:1px solid #ccc}
#err{color:#b00020;white-space:pre-wrap}
)css";
}

}  // namespace kessel::cli
