// The playground page: one state object (what a permalink stores), one analysis engine in a
// Web Worker, and views that render the report. The page computes no numbers of its own.

import { Engine, Cancelled } from './wasm.js';
import { el } from './dom.js';
import { Editor } from './editor.js';
import { renderCfg, EDGE_KINDS, kindsIn } from './cfg_view.js';
import { renderDiagnostics, renderInstructions, markRows } from './tables.js';
import { setOpcodeTables } from './opcode_docs.js';
import { renderParams, showResolved } from './params_form.js';
import { renderWcet } from './wcet_view.js';
import { EXAMPLES } from './examples.js';
import { encodeLink, decodeHash, MAX_FRAGMENT } from './permalink.js';
import { downloadSvg, downloadDot } from './export.js';
import { renderGantt } from './gantt_view.js';
import { renderPlots } from './plot_view.js';
import { renderStepper } from './stepper_view.js';
import { keepOffline } from './offline.js';
import { renderComparison } from './compare_view.js';
import { placePanes, wirePanes } from './panes.js';
import { renderDialectHint } from './dialect_hint.js';
import { wirePaste } from './paste.js';
import { pinnedReport } from './opening_result.js';
import { nodeOfStep } from './step_node.js';
import { fitZoom as fitWhole, openingZoom, openAt, centreOn, selectionZoom, enablePan } from './graph_zoom.js';
import { showWork, failureReport } from './work_view.js';
import { renderGallery } from './gallery_view.js';
import { applyTheme, toggleTheme, toggleProjector } from './theme.js';
import { SCHEMA_VERSION } from './schema.js';

const $ = (id) => document.getElementById(id);

/** What a permalink's request restores (and `view`: its tab). */
const state = {
  dialect: 'sass',
  mode: 'warp-cfg',
  function: null,
  params: {},
  preset: { name: null },
  loopBounds: {},
  view: 'graph',
  example: null, // gallery alias while the state is exactly that example
};

// `request`: the request `report` answers (the editor may hold edits made since); `pinned`:
// the result the Compare button pinned, `{ request, report }`, shown next to the current one.
const view = {
  report: null,
  request: null,
  pinned: null,
  zoom: 1,
  ganttZoom: 1,
  selected: null,
  runId: 0,
  step: 0,
  origin: null,
};

/**
 * Whether `now` is another kernel than `before`: fewer than half of its non-blank lines are
 * lines of `before` (an edited example keeps most of its lines; a pasted kernel keeps none).
 */
function isNewKernel(before, now) {
  const old = new Set(before.split('\n').map((l) => l.trim()).filter(Boolean));
  const lines = now.split('\n').map((l) => l.trim()).filter(Boolean);
  if (!lines.length) return false;
  const kept = lines.filter((l) => old.has(l)).length;
  return kept * 2 < lines.length;
}

/** The node and stepper position of an opened link, applied once its report is shown. */
let pendingView = null;

let engine = null;
let catalog = null;
let editor = null;
let graph = null;

