// The playground page: one state object, one analyze() call into wasm, and views that render
// the report. The page computes no numbers of its own.

import { bindings } from './wasm.js';
import { el } from './dom.js';
import { Editor } from './editor.js';
import { renderCfg, EDGE_KINDS } from './cfg_view.js';
import { renderDiagnostics, renderInstructions, markRows } from './tables.js';
import { EXAMPLES } from './examples.js';

const $ = (id) => document.getElementById(id);

const state = {
  dialect: 'sass',
  function: null,
  report: null,
  zoom: 1,
  selectedBlock: null,
};

let api = null;
let editor = null;
let graph = null;

async function main() {
  editor = new Editor($('editor-host'));
  editor.onRun(run);
  editor.onCursorLine(cursorToBlock);
  $('analyze').addEventListener('click', run);
  $('dialect').addEventListener('change', (e) => {
    state.dialect = e.target.value;
  });
  $('function').addEventListener('change', (e) => {
    state.function = e.target.value || null;
    run();
  });
  $('example').append(
    ...EXAMPLES.map((x) => el('option', { value: x.id, text: x.title })),
  );
  $('example').addEventListener('change', (e) => {
    const ex = EXAMPLES.find((x) => x.id === e.target.value);
    if (!ex) return;
    loadSource(ex.source, ex.dialect);
    e.target.value = '';
  });
  $('zoom-in').addEventListener('click', () => setZoom(state.zoom * 1.25));
  $('zoom-out').addEventListener('click', () => setZoom(state.zoom / 1.25));
  $('zoom-fit').addEventListener('click', fitZoom);
  for (const tab of document.querySelectorAll('[role=tab]')) {
    tab.addEventListener('click', () => showTab(tab.dataset.panel));
  }
  $('legend').append(
    ...Object.entries(EDGE_KINDS).map(([k, meaning]) =>
      el('span', { class: `key ${k}`, title: meaning }, el('i'), k),
    ),
  );

  api = await bindings();
  const catalog = api.catalog();
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
  document.body.classList.add('ready');
  $('analyze').disabled = false;
  loadSource(EXAMPLES[0].source, EXAMPLES[0].dialect);
}

function loadSource(source, dialect) {
  editor.value = source;
  state.dialect = dialect;
  state.function = null;
  $('dialect').value = dialect;
  run();
}

function run() {
  if (!api) return;
  const request = {
    schema_version: 1,
    source: editor.value,
    dialect: state.dialect,
  };
  if (state.function) request.function = state.function;
  let report;
  try {
    report = api.analyze(request);
  } catch (err) {
    report = {
      diagnostics: [{ severity: 'error', line: 0, column: 0, len: 0, message: String(err.message || err) }],
      kernel: null,
      cfg: null,
      timings_ms: {},
    };
  }
  state.report = report;
  state.selectedBlock = null;
  render();
}

function render() {
  const r = state.report;
  editor.setMarks(r.diagnostics);
  editor.highlightLines(null);
  renderDiagnostics($('diagnostics'), r.diagnostics, (d) => editor.revealLine(d.line, d.column, d.len));
  const errors = r.diagnostics.filter((d) => d.severity === 'error').length;
  const k = r.kernel;
  $('stat-function').textContent = k ? k.function : '—';
  $('stat-instructions').textContent = k ? String(k.instructions.length) : '—';
  $('stat-blocks').textContent = r.cfg ? String(r.cfg.nodes.length) : '—';
  $('stat-edges').textContent = r.cfg ? String(r.cfg.edges.length) : '—';
  $('stat-time').textContent =
    r.timings_ms && r.timings_ms.total !== undefined ? r.timings_ms.total.toFixed(2) + ' ms' : '—';
  $('status').textContent = errors
    ? `${errors} error${errors > 1 ? 's' : ''}`
    : k
      ? 'analysed'
      : '';
  $('status').className = errors ? 'status bad' : 'status good';

  const fsel = $('function');
  const fns = k ? k.functions : [];
  fsel.replaceChildren(...fns.map((f) => el('option', { value: f, text: f, selected: k && f === k.function })));
  fsel.parentElement.hidden = fns.length < 2;

  renderInstructions($('instructions'), k ? k.instructions : [], (ins) => {
    editor.revealLine(ins.line, ins.column);
    if (ins.block !== null && ins.block !== undefined) selectBlock(ins.block, false);
  });
  drawGraph();
}

function drawGraph() {
  const r = state.report;
  const host = $('cfg');
  if (!r.cfg) {
    graph = null;
    host.replaceChildren(
      el('p', {
        class: 'empty',
        text: r.diagnostics.some((d) => d.severity === 'error')
          ? 'No graph: fix the errors listed above.'
          : 'No graph.',
      }),
    );
    return;
  }
  graph = renderCfg(host, r.cfg, (n) => selectBlock(n.id, true), state.zoom);
  if (state.selectedBlock !== null) graph.select(state.selectedBlock);
}

function selectBlock(id, fromGraph) {
  const r = state.report;
  if (!r.cfg) return;
  const n = r.cfg.nodes[id];
  if (!n) return;
  state.selectedBlock = id;
  if (graph) graph.select(id);
  editor.highlightLines(n.line_start, n.line_end);
  const row = markRows($('instructions'), (tr) => tr.dataset.block === String(id));
  if (row && fromGraph && !$('panel-instructions').hidden) row.scrollIntoView({ block: 'nearest' });
  $('selection').textContent = `B${id}: ${n.instructions} instructions, lines ${n.line_start}–${n.line_end}`;
}

function cursorToBlock(line) {
  const k = state.report && state.report.kernel;
  if (!k) return;
  const ins = k.instructions.find((i) => i.line === line);
  if (ins && ins.block !== null && ins.block !== undefined && ins.block !== state.selectedBlock) {
    state.selectedBlock = ins.block;
    if (graph) graph.select(ins.block);
    markRows($('instructions'), (tr) => tr.dataset.block === String(ins.block));
    $('selection').textContent = `B${ins.block} (cursor on line ${line})`;
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
  const host = $('cfg');
  const w = host.clientWidth - 8;
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
