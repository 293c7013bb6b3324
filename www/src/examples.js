// The gallery: kernels written for Warpbound to show the situations the analyses care about
// (the paper's figures, re-created; real compiler output lives in the shared corpus).
//
// The gallery is data, in www/examples/: one kernel file per example and manifest.json, which
// crates/warpbound/tests/gallery.rs reads too (it pins each example's report in a snapshot).
// Both are bundled at build time (esbuild's JSON and text loaders), so the page fetches
// nothing at run time and works from any static host and sub-path. The manifest holds
//
//   papers:   [{ id, title }] — the gallery's groups, in order;
//   examples: [{ id, paper, title, dialect, kernel, kernel_header?, mode, preset?, params?,
//                loop_bounds?, view?, blurb }]
//
// where `kernel` names the file under www/examples/ (`<id>.<ext>`, or a kernel several
// examples share, such as huangfu-4-4-4.ptx, which the Rust crates' tests read as well),
// `kernel_header` is text shown above that file's text in the editor, `mode`, `preset`,
// `params` and `loop_bounds` are the request's fields of the same names, `view` the tab the
// example opens on (absent: the tab stays as it is) and `blurb` the gallery card's text.

import manifest from '../examples/manifest.json';
import { SCHEMA_VERSION } from './schema.js';

/**
 * The text of a file under www/examples/. esbuild turns the template into a table of every
 * file in that directory (each read by a text loader: see the pre_build hook in Trunk.toml),
 * so a kernel file needs no import line of its own.
 */
const kernelFile = (name) => require(`../examples/${name}`);

/** The request the page sends when it opens `ex` (the fields `request()` in page_state.js sets). */
function requestOf(ex, source) {
  const r = { schema_version: SCHEMA_VERSION, source, dialect: ex.dialect, mode: ex.mode };
  if (ex.params && Object.keys(ex.params).length) r.params = { ...ex.params };
  if (ex.preset) r.preset = ex.preset;
  if (ex.loop_bounds && Object.keys(ex.loop_bounds).length) r.loop_bounds = { ...ex.loop_bounds };
  return r;
}

/** Papers the examples are grouped under, in gallery order. */
export const PAPERS = manifest.papers;

/** Every example with its kernel text (`source`) and the request that opens it. */
export const EXAMPLES = manifest.examples.map((ex) => {
  const source = (ex.kernel_header || '') + kernelFile(ex.kernel);
  return { ...ex, source, request: requestOf(ex, source) };
});
