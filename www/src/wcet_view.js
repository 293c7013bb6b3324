// The WCET panel: the bound, the loop-bound table (editable) and the cost breakdown of the
// worst-case path — all numbers from the report.

import { el, hex } from './dom.js';
import { simdSummary } from './summary_simd.js';
import { pwsSummary } from './summary_pws.js';
import { rrSummary } from './summary_rr.js';
import { simSummary } from './summary_sim.js';
import { blockSummary } from './summary_block.js';
import { launchSummary } from './summary_launch.js';
import { occupancyPanel } from './occupancy_panel.js';
import { argumentsSummary, assumptionsSummary } from './summary_args.js';
import { makespanSummary } from './summary_makespan.js';
import { itsSummary } from './summary_its.js';
import { details as detailsOf, warpCfgDetails } from './details.js';

/**
 * `report` is the analysis result; `loopBounds` (address or label -> bound) is edited in
 * place and `onChange()` re-runs the analysis; `onPickNode(id)` selects a graph node;
 * `onSetParams(values)` sets mode parameters and re-runs.
 */
export function renderWcet(host, report, loopBounds, onChange, onPickNode, onSetParams) {
  const details = warpCfgDetails(report);
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
  if (detailsOf(report, 'block')) parts.push(...blockSummary(report));
  if (detailsOf(report, 'launch')) parts.push(...launchSummary(report));
  if (report.occupancy) parts.push(...occupancyPanel(report.occupancy));
  if (report.simulation) parts.push(...simSummary(report, onSetParams));
  if (details && details.interleaving) parts.push(...itsSummary(details.interleaving));
  parts.push(...argumentsSummary(report, onSetParams));
  if (detailsOf(report, 'rr')) {
    parts.push(
      ...assumptionsSummary(detailsOf(report, 'rr'), loopBounds, onChange),
      ...rrSummary(report),
      el('p', { class: 'muted', text: `run time: ${times}` }),
    );
  }
  if (detailsOf(report, 'pws')) parts.push(...pwsSummary(report), el('p', { class: 'muted', text: `run time: ${times}` }));
  if (detailsOf(report, 'simd')) parts.push(...simdSummary(report), el('p', { class: 'muted', text: `run time: ${times}` }));
  if (detailsOf(report, 'makespan')) parts.push(...makespanSummary(report, times));
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
