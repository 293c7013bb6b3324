// The keyboard shortcuts (Esc cancels; ? help, g gallery, 1–7 tabs, + − 0 graph zoom, t theme,
// p projector) and the theme and projector buttons, which redraw the graph.

import { toggleTheme, toggleProjector } from './theme.js';
import { view, page } from './page_state.js';
import { showView } from './result_tabs.js';
import { drawGraph, setZoom, fitZoom } from './graph_pane.js';

const $ = (id) => document.getElementById(id);

/** The theme and projector buttons and the page's keys. */
export function wireShortcuts() {
  $('theme').addEventListener('click', () => redrawAfter(toggleTheme));
  $('projector').addEventListener('click', () => redrawAfter(toggleProjector));
  document.addEventListener('keydown', shortcut);
}

/** Theme and projector changes redraw the graph (its colours and scale are drawn in). */
function redrawAfter(change) {
  change();
  if (view.report) drawGraph();
}

function shortcut(e) {
  // Esc stops a running analysis wherever the focus is (dialogs close on Esc by themselves).
  if (e.key === 'Escape' && page.engine && page.engine.busy() && !document.querySelector('dialog[open]')) {
    page.engine.cancel();
    e.preventDefault();
    return;
  }
  const typing = e.target.closest && e.target.closest('.cm-editor, input, select, textarea');
  if (typing || e.ctrlKey || e.metaKey || e.altKey) return;
  const views = { 1: 'graph', 2: 'summary', 3: 'schedule', 4: 'plots', 5: 'stepper', 6: 'instructions', 7: 'json' };
  if (e.key === '?') $('help').showModal();
  else if (e.key === 'g') $('gallery').showModal();
  else if (views[e.key] && !document.querySelector(`[data-view="${views[e.key]}"]`).hidden) showView(views[e.key]);
  else if (e.key === '+' || e.key === '=') setZoom(view.zoom * 1.25);
  else if (e.key === '-') setZoom(view.zoom / 1.25);
  else if (e.key === '0') fitZoom();
  else if (e.key === 't') redrawAfter(toggleTheme);
  else if (e.key === 'p') redrawAfter(toggleProjector);
  else return;
  e.preventDefault();
}
