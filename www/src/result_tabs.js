// The result tabs (Graph, Summary, Schedule, …): the panel shown, the lecture layout (the
// graph beside the stepper, panes.js) and the WAI-ARIA keys between tabs.

import { placePanes } from './panes.js';
import { state } from './page_state.js';
import { updateHash } from './address_bar.js';
import { renderJson } from './report_view.js';
import { drawStepper } from './stepper_pane.js';
import { drawComparison } from './comparison_pane.js';
import { openGraph } from './graph_pane.js';

const $ = (id) => document.getElementById(id);

/** The tabs' clicks and keys. */
export function wireTabs() {
  const tabs = [...document.querySelectorAll('[role=tab]')];
  for (const tab of tabs) {
    tab.addEventListener('click', () => {
      showView(tab.dataset.view);
      updateHash();
    });
    // WAI-ARIA tabs: one tab stop for the list, arrows/Home/End move between visible tabs.
    tab.addEventListener('keydown', (ev) => {
      const shown = tabs.filter((t) => !t.hidden);
      const i = shown.indexOf(tab);
      const to = { ArrowRight: i + 1, ArrowLeft: i - 1, Home: 0, End: shown.length - 1 }[ev.key];
      if (to === undefined) return;
      ev.preventDefault();
      const next = shown[(to + shown.length) % shown.length];
      next.focus();
      next.click();
    });
  }
}

/** Shows tab `name` (`graph`, `summary`, `schedule`, …) and draws what it needs. */
export function showView(name) {
  state.view = name;
  for (const tab of document.querySelectorAll('[role=tab]')) {
    const on = tab.dataset.view === name;
    tab.setAttribute('aria-selected', String(on));
    tab.tabIndex = on ? 0 : -1;
    $(tab.dataset.panel).hidden = !on;
  }
  // Lecture layout: the graph stays beside the stepper when asked (the choice is kept).
  const beside = name === 'stepper' && $('stepper-beside').checked;
  placePanes(beside);
  if (beside) $('panel-graph').hidden = false;
  if (name === 'json') renderJson();
  if (name === 'stepper') drawStepper();
  if (name === 'compare') drawComparison();
  openGraph();
}
