// Draws the control-flow graph of a report as SVG. Every coordinate comes from the report's
// layout (computed in Rust); this module only turns it into elements.

import { svg, hex } from './dom.js';
import { lineOpcodeText } from './opcode_docs.js';

export const EDGE_KINDS = {
  fallthrough: 'to the next block (or: no thread took the branch)',
  taken: 'branch taken (by all active threads)',
  divergence: 'exists only because threads may disagree (split, or a pending path resumes)',
  reconvergence: 'threads resume together at the SSY/PBK reconvergence point',
  sync: 'SYNC to the SSY reconvergence point',
  break: 'BRK to the PBK target',
  continue: 'CONT to the PCNT target',
  call: 'call',
  return: 'return to the call site',
  exit: 'every thread has finished',
  flow: 'control flow of the wavefront CFG',
  pruned: 'removed by Prune (Alg. 2): a split runs this serialised path in parallel',
};

/** The edge kinds that occur in `cfg`, in legend order. */
export function kindsIn(cfg) {
  const present = new Set(cfg.edges.map((e) => e.kind));
  return Object.keys(EDGE_KINDS).filter((k) => present.has(k));
}

function pathOf(points) {
  if (!points.length) return '';
  return points.map(([x, y], i) => `${i ? 'L' : 'M'}${x.toFixed(1)},${y.toFixed(1)}`).join(' ');
}

function nodeTitle(n, prefix) {
  if (n.kind === 'exit') return 'exit: every thread of the warp has finished';
  let t =
    `${prefix}${n.id} (block B${n.block}): ${hex(n.start)}–${hex(n.end)}, ${n.instructions} instructions, ` +
    `lines ${n.line_start}–${n.line_end}`;
  if (n.context) t += `\npending: ${n.context}`;
  if (n.cost !== null && n.cost !== undefined) t += `\ncost ${n.cost} per execution`;
  if (n.count !== null && n.count !== undefined) {
    t += `\nexecuted ${n.count}× on the worst-case path`;
  }
  if (!n.reachable) t += '\n(unreachable from the entry)';
  if (n.code && n.code.length) t += '\n\n' + n.code.join('\n');
  return t;
}

/**
 * Renders `cfg` into `container`. `onSelect(node)` is called when a block is clicked.
 * Returns a handle to highlight a block from outside (`select(id)`).
 *
 * `options.id` names the drawing (another id for a second drawing on the page, such as the
 * comparison's); `options.interactive: false` draws a picture only: no focus stops, no
 * clicks, one name for the whole drawing (`options.label`, else the default one).
 */
