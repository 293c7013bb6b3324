// The opening example's result, on screen before the engine has loaded (issue #39 item 10: a
// lecture hall's network takes seconds for the 1.2 MB engine). It is the example's pinned
// report — the gallery snapshot, crates/warpbound/tests/snapshots/gallery/<id>.json, which
// crates/warpbound/tests/gallery.rs keeps equal to what the engine computes for the very
// request the page sends — bundled with the page (a few KB gzipped). The engine loads behind
// it; the page computes nothing.

import fig1 from '../../crates/warpbound/tests/snapshots/gallery/fig1-if-then-else.json';

/** Examples whose pinned report the page carries (the first one of the gallery). */
const PINNED = { 'fig1-if-then-else': fig1 };

/** The pinned report of example `ex` (the engine's report for `ex.request`), or null. */
export function pinnedReport(ex) {
  return (ex && PINNED[ex.id]) || null;
}
