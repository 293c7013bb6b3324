// Removes the inline loader Trunk writes into index.html, which would instantiate the wasm
// module on the main thread. The page runs every analysis in a Web Worker (www/src/wasm.js
// reads the module's URLs from the preload links), so the inline copy only cost load time —
// and an inline script would need 'unsafe-inline' in the Content-Security-Policy.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** Strips the loader from `dir`/index.html; throws when Trunk's loader is not found. */
export function stripLoader(dir) {
  const file = join(dir, 'index.html');
  const html = readFileSync(file, 'utf8');
  const loader = /<script type="module">\s*import init[\s\S]*?<\/script>\s*/;
  if (!loader.test(html)) throw new Error('the Trunk loader script was not found in index.html');
  writeFileSync(file, html.replace(loader, ''));
}
