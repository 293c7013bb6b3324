// Tiny DOM helpers. Text always goes in through textContent: nothing from the kernel text or
// the report is ever parsed as HTML.

export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  setAttrs(node, attrs);
  append(node, children);
  return node;
}

const SVG_NS = 'http://www.w3.org/2000/svg';

export function svg(tag, attrs = {}, ...children) {
  const node = document.createElementNS(SVG_NS, tag);
  setAttrs(node, attrs);
  append(node, children);
  return node;
}

function setAttrs(node, attrs) {
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === null || v === false) continue;
    if (k === 'class') node.setAttribute('class', v);
    else if (k === 'text') node.textContent = v;
    else if (k.startsWith('on')) node.addEventListener(k.slice(2), v);
    else node.setAttribute(k, String(v));
  }
}

function append(node, children) {
  for (const c of children.flat()) {
    if (c === null || c === undefined || c === false) continue;
    node.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
}

export function hex(n) {
  return '0x' + Number(n).toString(16).padStart(4, '0');
}

/** A `table.grid` with a header row and body rows (cells are text, numbers or nodes). */
export function grid(id, head, rows) {
  const cell = (tag, v) => (v instanceof Node ? el(tag, {}, v) : el(tag, { text: String(v) }));
  return el(
    'table',
    { class: 'grid', id },
    el('thead', {}, el('tr', {}, ...head.map((h) => cell('th', h)))),
    el('tbody', {}, ...rows.map((r) => el('tr', {}, ...r.map((v) => cell('td', v))))),
  );
}
