// Summary of the `rr` mode (Huangfu): the timing model's WCET and every intermediate quantity
// — estimates used, coalescing, competing SMs, LI/LE per code segment, memory accesses, cache
// levels and warp traces — all from the report.

import { el, grid } from './dom.js';
import { details } from './details.js';

const SHOWN = 200;

const more = (total) =>
  total > SHOWN ? [el('p', { class: 'muted', text: `first ${SHOWN} of ${total} rows (the Raw JSON view has all)` })] : [];

export function rrSummary(r) {
  const x = details(r, 'rr');
  const e = x.estimates;
  const flag = (v, o) => `${v}${o ? ' (overridden)' : ''}`;
  const parts = [
    el(
      'p',
      { class: 'formula' },
      'Pure round-robin (Eq. 5.1–5.3): T_ij = max(T_i(j−1) + LI_(j−1) + LE_(j−1), T_(i−1)j + LI_(i−1)j); ',
      'LI/LE per code segment from the instruction class (Eq. 5.4–5.7); global memory LE grows with ',
      'N_coal · N_CompetingSM · L_base. WCET = the last warp\u2019s end.',
    ),
    el('p', { class: x.wcet.safe ? 'muted' : 'status bad', text: x.mode_label + (x.wcet.safe ? '' : ' — not a safe bound') }),
    grid('rr-estimates', ['quantity', 'value'], [
      ['N (active warps, Eq. 5.4)', flag(e.active_warps, e.active_warps_overridden)],
      ['N_coal (Alg. 5; average, rounded up)', flag(e.n_coal, e.n_coal_overridden)],
      ['N_CompetingSM (Alg. 6)', flag(e.competing_sms, e.competing_sms_overridden)],
      ['coalescing max / avg / mean', `${x.coalescing.max} / ${x.coalescing.avg} / ${x.coalescing.mean.toFixed(2)}`],
      ['competing SMs max / avg (active SMs)', `${x.competing_sms.max} / ${x.competing_sms.avg} (${x.competing_sms.active_sms})`],
      ['warps per block', x.warps_per_block],
      ['launch', `grid ${x.grid.x}×${x.grid.y}×${x.grid.z}, block ${x.block.x}×${x.block.y}×${x.block.z}`],
    ]),
    el('h3', { text: 'Code segments (LI and LE, Eq. 5.4–5.7)' }),
    grid(
      'rr-segments',
      ['#', 'opcode', 'line', 'LI_inst', 'LE_inst', 'LI', 'LE', 'executions'],
      x.segments.map((s) => [s.id, s.opcode, s.line, s.li_inst, s.le_inst, s.li, s.le, s.t.reduce((n, w) => n + w.times.length, 0)]),
    ),
    el('h3', { text: `Global memory accesses (${x.accesses.length})` }),
    grid(
      'rr-accesses',
      ['block', 'warp', 'SM', 'pc', 'line', 'kind', '128-byte segments', 'utilisation', 'level'],
      x.accesses.slice(0, SHOWN).map((a) => [
        a.block,
        a.warp,
        a.sm,
        a.pc,
        a.line,
        a.kind,
        a.segments.join(', '),
        `${(a.utilization * 100).toFixed(0)} %`,
        a.level || '—',
      ]),
    ),
    ...more(x.accesses.length),
  ];
  const comp = x.competing_sms.instructions;
  parts.push(
    el('h3', { text: 'Competing SMs (Alg. 6)' }),
    grid(
      'rr-competing',
      ['pc', 'SM', 'accesses per partition', 'Distance2Center', 'competing', 'counted'],
      comp.slice(0, SHOWN).map((c) => [c.pc, c.sm, c.distribution.join(' '), c.d2center.toFixed(2), c.competing.toFixed(2), c.counted ? 'yes' : 'no']),
    ),
    ...more(comp.length),
  );
  if (x.caches) {
    const c = x.caches;
    parts.push(
      el('h3', { text: 'Caches' }),
      grid('rr-caches', ['', ''], [
        ['L1 hits / L2 hits / L2 misses', `${c.l1_hit_accesses} / ${c.l2_hit_accesses} / ${c.l2_miss_accesses}`],
        ['LLC accesses, misses', `${c.llc.accesses}, ${c.llc.misses} (${(c.llc.miss_rate * 100).toFixed(1)} %)`],
        ['L1 load misses per SM', c.l1.map((l) => `SM${l.sm}: ${l.load_misses}/${l.load_lines}`).join(' · ') || '—'],
      ]),
    );
  }
  parts.push(
    el('h3', { text: `Warp traces (${x.traces.length} kept)` }),
    grid(
      'rr-traces',
      ['block', 'warp', 'SM', 'instructions', 'basic blocks in order'],
      x.traces.slice(0, SHOWN).map((t) => [
        `(${t.block_index.join(',')})`,
        t.warp,
        t.sm,
        t.steps.length,
        t.basic_blocks.slice(0, 40).map((b) => `B${b}`).join(' ') + (t.basic_blocks.length > 40 ? ' …' : ''),
      ]),
    ),
  );
  return parts;
}
