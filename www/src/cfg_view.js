// Draws the control-flow graph of a report as SVG. Every coordinate comes from the report's
// layout (computed in Rust); this module only turns it into elements.

import { svg, hex } from './dom.js';

export const EDGE_KINDS = {
  fallthrough: 'fall-through to the next instruction',
  taken: 'branch taken',
  sync: 'SYNC to the SSY reconvergence point',
  break: 'BRK to the PBK target',
  continue: 'CONT to the PCNT target',
  call: 'call',
  return: 'return to the call site',
};

function pathOf(points) {
  if (!points.length) return '';
  return points.map(([x, y], i) => `${i ? 'L' : 'M'}${x.toFixed(1)},${y.toFixed(1)}`).join(' ');
}

/**
 * Renders `cfg` into `container`. `onSelect(node)` is called when a block is clicked.
 * Returns a handle to highlight a block from outside (`select(id)`).
 */
export function renderCfg(container, cfg, onSelect, zoom = 1) {
  const { layout } = cfg;
  const root = svg('svg', {
    id: 'cfg-svg',
    viewBox: `0 0 ${layout.width} ${layout.height}`,
    width: Math.ceil(layout.width * zoom),
    height: Math.ceil(layout.height * zoom),
    role: 'img',
    'aria-label': `Control-flow graph with ${cfg.nodes.length} blocks`,
  });
  const defs = svg('defs');
  for (const kind of Object.keys(EDGE_KINDS)) {
    defs.append(
      svg(
        'marker',
        {
          id: `arrow-${kind}`,
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
  root.append(defs);
  const edgeLayer = svg('g', { class: 'edges' });
  for (const routed of layout.edges) {
    const e = cfg.edges[routed.index];
    if (!e) continue;
    const p = svg(
      'path',
      {
        d: pathOf(routed.points),
        class: `edge ${e.kind}${routed.back ? ' back' : ''}`,
        'marker-end': `url(#arrow-${e.kind})`,
        'data-from': e.from,
        'data-to': e.to,
      },
      svg('title', { text: `B${e.from} → B${e.to}: ${EDGE_KINDS[e.kind] || e.kind}` }),
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
      class: 'node' + (n.reachable ? '' : ' unreachable') + (n.id === cfg.entry ? ' entry' : ''),
      'data-id': n.id,
      tabindex: 0,
      transform: `translate(${placed.x},${placed.y})`,
    });
    g.append(
      svg('rect', { width: placed.width, height: placed.height, rx: 5, ry: 5 }),
      svg('title', {
        text:
          `B${n.id}: ${hex(n.start)}–${hex(n.end)}, ${n.instructions} instructions, ` +
          `lines ${n.line_start}–${n.line_end}` +
          (n.reachable ? '' : ' (unreachable from the entry)'),
      }),
    );
    n.label.forEach((line, i) => {
      g.append(svg('text', { x: 10, y: 17 + i * 16, class: i ? 'sub' : 'head', text: line }));
    });
    const pick = () => onSelect(n);
    g.addEventListener('click', pick);
    g.addEventListener('keydown', (ev) => {
      if (ev.key === 'Enter' || ev.key === ' ') {
        ev.preventDefault();
        pick();
      }
    });
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
