// The dialect, mode and function menus and the mode's parameter form: which modes read the
// dialect (the others are greyed), a mode's defaults, and a switch of dialect (from the menu,
// a pasted kernel or the dialect hint).

import { el } from './dom.js';
import { renderParams } from './params_form.js';
import { state, page } from './page_state.js';
import { run } from './analysis_run.js';

const $ = (id) => document.getElementById(id);

/** Fills the dialect and mode menus from the engine's catalog. */
export function fillMenus(catalog) {
  $('dialect').replaceChildren(
    ...catalog.dialects.map((d) =>
      el('option', {
        value: d.name,
        text: d.title + (d.supported ? '' : ' (coming)'),
        disabled: !d.supported,
        selected: d.name === state.dialect,
      }),
    ),
  );
  $('mode').replaceChildren(
    ...catalog.modes.map((m) => el('option', { value: m.name, text: m.title, title: m.description })),
  );
}

/** The dialect, mode and function menus' changes. */
export function wireMenus() {
  $('dialect').addEventListener('change', (e) => {
    state.dialect = e.target.value;
    state.example = null;
    page.editor.setDialect(state.dialect);
    // A mode that does not read the new dialect gives way to the first one that does.
    const mode = findMode(state.mode);
    if (mode && !mode.dialects.includes(state.dialect)) {
      const other = page.catalog.modes.find((m) => m.dialects.includes(state.dialect));
      if (other) setMode(other.name, {});
    }
    markModes();
  });
  $('mode').addEventListener('change', (e) => {
    setMode(e.target.value, {});
    state.example = null;
    run();
  });
  $('function').addEventListener('change', (e) => {
    state.function = e.target.value || null;
    state.example = null;
    run();
  });
}

/** The catalog's mode named `name`, by its current name or a former one (`aliases`). */
export function findMode(name) {
  return page.catalog.modes.find((m) => m.name === name || (m.aliases || []).includes(name));
}

/** Only the modes that read the current dialect can be chosen (the others are greyed). */
function markModes() {
  const catalog = page.catalog;
  if (!catalog) return;
  for (const option of $('mode').options) {
    const m = catalog.modes.find((x) => x.name === option.value);
    const reads = !m || m.dialects.includes(state.dialect);
    option.disabled = !reads && option.value !== state.mode;
    option.title = reads ? (m ? m.description : '') : `reads ${m.dialects.join(', ')}, not ${state.dialect}`;
  }
}

/** Mode `name` with `params` and hardware `preset` (null: the mode's own) and its form. */
export function setMode(name, params, preset = null) {
  // A former name (from an old link or example) is written back under the current one.
  const mode = findMode(name);
  state.mode = mode ? mode.name : name;
  markModes();
  state.params = { ...params };
  state.preset = { name: preset };
  $('mode').value = state.mode;
  $('mode-help').textContent = mode ? mode.description : '';
  renderParams(
    $('params'),
    mode || { params: [] },
    state.params,
    () => {
      state.example = null;
      run();
    },
    state.preset,
  );
}

/**
 * Reads the kernel as `dialect` from now on: the dialect menu, the editor's highlighting, and
 * the mode — this one if it reads the dialect, else the first that does — with its defaults:
 * the settings of the example that was open belong to it, not to a pasted kernel.
 */
export function switchDialect(dialect) {
  state.dialect = dialect;
  state.example = null;
  $('dialect').value = dialect;
  page.editor.setDialect(dialect);
  const mode = findMode(state.mode);
  const keep = mode && mode.dialects.includes(dialect);
  const next = keep ? mode : page.catalog.modes.find((m) => m.dialects.includes(dialect));
  state.loopBounds = {};
  setMode(next ? next.name : state.mode, {});
  return run();
}
