// The kernel editor: a textarea with a line-number gutter and a backdrop that paints
// diagnostic and selection highlights under the text. (Issue 4 replaces this with CodeMirror.)

import { el } from './dom.js';

export class Editor {
  constructor(root) {
    this.gutter = el('div', { class: 'gutter', 'aria-hidden': 'true' });
    this.backdrop = el('div', { class: 'backdrop', 'aria-hidden': 'true' });
    this.text = el('textarea', {
      id: 'editor',
      spellcheck: 'false',
      autocomplete: 'off',
      autocapitalize: 'off',
      wrap: 'off',
      'aria-label': 'Kernel source',
    });
    this.marks = new Map(); // line -> {severity, message}
    this.highlight = null; // [from, to]
    root.append(this.gutter, el('div', { class: 'text-wrap' }, this.backdrop, this.text));
    this.text.addEventListener('input', () => this.refresh());
    this.text.addEventListener('scroll', () => this.syncScroll());
    for (const ev of ['keyup', 'click', 'select']) {
      this.text.addEventListener(ev, () => this.cursorMoved());
    }
    this.cursorListeners = [];
    this.runListeners = [];
    this.text.addEventListener('keydown', (e) => {
      if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) {
        e.preventDefault();
        this.runListeners.forEach((f) => f());
      } else if (e.key === 'Tab' && !e.shiftKey) {
        e.preventDefault();
        this.text.setRangeText('    ', this.text.selectionStart, this.text.selectionEnd, 'end');
        this.refresh();
      }
    });
    this.refresh();
  }

  get value() {
    return this.text.value;
  }

  set value(v) {
    this.text.value = v;
    this.marks.clear();
    this.highlight = null;
    this.text.scrollTop = 0;
    this.refresh();
  }

  onRun(f) {
    this.runListeners.push(f);
  }

  onCursorLine(f) {
    this.cursorListeners.push(f);
  }

  cursorLine() {
    return this.text.value.slice(0, this.text.selectionStart).split('\n').length;
  }

  cursorMoved() {
    const line = this.cursorLine();
    if (line !== this.lastLine) {
      this.lastLine = line;
      this.cursorListeners.forEach((f) => f(line));
    }
  }

  /** Shows diagnostics as gutter markers and underlines. */
  setMarks(diagnostics) {
    this.marks.clear();
    const rank = { error: 0, warning: 1, note: 2 };
    for (const d of diagnostics) {
      if (!d.line) continue;
      const prev = this.marks.get(d.line);
      if (!prev || rank[d.severity] < rank[prev.severity]) this.marks.set(d.line, d);
    }
    this.refresh();
  }

  /** Paints lines from..to (1-based, inclusive) as the current selection of a view. */
  highlightLines(from, to) {
    this.highlight = from ? [from, to] : null;
    this.refresh();
    if (from) this.scrollToLine(from);
  }

  /** Puts the caret at line:column and selects `len` characters, scrolling it into view. */
  revealLine(line, column = 1, len = 0) {
    const lines = this.text.value.split('\n');
    let offset = 0;
    for (let i = 0; i < line - 1 && i < lines.length; i++) offset += lines[i].length + 1;
    const start = offset + Math.max(0, column - 1);
    const end = len > 0 ? start + len : offset + (lines[line - 1] || '').length;
    this.text.focus({ preventScroll: true });
    this.text.setSelectionRange(start, end);
    this.scrollToLine(line);
  }

  scrollToLine(line) {
    const lh = parseFloat(getComputedStyle(this.text).lineHeight) || 18;
    const top = (line - 1) * lh;
    if (top < this.text.scrollTop || top > this.text.scrollTop + this.text.clientHeight - 2 * lh) {
      this.text.scrollTop = Math.max(0, top - this.text.clientHeight / 3);
    }
    this.syncScroll();
  }

  syncScroll() {
    this.gutter.scrollTop = this.text.scrollTop;
    this.backdrop.scrollTop = this.text.scrollTop;
    this.backdrop.scrollLeft = this.text.scrollLeft;
  }

  refresh() {
    const count = this.text.value.split('\n').length;
    const gutter = [];
    const back = [];
    for (let i = 1; i <= count; i++) {
      const mark = this.marks.get(i);
      const inSel = this.highlight && i >= this.highlight[0] && i <= this.highlight[1];
      const g = el('div', { class: 'ln' + (mark ? ' ' + mark.severity : ''), text: String(i) });
      if (mark) g.title = mark.message;
      gutter.push(g);
      back.push(
        el('div', {
          class: 'bl' + (mark ? ' ' + mark.severity : '') + (inSel ? ' selected' : ''),
          text: ' ',
        }),
      );
    }
    this.gutter.replaceChildren(...gutter, el('div', { class: 'ln pad', text: ' ' }));
    this.backdrop.replaceChildren(...back);
    this.syncScroll();
  }
}
