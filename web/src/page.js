// SPDX-License-Identifier: MIT
// page.js — the page's behaviour (src/page.html): a pasted or dropped packet checked against every dialect,
// explained field by field in one, shown in the text and JSON forms, and a value encoded. Every verdict, text and
// byte comes from the npm package (js/src/index.js), the C library in WebAssembly; this file only shows them.
// Nothing here writes markup from data: every text goes through textContent.
import {
  check, dialects, explain, decodeText, decodeJSON, encodeText, parseInput, libraryVersion, GdwireError,
} from '../../js/src/index.js';
import { SAMPLES } from 'gdwire-samples'; // made by build.sh from the engines' packets

const $ = (id) => document.getElementById(id);
const MAX_HEX_SHOWN = 4096; // bytes in the hex view; around a failing byte beyond, a window of it
const MAX_FIELDS = 5000; // explain rows shown
const TEXT_CAP = 200000; // characters of the text and JSON forms shown

const info = Object.fromEntries(dialects().map((d) => [d.name, d]));
const state = { bytes: null, source: '', fileBytes: null, selected: '', best: '' };

function el(tag, text, cls) {
  const e = document.createElement(tag);
  if (text !== undefined) e.textContent = text;
  if (cls) e.className = cls;
  return e;
}

function hex(bytes, from = 0, to = bytes.length) {
  let s = '';
  for (let i = from; i < to; i++) s += (i > from ? ' ' : '') + bytes[i].toString(16).padStart(2, '0');
  return s;
}

function cut(s) { return s.length > TEXT_CAP ? s.slice(0, TEXT_CAP) + `\n… (${s.length - TEXT_CAP} more characters)` : s; }

// ---- input -----------------------------------------------------------------------------------------------

function readInput() {
  const status = $('input-status');
  if (state.fileBytes) {
    state.bytes = state.fileBytes;
    status.textContent = `${state.source}: ${state.bytes.length} bytes, raw`;
    return true;
  }
  const text = $('input').value;
  if (!text.trim()) {
    state.bytes = null;
    status.textContent = 'Paste a packet, drop a file or pick a sample.';
    return false;
  }
  try {
    const { bytes, format } = parseInput(text, { format: $('format').value });
    state.bytes = bytes;
    status.textContent = `${bytes.length} bytes, read as ${format}${state.source ? ' (' + state.source + ')' : ''}`;
    status.className = '';
    return bytes.length > 0;
  } catch (e) {
    state.bytes = null;
    status.textContent = e instanceof GdwireError ? `Not a packet: ${e.detail}` : String(e);
    status.className = 'no';
    return false;
  }
}

// ---- check: the answer first, then every dialect ---------------------------------------------------------------

const VALUE_PREVIEW = 600; // characters of the value in the answer

/** What the bytes are, from the first choice's reading and the bytes looked past: a chip and a line. */
function shapeOf(r, v) {
  const n = state.bytes.length;
  if (!v) return ['none', 'not read', `No dialect reads these ${n} bytes as a value.`];
  if (v.reading === 'cut') return ['cut', 'cut', `The packet is cut short: the value needs at least ${v.shortBy} more byte${v.shortBy === 1 ? '' : 's'}.`];
  if (r.skip) {
    const tail = v.reading === 'prefix' ? `, and ${n - r.skip - v.consumed} bytes after it` : '';
    const front = r.framing || `${r.skip} bytes in front`;
    return ['framed', r.framing.startsWith('a 4-byte length') ? 'put_var framing' : `${r.skip} byte${r.skip === 1 ? '' : 's'} in front`,
      `${front[0].toUpperCase()}${front.slice(1)}, then the value (${v.consumed} bytes)${tail}.`];
  }
  if (v.reading === 'prefix') return ['prefix', 'bytes after it', `The value is the first ${v.consumed} of ${n} bytes; ${n - v.consumed} follow it.`];
  return ['whole', 'whole packet', `The value is all ${n} bytes.`];
}

