// The running analysis as the page shows it: its progress (the bar and the line in the header,
// from the engine's progress reports) and, when the engine itself failed, the report with one
// error that says so. Every number is Rust's.

import { EngineFailure } from './wasm.js';

const $ = (id) => document.getElementById(id);
const grouped = (n) => Number(n).toLocaleString('en-US');

/**
 * One progress report of the running analysis, as Rust made it: the share of its budget used
 * (the bar), the work done and the best bound so far (the text). Every bound sought is a
 * maximum, so the interim bound is a lower bound that rises to the result.
 */
export function showWork(p) {
  $('work').hidden = false;
  const bar = $('work-bar');
  bar.max = p.budget;
  bar.value = Math.min(p.done, p.budget);
  let text = `${p.label}: ${grouped(p.done)} of ${grouped(p.budget)} ${p.unit}`;
  if (p.best_bound !== null && p.best_bound !== undefined) {
    text += ` · ${p.bound_label} ${grouped(p.best_bound)}`;
    if (p.upper_bound !== null && p.upper_bound !== undefined) text += ` (at most ${grouped(p.upper_bound)})`;
  }
  $('work-text').textContent = text;
  bar.title = `${p.parameter} = ${grouped(p.budget)}; ${(p.elapsed_ms / 1000).toFixed(1)} s in the engine`;
}

/** A report with one error saying why the engine gave none (`err`, not a cancellation). */
export function failureReport(err) {
  const failure = err instanceof EngineFailure;
  const message = failure
    ? `internal error: the analysis engine failed (${err.message}) and was restarted. ` +
      'This is a bug in Warpbound, not in your kernel: please report it with the request below.'
    : String(err.message || err);
  return {
    diagnostics: [
      {
        severity: 'error',
        line: 0,
        column: 0,
        len: 0,
        message,
        bug_report: failure ? JSON.stringify(err.request, null, 2) : undefined,
      },
    ],
    kernel: null,
    cfg: null,
    timings_ms: {},
  };
}
