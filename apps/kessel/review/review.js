// The review page's script (served as /review.js; the page has no inline script, so a
// Content-Security-Policy of script-src 'self' holds). Dialogue text only ever enters the DOM as
// text nodes (textContent, createTextNode): never innerHTML.
'use strict';

const state = {results: [], shown: [], selected: -1, units: []};
const $ = (id) => document.getElementById(id);

// ---- DOM helpers -------------------------------------------------------------------------------
function el(tag, attrs, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (k === 'class') node.className = v;
    else if (k === 'text') node.textContent = v;
    else if (k.startsWith('on')) node.addEventListener(k.slice(2), v);
    else node.setAttribute(k, v);
  }
  for (const c of children) node.append(c);  // strings become text nodes
  return node;
}

const SVG = 'http://www.w3.org/2000/svg';
function svg(tag, attrs) {
  const node = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs || {})) node.setAttribute(k, String(v));
  return node;
}

// ---- input: split a file into dialogues, so it can be sent in batches ---------------------------
// JSON (an object or an array) -> one JSON line per dialogue; JSONL -> its non-empty lines;
// otherwise a plain-text transcript, split at `---` lines and `# id:` headers. A transcript dialogue
// without a header gets `# id: line<N>` (N its first line in the file), the id the CLI would give.
function splitInput(text) {
  const trimmed = text.replace(/^\uFEFF/, '').trim();
  if (!trimmed) return {kind: 'empty', units: []};
  try {
    const parsed = JSON.parse(trimmed);
    if (Array.isArray(parsed)) return {kind: 'json', units: parsed.map((d) => JSON.stringify(d))};
    if (parsed && typeof parsed === 'object') return {kind: 'json', units: [JSON.stringify(parsed)]};
  } catch (e) { /* not one JSON value: JSONL or a transcript */ }
  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/);
  const first = lines.find((l) => l.trim() !== '');
  if (first.trim().startsWith('{')) return {kind: 'jsonl', units: lines.filter((l) => l.trim() !== '')};
  return {kind: 'transcript', units: splitTranscript(lines)};
}

