// The kernel's arguments (PTX launch parameters) the analysis used — chosen automatically
// when the request gave none (params=auto) — and, for `rr`, where unknown data was paid for
// in the worst case and which loop bounds that took. All numbers and texts from the report.

import { el, grid, hex } from './dom.js';

/**
 * `onSetParams(values)` merges `values` into the mode's parameters and re-runs;
 * `loopBounds` (label -> bound) is edited in place and `onChange()` re-runs.
 */
export function argumentsSummary(r, onSetParams) {
  const a = r.arguments;
  if (!a || !a.values.length) return [];
  const auto = a.values.some((v) => v.source === 'auto');
  const edit = el('button', { type: 'button', id: 'edit-arguments', text: 'Edit in params' });
  edit.addEventListener('click', () =>
    onSetParams(a.textures ? { params: a.params, textures: a.textures } : { params: a.params }),
  );
  return [
    el('h3', { text: 'Kernel arguments' }),
    el(
      'p',
      { class: 'muted', id: 'arguments-note' },
      auto
        ? 'No params given: chosen automatically (pointers 1 MiB apart from 0x100000, integers 64, floats 1.0). '
        : 'From the params field. ',
      edit,
    ),
    grid(
      'arguments',
      ['parameter', 'type', 'kind', 'value', 'from'],
      a.values.map((v) => [v.name, v.type, v.kind, v.text, v.source]),
    ),
    ...buffers(a, onSetParams),
    ...textures(a),
  ];
}

/** The bindings the automatic launch gave the texture parameters (the simulator's model). */
function textures(a) {
  if (!a.textures) return [];
  return [
    el(
      'p',
      { class: 'muted', id: 'arguments-textures-note' },
      'Texture parameters: in the simulator each is the address of a pitch-linear array of 32-bit texels (nearest-point fetches, clamped coordinates), bound as (the textures field):',
    ),
    el('p', { class: 'mono', id: 'arguments-textures', text: a.textures }),
  ];
}

/** The automatic memory the run used: an array per pointer, at the extent the run reached,
 *  seeded words everywhere else, and the instructions that read or wrote outside the arrays. */
function buffers(a, onSetParams) {
  if (!a.memory) return [];
  const strays = (a.outside || []).map((o) => [
    o.line,
    hex(o.instruction_address),
    (o.write ? 'store' : 'load') + ` ${o.bytes} B` + (o.misaligned ? ', misaligned' : ''),
    `${hex(o.lowest)} … ${hex(o.end)}`,
    o.count,
  ]);
  const edit = el('button', { type: 'button', id: 'edit-memory', text: 'Edit in memory' });
  edit.addEventListener('click', () =>
    onSetParams({ params: a.params, memory: a.memory, ...(a.textures ? { textures: a.textures } : {}) }),
  );
  return [
    el(
      'p',
      { class: 'muted', id: 'arguments-memory-note' },
      'No memory given: every address is memory. Each pointer got an array (as far as the run reached) and ' +
        'every word reads a small number derived from its address until the kernel writes it. ',
      edit,
    ),
    el('p', { class: 'mono', id: 'arguments-memory', text: a.memory }),
    ...(strays.length
      ? [
          el('p', {
            class: 'muted',
            id: 'arguments-outside-note',
            text:
              'These instructions reached outside every pointer’s array (addresses loaded or computed from data): ' +
              'they read seeded words there. Give memory to run on real data.',
          }),
          grid('arguments-outside', ['line', 'address', 'access', 'addresses', 'lane accesses'], strays),
        ]
      : []),
  ];
}

export function assumptionsSummary(rr, loopBounds, onChange) {
  const parts = [];
  if (rr.loop_bounds && rr.loop_bounds.length) {
    parts.push(el('h3', { text: 'Loops that exit on unknown data' }));
    const rows = rr.loop_bounds.map((l) => {
      const input = el('input', {
        type: 'number',
        min: 1,
        step: 1,
        value: l.bound,
        'data-loop': l.label,
        'aria-label': `bound of the loop ${l.label}`,
      });
      input.addEventListener('change', () => {
        const v = Number(input.value);
        if (!Number.isInteger(v) || v < 1) {
          input.classList.add('invalid');
          return;
        }
        input.classList.remove('invalid');
        loopBounds[l.label] = v;
        onChange();
      });
      return [l.label, l.line, input, l.source];
    });
    parts.push(grid('rr-loop-bounds', ['header label', 'line', 'bound', 'from'], rows));
  }
  if (rr.assumptions && rr.assumptions.length) {
    parts.push(
      el('h3', { text: `Paid for in the worst case (${rr.assumptions.length})` }),
      grid(
        'rr-assumptions',
        ['line', 'what'],
        rr.assumptions.map((x) => [x.line, x.kind.replace(/_/g, ' ')]),
      ),
    );
  }
  if (rr.wcet.caveat) parts.push(el('p', { class: 'status bad', id: 'rr-caveat', text: rr.wcet.caveat }));
  return parts;
}
