// Writes the build into the service worker (www/sw.js, copied by Trunk): the list of files
// it caches and a hash of their contents. A new build thus changes sw.js byte for byte, which
// is how the browser notices a new deployment, and names a new cache, so one build's files
// are never mixed with another's. Source maps are left out (only developer tools read them).
import { readFileSync, writeFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { createHash } from 'node:crypto';

const WORKER = 'sw.js';

/** Files under `dir`, relative, with `/` separators, sorted. */
function filesUnder(dir, at = '') {
  const out = [];
  for (const entry of readdirSync(join(dir, at), { withFileTypes: true })) {
    const rel = at ? `${at}/${entry.name}` : entry.name;
    if (entry.isDirectory()) out.push(...filesUnder(dir, rel));
    else out.push(rel);
  }
  return out.sort();
}

/** Stamps `dir`/sw.js with the files of `dir` and their hash; returns `{ build, files }`. */
export function stampServiceWorker(dir) {
  const files = filesUnder(dir).filter((f) => f !== WORKER && !f.endsWith('.map'));
  const hash = createHash('sha256');
  for (const f of files) {
    hash.update(f + '\0');
    hash.update(readFileSync(join(dir, f)));
  }
  const build = hash.digest('hex').slice(0, 16);
  const file = join(dir, WORKER);
  let text = readFileSync(file, 'utf8');
  for (const [line, value] of [
    [/^const BUILD = .*;$/m, `const BUILD = '${build}';`],
    [/^const FILES = .*;$/m, `const FILES = ${JSON.stringify(files)};`],
  ]) {
    if (!line.test(text)) throw new Error(`${WORKER} has no line matching ${line}`);
    text = text.replace(line, value);
  }
  writeFileSync(file, text);
  return { build, files };
}
