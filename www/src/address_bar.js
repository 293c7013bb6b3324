// The state's link in the address bar (an example's `#ex=` alias, else the whole `#v2.`
// link, or none when the kernel is too long for one) and the Copy link button.

import { encodeLink, MAX_FRAGMENT } from './permalink.js';
import { EXAMPLES } from './examples.js';
import { state, view, request } from './page_state.js';
import { showStatus } from './status.js';

const $ = (id) => document.getElementById(id);

/** What a `#v2.` permalink holds: the request, what is shown of its report, the pinned request. */
export function snapshot() {
  const v = { tab: state.view };
  if (view.selected !== null) v.node = view.selected;
  if (view.step > 0) v.step = view.step;
  const link = { request: request(), view: v };
  if (view.pinned) link.pinned = view.pinned.request;
  return link;
}

/** Writes of the state's link begun so far: only the newest one writes. */
let hashes = 0;

/** A navigation (the address changed from outside): the writes of the state before it are void. */
export function voidHashWrites() {
  hashes += 1;
}

/** Writes the current state's link into the address bar (the newest state's, if several);
 * false when it did not (a newer state's call did, or the link would be too long). */
export async function updateHash() {
  const n = ++hashes;
  showExample();
  // An example's alias cannot hold a pinned result.
  let hash = state.example && !view.pinned ? `#ex=${state.example}` : await encodeLink(snapshot());
  if (view.pinned && hash.length - 1 > MAX_FRAGMENT) {
    // A link longer than a page reads back would open nothing: it keeps the current result.
    const alone = snapshot();
    delete alone.pinned;
    hash = await encodeLink(alone);
    if (n === hashes) {
      const why = `the comparison does not fit in a link (at most ${MAX_FRAGMENT} characters)`;
      showStatus(`${why}: the link holds the current result only`, true);
    }
  }
  if (hash.length - 1 > MAX_FRAGMENT) {
    // Even alone, the kernel is too long for a link a page reads back: the address holds
    // none (rather than one that opens nothing), and the page says so.
    if (n !== hashes) return false;
    const size = (hash.length - 1).toLocaleString('en-US');
    showStatus(
      `this kernel does not fit in a link (${size} characters; at most ${MAX_FRAGMENT.toLocaleString('en-US')}): the address holds no link — save the kernel as a file instead`,
      true,
    );
    if (location.hash) history.replaceState(null, '', location.pathname + location.search);
    return false;
  }
  if (n !== hashes) return false;
  if (location.hash !== hash) history.replaceState(null, '', hash);
  return true;
}

/**
 * Whether the page shows an example exactly as it opens — its kernel and settings, its tab,
 * no node selected, the stepper at its first step, nothing pinned — so that its `#ex=` alias
 * says all; a copied link of anything else (the stepper at step 64) is the whole `#v2.` one.
 */
function asOpened() {
  const ex = state.example && EXAMPLES.find((x) => x.id === state.example);
  return !!ex && !view.pinned && view.step === 0 && view.selected === null && state.view === (ex.view || 'graph');
}

/** The Example menu names the example on screen while it is unchanged, else none. */
export function showExample() {
  $('example').value = state.example || '';
}

/** The Copy link button: the link of what is shown, on the clipboard (else in a prompt). */
export async function copyLink() {
  if (!(await updateHash())) return;
  // The address bar may hold an example's alias; the copy holds what is shown.
  let url = location.href;
  if (state.example && !asOpened()) {
    const full = await encodeLink(snapshot());
    if (full.length - 1 <= MAX_FRAGMENT) url = location.href.split('#')[0] + full;
  }
  try {
    await navigator.clipboard.writeText(url);
    showStatus(`link copied (${url.length} characters)`);
  } catch {
    prompt('Copy this link:', url);
  }
}
