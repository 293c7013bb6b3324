// What the page holds between events, shared by its modules: `state` (what a permalink's
// request restores), `view` (what is shown of the report) and `page` (the engine, its catalog
// and the editor, once they exist) — and the request the state stands for.

import { SCHEMA_VERSION } from './schema.js';

/** What a permalink's request restores (and `view`: its tab). */
export const state = {
  dialect: 'sass',
  mode: 'warp-cfg',
  function: null,
  params: {},
  preset: { name: null },
  loopBounds: {},
  view: 'graph',
  example: null, // gallery alias while the state is exactly that example
};

// `request`: the request `report` answers (the editor may hold edits made since); `pinned`:
// the result the Compare button pinned, `{ request, report }`, shown next to the current one.
export const view = {
  report: null,
  request: null,
  pinned: null,
  zoom: 1,
  ganttZoom: 1,
  selected: null,
  runId: 0,
  step: 0,
  origin: null,
  // The dialect a pasted text was read as, `{ source, text }`: the status line says it for
  // every report of exactly that source (a run the editor started may land after the switch's).
  readAs: null,
};

/** The analysis engine (wasm.js), the catalog it sent and the editor (editor.js). */
export const page = { engine: null, catalog: null, editor: null };

/** The request the page sends for its current state. */
export function request() {
  const r = { schema_version: SCHEMA_VERSION, source: page.editor.value, dialect: state.dialect, mode: state.mode };
  if (state.function) r.function = state.function;
  if (Object.keys(state.params).length) r.params = { ...state.params };
  if (state.preset.name) r.preset = state.preset.name;
  if (Object.keys(state.loopBounds).length) r.loop_bounds = { ...state.loopBounds };
  return r;
}
