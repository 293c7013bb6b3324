// The comparison (the Compare button): a pinned result next to the current one — each one's
// key figures and graph (each drawn readable, with its own zoom), and the difference of their
// bounds, in a result view of its own (the Comparison tab), so both graphs get the pane. Every figure is the report's;
// the difference (absolute and in % of the pinned value) is the only arithmetic, done on two
// reported numbers. What a report lacks (no bound in thread-cfg, no simulation, no kernel
// after an error) is shown as absent, never guessed.

import { el } from './dom.js';
import { renderCfg } from './cfg_view.js';
import { fitZoom, openingZoom, openAt } from './graph_zoom.js';

/** What `report.wcet.cycles` is in each mode (the report's `wcet`: "the main bound"). */
const BOUND_NAMES = {
  'warp-cfg': 'IPET WCET bound',
  makespan: 'makespan bound',
  pws: 'PWS E_kernel bound',
  rr: 'round-robin WCET bound',
  simd: 'phase-based WCET bound',
};

/** The name of the bound of `mode`'s report. */
const boundName = (mode) => BOUND_NAMES[mode] || 'bound';

const boundOf = (r) => (r && r.wcet ? r.wcet.cycles : null);
const observedOf = (r) => (r && r.simulation ? r.simulation.cycles : null);
const errorsOf = (r) => ((r && r.diagnostics) || []).filter((d) => d.severity === 'error').length;

/** The request's parameters as `name=value` text (loop bounds as `loop header=bound`). */
function settingsText(request) {
  const params = Object.entries(request.params || {}).map(([k, v]) => `${k}=${v}`);
  const loops = Object.entries(request.loop_bounds || {}).map(([k, v]) => `loop ${k}=${v}`);
  const all = [...params, ...loops];
  return all.length ? all.join(', ') : 'defaults';
}

/**
 * The figures of one result, in display order: `{ key, label, value, note? }`, every value
 * text. A figure the report does not have is left out here; `rowsOf` decides how to show
 * its absence next to a result that has it.
 */
export function keyFigures(request, report) {
  const r = report || {};
  const mode = r.mode || request.mode || '—';
  const figures = [
    { key: 'mode', label: 'mode', value: mode },
    { key: 'dialect', label: 'dialect', value: r.dialect || request.dialect || '—' },
    { key: 'preset', label: 'preset', value: r.preset || request.preset || 'none' },
    { key: 'params', label: 'parameters', value: settingsText(request) },
  ];
  if (r.kernel) {
    figures.push(
      { key: 'function', label: 'function', value: r.kernel.function },
      { key: 'instructions', label: 'instructions', value: String(r.kernel.instructions.length) },
    );
  }
  if (boundOf(r) !== null) {
    figures.push({
      key: 'bound',
      label: `${boundName(mode)} (cycles)`,
      value: String(r.wcet.cycles),
      note: r.wcet.cost_model,
    });
  }
  if (observedOf(r) !== null) {
    figures.push({ key: 'observed', label: 'observed (cycles, simulation)', value: String(r.simulation.cycles) });
  }
  const errors = errorsOf(r);
  if (errors) figures.push({ key: 'errors', label: 'errors', value: String(errors) });
  return figures;
}

/**
 * The rows both columns show: every figure either result has, in one order, so that the two
 * columns line up; a figure only the other result has is `—` here.
 */
function rowsOf(mine, theirs) {
  const order = [...mine, ...theirs.filter((t) => !mine.some((m) => m.key === t.key))];
  return order.map((f) => mine.find((m) => m.key === f.key) || { key: f.key, label: f.label, value: '—' });
}

/** `+3` / `−3` (a minus sign, not a hyphen) / `0`. */
const signed = (n) => (n > 0 ? `+${n}` : n < 0 ? `−${-n}` : '0');

/** The change from `before` to `after` in % of `before` (none from 0). */
function percent(before, after) {
  if (before === 0) return '—';
  const p = ((after - before) / before) * 100;
  const text = Math.abs(p).toFixed(1);
  return text === '0.0' ? '0.0 %' : `${p > 0 ? '+' : '−'}${text} %`;
}

/**
 * One line of the difference: `what: pinned A → current B cycles: ±D (±P %)`, with the
 * numbers in elements `#compare-diff-<key>` and `#compare-diff-<key>-pct`; or why there is no
 * difference to show (only one result, or neither, has the figure).
 */
function differenceLine(key, what, before, after) {
  if (before === null && after === null) return null;
  if (before === null || after === null) {
    const which = before === null ? 'current' : 'pinned';
    return el('p', { class: 'compare-diff', id: `compare-diff-${key}`, text: `${what}: only the ${which} result has one.` });
  }
  return el(
    'p',
    { class: 'compare-diff' },
    `${what}: pinned ${before} → current ${after} cycles: `,
    el('span', { class: 'delta', id: `compare-diff-${key}`, text: signed(after - before) }),
    ' (',
    el('span', { class: 'delta', id: `compare-diff-${key}-pct`, text: percent(before, after) }),
    ')',
  );
}

