// Summary of the warp-cfg mode's `its` parameter (independent thread scheduling): one warp's
// issue order under ITS next to the stack order the warp-level CFG follows.

import { el } from './dom.js';

/**
 * `warp-cfg.interleaving` (parameter `its`): one warp under independent thread scheduling
 * next to the stack order the warp-level CFG follows — counts, where the orders part, and
 * the ITS issue order (runs of one group shown as one row).
 */
export function itsSummary(its) {
  const rows = [];
  for (const o of its.order) {
    const last = rows[rows.length - 1];
    const addr = '0x' + o.address.toString(16).padStart(4, '0');
    const lanes = popcount(o.mask);
    if (last && last.mask === o.mask) {
      last.to = addr;
      last.n += 1;
    } else {
      rows.push({ from: addr, to: addr, mask: o.mask, lanes, n: 1 });
    }
  }
  const same = its.issues === its.stack_order_issues;
  return [
    el('h3', { text: `Independent thread scheduling (${its.scheduler})` }),
    el(
      'p',
      { id: 'its-summary' },
      `${its.issues} instructions issued (${its.outcome}) against ${its.stack_order_issues} in the stack order ` +
        `the warp-level CFG follows: ${same ? 'the same count' : its.issues > its.stack_order_issues ? 'more' : 'fewer'}` +
        (its.departures.length ? `; the orders part where ${its.departures.join('; ')}.` : '; the same pairs, interleaved.'),
    ),
    el(
      'table',
      { class: 'grid', id: 'its-order' },
      el('thead', {}, el('tr', {}, el('th', { text: 'issued' }), el('th', { text: 'instructions' }), el('th', { text: 'lanes' }))),
      el(
        'tbody',
        {},
        ...rows.slice(0, 200).map((r) =>
          el(
            'tr',
            {},
            el('td', { class: 'mono', text: String(r.n) }),
            el('td', { class: 'mono', text: r.from === r.to ? r.from : `${r.from} … ${r.to}` }),
            el('td', { class: 'mono', text: `${r.lanes} (0x${r.mask.toString(16)})` }),
          ),
        ),
      ),
    ),
  ];
}

function popcount(m) {
  let n = 0;
  for (let x = m; x > 0; x = Math.floor(x / 2)) n += x % 2;
  return n;
}
