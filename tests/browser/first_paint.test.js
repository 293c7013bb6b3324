// What the page shows before its engine is ready: the kernel it opens with, its result from
// the example's pinned report (issue #39 item 10) and how much of the wasm module has arrived
// — not an empty editor.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { ROOT, useSite, waitText } from './harness.js';

const site = useSite();

/** The first gallery example's kernel text, read from the gallery's files. */
function firstExample() {
  const manifest = JSON.parse(readFileSync(resolve(ROOT, 'www/examples/manifest.json'), 'utf8'));
  const ex = manifest.examples[0];
  return (ex.kernel_header || '') + readFileSync(resolve(ROOT, 'www/examples', ex.kernel), 'utf8');
}

test('while the engine loads, the editor shows the first example with its pinned result and a bar shows the download', async () => {
  const context = await site.browser.newContext({ viewport: { width: 1440, height: 900 } });
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
  // A slow link (8 Mbit/s): the 3 MB module takes seconds, long enough to look at the page.
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.emulateNetworkConditions', {
    offline: false,
    latency: 40,
    downloadThroughput: 1e6,
    uploadThroughput: 1e6,
  });
  await page.goto(site.server.url);
  // Part of the module is in, and no result yet.
  await page.waitForFunction(
    () => {
      const bar = document.querySelector('#loading');
      return !document.body.classList.contains('ready') && bar.value > 0 && bar.value < 1;
    },
    null,
    { timeout: 60000 },
  );
  assert.equal(await page.isVisible('#loading'), true);
  // The result is the example's pinned report; the engine is not there to analyse yet.
  assert.equal(await page.textContent('#stat-wcet'), '10');
  assert.equal(await page.locator('#cfg-svg g.node').count(), 6);
  assert.equal(await page.isDisabled('#analyze'), true);
  assert.match(await page.textContent('#status'), /pinned result — the engine is loading/);
  const shown = await page.innerText('.cm-content');
  const lines = firstExample()
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean)
    .slice(0, 5);
  for (const line of lines) assert.ok(shown.includes(line), `the editor shows "${line}"`);
  // Then the result, and the bar is gone.
  await page.waitForSelector('body.ready', { timeout: 120000 });
  await waitText(page, '#stat-wcet', 10);
  assert.equal(await page.isVisible('#loading'), false);
  assert.deepEqual(errors, []);
  await context.close();
});

test('text typed while the engine loads is kept and analysed, not replaced by the example', async () => {
  const context = await site.browser.newContext({ viewport: { width: 1440, height: 900 } });
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
  // The module is held back until the user has typed.
  let release;
  const held = new Promise((r) => (release = r));
  await context.route('**/*.wasm', async (route) => {
    await held;
    await route.continue();
  });
  await page.goto(site.server.url);
  await page.waitForSelector('.cm-content');
  const kernel = 'code for sm_61\n/*0008*/ MOV R1, c[0x0][0x20] ;\n/*0010*/ EXIT ;\n';
  await page.click('.cm-content');
  await page.keyboard.press('Control+A');
  await page.keyboard.insertText(kernel);
  assert.equal(await page.evaluate(() => document.body.classList.contains('ready')), false);
  release();
  await page.waitForSelector('body.ready', { timeout: 120000 });
  assert.equal(await page.evaluate(() => window.playground.request().source), kernel);
  await page.waitForFunction(() => window.playground.report()?.kernel?.instructions?.length === 2);
  assert.match(await page.textContent('#status'), /kept the text typed while the engine loaded/);
  assert.deepEqual(errors, []);
  await context.close();
});
