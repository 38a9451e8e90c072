// SPDX-License-Identifier: MIT
// check.js — the dialect table and check: every row's metadata, and every dialect's verdict on a packet with the
// library's ranking and sentence (gdw_check_rank_rows, gdw_check_summary; src/glue.c gdwjs_check).
import { X, dv, views, L, GdwireError, cString, errorAt, dialectPtr, withBytes, asBytes, checkLimit } from './wasm.js';

const CHECK_ROW = 10; // words of a gdwjs_check row (src/glue.c)
const CHECK_REASON = 256, CHECK_SUMMARY = 640, CHECK_SCRIPT = 720, CHECK_TEXT = 1104; // bytes of its texts (src/glue.c)
const READINGS = ['whole', 'cut', 'prefix', 'rejected'];

let rowsCache;
/** Every dialect and engine release row: name, family, summary, engines, aliases, release, released,
 * releaseOf, engineEvidence, noEngine, documentedOnly, objectsByDefault, fuzzId (the fuzz targets' number for it). */
export function dialects() {
  if (!rowsCache) {
    rowsCache = [];
    for (let i = 0; i < X.gdw_row_count(); i++) {
      const d = X.gdw_row_at(i), base = X.gdw_dialect_base(d);
      const ev = X.gdw_dialect_engine_evidence(d), no = X.gdw_dialect_no_engine(d);
      rowsCache.push(Object.freeze({
        name: cString(X.gdw_dialect_name(d)), family: cString(X.gdw_dialect_family(d)), summary: cString(X.gdw_dialect_summary(d)),
        engines: cString(X.gdw_dialect_engines(d)), aliases: cString(X.gdw_dialect_aliases(d)).split(' ').filter((a) => a),
        release: cString(X.gdw_dialect_release(d)), released: cString(X.gdw_dialect_released(d)),
        releaseOf: base && base !== d ? cString(X.gdw_dialect_name(base)) : undefined,
        engineEvidence: ev ? cString(ev) : undefined, noEngine: no ? cString(no) : undefined,
        documentedOnly: X.gdw_dialect_documented_only(d) !== 0, objectsByDefault: X.gdw_dialect_objects_by_default(d) !== 0,
        fuzzId: X.gdw_dialect_fuzz_id(d),
      }));
    }
    Object.freeze(rowsCache);
  }
  return rowsCache;
}

/**
 * Decode bytes in every dialect: which accept them, which strictly (their encoder writes exactly these bytes),
 * which as the engine itself would, and the library's ranking, as `gdwire check` gives it: a reading of every byte,
 * then a cut packet (a value that runs out of bytes), then a value with bytes left after it, then a rejection; among
 * whole readings, a value without reals that look misread (NaN, below 1e-30 or beyond 1e30: an integer or text read
 * as a float), its encoder writing back these bytes, the engine accepting them, an engine's row before a
 * documented-only one; equals share a rank, and the newest engine release among the first is best. `equally` lists
 * the dialects as likely that read the same value; `summary` is the answer in one sentence, as the command and the
 * page print it. Where no dialect reads every byte and one reads the bytes after a few in front (a 4-byte length
 * prefix, an opcode), the verdicts are of the bytes after `skip`, and `framing` says what those are. `script` says
 * what a script of the named engine passes to read the value ("bytes_to_var(bytes.slice(4))").
 * `ranking` lists the dialects that read the packet (whole, cut or in part), best first.
 * @returns {{verdicts: Array<{dialect: string, accepted: boolean, consumed: number, strict: boolean, engineExact: boolean,
 *            rank: number, misreadReals: number, reading: string, first: boolean, reason: string, shortBy: number,
 *            error?: GdwireError}>, ranking: string[], best?: string, equally: string[], summary: string, skip: number,
 *            framing: string, script: string}}
 */
export function check(bytes, opts = {}) {
  const b = asBytes(bytes);
  checkLimit(b.length);
  const n = X.gdw_dialect_count();
  const rowsP = X.malloc(4 * CHECK_ROW * n), errsP = X.malloc(L.err_size * n), reasonsP = X.malloc(CHECK_REASON * n);
  const textP = X.malloc(CHECK_TEXT), bestP = X.malloc(4), skipP = X.malloc(4);
  try {
    const got = withBytes(b, (p, len) => X.gdwjs_check(p, len, opts.allowObjects ? 1 : 0, rowsP, errsP, reasonsP, textP, n, bestP, skipP));
    if (got !== n) throw new GdwireError('NOMEM', 0, '', 'check ran out of WebAssembly memory');
    views();
    const verdicts = [];
    for (let i = 0; i < n; i++) {
      const w = (k) => dv.getUint32(rowsP + 4 * (CHECK_ROW * i + k), true);
      const accepted = w(1) === 0;
      const error = accepted ? undefined : errorAt(errsP + L.err_size * i);
      verdicts.push(Object.freeze({ dialect: cString(X.gdw_dialect_name(w(0))), accepted, consumed: accepted ? w(2) : 0, strict: w(3) === 1,
        engineExact: w(4) === 1, rank: w(5), misreadReals: w(6), reading: READINGS[w(7)], first: w(8) === 1, reason: cString(reasonsP + CHECK_REASON * i),
        shortBy: w(9), error }));
    }
    const bestIndex = dv.getUint32(bestP, true);
    const best = verdicts[bestIndex].reading !== 'rejected' ? verdicts[bestIndex].dialect : undefined;
    // by rank; among equals the best first, then table order
    const ranking = verdicts.filter((v) => v.reading !== 'rejected').sort((a, c) => a.rank - c.rank || (c.dialect === best) - (a.dialect === best))
      .map((v) => v.dialect);
    const equally = best === undefined ? [] : verdicts.filter((v) => v.first && v.dialect !== best).map((v) => v.dialect);
    return { verdicts, ranking, best, equally, summary: cString(textP), skip: dv.getUint32(skipP, true), framing: cString(textP + CHECK_SUMMARY),
      script: cString(textP + CHECK_SCRIPT) };
  } finally {
    for (const p of [rowsP, errsP, reasonsP, textP, bestP, skipP]) X.free(p);
  }
}

/** The row's own name for a name or alias ("godot2" -> "mole"). */
export function canonicalName(dialect) { return cString(X.gdw_dialect_name(dialectPtr(dialect))); }

export const libraryVersion = cString(X.gdw_version());
