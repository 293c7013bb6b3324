// Summary of the `pws` mode (Klashtorny et al.): the three kernel WCETs side by side with the
// reductions (the paper's Table 2 layout), the candidate split sets, and the parameters.

import { el, grid } from './dom.js';
import { details } from './details.js';

const pct = (a, b) => (b ? `${(((b - a) / b) * 100).toFixed(1)} %` : '—');

export function pwsSummary(r) {
  const p = details(r, 'pws');
  const hw = p.hardware;
  const row = (name, v) => [name, v.no_split, v.dws, v.pws, pct(v.pws, v.no_split), pct(v.pws, v.dws)];
  const setText = (s) => (s && s.length ? s.map((n) => `n${n}`).join(', ') : '∅');
  return [
    el(
      'p',
      { class: 'formula' },
      'E_WF = IPET(C_out) + |SB|·(e_s + e_m) with C_out = Prune(C, SB) (Lemma 5.1); DWS: IPET(C) + S·(e_s + e_m); ',
      'E_kernel per model from N_SIMD_total (Eq. 2), G_parallel (Def. 5.2) and DS (Def. 5.3): ',
      'Lemma 5.5 (PWS), Lemma 5.7 (DWS, and no splitting with S = 0).',
    ),
    grid('pws-table2', ['', 'no split', 'DWS', 'PWS', 'PWS vs no split', 'PWS vs DWS'], [
      row('E_WF (wavefront)', p.e_wf),
      row('E_kernel (kernel)', p.e_kernel),
    ]),
    el('h3', { text: 'Split sets' }),
    el('p', {
      class: 'muted',
      text: 'Click a divergent branch (blue frame) in the graph to mark or unmark it; marks go through Select (Alg. 1).',
    }),
    grid(
      'pws-candidates',
      ['set', 'splits', 'contexts', 'fits S', 'IPET(C_out)', 'E_WF'],
      p.candidates.map((c) => [c.source, setText(c.splits), c.contexts, c.feasible ? 'yes' : 'no', c.ipet, c.e_wf]),
    ),
    el('p', {
      class: 'muted',
      text: `chosen (${p.mode}): ${setText(p.splits.chosen)} · pruned edges: ${
        p.pruned_edges.map(([a, b]) => `n${a}→n${b}`).join(', ') || 'none'
      } · IPET(C) = ${p.ipet_unpruned}, IPET(C_out) = ${p.ipet_pruned}`,
    }),
    grid('pws-hardware', ['', ''], [
      ['N_CU × N_SIMD × N_WFC', `${hw.n_cu} × ${hw.n_simd} × ${hw.n_wfc}`],
      ['N_WIWF, S', `${hw.n_wiwf}, ${hw.s}`],
      ['d, e_s, e_m', `${hw.d}, ${hw.e_s}, ${hw.e_m}`],
      ['launch', `${p.launch.workgroups} workgroup(s) × ${p.launch.work_items_per_group} work-items`],
      ['N_SIMD_total, G_parallel, DS (PWS)', `${p.kernel.pws.n_simd_total}, ${p.kernel.pws.g_parallel}, ${p.kernel.pws.dispatches}`],
    ]),
  ];
}