function showAnswer(r) {
  const v = r.best ? r.verdicts.find((x) => x.dialect === r.best) : undefined;
  $('answer').classList.toggle('none', !v);
  const engine = $('a-engine');
  if (v) {
    const d = info[r.best];
    engine.replaceChildren(el('span', d.engines, 'engine'), document.createTextNode(' '), el('span', r.best, 'chip'));
    if (r.equally.length) engine.append(el('div', `read alike by ${r.equally.join(', ')}`, 'muted small'));
  } else {
    engine.replaceChildren(el('span', 'none of them', 'engine'));
  }
  const [cls, chip, line] = shapeOf(r, v);
  $('a-shape').replaceChildren(el('span', chip, `shape ${cls}`), document.createTextNode(line));
  $('a-script').textContent = r.script || 'No call reads it: no engine generation reads these bytes as a Variant.';
  let value = '';
  if (v && v.reading !== 'cut') {
    try {
      value = decodeText(state.bytes.subarray(r.skip), { dialect: r.best, allowObjects: true });
    } catch (e) {
      value = e instanceof GdwireError ? `${e.code}: ${e.detail}` : String(e);
    }
  } else if (v) {
    value = '(cut short: the value is incomplete; "Field by field" shows where it stops)';
  }
  $('a-value').textContent = value.length > VALUE_PREVIEW ? value.slice(0, VALUE_PREVIEW) + ` … (${value.length - VALUE_PREVIEW} more characters)` : value;
  const d = v ? info[r.best] : undefined;
  $('evidence').textContent = !d ? '' : d.engineEvidence ? `How ${r.best} is known: ${d.engineEvidence}.` : d.noEngine ? `${r.best} has no engine to ask: ${d.noEngine}.` : '';
}

function showCheck() {
  const body = $('matrix').tBodies[0];
  body.replaceChildren();
  if (!state.bytes) {
    $('ranking').textContent = '';
    for (const id of ['a-engine', 'a-shape', 'a-script', 'a-value', 'evidence']) $(id).textContent = '';
    $('answer').classList.remove('none');
    state.best = '';
    return;
  }
  const r = check(state.bytes);
  state.best = r.best ?? '';
  showAnswer(r);
  const ranking = $('ranking');
  // the library's sentence, as `gdwire check` prints it; then why the first choice ranks first, and its engines
  const summary = el('strong', r.summary);
  summary.id = 'summary';
  ranking.replaceChildren(summary);
  if (r.best) {
    const v = r.verdicts.find((x) => x.dialect === r.best);
    ranking.append(el('span', ` ${r.best} (${info[r.best].engines}): ${v.reason}.`));
  }
  ranking.dataset.best = r.best ?? '';
  const order = [...r.verdicts].sort((a, b) => a.rank - b.rank || (b.dialect === r.best) - (a.dialect === r.best)).map((v) => v.dialect);
  for (const name of order) {
    const v = r.verdicts.find((x) => x.dialect === name);
    const tr = el('tr', undefined, name === r.best ? 'best' : v.accepted ? '' : 'rejected');
    const pick = el('button', name, 'link');
    pick.title = `explain the packet as ${name}`;
    pick.addEventListener('click', () => {
      $('dialect').value = name;
      state.selected = name;
      $('fold-explain').open = true;
      showExplain();
      $('fold-explain').scrollIntoView();
    });
    const cell = el('td'); cell.append(pick);
    const yn = (b) => el('td', b ? 'yes' : 'no', b ? 'yes' : 'no');
    tr.append(cell, yn(v.accepted), el('td', v.accepted ? String(v.consumed) : '–', 'num'), v.accepted ? yn(v.strict) : el('td', '–'),
      v.accepted ? yn(v.engineExact) : el('td', '–'), el('td', info[name].engines, 'wide muted'), el('td', v.reason));
    body.append(tr);
  }
  if (!state.selected) $('dialect').value = r.best || $('dialect').value;
}

// ---- explain, text, JSON ---------------------------------------------------------------------------------

function showHex(bytes, bad, consumed) {
  const box = $('hex');
  box.replaceChildren();
  let from = 0, to = Math.min(bytes.length, MAX_HEX_SHOWN);
  if (bad >= 0 && bad >= to) { from = Math.max(0, bad - 256); to = Math.min(bytes.length, bad + 256); }
  if (from > 0) box.append(el('div', `… ${from} bytes before`, 'muted'));
  for (let line = from - (from % 16); line < to; line += 16) {
    const row = el('div');
    row.append(el('span', line.toString(16).padStart(8, '0') + '  ', 'muted'));
    for (let i = line; i < Math.min(line + 16, to); i++) {
      if (i < from) { row.append(el('span', '   ')); continue; }
      const b = el('span', bytes[i].toString(16).padStart(2, '0'));
      b.dataset.offset = String(i);
      if (i === bad) {
        b.className = 'bad';
        b.id = 'failing-byte';
        b.title = `byte ${i}: the decoder fails here`;
        b.setAttribute('aria-label', `byte ${i}, ${b.textContent}: the decoder fails here`);
      } else if (consumed >= 0 && i >= consumed) {
        b.className = 'trailing';
        b.title = 'after the value: not read';
      }
      row.append(b, document.createTextNode(i % 8 === 7 ? '  ' : ' '));
    }
    box.append(row);
  }
  if (to < bytes.length) box.append(el('div', `… ${bytes.length - to} more bytes`, 'muted'));
}

