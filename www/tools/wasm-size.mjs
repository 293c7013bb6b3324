// Writes the wasm module's size into its preload link (`data-bytes`), so the page can show
// the loaded fraction while it downloads: hosts that compress the module send no usable
// Content-Length (it counts compressed bytes, or is absent), the build knows the real size.
import { readFileSync, writeFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** Adds `data-bytes="<size>"` to the `.wasm` preload link of `dir`/index.html. */
export function markWasmSize(dir) {
  const file = join(dir, 'index.html');
  const html = readFileSync(file, 'utf8');
  const link = /<link rel="preload" href="\.\/([^"]+\.wasm)"/;
  const found = link.exec(html);
  if (!found) throw new Error('the wasm preload link was not found in index.html');
  const bytes = statSync(join(dir, found[1])).size;
  writeFileSync(file, html.replace(link, `${found[0]} data-bytes="${bytes}"`));
}
