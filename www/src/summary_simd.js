// Summary of the `simd` mode (Sim-D, Spliet & Mullins): both scheduling policies, the bounds
// WCET^U and WCET^L, the launch and hardware, and the phase list — all from the report.

import { el, grid } from './dom.js';
import { details, simdExecution } from './details.js';

const POLICY = { sp_as_access: 'scratchpad as access', sp_as_compute: 'scratchpad as compute' };

export function simdSummary(r) {
  const s = details(r, 'simd');
  const parts = [
    el(
      'p',
      { class: 'formula' },
      'Two work-group slots alternate between compute and access phases (§4). For w work-groups ',
      'with phase costs c_1 … c_n: WCET = ⌊w/2⌋·c_2wg + c_edge + upload (Eq. 17–18), inflated for ',
      'DRAM refresh (Eq. 19); WCET^U and WCET^L (Eq. 10–14) bracket every work-conserving order.',
    ),
    grid(
      'simd-policies',
      ['policy', 'WCET', 'before refresh', 'phases', 'c_1wg', 'c_2wg', 'c_edge'],
      Object.keys(POLICY).map((k) => {
        const p = s[k];
        return [POLICY[k], p.wcet, p.wcet_before_refresh, p.phase_count, p.pair.c_1wg, p.pair.c_2wg, p.pair.c_edge];
      }),
    ),
    grid('simd-bounds', ['bound', 'cycles'], [
      ['WCET^U (Eq. 10)', s.wcet_upper],
      ['WCET^L (Eq. 14) = max(L1, L2)', s.wcet_lower],
      ['L1 (Eq. 11): busiest resource', s.lower_bounds.l1],
      ['L2 (Eq. 13): ⌈w/2⌉·Σc', s.lower_bounds.l2],
    ]),
    grid('simd-launch', ['', ''], [
      ['NDRange', s.launch.nd_range.join(' × ')],
      ['work-group', `${s.launch.wg_width} × ${s.launch.wg_height}`],
      ['work-groups w', s.launch.work_groups],
      ['DRAM', `${s.dram.preset} — ${s.dram.source}`],
      ['pipeline', `${s.config.pipeline.decode_stages}-stage decode, ${s.config.pipeline.execute_stages}-stage execute`],
      ['program upload', `${s.upload.bytes} bytes, ${s.upload.cycles} cycles`],
      ['unrolled DAG', `${s.dag.nodes} nodes, ${s.dag.edges} edges`],
    ]),
  ];
  const best = s.sp_as_compute.wcet < s.sp_as_access.wcet ? 'sp_as_compute' : 'sp_as_access';
  parts.push(
    el('h3', { text: `Phase list (${POLICY[best]})` }),
    grid(
      'simd-phases',
      ['#', 'resource', 'cycles', 'block'],
      s[best].phases.map((p) => [p.index + 1, p.resource, p.cycles, `B${p.block}`]),
    ),
  );
  const e = simdExecution(r);
  const pathText = (p) => {
    if (p.kind === 'random') return `random (seed ${p.seed})`;
    if (p.kind === 'from_launch') {
      const f = p.fallback.kind === 'random' ? `random (seed ${p.fallback.seed})` : 'worst';
      return `from the launch (interpreter), fallback ${f}`;
    }
    return 'worst (critical path)';
  };
  if (e) {
    parts.push(
      el('h3', { text: `Execution (${e.scheduler})` }),
      el(
        'p',
        { class: 'formula' },
        'Every work-group runs its path; DRAM tiles cost what the controller model gives at their ',
        'actual addresses, refresh comes at its real times (§4, Fig. 4, Fig. 7). The two policies are ',
        'bounded by their WCET; the greedy schedulers only by WCET^U.',
      ),
      grid('simd-execution', ['', ''], [
        ['scheduler', e.scheduler],
        ['path', pathText(e.path)],
        ...(e.decisions
          ? [
              [
                'choices decided · by the fallback (capped)',
                `${e.decisions.decided} · ${e.decisions.fallback} (${e.decisions.capped})`,
              ],
              ['work-groups wholly decided', `${e.decisions.work_groups_all_decided} of ${e.work_groups}`],
              ['work-groups exited early', e.decisions.early_exits],
            ]
          : []),
        ['observed cycles', e.cycles],
        ['bound', e.bound],
        ['verdict', e.within_bound ? 'within the bound' : 'ABOVE the bound'],
        ['work-groups · phases', `${e.work_groups} · ${e.phase_instances}`],
        ['refreshes', e.refreshes],
        ['DRAM controller runs at actual addresses', e.controller_runs],
      ]),
      grid(
        'simd-utilisation',
        ['lane', 'busy cycles', 'utilisation %'],
        e.utilisation.map((u) => [u.lane, u.busy, u.percent.toFixed(1)]),
      ),
    );
  }
  return parts;
}