async function main() {
  applyTheme();
  // The module downloads while the rest of the page is set up (it started with the HTML).
  engine = new Engine(showLoading, (tables) => {
    setOpcodeTables(tables);
    // A result drawn before the tables came (the opening example's pinned report) gets them.
    if (view.report) {
      drawInstructions();
      drawGraph();
    }
  });
  editor = new Editor($('editor-host'));
  editor.onRun(run);
  editor.onCursorLine(cursorToNode);
  // A pasted kernel is read as what it is (the command line's dialect guess, paste.js).
  wirePaste(editor, engine, {
    dialect: () => state.dialect,
    isNew: isNewKernel,
    onDialect: async (g) => {
      const d = catalog.dialects.find((x) => x.name === g.dialect);
      if (!d || !d.supported) return;
      await switchDialect(g.dialect);
      showStatus(`read as ${d.title}: \`${g.evidence}\` on line ${g.line} of the pasted text`);
    },
    onCuda: () => run(),
  });
  editor.onChange(() => {
    state.example = null;
    showExample();
    // Settings that came with an example or a link belong to its kernel: once the editor
    // holds mostly other lines (a pasted or newly typed kernel), the mode's defaults apply.
    if (view.origin !== null && isNewKernel(view.origin, editor.value)) {
      view.origin = null;
      state.loopBounds = {};
      state.function = null;
      setMode(state.mode, {});
    }
  });
  wireControls();
  // First paint: the kernel the page opens with is readable while the engine loads, and the
  // opening example's result is shown at once from its pinned report (opening_result.js).
  const hash = location.hash;
  const { opening, clean } = await openingKernel();
  editor.value = opening.source;
  editor.setDialect(opening.dialect);
  const pinned = clean ? pinnedReport(opening) : null;
  if (pinned) showPinned(opening, pinned);
  catalog = await engine.catalog();
  $('loading').hidden = true;
  $('version').textContent = 'v' + catalog.version;
  $('dialect').replaceChildren(
    ...catalog.dialects.map((d) =>
      el('option', {
        value: d.name,
        text: d.title + (d.supported ? '' : ' (coming)'),
        disabled: !d.supported,
        selected: d.name === state.dialect,
      }),
    ),
  );
  $('mode').replaceChildren(
    ...catalog.modes.map((m) => el('option', { value: m.name, text: m.title, title: m.description })),
  );
  renderGallery($('gallery'), $('gallery-list'), loadExample);
  // The hash as the event names it: by the time the handler runs, a write of the state's
  // own link (`updateHash`) may have replaced `location.hash` already.
  window.addEventListener('hashchange', (e) => {
    hashes += 1; // writes of the state before this navigation are void
    restoreFromHash(null, new URL(e.newURL).hash);
  });
  // Text typed (or pasted) while the engine loaded is the user's: it is kept, with the
  // settings of the link or example the page opened with, and analysed.
  const typed = editor.value !== opening.source ? editor.value : null;
  if (pinned && typed === null && location.hash === hash) await loadExample(opening, null, pinned);
  else await restoreFromHash(typed);
  if (typed !== null) showStatus('kept the text typed while the engine loaded');
  if (!pinned || typed !== null) performance.mark('warpbound:first-result');
  // Navigation → the engine ready for the user's own kernel (load.test.js reads it).
  performance.mark('warpbound:engine-ready');
  document.body.classList.add('ready');
  $('analyze').disabled = false;
  $('compare').disabled = false;
  // Only now: the service worker's first download of the build (mostly answered by the HTTP
  // cache) must not compete with the page's own on a slow link.
  keepOffline((apply) => {
    $('update').hidden = false;
    $('update').onclick = async () => {
      await updateHash(); // the reloaded page opens the same state, edits included
      apply();
    };
  });
}

/**
 * The opening example's pinned report, shown while the engine loads: the result of exactly
 * the request the example sends (its settings are in `state` already; the mode's form waits
 * for the catalog). Navigation → first result on screen is the page's load-time measure.
 */
