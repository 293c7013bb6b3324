// The generated JavaScript package (pkg/) works on its own, in Node, and agrees with the CLI.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { execFileSync } from 'node:child_process';
import { resolve, join } from 'node:path';

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
    const native = JSON.parse(execFileSync(CLI, ['analyze', file], { maxBuffer: 64 << 20 }).toString());
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
  assert.equal(c.schema_version, 3);
  assert.equal(c.default_mode, 'thread-cfg');
  assert.deepEqual(c.modes[0].aliases, ['cfg']);
  assert.ok(c.modes[0].params.some((p) => p.name === 'max_instructions'));
  assert.equal(pkg.version(), c.version);
});

test("the page's schema version is the engine's", async () => {
  // www/src/schema.js: the one place the page writes the version of the requests it sends.
  const { SCHEMA_VERSION } = await import(resolve(ROOT, 'www/src/schema.js'));
  assert.equal(SCHEMA_VERSION, pkg.catalog().schema_version);
});

test('the same request gives byte-identical JSON reports in wasm and natively', () => {
  // Timings are the only wall-clock part of a report; `timings: false` leaves them out.
  const cases = [
    ['sass/celer_cbrt_pow___Z6cu_powPd.sass', 'sass', ['--mode', 'warp-cfg'], { mode: 'warp-cfg' }],
    ['sass/FERMI_sm20_mgpu__HistogramReduce_2_1.sass', 'sass', ['--mode', 'warp-cfg', '--preset', 'pascal-gp102'],
      { mode: 'warp-cfg', preset: 'pascal-gp102' }],
    ['sass/cuassembler_sm61___Z7argtestPiS_S_.cuasm', 'sass', [], {}],
  ];
  for (const [rel, dialect, args, extra] of cases) {
    const file = resolve(CORPUS, rel);
    const request = { schema_version: 1, dialect, source: readFileSync(file, 'utf8'), timings: false, ...extra };
    const wasm = pkg.analyze_json(JSON.stringify(request));
    let native;
    try {
      native = execFileSync(CLI, ['analyze', file, '--dialect', dialect, '--no-timings', ...args], { maxBuffer: 64 << 20 }).toString();
    } catch (e) {
      native = e.stdout.toString(); // exit 1 for a report with errors
    }
    assert.equal(wasm + '\n', native, rel);
    assert.ok(!wasm.includes('timings_ms": {\n'), 'no timings recorded');
  }
  // One input per other mode: Sim-D, PWS (solver CSV and GCN3), the round-robin model.
  const more = [
    ['simd/mriq_computePhiMag.sas', 'simd', { mode: 'simd', params: { ndrange: '2048,1' } }],
    ['pws/fig2.csv', 'pws-csv', { mode: 'pws' }],
    ['gcn/gaussian___Z4Fan1PfS_ii.s', 'gcn', { mode: 'pws' }],
    ['ptx/gaussian___Z4Fan1PfS_ii.ptx', 'ptx', { mode: 'rr', params: { grid: '4,1,1', block: '128,1,1', params: '0,4096,16,0' } }],
  ];
  for (const [rel, dialect, extra] of more) {
    const request = { schema_version: 1, dialect, source: readFileSync(resolve(CORPUS, rel), 'utf8'), timings: false, ...extra };
    const file = resolve(mkdtempSync(join(tmpdir(), 'wb-')), 'request.json');
    writeFileSync(file, JSON.stringify(request));
    const native = execFileSync(CLI, ['analyze', '--request', file, '--no-timings']).toString();
    assert.equal(pkg.analyze_json(JSON.stringify(request)) + '\n', native, rel);
  }
  // A makespan instance with a witness schedule and floating-point plot data.
  const lc = { schema_version: 1, dialect: 'lc', source: 'LLCLL', mode: 'makespan', params: { warps: 6, estimate_x: 3 }, timings: false };
  const native = execFileSync(CLI, ['analyze', '-', '--dialect', 'lc', '--mode', 'makespan', '--set', 'warps=6', '--set', 'estimate_x=3', '--no-timings'], { input: 'LLCLL' }).toString();
  assert.equal(pkg.analyze_json(JSON.stringify(lc)) + '\n', native);
});

