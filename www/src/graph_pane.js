// The Graph tab: the control-flow graph (cfg_view.js) drawn at its zoom — a new graph opens
// readable at its entry, fit, zoom to selection, drag to pan (graph_zoom.js) — its legend and
// export buttons, the selected node (in the graph, the editor and the instruction table) and,
// in the pws mode, a click on a branch that marks it as a split point.

import { el } from './dom.js';
import { renderCfg, EDGE_KINDS, kindsIn } from './cfg_view.js';
import { markRows } from './tables.js';
import { downloadSvg, downloadDot } from './export.js';
import { fitZoom as fitWhole, openingZoom, openAt, centreOn, selectionZoom, enablePan } from './graph_zoom.js';
import { state, view, page } from './page_state.js';
import { showStatus } from './status.js';
import { updateHash } from './address_bar.js';
import { setMode } from './mode_controls.js';
import { run } from './analysis_run.js';
import { stepNode } from './stepper_pane.js';
import { details } from './details.js';

const $ = (id) => document.getElementById(id);

/** The graph drawn (cfg_view.js's handle), or null. */
let graph = null;

/** The zoom and export buttons, and drag to pan. */
export function wireGraph() {
  $('zoom-in').addEventListener('click', () => setZoom(view.zoom * 1.25));
  $('zoom-out').addEventListener('click', () => setZoom(view.zoom / 1.25));
  $('zoom-fit').addEventListener('click', fitZoom);
  $('zoom-selection').addEventListener('click', zoomToSelection);
  $('export-svg').addEventListener('click', () => {
    const svg = $('cfg-svg');
    if (svg) downloadSvg(svg, 'warpbound-cfg');
  });
  $('export-dot').addEventListener('click', () => {
    if (view.report && view.report.cfg) downloadDot(view.report.cfg, 'warpbound-cfg');
  });
  enablePan($('cfg'));
}

export function drawGraph() {
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

/** Selects the current step's node in the graph, when there is one (`stepNode`). */
export function selectStepNode() {
  const node = graph && stepNode();
  if (node) graph.select(node.id);
}

export function nodeOfInstruction(index) {
  const r = view.report;
  return r && r.cfg && r.cfg.nodes.find((n) => n.kind === 'block' && n.first <= index && index <= n.last);
}

export function selectNode(id, fromGraph) {
  const r = view.report;
  const n = r.cfg && r.cfg.nodes[id];
  if (!n) return;
  if (fromGraph && details(r, 'pws') && (n.role || '').split(' ').includes('branch')) {
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
  page.editor.highlightLines(n.line_start, n.line_end);
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
  showStatus(`split points: ${params.marks || 'none'} (Select, S = ${details(view.report, 'pws').hardware.s})`);
  run();
}

/** The editor's cursor on line `line`: its node is selected. */
export function cursorToNode(line) {
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

export function setZoom(z) {
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

export function fitZoom() {
  const r = view.report;
  if (r && r.cfg && r.cfg.layout) setZoom(fitWhole(r.cfg.layout, $('cfg'), graphScale()));
}

/** A graph other than the one shown opens readable, at its entry (`graph_zoom.js`). */
export function openGraph() {
  const cfg = view.report && view.report.cfg;
  if (!cfg || !cfg.layout || $('panel-graph').hidden) return;
  const host = $('cfg');
  const size = `${cfg.layout.width}×${cfg.layout.height}`;
  if (view.graphSize === size) return;
  view.graphSize = size;
  setZoom(openingZoom(cfg.layout, host, graphScale()));
  openAt(host, cfg.layout.nodes.find((p) => p.id === cfg.entry), view.zoom * graphScale());
}
