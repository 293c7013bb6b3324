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
  // A field's baseline is the selected preset's value, else the catalogue default; only
  // values that differ from it are kept as overrides.
  const chosen = (mode.presets || []).find((x) => x.name === preset.name);
  const presetValues = (chosen && chosen.values) || {};
  for (const p of mode.params) {
    const base = p.name in presetValues ? presetValues[p.name] : p.default;
    const field = fieldFor({ ...p, default: base }, values, onChange);
    if (!p.group) {
      main.append(field);
      continue;
    }
    if (!folds.has(p.group)) folds.set(p.group, el('div', { class: 'param-grid' }));
    folds.get(p.group).append(field);
  }
  const parts = [main];
  for (const [group, grid] of folds) {
    const title = group.charAt(0).toUpperCase() + group.slice(1);
    parts.push(el('details', { class: `fold ${group}` }, el('summary', { text: title }), grid));
  }
  host.replaceChildren(...parts);
}

function label(p) {
  return p.name.replace(/_/g, ' ');
}

function fieldFor(p, values, onChange) {
  const id = `param-${p.name}`;
  const current = p.name in values ? values[p.name] : p.default;
  if (p.kind === 'flag') {
    const box = el('input', { type: 'checkbox', id, 'data-param': p.name });
    box.checked = Boolean(current);
    box.addEventListener('change', () => {
      if (box.checked === p.default) delete values[p.name];
      else values[p.name] = box.checked;
      onChange();
    });
    return el('label', { class: 'param flag', title: p.meaning, for: id }, box, label(p));
  }
  if (p.kind === 'choice') {
    const sel = el(
      'select',
      { id, 'data-param': p.name },
      ...p.choices.map((c) => el('option', { value: c, text: c, selected: c === current })),
    );
    sel.addEventListener('change', () => {
      if (sel.value === p.default) delete values[p.name];
      else values[p.name] = sel.value;
      onChange();
    });
    return el('label', { class: 'param', title: p.meaning, for: id }, label(p), sel);
  }
  if (p.kind === 'text') {
    const input = el('input', { type: 'text', id, 'data-param': p.name, value: current, size: 12, spellcheck: 'false' });
    input.addEventListener('change', () => {
      const v = input.value.trim();
      if (v === p.default) delete values[p.name];
      else values[p.name] = v;
      onChange();
    });
    return el('label', { class: 'param', title: p.meaning, for: id }, label(p), input);
  }
  const input = el('input', {
    type: 'number',
    id,
    'data-param': p.name,
    min: p.min,
    max: p.max,
    step: 1,
    value: current,
  });
  const error = el('span', { class: 'param-error', role: 'alert' });
  input.addEventListener('change', () => {
    const v = Number(input.value);
    const ok = input.value.trim() !== '' && Number.isFinite(v) && v >= p.min && v <= p.max;
    input.classList.toggle('invalid', !ok);
    error.textContent = ok ? '' : `${p.min}–${p.max}`;
    if (!ok) return;
    if (v === p.default) delete values[p.name];
    else values[p.name] = v;
    onChange();
  });
  return el(
    'label',
    { class: 'param', title: `${p.meaning}${p.unit ? ` (${p.unit})` : ''}`, for: id },
    label(p),
    input,
    error,
  );
}
