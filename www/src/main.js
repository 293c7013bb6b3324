// The playground page: one state object (what a permalink stores, page_state.js), one analysis
// engine in a Web Worker, and views that render the report. The page computes no numbers of
// its own. This file wires the modules together; each pane and interaction lives in its own.

import { Engine } from './wasm.js';
import { Editor } from './editor.js';
import { setOpcodeTables } from './opcode_docs.js';
import { EXAMPLES } from './examples.js';
import { encodeLink } from './permalink.js';
import { keepOffline } from './offline.js';
import { placePanes, wirePanes } from './panes.js';
import { wirePaste } from './paste.js';
import { pinnedReport } from './opening_result.js';
import { renderGallery } from './gallery_view.js';
import { applyTheme } from './theme.js';
import { el } from './dom.js';
import { state, view, page, request } from './page_state.js';
import { showStatus } from './status.js';
import { snapshot, updateHash, voidHashWrites, copyLink } from './address_bar.js';
import { isNewKernel, kernelEdited, showPinned, openingKernel, restoreFromHash, loadExample } from './navigation.js';
import { fillMenus, wireMenus, switchDialect } from './mode_controls.js';
import { run } from './analysis_run.js';
import { drawInstructions } from './report_view.js';
import { wireTabs, showView } from './result_tabs.js';
import { pin } from './comparison_pane.js';
import { wireGraph, drawGraph, cursorToNode } from './graph_pane.js';
import { wireGanttZoom } from './gantt_zoom.js';
import { wireStepper } from './stepper_pane.js';
import { wireShortcuts } from './shortcuts.js';

const $ = (id) => document.getElementById(id);

async function main() {
  applyTheme();
  // The module downloads while the rest of the page is set up (it started with the HTML).
  const engine = new Engine(showLoading, (tables) => {
    setOpcodeTables(tables);
    // A result drawn before the tables came (the opening example's pinned report) gets them.
    if (view.report) {
      drawInstructions();
      drawGraph();
    }
  });
  page.engine = engine;
  const editor = new Editor($('editor-host'));
  page.editor = editor;
  editor.onRun(run);
  editor.onCursorLine(cursorToNode);
  // A pasted kernel is read as what it is (the command line's dialect guess, paste.js).
  wirePaste(editor, engine, {
    dialect: () => state.dialect,
    isNew: isNewKernel,
    onDialect: async (g) => {
      const d = page.catalog.dialects.find((x) => x.name === g.dialect);
      if (!d || !d.supported) return;
      const text = `read as ${d.title}: \`${g.evidence}\` on line ${g.line} of the pasted text`;
      view.readAs = { source: editor.value, text };
      await switchDialect(g.dialect);
      showStatus(text);
    },
    onCuda: () => run(),
  });
  editor.onChange(kernelEdited);
  wireControls();
  // First paint: the kernel the page opens with is readable while the engine loads, and the
  // opening example's result is shown at once from its pinned report (opening_result.js).
  const hash = location.hash;
  const { opening, clean } = await openingKernel();
  editor.value = opening.source;
  editor.setDialect(opening.dialect);
  const pinned = clean ? pinnedReport(opening) : null;
  if (pinned) showPinned(opening, pinned);
  const catalog = await engine.catalog();
  page.catalog = catalog;
  $('loading').hidden = true;
  $('version').textContent = 'v' + catalog.version;
  fillMenus(catalog);
  renderGallery($('gallery'), $('gallery-list'), loadExample);
  // The hash as the event names it: by the time the handler runs, a write of the state's
  // own link (`updateHash`) may have replaced `location.hash` already.
  window.addEventListener('hashchange', (e) => {
    voidHashWrites(); // writes of the state before this navigation are void
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

/** The engine's download: the loaded fraction on the bar (indeterminate if the size is unknown). */
function showLoading(loaded, total) {
  if (total) $('loading').value = Math.min(1, loaded / total);
}

function wireControls() {
  $('analyze').addEventListener('click', run);
  $('compare').addEventListener('click', pin);
  wireMenus();
  $('example').append(...EXAMPLES.map((x) => el('option', { value: x.id, text: x.title })));
  $('example').addEventListener('change', (e) => {
    // The menu goes on naming the example while it is open (`showExample`).
    const ex = EXAMPLES.find((x) => x.id === e.target.value);
    if (ex) loadExample(ex);
  });
  wireGraph();
  wireGanttZoom();
  wireTabs();
  $('cancel').addEventListener('click', () => page.engine.cancel());
  wireStepper();
  $('open-gallery').addEventListener('click', () => $('gallery').showModal());
  $('open-help').addEventListener('click', () => $('help').showModal());
  $('copy-link').addEventListener('click', copyLink);
  wireShortcuts();
  wirePanes(() => {
    view.graphSize = null; // the pane changed: the graph opens again at its size
    showView(state.view);
  });
  placePanes(false);
}

// Hooks for tests and for people scripting the page from the console.
window.playground = {
  setSource: (text) => {
    page.editor.value = text;
    state.example = null;
  },
  source: () => page.editor.value,
  cursorLine: () => page.editor.cursorLine(),
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
  analyze: (request) => page.engine.analyze(request),
};

main().catch((err) => {
  console.error(err);
  $('loading').hidden = true;
  showStatus('failed to start: ' + err.message, true);
});
