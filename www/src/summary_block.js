// Summary of the `block` mode: the thread block's bound as the worst-case response time of
// its warps (crate `block`), its parts, the runs under each scheduler, and a slider over the
// number of warps reading the report's growth table — every number from the report.

import { el, grid } from './dom.js';
import { details } from './details.js';

const fmt = (n) => (typeof n === 'number' ? n.toLocaleString('en-US') : '—');

/** The slider: pick a number of warps, read its bound (and serialised bound, and run). */
function growthSlider(b) {
  const g = b.growth || [];
  if (!g.length) return [];
  const out = el('output', { id: 'block-growth-value', for: 'block-growth' });
  const slider = el('input', {
    type: 'range',
    id: 'block-growth',
    min: String(g[0].warps),
    max: String(g[g.length - 1].warps),
    step: '1',
    value: String(b.warps),
    'aria-label': 'number of warps in the block',
  });
  const show = () => {
    const row = g.find((x) => x.warps === Number(slider.value)) || g[0];
    const observed = typeof row.observed === 'number' ? `; observed ${fmt(row.observed)}` : '';
    out.textContent = `${row.warps} warp${row.warps === 1 ? '' : 's'}: bound ${fmt(row.bound)} cycles (serialised ${fmt(row.serialised)}${observed})`;
  };
  slider.addEventListener('input', show);
  show();
  return [
    el('h3', { text: 'How the bound grows with the block' }),
    el('p', { class: 'block-growth' }, el('label', { for: 'block-growth', text: 'warps ' }), slider, ' ', out),
    el('p', { class: 'muted', text: 'The Plots tab draws the same table: bound, serialised bound and the runs made.' }),
  ];
}

export function blockSummary(r) {
  const b = details(r, 'block');
  const x = b.bound;
  const critical = x.warps[x.critical] || { isolated: b.warp_wcet, interference: 0 };
  const phases = x.rule === 'barrier_phases';
  const extra = b.wcet - b.warp_wcet - (b.warps - 1) * b.warp_issues;
  const formula = phases
    ? `Block bound per barrier phase = C + (W − 1) · I + Σ P_b · λ_b = ${fmt(b.warp_wcet)} + ${b.warps - 1} × ${fmt(b.warp_issues)} + ${fmt(extra)} = ${fmt(b.wcet)} cycles. ` +
      'Every warp passes the barriers the same number of times, in the same order, whole (no branch that splits the block reaches one; loops around them are left by the whole block together): between two barriers the argument without barriers holds, ' +
      'plus, per barrier passed (P_b times: the bounds of the loops around barrier b), one cycle for its release and λ_b − 1 for what the warp may still wait for from before it (λ_b: the largest latency of a result no instruction waited for before the barrier).'
    : x.rule === 'serialised'
      ? `Barriers: the block bound is the serialised one, W × C = ${b.warps} × ${fmt(b.warp_wcet)} = ${fmt(b.wcet)} cycles. ` +
        'While a warp waits at a barrier the others may be waiting for their own latencies, one after another, so only running the warps one after the other is proved safe here.'
      : `Block bound = C + (W − 1) · I = ${fmt(b.warp_wcet)} + ${b.warps - 1} × ${fmt(b.warp_issues)} = ${fmt(b.wcet)} cycles. ` +
        'Each warp alone takes at most C (the warp-cfg bound); the other warps can only take issue slots from it, at most I each (their warp-instructions). ' +
        'Their latencies overlap with its own, so W warps take far less than W × C when C is mostly waiting.';
  const parts = [
    el('h3', { text: `Thread block: ${b.warps} warp${b.warps === 1 ? '' : 's'} (${b.threads} threads)` }),
    el('p', { class: 'formula', id: 'block-formula', text: formula }),
    grid('block-terms', ['quantity', 'value'], [
      ['C: one warp alone (warp-cfg bound)', fmt(b.warp_wcet)],
      ['I: warp-instructions one warp issues (bound under unit cost)', fmt(b.warp_issues)],
      ['contention (bound − C of the critical warp)', fmt(x.contention)],
      ['critical warp (ties: the youngest, served last by GTO)', `warp ${x.critical} (alone ${fmt(critical.isolated)}, others ${fmt(critical.interference)})`],
      ['serialised bound Σ C', fmt(x.serialised)],
      ['barriers', !b.barriers ? 'no'
        : b.barrier_phases
          ? `yes, passed alike by every warp: P = ${fmt(b.barrier_phases.instances)} instance(s), Σ P_b · λ_b = ${fmt(b.barrier_phases.carry)}${phases ? ' (per phase)' : ' (the serialised bound is lower)'}`
          : 'yes (serialised bound: see the note)'],
    ]),
  ];
  if (b.runs && b.runs.length) {
    parts.push(
      el('h3', { text: 'Runs of the block (the simulator, the bound\u2019s setting)' }),
      grid(
        'block-runs',
        ['scheduler', 'observed cycles', 'last warp to finish', 'bound / observed', 'holds'],
        b.runs.map((run) => [
          run.scheduler,
          fmt(run.cycles),
          `warp ${run.last_warp}`,
          `${(b.wcet / Math.max(1, run.cycles)).toFixed(2)}×`,
          run.holds ? 'yes' : 'NO — a soundness bug',
        ]),
      ),
    );
  }
  parts.push(...growthSlider(b));
  return parts;
}