/** Each side's zoom, kept while the same two results are compared (null: opening zoom). */
const zooms = { pinned: null, current: null, key: null };

/** The drawing of one side's graph at its zoom, with −, +, fit: every node readable. */
function drawingOf(which, title, cfg, dialect) {
  const box = el('div', { class: 'compare-graph', id: `compare-${which}-graph` });
  const level = el('span', { class: 'compare-zoom-level', id: `compare-${which}-zoom` });
  const draw = () => {
    const z = zooms[which] ?? 1;
    level.textContent = `${Math.round(z * 100)}%`;
    renderCfg(box, cfg, () => {}, z, {
      id: `compare-${which}-svg`,
      interactive: false,
      dialect,
      label: `${title} result: control-flow graph with ${cfg.nodes.length} nodes`,
    });
  };
  const set = (z) => {
    zooms[which] = Math.min(4, Math.max(0.1, z));
    draw();
  };
  const button = (text, label, action) => el('button', { type: 'button', text, title: label, 'aria-label': label, onclick: action });
  const tools = el(
    'div',
    { class: 'toolbar compare-tools' },
    button('−', `Zoom the ${title.toLowerCase()} graph out`, () => set((zooms[which] ?? 1) / 1.25)),
    level,
    button('+', `Zoom the ${title.toLowerCase()} graph in`, () => set((zooms[which] ?? 1) * 1.25)),
    button('fit', `Fit the ${title.toLowerCase()} graph to its box`, () => set(fitZoom(cfg.layout, box))),
  );
  // The opening zoom needs the box's size: measured once the comparison is on the page.
  const open = () => {
    if (zooms[which] === null && box.clientWidth > 0) {
      zooms[which] = openingZoom(cfg.layout, box);
      draw();
      openAt(box, cfg.layout.nodes.find((p) => p.id === cfg.entry), zooms[which]);
    }
  };
  draw();
  return { parts: [tools, box], open };
}

/** One column: its heading, its figures and its graph; `open()` sizes the graph once shown. */
function side(which, title, result, rows) {
  const figures = el('dl', { class: 'compare-figures' });
  for (const f of rows) {
    figures.append(
      el('dt', { text: f.label }),
      el('dd', {
        id: `compare-${which}-${f.key}`,
        class: f.key === 'bound' ? 'bound' : null,
        title: f.note || null,
        text: f.value,
      }),
    );
  }
  const cfg = result.report && result.report.cfg;
  const drawing = cfg && cfg.layout ? drawingOf(which, title, cfg, result.report.dialect) : null;
  const section = el(
    'section',
    { class: 'compare-side', id: `compare-${which}`, 'aria-label': `${title} result` },
    el('h3', { text: title }),
    figures,
    ...(drawing ? drawing.parts : [el('p', { class: 'muted', text: 'No graph.' })]),
  );
  return { section, open: drawing ? drawing.open : () => {} };
}

// Requests of versions 1 and 2 have the same shape: the version alone does not make them differ.
const sameRequest = (a, b) =>
  JSON.stringify({ ...a, schema_version: 0 }) === JSON.stringify({ ...b, schema_version: 0 });

/**
 * Draws the comparison of `pinned` and `current` (each `{ request, report }`) into `host`;
 * `onUnpin()` ends it.
 */
export function renderComparison(host, pinned, current, onUnpin) {
  const before = keyFigures(pinned.request, pinned.report);
  const after = keyFigures(current.request, current.report);
  const unpin = el('button', { type: 'button', id: 'unpin', text: 'Unpin', title: 'End the comparison' });
  unpin.addEventListener('click', onUnpin);
  const mode = (x) => x.report && x.report.mode;
  // Bounds of two modes are both cycles, but not the same quantity: then just "bound".
  const boundTitle = mode(pinned) && mode(pinned) === mode(current) ? boundName(mode(current)) : 'bound';
  const lines = [
    differenceLine('bound', boundTitle, boundOf(pinned.report), boundOf(current.report)),
    differenceLine('observed', 'observed (simulation)', observedOf(pinned.report), observedOf(current.report)),
  ].filter(Boolean);
  if (!lines.length) {
    lines.push(el('p', { class: 'compare-diff muted', text: 'Neither result has a bound or a simulation to compare.' }));
  }
  if (sameRequest(pinned.request, current.request)) {
    lines.push(
      el('p', {
        class: 'muted',
        id: 'compare-hint',
        text:
          'The current result is the pinned one: change the kernel, a parameter, the preset, the mode ' +
          'or the example and analyse again.',
      }),
    );
  }
  const key = JSON.stringify([pinned.request, current.request]);
  if (zooms.key !== key) Object.assign(zooms, { pinned: null, current: null, key });
  const sides = [side('pinned', 'Pinned', pinned, rowsOf(before, after)), side('current', 'Current', current, rowsOf(after, before))];
  host.replaceChildren(
    el('div', { class: 'compare-head' }, el('h2', { text: 'Comparison' }), unpin),
    ...lines,
    el('div', { class: 'compare-sides' }, ...sides.map((x) => x.section)),
  );
  for (const x of sides) x.open();
}
