// What takes the bytes of a wasm module: its sections, and its code by crate and by function,
// read from the module's name section (present in cargo's output,
// target/wasm32-unknown-unknown/release/warpbound_wasm.wasm, before wasm-opt strips it).
//
//   node scripts/wasm-sizes.mjs MODULE.wasm [--top N]
//
// Prints each section's size, then the code bytes per crate (the first path segment of a
// function's demangled name, generic instances counted where they are instantiated by name)
// and the N largest functions. A measuring tool only: nothing in the build depends on it.

import { readFileSync } from 'node:fs';

const [file, ...rest] = process.argv.slice(2);
if (!file) {
  console.error('usage: node scripts/wasm-sizes.mjs MODULE.wasm [--top N]');
  process.exit(2);
}
const top = rest[0] === '--top' ? Number(rest[1]) : 25;
const bytes = readFileSync(file);

let pos = 8; // magic and version
function leb() {
  let result = 0;
  let shift = 0;
  for (;;) {
    const b = bytes[pos++];
    result += (b & 0x7f) * 2 ** shift;
    shift += 7;
    if (b < 0x80) return result;
  }
}
function name() {
  const n = leb();
  const s = bytes.toString('utf8', pos, pos + n);
  pos += n;
  return s;
}

const SECTIONS = ['custom', 'type', 'import', 'function', 'table', 'memory', 'global', 'export', 'start', 'element', 'code', 'data', 'data count'];
const sections = [];
let imported = 0;
const bodies = []; // sizes of function bodies, in order
const names = new Map(); // function index -> name
while (pos < bytes.length) {
  const id = bytes[pos++];
  const size = leb();
  const start = pos;
  let label = SECTIONS[id] || `#${id}`;
  if (id === 0) label = `custom "${name()}"`;
  if (id === 2) {
    for (let n = leb(); n > 0; n--) {
      name();
      name();
      const kind = bytes[pos++];
      if (kind === 0) {
        imported++;
        leb();
      } else if (kind === 1) {
        pos++;
        const flags = leb();
        leb();
        if (flags & 1) leb();
      } else if (kind === 2) {
        const flags = leb();
        leb();
        if (flags & 1) leb();
      } else if (kind === 3) pos += 2;
      else if (kind === 4) {
        pos++;
        leb();
      }
    }
  }
  if (id === 10) {
    for (let n = leb(); n > 0; n--) {
      const len = leb();
      bodies.push(len);
      pos += len;
    }
  }
  if (label === 'custom "name"') {
    while (pos < start + size) {
      const sub = bytes[pos++];
      const len = leb();
      const end = pos + len;
      if (sub === 1) {
        for (let n = leb(); n > 0; n--) {
          const index = leb();
          names.set(index, name());
        }
      }
      pos = end;
    }
  }
  sections.push({ label, size });
  pos = start + size;
}

const kb = (n) => (n / 1024).toFixed(1).padStart(9) + ' KiB';
console.log(`${file}: ${kb(bytes.length)}`);
for (const s of sections.sort((a, b) => b.size - a.size)) console.log(`${kb(s.size)}  ${s.label}`);

/**
 * The crate of a function: the first path segment of its Rust name, mangled
 * (`_ZN3isa4sass5parse17h…E` → `isa`; `_ZN70_$LT$sim..gcn..Gcn$u20$as$u20$…` → `sim`) or
 * demangled (`<warpbound::x::Y as serde::Serialize>::f` → `warpbound`).
 */
function crateOf(fn) {
  const mangled = /^_ZN(\d+)(.*)$/.exec(fn);
  if (mangled) {
    let seg = mangled[2].slice(0, Number(mangled[1]));
    seg = seg.replace(/^_?\$LT\$/, '').replace(/^(\$RF\$|\$BP\$|mut\$u20\$|dyn\$u20\$)+/, '');
    return seg.split(/\.\.|\$/)[0] || '(other)';
  }
  let s = fn.replace(/^_*</, '');
  s = s.replace(/^(&|\*const |\*mut |mut |dyn )+/, '');
  const m = /^([A-Za-z_][A-Za-z0-9_]*)::/.exec(s);
  return m ? m[1] : '(other)';
}

const byCrate = new Map();
const functions = bodies.map((size, i) => {
  const fn = names.get(imported + i) || `func ${imported + i}`;
  const crate = crateOf(fn);
  byCrate.set(crate, (byCrate.get(crate) || 0) + size);
  return { fn, size };
});
const code = bodies.reduce((a, b) => a + b, 0);
console.log(`\ncode by crate (${kb(code)} in ${bodies.length} functions):`);
for (const [crate, size] of [...byCrate].sort((a, b) => b[1] - a[1]).slice(0, 40)) {
  console.log(`${kb(size)}  ${((size / code) * 100).toFixed(1).padStart(5)} %  ${crate}`);
}
console.log(`\nlargest ${top} functions:`);
for (const f of functions.sort((a, b) => b.size - a.size).slice(0, top)) {
  console.log(`${kb(f.size)}  ${f.fn.slice(0, 150)}`);
}