function splitTranscript(lines) {
  const units = [];
  let current = null;
  const flush = () => {
    if (current && current.body.some((l) => l.trim() !== '' && !/^#\s*id\s*[:：]/i.test(l.trim()))) {
      units.push(current.body.join('\n'));
    } else if (current && current.header) {
      units.push(current.body.join('\n'));  // an empty dialogue: the server names the error
    }
    current = null;
  };
  lines.forEach((line, i) => {
    const t = line.trim();
    if (/^-{3,}$/.test(t)) { flush(); return; }
    if (/^#\s*id\s*[:：]/i.test(t)) { flush(); current = {header: true, body: [line]}; return; }
    if (t === '' && !current) return;
    if (!current) current = {header: false, body: [`# id: line${i + 1}`]};
    current.body.push(line);
  });
  flush();
  return units;
}

// A POST to the server, with the bearer token when one is entered (kessel serve --token-file).
function post(route, body) {
  const headers = {'Content-Type': 'application/x-ndjson'};
  const token = $('token').value.trim();
  if (token) headers.Authorization = `Bearer ${token}`;
  return fetch(route, {method: 'POST', headers, body});
}

// The server's {"error"} message of a failed answer (or its text), with a hint for a 401.
function failure(status, body) {
  let message = body;
  try { message = JSON.parse(body).error; } catch (e) { /* not JSON: the text as it came */ }
  if (status === 401) message += ' (the server wants its token: enter it in the token box)';
  return `HTTP ${status}: ${message}`;
}

// ---- summarizing in batches ----------------------------------------------------------------------
async function summarizeText(text) {
  const {units} = splitInput(text);
  delete document.body.dataset.done;  // set again, to the count, when every batch has answered
  $('errors').replaceChildren();
  if (units.length === 0) { showError('the input holds no dialogue'); return; }
  state.results = [];
  state.units = units;
  const size = Math.max(1, parseInt($('batch').value, 10) || 25);
  const started = performance.now();
  setProgress(0, units.length, started);
  for (let at = 0; at < units.length; at += size) {
    const batch = units.slice(at, at + size);
    await summarizeBatch(batch, at, units.length);
    setProgress(Math.min(at + size, units.length), units.length, started);
  }
  document.body.dataset.done = String(state.results.length);
  refreshFilters();
  applyFilters();
}

async function summarizeBatch(batch, at, total) {
  const where = `dialogues ${at + 1}–${at + batch.length} of ${total}`;
  try {
    const r = await post('summarize?explain=1', batch.join('\n') + '\n');
    const body = await r.text();
    if (!r.ok) {
      showError(`${where}: ${failure(r.status, body)}`);
      return;
    }
    for (const line of body.split('\n')) {
      if (line.trim() !== '') state.results.push(JSON.parse(line));
    }
  } catch (e) {
    showError(`${where}: ${e.message}`);
  }
}

function setProgress(done, total, started) {
  $('progress-row').hidden = false;
  $('progress').max = total;
  $('progress').value = done;
  const seconds = (performance.now() - started) / 1000;
  const rate = seconds > 0 ? ` · ${(done / seconds).toFixed(1)} dialogues/s` : '';
  $('progress-text').textContent = `${done} / ${total} dialogues${rate}`;
}

function showError(message) {
  $('errors').append(el('li', {text: message}));
}

// ---- derived fields ------------------------------------------------------------------------------
// The customer's strongest expressed emotion (the records list the customer's only); among equals,
// the one the summary keeps, then the earliest.
function strongest(rec) {
  const rank = (e) => [e.strength, e.in_summary ? 1 : 0, -e.turn, -e.start];
  const better = (a, b) => { const x = rank(a), y = rank(b); const i = x.findIndex((v, k) => v !== y[k]); return i >= 0 && x[i] > y[i]; };
  let best = null;
  for (const e of rec.emotions || []) if (!best || better(e, best)) best = e;
  return best;
}

function isChinese(rec) {
  return /[\u3400-\u9fff]/.test(rec.summary || '') || (rec.turns || []).some((t) => /[\u3400-\u9fff]/.test(t.text));
}

function speakerLabel(rec, speaker) {
  if (isChinese(rec)) return speaker === 'agent' ? '客服' : '用户';
  return speaker === 'agent' ? 'Agent' : 'Customer';
}

function bound(rec) {
  return Boolean(rec.constraint_bound) || (rec.constraint_cost || 0) > 0;
}

// A colour class per emotion name: the common ones fixed, any other (the lexicons name more) hashed.
const EMOTION_CLASS = {anger: 'emo-0', joy: 'emo-1', happiness: 'emo-1', disgust: 'emo-2', sadness: 'emo-3',
                       fear: 'emo-4', anxiety: 'emo-4', surprise: 'emo-6', disappointment: 'emo-5'};
function emotionClass(name) {
  if (EMOTION_CLASS[name]) return EMOTION_CLASS[name];
  let h = 0;
  for (const ch of name || '') h = (h * 31 + ch.codePointAt(0)) >>> 0;
  return `emo-${h % 8}`;
}

// ---- the list ------------------------------------------------------------------------------------
function refreshFilters() {
  const names = [...new Set(state.results.map((r) => (strongest(r) || {}).emotion).filter(Boolean))].sort();
  const select = $('emotion');
  const keep = select.value;
  select.replaceChildren(el('option', {value: '', text: 'every emotion'}),
                         el('option', {value: '-', text: 'no emotion'}),
                         ...names.map((n) => el('option', {value: n, text: n})));
  select.value = names.includes(keep) ? keep : '';
  const any = state.results.length > 0;
  $('export-jsonl').disabled = !any;
  $('export-csv').disabled = !any;
  $('export-report').disabled = !any;
}

function matches(rec, query, emotion, boundOnly) {
  const s = strongest(rec);
  if (emotion === '-' && s) return false;
  if (emotion && emotion !== '-' && (!s || s.emotion !== emotion)) return false;
  if (boundOnly && !bound(rec)) return false;
  if (!query) return true;
  const hay = [rec.id, rec.summary, ...(rec.turns || []).map((t) => t.text)].join('\n').toLowerCase();
  return hay.includes(query);
}

function applyFilters() {
  const query = $('search').value.trim().toLowerCase();
  const emotion = $('emotion').value;
  const boundOnly = $('bound-only').checked;
  const before = state.shown[state.selected];
  state.shown = state.results.filter((r) => matches(r, query, emotion, boundOnly));
  const list = $('list');
  list.replaceChildren(...state.shown.map((rec, i) => listItem(rec, i)));
  $('count').textContent = `${state.shown.length} of ${state.results.length} shown`;
  const again = state.shown.indexOf(before);
  state.selected = -1;
  // The open dialogue stays open while the filters keep it; else the first one shown opens.
  if (again >= 0) select(again, false);
  else if (state.shown.length > 0) select(0, false);
  else $('detail').replaceChildren(el('p', {class: 'hint', text: 'No dialogue matches the filters.'}));
}

function listItem(rec, i) {
  const s = strongest(rec);
  const badges = el('span', {class: 'badges'});
  badges.append(s ? el('span', {class: `badge ${emotionClass(s.emotion)}`, title: `${s.term} · strength ${s.strength.toFixed(2)}`, text: s.emotion})
                  : el('span', {class: 'badge none', text: 'no emotion'}));
  if (bound(rec)) badges.append(el('span', {class: 'badge bound', title: `the emotion constraint changed the selection (cost ${(rec.constraint_cost || 0).toFixed(3)})`, text: 'bound'}));
  if (rec.constraint_satisfied === false) badges.append(el('span', {class: 'badge unmet', title: 'the summary misses the strongest emotion', text: 'unmet'}));
  return el('li', {class: 'item', 'data-index': String(i), 'aria-selected': 'false', onclick: () => select(i)},
            el('div', {class: 'item-head'}, el('span', {class: 'item-id', text: rec.id}), badges),
            el('div', {class: 'item-summary', text: rec.summary}));
}

function select(i, scroll = true) {
  if (i < 0 || i >= state.shown.length) return;
  const items = $('list').children;
  if (state.selected >= 0 && items[state.selected]) items[state.selected].setAttribute('aria-selected', 'false');
  state.selected = i;
  items[i].setAttribute('aria-selected', 'true');
  if (scroll) items[i].scrollIntoView({block: 'nearest'});
  showDetail(state.shown[i]);
}

// ---- the detail view -----------------------------------------------------------------------------
function showDetail(rec) {
  const detail = $('detail');
  const s = strongest(rec);
  const meta = el('p', {class: 'meta'},
                  s ? `strongest emotion: ${s.emotion} (“${s.term}”, ${s.strength.toFixed(2)}) · ` : 'no customer emotion · ',
                  rec.constraint_satisfied === false ? 'constraint not met' : 'constraint met',
                  bound(rec) ? ` · bound, cost ${(rec.constraint_cost || 0).toFixed(3)}` : ' · not bound');
  detail.replaceChildren(el('h2', {text: rec.id}), meta, summaryBlock(rec), heatMap(rec), turnsBlock(rec));
  detail.scrollTop = 0;
}

function summaryBlock(rec) {
  const list = el('ol', {class: 'summary'});
  const why = (rec.rule_channel && rec.rule_channel.sentences) || [];
  (rec.sentences || []).forEach((sent, k) => {
    const link = el('a', {href: `#turn-${sent.turn}`, 'data-turn': String(sent.turn), text: sent.text,
                          title: `from turn ${sent.turn + 1}`});
    link.addEventListener('click', (ev) => { ev.preventDefault(); focusTurn(sent.turn); });
    const item = el('li', {}, link);
    if (why[k]) item.append(reasonBlock(why[k], rec.rule_channel.rules || {}));
    list.append(item);
  });
  return el('section', {}, el('h3', {text: 'Summary'}), el('p', {class: 'summary-text', text: rec.summary}), list);
}

// The rule channel's reason for one summary sentence (dual-channel attention, docs/eaca.md): the
// key rules on the sentence itself (self_rules, with its own weight), the heaviest emotion and
// question keys near it (near), or that no rule is on or near it; and, per rule, its share of the
// rule weights as a bar. The record's `because` is the same wording with turns counted from 0; the
// page counts them from 1, so it words the reasons itself (keep the two in step:
// src/summarize/eaca_rule_channel.cc, because_of).
function becauseText(row, rules) {
  const span = rules.window_seconds !== undefined ? `${rules.window_seconds} s`
    : `${rules.window_turns} turn${rules.window_turns === 1 ? '' : 's'}`;
  const self = row.self_rules || [];
  const near = row.near || [];
  if (!self.length && !near.length) return 'no rule on or near this sentence: chosen by the learned channel alone';
  const parts = [];
  if (self.length) {
    const on = self.map((r) => (r === 'emotion' ? `holds the customer's emotion '${row.self_term}'` : 'is a customer question'));
    parts.push(`${on.join(' and ')} (${row.self_weight.toFixed(2)})`);
  }
  for (const n of near) {
    const what = n.rule === 'emotion' ? `the customer's emotion '${n.term}'` : 'a customer question';
    parts.push(`within ${span} of ${what} (turn ${n.turn + 1}, ${n.weight.toFixed(2)})`);
  }
  return `rules: ${parts.join('; ')}`;
}

// The bars are the row's weight per rule over the whole dialogue (its mass): context, not the reason,
// since the emotion and question rules weigh the same keys in every row; the heaviest key is in the
// title only.
function reasonBlock(row, rules) {
  const box = el('div', {class: 'why'}, el('span', {class: 'because', text: becauseText(row, rules)}));
  const bars = el('ul', {class: 'rules'}, el('li', {class: 'caption', text: 'rule weight over the dialogue:'}));
  for (const r of row.reasons || []) {
    const pct = Math.round(100 * Math.max(0, Math.min(1, r.mass)));
    const top = (r.keys || [])[0];
    const where = top ? `; heaviest: turn ${top.turn + 1}${top.term ? ` ‘${top.term}’` : ''}` : '';
    bars.append(el('li', {class: `rule ${r.rule}`, title: `+${r.nats} nats on ${r.fired} sentence(s)${where}`},
                   el('span', {class: 'bar', style: `width:${pct}%`}),
                   el('span', {class: 'label', text: `${r.rule} ${r.mass.toFixed(2)}`})));
  }
  box.append(bars);
  return box;
}

function focusTurn(turn) {
  for (const old of document.querySelectorAll('.turn.target')) old.classList.remove('target');
  const node = document.getElementById(`turn-${turn}`);
  if (!node) return;
  node.classList.add('target');
  node.scrollIntoView({block: 'center'});
  node.focus({preventScroll: true});
}

function turnsBlock(rec) {
  const cited = new Set((rec.sentences || []).map((s) => s.turn));
  const list = el('ol', {class: 'turns'});
  (rec.turns || []).forEach((t, i) => {
    const cls = `turn ${t.speaker}${cited.has(i) ? ' cited' : ''}`;
    list.append(el('li', {id: `turn-${i}`, class: cls, tabindex: '-1'},
                   el('span', {class: 'who', text: `${i + 1} ${speakerLabel(rec, t.speaker)}`}),
                   highlighted(t.text, (rec.emotions || []).filter((e) => e.turn === i))));
  });
  if (!rec.turns) list.append(el('li', {class: 'hint', text: 'the record has no turns (summarize with explain)'}));
  return el('section', {}, el('h3', {text: 'Dialogue'}), list);
}

// The turn's text with each emotion expression marked; offsets are code points (not UTF-16 units).
function highlighted(text, emotions) {
  const cps = Array.from(text);
  const span = el('span', {class: 'text'});
  let at = 0;
  for (const e of [...emotions].sort((a, b) => a.start - b.start)) {
    if (e.start < at || e.end > cps.length || e.end <= e.start) continue;  // overlapping or out of range
    span.append(cps.slice(at, e.start).join(''));
    span.append(el('mark', {class: `emo ${emotionClass(e.emotion)}`, title: `${e.emotion} · ${e.kind} · ${e.strength.toFixed(2)}${e.in_summary ? ' · in the summary' : ''}`,
                            text: cps.slice(e.start, e.end).join('')}));
    at = e.end;
  }
  span.append(cps.slice(at).join(''));
  return span;
}

// ---- the attention heat map (SVG): rows are the customer's query turns, columns every turn; a
// cell is the row's query sentences' mean attention summed over the column turn's sentences.
function turnMatrix(rec) {
  const a = rec.attention;
  const turnOf = a.units.map((u) => u.turn);
  const rowTurns = [...new Set(a.queries.map((q) => turnOf[q]))].sort((x, y) => x - y);
  const nTurns = Math.max(rec.turns ? rec.turns.length : 0, ...turnOf.map((t) => t + 1));
  const rows = rowTurns.map((rt) => {
    const qs = a.queries.map((q, r) => [q, r]).filter(([q]) => turnOf[q] === rt);
    const row = new Array(nTurns).fill(0);
    for (const [, r] of qs) a.weights[r].forEach((w, u) => { row[turnOf[u]] += w / qs.length; });
    return row;
  });
  return {rowTurns, nTurns, rows};
}

function heatMap(rec) {
  const box = el('section', {class: 'heat'}, el('h3', {text: 'Attention'}));
  if (!rec.attention) {
    box.append(el('p', {class: 'hint', text: rec.attention_omitted || 'no attention map'}));
    return box;
  }
  const {rowTurns, nTurns, rows} = turnMatrix(rec);
  const cell = nTurns > 30 ? 14 : 22;
  const left = 86, top = 40;
  const max = Math.max(1e-9, ...rows.flat());
  const map = svg('svg', {width: left + nTurns * cell + 8, height: top + rows.length * cell + 8, role: 'img',
                          'aria-label': 'attention of the customer turns (rows) over every turn (columns)'});
  const speaker = (t) => (rec.turns && rec.turns[t] ? rec.turns[t].speaker : 'customer');
  for (let t = 0; t < nTurns; ++t) {
    const label = svg('text', {x: left + t * cell + cell / 2, y: top - 8, class: `col ${speaker(t)}`, 'text-anchor': 'middle'});
    label.textContent = String(t + 1);
    map.append(label, svg('rect', {x: left + t * cell, y: top - 4, width: cell - 1, height: 3, class: `strip ${speaker(t)}`}));
  }
  rows.forEach((row, r) => {
    const label = svg('text', {x: left - 6, y: top + r * cell + cell * 0.7, class: `row ${speaker(rowTurns[r])}`, 'text-anchor': 'end'});
    label.textContent = `${speakerLabel(rec, speaker(rowTurns[r]))} ${rowTurns[r] + 1}`;
    map.append(label);
    row.forEach((w, t) => {
      const rect = svg('rect', {x: left + t * cell, y: top + r * cell, width: cell - 1, height: cell - 1,
                                fill: heatColour(w / max), class: 'cell', 'data-turn': t});
      const tip = svg('title');
      tip.textContent = `turn ${rowTurns[r] + 1} → turn ${t + 1}: ${w.toFixed(3)}`;
      rect.append(tip);
      rect.addEventListener('click', () => focusTurn(t));
      map.append(rect);
    });
  });
  box.append(map, el('p', {class: 'legend', text: 'Rows: the customer turns the ranker queries from; columns: every turn (blue customer, orange agent). Darker is more attention; click a cell to see its turn.'}));
  return box;
}

function heatColour(x) {  // white to dark blue
  const v = Math.max(0, Math.min(1, x));
  const c = (lo, hi) => Math.round(lo + (hi - lo) * v);
  return `rgb(${c(247, 8)},${c(251, 48)},${c(255, 107)})`;
}

// ---- export --------------------------------------------------------------------------------------
function download(name, type, text) {
  const url = URL.createObjectURL(new Blob([text], {type}));
  const a = el('a', {href: url, download: name});
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

function exportJsonl() {
  download('kessel-summaries.jsonl', 'application/x-ndjson', state.shown.map((r) => JSON.stringify(r)).join('\n') + '\n');
}

// One quoted field; a leading = + - @ is prefixed with ' so a spreadsheet does not run it as a formula.
function csvField(v) {
  let s = v === undefined || v === null ? '' : String(v);
  if (/^[=+\-@\t\r]/.test(s)) s = `'${s}`;
  return `"${s.replace(/"/g, '""')}"`;
}

const CSV_COLUMNS = ['id', 'summary', 'emotion', 'term', 'strength', 'constraint_satisfied', 'constraint_bound',
                     'constraint_cost', 'emotions', 'summary_turns'];
function csvRow(rec) {
  const s = strongest(rec) || {};
  return [rec.id, rec.summary, s.emotion, s.term, s.strength === undefined ? '' : s.strength.toFixed(4),
          rec.constraint_satisfied, bound(rec), rec.constraint_cost,
          (rec.emotions || []).map((e) => `${e.emotion}:${e.term}`).join('; '),
          (rec.sentences || []).map((x) => x.turn + 1).join(' ')].map(csvField).join(',');
}

function exportCsv() {
  const lines = [CSV_COLUMNS.join(','), ...state.shown.map(csvRow)];
  download('kessel-summaries.csv', 'text/csv;charset=utf-8', '\uFEFF' + lines.join('\r\n') + '\r\n');
}

// The server's HTML report (POST /review) of the whole input, as a file: one request, so a very
// large input may exceed the server's body limit (the error says so).
async function exportReport() {
  const r = await post('review', state.units.join('\n') + '\n');
  const body = await r.text();
  if (!r.ok) {
    showError(`HTML report: ${failure(r.status, body)}`);
    return;
  }
  download('kessel-report.html', 'text/html;charset=utf-8', body);
}

// ---- wiring --------------------------------------------------------------------------------------
async function openFile(file) {
  if (file) await summarizeText(await file.text());
}

function onKey(ev) {
  const typing = ['INPUT', 'TEXTAREA', 'SELECT'].includes(document.activeElement.tagName);
  if (ev.key === 'Escape' && typing) { document.activeElement.blur(); return; }
  if (typing || ev.ctrlKey || ev.metaKey || ev.altKey) return;
  if (ev.key === 'j') select(Math.min(state.selected + 1, state.shown.length - 1));
  else if (ev.key === 'k') select(Math.max(state.selected - 1, 0));
  else if (ev.key === '/') { ev.preventDefault(); $('search').focus(); }
  else return;
  ev.preventDefault();
}

function wire() {
  const drop = $('drop');
  drop.addEventListener('dragover', (ev) => { ev.preventDefault(); drop.classList.add('over'); });
  drop.addEventListener('dragleave', () => drop.classList.remove('over'));
  drop.addEventListener('drop', (ev) => { ev.preventDefault(); drop.classList.remove('over'); openFile(ev.dataTransfer.files[0]); });
  $('file').addEventListener('change', (ev) => openFile(ev.target.files[0]));
  $('run-paste').addEventListener('click', () => summarizeText($('paste').value));
  $('search').addEventListener('input', applyFilters);
  $('emotion').addEventListener('change', applyFilters);
  $('bound-only').addEventListener('change', applyFilters);
  $('export-jsonl').addEventListener('click', exportJsonl);
  $('export-csv').addEventListener('click', exportCsv);
  $('export-report').addEventListener('click', exportReport);
  document.addEventListener('keydown', onKey);
}

wire();
