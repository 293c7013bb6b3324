// The report on screen: the editor's marks, the diagnostics, the dialect hint, the statistics,
// the function menu, the resolved parameters and every tab's content (the instruction table,
// the summary, the schedule, the plots, the stepper, the raw JSON, the graph, the comparison).

import { el } from './dom.js';
import { renderDiagnostics, renderInstructions } from './tables.js';
import { renderDialectHint } from './dialect_hint.js';
import { showResolved } from './params_form.js';
import { renderWcet } from './wcet_view.js';
import { renderPlots } from './plot_view.js';
import { EXAMPLES } from './examples.js';
import { state, view, page } from './page_state.js';
import { showStatus } from './status.js';
import { setMode, switchDialect } from './mode_controls.js';
import { run } from './analysis_run.js';
import { showView } from './result_tabs.js';
import { drawGraph, openGraph, selectNode, nodeOfInstruction } from './graph_pane.js';
import { drawSchedule } from './gantt_zoom.js';
import { drawStepper } from './stepper_pane.js';
import { drawComparison } from './comparison_pane.js';
import { warpCfgDetails } from './details.js';

const $ = (id) => document.getElementById(id);

/** Shows `view.report`, the answer to `view.request`. */
export function render() {
  const r = view.report;
  const editor = page.editor;
  editor.setMarks(r.diagnostics);
  editor.highlightLines(null);
  renderDiagnostics($('diagnostics'), r.diagnostics, (d) => editor.revealLine(d.line, d.column, d.len));
  renderDialectHint($('dialect-hint'), r, {
    catalog: page.catalog,
    source: view.request ? view.request.source : editor.value,
    onSwitch: switchDialect,
    title: (id) => (EXAMPLES.find((x) => x.id === id) || { title: id }).title,
  });
  const errors = r.diagnostics.filter((d) => d.severity === 'error').length;
  const k = r.kernel;
  const details = warpCfgDetails(r);
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
  const source = view.request ? view.request.source : editor.value;
  const readAs = view.readAs && view.readAs.source === source ? view.readAs.text : 'analysed';
  showStatus(errors ? `${errors} error${errors > 1 ? 's' : ''}` : done ? readAs : '', errors > 0);

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
  drawSchedule(r);
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
export function drawInstructions() {
  const r = view.report;
  renderInstructions(
    $('instructions'),
    r.kernel ? r.kernel.instructions : [],
    (ins) => {
      page.editor.revealLine(ins.line, ins.column);
      const node = nodeOfInstruction(ins.index);
      if (node) selectNode(node.id, false);
    },
    r.dialect,
  );
}

/** The Raw JSON tab. */
export function renderJson() {
  $('json').textContent = view.report ? JSON.stringify(view.report, null, 2) : '';
}
