// The Compare button and the Comparison tab: the result on screen pinned, then shown next to
// the current one (compare_view.js) until it is unpinned.

import { renderComparison } from './compare_view.js';
import { state, view } from './page_state.js';
import { showStatus } from './status.js';
import { updateHash } from './address_bar.js';
import { showView } from './result_tabs.js';

const $ = (id) => document.getElementById(id);

/** Pins the result on screen: from now on the current result is shown next to it. */
export function pin() {
  if (!view.report || !view.request) return;
  view.pinned = { request: view.request, report: view.report };
  showView('compare');
  showStatus('result pinned: change anything and analyse to compare');
  updateHash();
}

function unpin() {
  view.pinned = null;
  drawComparison();
  // The Unpin button is gone with the panel: the focus goes back to where pinning started.
  $('compare').focus();
  updateHash();
}

/** The Comparison view: its tab exists while a result is pinned. */
export function drawComparison() {
  const host = $('compare-panel');
  host.hidden = !view.pinned;
  document.querySelector('[data-view="compare"]').hidden = !view.pinned;
  if (!view.pinned) {
    host.replaceChildren();
    if (state.view === 'compare') showView(view.report && view.report.cfg ? 'graph' : 'summary');
    return;
  }
  if (!view.request) return; // a link's pinned result, before its current one is in
  renderComparison(host, view.pinned, { request: view.request, report: view.report }, unpin);
}
