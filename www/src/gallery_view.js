// The examples gallery (a dialog): the examples grouped by paper, each with its blurb, an
// Open button and its permalink.

import { el } from './dom.js';
import { EXAMPLES, PAPERS } from './examples.js';

/** Fills the gallery dialog `dialog` (its list `list`); `onOpen(example)` opens one. */
export function renderGallery(dialog, list, onOpen) {
  const groups = PAPERS.map((p) => {
    const items = EXAMPLES.filter((x) => x.paper === p.id).map((x) =>
      el(
        'article',
        { class: 'card', 'data-example': x.id },
        el('h4', { text: x.title }),
        el('p', { text: x.blurb || '' }),
        el(
          'div',
          { class: 'card-actions' },
          el('button', {
            text: 'Open',
            onclick: () => {
              dialog.close();
              onOpen(x);
            },
          }),
          el('a', { href: `#ex=${x.id}`, text: 'permalink', class: 'permalink' }),
        ),
      ),
    );
    return el('section', { class: 'gallery-group' }, el('h3', { text: p.title }), ...items);
  });
  list.replaceChildren(...groups);
}
