// Summary of the `makespan` mode (Berezovskyi et al.): the pessimistic bound, the exact
// worst case and the estimate T(W, x) with the kernel string they read, the ILP (Fig. 3) —
// its solve and its CPLEX LP text — and the mapping of the kernel's lines to L/C.

import { el } from './dom.js';
import { download } from './export.js';
import { details } from './details.js';

// Display names of the dialects the makespan mode reduces to an L/C string (the mapping's
// heading); the catalogue decides which dialects a mode accepts.
const KERNEL_DIALECTS = { sass: 'SASS', ptx: 'PTX', gcn: 'GCN3', simd: 'Sim-D' };

/** `times`: the run's phase times, shown under the table. */
export function makespanSummary(report, times) {
  const ms = details(report, 'makespan');
  const parts = [];
  parts.push(
    el(
      'p',
      { class: 'formula' },
      'Pessimistic bound (Eq. 5–7): T = ⌈W/σL⌉·IL + ⌈W/σC⌉·IC on the transformed string; exact: the longest ',
      'work-conserving schedule; estimate (Eq. 42–43): T(W, x) = min over y ≤ x of ⌈W/y⌉·T(y).',
    ),
    el(
      'table',
      { class: 'grid', id: 'makespan-table' },
      el(
        'tbody',
        {},
        ...[
          ['warps W', ms.warps],
          ['machine (L, C, S)', `${ms.ls_units}, ${ms.cores}, ${ms.warp_size}`],
          ['kernel string', ms.original],
          ['transformed (§3)', ms.transformed],
          ['σL, σC', `${ms.sigma_l}, ${ms.sigma_c}`],
          ['pessimistic (Eq. 5–7)', ms.pessimistic],
          ['safe bound (any σ)', ms.safe_bound],
          ['exact worst case', ms.exact === null || ms.exact === undefined ? '—' : `${ms.exact} (${ms.method})`],
          ['estimate T(W, x)', ms.estimate ? `${ms.estimate.value} (x = ${ms.estimate.x}, best y = ${ms.estimate.best_y})` : '—'],
        ].map(([k, v]) => el('tr', {}, el('th', { text: k }), el('td', { class: 'mono', text: String(v) }))),
      ),
    ),
    el('p', { class: 'muted', text: `run time: ${times}` }),
  );
  if (ms.ilp_solve) {
    const st = ms.ilp_solve;
    const how =
      st.solver === 'propagation'
        ? `propagating branch and bound: ${st.nodes} nodes, ${st.cache_hits} answered from the residual-program cache`
        : `LP-based branch and bound: ${st.nodes} LP solves`;
    const lp = st.lp_bound === null || st.lp_bound === undefined ? '' : `; root LP relaxation ${st.lp_bound.toFixed(1)}`;
    parts.push(
      el(
        'p',
        { id: 'makespan-ilp-solve', class: 'muted' },
        `ILP (Fig. 3): ${st.variables} binary variables, ${st.constraints} constraints; ${how}${lp}.`,
      ),
    );
  }
  if (ms.ilp) {
    const button = el('button', { type: 'button', id: 'download-ilp', text: 'Download .lp' });
    button.addEventListener('click', () =>
      download(`makespan-w${ms.warps}-${ms.ilp.variant}.lp`, 'text/plain', ms.ilp.lp),
    );
    parts.push(
      el(
        'p',
        { id: 'makespan-ilp' },
        `The paper's ILP (Fig. 3, ${ms.ilp.variant} work-conserving constraints): `,
        `${ms.ilp.variables} binary variables, ${ms.ilp.constraints} constraints, in CPLEX LP format for any MILP solver. `,
        button,
      ),
    );
  }
  if (ms.mapping && ms.mapping.length) {
    parts.push(
      el('h3', { text: `${KERNEL_DIALECTS[report.dialect] || report.dialect} → L/C (straight-line path)` }),
      el(
        'table',
        { class: 'grid' },
        el('tbody', {}, ...ms.mapping.map((m) => el('tr', {}, el('td', { class: 'num', text: m.line }), el('td', { class: 'mono', text: m.text }), el('td', { class: 'mono', text: m.unit })))),
      ),
    );
  }
  return parts;
}
