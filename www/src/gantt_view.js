// Schedule view: a Gantt chart of lanes (execution units) × cycles, one box per issued
// instruction, coloured by group (warp). Positions come from the report's schedule.

import { el, svg } from './dom.js';

/** A colour per group, spread around the hue circle (presentation only). */
export function groupColour(g) {
  return `hsl(${(g * 137.508) % 360}, 62%, 58%)`;
}

/** `warp 3`, or the category's own name when the schedule names its groups. */
function groupName(schedule, g) {
  const names = schedule.group_labels || [];
  return names[g] !== undefined ? names[g] : `${schedule.group_name} ${g}`;
}

/**
 * The Gantt chart of `schedule`; with `observed` (a Sim-D execution, `report.details.simd.execution`)
 * the observed run is drawn under it on the same time axis, with both ends marked and the gap
 * between them shaded. All numbers come from the report.
 */
export function renderGantt(host, schedule, zoom = 1, observed = null) {
  if (!schedule) {
    host.replaceChildren(el('p', { class: 'empty', text: 'This mode produces no schedule.' }));
    return;
  }
  const cell = 14 * zoom;
  if (!observed) {
    host.replaceChildren(legendOf(schedule), el('div', { class: 'gantt-scroll' }, chart(schedule, schedule.cycles, cell, 'gantt-svg', [])));
    return;
  }
  const cycles = Math.max(schedule.cycles, observed.gantt.cycles);
  const marks = [
    { at: observed.wcet_shown_end, cls: 'gantt-wcet-end', text: `WCET schedule ends ${observed.wcet_shown_end}` },
    { at: observed.observed_shown_end, cls: 'gantt-observed-end', text: `observed ends ${observed.observed_shown_end}` },
  ];
  const gap = observed.wcet_shown_end - observed.observed_shown_end;
  const note = el('p', {
    class: 'gantt-gap-note',
    text:
      `First ${observed.schedule.work_groups} work-groups: worst-case schedule ${observed.wcet_shown_end} cycles, ` +
      `observed (${observed.scheduler}) ${observed.observed_shown_end} — ` +
      (gap >= 0
        ? `gap ${gap} cycles. `
        : `${-gap} cycles later (the worst-case schedule leaves refresh out; Eq. 19 inflates only the total). `) +
      `Whole kernel: observed ${observed.cycles} of ${observed.bound} bound (${observed.within_bound ? 'within' : 'ABOVE'}).`,
  });
  host.replaceChildren(
    legendOf(schedule),
    note,
    el('h4', { text: 'Worst-case schedule (the WCET)' }),
    el('div', { class: 'gantt-scroll' }, chart(schedule, cycles, cell, 'gantt-svg', marks)),
    el('h4', { text: `Observed execution (${observed.scheduler})` }),
    el('div', { class: 'gantt-scroll' }, chart(observed.gantt, cycles, cell, 'gantt-observed-svg', marks, [observed.observed_shown_end, observed.wcet_shown_end])),
  );
}

function chart(schedule, cycles, cell, id, marks, gap = null) {
  const laneH = 22;
  const left = 56;
  const top = 24;
  const width = left + cycles * cell + 10;
  const height = top + schedule.lanes.length * laneH + 8;
  const root = svg('svg', {
    id,
    width,
    height,
    viewBox: `0 0 ${width} ${height}`,
    role: 'img',
    'aria-label': `Schedule: ${schedule.items.length} boxes over ${schedule.cycles} cycles`,
  });
  // Cycle axis: a tick every `step` cycles, chosen so labels do not collide.
  const step =
    [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000, 1e4, 2e4, 5e4, 1e5, 2e5, 5e5, 1e6, 2e6, 5e6, 1e7].find((s) => s * cell >= 36) ||
    Math.pow(10, Math.ceil(Math.log10(36 / cell)));
  for (let c = 0; c <= cycles; c += step) {
    const x = left + c * cell;
    root.append(
      svg('line', { x1: x, y1: top - 4, x2: x, y2: height - 8, class: 'gantt-grid' }),
      svg('text', { x: x + 2, y: top - 8, class: 'gantt-tick', text: String(c) }),
    );
  }
  schedule.lanes.forEach((name, i) => {
    root.append(svg('text', { x: 4, y: top + i * laneH + 15, class: 'gantt-lane', text: name }));
  });
  if (gap && gap[1] > gap[0]) {
    root.append(
      svg(
        'rect',
        { x: left + gap[0] * cell, y: top - 4, width: (gap[1] - gap[0]) * cell, height: height - top - 4, class: 'gantt-gap' },
        svg('title', { text: `gap to the worst-case schedule: ${gap[1] - gap[0]} cycles` }),
      ),
    );
  }
  for (const it of schedule.items) {
    const g = svg(
      'rect',
      {
        x: left + it.start * cell + 0.5,
        y: top + it.lane * laneH + 2,
        width: Math.max(1, it.length * cell - 1),
        height: laneH - 4,
        rx: 2,
        fill: groupColour(it.group),
        class: 'gantt-item',
        'data-group': it.group,
      },
      svg('title', { text: `${groupName(schedule, it.group)} · ${it.label}` }),
    );
    root.append(g);
  }
  for (const m of marks) {
    const x = left + m.at * cell;
    root.append(svg('line', { x1: x, y1: top - 4, x2: x, y2: height - 4, class: `gantt-mark ${m.cls}` }, svg('title', { text: m.text })));
  }
  return root;
}

function legendOf(schedule) {
  const groups = [...new Set(schedule.items.map((i) => i.group))].sort((a, b) => a - b);
  return el(
    'div',
    { class: 'gantt-legend' },
    ...groups.slice(0, 64).map((g) =>
      el('span', { class: 'key' }, el('i', { style: `background:${groupColour(g)}` }), groupName(schedule, g)),
    ),
    groups.length > 64 ? el('span', { text: `… ${groups.length - 64} more` }) : '',
  );
}