export function renderCfg(container, cfg, onSelect, zoom = 1, options = {}) {
  const { id = 'cfg-svg', interactive = true, label = null, dialect = null } = options;
  const { layout } = cfg;
  const prefix = cfg.kind === 'warp' ? 'n' : 'B';
  // Marker ids carry the drawing's id: `url(#…)` takes the first element of that id in the
  // document, which could be in another drawing, or in a hidden one.
  const markerId = (name) => `${id}-${name}`;
  const root = svg('svg', {
    id,
    viewBox: `0 0 ${layout.width} ${layout.height}`,
    width: Math.ceil(layout.width * zoom),
    height: Math.ceil(layout.height * zoom),
    role: interactive ? 'group' : 'img',
    'aria-label':
      label ||
      `Control-flow graph with ${cfg.nodes.length} nodes` + (interactive ? ': Tab to a node, Enter to select it' : ''),
  });
  const defs = svg('defs');
  for (const kind of Object.keys(EDGE_KINDS)) {
    defs.append(
      svg(
        'marker',
        {
          id: markerId(`arrow-${kind}`),
          viewBox: '0 0 10 10',
          refX: 9,
          refY: 5,
          markerWidth: 7,
          markerHeight: 7,
          orient: 'auto-start-reverse',
        },
        svg('path', { d: 'M0,0 L10,5 L0,10 z', class: `arrowhead ${kind}` }),
      ),
    );
  }
  defs.append(
    svg(
      'marker',
      { id: markerId('back-start'), viewBox: '0 0 10 10', refX: 5, refY: 5, markerWidth: 6, markerHeight: 6 },
      svg('circle', { cx: 5, cy: 5, r: 4, class: 'back-dot' }),
    ),
  );
  root.append(defs);
  const edgeLayer = svg('g', { class: 'edges' });
  for (const routed of layout.edges) {
    const e = cfg.edges[routed.index];
    if (!e) continue;
    const hot = e.count > 0;
    const p = svg(
      'path',
      {
        d: pathOf(routed.points),
        class: `edge ${e.kind}${routed.back ? ' back' : ''}${hot ? ' hot' : ''}`,
        'marker-end': `url(#${markerId(`arrow-${e.kind}`)})`,
        'marker-start': routed.back ? `url(#${markerId('back-start')})` : null,
        'data-from': e.from,
        'data-to': e.to,
        'data-kind': e.kind,
      },
      svg('title', {
        text:
          `${prefix}${e.from} → ${prefix}${e.to}: ${e.kind}${routed.back ? ' (back edge)' : ''} — ${EDGE_KINDS[e.kind] || ''}` +
          (e.count !== null && e.count !== undefined ? ` (taken ${e.count}× on the worst-case path)` : ''),
      }),
    );
    edgeLayer.append(p);
  }
  root.append(edgeLayer);
  const nodeLayer = svg('g', { class: 'nodes' });
  const byId = new Map();
  for (const placed of layout.nodes) {
    const n = cfg.nodes[placed.id];
    if (!n) continue;
    const g = svg('g', {
      class:
        'node' +
        (n.reachable ? '' : ' unreachable') +
        (n.id === cfg.entry ? ' entry' : '') +
        (n.kind === 'exit' ? ' exit' : '') +
        (n.count > 0 ? ' hot' : '') +
        (n.role ? ' ' + n.role.split(' ').map((r) => `role-${r}`).join(' ') : ''),
      'data-id': n.id,
      tabindex: interactive ? 0 : null,
      role: interactive ? 'button' : null,
      'aria-label': interactive ? nodeTitle(n, prefix) : null,
      transform: `translate(${placed.x},${placed.y})`,
    });
    g.append(
      svg('rect', { width: placed.width, height: placed.height, rx: 5, ry: 5 }),
      svg('title', { text: nodeTitle(n, prefix) }),
    );
    n.label.forEach((line, i) => {
      g.append(svg('text', { x: 10, y: 17 + i * 16, class: i ? 'sub' : 'head', text: line }));
    });
    // The block's instructions under the label, 14 px apart (the sizes the Rust layout
    // gave the box: views::graph::draw); a `⋯ N more` line stands for a long block's middle.
    const codeTop = 19 + n.label.length * 16;
    (n.code || []).forEach((line, i) => {
      const more = /^⋯ \d+ more$/.test(line);
      const text = svg('text', { x: 10, y: codeTop + i * 14, class: more ? 'code more' : 'code', text: line });
      // Hovering an instruction line shows its opcode's documentation instead of the node's
      // (a group holds the line and its title, so the line's text stays the instruction).
      const doc = more || !dialect ? null : lineOpcodeText(dialect, line);
      g.append(doc ? svg('g', { class: 'code-line' }, svg('title', { text: doc }), text) : text);
    });
    if (interactive) {
      const pick = () => onSelect(n);
      g.addEventListener('click', pick);
      g.addEventListener('keydown', (ev) => {
        if (ev.key === 'Enter' || ev.key === ' ') {
          ev.preventDefault();
          pick();
        }
      });
    }
    nodeLayer.append(g);
    byId.set(n.id, g);
  }
  root.append(nodeLayer);
  container.replaceChildren(root);
  return {
    select(id) {
      for (const [k, g] of byId) g.classList.toggle('selected', k === id);
      const g = byId.get(id);
      if (g && g.scrollIntoView) g.scrollIntoView({ block: 'nearest', inline: 'nearest' });
    },
  };
}