function showExplain() {
  const body = $('fields').tBodies[0];
  body.replaceChildren();
  const verdict = $('explain-verdict');
  if (!state.bytes) {
    verdict.textContent = '';
    $('hex').replaceChildren();
    $('text').textContent = $('json').textContent = '';
    return;
  }
  const opts = { dialect: $('dialect').value, mode: $('mode').value };
  const x = explain(state.bytes, { ...opts, maxFields: MAX_FIELDS });
  const bad = x.accepted ? -1 : x.error.offset;
  showHex(state.bytes, bad, x.accepted ? x.consumed : -1);
  const failing = x.accepted ? -1 : x.fields.length - 1; // the failing field is the last one read (or the error is just past it)
  x.fields.forEach((f, i) => {
    const isBad = i === failing && bad >= f.offset && bad < f.offset + Math.max(f.size, 1);
    const tr = el('tr', undefined, isBad ? 'bad' : '');
    const bytes = hex(state.bytes, f.offset, Math.min(f.offset + f.size, f.offset + 8)) + (f.size > 8 ? ' …' : '');
    const field = el('td', '\u00a0'.repeat(2 * f.depth) + f.field);
    tr.append(el('td', String(f.offset), 'num'), el('td', bytes), field, el('td', f.value));
    tr.addEventListener('mouseenter', () => markBytes(f.offset, f.size));
    body.append(tr);
  });
  if (x.fieldsOmitted) body.append(Object.assign(el('tr'), { textContent: `… ${x.fieldsOmitted} more fields` }));
  if (x.accepted) {
    verdict.className = 'yes';
    verdict.textContent = `Accepted in ${x.dialect} (${x.mode}): the value is ${x.consumed} bytes` +
      (x.trailing ? `, and ${x.trailing} bytes after it are not read.` : '.');
    try {
      $('text').textContent = cut(decodeText(state.bytes, opts));
      $('json').textContent = cut(decodeJSON(state.bytes, opts));
    } catch (e) {
      $('text').textContent = $('json').textContent = String(e.message);
    }
  } else {
    const e = x.error;
    verdict.className = 'no';
    verdict.textContent = `Rejected in ${x.dialect} (${x.mode}): ${e.code} at byte ${e.offset}${e.path ? ' in ' + e.path : ''}: ${e.detail}` +
      (e.engineError && e.engineError !== '-' ? ` (the engine: ${e.engineError})` : '');
    const row = document.createElement('tr');
    row.className = 'bad';
    row.append(el('td', String(e.offset), 'num'), el('td', bad < state.bytes.length ? hex(state.bytes, bad, bad + 1) : '(end)'), el('td', '^^'),
      el('td', `${e.code}: ${e.detail}`));
    body.append(row);
    $('text').textContent = $('json').textContent = '';
  }
}

function markBytes(from, size) {
  for (const s of document.querySelectorAll('#hex .sel')) s.classList.remove('sel');
  for (let i = from; i < from + size; i++) document.querySelector(`#hex [data-offset="${i}"]`)?.classList.add('sel');
}

function run() {
  readInput();
  showCheck();
  showExplain();
  document.body.dataset.ready = String(++runs);
}
let runs = 0;

// ---- encode ----------------------------------------------------------------------------------------------

function runEncode() {
  const status = $('encode-status'), out = $('encode-out');
  const narrowed = [];
  try {
    const bytes = encodeText($('encode-text').value, {
      dialect: $('encode-dialect').value, json: $('encode-json').checked, lossy: $('encode-lossy').checked,
      onNarrow: (e) => narrowed.push(`${e.path || 'the top'}: ${e.detail}`),
    });
    out.textContent = hex(bytes);
    status.className = 'yes';
    status.textContent = `${bytes.length} bytes in ${$('encode-dialect').value}` + (narrowed.length ? `; narrowed: ${narrowed.join('; ')}` : '');
  } catch (e) {
    out.textContent = '';
    status.className = 'no';
    status.textContent = e instanceof GdwireError ? `${e.code}${e.code === 'SYNTAX' ? ' at character ' + e.offset : ''}${e.path ? ' at ' + e.path : ''}: ${e.detail}` : String(e);
  }
}

// ---- wiring ----------------------------------------------------------------------------------------------

