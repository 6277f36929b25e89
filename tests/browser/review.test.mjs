// The review page in a real browser (issue 24, item 5): Debian's chromium driven by playwright-core
// (no browser is downloaded). Starts `kessel serve --port 0`, uploads a file in batches, filters,
// searches, opens a dialogue, follows a summary link to its turn, walks the list with j/k, exports
// JSONL, CSV and the HTML report, drops a transcript file, pastes one, and checks that a dialogue holding <script> and "><img onerror=...> runs nothing.
// Screenshots go to $KESSEL_SCREENSHOT_DIR (docs/images to refresh the committed ones), else to
// <build>/browser-screenshots.
//
//   node tests/browser/review.test.mjs <kessel binary> <source dir> <work dir>
import assert from 'node:assert/strict';
import {spawn, spawnSync} from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {chromium} from 'playwright-core';

const [kessel, source, work] = process.argv.slice(2);
const CHROMIUM = process.env.KESSEL_CHROMIUM || '/usr/bin/chromium';
const shots = process.env.KESSEL_SCREENSHOT_DIR || path.join(work, 'browser-screenshots');

function log(message) { process.stdout.write(`browser: ${message}\n`); }

// `kessel serve --port 0` prints "... on http://127.0.0.1:<port>/ ..." on stderr once it listens.
function startServer() {
  const proc = spawn(kessel, ['serve', '--port', '0'], {stdio: ['ignore', 'ignore', 'pipe']});
  return new Promise((resolve, reject) => {
    let seen = '';
    const timer = setTimeout(() => reject(new Error(`kessel serve printed no port in 30 s: ${seen}`)), 30000);
    proc.stderr.on('data', (chunk) => {
      seen += chunk.toString();
      const m = seen.match(/http:\/\/[^\s/]+:(\d+)\//);
      if (m) { clearTimeout(timer); resolve({proc, base: `http://127.0.0.1:${m[1]}/`}); }
    });
    proc.on('exit', (code) => reject(new Error(`kessel serve exited (${code}): ${seen}`)));
  });
}

// The bundled samples plus one 25-turn Chinese dialogue (the heat map's readability case).
function writeFixtures(dir) {
  const lines = ['zh', 'en'].flatMap((lang) =>
    fs.readFileSync(path.join(source, 'data', 'samples', `dialogues_${lang}.jsonl`), 'utf8').split('\n').filter((l) => l.trim()));
  const customer = ['在吗？我的快递三天了还没到，气死我了！', '订单号是123456。', '怎么还没有消息？太失望了。',
                    '我已经等了很久了。', '好吧，那我再等等。'];
  const agent = ['您好，非常抱歉给您带来不便。', '请提供一下订单号。', '已为您催促快递。', '预计今天下午送达。', '还有其他可以帮您的吗？'];
  const turns = Array.from({length: 25}, (_, i) => (i % 2 === 0
    ? {speaker: 'customer', text: customer[(i / 2) % customer.length]}
    : {speaker: 'agent', text: agent[((i - 1) / 2) % agent.length]}));
  lines.push(JSON.stringify({id: 'zh-long-25', turns}));
  const upload = path.join(dir, 'dialogues.jsonl');
  fs.writeFileSync(upload, lines.join('\n') + '\n');
  return {upload, count: lines.length};
}

// A pasted transcript: the page splits it at `---` and `# id:` and gives a dialogue without a header
// the id the CLI would (line<N>, N its first line).
const TRANSCRIPT = '# id: zh-call\n[10:32] 用户: 我的快递三天了还没到，\n  气死我了！\n[10:33] 客服: 非常抱歉。\n' +
                   '[10:34] 用户: 太失望了。\n---\nCustomer: My order never arrived, I am furious.\nAgent: Sorry about that.\n';

const XSS_ID = '"><img src=x onerror="window.__xss=\'id\'">';
const XSS = JSON.stringify({id: XSS_ID, turns: [
  {speaker: 'customer', text: '<script>window.__xss="script"</script>我很生气！"><img src=x onerror="window.__xss=\'turn\'">'},
  {speaker: 'agent', text: '<img src=x onerror=alert(1)> 抱歉 <svg onload="window.__xss=\'svg\'">'},
  {speaker: 'customer', text: 'still angry </textarea><script>window.__xss="late"</script>'}]});

// The page runs under the Content-Security-Policy the server sends (checked to forbid inline script
// on every response); `strip` removes it instead, so that the XSS check tests the page's own escaping
// with no CSP behind it.
async function withCsp(page, base, strip) {
  await page.route(`${base}**`, async (route) => {
    const response = await route.fetch();
    const headers = {...response.headers()};
    if (strip) {
      delete headers['content-security-policy'];
    } else {
      const csp = headers['content-security-policy'] || '';
      assert.match(csp, /script-src 'self'(;|$)/, `${route.request().url()}: CSP ${JSON.stringify(csp)}`);
    }
    await route.fulfill({response, headers});
  });
}

async function upload(page, file, count) {
  await page.fill('#batch', '5');
  await page.setInputFiles('#file', file);
  await page.waitForSelector(`body[data-done="${count}"]`, {timeout: 30000});
  assert.equal(await page.locator('#list > li').count(), count);
  assert.equal(await page.textContent('#progress-text').then((t) => t.split(' dialogues')[0]), `${count} / ${count}`);
  assert.equal(await page.locator('#errors li').count(), 0, await page.textContent('#errors'));
}

async function filterAndSearch(page, count) {
  const emotions = await page.$$eval('#emotion option', (os) => os.map((o) => o.value).filter((v) => v && v !== '-'));
  assert.ok(emotions.length > 0, 'no emotion to filter by');
  await page.selectOption('#emotion', emotions[0]);
  const badges = await page.$$eval('#list .badge:first-child', (bs) => bs.map((b) => b.textContent));
  assert.ok(badges.length > 0 && badges.length < count, `filter ${emotions[0]} kept ${badges.length} of ${count}`);
  assert.ok(badges.every((b) => b === emotions[0]), badges.join(','));
  await page.selectOption('#emotion', '');
  await page.fill('#search', '耳机');
  assert.deepEqual(await page.$$eval('#list .item-id', (ids) => ids.map((i) => i.textContent)), ['zh-002']);
  await page.fill('#search', '');
  assert.equal(await page.locator('#list > li').count(), count);
}

// The rule channel's reasons in the CLI's --explain record of a sample dialogue, with turns counted
// from 1 as the page counts them (the record counts from 0).
function recordReasons(lang, id) {
  const input = path.join(source, 'data', 'samples', `dialogues_${lang}.jsonl`);
  const run = spawnSync(kessel, ['summarize', '--input', input, '--explain'], {encoding: 'utf8'});
  assert.equal(run.status, 0, run.stderr);
  const rec = run.stdout.split('\n').filter((l) => l.trim()).map((l) => JSON.parse(l)).find((r) => r.id === id);
  return rec.rule_channel.sentences.map((row) => row.because.replace(/\(turn (\d+), /g, (_, t) => `(turn ${Number(t) + 1}, `));
}

async function openAndFollow(page) {
  await page.click('#list .item-id >> text=zh-001');
  assert.equal(await page.textContent('#detail h2'), 'zh-001');
  assert.ok(await page.locator('#detail mark.emo').count() > 0, 'no emotion word highlighted');
  const link = page.locator('#detail .summary a').last();
  const turn = await link.getAttribute('data-turn');
  await link.click();
  assert.ok(await page.locator(`#turn-${turn}`).evaluate((n) => n.classList.contains('target')), `turn ${turn} not highlighted`);
  assert.ok(await page.locator('#detail .heat rect.cell').count() > 0, 'no heat map');
  // The rule channel's reason under each summary sentence (dual-channel attention).
  const reasons = await page.$$eval('#detail .summary .why .because', (ns) => ns.map((n) => n.textContent));
  assert.equal(reasons.length, await page.locator('#detail .summary a').count(), 'a summary sentence lacks its reason');
  assert.deepEqual(reasons, recordReasons('zh', 'zh-001'), 'the page words the reasons as the record does');
  assert.ok(reasons.every((r) => r.startsWith('rules: ') || r.startsWith('no rule on or near this sentence')),
            reasons.join('\n'));
  assert.ok(await page.locator('#detail .summary .why li.rule.window').count() > 0, 'no rule bars');
  // The bars are each rule's weight over the dialogue: they name no sentence's emotion.
  const bars = await page.$$eval('#detail .summary .why li.rule .label', (ns) => ns.map((n) => n.textContent));
  assert.ok(bars.every((b) => /^(emotion|question|window) \d\.\d\d$/.test(b)), bars.join('\n'));
  const before = await page.textContent('#detail h2');
  await page.locator('body').press('j');
  const after = await page.textContent('#detail h2');
  assert.notEqual(after, before, 'j did not move');
  await page.locator('body').press('k');
  assert.equal(await page.textContent('#detail h2'), before, 'k did not move back');
}

async function exports(page, count) {
  const [jsonl] = await Promise.all([page.waitForEvent('download'), page.click('#export-jsonl')]);
  const records = fs.readFileSync(await jsonl.path(), 'utf8').trim().split('\n').map((l) => JSON.parse(l));
  assert.equal(records.length, count);
  assert.ok(records.some((r) => r.id === 'zh-001' && r.summary.startsWith('用户')));
  const [csv] = await Promise.all([page.waitForEvent('download'), page.click('#export-csv')]);
  const text = fs.readFileSync(await csv.path(), 'utf8');
  assert.ok(text.startsWith('\uFEFFid,summary,emotion,'), text.slice(0, 80));
  assert.equal(text.trim().split('\r\n').length, count + 1);
  assert.ok(text.includes('"zh-001"'));
  const [report] = await Promise.all([page.waitForEvent('download'), page.click('#export-report')]);
  assert.ok(fs.readFileSync(await report.path(), 'utf8').includes('zh-001'), 'the HTML report lacks zh-001');
}

async function screenshots(page) {
  fs.mkdirSync(shots, {recursive: true});
  await page.click('#list .item-id >> text=zh-001');
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({path: path.join(shots, 'review-list.png')});
  await page.click('#list .item-id >> text=zh-long-25');
  assert.equal(await page.locator('#detail .heat text.col').count(), 25, 'the 25-turn map lacks turn labels');
  await page.locator('#detail .heat').scrollIntoViewIfNeeded();
  await page.locator('#detail').screenshot({path: path.join(shots, 'review-detail.png')});
  log(`screenshots in ${shots}`);
}

// A file dropped on the drop zone (a DataTransfer built in the page): the sample transcript.
async function dropTranscript(page) {
  const text = fs.readFileSync(path.join(source, 'data', 'samples', 'transcript_zh_en.txt'), 'utf8');
  const transfer = await page.evaluateHandle((t) => {
    const dt = new DataTransfer();
    dt.items.add(new File([t], 'call.txt', {type: 'text/plain'}));
    return dt;
  }, text);
  await page.dispatchEvent('#drop', 'drop', {dataTransfer: transfer});
  await page.waitForSelector('body[data-done="2"]', {timeout: 30000});
  assert.deepEqual(await page.$$eval('#list .item-id', (ids) => ids.map((i) => i.textContent)), ['zh-txt-1', 'en-txt-1']);
}

async function xssRunsNothing(context, base) {
  const page = await context.newPage();
  await withCsp(page, base, true);
  const dialogs = [];
  page.on('dialog', (d) => { dialogs.push(d.message()); d.dismiss(); });
  await page.goto(base);
  await page.click('#paste-box summary');
  await page.fill('#paste', TRANSCRIPT);
  await page.click('#run-paste');
  await page.waitForSelector('body[data-done="2"]', {timeout: 30000});
  assert.deepEqual(await page.$$eval('#list .item-id', (ids) => ids.map((i) => i.textContent)), ['zh-call', 'line7']);
  assert.equal(await page.locator('#detail .turn').count(), 3);  // the continuation line joined its turn
  // A bad record fails its batch only, and the page says which dialogues it held.
  await page.fill('#batch', '1');
  const fine = JSON.stringify({id: 'fine', turns: [{speaker: 'customer', text: 'I am angry.'}, {speaker: 'agent', text: 'Sorry.'}]});
  await page.fill('#paste', `${fine}\n{"id": "bad", "turns": 3}\n`);
  await page.click('#run-paste');
  await page.waitForSelector('body[data-done="1"]', {timeout: 30000});
  const errors = await page.$$eval('#errors li', (ls) => ls.map((l) => l.textContent));
  assert.equal(errors.length, 1, errors.join('\n'));
  assert.ok(errors[0].startsWith('dialogues 2–2 of 2: HTTP 400: '), errors[0]);
  await page.fill('#paste', XSS);
  await page.click('#run-paste');
  await page.waitForSelector('body[data-done="1"]', {timeout: 30000});
  await page.click('#list .item');
  await page.waitForTimeout(300);  // an onerror or onload would have fired by now
  assert.equal(await page.evaluate(() => window.__xss), undefined, 'a payload ran');
  assert.deepEqual(dialogs, []);
  assert.equal(await page.locator('#list img, #detail img, #detail script, #list script, #detail svg[onload]').count(), 0);
  assert.equal(await page.textContent('#detail h2'), XSS_ID);
  assert.ok((await page.textContent('#detail .turns')).includes('<script>window.__xss="script"</script>'));
  assert.ok(await page.locator('#detail .summary .why .because').count() > 0, 'no reason shown for the payload dialogue');
  await page.close();
}

async function main() {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'kessel-browser-'));
  const {proc, base} = await startServer();
  let context;
  try {
    const {upload: file, count} = writeFixtures(tmp);
    context = await chromium.launchPersistentContext(path.join(tmp, 'profile'), {
      executablePath: CHROMIUM, headless: true, acceptDownloads: true, viewport: {width: 1440, height: 900},
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
             '--disable-background-networking', '--disable-component-update', '--disable-sync']});
    const page = context.pages()[0] || await context.newPage();
    const problems = [];
    page.on('console', (m) => { if (m.type() === 'error') problems.push(m.text()); });
    page.on('pageerror', (e) => problems.push(e.message));
    await withCsp(page, base, false);
    await page.goto(base);
    await upload(page, file, count);
    log(`uploaded ${count} dialogues in batches of 5`);
    await filterAndSearch(page, count);
    log('filtered by emotion and searched');
    await openAndFollow(page);
    log('opened a dialogue, followed a summary link to its turn, moved with j/k');
    await exports(page, count);
    log('exported JSONL and CSV');
    await screenshots(page);
    await dropTranscript(page);
    log('dropped the sample transcript');
    assert.deepEqual(problems, [], 'console errors (a CSP violation among them?)');
    await xssRunsNothing(context, base);
    log('a pasted transcript was read; <script> and onerror payloads ran nothing');
  } finally {
    if (context) await context.close();
    proc.kill('SIGTERM');
    fs.rmSync(tmp, {recursive: true, force: true});
  }
  log('ok');
}

main().catch((e) => { process.stderr.write(`browser: FAILED: ${e.stack || e}\n`); process.exit(1); });
