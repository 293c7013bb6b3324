// A simulator run next to (or instead of) a bound: observed cycles vs the bound, and what the
// kernel computed (the final memory) — all from the report's `simulation`.

import { el, grid, hex } from './dom.js';

const SHOWN = 64;

/** The loops the run iterated: per header, the most iterations one thread made per entry. */
function loopIterations(s, onSetParams) {
  if (!s.loop_iterations || !s.loop_iterations.length) return [];
  const use = el('button', { type: 'button', id: 'use-observed-bounds', text: 'Bound with these counts' });
  use.addEventListener('click', () => onSetParams({ loop_bounds: 'observed' }));
  return [
    el('h3', { text: 'Loop iterations observed (most per entry, one thread)' }),
    grid(
      'loop-iterations',
      ['loop header', 'line', 'iterations'],
      s.loop_iterations.map((l) => [l.header, l.line, l.iterations]),
    ),
    el('p', { class: 'muted' }, 'loop_bounds = observed bounds each loop by its count here: the bound of this run. ', use),
  ];
}

/** `onSetParams(values)` sets mode parameters and re-runs (absent: no buttons). */
export function simSummary(r, onSetParams = () => {}) {
  const s = r.simulation;
  const parts = [el('h3', { text: 'Simulation' })];
  // The report decides: `bound` names what this run is checked against (or why there is
  // nothing to compare with) and `holds` is the verdict; a plain `simulate` run has neither.
  const cycles = el('span', { class: 'wcet-value', id: 'observed-cycles', text: String(s.cycles) });
  if (typeof s.holds === 'boolean') {
    const b = s.bound;
    parts.push(
      el(
        'p',
        { class: s.holds ? 'observed good' : 'observed bad', id: 'observed-vs-bound' },
        `observed ${s.cycles} cycles ${s.holds ? '≤' : '>'} bound ${b.cycles} (${b.what})`,
        s.holds
          ? ' — the bound holds for this execution.'
          : (s.loop_iterations || []).length
            ? ' — this execution exceeds the bound. If a loop ran more often than its bound (see the loop iterations below), the bound does not cover this input; otherwise please report it.'
            : ' — this execution exceeds the bound: please report it.',
      ),
    );
  } else if (s.bound) {
    parts.push(
      el('p', { class: 'wcet-summary' }, cycles, ' cycles observed'),
      el('p', { class: 'observed-note', id: 'observed-no-bound' }, `Not compared with a bound: ${s.bound.what}.`),
    );
  } else {
    parts.push(el('p', { class: 'wcet-summary' }, cycles, ' cycles observed'));
  }
  const w = s.warps.length;
  parts.push(
    grid('sim-stats', ['', ''], [
      ['warp-instructions issued', s.issued],
      ['warps', w],
      ['memory transactions (warp-instructions)', s.transactions.length],
      ['L1 hits / misses', s.l1 ? `${s.l1.hits} / ${s.l1.misses}` : 'no L1'],
      ['scheduler, warp size', `${s.machine.scheduler}, ${s.machine.warp_size}`],
    ]),
  );
  if (s.memory.length) {
    parts.push(
      el('h3', { text: 'Final memory' }),
      grid(
        'sim-memory',
        ['array', 'address', 'words'],
        s.memory.map((a) => [
          a.name,
          hex(a.address),
          a.words.slice(0, SHOWN).join(' ') + (a.words.length > SHOWN ? ` … (${a.words.length} words)` : ''),
        ]),
      ),
    );
  }
  parts.push(...loopIterations(s, onSetParams));
  return parts;
}
