// The diagnostics list and the instruction table.

import { schedulingText, schedulingExplanation } from './scheduling.js';
import { el, hex } from './dom.js';
import { opcodeText } from './opcode_docs.js';

/**
 * Diagnostics that say the same thing (severity, step and message) at several places, as one
 * group each, in the order of their first place: `[{ first, all }]`. A kernel that calls the
 * runtime's assert five times gets one warning that says so five times, not five warnings.
 */
export function groupDiagnostics(diagnostics) {
  const groups = new Map();
  for (const d of diagnostics) {
    const key = JSON.stringify([d.severity, d.stage || '', d.message]);
    if (!groups.has(key)) groups.set(key, { first: d, all: [] });
    groups.get(key).all.push(d);
  }
  return [...groups.values()];
}

/** Where a group of diagnostics is: one place, or `N×` and each line (a button to go there). */
function placesOf(group, onPick) {
  const { first, all } = group;
  if (all.length === 1) {
    return el('span', { class: 'where', text: first.line ? `line ${first.line}, column ${first.column}` : 'request' });
  }
  const located = all.filter((d) => d.line);
  const lines = located.map((d) => {
    const go = el('button', { type: 'button', class: 'goto-line', text: String(d.line), title: `line ${d.line}, column ${d.column}` });
    go.addEventListener('click', (e) => {
      e.stopPropagation();
      onPick(d);
    });
    return go;
  });
  return el(
    'span',
    { class: 'where grouped', title: `${all.length} places` },
    `${all.length}× `,
    located.length ? `line${located.length > 1 ? 's' : ''} ` : 'request',
    ...lines.flatMap((b, i) => (i ? [', ', b] : [b])),
  );
}

export function renderDiagnostics(list, diagnostics, onPick) {
  if (!diagnostics.length) {
    list.replaceChildren(el('li', { class: 'ok', text: 'No diagnostics.' }));
    return;
  }
  list.replaceChildren(
    ...groupDiagnostics(diagnostics).map((group) => {
      const d = group.first;
      const li = el(
        'li',
        {
          class: `diag ${d.severity}`,
          'data-line': d.line,
          'data-column': d.column,
          'data-count': group.all.length > 1 ? group.all.length : null,
          tabindex: d.line ? 0 : -1,
        },
        el('span', { class: 'sev', text: d.severity }),
        // Which step said it: request, parse, analysis or simulation.
        ...(d.stage ? [el('span', { class: 'stage', text: d.stage, title: `from the ${d.stage} step` })] : []),
        placesOf(group, onPick),
        el('span', { class: 'msg', text: d.message }),
      );
      if (d.line) {
        li.addEventListener('click', () => onPick(d));
        li.addEventListener('keydown', (e) => e.key === 'Enter' && e.target === li && onPick(d));
      }
      if (d.bug_report) li.append(bugReport(d.bug_report));
      return li;
    }),
  );
}

/** The request of an internal failure, to copy into a bug report. */
function bugReport(json) {
  const pre = el('pre', { class: 'bug-report', text: json });
  const copy = el('button', { type: 'button', class: 'copy-bug-report', text: 'Copy request' });
  copy.addEventListener('click', async () => {
    try {
      await navigator.clipboard.writeText(json);
      copy.textContent = 'Copied';
    } catch {
      copy.textContent = 'Select the text above and copy it';
    }
  });
  return el('details', { class: 'bug-report', open: true }, el('summary', { text: 'Request for the bug report' }), pre, copy);
}

/** SASS scheduling control bits in CuAssembler's notation (`[R---:]B0-----:R-:W1:Y:S04`):
 * reuse flags (when any), wait mask, read and write barrier, yield hint, stall cycles. */
/** The instruction table; `dialect` names the opcode documentation its instruction cells
 * carry (as a tooltip and as their accessible description). */
export function renderInstructions(table, instructions, onPick, dialect = null) {
  const head = el(
    'thead',
    {},
    el(
      'tr',
      {},
      ...['#', 'address', 'line', 'block', 'instruction', 'class', 'control', 'reads', 'writes', 'scheduling'].map(
        (h) => el('th', { text: h }),
      ),
    ),
  );
  const body = el('tbody');
  for (const ins of instructions) {
    const row = el(
      'tr',
      { 'data-index': ins.index, 'data-block': ins.block ?? '', 'data-line': ins.line },
      el('td', { class: 'num', text: ins.index }),
      el('td', { class: 'mono', text: hex(ins.address) }),
      el('td', { class: 'num', text: ins.line }),
      el('td', { class: 'num', text: ins.block === null || ins.block === undefined ? '' : 'B' + ins.block }),
      instructionCell(ins, dialect),
      el('td', { text: ins.class.replace(/_/g, ' ') }),
      el('td', {
        text: ins.control === 'fallthrough' ? '' : ins.control + (ins.target !== null ? ' ' + hex(ins.target) : ''),
      }),
      el('td', { class: 'mono', text: ins.reads.join(' ') }),
      el('td', { class: 'mono', text: ins.writes.join(' ') }),
      el('td', {
        class: 'mono',
        text: schedulingText(ins.control_bits),
        title: schedulingExplanation(ins.control_bits),
      }),
    );
    row.addEventListener('click', () => onPick(ins));
    body.append(row);
  }
  table.replaceChildren(head, body);
}

function instructionCell(ins, dialect) {
  const doc = dialect ? opcodeText(dialect, ins.opcode) : null;
  return el('td', {
    class: doc ? 'mono has-doc' : 'mono',
    text: ins.text,
    title: doc || undefined,
    'aria-description': doc || undefined,
  });
}

export function markRows(table, predicate) {
  let first = null;
  for (const row of table.querySelectorAll('tbody tr')) {
    const on = predicate(row);
    row.classList.toggle('selected', on);
    if (on && !first) first = row;
  }
  return first;
}
