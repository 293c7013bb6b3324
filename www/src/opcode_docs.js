// Opcode documentation on the page: one line and the latency class of each opcode, shown when
// an opcode is hovered in the editor, the instruction table or a graph node.
//
// The tables come from Rust (`warpbound::opcode_docs`, the wasm export `opcode_docs`), sent
// by the worker once, right after it loads, so a hover never waits for an analysis. The
// lookup follows `OpcodeTable::find`: the table's case, then the whole word, then without
// its last dotted parts one by one, each also without an encoding suffix (GCN3 `_e32`).

/** dialect name → its table ({dialect, classes, case, suffixes, opcodes}). */
let tables = new Map();

/** Keeps the tables the worker sent (an array, one per dialect). */
export function setOpcodeTables(list) {
  tables = new Map((list || []).map((t) => [t.dialect, t]));
}

/** Whether `dialect` has opcode documentation (the tables arrived and it has opcodes). */
export function hasOpcodeTable(dialect) {
  return tables.has(dialect);
}

/** The entry of `mnemonic` as written (`ISETP.GE.AND`, `ld.global.f32`, `v_add_f32_e32`):
 * `{name, doc}` with the table's name of the opcode, or null. */
export function findOpcode(dialect, mnemonic) {
  const table = tables.get(dialect);
  if (!table || !mnemonic) return null;
  const word = table.case === 'upper' ? mnemonic.toUpperCase() : table.case === 'lower' ? mnemonic.toLowerCase() : mnemonic;
  const has = (k) => Object.prototype.hasOwnProperty.call(table.opcodes, k);
  let candidate = word;
  for (;;) {
    if (has(candidate)) return { name: candidate, doc: table.opcodes[candidate] };
    for (const s of table.suffixes) {
      if (candidate.endsWith(s)) {
        const base = candidate.slice(0, -s.length);
        if (has(base)) return { name: base, doc: table.opcodes[base] };
      }
    }
    const dot = candidate.lastIndexOf('.');
    if (dot < 0) return null;
    candidate = candidate.slice(0, dot);
  }
}

/** "OPCODE — description (latency class: X; also; depends on …)", or "OPCODE — no
 * description" for a word the table does not know; null when `dialect` has no table. */
export function opcodeText(dialect, mnemonic) {
  if (!tables.has(dialect) || !mnemonic) return null;
  const hit = findOpcode(dialect, mnemonic);
  if (!hit) return `${mnemonic} — no description`;
  const d = hit.doc;
  let cls = d.latency_class;
  if (d.also) cls += `; ${d.also}`;
  if (d.depends_on) cls += `; depends on ${d.depends_on}`;
  return `${hit.name} — ${d.description} (latency class: ${cls})`;
}

/**
 * Where the mnemonic of an instruction line is: `{from, to, word}` (offsets in `line`), or
 * null for a line without one (comments, directives, labels alone, encodings). Skips what
 * may come before the opcode: CuAssembler control codes `[B------:R-:W-:Y:S04]`, address
 * comments, labels `L1:`, guards `@!P0` / `@%p1`, braces.
 */
export function mnemonicIn(dialect, line) {
  if (dialect === 'lc' || dialect === 'pws-csv') return null;
  let i = 0;
  const rest = () => line.slice(i);
  for (;;) {
    const m =
      rest().match(/^\s+/) ||
      rest().match(/^\[[^\]]*\]/) ||
      rest().match(/^\/\*.*?\*\//) ||
      rest().match(/^[{}]/) ||
      rest().match(/^@!?[%\w.]+/) ||
      rest().match(/^[$.\w]+:(?!:)/);
    if (!m) break;
    i += m[0].length;
  }
  const m = rest().match(/^[A-Za-z_][\w.]*/);
  if (!m) return null;
  // `Function : name` (cuobjdump's header) and words followed by `=` or `:` are not opcodes.
  if (/^\s*[:=]/.test(line.slice(i + m[0].length))) return null;
  return { from: i, to: i + m[0].length, word: m[0] };
}

/** The documentation text of the instruction written on `line`, or null. */
export function lineOpcodeText(dialect, line) {
  const m = mnemonicIn(dialect, line);
  return m ? opcodeText(dialect, m.word) : null;
}
