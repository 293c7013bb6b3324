// Downloads: the current graph's drawing as a standalone SVG (styles inlined), the graph
// itself in Graphviz DOT, and any text the report carries (the makespan ILP as an LP file).

const STYLE_PROPS = [
  'fill',
  'stroke',
  'stroke-width',
  'stroke-dasharray',
  'font-family',
  'font-size',
  'font-weight',
  'opacity',
];

export function download(name, type, text) {
  const a = document.createElement('a');
  a.href = URL.createObjectURL(new Blob([text], { type }));
  a.download = name;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(a.href), 1000);
}

/** The SVG element as a standalone document, computed styles inlined. */
export function svgText(svgEl) {
  const clone = svgEl.cloneNode(true);
  const src = svgEl.querySelectorAll('*');
  const dst = clone.querySelectorAll('*');
  src.forEach((el, i) => {
    const cs = getComputedStyle(el);
    const decl = STYLE_PROPS.map((p) => `${p}:${cs.getPropertyValue(p)}`).join(';');
    dst[i].setAttribute('style', decl);
  });
  clone.setAttribute('xmlns', 'http://www.w3.org/2000/svg');
  return '<?xml version="1.0" encoding="UTF-8"?>\n' + new XMLSerializer().serializeToString(clone);
}

export function downloadSvg(svgEl, name) {
  download(name + '.svg', 'image/svg+xml', svgText(svgEl));
}

function quote(s) {
  return '"' + String(s).replace(/\\/g, '\\\\').replace(/"/g, '\\"') + '"';
}

/** The report's graph in DOT: node labels as shown, edge kinds as labels and styles. */
export function dotText(cfg) {
  const lines = [`digraph ${cfg.kind}_cfg {`, '  node [shape=box, fontname="monospace"];'];
  for (const n of cfg.nodes) {
    const attrs = [`label=${quote(n.label.join('\\n'))}`];
    if (n.kind === 'exit') attrs.push('shape=oval');
    if (n.count > 0) attrs.push('penwidth=2', 'color="#d19a00"');
    lines.push(`  n${n.id} [${attrs.join(', ')}];`);
  }
  for (const e of cfg.edges) {
    const attrs = [`label=${quote(e.kind)}`];
    if (['divergence', 'sync', 'break', 'continue', 'return'].includes(e.kind)) attrs.push('style=dashed');
    if (e.count > 0) attrs.push('penwidth=2');
    lines.push(`  n${e.from} -> n${e.to} [${attrs.join(', ')}];`);
  }
  lines.push('}');
  return lines.join('\n') + '\n';
}

export function downloadDot(cfg, name) {
  download(name + '.dot', 'text/vnd.graphviz', dotText(cfg));
}
