// Speed in the browser: time from navigation to the first result (on this machine, and over a
// throttled link on a first and a second visit), and every gallery example analysed in wasm
// inside headless Chromium next to the native CLI on the same request.
// Numbers go to tests/browser/artifacts/perf.json and the test log.
//
// These are measurements, not pass/fail checks: a busy machine (CI on two shared cores) must
// not fail the test command. The targets (first result < 1 s, wasm within 2.5x of native)
// are asserted only with WARPBOUND_STRICT_PERF=1; otherwise only a gross regression (ten times
// a target) fails.

import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync, mkdtempSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { resolve, join } from 'node:path';
import { tmpdir } from 'node:os';
import { ROOT, useSite, openPage } from './harness.js';
import { serveDir } from './serve.js';

const CLI = process.env.WARPBOUND_CLI || resolve(ROOT, 'target/debug/warpbound');
const RELEASE_CLI = resolve(ROOT, 'target/release/warpbound');
const ARTIFACTS = resolve(import.meta.dirname, 'artifacts');
const RUNS = 7;
const STRICT = process.env.WARPBOUND_STRICT_PERF === '1';
/** The factor by which a measurement may miss its target before the test fails. */
const SLACK = STRICT ? 1 : 10;
const FIRST_RESULT_MS = 1000;
const WASM_RATIO = 2.5;

const site = useSite();
before(() => mkdirSync(ARTIFACTS, { recursive: true }));

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** Median in-process analysis time (the report's own `timings_ms.total`) of the native CLI. */
function nativeMs(cli, request) {
  const dir = mkdtempSync(join(tmpdir(), 'warpbound-perf-'));
  const file = join(dir, 'request.json');
  writeFileSync(file, JSON.stringify(request));
  const times = [];
  for (let i = 0; i < RUNS; i++) {
    let out;
    try {
      // Reports of traced runs exceed execFileSync's default 1 MiB buffer (its-sm86-interleaved).
      out = execFileSync(cli, ['analyze', '--request', file], { maxBuffer: 64 << 20 }).toString();
    } catch (e) {
      out = e.stdout.toString();
    }
    times.push(JSON.parse(out).timings_ms.total);
  }
  return median(times);
}

test('first result on screen: measured (target 1 s)', async () => {
  const { page, errors } = await openPage(site, '#ex=fig1-if-then-else');
  const ms = await page.evaluate(() => performance.getEntriesByName('warpbound:first-result')[0].startTime);
  console.log(`navigation → first result: ${ms.toFixed(0)} ms (target ${FIRST_RESULT_MS} ms${STRICT ? ', strict' : ''})`);
  assert.ok(ms < SLACK * FIRST_RESULT_MS, `${ms} ms, over ${SLACK} x the target of ${FIRST_RESULT_MS} ms`);
  assert.deepEqual(errors, []);
  await page.close();
});

/** "Fast 3G" (1.6 Mbit/s down, 750 kbit/s up, 150 ms latency), in bytes per second. */
const FAST_3G = { offline: false, latency: 150, downloadThroughput: 1.6e6 / 8, uploadThroughput: 0.75e6 / 8 };
/** A result must appear within this even on a busy machine (a measurement, not a target). */
const SLOW_LINK_LIMIT_MS = 120000;

test('first result over a slow link (fast 3G), first visit and second (service worker): measured', async () => {
  // Gzipped, as static hosts send the files. Chromium throttles the page's own requests (the
  // module's download among them); what the service worker fetches or answers is not.
  const server = await serveDir(resolve(ROOT, 'dist'), '/', { gzip: true });
  const context = await site.browser.newContext({ viewport: { width: 1440, height: 900 } });
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.emulateNetworkConditions', FAST_3G);
  /** Navigation → first result (the page's own mark) and the bytes the host sent for it. */
  const visit = async (navigate) => {
    const before = server.sent();
    await navigate();
    await page.waitForSelector('body.ready', { timeout: SLOW_LINK_LIMIT_MS });
    const ms = await page.evaluate(() => performance.getEntriesByName('warpbound:first-result')[0].startTime);
    return { ms: Math.round(ms), bytes: server.sent() - before };
  };
  const first = await visit(() => page.goto(server.url + '#ex=fig1-if-then-else'));
  // The service worker takes over once it has cached the build.
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null, null, { timeout: SLOW_LINK_LIMIT_MS });
  const second = await visit(() => page.reload());
  console.log(
    `fast 3G, navigation → first result: first visit ${first.ms} ms (${first.bytes} bytes from the host), ` +
      `second visit ${second.ms} ms (${second.bytes} bytes; the service worker answers)`,
  );
  writeFileSync(join(ARTIFACTS, 'perf-load.json'), JSON.stringify({ link: FAST_3G, first, second }, null, 2));
  assert.ok(first.ms < SLOW_LINK_LIMIT_MS && second.ms < SLOW_LINK_LIMIT_MS);
  assert.ok(second.bytes < first.bytes / 10, `the second visit loaded ${second.bytes} bytes`);
  assert.equal(await page.textContent('#stat-wcet'), '10');
  assert.deepEqual(errors, []);
  await context.close();
  await server.close();
});

test('every gallery example: wasm in Chromium against native, measured (target 2.5x)', async () => {
  const { page, errors } = await openPage(site, '#ex=fig1-if-then-else');
  const examples = await page.evaluate(() => window.playground.examples());
  // The release CLI is the fair comparison (the site is a release build); fall back to debug.
  let cli = RELEASE_CLI;
  try {
    execFileSync(cli, ['--version']);
  } catch {
    cli = CLI;
  }
  const rows = [];
  for (const ex of examples) {
    const request = ex.request; // what the page sends when it opens the example
    const wasm = [];
    for (let i = 0; i < RUNS; i++) {
      const report = await page.evaluate((r) => window.playground.analyze(r), request);
      wasm.push(report.timings_ms.total);
    }
    rows.push({ example: ex.id, mode: request.mode, wasm_ms: median(wasm), native_ms: nativeMs(cli, request) });
  }
  for (const r of rows) r.ratio = r.wasm_ms / Math.max(r.native_ms, 1e-3);
  console.table(rows.map((r) => ({ ...r, wasm_ms: r.wasm_ms.toFixed(3), native_ms: r.native_ms.toFixed(3), ratio: r.ratio.toFixed(2) })));
  writeFileSync(join(ARTIFACTS, 'perf.json'), JSON.stringify({ cli, runs: RUNS, rows }, null, 2));
  if (cli === RELEASE_CLI) {
    // Sub-millisecond runs are dominated by timer resolution (the browser rounds
    // performance.now() to 0.1 ms): compare only runs that take at least 1 ms natively,
    // and the total over all examples.
    for (const r of rows.filter((x) => x.native_ms >= 1)) {
      assert.ok(r.ratio <= SLACK * WASM_RATIO, `${r.example}: wasm ${r.wasm_ms} ms vs native ${r.native_ms} ms`);
    }
    const total = (k) => rows.reduce((s, r) => s + r[k], 0);
    console.log(`total: wasm ${total('wasm_ms').toFixed(1)} ms, native ${total('native_ms').toFixed(1)} ms, ratio ${(total('wasm_ms') / Math.max(total('native_ms'), 1e-3)).toFixed(2)} (target ${WASM_RATIO})`);
    assert.ok(total('wasm_ms') <= SLACK * WASM_RATIO * total('native_ms') + 1, `total wasm ${total('wasm_ms')} vs native ${total('native_ms')}`);
  }
  assert.deepEqual(errors, []);
  await page.close();
});
