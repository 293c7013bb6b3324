// The built playground in headless Chromium. Expected numbers come from independent sources:
// hand derivation (the examples), address comments counted here, and the native `warpbound`
// CLI's report for the same input (wasm and native must agree).

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, existsSync, writeFileSync, mkdtempSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { resolve, join } from 'node:path';
import { tmpdir } from 'node:os';
import { serveDir } from './serve.js';
import { launch } from './browser.js';

const ROOT = resolve(import.meta.dirname, '../..');
const CORPUS = process.env.WARPBOUND_CORPUS || resolve(ROOT, '../shared/corpus');
const CLI = process.env.WARPBOUND_CLI || resolve(ROOT, 'target/debug/warpbound');

let server;
let browser;

before(async () => {
  assert.ok(existsSync(resolve(ROOT, 'dist/index.html')), 'build the site first (trunk build --release)');
  server = await serveDir(resolve(ROOT, 'dist'));
  browser = await launch();
});

after(async () => {
  await browser?.close();
  await server?.close();
});

async function openPage() {
  const page = await browser.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
  await page.goto(server.url);
  await page.waitForSelector('body.ready', { timeout: 15000 });
  return { page, errors };
}

function native(args, source) {
  const dir = mkdtempSync(join(tmpdir(), 'warpbound-'));
  const file = join(dir, 'k.sass');
  writeFileSync(file, source);
  try {
    return JSON.parse(execFileSync(CLI, ['analyze', file, ...args]).toString());
  } catch (e) {
    return JSON.parse(e.stdout.toString());
  }
}

const text = (page, sel) => page.textContent(sel);

test('the first example: Fig. 1 warp-level CFG with its divergence edges and WCET', async () => {
  const { page, errors } = await openPage();
  // Hand-derived (crates/warpbound/tests/warp_cfg.rs): 2 divergence edges, WCET 10.
  await page.waitForFunction(() => document.querySelector('#stat-wcet').textContent === '10');
  assert.equal(await text(page, '#stat-divergence'), '2');
  assert.equal(await page.locator('#cfg-svg path.edge.divergence').count(), 2);
  // Worst-case path: entry, the taken side with the pending group, the resumed side, the
  // reconvergence block and the exit.
  assert.equal(await page.locator('#cfg-svg g.node.hot').count(), 5);
  // Clicking a block highlights its instructions in the table.
  await page.click('#cfg-svg g.node[data-id="0"]');
  assert.equal(await page.locator('#instructions tr.selected').count(), 4);
  // The thread-level CFG of the same kernel: 4 blocks, 4 edges, no WCET.
  await page.selectOption('#mode', 'cfg');
  await page.waitForFunction(() => document.querySelector('#stat-wcet').textContent === '—');
  assert.equal(await page.locator('#cfg-svg g.node').count(), 4);
  assert.equal(await page.locator('#cfg-svg path.edge').count(), 4);
  assert.equal(await page.locator('#cfg-svg path.edge.sync').count(), 2);
  assert.deepEqual(errors, []);
  await page.close();
});

test('a corpus kernel analyzes in the page as it does natively', async () => {
  const file = resolve(CORPUS, 'sass/FERMI_sm20_mgpu__FindMaxIndexLoop.sass');
  const source = readFileSync(file, 'utf8');
  const expected = native(['--mode', 'warp-cfg'], source);
  const { page, errors } = await openPage();
  await page.fill('#editor', source);
  await page.click('#analyze');
  await page.waitForFunction(() => document.querySelector('#stat-function').textContent === 'FindMaxIndexLoop');
  const instructions = Number(await text(page, '#stat-instructions'));
  assert.equal(instructions, source.split('\n').filter((l) => /\/\*[0-9a-fA-F]+\*\//.test(l)).length);
  assert.equal(instructions, 127);
  assert.equal(await page.locator('#cfg-svg g.node').count(), expected.cfg.nodes.length);
  assert.equal(await page.locator('#cfg-svg path.edge').count(), expected.cfg.edges.length);
  assert.equal(Number(await text(page, '#stat-wcet')), expected.wcet.cycles);
  assert.equal(Number(await text(page, '#stat-divergence')), expected['warp-cfg'].divergence_edges);
  assert.equal(await page.locator('#instructions tbody tr').count(), 127);
  assert.deepEqual(errors, []);
  await page.close();
});

test('loop bounds and ablation toggles re-run the analysis', async () => {
  const { page, errors } = await openPage();
  await page.selectOption('#example', 'fig3-tiled-matmul');
  // Hand-derived: B0 8 + 4 × (9 + 1 + 16 × 6 + 1 + 3) + 3 + 4 = 455.
  await page.waitForFunction(() => document.querySelector('#stat-wcet').textContent === '455');
  await page.click('[data-panel="panel-wcet"]');
  assert.equal(await page.locator('#loop-table tbody tr').count(), 2);
  // Halve the inner loop: 8 + 4 × (9 + 1 + 8 × 6 + 1 + 3) + 7 = 263.
  await page.fill('input[data-loop="0x0090"]', '8');
  await page.dispatchEvent('input[data-loop="0x0090"]', 'change');
  await page.waitForFunction(() => document.querySelector('#stat-wcet').textContent === '263');
  assert.equal(await text(page, '#wcet-value'), '263');
  // Ablation: without group relations the bound may only grow; it matches the CLI.
  await page.uncheck('#param-groups');
  await page.waitForFunction(() => document.querySelector('#param-groups').checked === false);
  const source = await page.inputValue('#editor');
  const expected = native(
    ['--mode', 'warp-cfg', '--loop-bound', '0x0040=4', '--loop-bound', '0x0090=8', '--set', 'groups=false'],
    source,
  );
  await page.waitForFunction((w) => document.querySelector('#stat-wcet').textContent === String(w), expected.wcet.cycles);
  assert.ok(expected.wcet.cycles >= 263);
  // An invalid number is flagged inline and not sent.
  await page.fill('#param-default_loop_bound', '-3');
  await page.dispatchEvent('#param-default_loop_bound', 'change');
  assert.equal(await page.locator('#param-default_loop_bound.invalid').count(), 1);
  assert.deepEqual(errors, []);
  await page.close();
});

test('garbage gives a located error and the page keeps working', async () => {
  const { page, errors } = await openPage();
  await page.fill('#editor', 'MOV R1, R2 ;\nthis is not a kernel\n');
  await page.focus('#editor');
  await page.keyboard.press('Control+Enter');
  const item = page.locator('#diagnostics li.error').first();
  await item.waitFor();
  assert.match(await item.textContent(), /line 2, column 1/);
  assert.match(await item.textContent(), /unrecognized line/);
  assert.equal(await text(page, '#stat-blocks'), '—');
  assert.equal(await page.locator('.gutter .ln.error').count(), 1);
  // Clicking the error puts the caret on the offending line.
  await item.click();
  const caretLine = await page.evaluate(() => {
    const t = document.querySelector('#editor');
    return t.value.slice(0, t.selectionStart).split('\n').length;
  });
  assert.equal(caretLine, 2);
  // Fix it and analyze again.
  await page.fill('#editor', '/*0000*/ MOV R1, R2 ;\n/*0008*/ EXIT ;\n');
  await page.click('#analyze');
  await page.waitForFunction(() => document.querySelector('#stat-wcet').textContent === '2');
  assert.equal(await text(page, '#stat-blocks'), '1');
  assert.equal(await page.locator('#diagnostics li.error').count(), 0);
  assert.deepEqual(errors, []);
  await page.close();
});
