// Summary of the `launch` mode: the grid's bound on the GPU's SMs (crate `launch`), its two
// phases, the GPU and where its SM count comes from, the assumptions, and the runs on the
// SMs — every number from the report. The SM × time Gantt chart is the Schedule tab's.

import { el, grid } from './dom.js';
import { details } from './details.js';

const fmt = (n) => (typeof n === 'number' ? n.toLocaleString('en-US') : '—');

export function launchSummary(r) {
  const l = details(r, 'launch');
  const b = l.bound;
  const formula =
    `Launch bound = q·W·I + ⌊q/m⌋·σ_β + C_r = ${fmt(b.blocks_before_last)} × ${l.warps_per_block} × ${fmt(l.warp_issues)} + ` +
    `${fmt(Math.floor(b.blocks_before_last / Math.max(1, l.blocks_per_sm)))} × ${fmt(b.block_stall)} + ${fmt(b.final_phase)} = ${fmt(l.wcet)} cycles. ` +
    'Until the last block is dispatched every SM is full: the SM that started the fewest blocks (q) spends each cycle issuing for them or with the last warp of one slot\u2019s block stalled (σ_β per block). ' +
    `After it, the last SM\u2019s ${b.final_blocks} block(s) finish within the thread-block response time of their warps (C_r, ${b.final_rule.replace('_', ' ')}).`;
  const parts = [
    el('h3', { text: `Grid: ${fmt(l.blocks)} blocks of ${l.threads_per_block} threads on ${l.sms} SMs (${l.gpu_title})` }),
    el('p', { class: 'formula', id: 'launch-formula', text: formula }),
    grid('launch-terms', ['quantity', 'value'], [
      ['S: SMs', `${l.sms} (${l.sms_from === 'gpu' ? l.gpu_source : 'the sms parameter'})`],
      ['m: blocks per SM (the occupancy)', fmt(l.blocks_per_sm)],
      ['slots S·m, waves ⌈n / (S·m)⌉', `${fmt(b.slots)}, ${fmt(b.waves)}`],
      ['C: one warp alone (warp-cfg bound)', fmt(l.warp_wcet)],
      ...contentionRows(l.contention),
      ['I: warp-instructions of one warp', fmt(l.warp_issues)],
      ['σ: one warp\u2019s stall cycles at most', fmt(l.warp_stall)],
      ['last dispatch by (issues + stalls)', `${fmt(b.last_dispatch)} = ${fmt(b.dispatch_issues)} + ${fmt(b.dispatch_stalls)}`],
      ['final phase C_r', fmt(b.final_phase)],
    ]),
    el('h3', { text: 'Assumptions' }),
    el('ul', { id: 'launch-assumptions' }, ...l.assumptions.map((a) => el('li', { text: a }))),
  ];
  if (l.runs && l.runs.length) {
    parts.push(
      el('h3', { text: 'Runs of the grid on the SMs (the simulator, the bound\u2019s setting)' }),
      grid(
        'launch-runs',
        ['scheduler', 'observed cycles', 'SMs used', 'most blocks on one SM', 'bound / observed', 'holds'],
        l.runs.map((run) => [
          run.scheduler,
          fmt(run.cycles),
          fmt(run.sms_used),
          fmt(run.most_blocks_on_one_sm),
          `${(l.wcet / Math.max(1, run.cycles)).toFixed(2)}×`,
          run.holds ? 'yes' : 'NO — a soundness bug',
        ]),
      ),
    );
  }
  return parts;
}

/** The contention term's rows: Δ and what it is made of (absent with memory_contention=none). */
function contentionRows(c) {
  if (!c) return [['memory contention between SMs', 'none (memory_contention=none or cost unit)']];
  return [
    [
      'Δ: cycles the other SMs add to each memory access in C',
      `${fmt(c.cycles_per_access)} = ⌈${c.active_sms} active SMs × ${c.sectors_per_access} sectors × 32 B ÷ (${fmt(c.bandwidth_gb_per_s)} GB/s ÷ ${fmt(c.boost_clock_mhz)} MHz)⌉`,
    ],
    ['DRAM bandwidth and clock', c.source],
  ];
}
