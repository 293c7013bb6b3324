// The Stepper tab (stepper_view.js draws it): the simulation's current step, its line in the
// editor and its node in the graph when the graph is beside it, the keys that move it, the
// warp picker, and the "graph beside the stepper" choice (kept across visits).

import { renderStepper } from './stepper_view.js';
import { nodeOfStep } from './step_node.js';
import { state, view, page } from './page_state.js';
import { updateHash } from './address_bar.js';
import { findMode, setMode } from './mode_controls.js';
import { run } from './analysis_run.js';
import { showView } from './result_tabs.js';
import { selectStepNode } from './graph_pane.js';

const $ = (id) => document.getElementById(id);

/** The stepper's keys (arrows, Home, End) and the "beside" checkbox. */
export function wireStepper() {
  $('stepper').addEventListener('keydown', (e) => {
    const steps = view.report && view.report.simulation && view.report.simulation.stepper.steps;
    if (!steps) return;
    const to = { ArrowRight: view.step + 1, ArrowLeft: view.step - 1, Home: 0, End: steps.length - 1 }[e.key];
    if (to === undefined) return;
    e.preventDefault();
    view.step = Math.max(0, Math.min(steps.length - 1, to));
    drawStepper();
    updateHash();
  });
  $('stepper-beside').checked = localStorage.getItem('warpbound-beside') === 'on';
  $('stepper-beside').addEventListener('change', (e) => {
    localStorage.setItem('warpbound-beside', e.target.checked ? 'on' : 'off');
    showView(state.view);
  });
}

/** Shows step `view.step` of the simulation's stepper and highlights its line. */
export function drawStepper() {
  const sim = view.report && view.report.simulation;
  // The picker only where the mode reads `warp` (the modes that take a launch).
  const mode = page.catalog && findMode(state.mode);
  const picks = mode && mode.params.some((p) => p.name === 'warp');
  const warps = picks && sim && sim.warps ? sim.warps.length : 1;
  renderStepper(
    $('stepper'),
    sim && sim.stepper,
    view.step,
    (i) => {
      view.step = i;
      drawStepper();
      updateHash();
    },
    warps,
    (k) => {
      // Another warp's steps: the run records one warp (parameter `warp`).
      setMode(state.mode, { ...state.params, warp: k }, state.preset.name);
      view.step = 0;
      run();
    },
    view.report && view.report.kernel && view.report.kernel.instructions,
  );
  const s = sim && sim.stepper && sim.stepper.steps[view.step];
  if (s && state.view === 'stepper') page.editor.highlightLines(s.line, s.line);
  selectStepNode();
}

/**
 * The current step's node — the one of the stack the warp is in, when the block is in
 * several (step_node.js) — or null; the graph shows it selected while it is beside the
 * stepper, and keeps it when redrawn (a zoom, a theme).
 */
export function stepNode() {
  const r = view.report;
  const steps = r && r.simulation && r.simulation.stepper && r.simulation.stepper.steps;
  if (!steps || !steps[view.step] || !r.cfg || state.view !== 'stepper' || !$('stepper-beside').checked) return null;
  return nodeOfStep(r.cfg, steps, view.step);
}