function fillDialects(select, rows) {
  for (const d of rows) {
    const o = el('option', d.releaseOf ? `${d.name} (${d.engines})` : d.name);
    o.value = d.name;
    o.title = d.summary;
    select.append(o);
  }
}

let pending = 0;
function soon() { clearTimeout(pending); pending = setTimeout(run, 120); }

function loadFile(file) {
  const textLike = /\.(hex|txt|b64|base64)$/i.test(file.name);
  file.arrayBuffer().then((buf) => {
    const bytes = new Uint8Array(buf);
    state.source = file.name;
    if (textLike) {
      state.fileBytes = null;
      $('input').value = new TextDecoder().decode(bytes);
    } else if (bytes.length <= 65536) {
      state.fileBytes = null;
      $('input').value = hex(bytes);
      $('format').value = 'hex';
    } else {
      state.fileBytes = bytes; // a large file stays bytes: its hex would be a heavy text box
      $('input').value = '';
    }
    run();
  });
}

$('version').textContent = `Library ${libraryVersion}.`;

// the scheme: the system's, light or dark, kept where the browser lets a file:// page keep it
const SCHEMES = ['system', 'light', 'dark'];
function setScheme(name) {
  if (name === 'system') delete document.documentElement.dataset.theme;
  else document.documentElement.dataset.theme = name;
  $('theme').textContent = `Scheme: ${name}`;
  try { localStorage.setItem('gdwire-scheme', name); } catch { /* storage refused: the choice lasts this visit */ }
}
let kept = 'system';
try { kept = localStorage.getItem('gdwire-scheme') || 'system'; } catch { /* as above */ }
setScheme(SCHEMES.includes(kept) ? kept : 'system');
$('theme').addEventListener('click', () => setScheme(SCHEMES[(SCHEMES.indexOf($('theme').textContent.replace('Scheme: ', '')) + 1) % SCHEMES.length]));
fillDialects($('dialect'), dialects());
fillDialects($('encode-dialect'), dialects());
$('encode-dialect').value = 'godot4';
for (const [i, s] of SAMPLES.entries()) {
  const o = el('option', s.name);
  o.value = String(i);
  $('sample').append(o);
}
$('input').addEventListener('input', () => { state.fileBytes = null; state.source = ''; soon(); });
$('input').addEventListener('keydown', (e) => { if (e.key === 'Enter' && e.ctrlKey) { e.preventDefault(); run(); } });
$('format').addEventListener('change', run);
$('dialect').addEventListener('change', () => { state.selected = $('dialect').value; showExplain(); });
$('mode').addEventListener('change', showExplain);
$('sample').addEventListener('change', () => {
  const s = SAMPLES[Number($('sample').value)];
  if (!s) return;
  state.fileBytes = null;
  state.source = s.name;
  state.selected = '';
  $('input').value = s.hex;
  $('format').value = 'auto';
  run();
});
$('file').addEventListener('change', () => { if ($('file').files[0]) loadFile($('file').files[0]); });
const drop = $('drop');
drop.addEventListener('dragover', (e) => { e.preventDefault(); drop.classList.add('over'); });
drop.addEventListener('dragleave', () => drop.classList.remove('over'));
drop.addEventListener('drop', (e) => {
  e.preventDefault();
  drop.classList.remove('over');
  if (e.dataTransfer.files[0]) loadFile(e.dataTransfer.files[0]);
});
$('encode').addEventListener('click', runEncode);
$('encode-text').addEventListener('keydown', (e) => { if (e.key === 'Enter' && e.ctrlKey) { e.preventDefault(); runEncode(); } });
$('encode-check').addEventListener('click', () => {
  if (!$('encode-out').textContent) runEncode();
  if (!$('encode-out').textContent) return;
  state.fileBytes = null;
  state.source = `encoded in ${$('encode-dialect').value}`;
  state.selected = '';
  $('input').value = $('encode-out').textContent;
  $('format').value = 'hex';
  run();
  $('drop').scrollIntoView();
});
// a packet in the address (#hex=1b000000...) is checked at once: a link can carry one
const fromHash = /^#(hex|base64)=(.+)$/.exec(location.hash);
let badLink = '';
if (fromHash) {
  try {
    $('input').value = decodeURIComponent(fromHash[2]);
    $('format').value = fromHash[1];
  } catch (e) { // a link such as #hex=% (issue 55): said in the message line, not thrown
    badLink = `The link's packet is not readable (${e.message}): paste the packet instead.`;
  }
}
run();
if (badLink) { $('input-status').textContent = badLink; $('input-status').className = 'no'; }
runEncode();
