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
  showTooltip,
} from '@codemirror/view';
import { defaultKeymap, history, historyKeymap } from '@codemirror/commands';
import { syntaxHighlighting, HighlightStyle } from '@codemirror/language';
import { lintGutter, setDiagnostics } from '@codemirror/lint';
import { tags as t } from '@lezer/highlight';
import { languageFor } from './syntax.js';
import { mnemonicIn, opcodeText } from './opcode_docs.js';

/** An L/C letter at `offset` of a line: `{from, to, word}`, or null (comments and
 * `key = value` lines hold no kernel letters). */
function lcLetterAt(text, offset) {
  const ch = text[offset];
  const code = text.split(/#|\/\//)[0];
  if ((ch !== 'L' && ch !== 'C') || offset >= code.length || /^\s*\w+\s*[:=]/.test(code)) return null;
  return { from: offset, to: offset + 1, word: ch };
}

/** The opcode tooltip for `range` (`{from, to, word}`) of `line`, or null. */
function opcodeTooltip(line, range, dialect, announce = false) {
  const text = range && opcodeText(dialect, range.word);
  if (!text) return null;
  return {
    pos: line.from + range.from,
    end: line.from + range.to,
    above: true,
    create() {
      const dom = document.createElement('div');
      dom.className = 'cm-opcode-doc';
      // Opened from the keyboard: read out by screen readers.
      if (announce) dom.setAttribute('role', 'status');
      dom.textContent = text;
      return { dom };
    },
  };
}

/**
 * Hovering an opcode shows its documentation (`OPCODE — description (latency class: X)`);
 * in an L/C string, each letter. `dialect()` is the editor's current dialect.
 */
function opcodeHover(dialect) {
  return hoverTooltip((view, pos, side) => {
    const line = view.state.doc.lineAt(pos);
    const at = pos - line.from;
    const d = dialect();
    if (d === 'lc') return opcodeTooltip(line, lcLetterAt(line.text, side < 0 ? at - 1 : at), d);
    const m = mnemonicIn(d, line.text);
    const inside = m && at >= m.from && at <= m.to && !(at === m.from && side < 0) && !(at === m.to && side > 0);
    return inside ? opcodeTooltip(line, m, d) : null;
  });
}

/** The same tooltip from the keyboard (Alt+I: the opcode of the caret's line, or the L/C
 * letter at the caret); it closes when the caret moves, the text changes, or on Escape. */
const setOpcodeTip = StateEffect.define();
const opcodeTipField = StateField.define({
  create: () => null,
  update(tip, tr) {
    for (const e of tr.effects) if (e.is(setOpcodeTip)) return e.value;
    return tr.docChanged || tr.selection ? null : tip;
  },
  provide: (f) => showTooltip.from(f),
});

function opcodeKeys(dialect) {
  return [
    {
      key: 'Alt-i',
      run(view) {
        const head = view.state.selection.main.head;
        const line = view.state.doc.lineAt(head);
        const d = dialect();
        const at = head - line.from;
        const range =
          d === 'lc' ? lcLetterAt(line.text, at) || lcLetterAt(line.text, at - 1) : mnemonicIn(d, line.text);
        view.dispatch({ effects: setOpcodeTip.of(opcodeTooltip(line, range, d, true)) });
        return true;
      },
    },
    {
      key: 'Escape',
      run(view) {
        if (!view.state.field(opcodeTipField, false)) return false;
        view.dispatch({ effects: setOpcodeTip.of(null) });
        return true;
      },
    },
  ];
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
    this.pasteListeners = [];
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
          opcodeTipField,
          // No Tab binding: Tab must leave the editor (no keyboard trap, WCAG 2.1.2); indent with
          // Ctrl+] / Ctrl+[.
          keymap.of([{ key: 'Mod-Enter', run }, ...opcodeKeys(() => this.dialect), ...defaultKeymap, ...historyKeymap]),
          EditorView.contentAttributes.of({ 'aria-label': 'Kernel source', id: 'editor' }),
          EditorView.updateListener.of((u) => {
            if (u.docChanged && !this.quiet) this.changeListeners.forEach((f) => f());
            if (u.docChanged && !this.quiet && u.transactions.some((tr) => tr.isUserEvent('input.paste') || tr.isUserEvent('input.drop'))) {
              const [before, after] = [u.startState.doc.toString(), u.state.doc.toString()];
              this.pasteListeners.forEach((f) => f(before, after));
            }
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

  /** Called after text is pasted or dropped into the editor, with the text before and after. */
  onPaste(f) {
    this.pasteListeners.push(f);
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
