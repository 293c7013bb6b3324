// The parameter form of an analysis mode, generated from the catalog the wasm module
// exposes (no parameter is written into the page). Budgets (`max_*`) go in a fold.

import { el } from './dom.js';

/**
 * Renders `mode.params` into `host`. `values` holds the current overrides (name -> value) and
 * is updated in place; `onChange()` is called after every valid edit.
 */
export function renderParams(host, mode, values, onChange, preset = { name: null }) {
  const main = el('div', { class: 'param-row' });
  if (mode.presets && mode.presets.length) {
    // Named hardware presets, each with the source its numbers come from.
    const sel = el(
      'select',
      { id: 'preset', 'aria-label': 'Hardware preset' },
      el('option', { value: '', text: 'parameters below' }),
      ...mode.presets.map((p) =>
        el('option', { value: p.name, text: p.name, title: p.source, selected: p.name === preset.name }),
      ),
    );
    const source = el('span', { class: 'param-source' });
    const showSource = () => {
      const p = mode.presets.find((x) => x.name === sel.value);
      source.textContent = p ? `source: ${p.source}` : '';
    };
    showSource();
    sel.addEventListener('change', () => {
      preset.name = sel.value || null;
      // The fields show the preset's numbers, so draw the form again.
      renderParams(host, mode, values, onChange, preset);
      document.getElementById('preset')?.focus();
      onChange();
    });
    main.append(el('label', { class: 'param' }, 'preset', sel), source);
  }
  // Folds named by the catalogue (`group`), in order of first appearance.
  const folds = new Map();
  // A field's baseline is the selected preset's value, else the catalogue default, until an
  // analysis says which value it used (`showResolved`); only values that differ from the
  // baseline are kept as overrides.
  const chosen = (mode.presets || []).find((x) => x.name === preset.name);
  const presetValues = (chosen && chosen.values) || {};
  const fields = new Map();
  for (const p of mode.params) {
    const base = p.name in presetValues ? presetValues[p.name] : p.default;
    const field = fieldFor(p, base, values, onChange);
    fields.set(p.name, field);
    if (!p.group) {
      main.append(field.node);
      continue;
    }
    if (!folds.has(p.group)) folds.set(p.group, el('div', { class: 'param-grid' }));
    folds.get(p.group).append(field.node);
  }
  const parts = [main];
  for (const [group, grid] of folds) {
    const title = group.charAt(0).toUpperCase() + group.slice(1);
    parts.push(el('details', { class: `fold ${group}` }, el('summary', { text: title }), grid));
  }
  host.replaceChildren(...parts);
  forms.set(host, fields);
}

/** The fields of the form last drawn into each host: name -> field (see `fieldFor`). */
const forms = new WeakMap();

/** The tag next to a field, by `source` of a resolved parameter, and what it means. */
const SOURCES = {
  request: { text: 'set', title: () => 'set in this request' },
  preset: { text: 'preset', title: (preset) => (preset ? `from the preset ${preset}` : 'from the preset') },
  default: { text: 'default', title: () => "the mode's default" },
};

/**
 * Shows, next to each field of the form in `host`, where the analysis took its value from —
 * `resolved` is the report's `params` ({name, value, source}), `preset` the report's preset —
 * and makes a field the request did not set show the value the analysis used (a preset the
 * mode picked for the dialect, say). Without `resolved` (no report) the tags are cleared.
 */
export function showResolved(host, resolved, preset) {
  const fields = forms.get(host);
  if (!fields) return;
  const byName = new Map((resolved || []).map((r) => [r.name, r]));
  for (const [name, field] of fields) field.resolve(byName.get(name), preset);
}

function label(p) {
  return p.name.replace(/_/g, ' ');
}

/**
 * One field: `node` to place in the form and `resolve(param, preset)` to show where the
 * analysis took the value from. `base` is the value an override is compared with.
 */
function fieldFor(p, base, values, onChange) {
  const id = `param-${p.name}`;
  const current = p.name in values ? values[p.name] : base;
  // The provenance tag: read as the control's description, not as part of its name.
  const tag = el('span', { class: 'param-from', id: `param-from-${p.name}`, 'aria-hidden': 'true' });
  const keep = (v) => {
    if (v === base) delete values[p.name];
    else values[p.name] = v;
    onChange();
  };
  let control;
  let node;
  if (p.kind === 'flag') {
    control = el('input', { type: 'checkbox', id, 'data-param': p.name, 'aria-describedby': tag.id });
    control.checked = Boolean(current);
    control.addEventListener('change', () => keep(control.checked));
    node = el('label', { class: 'param flag', title: p.meaning, for: id }, control, label(p), tag);
  } else if (p.kind === 'choice') {
    control = el(
      'select',
      { id, 'data-param': p.name, 'aria-describedby': tag.id },
      ...p.choices.map((c) => el('option', { value: c, text: c, selected: c === current })),
    );
    control.addEventListener('change', () => keep(control.value));
    node = el('label', { class: 'param', title: p.meaning, for: id }, label(p), control, tag);
  } else if (p.kind === 'text') {
    control = el('input', {
      type: 'text',
      id,
      'data-param': p.name,
      'aria-describedby': tag.id,
      value: current,
      size: 12,
      spellcheck: 'false',
    });
    control.addEventListener('change', () => keep(control.value.trim()));
    // Suggested values (e.g. `its`: the schedulers) as a list the field offers.
    const list = p.choices && p.choices.length ? el('datalist', { id: `${id}-values` }, ...p.choices.map((c) => el('option', { value: c, label: c || '(off)' }))) : null;
    if (list) control.setAttribute('list', list.id);
    node = el('label', { class: 'param', title: p.meaning, for: id }, label(p), control, ...(list ? [list] : []), tag);
  } else {
    control = el('input', {
      type: 'number',
      id,
      'data-param': p.name,
      'aria-describedby': tag.id,
      min: p.min,
      max: p.max,
      step: 1,
      value: current,
    });
    const error = el('span', { class: 'param-error', role: 'alert' });
    control.addEventListener('change', () => {
      const v = Number(control.value);
      const ok = control.value.trim() !== '' && Number.isFinite(v) && v >= p.min && v <= p.max;
      control.classList.toggle('invalid', !ok);
      error.textContent = ok ? '' : `${p.min}–${p.max}`;
      if (ok) keep(v);
    });
    node = el(
      'label',
      { class: 'param', title: `${p.meaning}${p.unit ? ` (${p.unit})` : ''}`, for: id },
      label(p),
      control,
      tag,
      error,
    );
  }
  const resolve = (r, preset) => {
    const source = r && SOURCES[r.source];
    tag.textContent = source ? source.text : '';
    tag.title = source ? source.title(preset) : '';
    if (source) tag.dataset.source = r.source;
    else delete tag.dataset.source;
    // A value the request did not set becomes the baseline and is shown — unless the user is
    // editing the field or has typed something invalid into it.
    if (!source || r.source === 'request' || p.name in values) return;
    if (document.activeElement === control || control.classList.contains('invalid')) return;
    base = r.value;
    if (p.kind === 'flag') control.checked = Boolean(r.value);
    else control.value = String(r.value);
  };
  return { node, resolve };
}
