// The generated JavaScript package (pkg/) works on its own, in Node, and agrees with the CLI.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { resolve } from 'node:path';

const ROOT = resolve(import.meta.dirname, '../..');
const CORPUS = process.env.WARPBOUND_CORPUS || resolve(ROOT, '../shared/corpus');
const CLI = process.env.WARPBOUND_CLI || resolve(ROOT, 'target/debug/warpbound');

const pkg = await import(resolve(ROOT, 'pkg/warpbound.js'));
pkg.initSync({ module: readFileSync(resolve(ROOT, 'pkg/warpbound_bg.wasm')) });

test('every SASS corpus kernel gives the same graph in wasm as natively', () => {
  for (const name of ['celer_cbrt_pow___Z6cu_powPd.sass', 'rodinia_nn___Z6euclidP7latLongPfiff.sass',
    'cuassembler_sm61___Z7argtestPiS_S_.cuasm']) {
    const file = resolve(CORPUS, 'sass', name);
    const wasm = pkg.analyze({ schema_version: 1, dialect: 'sass', source: readFileSync(file, 'utf8') });
    const native = JSON.parse(execFileSync(CLI, ['analyze', file]).toString());
    assert.deepEqual(wasm.kernel, native.kernel, name);
    assert.deepEqual(wasm.cfg, native.cfg, name);
    assert.deepEqual(wasm.diagnostics, native.diagnostics, name);
  }
});

test('malformed requests throw a clear error', () => {
  assert.throws(() => pkg.analyze({ dialect: 'sass' }), /not a Warpbound request.*source/);
  assert.throws(() => pkg.analyze({ source: '', dialect: 'cobol' }), /not a Warpbound request/);
});

test('the catalog describes the default mode', () => {
  const c = pkg.catalog();
  assert.equal(c.schema_version, 1);
  assert.equal(c.default_mode, 'cfg');
  assert.ok(c.modes[0].params.some((p) => p.name === 'max_instructions'));
  assert.equal(pkg.version(), c.version);
});