function showPinned(ex, report) {
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
async function openingKernel() {
  const decoded = await decodeHash(location.hash);
  if (decoded.link) {
    const r = decoded.link.request;
    return { opening: { source: r.source, dialect: r.dialect || 'sass' }, clean: false };
  }
  const ex = EXAMPLES.find((x) => x.id === decoded.example);
  return { opening: ex || EXAMPLES[0], clean: !decoded.error && (!decoded.example || !!ex) };
}

/** The engine's download: the loaded fraction on the bar (indeterminate if the size is unknown). */
function showLoading(loaded, total) {
  if (total) $('loading').value = Math.min(1, loaded / total);
}

function wireControls() {
  $('analyze').addEventListener('click', run);
  $('compare').addEventListener('click', pin);
  $('dialect').addEventListener('change', (e) => {
    state.dialect = e.target.value;
    state.example = null;
    editor.setDialect(state.dialect);
    // A mode that does not read the new dialect gives way to the first one that does.
    const mode = findMode(state.mode);
    if (mode && !mode.dialects.includes(state.dialect)) {
      const other = catalog.modes.find((m) => m.dialects.includes(state.dialect));
      if (other) setMode(other.name, {});
    }
    markModes();
  });
  $('mode').addEventListener('change', (e) => {
    setMode(e.target.value, {});
    state.example = null;
    run();
  });
  $('function').addEventListener('change', (e) => {
    state.function = e.target.value || null;
    state.example = null;
    run();
  });
  $('example').append(...EXAMPLES.map((x) => el('option', { value: x.id, text: x.title })));
  $('example').addEventListener('change', (e) => {
    // The menu goes on naming the example while it is open (`showExample`).
    const ex = EXAMPLES.find((x) => x.id === e.target.value);
    if (ex) loadExample(ex);
  });
  $('zoom-in').addEventListener('click', () => setZoom(view.zoom * 1.25));
  $('zoom-out').addEventListener('click', () => setZoom(view.zoom / 1.25));
  $('zoom-fit').addEventListener('click', fitZoom);
  $('zoom-selection').addEventListener('click', zoomToSelection);
  $('gantt-in').addEventListener('click', () => setGanttZoom(view.ganttZoom * 1.25));
  $('gantt-out').addEventListener('click', () => setGanttZoom(view.ganttZoom / 1.25));
  $('gantt-fit').addEventListener('click', () => setGanttZoom(ganttFit(view.report && view.report.schedule)));
  $('export-svg').addEventListener('click', () => {
    const svg = $('cfg-svg');
    if (svg) downloadSvg(svg, 'warpbound-cfg');
  });
  $('export-dot').addEventListener('click', () => {
    if (view.report && view.report.cfg) downloadDot(view.report.cfg, 'warpbound-cfg');
  });
  const tabs = [...document.querySelectorAll('[role=tab]')];
  for (const tab of tabs) {
    tab.addEventListener('click', () => {
      showView(tab.dataset.view);
      updateHash();
    });
    // WAI-ARIA tabs: one tab stop for the list, arrows/Home/End move between visible tabs.
    tab.addEventListener('keydown', (ev) => {
      const shown = tabs.filter((t) => !t.hidden);
      const i = shown.indexOf(tab);
      const to = { ArrowRight: i + 1, ArrowLeft: i - 1, Home: 0, End: shown.length - 1 }[ev.key];
      if (to === undefined) return;
      ev.preventDefault();
      const next = shown[(to + shown.length) % shown.length];
      next.focus();
      next.click();
    });
  }
  $('cancel').addEventListener('click', () => engine.cancel());
  $('stepper').addEventListener('keydown', (e) => {
    const steps = view.report && view.report.simulation && view.report.simulation.stepper.steps;
    if (!steps) return;
    const to = { ArrowRight: view.step + 1, ArrowLeft: view.step - 1, Home: 0, End: steps.length - 1 }[e.key];
    if (to === undefined) return;
    e.preventDefault();
    view.step = Math.max(0, Math.min(steps.length - 1, to));
    drawStepper();
    updateHash();
  });
  $('open-gallery').addEventListener('click', () => $('gallery').showModal());
  $('open-help').addEventListener('click', () => $('help').showModal());
  $('copy-link').addEventListener('click', copyLink);
  $('theme').addEventListener('click', () => redrawAfter(toggleTheme));
  $('projector').addEventListener('click', () => redrawAfter(toggleProjector));
  $('stepper-beside').checked = localStorage.getItem('warpbound-beside') === 'on';
  $('stepper-beside').addEventListener('change', (e) => {
    localStorage.setItem('warpbound-beside', e.target.checked ? 'on' : 'off');
    showView(state.view);
  });
  document.addEventListener('keydown', shortcut);
  enablePan($('cfg'));
  wirePanes(() => {
    view.graphSize = null; // the pane changed: the graph opens again at its size
    showView(state.view);
  });
  placePanes(false);
}

// ---- state ↔ URL -------------------------------------------------------------------------

/** What a `#v2.` permalink holds: the request, what is shown of its report, the pinned request. */
function snapshot() {
  const v = { tab: state.view };
  if (view.selected !== null) v.node = view.selected;
  if (view.step > 0) v.step = view.step;
  const link = { request: request(), view: v };
  if (view.pinned) link.pinned = view.pinned.request;
  return link;
}

const TABS = () => [...document.querySelectorAll('[role=tab]')].map((t) => t.dataset.view);

/** Opens the state `hash` names; `typed`: the editor's text to keep instead of its kernel. */
async function restoreFromHash(typed = null, hash = location.hash) {
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
    editor.value = typed ?? r.source;
    view.origin = r.source;
    state.dialect = r.dialect || 'sass';
    state.function = r.function || null;
    state.loopBounds = { ...(r.loop_bounds || {}) };
    state.example = null;
    $('dialect').value = state.dialect;
    editor.setDialect(state.dialect);
    setMode(r.mode || catalog.default_mode, r.params || {}, r.preset || null);
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
function restoreView() {
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

let hashes = 0;

/** Writes the current state's link into the address bar (the newest state's, if several);
 * false when it did not (a newer state's call did, or the link would be too long). */
async function updateHash() {
  const n = ++hashes;
  showExample();
  // An example's alias cannot hold a pinned result.
  let hash = state.example && !view.pinned ? `#ex=${state.example}` : await encodeLink(snapshot());
  if (view.pinned && hash.length - 1 > MAX_FRAGMENT) {
    // A link longer than a page reads back would open nothing: it keeps the current result.
    const alone = snapshot();
    delete alone.pinned;
    hash = await encodeLink(alone);
    if (n === hashes) {
      const why = `the comparison does not fit in a link (at most ${MAX_FRAGMENT} characters)`;
      showStatus(`${why}: the link holds the current result only`, true);
    }
  }
  if (hash.length - 1 > MAX_FRAGMENT) {
    // Even alone, the kernel is too long for a link a page reads back: the address holds
    // none (rather than one that opens nothing), and the page says so.
    if (n !== hashes) return false;
    const size = (hash.length - 1).toLocaleString('en-US');
    showStatus(
      `this kernel does not fit in a link (${size} characters; at most ${MAX_FRAGMENT.toLocaleString('en-US')}): the address holds no link — save the kernel as a file instead`,
      true,
    );
    if (location.hash) history.replaceState(null, '', location.pathname + location.search);
    return false;
  }
  if (n !== hashes) return false;
  if (location.hash !== hash) history.replaceState(null, '', hash);
  return true;
}

/**
 * Whether the page shows an example exactly as it opens — its kernel and settings, its tab,
 * no node selected, the stepper at its first step, nothing pinned — so that its `#ex=` alias
 * says all; a copied link of anything else (the stepper at step 64) is the whole `#v2.` one.
 */
function asOpened() {
  const ex = state.example && EXAMPLES.find((x) => x.id === state.example);
  return !!ex && !view.pinned && view.step === 0 && view.selected === null && state.view === (ex.view || 'graph');
}

/** The Example menu names the example on screen while it is unchanged, else none. */
function showExample() {
  $('example').value = state.example || '';
}

async function copyLink() {
  if (!(await updateHash())) return;
  // The address bar may hold an example's alias; the copy holds what is shown.
  let url = location.href;
  if (state.example && !asOpened()) {
    const full = await encodeLink(snapshot());
    if (full.length - 1 <= MAX_FRAGMENT) url = location.href.split('#')[0] + full;
  }
  try {
    await navigator.clipboard.writeText(url);
    showStatus(`link copied (${url.length} characters)`);
  } catch {
    prompt('Copy this link:', url);
  }
}

// ---- analysis -----------------------------------------------------------------------------

/** The catalog's mode named `name`, by its current name or a former one (`aliases`). */
function findMode(name) {
  return catalog.modes.find((m) => m.name === name || (m.aliases || []).includes(name));
}

/** Only the modes that read the current dialect can be chosen (the others are greyed). */
function markModes() {
  if (!catalog) return;
  for (const option of $('mode').options) {
    const m = catalog.modes.find((x) => x.name === option.value);
    const reads = !m || m.dialects.includes(state.dialect);
    option.disabled = !reads && option.value !== state.mode;
    option.title = reads ? (m ? m.description : '') : `reads ${m.dialects.join(', ')}, not ${state.dialect}`;
  }
}

function setMode(name, params, preset = null) {
  // A former name (from an old link or example) is written back under the current one.
  const mode = findMode(name);
  state.mode = mode ? mode.name : name;
  markModes();
  state.params = { ...params };
  state.preset = { name: preset };
  $('mode').value = state.mode;
  $('mode-help').textContent = mode ? mode.description : '';
  renderParams(
    $('params'),
    mode || { params: [] },
    state.params,
    () => {
      state.example = null;
      run();
    },
    state.preset,
  );
}

/**
 * Loads example `ex` (with `typed`, its settings around that text instead of its kernel;
 * with `report`, its pinned report instead of a run).
 */
async function loadExample(ex, typed = null, report = null) {
  editor.value = typed ?? ex.source;
  view.origin = ex.source;
  state.dialect = ex.dialect;
  state.function = null;
  state.loopBounds = { ...(ex.loop_bounds || {}) };
  $('dialect').value = ex.dialect;
  editor.setDialect(ex.dialect);
  setMode(ex.mode || catalog.default_mode, ex.params || {}, ex.preset || null);
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

/** Examples and links opened so far: one that finishes after a newer one keeps quiet. */
let navigations = 0;

function request() {
  const r = { schema_version: SCHEMA_VERSION, source: editor.value, dialect: state.dialect, mode: state.mode };
  if (state.function) r.function = state.function;
  if (Object.keys(state.params).length) r.params = { ...state.params };
  if (state.preset.name) r.preset = state.preset.name;
  if (Object.keys(state.loopBounds).length) r.loop_bounds = { ...state.loopBounds };
  return r;
}

async function run() {
  if (!engine) return;
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
    report = await engine.analyze(sent, (p) => id === view.runId && showWork(p));
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
  view.elapsedMs = engine.lastElapsedMs;
  view.selected = null;
  render();
  restoreView();
  await updateHash();
}

/** The report of `req` without showing it (a link's pinned request); null if cancelled. */
async function analyzeAside(req) {
  try {
    return await engine.analyze(req);
  } catch (err) {
    if (err instanceof Cancelled) return null;
    return failureReport(err);
  }
}

// ---- comparison ---------------------------------------------------------------------------

/** Pins the result on screen: from now on the current result is shown next to it. */
function pin() {
  if (!view.report || !view.request) return;
  view.pinned = { request: view.request, report: view.report };
  showView('compare');
  showStatus('result pinned: change anything and analyse to compare');
  updateHash();
}

function unpin() {
  view.pinned = null;
  drawComparison();
  // The Unpin button is gone with the panel: the focus goes back to where pinning started.
  $('compare').focus();
  updateHash();
}

/** The Comparison view: its tab exists while a result is pinned. */
function drawComparison() {
  const host = $('compare-panel');
  host.hidden = !view.pinned;
  document.querySelector('[data-view="compare"]').hidden = !view.pinned;
  if (!view.pinned) {
    host.replaceChildren();
    if (state.view === 'compare') showView(view.report && view.report.cfg ? 'graph' : 'summary');
    return;
  }
  if (!view.request) return; // a link's pinned result, before its current one is in
  renderComparison(host, view.pinned, { request: view.request, report: view.report }, unpin);
}

function showStatus(text, bad = false) {
  $('status').textContent = text;
  $('status').className = bad ? 'status bad' : 'status good';
}

// ---- rendering ----------------------------------------------------------------------------

/**
 * Reads the kernel as `dialect` from now on: the dialect menu, the editor's highlighting, and
 * the mode — this one if it reads the dialect, else the first that does — with its defaults:
 * the settings of the example that was open belong to it, not to a pasted kernel.
 */
function switchDialect(dialect) {
  state.dialect = dialect;
  state.example = null;
  $('dialect').value = dialect;
  editor.setDialect(dialect);
  const mode = findMode(state.mode);
  const keep = mode && mode.dialects.includes(dialect);
  const next = keep ? mode : catalog.modes.find((m) => m.dialects.includes(dialect));
  state.loopBounds = {};
  setMode(next ? next.name : state.mode, {});
  return run();
}

function render() {
  const r = view.report;
  editor.setMarks(r.diagnostics);
  editor.highlightLines(null);
  renderDiagnostics($('diagnostics'), r.diagnostics, (d) => editor.revealLine(d.line, d.column, d.len));
  renderDialectHint($('dialect-hint'), r, {
    catalog,
    source: view.request ? view.request.source : editor.value,
    onSwitch: switchDialect,
    title: (id) => (EXAMPLES.find((x) => x.id === id) || { title: id }).title,
  });
  const errors = r.diagnostics.filter((d) => d.severity === 'error').length;
  const k = r.kernel;
  const details = r['warp-cfg'];
  $('stat-function').textContent = k ? k.function : '—';
  $('stat-instructions').textContent = k ? String(k.instructions.length) : '—';
  $('stat-blocks').textContent = r.cfg ? String(r.cfg.nodes.filter((n) => n.kind === 'block').length) : '—';
  $('stat-edges').textContent = r.cfg ? String(r.cfg.edges.length) : '—';
  $('stat-divergence').textContent = details ? String(details.divergence_edges) : '—';
  $('stat-wcet').textContent = r.wcet ? String(r.wcet.cycles) : '—';
  $('stat-time').textContent =
    r.timings_ms && r.timings_ms.total !== undefined ? r.timings_ms.total.toFixed(2) + ' ms' : '—';
  // The whole call in the worker (request in, report out), by wasm's `performance.now()`.
  $('stat-time').title =
    typeof view.elapsedMs === 'number' ? `${view.elapsedMs.toFixed(2)} ms in the engine call` : '';
  // A simulation is a result too (PTX and GCN3 runs, the simulate mode): its cycles.
  $('stat-observed').textContent = r.simulation ? String(r.simulation.cycles) : '—';
  $('stat-observed-box').hidden = !r.simulation;
  const done = k || r.wcet || r.simulation;
  showStatus(errors ? `${errors} error${errors > 1 ? 's' : ''}` : done ? 'analysed' : '', errors > 0);

  const fsel = $('function');
  const fns = k ? k.functions : [];
  fsel.replaceChildren(...fns.map((f) => el('option', { value: f, text: f, selected: k && f === k.function })));
  fsel.parentElement.hidden = fns.length < 2;

  showResolved($('params'), r.params, r.preset);

  drawInstructions();
  renderWcet(
    $('wcet'),
    r,
    state.loopBounds,
    () => {
      state.example = null;
      run();
    },
    (id) => {
      showView('graph');
      selectNode(id, true);
    },
    (values) => {
      setMode(state.mode, { ...state.params, ...values }, state.preset.name);
      state.example = null;
      run();
    },
  );
  // Schedule and plots tabs exist only for modes that produce them.
  document.querySelector('[data-view="schedule"]').hidden = !r.schedule;
  document.querySelector('[data-view="plots"]').hidden = !(r.plots && r.plots.length);
  if ((state.view === 'schedule' && !r.schedule) || (state.view === 'plots' && !(r.plots && r.plots.length))) {
    showView(r.cfg ? 'graph' : 'summary');
  }
  // A new schedule starts fitted to the pane (short ones at the natural 14 px per cycle).
  view.ganttZoom = ganttFit(r.schedule);
  renderGantt($('gantt'), r.schedule, view.ganttZoom, r.simd_execution);
  $('schedule-summary').textContent = r.schedule
    ? `${r.schedule.items.length} boxes on ${r.schedule.lanes.length} lanes over ${r.schedule.cycles} cycles, coloured by ${r.schedule.group_name}`
    : '';
  renderPlots($('plots'), r.plots);
  document.querySelector('[data-view="stepper"]').hidden = !(r.simulation && r.simulation.stepper);
  if (state.view === 'stepper' && !r.simulation) showView(r.cfg ? 'graph' : 'summary');
  view.step = 0;
  drawStepper();
  if (state.view === 'json') renderJson();
  drawGraph();
  openGraph();
  drawComparison();
}

/** The instruction table of the report shown (its cells carry the opcode documentation). */
function drawInstructions() {
  const r = view.report;
  renderInstructions(
    $('instructions'),
    r.kernel ? r.kernel.instructions : [],
    (ins) => {
      editor.revealLine(ins.line, ins.column);
      const node = nodeOfInstruction(ins.index);
      if (node) selectNode(node.id, false);
    },
    r.dialect,
  );
}

/** The zoom at which `schedule` fills the results pane, at most 1. */
function ganttFit(schedule) {
  if (!schedule || !schedule.cycles) return 1;
  const width = Math.max(200, document.querySelector('.results').clientWidth - 110);
  return Math.min(1, width / (schedule.cycles * 14));
}

/** Shows step `view.step` of the simulation's stepper and highlights its line. */
function drawStepper() {
  const sim = view.report && view.report.simulation;
  // The picker only where the mode reads `warp` (the modes that take a launch).
  const mode = catalog && findMode(state.mode);
  const picks = mode && mode.params.some((p) => p.name === 'warp');
  const warps = picks && sim && sim.warps ? sim.warps.length : 1;
  renderStepper(
    $('stepper'),
    sim && sim.stepper,
    view.step,
    (i) => {
      view.step = i;
      drawStepper();
      updateHash();
    },
    warps,
    (k) => {
      // Another warp's steps: the run records one warp (parameter `warp`).
      setMode(state.mode, { ...state.params, warp: k }, state.preset.name);
      view.step = 0;
      run();
    },
  );
  const s = sim && sim.stepper && sim.stepper.steps[view.step];
  if (s && state.view === 'stepper') editor.highlightLines(s.line, s.line);
  const node = graph && stepNode();
  if (node) graph.select(node.id);
}

/**
 * The current step's node — the one of the stack the warp is in, when the block is in
 * several (step_node.js) — or null; the graph shows it selected while it is beside the
 * stepper, and keeps it when redrawn (a zoom, a theme).
 */
function stepNode() {
  const r = view.report;
  const steps = r && r.simulation && r.simulation.stepper && r.simulation.stepper.steps;
  if (!steps || !steps[view.step] || !r.cfg || state.view !== 'stepper' || !$('stepper-beside').checked) return null;
  return nodeOfStep(r.cfg, steps, view.step);
}

function setGanttZoom(z) {
  const fit = ganttFit(view.report && view.report.schedule);
  view.ganttZoom = Math.min(4, Math.max(Math.min(0.1, fit / 4), z));
  if (view.report) renderGantt($('gantt'), view.report.schedule, view.ganttZoom, view.report.simd_execution);
}

function renderJson() {
  $('json').textContent = view.report ? JSON.stringify(view.report, null, 2) : '';
}

function drawGraph() {
  const r = view.report;
  const host = $('cfg');
  if (!r.cfg) {
    graph = null;
    $('legend').replaceChildren();
    host.replaceChildren(
      el('p', {
        class: 'empty',
        text: r.diagnostics.some((d) => d.severity === 'error') ? 'No graph: see the diagnostics above.' : 'No graph.',
      }),
    );
    return;
  }
  if (r.cfg.omitted) {
    graph = null;
    $('legend').replaceChildren();
    const o = r.cfg.omitted;
    host.replaceChildren(
      el('p', {
        class: 'empty',
        id: 'graph-omitted',
        text: `The graph has ${o.nodes} nodes and ${o.edges} edges, more than the ${o.limit} the page draws; the summary and the JSON hold the results.`,
      }),
    );
    return;
  }
  $('legend').replaceChildren(
    ...kindsIn(r.cfg).map((k) => el('span', { class: `key ${k}`, title: EDGE_KINDS[k] }, el('i'), k)),
    r.wcet ? el('span', { class: 'key hot', title: 'nodes and edges on the worst-case path' }, el('i'), 'worst case') : '',
  );
  graph = renderCfg(host, r.cfg, (n) => selectNode(n.id, true), view.zoom * graphScale(), { dialect: r.dialect });
  const stepped = stepNode();
  if (stepped) graph.select(stepped.id);
  else if (view.selected !== null) graph.select(view.selected);
}

function nodeOfInstruction(index) {
  const r = view.report;
  return r && r.cfg && r.cfg.nodes.find((n) => n.kind === 'block' && n.first <= index && index <= n.last);
}

function selectNode(id, fromGraph) {
  const r = view.report;
  const n = r.cfg && r.cfg.nodes[id];
  if (!n) return;
  if (fromGraph && r.pws && (n.role || '').split(' ').includes('branch')) {
    toggleSplitMark(id);
    return;
  }
  view.selected = id;
  if (graph) graph.select(id);
  updateHash();
  if (n.kind !== 'block') {
    $('selection').textContent = 'exit';
    return;
  }
  editor.highlightLines(n.line_start, n.line_end);
  const row = markRows($('instructions'), (tr) => {
    const i = Number(tr.dataset.index);
    return n.first <= i && i <= n.last;
  });
  if (row && fromGraph && !$('panel-instructions').hidden) row.scrollIntoView({ block: 'nearest' });
  const prefix = r.cfg.kind === 'warp' ? 'n' : 'B';
  let text = `${prefix}${id}: ${n.instructions} instructions, lines ${n.line_start}–${n.line_end}`;
  if (n.context) text += ` · pending ${n.context}`;
  if (n.count !== null && n.count !== undefined) text += ` · ${n.count}× on the worst-case path`;
  $('selection').textContent = text;
}

/**
 * PWS: a click on a splittable branch marks or unmarks it as a split point (the `marks`
 * parameter) and switches to the programmer's marks filtered by Select, then re-runs.
 */
function toggleSplitMark(id) {
  const marks = new Set(
    String(state.params.marks || '')
      .split(',')
      .map((x) => x.trim())
      .filter(Boolean)
      .map(Number),
  );
  if (marks.has(id)) marks.delete(id);
  else marks.add(id);
  const params = { ...state.params, split: 'marked', marks: [...marks].sort((a, b) => a - b).join(',') };
  if (!params.marks) delete params.marks;
  setMode(state.mode, params, state.preset.name);
  state.example = null;
  showStatus(`split points: ${params.marks || 'none'} (Select, S = ${view.report.pws.hardware.s})`);
  run();
}

function cursorToNode(line) {
  const r = view.report;
  if (!r || !r.cfg || !r.kernel) return;
  const ins = r.kernel.instructions.find((i) => i.line === line);
  if (!ins) return;
  const n = nodeOfInstruction(ins.index);
  if (n && n.id !== view.selected) {
    view.selected = n.id;
    if (graph) graph.select(n.id);
    updateHash();
    markRows($('instructions'), (tr) => Number(tr.dataset.index) >= n.first && Number(tr.dataset.index) <= n.last);
  }
}

function setZoom(z) {
  view.zoom = Math.min(4, Math.max(0.1, z));
  $('zoom-level').textContent = Math.round(view.zoom * 100) + '%';
  if (view.report) drawGraph();
}

/**
 * How much larger than the zoom the graph is drawn: projector mode scales the whole drawing
 * (boxes, text and edges together) instead of the text alone, which would spill out of boxes
 * the layout sized for 12 px.
 */
function graphScale() {
  return document.body.classList.contains('projector') ? 1.3 : 1;
}

/** Zooms so the selected node is large and centred: a way into a graph "fit" shrinks to 10 %. */
function zoomToSelection() {
  const r = view.report;
  if (!r || !r.cfg || view.selected === null) return;
  const placed = r.cfg.layout.nodes.find((p) => p.id === view.selected);
  if (!placed) return;
  const host = $('cfg');
  setZoom(selectionZoom(placed, host, graphScale()));
  centreOn(host, placed, view.zoom * graphScale());
}

function fitZoom() {
  const r = view.report;
  if (r && r.cfg && r.cfg.layout) setZoom(fitWhole(r.cfg.layout, $('cfg'), graphScale()));
}

/** A graph other than the one shown opens readable, at its entry (`graph_zoom.js`). */
function openGraph() {
  const cfg = view.report && view.report.cfg;
  if (!cfg || !cfg.layout || $('panel-graph').hidden) return;
  const host = $('cfg');
  const size = `${cfg.layout.width}×${cfg.layout.height}`;
  if (view.graphSize === size) return;
  view.graphSize = size;
  setZoom(openingZoom(cfg.layout, host, graphScale()));
  openAt(host, cfg.layout.nodes.find((p) => p.id === cfg.entry), view.zoom * graphScale());
}

function showView(name) {
  state.view = name;
  for (const tab of document.querySelectorAll('[role=tab]')) {
    const on = tab.dataset.view === name;
    tab.setAttribute('aria-selected', String(on));
    tab.tabIndex = on ? 0 : -1;
    $(tab.dataset.panel).hidden = !on;
  }
  // Lecture layout: the graph stays beside the stepper when asked (the choice is kept).
  const beside = name === 'stepper' && $('stepper-beside').checked;
  placePanes(beside);
  if (beside) $('panel-graph').hidden = false;
  if (name === 'json') renderJson();
  if (name === 'stepper') drawStepper();
  if (name === 'compare') drawComparison();
  openGraph();
}

// ---- gallery, theme, projector, shortcuts --------------------------------------------------

/** Theme and projector changes redraw the graph (its colours and scale are drawn in). */
function redrawAfter(change) {
  change();
  if (view.report) drawGraph();
}

function shortcut(e) {
  // Esc stops a running analysis wherever the focus is (dialogs close on Esc by themselves).
  if (e.key === 'Escape' && engine && engine.busy() && !document.querySelector('dialog[open]')) {
    engine.cancel();
    e.preventDefault();
    return;
  }
  const typing = e.target.closest && e.target.closest('.cm-editor, input, select, textarea');
  if (typing || e.ctrlKey || e.metaKey || e.altKey) return;
  const views = { 1: 'graph', 2: 'summary', 3: 'schedule', 4: 'plots', 5: 'stepper', 6: 'instructions', 7: 'json' };
  if (e.key === '?') $('help').showModal();
  else if (e.key === 'g') $('gallery').showModal();
  else if (views[e.key] && !document.querySelector(`[data-view="${views[e.key]}"]`).hidden) showView(views[e.key]);
  else if (e.key === '+' || e.key === '=') setZoom(view.zoom * 1.25);
  else if (e.key === '-') setZoom(view.zoom / 1.25);
  else if (e.key === '0') fitZoom();
  else if (e.key === 't') redrawAfter(toggleTheme);
  else if (e.key === 'p') redrawAfter(toggleProjector);
  else return;
  e.preventDefault();
}

// Hooks for tests and for people scripting the page from the console.
window.playground = {
  setSource: (text) => {
    editor.value = text;
    state.example = null;
  },
  source: () => editor.value,
  cursorLine: () => editor.cursorLine(),
  /** The full `#v2.` link of the current state (even when an `#ex=` alias is shown). */
  fullLink: async () => location.href.split('#')[0] + (await encodeLink(snapshot())),
  /** What the current `#v2.` link holds: `{ request, view }`. */
  link: () => snapshot(),
  state: () => ({ ...state }),
  report: () => view.report,
  /** The pinned result `{ request, report }` of a comparison, or null. */
  pinned: () => view.pinned,
  run,
  /** The request the page sends for its current state. */
  request: () => request(),
  /** The gallery's examples (for tests and benchmarks). */
  examples: () => EXAMPLES,
  /** Runs `request` in the worker without touching the page; resolves with the report. */
  analyze: (request) => engine.analyze(request),
};

main().catch((err) => {
  console.error(err);
  $('loading').hidden = true;
  showStatus('failed to start: ' + err.message, true);
});
