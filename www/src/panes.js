// Where the panes go, by screen size and by view, so that the graph — the picture a lecture
// is about — gets the room (issue #39 item 4).
//
// - Wide screens (over 1100 px, over 920 px tall): parameters, statistics and diagnostics
//   above the result views, as they always were.
// - Compact screens (a 1024×768 projector, a small laptop: 901–1100 px wide or at most 920 px
//   tall): they move under the editor, into the left column's `#side`, so the results column
//   is the graph's from the tabs down (the editor and they share the left column, which
//   scrolls).
// - The lecture layout (the graph beside the stepper), on any screen over 900 px: the
//   stepper goes under the editor, before the panes there, and the graph keeps the whole
//   results column — two half-width panels cut the nodes of a real kernel's graph.
// - Phones and narrow windows (up to 900 px): one column, as before; `#side` is not used.
//
// The elements keep their ids wherever they are, so the rest of the page never needs to know.

const $ = (id) => document.getElementById(id);

/** The compact layout's screens (the same rule as `body.compact` in style.css). */
const COMPACT = '(min-width: 901px) and (max-width: 1100px), (min-width: 901px) and (max-height: 920px)';
/** Screens with two columns (below this width the workspace is one column). */
const COLUMNS = '(min-width: 901px)';

/** The panes that go under the editor on a compact screen, in their order. */
const HEAD = ['pane-toggles', 'mode-bar', 'stats', 'dialect-hint', 'diagnostics'];

const media = { compact: null, columns: null };

export const isCompact = () => !!media.compact && media.compact.matches;

/**
 * Puts every pane where the screen and `beside` (the stepper with the graph beside it) want
 * it; returns whether the stepper is under the editor.
 */
export function placePanes(beside) {
  const side = $('side');
  const anchor = document.querySelector('.results > .tabs'); // what follows the head panes
  const results = anchor.parentElement;
  const compact = isCompact();
  document.body.classList.toggle('compact', compact);
  for (const id of HEAD) {
    const node = $(id);
    if (compact) side.append(node);
    else results.insertBefore(node, anchor);
  }
  const stepperAside = beside && media.columns.matches;
  const stepper = $('panel-stepper');
  // First under the editor: it is what the lecture looks at (the parameters and statistics
  // follow it, a scroll away).
  if (stepperAside) side.prepend(stepper);
  else $('panels').append(stepper);
  side.hidden = !side.children.length;
  side.classList.toggle('with-stepper', stepperAside);
  side.parentElement.classList.toggle('stepping', stepperAside);
  // Narrow screens keep the stepper in the panels: the graph above it.
  $('panels').classList.toggle('beside', beside && !stepperAside);
  return stepperAside;
}

/**
 * Wires the pane toggles (Parameters, Statistics) and the screen-size rules; `onChange()` is
 * called when the layout changes with the screen (to re-place and redraw).
 */
export function wirePanes(onChange) {
  media.compact = matchMedia(COMPACT);
  media.columns = matchMedia(COLUMNS);
  const toggles = [
    ['toggle-params', 'mode-bar'],
    ['toggle-stats', 'stats'],
  ];
  /** Collapsed panes stay collapsed across visits (a lecture keeps its layout). */
  const applyAll = () => {
    for (const [button, pane] of toggles) {
      const collapsed = localStorage.getItem(`warpbound-collapsed-${pane}`) === 'on';
      $(pane).hidden = collapsed;
      $(button).setAttribute('aria-expanded', String(!collapsed));
    }
  };
  for (const [button, pane] of toggles) {
    $(button).addEventListener('click', () => {
      const collapsed = !$(pane).hidden;
      localStorage.setItem(`warpbound-collapsed-${pane}`, collapsed ? 'on' : 'off');
      applyAll();
    });
  }
  applyAll();
  media.compact.addEventListener('change', onChange);
  media.columns.addEventListener('change', onChange);
}
