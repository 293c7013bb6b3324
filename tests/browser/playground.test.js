// The built playground in headless Chromium: analyze a real corpus kernel, and survive garbage.
// Expected numbers come from independent sources: address comments counted here, and the
// native `warpbound` CLI's report for the same file (wasm and native must agree).

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, existsSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { resolve } from 'node:path';
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

function countAddressComments(text) {
  return text.split('\n').filter((l) => /\/\*[0-9a-fA-F]+\*\//.test(l)).length;
}

test('the page starts with an example and its graph', async () => {
  const { page, errors } = await openPage();
  // The first example is the if-then-else: 10 instructions, 4 blocks, 4 edges.
  await page.waitForFunction(() => document.querySelector('#stat-blocks').textContent === '4');
  assert.equal(await page.textContent('#stat-instructions'), '10');
  assert.equal(await page.locator('#cfg-svg g.node').count(), 4);
  assert.equal(await page.locator('#cfg-svg path.edge').count(), 4);
  assert.equal(await page.locator('#cfg-svg path.edge.sync').count(), 2);
  // Clicking a block highlights its instructions in the table.
  await page.click('#cfg-svg g.node[data-id="1"]');
  assert.equal(await page.locator('#instructions tr.selected').count(), 2);
  assert.deepEqual(errors, []);
  await page.close();
});

test('a corpus kernel analyzes in the page as it does natively', async () => {
  const file = resolve(CORPUS, 'sass/FERMI_sm20_mgpu__FindMaxIndexLoop.sass');
  const text = readFileSync(file, 'utf8');
  const native = JSON.parse(execFileSync(CLI, ['analyze', file, '--dialect', 'sass']).toString());
  const { page, errors } = await openPage();
  await page.fill('#editor', text);
  await page.click('#analyze');
  await page.waitForFunction(() => document.querySelector('#stat-function').textContent === 'FindMaxIndexLoop');
  const instructions = Number(await page.textContent('#stat-instructions'));
  assert.equal(instructions, countAddressComments(text));
  assert.equal(instructions, 127);
  const nodes = await page.locator('#cfg-svg g.node').count();
  assert.equal(nodes, native.cfg.nodes.length);
  assert.equal(Number(await page.textContent('#stat-blocks')), nodes);
  assert.equal(await page.locator('#cfg-svg path.edge').count(), native.cfg.edges.length);
  assert.equal(await page.locator('#instructions tbody tr').count(), 127);
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
  assert.equal(await page.textContent('#stat-blocks'), '—');
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
  await page.waitForFunction(() => document.querySelector('#stat-blocks').textContent === '1');
  assert.equal(await page.locator('#diagnostics li.error').count(), 0);
  assert.deepEqual(errors, []);
  await page.close();
});
