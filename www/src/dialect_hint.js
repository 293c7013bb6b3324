// The box above the diagnostics that says what a text that did not parse really is: another
// dialect (the report's `dialect_hint`: a button switches to it) or CUDA C++ source (the
// report's `cuda_source`: how to compile it, and a gallery example compiled from a similar
// kernel, `paste.js`).

import { el } from './dom.js';
import { showCudaNotice } from './paste.js';

/**
 * Shows what `report` says about its text in `box`; `catalog` names the dialects, `source` is
 * the analysed text, `onSwitch(dialect)` switches to another dialect, `title(id)` is a gallery
 * example's title.
 */
export function renderDialectHint(box, report, { catalog, source, onSwitch, title }) {
  box.classList.remove('cuda');
  if (report.cuda_source) {
    showCudaNotice(box, source, report.cuda_source, title);
    return;
  }
  const hint = report.dialect_hint;
  const d = hint && catalog && catalog.dialects.find((x) => x.name === hint.dialect && x.supported);
  box.hidden = !d;
  if (!d) {
    box.replaceChildren();
    return;
  }
  const where = hint.line > 0 ? ` (\`${hint.evidence}\` on line ${hint.line})` : '';
  const button = el('button', { type: 'button', text: `Switch to ${d.title}`, id: 'dialect-switch' });
  button.addEventListener('click', () => onSwitch(d.name));
  box.replaceChildren(el('span', { text: `This text looks like ${d.title}${where}. ` }), button);
}
