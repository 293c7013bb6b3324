// The WCET panel: the bound, the loop-bound table (editable) and the cost breakdown of the
// worst-case path — all numbers from the report.

import { el, hex } from './dom.js';
import { simdSummary } from './summary_simd.js';
import { pwsSummary } from './summary_pws.js';
import { rrSummary } from './summary_rr.js';
import { simSummary } from './summary_sim.js';
import { blockSummary } from './summary_block.js';
import { argumentsSummary, assumptionsSummary } from './summary_args.js';
import { download } from './export.js';

// Display names of the dialects the makespan mode reduces to an L/C string (the mapping's
// heading); the catalogue decides which dialects a mode accepts.
const KERNEL_DIALECTS = { sass: 'SASS', ptx: 'PTX', gcn: 'GCN3', simd: 'Sim-D' };

/**
 * `report` is the analysis result; `loopBounds` (address or label -> bound) is edited in
 * place and `onChange()` re-runs the analysis; `onPickNode(id)` selects a graph node;
 * `onSetParams(values)` sets mode parameters and re-runs.
 */
export function renderWcet(host, report, loopBounds, onChange, onPickNode, onSetParams) {
  const details = report['warp-cfg'];
  const times = Object.entries(report.timings_ms || {})
    .map(([k, v]) => `${k} ${v.toFixed(2)} ms`)
    .join(' · ');
  if (!report.wcet && !details && !report.simulation) {
    // A bounding mode without a bound failed on its text; only a mode that computes none
    // (thread-cfg) is told to give way.
    const failed = (report.diagnostics || []).some((d) => d.severity === 'error');
    const why = failed
      ? 'No WCET: the analysis stopped at the errors listed above.'
      : 'This mode computes no WCET. Choose the warp-cfg mode.';
    host.replaceChildren(
      ...argumentsSummary(report, onSetParams),
      el('p', { class: 'empty', id: 'wcet-none', text: why }),
      el('p', { class: 'muted', text: times }),
    );
    return;
  }
  const parts = [];
  if (report.wcet) {
    parts.push(
      el(
        'p',
        { class: 'wcet-summary' },
        el('span', { class: 'wcet-value', id: 'wcet-value', text: String(report.wcet.cycles) }),
        ` cycles (${report.wcet.cost_model} cost)`,
      ),
    );
  } else if (!report.simulation) {
    parts.push(el('p', { class: 'empty', text: 'No bound: see the diagnostics.' }));
  }
  if (report.block) parts.push(...blockSummary(report));
  if (report.simulation) parts.push(...simSummary(report, onSetParams));
  if (details && details.interleaving) parts.push(...itsSummary(details.interleaving));
  parts.push(...argumentsSummary(report, onSetParams));
  if (report.rr) {
    parts.push(
      ...assumptionsSummary(report.rr, loopBounds, onChange),
      ...rrSummary(report),
      el('p', { class: 'muted', text: `run time: ${times}` }),
    );
  }
  if (report.pws) parts.push(...pwsSummary(report), el('p', { class: 'muted', text: `run time: ${times}` }));
  if (report.simd) parts.push(...simdSummary(report), el('p', { class: 'muted', text: `run time: ${times}` }));
  const ms = report.makespan;
  if (ms) {
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
        st.solver === 'Propagation'
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
  }
  if (details) {
    parts.push(
      el(
        'p',
        { class: 'formula' },
        'WCET = max over warp-level paths of Σ count(n) · cost(n) — IPET on the warp-level CFG ',
        '(Jeanmougin et al. §4.1): flow conservation, one entry, each loop header at most N times per entry.',
      ),
      el('p', { class: 'muted', text: `run time: ${times}` }),
    );
    parts.push(
      el('p', {
        class: 'muted',
        text:
          `${details.states} abstract states, ${details.divergence_edges} divergence edges; ` +
          `ILP ${details.ilp_variables} variables, ${details.ilp_constraints} constraints, ` +
          `${details.branch_and_bound_nodes} LP solves`,
      }),
    );
    const divergent = details.divergent_branches || [];
    if (divergent.length) {
      parts.push(
        el('h3', { text: 'Branches that can split a warp (divergence analysis)' }),
        el(
          'table',
          { class: 'grid', id: 'divergent-branches' },
          el('thead', {}, el('tr', {}, ...['line', 'guard', 'varies because'].map((h) => el('th', { text: h })))),
          el(
            'tbody',
            {},
            ...divergent.map((b) =>
              el('tr', {}, el('td', { class: 'num', text: b.line }), el('td', { class: 'mono', text: b.guard }), el('td', { class: 'mono', text: b.reason })),
            ),
          ),
        ),
      );
    }
    parts.push(el('h3', { text: 'Loop bounds' }));
    if (!details.loops.length) {
      parts.push(el('p', { class: 'muted', text: 'No loops.' }));
    } else {
      const rows = details.loops.map((l) => {
        // PTX loops are named by their header's label, SASS loops by address.
        const key = l.label || hex(l.address);
        const input = el('input', {
          type: 'number',
          min: 0,
          step: 1,
          value: l.bound,
          'data-loop': key,
          'aria-label': `bound of the loop at ${key}`,
        });
        input.addEventListener('change', () => {
          const v = Number(input.value);
          if (!Number.isInteger(v) || v < 0) {
            input.classList.add('invalid');
            return;
          }
          input.classList.remove('invalid');
          loopBounds[key] = v;
          onChange();
        });
        return el(
          'tr',
          {},
          el('td', { class: 'mono', text: key }),
          el('td', { class: 'num', text: l.line }),
          el('td', {}, input),
          el('td', { text: l.bound_from + (l.irreducible ? ', irreducible' : '') }),
          el('td', { class: 'num', text: l.depth }),
        );
      });
      parts.push(
        el(
          'table',
          { class: 'grid', id: 'loop-table' },
          el(
            'thead',
            {},
            el('tr', {}, ...['header', 'line', 'bound', 'from', 'depth'].map((h) => el('th', { text: h }))),
          ),
          el('tbody', {}, ...rows),
        ),
      );
    }
    parts.push(el('h3', { text: 'Worst-case path: cost by node' }));
    const rows = details.breakdown.map((t) => {
      const tr = el(
        'tr',
        { 'data-node': t.node },
        el('td', { class: 'num', text: 'n' + t.node }),
        el('td', { class: 'mono', text: hex(t.address) }),
        el('td', { class: 'num', text: t.count }),
        el('td', { class: 'num', text: t.cost }),
        el('td', { class: 'num', text: t.total }),
      );
      tr.addEventListener('click', () => onPickNode(t.node));
      return tr;
    });
    parts.push(
      el(
        'table',
        { class: 'grid', id: 'breakdown' },
        el(
          'thead',
          {},
          el('tr', {}, ...['node', 'block', 'count', 'cost', 'count × cost'].map((h) => el('th', { text: h }))),
        ),
        el('tbody', {}, ...rows),
      ),
    );
  }
  host.replaceChildren(...parts);
}

/**
 * `warp-cfg.interleaving` (parameter `its`): one warp under independent thread scheduling
 * next to the stack order the warp-level CFG follows — counts, where the orders part, and
 * the ITS issue order (runs of one group shown as one row).
 */
function itsSummary(its) {
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
