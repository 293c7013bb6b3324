// The Schedule tab's Gantt chart (gantt_view.js) at its zoom: a new schedule opens fitted to
// the results pane (short ones at the natural 14 px per cycle); the +, − and fit buttons.

import { renderGantt } from './gantt_view.js';
import { view } from './page_state.js';
import { simdExecution } from './details.js';

const $ = (id) => document.getElementById(id);

/** The zoom buttons above the chart. */
export function wireGanttZoom() {
  $('gantt-in').addEventListener('click', () => setGanttZoom(view.ganttZoom * 1.25));
  $('gantt-out').addEventListener('click', () => setGanttZoom(view.ganttZoom / 1.25));
  $('gantt-fit').addEventListener('click', () => setGanttZoom(ganttFit(view.report && view.report.schedule)));
}

/** The zoom at which `schedule` fills the results pane, at most 1. */
function ganttFit(schedule) {
  if (!schedule || !schedule.cycles) return 1;
  const width = Math.max(200, document.querySelector('.results').clientWidth - 110);
  return Math.min(1, width / (schedule.cycles * 14));
}

function setGanttZoom(z) {
  const fit = ganttFit(view.report && view.report.schedule);
  view.ganttZoom = Math.min(4, Math.max(Math.min(0.1, fit / 4), z));
  if (view.report) renderGantt($('gantt'), view.report.schedule, view.ganttZoom, simdExecution(view.report));
}

/** Draws report `r`'s schedule (if any) fitted to the pane, with its one-line summary. */
export function drawSchedule(r) {
  // A new schedule starts fitted to the pane (short ones at the natural 14 px per cycle).
  view.ganttZoom = ganttFit(r.schedule);
  renderGantt($('gantt'), r.schedule, view.ganttZoom, simdExecution(r));
  $('schedule-summary').textContent = r.schedule
    ? `${r.schedule.items.length} boxes on ${r.schedule.lanes.length} lanes over ${r.schedule.cycles} cycles, coloured by ${r.schedule.group_name}`
    : '';
}
