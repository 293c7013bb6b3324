// The playground page: one state object, one analyze() call into wasm, and views that render
// the report. The page computes no numbers of its own.

import { bindings } from './wasm.js';
import { el } from './dom.js';
import { Editor } from './editor.js';
import { renderCfg, EDGE_KINDS, kindsIn } from './cfg_view.js';
import { renderDiagnostics, renderInstructions, markRows } from './tables.js';
import { renderParams } from './params_form.js';
import { renderWcet } from './wcet_view.js';
import { EXAMPLES } from './examples.js';

const $ = (id) => document.getElementById(id);

/** Everything the request is made of, plus view state. */
const state = {
  dialect: 'sass',
  mode: 'warp-cfg',
  function: null,
  params: {},
  loopBounds: {},
  report: null,
  zoom: 1,
  selected: null,
};

let api = null;
let catalog = null;
let editor = null;
let graph = null;

async function main() {
  editor = new Editor($('editor-host'));
  editor.onRun(run);
  editor.onCursorLine(cursorToNode);
  $('analyze').addEventListener('click', run);
  $('dialect').addEventListener('change', (e) => {
    state.dialect = e.target.value;
  });
  $('mode').addEventListener('change', (e) => {
    setMode(e.target.value);
    run();
  });
  $('function').addEventListener('change', (e) => {
    state.function = e.target.value || null;
    run();
  });
  $('example').append(...EXAMPLES.map((x) => el('option', { value: x.id, text: x.title })));
  $('example').addEventListener('change', (e) => {
    const ex = EXAMPLES.find((x) => x.id === e.target.value);
    if (ex) loadExample(ex);
    e.target.value = '';
  });
  $('zoom-in').addEventListener('click', () => setZoom(state.zoom * 1.25));
  $('zoom-out').addEventListener('click', () => setZoom(state.zoom / 1.25));
  $('zoom-fit').addEventListener('click', fitZoom);
  for (const tab of document.querySelectorAll('[role=tab]')) {
    tab.addEventListener('click', () => showTab(tab.dataset.panel));
  }

  api = await bindings();
  catalog = api.catalog();
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
  document.body.classList.add('ready');
  $('analyze').disabled = false;
  loadExample(EXAMPLES[0]);
}

function setMode(name) {
  state.mode = name;
  state.params = {};
  $('mode').value = name;
  const mode = catalog.modes.find((m) => m.name === name);
  $('mode-help').textContent = mode ? mode.description : '';
  renderParams($('params'), mode || { params: [] }, state.params, run);
}

function loadExample(ex) {
  editor.value = ex.source;
  state.dialect = ex.dialect;
  state.function = null;
  state.loopBounds = { ...(ex.loopBounds || {}) };
  $('dialect').value = ex.dialect;
  setMode(ex.mode || catalog.default_mode);
  run();
}

function request() {
  const r = { schema_version: 1, source: editor.value, dialect: state.dialect, mode: state.mode };
  if (state.function) r.function = state.function;
  if (Object.keys(state.params).length) r.params = { ...state.params };
  if (Object.keys(state.loopBounds).length) r.loop_bounds = { ...state.loopBounds };
  return r;
}

function run() {
  if (!api) return;
  let report;
  try {
    report = api.analyze(request());
  } catch (err) {
    report = {
      diagnostics: [{ severity: 'error', line: 0, column: 0, len: 0, message: String(err.message || err) }],
      kernel: null,
      cfg: null,
      timings_ms: {},
    };
  }
  state.report = report;
  state.selected = null;
  render();
}

function render() {
  const r = state.report;
  editor.setMarks(r.diagnostics);
  editor.highlightLines(null);
  renderDiagnostics($('diagnostics'), r.diagnostics, (d) => editor.revealLine(d.line, d.column, d.len));
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
  $('status').textContent = errors ? `${errors} error${errors > 1 ? 's' : ''}` : k ? 'analysed' : '';
  $('status').className = errors ? 'status bad' : 'status good';

  const fsel = $('function');
  const fns = k ? k.functions : [];
  fsel.replaceChildren(...fns.map((f) => el('option', { value: f, text: f, selected: k && f === k.function })));
  fsel.parentElement.hidden = fns.length < 2;

  renderInstructions($('instructions'), k ? k.instructions : [], (ins) => {
    editor.revealLine(ins.line, ins.column);
    const node = r.cfg && r.cfg.nodes.find((n) => n.kind === 'block' && n.first <= ins.index && ins.index <= n.last);
    if (node) selectNode(node.id, false);
  });
  renderWcet($('wcet'), r, state.loopBounds, run, (id) => {
    showTab('panel-graph');
    selectNode(id, true);
  });
  drawGraph();
}

function drawGraph() {
  const r = state.report;
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
  $('legend').replaceChildren(
    ...kindsIn(r.cfg).map((k) => el('span', { class: `key ${k}`, title: EDGE_KINDS[k] }, el('i'), k)),
    r.wcet ? el('span', { class: 'key hot', title: 'nodes and edges on the worst-case path' }, el('i'), 'worst case') : '',
  );
  graph = renderCfg(host, r.cfg, (n) => selectNode(n.id, true), state.zoom);
  if (state.selected !== null) graph.select(state.selected);
}

function selectNode(id, fromGraph) {
  const r = state.report;
  const n = r.cfg && r.cfg.nodes[id];
  if (!n) return;
  state.selected = id;
  if (graph) graph.select(id);
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

function cursorToNode(line) {
  const r = state.report;
  if (!r || !r.cfg || !r.kernel) return;
  const ins = r.kernel.instructions.find((i) => i.line === line);
  if (!ins) return;
  // The first node (context) of the block holding the instruction.
  const n = r.cfg.nodes.find((x) => x.kind === 'block' && x.first <= ins.index && ins.index <= x.last);
  if (n && n.id !== state.selected) {
    state.selected = n.id;
    if (graph) graph.select(n.id);
    markRows($('instructions'), (tr) => Number(tr.dataset.index) >= n.first && Number(tr.dataset.index) <= n.last);
  }
}

function setZoom(z) {
  state.zoom = Math.min(4, Math.max(0.1, z));
  $('zoom-level').textContent = Math.round(state.zoom * 100) + '%';
  drawGraph();
}

function fitZoom() {
  const r = state.report;
  if (!r || !r.cfg) return;
  const w = $('cfg').clientWidth - 8;
  setZoom(Math.min(1.5, w / r.cfg.layout.width));
}

function showTab(panel) {
  for (const tab of document.querySelectorAll('[role=tab]')) {
    const on = tab.dataset.panel === panel;
    tab.setAttribute('aria-selected', String(on));
    $(tab.dataset.panel).hidden = !on;
  }
}

main().catch((err) => {
  console.error(err);
  $('status').textContent = 'failed to start: ' + err;
});
