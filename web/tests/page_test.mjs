// SPDX-License-Identifier: MIT
// page_test.mjs PAGE GDWIRE OUTDIR — the page (web/dist/gdwire.html) in headless Chromium, driven through the
// DevTools protocol over a pipe (--remote-debugging-pipe: no port, no npm package). It loads the page from disk,
// pastes real engine packets as a user would, and holds what the page shows against the C command (GDWIRE):
// the ranking against `gdwire check --json`, the explain rows and the failing byte against `gdwire explain --json`,
// the value against `gdwire decode`, the encoded bytes against `gdwire encode`; the answer it leads with (engine, what
// the bytes are, what a script passes, the value) against `gdwire check --json`. It also checks the dark and light
// schemes, a phone-width screen, the keyboard, a chosen file, and that the page makes no request and throws nothing.
// Screenshots (1400 px light and dark, 375 px, a malformed packet) go to OUTDIR.
// Prints "N passed, N failed".
import { spawn, execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readlinkSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';

const [page, gdwire, outDir] = process.argv.slice(2).map((p) => resolve(p));
const root = process.env.GDWIRE_ROOT ?? process.cwd();
const chromium = process.env.CHROMIUM ?? '/usr/bin/chromium';
let passed = 0, failed = 0;
function check(name, ok, detail = '') {
  if (ok) passed++;
  else { failed++; console.log(`FAIL: ${name}${detail ? ': ' + detail : ''}`); }
  if (ok) console.log(`ok: ${name}`);
}

// ---- the DevTools protocol over the pipe: JSON messages, each ended by a NUL ----------------------------------

const profile = mkdtempSync(join(tmpdir(), 'gdwire-chromium-'));
const browser = spawn(chromium, ['--headless=new', '--no-sandbox', '--disable-gpu', '--remote-debugging-pipe', `--user-data-dir=${profile}`,
  '--no-first-run', '--no-default-browser-check', '--disable-extensions', '--disable-background-networking', '--disable-sync',
  '--disable-component-update', '--disable-default-apps', '--mute-audio', '--hide-scrollbars', 'about:blank'],
{ stdio: ['ignore', 'ignore', 'pipe', 'pipe', 'pipe'] });
let stderr = '';
browser.stderr.on('data', (d) => { stderr += d; });
const toBrowser = browser.stdio[3], fromBrowser = browser.stdio[4];
let nextId = 1, buffered = '';
const waiting = new Map(), listeners = [];
fromBrowser.on('data', (chunk) => {
  buffered += chunk.toString('utf8');
  let nul;
  while ((nul = buffered.indexOf('\0')) >= 0) {
    const msg = JSON.parse(buffered.slice(0, nul));
    buffered = buffered.slice(nul + 1);
    if (msg.id && waiting.has(msg.id)) {
      const { ok, fail } = waiting.get(msg.id);
      waiting.delete(msg.id);
      if (msg.error) fail(new Error(`${msg.error.message} (${msg.error.code})`));
      else ok(msg.result);
    } else if (msg.method) {
      for (const l of listeners) l(msg);
    }
  }
});
function send(method, params = {}, sessionId) {
  const id = nextId++;
  toBrowser.write(JSON.stringify({ id, method, params, ...(sessionId ? { sessionId } : {}) }) + '\0');
  return new Promise((ok, fail) => {
    waiting.set(id, { ok, fail });
    setTimeout(() => { if (waiting.delete(id)) fail(new Error(`${method}: no answer in 30 s`)); }, 30000);
  });
}
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

let session;
const cmd = (method, params) => send(method, params, session);
async function js(expr) {
  const r = await cmd('Runtime.evaluate', { expression: expr, returnByValue: true, awaitPromise: true });
  if (r.exceptionDetails) throw new Error(`${expr}: ${r.exceptionDetails.exception?.description ?? r.exceptionDetails.text}`);
  return r.result.value;
}
async function until(expr, what, ms = 20000) {
  const end = Date.now() + ms;
  for (;;) {
    const v = await js(expr);
    if (v) return v;
    if (Date.now() > end) throw new Error(`the page did not get there in ${ms / 1000} s: ${what}`);
    await sleep(50);
  }
}
const runs = () => js('Number(document.body.dataset.ready || 0)');
async function shot(name, full = true) {
  const metrics = await cmd('Page.getLayoutMetrics');
  const { width, height } = metrics.cssContentSize ?? metrics.contentSize;
  const r = await cmd('Page.captureScreenshot', { format: 'png', captureBeyondViewport: full,
    ...(full ? { clip: { x: 0, y: 0, width, height: Math.min(height, 6000), scale: 1 } } : {}) });
  const file = join(outDir, name);
  writeFileSync(file, Buffer.from(r.data, 'base64'));
  console.log(`screenshot: ${file} (${Buffer.from(r.data, 'base64').length} bytes)`);
}
/** Types text into the focused element as a paste does (Input.insertText), then waits for the page to run again. */
async function paste(selector, text) {
  const before = await runs();
  await js(`(() => { const e = document.querySelector(${JSON.stringify(selector)}); e.value = ''; e.focus(); })()`);
  await cmd('Input.insertText', { text });
  await until(`Number(document.body.dataset.ready || 0) > ${before}`, `a run after pasting into ${selector}`);
}
async function key(k, code, keyCode, modifiers = 0) {
  await cmd('Input.dispatchKeyEvent', { type: 'keyDown', key: k, code, windowsVirtualKeyCode: keyCode, modifiers });
  await cmd('Input.dispatchKeyEvent', { type: 'keyUp', key: k, code, windowsVirtualKeyCode: keyCode, modifiers });
}

function cli(args, input) {
  try {
    return execFileSync(gdwire, args, { input, encoding: 'utf8', stdio: ['pipe', 'pipe', 'pipe'] });
  } catch (e) {
    return e.stdout; // rejected packets exit 1 with their answer on stdout
  }
}
function enginePacket(file, label) {
  for (const line of readFileSync(join(root, 'tools/engines', file), 'utf8').split('\n')) {
    const f = line.split('\t');
    if (f[0] === label) return f[1];
  }
  throw new Error(`${file} has no '${label}'`);
}

// ---- the run -------------------------------------------------------------------------------------------------

const requests = [], problems = [];
try {
  const { targetId } = await send('Target.createTarget', { url: 'about:blank' });
  ({ sessionId: session } = await send('Target.attachToTarget', { targetId, flatten: true }));
  listeners.push((m) => {
    if (m.sessionId !== session) return;
    if (m.method === 'Network.requestWillBeSent') requests.push(m.params.request.url);
    if (m.method === 'Runtime.exceptionThrown') problems.push(m.params.exceptionDetails.exception?.description ?? m.params.exceptionDetails.text);
    if (m.method === 'Runtime.consoleAPICalled' && (m.params.type === 'error' || m.params.type === 'warning'))
      problems.push(m.params.args.map((a) => a.value ?? a.description).join(' '));
    if (m.method === 'Log.entryAdded' && m.params.entry.level === 'error') problems.push(`${m.params.entry.source}: ${m.params.entry.text}`);
  });
  await cmd('Network.enable');
  await cmd('Runtime.enable');
  await cmd('Log.enable');
  await cmd('Page.enable');
  await cmd('Emulation.setDeviceMetricsOverride', { width: 1400, height: 900, deviceScaleFactor: 1, mobile: false });
  await cmd('Emulation.setEmulatedMedia', { features: [{ name: 'prefers-color-scheme', value: 'light' }] });
  const url = 'file://' + page;
  await cmd('Page.navigate', { url });
  await until('document.body && Number(document.body.dataset.ready || 0) >= 1', 'the page loads and runs once');
  check('the page loads from a file:// URL and its WebAssembly runs', true);
  const version = await js("document.getElementById('version').textContent");
  check('the page names the library version', /^Library \d+\.\d+/.test(version), version);

  // 1. A packet Godot 4.6.3 wrote, pasted as xxd prints it: the ranking is the command's
  const p4 = enginePacket('godot4.6-packets.tsv', 'Dictionary mixed');
  const bytes4 = Buffer.from(p4, 'hex');
  const xxd = execFileSync('xxd', [], { input: bytes4, encoding: 'utf8' });
  await paste('#input', xxd);
  const status = await js("document.getElementById('input-status').textContent");
  check('an xxd dump of the packet is read as its bytes', status.startsWith(`${bytes4.length} bytes, read as dump`), status);
  const c4 = JSON.parse(cli(['check', '--hex', '--json'], p4).trim().split('\n')[0]);
  const best4 = await js("document.getElementById('ranking').dataset.best");
  const ranking4 = await js("document.getElementById('ranking').textContent");
  check(`the page names the dialect gdwire check names first (${c4.best})`, best4 === c4.best, `page: ${best4}; text: ${ranking4}`);
  const summary4 = await js("document.getElementById('summary').textContent");
  check('the page says the sentence gdwire check says (the library\'s gdw_check_summary)', summary4 === c4.summary, `page: ${summary4}; cli: ${c4.summary}`);
  check('the ranking text says it reads every byte and its encoder writes them',
    ranking4.includes(`Most likely: ${c4.best}`) && ranking4.includes(`reads all ${bytes4.length} bytes`) &&
    ranking4.includes('its encoder writes exactly these bytes'), ranking4);
  const reasons4 = await js("[...document.querySelectorAll('#matrix tbody tr')].map(r => [r.cells[0].textContent, r.cells[r.cells.length - 1].textContent])");
  check('each row gives the reason gdwire check gives', reasons4.every(([name, why]) => c4.dialects.find((d) => d.dialect === name)?.reason === why),
    JSON.stringify(reasons4));
  const matrix = await js("[...document.querySelectorAll('#matrix tbody tr')].map(r => [r.cells[0].textContent, r.cells[1].textContent, r.cells[2].textContent])");
  const cliRows = Object.fromEntries(c4.dialects.map((d) => [d.dialect, d]));
  const agree = matrix.filter(([name, acc, n]) => cliRows[name] && (acc === 'yes') === cliRows[name].accepted &&
    (!cliRows[name].accepted || Number(n) === cliRows[name].consumed));
  check(`the matrix has every dialect, each accepting or rejecting as gdwire check says (${agree.length} of ${c4.dialects.length})`,
    matrix.length === c4.dialects.length && agree.length === matrix.length, JSON.stringify(matrix));
  // its explain rows are the command's, word for word
  const e4 = JSON.parse(cli(['explain', '--hex', '--json', '-d', c4.best], p4));
  const rows4 = await js("[...document.querySelectorAll('#fields tbody tr')].map(r => [...r.cells].map(c => c.textContent))");
  const same = e4.fields.filter((f, i) => rows4[i] && Number(rows4[i][0]) === f.offset && rows4[i][2].trim() === f.field && rows4[i][3] === f.value);
  check(`the explain table is gdwire explain --json's, field for field (${same.length} of ${e4.fields.length})`,
    same.length === e4.fields.length && rows4.length === e4.fields.length, JSON.stringify(rows4.slice(0, 3)));
  const text4 = await js("document.getElementById('text').textContent");
  const cliText = cli(['decode', '--hex', '-d', c4.best], p4).trim();
  check('the value in the text form is what gdwire decode prints', text4 === cliText, `${text4} / ${cliText}`);
  const json4 = await js("document.getElementById('json').textContent");
  check('the JSON form is gdwire decode --json\'s value', JSON.stringify(JSON.parse(json4)) === JSON.stringify(JSON.parse(cli(['decode', '--hex', '--json', '-d', c4.best], p4)).value));
  // the answer leads: the engine, what the bytes are, what a script passes, the value; the rest is folded
  const answer4 = await js(`({ engine: document.querySelector('#a-engine .engine')?.textContent, chip: document.querySelector('#a-engine .chip')?.textContent,
    shape: document.getElementById('a-shape').textContent, script: document.getElementById('a-script').textContent,
    value: document.getElementById('a-value').textContent,
    folded: ['fold-matrix', 'fold-explain', 'fold-encode'].every((id) => !document.getElementById(id).open),
    answerTop: document.getElementById('answer').getBoundingClientRect().top, matrixTop: document.getElementById('fold-matrix').getBoundingClientRect().top })`);
  const dialects = JSON.parse(cli(['dialects', '--json'], ''));
  const engines4 = dialects.find((d) => d.name === c4.best).engine;
  check(`the answer names the engine gdwire check names (${engines4}, ${c4.best})`, answer4.engine === engines4 && answer4.chip === c4.best, JSON.stringify(answer4));
  check('the answer says the bytes are a whole packet', answer4.shape.startsWith('whole packet') && answer4.shape.includes(`all ${bytes4.length} bytes`), answer4.shape);
  check(`the answer says what to pass in a script, as gdwire check says it (${c4.script})`, answer4.script === c4.script && /^bytes_to_var\(bytes\)/.test(c4.script),
    `${answer4.script} / ${c4.script}`);
  check('the answer shows the value gdwire decode prints', answer4.value === cli(['decode', '--hex', '-d', c4.best], p4).trim(), answer4.value);
  check('the dialect matrix, the field by field view and the encoder come after the answer, folded', answer4.folded && answer4.matrixTop > answer4.answerTop,
    JSON.stringify(answer4));
  await shot('page-1400.png');
  // the dark scheme: the system's, then the header's button
  await cmd('Emulation.setEmulatedMedia', { features: [{ name: 'prefers-color-scheme', value: 'dark' }] });
  const dark = await js("getComputedStyle(document.body).backgroundColor");
  await cmd('Emulation.setEmulatedMedia', { features: [{ name: 'prefers-color-scheme', value: 'light' }] });
  const light = await js("getComputedStyle(document.body).backgroundColor");
  const lum = (c) => { const [r, g, b] = c.match(/\d+/g).map(Number); return 0.2126 * r + 0.7152 * g + 0.0722 * b; };
  check(`the page follows the system's dark scheme (${dark}) and light one (${light})`, lum(dark) < 60 && lum(light) > 200, `${dark} / ${light}`);
  await js("document.getElementById('theme').click(); document.getElementById('theme').click()"); // system -> light -> dark
  const picked = await js("({ theme: document.documentElement.dataset.theme, bg: getComputedStyle(document.body).backgroundColor, label: document.getElementById('theme').textContent })");
  check('the header\'s button picks the dark scheme on a light system', picked.theme === 'dark' && lum(picked.bg) < 60 && picked.label === 'Scheme: dark', JSON.stringify(picked));
  await shot('page-1400-dark.png');
  await js("document.getElementById('theme').click()"); // back to the system's
  // a packet after put_var's length: the answer says so, and how a script reads it (tools/engines/script_calls.py ran it)
  const framed = Buffer.concat([Buffer.from([bytes4.length, 0, 0, 0]), bytes4]).toString('hex');
  await paste('#input', framed);
  const cf = JSON.parse(cli(['check', '--hex', '--json'], framed).trim().split('\n')[0]);
  const af = await js("({ shape: document.getElementById('a-shape').textContent, script: document.getElementById('a-script').textContent })");
  check('after a 4-byte length prefix the answer says put_var framing and what a script passes',
    af.shape.startsWith('put_var framing') && af.script === cf.script && cf.script.includes('StreamPeer.get_var()') && cf.script.includes('bytes.slice(4)'),
    JSON.stringify(af));
  await paste('#input', xxd);

  // 2. A malformed packet, pasted as Godot prints a PackedByteArray, explained in the row of the engine that wrote
  // it (picked as a user picks it): the failing byte is marked where the command says
  const game3 = readFileSync(join(root, 'cli/samples/godot3-game-state.hex'), 'utf8').replace(/\s+/g, '');
  const cut = game3.slice(0, 124);
  const cutBytes = [...Buffer.from(cut, 'hex')];
  await paste('#input', `[${cutBytes.join(', ')}]`);
  const c3 = JSON.parse(cli(['check', '--hex', '--json'], cut).trim().split('\n')[0]);
  const best3 = await js("document.getElementById('ranking').dataset.best");
  check(`on a cut packet the page names what gdwire check names (${c3.best})`, best3 === (c3.best ?? ''), best3);
  const cutAnswer = await js("({ shape: document.getElementById('a-shape').textContent, script: document.getElementById('a-script').textContent })");
  check('on a cut packet the answer says it is cut and that bytes_to_var fails on it', cutAnswer.shape.startsWith('cut') && cutAnswer.script === c3.script &&
    c3.script.includes('fails on these bytes'), JSON.stringify(cutAnswer));
  await js("document.getElementById('fold-explain').open = true");
  await js("(() => { const s = document.getElementById('dialect'); s.value = 'godot3@3.2'; s.dispatchEvent(new Event('change')); })()");
  const e3 = JSON.parse(cli(['explain', '--hex', '--json', '-d', 'godot3@3.2'], cut));
  const failing = await js("(() => { const b = document.getElementById('failing-byte'); return b ? { offset: Number(b.dataset.offset), cls: b.className, text: b.textContent } : null; })()");
  check(`the failing byte is marked at the offset gdwire explain gives (${e3.error?.offset} in godot3@3.2)`,
    failing && !e3.accepted && failing.offset === e3.error.offset && failing.cls === 'bad' && failing.text === cut.slice(2 * e3.error.offset, 2 * e3.error.offset + 2),
    JSON.stringify(failing));
  const verdict3 = await js("document.getElementById('explain-verdict').textContent");
  check('the explain verdict names the error code and byte', verdict3.includes(`${e3.error.code} at byte ${e3.error.offset}`), verdict3);
  check('the failing field row is marked', await js("document.querySelectorAll('#fields tbody tr.bad').length >= 1"));
  await js("document.getElementById('failing-byte').scrollIntoView({block: 'center'})");
  await shot('page-malformed.png', false);

  // 3. A phone-width screen: nothing wider than it
  await cmd('Emulation.setDeviceMetricsOverride', { width: 375, height: 812, deviceScaleFactor: 2, mobile: true });
  await paste('#input', p4);
  await sleep(200);
  const widths = await js('({ page: document.documentElement.scrollWidth, body: document.body.scrollWidth, view: window.innerWidth })');
  check(`at 375 px the page is no wider than the screen (${widths.page} px)`, widths.page <= 375 && widths.body <= 375, JSON.stringify(widths));
  const picker = await js(`(() => { const l = document.querySelector('label[for=sample]').getBoundingClientRect(), s = document.getElementById('sample').getBoundingClientRect();
    return { label: [l.top, l.bottom], select: [s.top, s.bottom, s.left, s.right] }; })()`);
  const mid = (a) => (a[0] + a[1]) / 2;
  check('at 375 px the sample picker sits beside its label, on one line, inside the screen',
    Math.abs(mid(picker.label) - mid(picker.select)) < 8 && picker.select[1] - picker.select[0] < 48 && picker.select[3] <= 375, JSON.stringify(picker));
  const wide = await js(`[...document.querySelectorAll('body *')].filter((e) => e.getBoundingClientRect().right > 375.5 && !e.closest('.scroll'))
    .map((e) => e.tagName + (e.id ? '#' + e.id : '')).slice(0, 5)`);
  check('at 375 px no element outside a scrolling table reaches past the screen', wide.length === 0, wide.join(' '));
  await js("for (const id of ['fold-matrix', 'fold-explain', 'fold-encode']) document.getElementById(id).open = true");
  const wideOpen = await js(`[...document.querySelectorAll('body *')].filter((e) => e.getBoundingClientRect().right > 375.5 && !e.closest('.scroll'))
    .map((e) => e.tagName + (e.id ? '#' + e.id : '')).slice(0, 5)`);
  const openWidth = await js('document.documentElement.scrollWidth');
  check(`at 375 px with every fold open nothing outside a scrolling table is wider than the screen (${openWidth} px)`, wideOpen.length === 0 && openWidth <= 375,
    wideOpen.join(' '));
  await js("for (const id of ['fold-matrix', 'fold-explain', 'fold-encode']) document.getElementById(id).open = false");
  await js('window.scrollTo(0, 0)');
  await shot('page-375.png', false);
  await js("document.getElementById('answer').scrollIntoView()");
  await shot('page-375-answer.png', false);
  await cmd('Emulation.setDeviceMetricsOverride', { width: 1400, height: 900, deviceScaleFactor: 1, mobile: false });

  // 4. The keyboard: Tab reaches every control, and Ctrl+Enter encodes
  await js("document.activeElement.blur(); window.scrollTo(0, 0)");
  const reached = new Set();
  for (let i = 0; i < 60; i++) {
    await key('Tab', 'Tab', 9);
    const id = await js('document.activeElement && document.activeElement.id');
    if (id) reached.add(id);
  }
  const unfolded = ['theme', 'input', 'sample', 'format', 'file', 'h-matrix', 'h-explain', 'h-encode'];
  const missedFolded = unfolded.filter((c) => !reached.has(c));
  check('Tab reaches the packet\'s controls, the scheme and every fold', missedFolded.length === 0, `missed: ${missedFolded.join(', ')}`);
  await js("for (const id of ['fold-matrix', 'fold-explain', 'fold-encode']) document.getElementById(id).open = true; document.activeElement.blur(); window.scrollTo(0, 0)");
  reached.clear();
  for (let i = 0; i < 80; i++) {
    await key('Tab', 'Tab', 9);
    const id = await js('document.activeElement && document.activeElement.id');
    if (id) reached.add(id);
  }
  const controls = ['input', 'format', 'file', 'sample', 'dialect', 'mode', 'encode-text', 'encode-dialect', 'encode-json', 'encode-lossy', 'encode', 'encode-check'];
  const missed = controls.filter((c) => !reached.has(c));
  check('with the folds open, Tab reaches every control', missed.length === 0, `missed: ${missed.join(', ')}`);
  const value = '{"hp": 100, "pos": Vector2(1.5, -2), "tags": PackedStringArray("a", "b")}';
  await js(`(() => { const e = document.getElementById('encode-text'); e.value = ${JSON.stringify(value)}; e.focus(); document.getElementById('encode-dialect').value = 'godot3'; })()`);
  await key('Enter', 'Enter', 13, 2 /* Ctrl */);
  await until("document.getElementById('encode-status').textContent.includes('godot3')", 'an encode after Ctrl+Enter');
  const encoded = (await js("document.getElementById('encode-out').textContent")).replace(/ /g, '');
  const cliEncoded = cli(['encode', '-d', 'godot3', '--hex'], value).replace(/\s+/g, '');
  check('Ctrl+Enter encodes the text as gdwire encode -d godot3 writes it', encoded === cliEncoded, `${encoded} / ${cliEncoded}`);
  await js("document.getElementById('encode-text').value = '{\"hp\": }'; document.getElementById('encode').click()");
  const bad = await js("document.getElementById('encode-status').textContent");
  check('a text that does not parse says where', bad.startsWith('SYNTAX at character'), bad);

  // 5. A chosen file: a raw capture of StreamPeer.put_var frames, its bytes as they are
  const capture = join(root, 'cli/samples/godot3-capture.bin');
  const before = await runs();
  const doc = await cmd('DOM.getDocument');
  const { nodeId } = await cmd('DOM.querySelector', { nodeId: doc.root.nodeId, selector: '#file' });
  await cmd('DOM.setFileInputFiles', { nodeId, files: [capture] });
  await until(`Number(document.body.dataset.ready || 0) > ${before}`, 'a run after choosing a file');
  const fileStatus = await js("document.getElementById('input-status').textContent");
  const size = readFileSync(capture).length;
  check(`a chosen file is read as its ${size} raw bytes`, fileStatus.startsWith(`${size} bytes`) && fileStatus.includes('godot3-capture.bin'), fileStatus);

  // 6. Every sample: a ranking, and the samples of an engine's packets read by a dialect of that engine
  const samples = await js("[...document.getElementById('sample').options].slice(1).map(o => o.textContent)");
  let ranked = 0;
  for (let i = 0; i < samples.length; i++) {
    const b = await runs();
    await js(`(() => { const s = document.getElementById('sample'); s.value = '${i}'; s.dispatchEvent(new Event('change')); })()`);
    await until(`Number(document.body.dataset.ready || 0) > ${b}`, `sample ${samples[i]}`);
    const best = await js("document.getElementById('ranking').dataset.best");
    const shown = (await js("document.getElementById('input').value")).replace(/\s+/g, '');
    const theirs = JSON.parse(cli(['check', '--hex', '--json'], shown).trim().split('\n')[0]).best ?? '';
    if (best === theirs) ranked++;
    else console.log(`  sample '${samples[i]}': the page names '${best}', gdwire check '${theirs}'`);
  }
  check(`every sample is ranked as gdwire check ranks it (${ranked} of ${samples.length})`, ranked === samples.length && samples.length >= 8);

  // 7. A link whose packet is not readable (#hex=%, issue 55): said in the message line, nothing thrown
  await cmd('Page.navigate', { url: url + '?link1#hex=%' }); // a query of its own: a new document
  await until("document.body && Number(document.body.dataset.ready || 0) >= 1 && document.getElementById('input-status').textContent.includes('link')",
    'the page loads with a bad link');
  const linkStatus = await js("document.getElementById('input-status').textContent");
  check('a link with an unreadable packet is said in the message line', linkStatus.startsWith("The link's packet is not readable"), linkStatus);
  // and a readable one is read
  await cmd('Page.navigate', { url: url + '?link2#hex=' + encodeURIComponent('02000000 07000000') });
  await until("document.body && Number(document.body.dataset.ready || 0) >= 1 && document.getElementById('input').value.includes('07')", 'a link with a packet');
  check('a link with a packet is read', (await js("document.getElementById('input-status').textContent")).startsWith('8 bytes'));

  // 8. Nothing left the page
  const outside = requests.filter((u) => u.split('?')[0] !== url && !u.startsWith('data:'));
  check(`the page made no request (${requests.length} in all: the page itself)`, outside.length === 0, outside.join(' '));
  check('the page threw nothing and logged no error', problems.length === 0, problems.join(' | '));
} catch (e) {
  check('the run finished', false, e.stack);
  if (stderr) console.log(stderr.split('\n').filter((l) => !l.includes('dbus')).slice(-20).join('\n'));
} finally {
  const exited = new Promise((r) => browser.once('exit', r));
  browser.kill();
  await Promise.race([exited, sleep(5000)]);
  // the folder of Chromium's singleton socket, which it makes in the system's temp folder beside the profile (one
  // org.chromium.Chromium.* folder a run was left there): the profile's SingletonSocket link names it
  try {
    const socketDir = dirname(readlinkSync(join(profile, 'SingletonSocket')));
    if (basename(socketDir).startsWith('org.chromium.Chromium.')) rmSync(socketDir, { recursive: true, force: true });
  } catch { /* no link: Chromium removed it, or never made one */ }
  try { rmSync(profile, { recursive: true, force: true }); } catch { /* a file Chromium still writes: the temp folder keeps it */ }
}
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
