// The divergence stepper: one warp of a simulation, one instruction at a time — each lane's
// active bit, the activation stack (type, mask, next PC), and the current line in the editor,
// so divergence and reconvergence can be watched as they happen. Under independent thread
// scheduling (SASS sm_70+, parameter `its`) there is no stack: the warp's thread groups (the
// one the scheduler chose, the others running or waiting at a BSYNC/WARPSYNC) and the
// convergence-barrier registers take its place. Every step comes from the report's
// `simulation.stepper`.

import { schedulingClauses, schedulingExplanation, schedulingText } from './scheduling.js';
import { el, hex } from './dom.js';
import { laneBits, laneEvent } from './lane_events.js';

export { laneBits, laneEvent };

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

/** A register value as the table shows it: small numbers in decimal, the rest in hex. */
function valueText(v) {
  return v < 0x10000 ? String(v) : '0x' + v.toString(16);
}

/**
 * Per-lane values of the registers the instruction reads (before it) and writes (after it);
 * inactive lanes greyed. SASS only: other dialects' steps carry none.
 */
function registersTable(step) {
  const regs = step.registers || [];
  if (!regs.length) return [];
  const on = laneBits(step.active);
  const lanes = regs[0].values.length;
  return [
    el('h3', { text: 'Registers (read: before the instruction; written: after it), per lane' }),
    el(
      'div',
      { class: 'scroll-x' },
      el(
        'table',
        { class: 'grid registers', id: 'stepper-registers' },
        el(
          'thead',
          {},
          el('tr', {}, el('th', { text: 'register' }), ...Array.from({ length: lanes }, (_, l) => el('th', { text: String(l) }))),
        ),
        el(
          'tbody',
          {},
          ...regs.map((r) =>
            el(
              'tr',
              { class: r.written ? 'written' : 'read' },
              el('th', { class: 'mono', text: `${r.name} ${r.written ? '←' : '→'}`, title: r.written ? 'written' : 'read' }),
              ...r.values.map((v, l) => el('td', { class: `mono${on[l] ? '' : ' off'}`, text: valueText(v) })),
            ),
          ),
        ),
      ),
    ),
  ];
}

/** Play/pause: one timer for the page; it asks for the next step until the last. */
const player = { timer: null, speed: 4 };

function stopPlaying() {
  clearInterval(player.timer);
  player.timer = null;
}

/**
 * One box per lane (filled: active; dark: the guard holds, the lane executes). With
 * `numbered`, each box carries its lane number above it in one cell, so numbers and boxes
 * wrap together however narrow the pane is.
 */
function lanesRow(mask, executed, numbered = false) {
  const bits = laneBits(mask);
  const ran = laneBits(executed);
  const box = (on, i) =>
    el('span', {
      class: `lane${on ? ' on' : ''}${ran[i] ? ' ran' : ''}`,
      title: `lane ${i}: ${on ? (ran[i] ? 'active, executes' : 'active, guard false') : 'inactive'}`,
    });
  return el(
    'div',
    {
      class: numbered ? 'lanes numbered' : 'lanes',
      id: numbered ? 'stepper-lanes' : null,
      role: 'img',
      'aria-label': `${bits.filter(Boolean).length} of ${bits.length} lanes active`,
    },
    ...bits.map((on, i) =>
      numbered
        ? el('span', { class: 'lane-cell' }, el('span', { class: 'lane-number', 'aria-hidden': 'true', text: String(i) }), box(on, i))
        : box(on, i),
    ),
  );
}

/**
 * Renders step `at` of `stepper` into `host`; `onMove(i)` asks for another step (the caller
 * re-renders and highlights the line). With `warps` > 1 a picker offers the run's other
 * warps: `onWarp(k)` asks for a run that records warp `k`.
 */
/**
 * Draws step `at` of `stepper` into `host`; `onMove(i)` moves to step i, `onWarp(k)` records
 * warp k instead. `instructions` (the report's instruction table) gives a SASS step its
 * scheduling control bits: which barriers it waits on and sets, and its stall (issue #42).
 */
export function renderStepper(host, stepper, at, onMove, warps = 1, onWarp = null, instructions = null) {
  if (!stepper || !stepper.steps.length) {
    stopPlaying();
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
  if (player.timer && i >= n - 1) stopPlaying();
  const play = el('button', {
    id: 'stepper-play',
    text: player.timer ? '⏸ pause' : '▶ play',
    'aria-label': player.timer ? 'pause' : 'play the steps',
    disabled: !player.timer && i >= n - 1,
    onclick: () => {
      if (player.timer) {
        stopPlaying();
        onMove(i);
        return;
      }
      let k = i;
      player.timer = setInterval(() => {
        k += 1;
        if (k >= n) stopPlaying();
        onMove(Math.min(k, n - 1));
      }, 1000 / player.speed);
      onMove(i);
    },
  });
  const speed = el(
    'select',
    { id: 'stepper-speed', 'aria-label': 'steps per second' },
    ...[1, 2, 4, 10, 30].map((v) => el('option', { value: v, text: `${v}/s`, selected: v === player.speed })),
  );
  speed.addEventListener('change', () => {
    player.speed = Number(speed.value);
    if (player.timer) {
      stopPlaying();
      play.click();
    }
  });
  const picker =
    warps > 1 && onWarp
      ? el(
          'select',
          { id: 'stepper-warp', 'aria-label': 'warp the stepper records' },
          ...Array.from({ length: warps }, (_, k) => el('option', { value: k, text: `warp ${k}`, selected: k === stepper.warp })),
        )
      : null;
  if (picker) picker.addEventListener('change', () => onWarp(Number(picker.value)));
  const event = laneEvent(stepper.steps, i);
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
      play,
      speed,
      ...(picker ? [picker] : []),
    ),
    el(
      'p',
      { class: 'mono', id: 'stepper-instruction' },
      `warp ${stepper.warp} · cycle ${s.cycle} · ${hex(s.address)} · line ${s.line}: `,
      el('b', { text: s.text }),
    ),
    schedulingRow(instructions, s.index),
    event ? el('p', { id: 'stepper-event', class: `lane-event ${event.kind}`, text: event.text }) : '',
    el('h3', { text: 'Lanes (filled: active; dark: the guard holds, the lane executes)' }),
    lanesRow(s.active, s.executed, true),
    ...registersTable(s),
    ...(s.groups ? groupsTables(s.groups) : stackTable(stack, rpc)),
  );
}

/** The step's control bits in words (SASS with encodings), or nothing. */
function schedulingRow(instructions, index) {
  const ins = instructions && instructions.find((x) => x.index === index);
  const clauses = schedulingClauses(ins && ins.control_bits);
  if (!clauses.length) return '';
  return el('p', {
    class: 'mono',
    id: 'stepper-scheduling',
    title: schedulingExplanation(ins.control_bits),
    text: `control bits ${schedulingText(ins.control_bits)}: ${clauses.join(' · ')}`,
  });
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
