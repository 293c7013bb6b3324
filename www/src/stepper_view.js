// The divergence stepper: one warp of a simulation, one instruction at a time — each lane's
// active bit, the activation stack (type, mask, next PC), and the current line in the editor,
// so divergence and reconvergence can be watched as they happen. Under independent thread
// scheduling (SASS sm_70+, parameter `its`) there is no stack: the warp's thread groups (the
// one the scheduler chose, the others running or waiting at a BSYNC/WARPSYNC) and the
// convergence-barrier registers take its place. Every step comes from the report's
// `simulation.stepper`.

import { el, hex } from './dom.js';

/** Lane bits of a mask as booleans, lane 0 first (the report writes masks as "1010…"). */
export function laneBits(mask) {
  if (!mask) return [];
  if (typeof mask === 'string') return [...mask].map((c) => c === '1');
  if (typeof mask.bits === 'string') return [...mask.bits].map((c) => c === '1');
  const out = [];
  for (let i = 0; i < mask.lanes; i++) out.push(Math.floor(mask.bits / 2 ** i) % 2 === 1);
  return out;
}

/**
 * An entry's type as the report writes it: a name (`nil`, `sync`, `warp_sync`, …) or, for
 * types with a value, an object — `{barrier: n}` for the convergence barrier `Bn` of sm_70+,
 * `{ipdom: {arrived}}` for PTX's post-dominator entries.
 */
export function tagText(tag) {
  if (typeof tag === 'string') return tag;
  if (tag && typeof tag === 'object') {
    if (typeof tag.barrier === 'number') return `barrier B${tag.barrier}`;
    if (tag.ipdom) return tag.ipdom.arrived ? 'ipdom (arrived)' : 'ipdom';
    const [k] = Object.keys(tag);
    if (k) return k;
  }
  return String(tag);
}

/** An entry's next PC: a saved warp (`warp_sync`) no thread has reached a `WARPSYNC` for has none. */
function nextPc(e) {
  if (e.tag === 'warp_sync' && e.pc > Number.MAX_SAFE_INTEGER) return 'not arrived';
  return hex(e.address);
}

function lanesRow(mask, executed) {
  const bits = laneBits(mask);
  const ran = laneBits(executed);
  return el(
    'div',
    { class: 'lanes', role: 'img', 'aria-label': `${bits.filter(Boolean).length} of ${bits.length} lanes active` },
    ...bits.map((on, i) =>
      el('span', {
        class: `lane${on ? ' on' : ''}${ran[i] ? ' ran' : ''}`,
        title: `lane ${i}: ${on ? (ran[i] ? 'active, executes' : 'active, guard false') : 'inactive'}`,
      }),
    ),
  );
}

/**
 * Renders step `at` of `stepper` into `host`; `onMove(i)` asks for another step (the caller
 * re-renders and highlights the line).
 */
export function renderStepper(host, stepper, at, onMove) {
  if (!stepper || !stepper.steps.length) {
    host.replaceChildren(el('p', { class: 'empty', text: 'No steps: run the simulate mode (or set simulate on).' }));
    return;
  }
  const n = stepper.steps.length;
  const i = Math.max(0, Math.min(n - 1, at));
  const s = stepper.steps[i];
  const button = (label, to, title) =>
    el('button', { text: label, title, 'aria-label': title, disabled: to === i || to < 0 || to >= n, onclick: () => onMove(to) });
  const slider = el('input', {
    type: 'range',
    min: 0,
    max: n - 1,
    value: i,
    id: 'stepper-slider',
    'aria-label': 'step',
  });
  slider.addEventListener('input', () => onMove(Number(slider.value)));
  const stack = [...s.stack].reverse();
  // PTX (post-dominator reconvergence): where each entry is popped.
  const rpc = stack.some((e) => e.reconverges_at !== undefined);
  host.replaceChildren(
    el(
      'div',
      { class: 'toolbar stepper-bar' },
      button('|◀', 0, 'first step (Home)'),
      button('◀', i - 1, 'previous step (←)'),
      el('span', { id: 'stepper-pos', class: 'mono', text: `step ${i + 1} / ${n}` }),
      button('▶', i + 1, 'next step (→)'),
      button('▶|', n - 1, 'last step (End)'),
      slider,
    ),
    el(
      'p',
      { class: 'mono', id: 'stepper-instruction' },
      `warp ${stepper.warp} · cycle ${s.cycle} · ${hex(s.address)} · line ${s.line}: `,
      el('b', { text: s.text }),
    ),
    el('h3', { text: 'Lanes (filled: active; dark: the guard holds, the lane executes)' }),
    lanesRow(s.active, s.executed),
    ...(s.groups ? groupsTables(s.groups) : stackTable(stack, rpc)),
  );
}

/** Independent thread scheduling: the thread groups and the barrier registers of a step. */
function groupsTables(g) {
  return [
    el('h3', { text: 'Thread groups (independent thread scheduling: the scheduler picks one per instruction)' }),
    el(
      'table',
      { class: 'grid', id: 'stepper-groups' },
      el('thead', {}, el('tr', {}, ...['group', 'next PC', 'state', 'mask'].map((h) => el('th', { text: h })))),
      el(
        'tbody',
        {},
        ...g.groups.map((x, k) =>
          el(
            'tr',
            { class: x.issuing ? 'executing' : '' },
            el('td', { text: `G${k}` }),
            el('td', { class: 'mono', text: hex(x.address) }),
            el('td', { text: x.issuing ? 'issues' : x.waiting ? `waits at ${x.waiting}` : 'ready' }),
            el('td', {}, lanesRow(x.mask, null)),
          ),
        ),
      ),
    ),
    el('h3', { text: 'Convergence barriers (threads each BSYNC waits for)' }),
    g.barriers.length
      ? el(
          'table',
          { class: 'grid', id: 'stepper-barriers' },
          el('thead', {}, el('tr', {}, el('th', { text: 'register' }), el('th', { text: 'mask' }))),
          el(
            'tbody',
            {},
            ...g.barriers.map((b) => el('tr', {}, el('td', { class: 'mono', text: `B${b.barrier}` }), el('td', {}, lanesRow(b.mask, null)))),
          ),
        )
      : el('p', { class: 'muted', id: 'stepper-barriers', text: 'No barrier register records a thread.' }),
  ];
}

/** The activation stack of a step, top first. */
function stackTable(stack, rpc) {
  return [
    el('h3', { text: 'Activation stack (top first)' }),
    el(
      'table',
      { class: 'grid', id: 'stepper-stack' },
      el(
        'thead',
        {},
        el('tr', {}, ...['entry', 'next PC', ...(rpc ? ['reconverges at'] : []), 'mask'].map((h) => el('th', { text: h }))),
      ),
      el(
        'tbody',
        {},
        ...stack.map((e, k) =>
          el(
            'tr',
            { class: k === 0 ? 'executing' : '' },
            el('td', { text: `${tagText(e.tag)}${k === 0 ? ' (executing)' : ''}` }),
            el('td', { class: 'mono', text: nextPc(e) }),
            ...(rpc ? [el('td', { class: 'mono', text: e.reconverges_at === undefined ? 'exit' : hex(e.reconverges_at) })] : []),
            el('td', {}, lanesRow(e.mask, null)),
          ),
        ),
      ),
    ),
  ];
}
