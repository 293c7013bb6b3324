// Running the analysis of the page's state: the request to the engine (in its Web Worker),
// after 200 ms a spinner, the elapsed time and a Cancel button, the engine's progress, and the
// report shown when it is still the newest asked for. A link's pinned request runs aside.

import { Cancelled } from './wasm.js';
import { showWork, failureReport } from './work_view.js';
import { view, page, request } from './page_state.js';
import { showStatus } from './status.js';
import { updateHash } from './address_bar.js';
import { render } from './report_view.js';
import { restoreView } from './navigation.js';

const $ = (id) => document.getElementById(id);

/** Analyses the page's state and shows the report. */
export async function run() {
  if (!page.engine) return;
  const id = ++view.runId;
  // After 200 ms: spinner, elapsed time and a Cancel button.
  const started = performance.now();
  let ticker = null;
  const spin = setTimeout(() => {
    $('spinner').hidden = false;
    $('cancel').hidden = false;
    const tick = () => showStatus(`analysing… ${((performance.now() - started) / 1000).toFixed(1)} s`);
    tick();
    ticker = setInterval(tick, 100);
  }, 200);
  const sent = request();
  let report;
  try {
    report = await page.engine.analyze(sent, (p) => id === view.runId && showWork(p));
  } catch (err) {
    if (err instanceof Cancelled) {
      if (id === view.runId) {
        clearTimeout(spin);
        clearInterval(ticker);
        $('spinner').hidden = true;
        $('cancel').hidden = true;
        $('work').hidden = true;
        showStatus(`cancelled after ${((performance.now() - started) / 1000).toFixed(1)} s`, true);
      }
      return;
    }
    report = failureReport(err);
  } finally {
    clearTimeout(spin);
    clearInterval(ticker);
  }
  if (id !== view.runId) return; // a newer request is on its way
  $('spinner').hidden = true;
  $('cancel').hidden = true;
  $('work').hidden = true;
  view.report = report;
  view.request = sent;
  view.elapsedMs = page.engine.lastElapsedMs;
  view.selected = null;
  render();
  restoreView();
  await updateHash();
}

/** The report of `req` without showing it (a link's pinned request); null if cancelled. */
export async function analyzeAside(req) {
  try {
    return await page.engine.analyze(req);
  } catch (err) {
    if (err instanceof Cancelled) return null;
    return failureReport(err);
  }
}
