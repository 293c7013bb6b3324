// Opening what the page shows: the kernel it opens with (its link's, its example's), the
// opening example's pinned report while the engine loads, a link when the address changes,
// an example from the menu or the gallery — and edits that make the kernel another one.

import { EXAMPLES } from './examples.js';
import { decodeHash } from './permalink.js';
import { showResolved } from './params_form.js';
import { state, view, page } from './page_state.js';
import { showStatus } from './status.js';
import { updateHash, showExample } from './address_bar.js';
import { setMode } from './mode_controls.js';
import { showView } from './result_tabs.js';
import { run, analyzeAside } from './analysis_run.js';
import { render } from './report_view.js';
import { drawStepper } from './stepper_pane.js';
import { selectNode } from './graph_pane.js';

const $ = (id) => document.getElementById(id);

/** The node and stepper position of an opened link, applied once its report is shown. */
let pendingView = null;

/** Examples and links opened so far: one that finishes after a newer one keeps quiet. */
let navigations = 0;

/**
 * Whether `now` is another kernel than `before`: fewer than half of its non-blank lines are
 * lines of `before` (an edited example keeps most of its lines; a pasted kernel keeps none).
 */
export function isNewKernel(before, now) {
  const old = new Set(before.split('\n').map((l) => l.trim()).filter(Boolean));
  const lines = now.split('\n').map((l) => l.trim()).filter(Boolean);
  if (!lines.length) return false;
  const kept = lines.filter((l) => old.has(l)).length;
  return kept * 2 < lines.length;
}

/** An edit of the kernel: the state is no example any more. */
export function kernelEdited() {
  state.example = null;
  showExample();
  // Settings that came with an example or a link belong to its kernel: once the editor
  // holds mostly other lines (a pasted or newly typed kernel), the mode's defaults apply.
  if (view.origin !== null && isNewKernel(view.origin, page.editor.value)) {
    view.origin = null;
    state.loopBounds = {};
    state.function = null;
    setMode(state.mode, {});
  }
}

/**
 * The opening example's pinned report, shown while the engine loads: the result of exactly
 * the request the example sends (its settings are in `state` already; the mode's form waits
 * for the catalog). Navigation → first result on screen is the page's load-time measure.
 */
export function showPinned(ex, report) {
  Object.assign(state, { dialect: ex.dialect, mode: ex.mode, params: { ...(ex.params || {}) } });
  state.preset = { name: ex.preset || null };
  state.loopBounds = { ...(ex.loop_bounds || {}) };
  if (ex.view) showView(ex.view);
  view.report = report;
  view.request = ex.request;
  view.elapsedMs = null;
  render();
  showStatus('the example\'s pinned result — the engine is loading');
  $('stat-time').title = 'the pinned report of this example (the engine computes the same)';
  performance.mark('warpbound:first-result');
}

/**
 * The kernel a page opens with — its link's, its example's, else the first example's — and
 * whether it is exactly the example the address names (or none): no message to show.
 */
export async function openingKernel() {
  const decoded = await decodeHash(location.hash);
  if (decoded.link) {
    const r = decoded.link.request;
    return { opening: { source: r.source, dialect: r.dialect || 'sass' }, clean: false };
  }
  const ex = EXAMPLES.find((x) => x.id === decoded.example);
  return { opening: ex || EXAMPLES[0], clean: !decoded.error && (!decoded.example || !!ex) };
}

const TABS = () => [...document.querySelectorAll('[role=tab]')].map((t) => t.dataset.view);

/** Opens the state `hash` names; `typed`: the editor's text to keep instead of its kernel. */
export async function restoreFromHash(typed = null, hash = location.hash) {
  const decoded = await decodeHash(hash);
  // A link is a whole state: it brings its own pinned result, or none.
  view.pinned = null;
  if (decoded.link) {
    navigations += 1;
    const { request: r, view: v, pinned } = decoded.link;
    // The pinned request first, as the comparison was made; the current one is run below.
    if (pinned) {
      const report = await analyzeAside(pinned);
      if (report) view.pinned = { request: pinned, report };
    }
    page.editor.value = typed ?? r.source;
    view.origin = r.source;
    state.dialect = r.dialect || 'sass';
    state.function = r.function || null;
    state.loopBounds = { ...(r.loop_bounds || {}) };
    state.example = null;
    $('dialect').value = state.dialect;
    page.editor.setDialect(state.dialect);
    setMode(r.mode || page.catalog.default_mode, r.params || {}, r.preset || null);
    showView(TABS().includes(v.tab) ? v.tab : 'graph');
    pendingView = { node: v.node, step: v.step };
    await run();
    return;
  }
  const ex = EXAMPLES.find((x) => x.id === decoded.example) || EXAMPLES[0];
  await loadExample(ex, typed);
  if (decoded.error) showStatus(`${decoded.error} — showing the first example instead`, true);
  else if (decoded.example && ex.id !== decoded.example) {
    showStatus(`there is no example "${decoded.example}" — showing the first example instead`, true);
  }
}

/** Applies the node and stepper position of the link just opened, if its report has them. */
export function restoreView() {
  const want = pendingView;
  pendingView = null;
  const r = view.report;
  if (!want || !r) return;
  const steps = r.simulation && r.simulation.stepper && r.simulation.stepper.steps;
  if (Number.isInteger(want.step) && steps && want.step < steps.length) {
    view.step = want.step;
    drawStepper();
  }
  if (Number.isInteger(want.node) && r.cfg && r.cfg.nodes[want.node]) selectNode(want.node, false);
}

/**
 * Loads example `ex` (with `typed`, its settings around that text instead of its kernel;
 * with `report`, its pinned report instead of a run).
 */
export async function loadExample(ex, typed = null, report = null) {
  page.editor.value = typed ?? ex.source;
  view.origin = ex.source;
  state.dialect = ex.dialect;
  state.function = null;
  state.loopBounds = { ...(ex.loop_bounds || {}) };
  $('dialect').value = ex.dialect;
  page.editor.setDialect(ex.dialect);
  setMode(ex.mode || page.catalog.default_mode, ex.params || {}, ex.preset || null);
  if (ex.view) showView(ex.view);
  pendingView = null;
  const navigation = ++navigations;
  if (report) {
    showResolved($('params'), report.params, report.preset);
    drawStepper();
    showStatus('engine ready');
  } else await run();
  // Opened and not replaced meanwhile (by another example, a link, or the address).
  if (navigation !== navigations) return;
  state.example = typed === null ? ex.id : null;
  await updateHash();
}
