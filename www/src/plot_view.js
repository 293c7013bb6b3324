// Plots view: line charts with axes, ticks and a legend. Every plotted number comes from the
// report; the axes only place them.

import { el, svg } from './dom.js';

function niceStep(range) {
  const raw = range / 6 || 1;
  const p = 10 ** Math.floor(Math.log10(raw));
  return [1, 2, 5, 10].map((m) => m * p).find((s) => s >= raw) || raw;
}

const COLOURS = ['#3056d3', '#c62828', '#2e7d32', '#8e24aa', '#ef6c00', '#00838f'];

function chart(plot, index) {
  const W = 560;
  const H = 300;
  const m = { l: 64, r: 16, t: 28, b: 44 };
  const pts = plot.series.flatMap((s) => s.points);
  const xs = pts.map((p) => p[0]);
  const ys = pts.map((p) => p[1]);
  const x0 = Math.min(...xs);
  const x1 = Math.max(...xs, x0 + 1);
  const y0 = Math.min(0, ...ys);
  const y1 = Math.max(...ys, y0 + 1) * 1.05;
  const X = (x) => m.l + ((x - x0) / (x1 - x0)) * (W - m.l - m.r);
  const Y = (y) => H - m.b - ((y - y0) / (y1 - y0)) * (H - m.t - m.b);
  const root = svg('svg', { width: W, height: H, viewBox: `0 0 ${W} ${H}`, class: 'plot', 'data-plot': index });
  root.append(svg('text', { x: m.l, y: 16, class: 'plot-title', text: plot.title }));
  const xs_ = niceStep(x1 - x0);
  for (let x = Math.ceil(x0 / xs_) * xs_; x <= x1; x += xs_) {
    root.append(
      svg('line', { x1: X(x), x2: X(x), y1: H - m.b, y2: H - m.b + 4, class: 'plot-axis' }),
      svg('text', { x: X(x), y: H - m.b + 16, class: 'plot-tick', 'text-anchor': 'middle', text: String(+x.toFixed(6)) }),
    );
  }
  const ys_ = niceStep(y1 - y0);
  for (let y = Math.ceil(y0 / ys_) * ys_; y <= y1; y += ys_) {
    root.append(
      svg('line', { x1: m.l, x2: W - m.r, y1: Y(y), y2: Y(y), class: 'plot-grid' }),
      svg('text', { x: m.l - 6, y: Y(y) + 4, class: 'plot-tick', 'text-anchor': 'end', text: String(+y.toFixed(6)) }),
    );
  }
  root.append(
    svg('line', { x1: m.l, x2: W - m.r, y1: H - m.b, y2: H - m.b, class: 'plot-axis' }),
    svg('line', { x1: m.l, x2: m.l, y1: m.t, y2: H - m.b, class: 'plot-axis' }),
    svg('text', { x: (m.l + W - m.r) / 2, y: H - 8, class: 'plot-label', 'text-anchor': 'middle', text: plot.x_label }),
    svg('text', {
      x: 14,
      y: (m.t + H - m.b) / 2,
      class: 'plot-label',
      'text-anchor': 'middle',
      transform: `rotate(-90 14 ${(m.t + H - m.b) / 2})`,
      text: plot.y_label,
    }),
  );
  plot.series.forEach((s, i) => {
    const colour = COLOURS[i % COLOURS.length];
    const d = s.points.map((p, k) => `${k ? 'L' : 'M'}${X(p[0]).toFixed(1)},${Y(p[1]).toFixed(1)}`).join(' ');
    root.append(
      svg('path', {
        d,
        fill: 'none',
        stroke: colour,
        'stroke-width': 2,
        'stroke-dasharray': s.style === 'dashed' ? '6 4' : null,
        class: 'plot-series',
      }),
    );
    if (s.style !== 'dashed') {
      for (const p of s.points) {
        root.append(
          svg('circle', { cx: X(p[0]), cy: Y(p[1]), r: 2.5, fill: colour }, svg('title', { text: `${s.name}: (${p[0]}, ${p[1]})` })),
        );
      }
    }
  });
  const legend = el(
    'div',
    { class: 'plot-legend' },
    ...plot.series.map((s, i) =>
      el('span', { class: 'key' }, el('i', { style: `border-top: 2px ${s.style === 'dashed' ? 'dashed' : 'solid'} ${COLOURS[i % COLOURS.length]}` }), s.name),
    ),
  );
  return el('figure', { class: 'plot-figure' }, root, legend);
}

export function renderPlots(host, plots) {
  if (!plots || !plots.length) {
    host.replaceChildren(el('p', { class: 'empty', text: 'This mode produces no plots.' }));
    return;
  }
  host.replaceChildren(...plots.map(chart));
}
