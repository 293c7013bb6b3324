// Syntax highlighting for each dialect: small stream tokenizers (CodeMirror StreamLanguage).
// They colour what a reader needs to tell apart — opcodes, registers, predicates and guards,
// constants, addresses, labels, directives, comments — not a full grammar.

import { StreamLanguage } from '@codemirror/language';

function common(stream) {
  if (stream.match('//')) {
    stream.skipToEnd();
    return 'comment';
  }
  if (stream.match('/*')) {
    while (!stream.eol()) {
      if (stream.match('*/')) break;
      stream.next();
    }
    return 'comment';
  }
  if (stream.match(/^-?0x[0-9a-fA-F]+/) || stream.match(/^-?\d+(\.\d+)?([eE][-+]?\d+)?/)) return 'number';
  if (stream.match(/^"[^"]*"?/)) return 'string';
  return null;
}

const sass = {
  name: 'sass',
  startState: () => ({ sawOpcode: false }),
  token(stream, state) {
    if (stream.sol()) state.sawOpcode = false;
    if (stream.eatSpace()) return null;
    if (stream.match(/^\/\*[0-9a-fA-F]+\*\//)) return 'meta'; // address comment
    if (stream.match(/^\[B[^\]]*\]/)) return 'meta'; // CuAssembler control code
    const c = common(stream);
    if (c) return c;
    if (stream.match(/^@!?U?P[0-9T]\b/)) return 'keyword';
    if (stream.match(/^Function\s*:.*/)) return 'heading';
    if (stream.match(/^[.$\w]+:/)) return 'labelName';
    if (stream.match(/^\.[\w.]+/)) return 'meta';
    if (stream.match(/^c\s*\[[^\]]*\]\s*\[[^\]]*\]/)) return 'string';
    if (stream.match(/^(SR_[\w.]+)/i)) return 'atom';
    if (stream.match(/^(U?R\d+|RZ|URZ|U?P\d|U?PT|pt|CC)\b/)) return 'variableName';
    if (!state.sawOpcode && stream.match(/^[A-Z][A-Z0-9_]*(\.[A-Za-z0-9_]+)*/)) {
      state.sawOpcode = true;
      return 'keyword';
    }
    if (stream.match(/^`\([^)]*\)/)) return 'labelName';
    stream.next();
    return null;
  },
};

const gcn = {
  name: 'gcn',
  token(stream) {
    if (stream.eatSpace()) return null;
    if (stream.match(';')) {
      stream.skipToEnd();
      return 'comment';
    }
    const c = common(stream);
    if (c) return c;
    if (stream.match(/^[.\w$]+:/)) return 'labelName';
    if (stream.match(/^\.[\w.]+/)) return 'meta';
    if (stream.match(/^(s|v|ds|flat|global|buffer|scratch)_[\w]+/)) return 'keyword';
    if (stream.match(/^(split|merge)\b/)) return 'keyword';
    if (stream.match(/^[sv](\d+|\[\d+:\d+\])/) || stream.match(/^(exec|vcc|scc|m0)(_lo|_hi)?\b/)) return 'variableName';
    if (stream.match(/^(offset|glc|slc|lgkmcnt|vmcnt|expcnt)\b/)) return 'atom';
    stream.next();
    return null;
  },
};

const ptx = {
  name: 'ptx',
  token(stream) {
    if (stream.eatSpace()) return null;
    const c = common(stream);
    if (c) return c;
    if (stream.match(/^@!?%p\d+/)) return 'keyword';
    if (stream.match(/^\$?[\w$]+:/)) return 'labelName';
    if (stream.match(/^\.[\w]+/)) return 'meta';
    if (stream.match(/^%(tid|ntid|ctaid|nctaid|laneid|warpid)(\.[xyz])?/)) return 'atom';
    if (stream.match(/^%[\w]+/)) return 'variableName';
    if (stream.match(/^[a-z][\w]*(\.[\w]+)*/)) return 'keyword';
    stream.next();
    return null;
  },
};

const simd = {
  name: 'simd',
  token(stream) {
    if (stream.eatSpace()) return null;
    if (stream.match(/^#\w+.*/)) return 'meta';
    const c = common(stream);
    if (c) return c;
    if (stream.match(/^[\w.]+:/)) return 'labelName';
    if (stream.match(/^\.[\w]+/)) return 'meta';
    if (stream.match(/^(v|s|p)\d+\b/) || stream.match(/^(vc|sc)\.[\w]+/)) return 'variableName';
    if (stream.match(/^[a-z][\w]*(\.[\w]+)*/)) return 'keyword';
    stream.next();
    return null;
  },
};

const lc = {
  name: 'lc',
  token(stream) {
    if (stream.eatSpace()) return null;
    if (stream.match('#') || stream.match('//')) {
      stream.skipToEnd();
      return 'comment';
    }
    if (stream.match(/^L+/)) return 'keyword';
    if (stream.match(/^C+/)) return 'atom';
    if (stream.match(/^\w+\s*[:=]/)) return 'meta';
    const c = common(stream);
    if (c) return c;
    stream.next();
    return null;
  },
};

/** The PWS solver's CSV: header, booleans, numbers, `;`-separated successor lists. */
const pwsCsv = {
  name: 'pws-csv',
  token(stream) {
    if (stream.sol() && stream.match(/^[a-z_,]+$/)) return 'meta';
    if (stream.match(/^(True|False)\b/)) return 'atom';
    if (stream.match(/^\d+/)) return 'number';
    stream.next();
    return null;
  },
};

const MODES = { sass, gcn, ptx, simd, lc, 'pws-csv': pwsCsv };

/** The CodeMirror language for a dialect name (SASS for unknown names). */
export function languageFor(dialect) {
  return StreamLanguage.define(MODES[dialect] || sass);
}
