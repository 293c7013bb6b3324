// How large a graph is drawn in its pane: the zoom a new graph opens at, "fit", "zoom to
// selection", and where the pane scrolls to. Sizes are the layout's (computed in Rust) and the
// pane's; nothing here places a node.

/** The least zoom at which node text stays readable (11–12 px type drawn at 8–9 px). */
export const READABLE = 0.75;

/** Space the pane keeps around the drawing (its padding). */
const MARGIN = 8;

/** The zoom at which the whole drawing fits the pane (`scale`: projector mode's factor). */
export function fitZoom(layout, host, scale = 1) {
  const fit = Math.min((host.clientWidth - MARGIN) / layout.width, (host.clientHeight - MARGIN) / layout.height);
  return Math.min(1.5, fit / scale);
}

/**
 * The zoom a newly shown graph opens at: the whole graph when it fits at a readable size (at
 * most 100 %), else its full width if that is readable, else the readable size itself — the
 * pane then scrolls, and `openAt` shows the entry first.
 */
export function openingZoom(layout, host, scale = 1) {
  const all = fitZoom(layout, host, scale);
  if (all * scale >= READABLE) return Math.min(1, all);
  const width = (host.clientWidth - MARGIN) / layout.width / scale;
  return Math.max(READABLE / scale, Math.min(1, width));
}

/** Scrolls `host` so that node `placed` (a layout node) is in view: centred across, near the top. */
export function openAt(host, placed, z) {
  if (!placed) return;
  host.scrollLeft = Math.max(0, (placed.x + placed.width / 2) * z - host.clientWidth / 2);
  host.scrollTop = Math.max(0, placed.y * z - MARGIN);
}

/** Scrolls `host` so that node `placed` is in the middle of the pane. */
export function centreOn(host, placed, z) {
  host.scrollLeft = (placed.x + placed.width / 2) * z - host.clientWidth / 2;
  host.scrollTop = (placed.y + placed.height / 2) * z - host.clientHeight / 2;
}

/** The zoom that makes node `placed` large: half the pane's width, at most 2×. */
export function selectionZoom(placed, host, scale = 1) {
  return Math.min(2, (host.clientWidth * 0.5) / placed.width) / scale;
}

/** Drag the graph to pan it. */
export function enablePan(host) {
  let start = null;
  host.addEventListener('pointerdown', (e) => {
    if (e.target.closest('.node')) return;
    start = { x: e.clientX, y: e.clientY, left: host.scrollLeft, top: host.scrollTop };
    host.classList.add('panning');
  });
  window.addEventListener('pointermove', (e) => {
    if (!start) return;
    host.scrollLeft = start.left - (e.clientX - start.x);
    host.scrollTop = start.top - (e.clientY - start.y);
  });
  window.addEventListener('pointerup', () => {
    start = null;
    host.classList.remove('panning');
  });
}

