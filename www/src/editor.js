// The kernel editor (CodeMirror 6): dialect highlighting, diagnostics as underlines + gutter
// markers + hover messages, opcode documentation on hover, the selected graph node's lines
// highlighted, and cursor moves reported so the graph can follow.

import { EditorState, StateEffect, StateField, Compartment } from '@codemirror/state';
import {
  EditorView,
  Decoration,
  keymap,
  lineNumbers,
  highlightActiveLine,
  highlightActiveLineGutter,
  drawSelection,
  hoverTooltip,
} from '@codemirror/view';
import { defaultKeymap, history, historyKeymap } from '@codemirror/commands';
import { syntaxHighlighting, HighlightStyle } from '@codemirror/language';
import { lintGutter, setDiagnostics } from '@codemirror/lint';
import { tags as t } from '@lezer/highlight';
import { languageFor } from './syntax.js';
import { mnemonicIn, opcodeText } from './opcode_docs.js';

/**
 * Hovering an opcode shows its documentation (`OPCODE — description (latency class: X)`);
 * in an L/C string, each letter. `dialect()` is the editor's current dialect.
 */
function opcodeHover(dialect) {
  return hoverTooltip((view, pos, side) => {
    const line = view.state.doc.lineAt(pos);
    const at = pos - line.from;
    const d = dialect();
    let range = null;
    let text = null;
    if (d === 'lc') {
      // Letters of the kernel string; not comments or `key = value` lines.
      const offset = side < 0 ? at - 1 : at;
      const ch = line.text[offset];
      const code = line.text.split(/#|\/\//)[0];
      if ((ch === 'L' || ch === 'C') && offset < code.length && !/^\s*\w+\s*[:=]/.test(code)) {
        range = { from: offset, to: offset + 1 };
        text = opcodeText(d, ch);
      }
    } else {
      const m = mnemonicIn(d, line.text);
      if (m && at >= m.from && at <= m.to && !(at === m.from && side < 0) && !(at === m.to && side > 0)) {
        range = m;
        text = opcodeText(d, m.word);
      }
    }
    if (!range || !text) return null;
    return {
      pos: line.from + range.from,
      end: line.from + range.to,
      above: true,
      create() {
        const dom = document.createElement('div');
        dom.className = 'cm-opcode-doc';
        dom.textContent = text;
        return { dom };
      },
    };
  });
}

const style = HighlightStyle.define([
  { tag: t.comment, class: 'tok-comment' },
  { tag: t.keyword, class: 'tok-keyword' },
  { tag: t.number, class: 'tok-number' },
  { tag: t.string, class: 'tok-string' },
  { tag: t.variableName, class: 'tok-variable' },
  { tag: t.atom, class: 'tok-atom' },
  { tag: t.labelName, class: 'tok-label' },
  { tag: t.meta, class: 'tok-meta' },
  { tag: t.heading, class: 'tok-heading' },
]);

const setHighlight = StateEffect.define();
const highlightField = StateField.define({
  create: () => Decoration.none,
  update(deco, tr) {
    deco = deco.map(tr.changes);
    for (const e of tr.effects) {
      if (e.is(setHighlight)) {
        const [from, to] = e.value || [];
        if (!from) return Decoration.none;
        const doc = tr.state.doc;
        const marks = [];
        for (let l = from; l <= Math.min(to, doc.lines); l++) {
          marks.push(Decoration.line({ class: 'cm-node-line' }).range(doc.line(l).from));
        }
        return Decoration.set(marks);
      }
    }
    return deco;
  },
  provide: (f) => EditorView.decorations.from(f),
});

export class Editor {
  constructor(root) {
    this.runListeners = [];
    this.cursorListeners = [];
    this.changeListeners = [];
    this.quiet = false;
    this.lastLine = 0;
    this.language = new Compartment();
    this.dialect = 'sass';
    const run = () => {
      this.runListeners.forEach((f) => f());
      return true;
    };
    this.view = new EditorView({
      parent: root,
      state: EditorState.create({
        doc: '',
        extensions: [
          lineNumbers(),
          highlightActiveLineGutter(),
          highlightActiveLine(),
          drawSelection(),
          history(),
          lintGutter(),
          highlightField,
          this.language.of(languageFor('sass')),
          syntaxHighlighting(style),
          opcodeHover(() => this.dialect),
          // No Tab binding: Tab must leave the editor (no keyboard trap, WCAG 2.1.2); indent with
          // Ctrl+] / Ctrl+[.
          keymap.of([{ key: 'Mod-Enter', run }, ...defaultKeymap, ...historyKeymap]),
          EditorView.contentAttributes.of({ 'aria-label': 'Kernel source', id: 'editor' }),
          EditorView.updateListener.of((u) => {
            if (u.docChanged && !this.quiet) this.changeListeners.forEach((f) => f());
            if (u.selectionSet || u.docChanged) this.cursorMoved();
          }),
        ],
      }),
    });
  }

  get value() {
    return this.view.state.doc.toString();
  }

  set value(v) {
    this.quiet = true;
    this.view.dispatch({
      changes: { from: 0, to: this.view.state.doc.length, insert: v },
      selection: { anchor: 0 },
      effects: [setHighlight.of(null)],
    });
    this.view.dispatch(setDiagnostics(this.view.state, []));
    this.quiet = false;
  }

  /** Called after every edit made by the user (not by `value = …`). */
  onChange(f) {
    this.changeListeners.push(f);
  }

  setDialect(dialect) {
    this.dialect = dialect;
    this.view.dispatch({ effects: this.language.reconfigure(languageFor(dialect)) });
  }

  onRun(f) {
    this.runListeners.push(f);
  }

  onCursorLine(f) {
    this.cursorListeners.push(f);
  }

  cursorMoved() {
    const line = this.view.state.doc.lineAt(this.view.state.selection.main.head).number;
    if (line !== this.lastLine) {
      this.lastLine = line;
      this.cursorListeners.forEach((f) => f(line));
    }
  }

  /** Located diagnostics of the report, as lint marks (request-level ones stay in the list). */
  setMarks(diagnostics) {
    const doc = this.view.state.doc;
    const marks = [];
    for (const d of diagnostics) {
      if (!d.line || d.line > doc.lines) continue;
      const line = doc.line(d.line);
      const from = Math.min(line.from + Math.max(0, d.column - 1), line.to);
      const to = Math.min(from + Math.max(d.len, 1), line.to);
      marks.push({
        from,
        to: Math.max(to, from),
        severity: d.severity === 'note' ? 'info' : d.severity,
        message: d.message,
      });
    }
    this.view.dispatch(setDiagnostics(this.view.state, marks));
  }

  /** Highlights lines from..to (1-based, inclusive): the selected node's instructions. */
  highlightLines(from, to) {
    this.view.dispatch({ effects: setHighlight.of(from ? [from, to] : null) });
    if (from && from <= this.view.state.doc.lines) {
      this.view.dispatch({
        effects: EditorView.scrollIntoView(this.view.state.doc.line(from).from, { y: 'nearest' }),
      });
    }
  }

  /** Puts the caret at line:column, selecting `len` characters, and scrolls to it. */
  revealLine(line, column = 1, len = 0) {
    const doc = this.view.state.doc;
    if (!line || line > doc.lines) return;
    const l = doc.line(line);
    const from = Math.min(l.from + Math.max(0, column - 1), l.to);
    const to = len > 0 ? Math.min(from + len, l.to) : from;
    this.view.dispatch({ selection: { anchor: from, head: to }, scrollIntoView: true });
    this.view.focus();
  }

  /** 1-based line of the caret. */
  cursorLine() {
    return this.view.state.doc.lineAt(this.view.state.selection.main.head).number;
  }
}
