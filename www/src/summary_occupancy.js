// The occupancy panel (issue #41): how many blocks of the kernel one SM (GCN3: one CU) holds,
// each resource's limit as a bar (the binding one marked), where each figure came from, and
// what change gives one more block. Every number is the report's `occupancy`; the bars'
// lengths are those numbers over the largest of them.

import { el, grid } from './dom.js';

const fmt = (n) => (typeof n === 'number' ? n.toLocaleString('en-US') : '—');

const LIMITS = [
  ['warps', 'warp slots'],
  ['blocks', 'blocks per SM'],
  ['registers', 'registers'],
  ['shared', 'shared memory'],
];

/** One bar per resource: the blocks it allows alone; `null` (the kernel uses none) shows none. */
function limitBars(o) {
  const shown = LIMITS.filter(([k]) => typeof o.limits[k] === 'number');
  const top = Math.max(1, ...shown.map(([k]) => o.limits[k]));
  return el(
    'div',
    { class: 'occupancy-bars', id: 'occupancy-bars', role: 'list' },
    ...LIMITS.map(([k, label]) => {
      const n = o.limits[k];
      const binding = o.binding.includes(k);
      const text = typeof n === 'number' ? `${fmt(n)} block${n === 1 ? '' : 's'}` : 'not used';
      return el(
        'div',
        { class: `occupancy-bar${binding ? ' binding' : ''}`, role: 'listitem', 'data-limit': k },
        el('span', { class: 'occupancy-label', text: `${label}${binding ? ' (binds)' : ''}` }),
        el(
          'span',
          { class: 'occupancy-track' },
          el('span', { class: 'occupancy-fill', style: `width: ${typeof n === 'number' ? (100 * n) / top : 0}%` }),
        ),
        el('span', { class: 'occupancy-value', text }),
      );
    }),
  );
}

function oneMore(o) {
  const m = o.one_more_block;
  const rows = [];
  if (m.registers_at_most !== null) rows.push([`at most ${fmt(m.registers_at_most)} registers per thread`, `${fmt(m.blocks_per_sm)} blocks`]);
  if (m.shared_bytes_at_most !== null) rows.push([`at most ${fmt(m.shared_bytes_at_most)} bytes of shared memory per block`, `${fmt(m.blocks_per_sm)} blocks`]);
  for (const [name, b] of [['smaller', m.smaller_block], ['larger', m.larger_block]]) {
    if (b) rows.push([`a ${name} block: ${fmt(b.threads)} threads`, `${fmt(b.blocks_per_sm)} blocks, ${fmt(b.warps_per_sm)} warps (${b.limited_by} bind)`]);
  }
  if (!rows.length) return [el('p', { class: 'muted', text: `No single change of registers or shared memory gives block ${fmt(m.blocks_per_sm)}: ${o.limited_by} bind${o.binding.length > 1 ? ', and others with them' : ''}.` })];
  return [el('h4', { text: 'What gives more' }), grid('occupancy-more', ['change', 'then'], rows)];
}

/** The panel, or nothing when the report has no occupancy. */
export function occupancySummary(r) {
  const o = r.occupancy;
  if (!o) return [];
  const pct = `${Math.round(o.occupancy * 100)} %`;
  return [
    el('h3', { text: `Occupancy on ${o.machine}: ${fmt(o.blocks_per_sm)} blocks, ${fmt(o.warps_per_sm)} of ${fmt(o.max_warps_per_sm)} warps (${pct})` }),
    el('p', {
      id: 'occupancy-line',
      text: `${fmt(o.threads_per_block)} threads per block (${fmt(o.warps_per_block)} warps); ${fmt(o.registers)} registers per thread (${o.registers_source}); ${fmt(o.shared_bytes)} bytes of shared memory per block (${o.shared_source}). Limited by ${o.limited_by}.`,
    }),
    limitBars(o),
    ...oneMore(o),
    el('p', { class: 'muted', text: 'The Plots tab draws the resident warps for every block size, as the occupancy calculators do.' }),
  ];
}