test('analyze_with_progress reports long work while it runs and gives the same report', () => {
  // The exact worst case of 8 warps on this string: about a million search steps.
  const request = { schema_version: 1, dialect: 'lc', source: 'LLCLLCLLC', mode: 'makespan', params: { warps: 8 }, timings: false };
  const seen = [];
  const { report, elapsed_ms } = pkg.analyze_with_progress(request, (p) => seen.push(p));
  assert.deepEqual(report, pkg.analyze(request));
  assert.equal(report.details.makespan.exact, 99);
  const search = seen.filter((p) => p.task === 'makespan-search');
  assert.ok(search.length >= 2, `${search.length} progress calls`);
  for (const [i, p] of search.entries()) {
    assert.equal(p.label, 'exact makespan search');
    assert.equal(p.parameter, 'max_search_steps');
    assert.equal(p.budget, 10000000);
    assert.ok(p.done > 0 && p.done <= p.budget, `done ${p.done}`);
    // A lower bound on the worst case (a schedule found so far), rising to it.
    assert.ok(p.best_bound <= 99 && p.upper_bound >= 99, JSON.stringify(p));
    assert.ok(p.elapsed_ms >= 0 && p.elapsed_ms <= elapsed_ms);
    if (i > 0) {
      assert.ok(p.done >= search[i - 1].done && p.best_bound >= search[i - 1].best_bound);
      // Throttled to one call per 50 ms of performance.now().
      assert.ok(p.elapsed_ms - search[i - 1].elapsed_ms >= 50, JSON.stringify([search[i - 1], p]));
    }
  }
  // A throwing callback does not stop the analysis.
  const again = pkg.analyze_with_progress(request, () => {
    throw new Error('the page failed');
  });
  assert.deepEqual(again.report, report);
});

test("the package's TypeScript declarations type analyze with the facade's Request and Report", () => {
  // wasm-bindgen appends crates/warpbound/bindings/warpbound.d.ts (the generated and pinned
  // declarations, crates/warpbound/tests/typescript.rs) to the package's own declarations.
  const dts = readFileSync(resolve(ROOT, 'pkg/warpbound.d.ts'), 'utf8');
  assert.match(dts, /export function analyze\(request: Request\): Report;/);
  assert.match(dts, /export function analyze_with_progress\(request: Request, progress: Function\): \{ report: Report, elapsed_ms: number \};/);
  const committed = readFileSync(resolve(ROOT, 'crates/warpbound/bindings/warpbound.d.ts'), 'utf8');
  for (const name of ['Request', 'Report', 'Details', 'SimulationReport', 'Wcet', 'Dialect', 'Diagnostic']) {
    assert.ok(committed.includes(`export type ${name} = `), name);
    assert.ok(dts.includes(`export type ${name} = `), `pkg/warpbound.d.ts declares ${name}`);
  }
  assert.ok(!/\bbigint\b/.test(committed), 'integers are numbers, as serde-wasm-bindgen sends them');
});

test('a number beyond 2^53 in the report (a random scheduler seed) still gives a report', () => {
  const source = readFileSync(resolve(ROOT, 'www/examples/its-sm86.sass'), 'utf8');
  // 2^60 + 1: no JavaScript number holds it; the report comes back with it rounded.
  const request = {
    schema_version: 3,
    dialect: 'sass',
    mode: 'warp-cfg',
    source,
    params: { its: 'random:1152921504606846977', simulate: true },
    loop_bounds: { '0x0450': 16 },
  };
  const report = pkg.analyze(request);
  assert.ok(report.wcet.cycles > 0);
  assert.ok(JSON.stringify(report).includes('1152921504606847000'));
});
