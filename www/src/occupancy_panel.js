// The occupancy panel (issue #41 item 5): how many blocks one SM holds, each resource's
// limit as a bar (the blocks it alone would allow), the binding one(s) marked, and what
// change gives one more block — every number from `report.occupancy`.

import { el, grid } from './dom.js';

const LIMITS = [
  ['warps', 'warp slots'],
  ['blocks', 'block slots'],
  ['registers', 'registers'],
  ['scalar_registers', 'scalar registers'],
  ['shared', 'shared memory'],
];

/** The panel's parts for the occupancy object `o` (`report.occupancy`). */
export function occupancyPanel(o) {
  if (!o || !o.limits) return [];
  const present = LIMITS.filter(([k]) => typeof o.limits[k] === 'number');
  const widest = Math.max(1, ...present.map(([k]) => o.limits[k]));
  const binding = new Set(o.binding || []);
  const bars = present.map(([k, label]) => {
    const v = o.limits[k];
    const mark = binding.has(k);
    return el(
      'div',
      { class: `occ-row${mark ? ' binding' : ''}`, 'data-limit': k },
      el('span', { class: 'occ-label', text: label }),
      el(
        'span',
        { class: 'occ-track' },
        el('span', { class: 'occ-bar', style: `width: ${((100 * v) / widest).toFixed(1)}%` }),
      ),
      el('span', { class: 'occ-value', text: `${v} block${v === 1 ? '' : 's'}${mark ? ' — binding' : ''}` }),
    );
  });
  const unused = LIMITS.filter(([k]) => k in o.limits && o.limits[k] === null).map(([, l]) => l);
  const more = o.one_more_block || {};
  const ways = [];
  if (typeof more.registers_at_most === 'number') ways.push(`at most ${more.registers_at_most} registers per thread`);
  if (typeof more.shared_bytes_at_most === 'number') ways.push(`at most ${more.shared_bytes_at_most} bytes of shared memory per block`);
  if (more.smaller_block) ways.push(`blocks of ${more.smaller_block.threads} threads (${more.smaller_block.blocks_per_sm} per SM)`);
  if (more.larger_block) ways.push(`blocks of ${more.larger_block.threads} threads (${more.larger_block.warps_per_sm} warps per SM)`);
  return [
    el('h3', { text: `Occupancy on ${o.machine} (${o.machine_from})` }),
    el('p', {
      class: 'formula',
      id: 'occupancy-figure',
      text:
        `${o.blocks_per_sm} block${o.blocks_per_sm === 1 ? '' : 's'} of ${o.warps_per_block} warp${o.warps_per_block === 1 ? '' : 's'} per SM: ` +
        `${o.warps_per_sm} of ${o.max_warps_per_sm} warp slots (${(100 * o.occupancy).toFixed(0)} %), limited by ${o.limited_by}.`,
    }),
    el('div', { class: 'occ-bars', id: 'occupancy-bars' }, ...bars),
    ...(unused.length ? [el('p', { class: 'muted', text: `Not limiting (the kernel uses none): ${unused.join(', ')}.` })] : []),
    grid('occupancy-usage', ['resource', 'per block', 'from'], [
      ['registers per thread', o.registers, o.registers_source],
      ['shared memory (static + dynamic)', `${o.static_shared_bytes} + ${o.dynamic_shared_bytes} bytes`, o.shared_source],
    ]),
    ...(ways.length ? [el('p', { class: 'muted', id: 'occupancy-one-more', text: `One more block per SM with: ${ways.join('; ')}.` })] : []),
  ];
}
